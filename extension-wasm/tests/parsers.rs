//! Property tests (the fuzz targets of this crate): the URL glob, the allowlist's host parser
//! and the body redactor take page- and agent-controlled strings on the background's single
//! thread.

use claudezilla_extension_wasm::{allowlist, glob, redact};
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    /// Any text: no panic, and text without credential names comes back unchanged.
    #[test]
    fn redaction_takes_any_text(text in "\\PC{0,200}") {
        let out = redact::redact_body(&text);
        if !text.contains("[redacted]") && out.len() == text.len() {
            prop_assert_eq!(&out, &text);
        }
    }

    /// A credential field in any wrapping and at any cut: its value never shows.
    #[test]
    fn a_credential_never_survives_its_wrapping_or_a_cut(
        before in small("{[ ,\n\"ab:=&)]}'", 12),
        name in proptest::sample::select(vec!["access_token", "refresh_token", "password", "session", "api_key"]),
        quote in proptest::sample::select(vec!["\"", "'"]),
        gap in small(" \t", 3),
        after in small("}] ,\n\"x", 8),
        cut in 0usize..80,
    ) {
        let secret = "Zq9SECRETzq9";
        let field = format!("{quote}{name}{quote}{gap}:{gap}{quote}{secret}{quote}");
        let whole = format!("{before}{field}{after}");
        // Cut anywhere after the value starts, as a capture's byte limit would.
        let value_at = before.len() + field.find(secret).unwrap_or(0);
        let end = (value_at + 1 + cut).min(whole.len());
        let text = &whole[..end];
        let out = redact::redact_body(text);
        // Even the part of the value before the cut is gone.
        prop_assert!(!out.contains("Zq9"), "{:?} → {:?}", text, out);
        let form = redact::redact_body(&format!("{before}&{name}={secret}&{after}"));
        prop_assert!(!form.contains(secret), "{:?}", form);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    /// An agent's pattern that passes `within` the user's list never allows a host the user's
    /// list refuses.
    #[test]
    fn an_agents_list_within_the_users_never_widens_it(
        user in proptest::collection::vec(pattern(), 1..3),
        agent in pattern(),
        host in host_name(),
    ) {
        if allowlist::within(&user, &agent) && allowlist::allows(std::slice::from_ref(&agent), &format!("https://{host}/")) {
            prop_assert!(allowlist::allows(&user, &format!("https://{host}/")), "{:?} {:?} {:?}", user, agent, host);
        }
    }
}

/// A host of up to three labels from a small set, so lists and hosts meet often.
fn host_name() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(vec!["a", "b", "ab", "com"]), 1..4)
        .prop_map(|labels| labels.join("."))
}

fn pattern() -> impl Strategy<Value = String> {
    (any::<bool>(), host_name()).prop_map(|(wild, h)| if wild { format!("*.{h}") } else { h })
}
