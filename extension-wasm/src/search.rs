//! `firefox_find`: where a text or pattern shows in a frame's rendered text. The content
//! script joins the frame's visible text nodes into one text (inline elements run together,
//! blocks are lines) and keeps where each node starts; matching, counting, the limit and the
//! line of context are decided here.

pub mod walk;

use std::ops::Range;

use claudezilla_protocol::args::Words;
use regex_lite::{Regex, RegexBuilder};

/// Characters of context on each side of a match.
const CONTEXT_CHARS: usize = 60;
/// Largest compiled pattern (bytes, as regex-lite counts them on this target): its time is the
/// pattern's size times the text's. The longest text (500 characters, any case) takes at most
/// 22 KiB; a counted repeat such as `.{2000}` is refused.
const PATTERN_SIZE: usize = 32 * 1024;
/// Longest a search may keep a frame's process busy (reading its text and matching), and all
/// frames' together: the page's process may be the user's too.
pub const SEARCH_MS: f64 = 2_000.0;
/// Text matched between two looks at the clock (bytes): one piece of the costliest pattern
/// allowed takes a few hundred ms.
const PIECE: usize = 8 * 1024;
/// How far past its piece a match is looked for at first (bytes); a match that reaches the
/// end of what was looked at is looked for again twice as far, so it is found whole. A match
/// that starts in a piece and ends further than this, without running on to the end of what
/// was looked at (`a.*b` with the `b` far on), is found from the next piece on.
const REACH: usize = 4 * 1024;

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
    pub fn new(needle: &Words) -> Result<Self, String> {
        let source = match needle {
            Words::Text(text) => format!("(?i){}", regex_lite::escape(text)),
            Words::Pattern(pattern) => pattern.clone(),
        };
        RegexBuilder::new(&source)
            .size_limit(PATTERN_SIZE)
            .build()
            .map(Self)
            .map_err(|e| format!("pattern: {e}"))
    }

    /// Calls `found` with every non-empty match in `text`, in order, while `in_time()` holds
    /// (asked before each step, each bounded by a piece of text). Returns how far it searched
    /// (bytes): all of `text` unless the time ran out.
    pub fn scan(
        &self,
        text: &str,
        in_time: impl FnMut() -> bool,
        found: impl FnMut(Range<usize>),
    ) -> usize {
        self.scan_in(text, (PIECE, REACH), in_time, found)
    }

    /// [`scan`](Self::scan) a `piece` at a time, looking `reach` past it at first. Matches
    /// no longer than `reach` are the ones a search of the whole text finds.
    fn scan_in(
        &self,
        text: &str,
        (piece, reach): (usize, usize),
        mut in_time: impl FnMut() -> bool,
        mut found: impl FnMut(Range<usize>),
    ) -> usize {
        let (mut at, mut piece_end, mut seen_end) = (0, 0, 0);
        while at < text.len() {
            if !in_time() {
                return at;
            }
            if at >= piece_end {
                piece_end = boundary(text, at + piece);
                seen_end = boundary(text, piece_end + reach);
            }
            match self.0.find_at(&text[..seen_end], at).map(|m| m.range()) {
                Some(m) if m.start < piece_end && m.end == seen_end && seen_end < text.len() => {
                    // It may run on past what was looked at.
                    seen_end = boundary(text, seen_end + (seen_end - at));
                }
                Some(m) if m.start < piece_end => {
                    at = match m.is_empty() {
                        true => m.end + text[m.end..].chars().next().map_or(1, char::len_utf8),
                        false => m.end,
                    };
                    if !m.is_empty() {
                        found(m);
                    }
                }
                _ => at = piece_end,
            }
        }
        text.len()
    }
}

/// The first character boundary of `text` at or after `at` (its end at most).
fn boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

/// The line `at` is on, at most `CONTEXT_CHARS` each side, the match between « and ».
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

/// Bytes of one frame's text searched (a page's worth many times over).
pub const MAX_TEXT: usize = 4_000_000;

/// Why a frame's search ended before the end of its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    Size,
    Time,
}

impl Stop {
    /// In words that are the same for every frame (the answer says each once).
    pub fn words(self) -> String {
        match self {
            Self::Size => format!(
                "a frame's text is longer than {MAX_TEXT} bytes: the rest of it was not searched"
            ),
            Self::Time => format!(
                "the time ran out ({SEARCH_MS} ms a search, or the call's timeout) before the end of a frame's text"
            ),
        }
    }
}

