//! Property tests (the fuzz targets of this crate): the URL glob and the allowlist's host
//! parser take page- and agent-controlled strings on the background's single thread.

use claudezilla_extension_wasm::{allowlist, glob};
use proptest::prelude::*;

/// The obvious backtracking matcher, exponential in the worst case: the oracle for small inputs.
fn oracle(p: &[char], t: &[char]) -> bool {
    match p.first() {
        None => t.is_empty(),
        Some('*') if p.get(1) == Some(&'*') => {
            let rest = &p[p.iter().take_while(|c| **c == '*').count()..];
            (0..=t.len()).any(|k| oracle(rest, &t[k..]))
        }
        Some('*') => {
            let stop = t.iter().position(|c| *c == '/').unwrap_or(t.len());
            (0..=stop).any(|k| oracle(&p[1..], &t[k..]))
        }
        Some('?') => !t.is_empty() && oracle(&p[1..], &t[1..]),
        Some(c) => t.first() == Some(c) && oracle(&p[1..], &t[1..]),
    }
}

fn small(alphabet: &'static str, max: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(
        proptest::sample::select(alphabet.chars().collect::<Vec<_>>()),
        0..max,
    )
    .prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn glob_agrees_with_the_backtracking_oracle(p in small("ab/*?", 9), t in small("ab/", 10)) {
        let (pc, tc): (Vec<char>, Vec<char>) = (p.chars().collect(), t.chars().collect());
        prop_assert_eq!(glob::matches(&p, &t), oracle(&pc, &tc), "{:?} on {:?}", p, t);
    }

    #[test]
    fn glob_never_panics(p in any::<String>(), t in any::<String>()) {
        let _ = glob::matches(&p, &t);
    }

    /// Security property: whenever the allowlist lets a URL through for `allowed.test`, the
    /// browser's parser (WHATWG, here the `url` crate) finds a host that is allowed.test or
    /// one of its subdomains — never another site.
    #[test]
    fn an_allowed_url_never_reaches_another_host(
        scheme in proptest::sample::select(vec!["https:", "http:", "HTTP:", "ftp:", "file:", "x-y:", "https:/", "https://"]),
        parts in proptest::collection::vec(proptest::sample::select(vec![
            "allowed.test", "evil.test", ".", "/", "\\", "@", ":", "?", "#", "%2e", "%40", "[", "]",
            "\t", "\n", " ", "80", "a", "A", "user", ":pw", "www.", "allowed.test.", "%5c",
        ]), 0..8),
    ) {
        let url = format!("{scheme}{}", parts.concat());
        let patterns = vec!["allowed.test".to_owned()];
        if allowlist::allows(&patterns, &url) {
            let parsed = url::Url::parse(&url);
            if let Ok(parsed) = parsed {
                let host = parsed.host_str().unwrap_or("").trim_end_matches('.').to_ascii_lowercase();
                prop_assert!(
                    host == "allowed.test" || host.ends_with(".allowed.test"),
                    "{:?} allowed, but the browser goes to {:?}", url, host
                );
            }
        }
    }

    #[test]
    fn the_host_parser_never_panics(url in any::<String>()) {
        let _ = allowlist::host(&url);
    }
}
