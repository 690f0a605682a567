//! Finding a secret's value in text, in every form a page or an answer writes it, so that no
//! answer carries it: the content script hides the secrets typed in its tab before it cuts,
//! joins or matches any text (`<secret:NAME>`), and the MCP server passes every answer and
//! every argument through the same search last (`<redacted:NAME>`, or a refusal).
//!
//! Each character of a value is matched in any of the forms browsers and libraries write it
//! in, mixed as they mix them: as is (ASCII case ignored: CSS `text-transform`), percent-
//! encoded (any of the URL standard's sets, `encodeURIComponent`, a form body's `+`, then
//! re-encoded by the URL parser, hex in either case), as an HTML entity (`outerHTML` never
//! escapes `'`; our own escaping writes `&#39;`), or as a JSON escape. A run of white space in
//! the value matches any run of white space (a page's text collapses it). Positions stay
//! byte positions of the text searched.
//!
//! Not found: a value the page transforms otherwise (reversed, hashed, base64, cut into
//! parts with other text between), and case changes beyond ASCII letters.

use std::borrow::Cow;
use std::ops::Range;

use crate::args::SecretName;

/// Values recognised in text, and the secret each stands for.
#[derive(Default, Clone)]
pub struct Hider {
    names: Vec<SecretName>,
    values: Vec<Value>,
}

/// One value to find: its characters, white-space runs folded to one `' '`.
#[derive(Clone)]
struct Value {
    chars: Vec<char>,
    secret: usize,
}

/// Never the values: commands and states are printed with `{:?}`.
impl std::fmt::Debug for Hider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(&self.names).finish()
    }
}

/// Where a value was found: the bytes of the text, and which secrets (more than one where
/// two values overlap: the span covers both).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Span {
    range: Range<usize>,
    secrets: Vec<usize>,
}

impl Hider {
    pub fn new<'a>(secrets: impl IntoIterator<Item = (&'a SecretName, &'a str)>) -> Self {
        let mut hider = Self::default();
        for (name, value) in secrets {
            let secret = hider.names.len();
            hider.names.push(name.clone());
            let chars: Vec<char> = value
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .chars()
                .collect();
            if !chars.is_empty() {
                hider.values.push(Value { chars, secret });
            }
        }
        hider
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Every place a value shows in `text`, in order, overlapping finds joined into one.
    fn spans(&self, text: &str) -> Vec<Span> {
        if self.is_empty() || text.is_empty() {
            return Vec::new();
        }
        let mut found: Vec<(Range<usize>, usize)> = self
            .values
            .iter()
            .flat_map(|value| value.all_in(text).map(move |r| (r, value.secret)))
            .collect();
        found.sort_by_key(|(r, _)| (r.start, std::cmp::Reverse(r.end)));
        let mut spans: Vec<Span> = Vec::new();
        for (range, secret) in found {
            match spans.last_mut() {
                // Inside what is hidden already (`hunter2` in `hunter2-and-more`).
                Some(last) if range.end <= last.range.end => {}
                Some(last) if range.start < last.range.end => {
                    last.range.end = range.end;
                    if !last.secrets.contains(&secret) {
                        last.secrets.push(secret);
                    }
                }
                _ => spans.push(Span {
                    range,
                    secrets: vec![secret],
                }),
            }
        }
        spans
    }

    /// The first secret whose value `text` holds, in any form.
    pub fn first_in(&self, text: &str) -> Option<&SecretName> {
        let span = self.spans(text).into_iter().next()?;
        Some(&self.names[span.secrets[0]])
    }

    /// `text` with every value replaced by `mark` of its secret's name.
    pub fn hide<'t>(&self, text: &'t str, mark: fn(&SecretName) -> String) -> Cow<'t, str> {
        self.hide_mapped(text, mark).0
    }

    /// `text` hidden, with the map from positions in it back to positions in `text` (a match
    /// found in the hidden text names the page's element at the original place).
    pub fn hide_mapped<'t>(
        &self,
        text: &'t str,
        mark: fn(&SecretName) -> String,
    ) -> (Cow<'t, str>, Shifts) {
        let spans = self.spans(text);
        if spans.is_empty() {
            return (Cow::Borrowed(text), Shifts::default());
        }
        let mut out = String::with_capacity(text.len());
        let mut shifts = Vec::with_capacity(spans.len());
        let mut at = 0;
        for span in spans {
            out.push_str(&text[at..span.range.start]);
            let start = out.len();
            for secret in &span.secrets {
                out.push_str(&mark(&self.names[*secret]));
            }
            shifts.push(Shift {
                hidden: start..out.len(),
                original: span.range.clone(),
            });
            at = span.range.end;
        }
        out.push_str(&text[at..]);
        (Cow::Owned(out), Shifts(shifts))
    }
}

impl Value {
    /// Each place this value shows in `text`, not overlapping itself.
    fn all_in<'t>(&'t self, text: &'t str) -> impl Iterator<Item = Range<usize>> + 't {
        let first = self.chars[0];
        let mut from = 0;
        std::iter::from_fn(move || {
            while from < text.len() {
                // Where a form of the first character can begin: the character itself (either
                // case), or an escape's first byte.
                let found = text[from..]
                    .char_indices()
                    .find(|(_, c)| matches!(c, '%' | '&' | '\\') || c.eq_ignore_ascii_case(&first));
                let (offset, c) = found?;
                let start = from + offset;
                from = start + c.len_utf8();
                if let Some(end) = self.matched_at(text, start) {
                    from = end;
                    return Some(start..end);
                }
            }
            None
        })
    }

