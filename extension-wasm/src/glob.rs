//! URL globs for `firefox_wait_for {url}`: `*` matches within one path part (no `/`), `**`
//! matches anything, `?` one character; everything else is literal.

pub fn matches(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    // memo[i][j]: does p[i..] match t[j..]? Bounded work, no exponential backtracking.
    let mut memo = vec![vec![None; t.len() + 1]; p.len() + 1];
    go(&p, &t, 0, 0, &mut memo)
}

fn go(p: &[char], t: &[char], i: usize, j: usize, memo: &mut Vec<Vec<Option<bool>>>) -> bool {
    if let Some(known) = memo[i][j] {
        return known;
    }
    let result = match p.get(i) {
        None => j == t.len(),
        Some('*') if p.get(i + 1) == Some(&'*') => (j..=t.len()).any(|k| go(p, t, i + 2, k, memo)),
        Some('*') => {
            let mut k = j;
            loop {
                if go(p, t, i + 1, k, memo) {
                    break true;
                }
                if k == t.len() || t[k] == '/' {
                    break false;
                }
                k += 1;
            }
        }
        Some('?') => j < t.len() && go(p, t, i + 1, j + 1, memo),
        Some(c) => t.get(j) == Some(c) && go(p, t, i + 1, j + 1, memo),
    };
    memo[i][j] = Some(result);
    result
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
        assert!(!matches("*a*a*a*a*a*a*a*b", &"a".repeat(60)), "no blow-up");
    }
}