/// A frame's shown text joined into one string as the walk hands it its pieces: the words of
/// each text run with single spaces, blocks on lines of their own, at most `max` bytes; and
/// which owner (`O`, the element) holds each piece.
#[derive(Debug)]
pub struct Joined<O> {
    pub text: String,
    pub starts: Vec<usize>,
    pub owners: Vec<O>,
    /// Why the text ends before the page's does, if it does.
    pub stopped: Option<Stop>,
    max: usize,
}

impl<O> Joined<O> {
    pub fn new(max: usize) -> Self {
        Self {
            text: String::new(),
            starts: Vec::new(),
            owners: Vec::new(),
            stopped: None,
            max,
        }
    }

    /// Bytes of a text run worth reading: as much as could still fit (a UTF-16 unit is at
    /// least one byte of UTF-8), so a huge node is not copied whole.
    pub fn room(&self) -> usize {
        self.max.saturating_sub(self.text.len())
    }

    /// One text run, held by `owner` (asked only of a run with words: finding a text's
    /// element is a read of the page, and most runs between elements are blank).
    pub fn run(&mut self, raw: &str, owner: impl FnOnce() -> O) {
        let words: Vec<&str> = raw.split_whitespace().collect();
        let spaced = self.text.is_empty() || self.text.ends_with([' ', '\n']);
        if words.is_empty() {
            if !raw.is_empty() && !spaced {
                self.push(" ");
            }
            return;
        }
        if raw.starts_with(char::is_whitespace) && !spaced {
            self.push(" ");
        }
        self.starts.push(self.text.len());
        self.owners.push(owner());
        self.push(&words.join(" "));
        if raw.ends_with(char::is_whitespace) {
            self.push(" ");
        }
    }

    /// Adds `piece`, as much of it as fits: the text never grows past its bound.
    fn push(&mut self, piece: &str) {
        let mut fits = piece.len().min(self.room());
        while !piece.is_char_boundary(fits) {
            fits -= 1;
        }
        if fits < piece.len() {
            self.stopped = Some(Stop::Size);
        }
        self.text.push_str(&piece[..fits]);
    }

    /// A block starts or ends: what follows goes on a line of its own.
    pub fn line_break(&mut self) {
        let trimmed = self.text.trim_end_matches(' ').len();
        self.text.truncate(trimmed);
        if !self.text.is_empty() && !self.text.ends_with('\n') {
            self.push("\n");
        }
    }
}

#[cfg(test)]
mod tests {
    use claudezilla_protocol::args::MAX_FIND_NEEDLE;
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn runs_join_with_single_spaces_and_blocks_on_their_own_lines() {
        let mut j = Joined::new(MAX_TEXT);
        j.run("  Hello,\n   ", || 1);
        j.run("world ", || 2);
        j.run("   ", || unreachable!("a blank run has no owner to read"));
        j.line_break();
        j.run("Next", || 4);
        j.run("line", || 5);
        j.line_break();
        j.line_break();
        assert_eq!(j.text, "Hello, world\nNextline\n");
        assert_eq!(j.starts, [0, 7, 13, 17]);
        assert_eq!(j.owners, [1, 2, 4, 5]);
        assert_eq!(j.stopped, None);
        assert_eq!(piece_at(&j.starts, 9), 1, "world's owner");
    }

    #[test]
    fn the_text_never_grows_past_its_bound_nor_splits_a_character() {
        let mut j = Joined::new(10);
        j.run("ééééé", || 0);
        assert_eq!(j.text.len(), 10);
        j.run("more", || 1);
        assert_eq!(j.text, "ééééé");
        assert_eq!(j.stopped, Some(Stop::Size));
        assert_eq!(j.room(), 0);
        let mut odd = Joined::new(5);
        odd.run("aé", || 0);
        odd.run(" é", || 1);
        assert_eq!(odd.text, "aé ", "the space fits, the next é does not");
        assert!(Stop::Size.words().contains("4000000 bytes"));
    }

    /// Patterns whose matches are at most 8 bytes long, or run on greedily.
    const PATTERNS: &[&str] = &[
        "ab", "a|ab", r"\bab\b", "b$", "^a", "(?m)^b", "(?m)a$", "[ab]+", "a+?", "x*", "(?i)AB",
        "é", "a.{0,3}b", "b*", r"\s", "", r"a\b", "(?s)b.?a", "[^a]{2}",
    ];

    fn text(t: &str) -> Finder {
        Finder::new(&Words::Text(t.into())).unwrap()
    }

