//! `firefox_find`: where a text or pattern shows in a frame's rendered text. The content
//! script joins the frame's visible text nodes into one text (inline elements run together,
//! blocks are lines) and keeps where each node starts; matching, counting, the limit and the
//! line of context are decided here.

use std::ops::Range;

use claudezilla_protocol::args::Needle;
use regex_lite::{Regex, RegexBuilder};

/// Characters of context on each side of a match.
const CONTEXT_CHARS: usize = 60;
/// Largest compiled pattern (bytes): regex-lite's time is the pattern's size times the
/// text's, so this bounds what one search costs the page.
const PATTERN_SIZE: usize = 64 * 1024;

/// Tags whose text runs on with its neighbours' (everything else starts a line).
const INLINE: &[&str] = &[
    "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "font", "i", "kbd",
    "label", "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var",
];

/// Does text under `tag` run on with the text before it?
pub fn is_inline(tag: &str) -> bool {
    INLINE.contains(&tag)
}

/// A text or pattern, compiled: text matches in any (ASCII) case; a pattern as written.
pub struct Finder(Regex);

impl Finder {
    pub fn new(needle: &Needle) -> Result<Self, String> {
        let source = match needle {
            Needle::Text(text) => format!("(?i){}", regex_lite::escape(text)),
            Needle::Pattern(pattern) => pattern.clone(),
        };
        RegexBuilder::new(&source)
            .size_limit(PATTERN_SIZE)
            .build()
            .map(Self)
            .map_err(|e| format!("pattern: {e}"))
    }

    /// Every non-empty match in `text`, in order.
    pub fn all<'a>(&'a self, text: &'a str) -> impl Iterator<Item = Range<usize>> + 'a {
        self.0
            .find_iter(text)
            .map(|m| m.range())
            .filter(|r| !r.is_empty())
    }
}

/// The line `at` is on, at most [`CONTEXT_CHARS`] each side, the match between « and ».
pub fn context(text: &str, at: Range<usize>) -> String {
    let line_start = text[..at.start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at.end..].find('\n').map_or(text.len(), |i| at.end + i);
    let before = &text[line_start..at.start];
    let after = &text[at.end..line_end];
    let before_kept = last_chars(before, CONTEXT_CHARS);
    let after_kept = first_chars(after, CONTEXT_CHARS);
    let lead = if before_kept.len() < before.len() {
        "…"
    } else {
        ""
    };
    let tail = if after_kept.len() < after.len() {
        "…"
    } else {
        ""
    };
    let matched = first_chars(&text[at.clone()], 2 * CONTEXT_CHARS);
    format!(
        "{lead}{}«{matched}»{}{tail}",
        before_kept.trim_start(),
        after_kept.trim_end()
    )
}

fn first_chars(s: &str, n: usize) -> &str {
    crate::text::truncate_chars(s, n).0
}

fn last_chars(s: &str, n: usize) -> &str {
    let count = s.chars().count();
    if count <= n {
        return s;
    }
    let skip = s.char_indices().nth(count - n).map_or(0, |(i, _)| i);
    &s[skip..]
}

/// Which piece a byte offset of the joined text falls in, given where each piece starts
/// (ascending): the last that starts at or before it.
pub fn piece_at(starts: &[usize], offset: usize) -> usize {
    starts.partition_point(|&s| s <= offset).saturating_sub(1)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn text(t: &str) -> Finder {
        Finder::new(&Needle::Text(t.into())).unwrap()
    }

    #[test]
    fn text_is_found_in_any_case_and_literally() {
        let f = text("a.b (C)");
        let hits: Vec<_> = f.all("x A.B (c) y a.b (C) axb (C)").collect();
        assert_eq!(hits, [2..9, 12..19]);
    }

    #[test]
    fn patterns_are_regular_expressions_and_bad_ones_say_why() {
        let f = Finder::new(&Needle::Pattern(r"\d{3}-\d{4}".into())).unwrap();
        assert_eq!(f.all("call 555-1234 or 5551234").count(), 1);
        let e = Finder::new(&Needle::Pattern("(unclosed".into()))
            .err()
            .unwrap();
        assert!(e.starts_with("pattern:"), "{e}");
        let empty = Finder::new(&Needle::Pattern("x*".into())).unwrap();
        assert_eq!(empty.all("aaa").count(), 0, "empty matches are not matches");
    }

    #[test]
    fn context_is_the_line_around_the_match() {
        let t = "first line\nthe price is 42 euros today\nlast";
        let at = t.find("42").unwrap();
        assert_eq!(context(t, at..at + 2), "the price is «42» euros today");
        let long = format!("{}needle{}", "é".repeat(100), "z".repeat(100));
        let at = long.find("needle").unwrap();
        let c = context(&long, at..at + 6);
        assert_eq!(c, format!("…{}«needle»{}…", "é".repeat(60), "z".repeat(60)));
    }

    #[test]
    fn offsets_fall_in_the_piece_that_holds_them() {
        let starts = [0, 5, 9, 9, 20];
        assert_eq!(piece_at(&starts, 0), 0);
        assert_eq!(piece_at(&starts, 4), 0);
        assert_eq!(piece_at(&starts, 5), 1);
        assert_eq!(piece_at(&starts, 9), 3);
        assert_eq!(piece_at(&starts, 100), 4);
    }

    proptest! {
        /// Any pattern an agent or page writes either compiles or says why, matches only inside
        /// the text, and every match's context holds it.
        #[test]
        fn any_pattern_is_safe(pattern in ".{0,40}", hay in "[a-zé\\n .*()]{0,200}") {
            if let Ok(f) = Finder::new(&Needle::Pattern(pattern)) {
                for at in f.all(&hay) {
                    prop_assert!(at.end <= hay.len());
                    let c = context(&hay, at.clone());
                    let shown = first_chars(&hay[at], 2 * CONTEXT_CHARS);
                    let marked = format!("«{shown}»");
                    prop_assert!(c.contains(&marked));
                }
            }
        }

        /// Text is found wherever it is put, whatever it holds.
        #[test]
        fn text_is_found_where_it_is(needle in "[a-z.*+?()\\[\\]{}|^$\\\\]{1,10}", before in "[ -~]{0,30}") {
            let hay = format!("{before}{needle}");
            prop_assert!(text(&needle).all(&hay).any(|r| hay[r].eq_ignore_ascii_case(&needle)));
        }
    }
}
