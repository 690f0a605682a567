//! URL globs for `firefox_wait_for {url}`: `*` matches within one path part (no `/`), `**`
//! matches anything, `?` one character; everything else is literal.
//!
//! Matching runs on the single-threaded background, so it must stay cheap whatever a page does
//! to its URL: the pattern is compiled to an automaton whose live states are a bitset, and the
//! text is read once (`O(text × pattern / 64)`, no backtracking). A hand-written matcher rather
//! than `globset`: that crate brings a regex engine (hundreds of KB) into the wasm module every
//! frame of every agent page loads, for a few dozen lines of logic.

use std::collections::HashMap;

/// Longer URLs never match (they are not real addresses; a page can make one to stall us).
pub const MAX_TEXT: usize = claudezilla_protocol::validate::MAX_URL;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    Char(char),
    Any,
    /// `*`: any run without `/`.
    Star,
    /// `**` (or more stars): any run.
    Stars,
}

/// A compiled glob.
#[derive(Debug, Clone)]
pub struct Glob {
    tokens: Vec<Token>,
    /// Per literal character, the positions that advance on it.
    on_char: HashMap<char, Vec<u64>>,
    /// Positions that advance on any character (`?`).
    on_any: Vec<u64>,
    /// Positions that stay on any character but `/` (`*`), or on any character (`**`).
    star: Vec<u64>,
    stars: Vec<u64>,
}

fn words(bits: usize) -> usize {
    bits.div_ceil(64)
}

fn set(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

fn get(bits: &[u64], i: usize) -> bool {
    bits[i / 64] & (1 << (i % 64)) != 0
}

/// `out = (a & mask) << 1`, across words.
fn advance(out: &mut [u64], a: &[u64], mask: &[u64]) {
    let mut carry = 0;
    for ((o, a), m) in out.iter_mut().zip(a).zip(mask) {
        let moved = a & m;
        *o |= (moved << 1) | carry;
        carry = moved >> 63;
    }
}

impl Glob {
    pub fn new(pattern: &str) -> Self {
        let mut tokens = Vec::new();
        let mut chars = pattern.chars().peekable();
        while let Some(c) = chars.next() {
            tokens.push(match c {
                '*' => {
                    let mut run = 1;
                    while chars.next_if_eq(&'*').is_some() {
                        run += 1;
                    }
                    if run == 1 { Token::Star } else { Token::Stars }
                }
                '?' => Token::Any,
                c => Token::Char(c),
            });
        }
        // States 0..=len: "the first n tokens are matched".
        let n = words(tokens.len() + 1);
        let mut glob = Self {
            on_char: HashMap::new(),
            on_any: vec![0; n],
            star: vec![0; n],
            stars: vec![0; n],
            tokens,
        };
        for (i, token) in glob.tokens.iter().enumerate() {
            match token {
                Token::Char(c) => set(glob.on_char.entry(*c).or_insert_with(|| vec![0; n]), i),
                Token::Any => set(&mut glob.on_any, i),
                Token::Star => set(&mut glob.star, i),
                Token::Stars => set(&mut glob.stars, i),
            }
        }
        glob
    }

    /// A star may match nothing: from its state, the next one is live too. Runs of stars were
    /// merged into one token, so one step reaches every such state.
    fn close(&self, live: &mut [u64]) {
        let mut skip = vec![0; live.len()];
        let either: Vec<u64> = self
            .star
            .iter()
            .zip(&self.stars)
            .map(|(a, b)| a | b)
            .collect();
        advance(&mut skip, live, &either);
        live.iter_mut().zip(skip).for_each(|(l, s)| *l |= s);
    }

    pub fn matches(&self, text: &str) -> bool {
        if text.len() > MAX_TEXT {
            return false;
        }
        let n = self.on_any.len();
        let mut live = vec![0; n];
        set(&mut live, 0);
        self.close(&mut live);
        for c in text.chars() {
            let mut next = vec![0; n];
            if let Some(mask) = self.on_char.get(&c) {
                advance(&mut next, &live, mask);
            }
            advance(&mut next, &live, &self.on_any);
            for (i, word) in next.iter_mut().enumerate() {
                *word |= live[i] & self.stars[i];
                if c != '/' {
                    *word |= live[i] & self.star[i];
                }
            }
            self.close(&mut next);
            if next.iter().all(|w| *w == 0) {
                return false;
            }
            live = next;
        }
        get(&live, self.tokens.len())
    }
}

/// Compiles `pattern` and matches `text` once.
pub fn matches(pattern: &str, text: &str) -> bool {
    Glob::new(pattern).matches(text)
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn globs() {
        assert!(matches("http://x/*.html", "http://x/a.html"));
        assert!(!matches("http://x/*.html", "http://x/a/b.html"));
        assert!(matches("http://x/**", "http://x/a/b.html?q=1"));
        assert!(matches("**/done", "http://127.0.0.1:80/flow/done"));
        assert!(matches("http://x/?", "http://x/a"));
        assert!(!matches("http://x/", "http://x/a"));
        assert!(matches("exact", "exact"));
        assert!(matches("", ""));
        assert!(!matches("", "a"));
        assert!(matches("*", ""));
        assert!(matches("a***b", "a/x/b"), "three stars are two");
        assert!(matches("*/*", "a/b"));
        assert!(!matches("*", "a/b"));
        assert!(!matches("*a*a*a*a*a*a*a*b", &"a".repeat(60)), "no blow-up");
    }

    #[test]
    fn states_beyond_one_word_carry_over() {
        let pattern = format!("{}*z", "a".repeat(70));
        assert!(matches(&pattern, &format!("{}yyz", "a".repeat(70))));
        assert!(!matches(&pattern, &format!("{}y/z", "a".repeat(70))));
        assert!(
            !matches("a", &"a".repeat(super::MAX_TEXT + 1)),
            "over-long URLs never match"
        );
    }
}