    fn pattern(p: &str) -> Finder {
        Finder::new(&Words::Pattern(p.into())).unwrap()
    }

    /// Every match (start, end), with all the time in the world.
    fn hits(f: &Finder, hay: &str) -> Vec<(usize, usize)> {
        let mut hits = Vec::new();
        assert_eq!(
            f.scan(hay, || true, |at| hits.push((at.start, at.end))),
            hay.len()
        );
        hits
    }

    #[test]
    fn text_is_found_in_any_case_and_literally() {
        let f = text("a.b (C)");
        assert_eq!(hits(&f, "x A.B (c) y a.b (C) axb (C)"), [(2, 9), (12, 19)]);
    }

    #[test]
    fn a_search_stops_when_its_time_runs_out_and_says_how_far_it_got() {
        let hay = "needle ".repeat(10_000);
        let mut looks = 0;
        let mut found = Vec::new();
        let upto = text("needle").scan(
            &hay,
            || {
                looks += 1;
                looks <= 3
            },
            |at| found.push(at),
        );
        assert_eq!(found.len(), 3, "one match a look");
        assert_eq!(upto, found[2].end);
        // A pattern that matches nowhere still looks at the clock every piece of text.
        let mut looks = 0;
        let upto = pattern("[a-z ]{300}x").scan(
            &hay,
            || {
                looks += 1;
                looks <= 2
            },
            |_| {},
        );
        assert!(upto <= 2 * PIECE, "searched {upto} bytes in two looks");
    }

    #[test]
    fn the_size_of_a_pattern_is_bounded_and_the_longest_text_fits() {
        let e = Finder::new(&Words::Pattern(".{2000}".into()))
            .err()
            .unwrap();
        assert!(e.starts_with("pattern:"), "{e}");
        let longest: String = "Ab'c dé ".chars().cycle().take(MAX_FIND_NEEDLE).collect();
        let hay = format!("x{}", longest.to_ascii_uppercase());
        assert_eq!(hits(&text(&longest), &hay), [(1, hay.len())]);
    }

    #[test]
    fn matches_that_run_past_a_piece_are_found_whole() {
        let hay = format!("{}{}b", "x".repeat(PIECE - 3), "a".repeat(3 * REACH));
        assert_eq!(hits(&pattern("a+"), &hay), [(PIECE - 3, hay.len() - 1)]);
        assert_eq!(hits(&pattern("(?s).+"), &hay), [(0, hay.len())]);
        assert_eq!(hits(&pattern("x$"), &hay), []);
        assert_eq!(hits(&pattern(r"a\b"), &hay), []);
        // Longer than the reach and not yet ended where the piece was searched: found from
        // the next piece on.
        assert_eq!(hits(&pattern("a+b"), &hay), [(PIECE, hay.len())]);
    }

    #[test]
    fn patterns_are_regular_expressions_and_bad_ones_say_why() {
        let f = Finder::new(&Words::Pattern(r"\d{3}-\d{4}".into())).unwrap();
        assert_eq!(hits(&f, "call 555-1234 or 5551234").len(), 1);
        let e = Finder::new(&Words::Pattern("(unclosed".into()))
            .err()
            .unwrap();
        assert!(e.starts_with("pattern:"), "{e}");
        assert_eq!(
            hits(&pattern("x*"), "aaa"),
            [],
            "empty matches are not matches"
        );
        assert_eq!(hits(&pattern("x*"), "aéxx"), [(3, 5)]);
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
            if let Ok(f) = Finder::new(&Words::Pattern(pattern)) {
                for (start, end) in hits(&f, &hay) {
                    let at = start..end;
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
            prop_assert!(hits(&text(&needle), &hay).into_iter().any(|(s, e)| hay[s..e].eq_ignore_ascii_case(&needle)));
        }

        /// Searched a piece at a time, a text gives the matches a search of it whole gives
        /// (those no longer than the reach, and those that run on greedily).
        #[test]
        fn pieces_find_what_the_whole_text_holds(
            which in 0..PATTERNS.len(),
            hay in "[ab é\n]{0,300}",
            piece in 1usize..40,
            reach in 8usize..20,
        ) {
            let f = pattern(PATTERNS[which]);
            let whole: Vec<_> = f.0.find_iter(&hay).map(|m| m.range()).filter(|r| !r.is_empty()).collect();
            let mut pieces = Vec::new();
            prop_assert_eq!(f.scan_in(&hay, (piece, reach), || true, |at| pieces.push(at)), hay.len());
            prop_assert_eq!(pieces, whole);
        }
    }
}