    /// Where this value ends if it starts at `at`: each character in any of its forms,
    /// longest first, trying the next where the rest does not follow (`&` may be `&amp;`'s
    /// first letter). The tries are bounded, so no text makes a search slow.
    fn matched_at(&self, text: &str, at: usize) -> Option<usize> {
        let mut budget = MAX_TRIES;
        self.rest_from(text, at, 0, &mut budget)
    }

    fn rest_from(&self, text: &str, at: usize, i: usize, budget: &mut u32) -> Option<usize> {
        let Some(&c) = self.chars.get(i) else {
            return Some(at);
        };
        *budget = budget.checked_sub(1)?;
        let mut lengths = match c {
            ' ' => spaces(&text[at..]),
            c => forms_of(&text[at..], c),
        };
        lengths.sort_unstable_by(|a, b| b.cmp(a));
        lengths
            .into_iter()
            .find_map(|len| self.rest_from(text, at + len, i + 1, budget))
    }
}

/// Most tries for a value at one place (a value's every character with a few forms each).
const MAX_TRIES: u32 = 4_096;

/// The lengths of the white-space runs (raw or escaped, one unit at least) `text` starts
/// with.
fn spaces(text: &str) -> Vec<usize> {
    let mut ends = Vec::new();
    let mut at = 0;
    loop {
        let rest = &text[at..];
        let len = match (rest.chars().next(), percent_char(rest)) {
            (Some(c), _) if c.is_whitespace() => c.len_utf8(),
            (_, Some((c, len))) if c.is_whitespace() => len,
            _ => ESCAPED_SPACES
                .iter()
                .find(|s| starts_ignoring_case(rest, s))
                .map_or(0, |s| s.len()),
        };
        if len == 0 {
            return ends;
        }
        at += len;
        ends.push(at);
    }
}

/// White space as forms, HTML and JSON write it (percent-encoded: any white space).
const ESCAPED_SPACES: &[&str] = &[
    "+", "&nbsp;", "&#32;", "&#160;", "\\n", "\\t", "\\r", "\\u00a0",
];

/// The lengths of the forms of `c` that `text` starts with.
fn forms_of(text: &str, c: char) -> Vec<usize> {
    let mut lengths = Vec::new();
    if let Some(first) = text.chars().next()
        && (first == c || (c.is_ascii_alphabetic() && first.eq_ignore_ascii_case(&c)))
    {
        lengths.push(first.len_utf8());
    }
    lengths.extend(
        percent_char(text)
            .filter(|(p, _)| *p == c)
            .map(|(_, len)| len),
    );
    lengths.extend(
        escapes(c)
            .iter()
            .filter(|e| starts_ignoring_case(text, e))
            .map(|e| e.len()),
    );
    lengths
}

/// The character `text` starts with percent-encoded (its UTF-8 bytes as `%XX` each, hex in
/// either case), and the length of its encoding.
fn percent_char(text: &str) -> Option<(char, usize)> {
    let byte_at = |i: usize| -> Option<u8> {
        let unit = text.as_bytes().get(i * 3..i * 3 + 3)?;
        let hex = std::str::from_utf8(unit.strip_prefix(b"%")?).ok()?;
        u8::from_str_radix(hex, 16).ok()
    };
    let first = byte_at(0)?;
    let len = match first {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => return None,
    };
    let mut bytes = [first, 0, 0, 0];
    for (i, byte) in bytes.iter_mut().enumerate().take(len).skip(1) {
        *byte = byte_at(i)?;
    }
    let c = std::str::from_utf8(&bytes[..len]).ok()?.chars().next()?;
    Some((c, len * 3))
}

/// How HTML and JSON escape `c` (entities by name and number, JSON's backslashes and the
/// `\u00XX` some serialisers write for characters HTML minds).
fn escapes(c: char) -> &'static [&'static str] {
    match c {
        '&' => &["&amp;", "&#38;", "&#x26;", "\\u0026"],
        '<' => &["&lt;", "&#60;", "&#x3c;", "\\u003c"],
        '>' => &["&gt;", "&#62;", "&#x3e;", "\\u003e"],
        '"' => &["&quot;", "&#34;", "&#x22;", "\\\"", "\\u0022"],
        '\'' => &["&#39;", "&#x27;", "&apos;", "\\u0027", "\\'"],
        '\\' => &["\\\\", "\\u005c"],
        '/' => &["\\/"],
        '=' => &["\\u003d"],
        _ => &[],
    }
}

fn starts_ignoring_case(text: &str, prefix: &str) -> bool {
    text.as_bytes()
        .get(..prefix.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(prefix.as_bytes()))
}

/// Positions in a hidden text mapped back to the text it was made from.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Shifts(Vec<Shift>);

#[derive(Debug, Clone, PartialEq, Eq)]
struct Shift {
    hidden: Range<usize>,
    original: Range<usize>,
}

impl Shifts {
    /// The position in the original text of `at` in the hidden one (a placeholder's any
    /// position: where its value started).
    pub fn original(&self, at: usize) -> usize {
        let before = self.0.partition_point(|s| s.hidden.start <= at);
        let Some(shift) = before.checked_sub(1).map(|i| &self.0[i]) else {
            return at;
        };
        if at < shift.hidden.end {
            return shift.original.start;
        }
        at - shift.hidden.end + shift.original.end
    }
}

#[cfg(test)]
mod tests;
