//! Per-agent domain allowlists (`firefox_set_config{allowedDomains}`): which URLs an agent's
//! tabs may load. Pure, so the matching rules are tested natively.

/// True when `url` may load under `patterns` (no patterns: everything may).
///
/// `example.com` allows the domain and its subdomains, `*.example.com` only the subdomains.
/// Pages without a host are refused under an allowlist, except `about:blank`.
pub fn allows(patterns: &[String], url: &str) -> bool {
    if patterns.is_empty() || url == "about:blank" {
        return true;
    }
    let Some(host) = host(url) else {
        return false;
    };
    patterns.iter().any(|p| matches(p, &host))
}

fn matches(pattern: &str, host: &str) -> bool {
    let pattern = pattern.to_ascii_lowercase();
    let (base, subdomains_only) = match pattern.strip_prefix("*.") {
        Some(base) => (base, true),
        None => (pattern.as_str(), false),
    };
    let sub = host
        .strip_suffix(base)
        .is_some_and(|rest| rest.ends_with('.'));
    sub || (!subdomains_only && host == base)
}

/// The lower-case host of an absolute URL with an authority (`scheme://[user@]host[:port]/…`).
pub fn host(url: &str) -> Option<String> {
    let (_, rest) = url.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next()?;
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = match host_port.strip_prefix('[') {
        Some(v6) => v6.split(']').next()?,
        None => host_port.split(':').next()?,
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    (!host.is_empty()).then_some(host)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(p: &[&str]) -> Vec<String> {
        p.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn domains_include_subdomains_wildcards_only_subdomains() {
        let l = list(&["example.com", "*.test.org", "127.0.0.1"]);
        assert!(allows(&l, "https://example.com/a"));
        assert!(allows(&l, "https://WWW.Example.com:8443/a?b#c"));
        assert!(allows(&l, "http://user:pw@api.example.com/"));
        assert!(!allows(&l, "https://notexample.com/"));
        assert!(!allows(&l, "https://example.com.evil.net/"));
        assert!(!allows(&l, "https://evil.net/?example.com"));
        assert!(!allows(&l, "https://evil.net/#@example.com"));
        assert!(allows(&l, "https://a.test.org/"));
        assert!(!allows(&l, "https://test.org/"));
        assert!(allows(&l, "http://127.0.0.1:8000/page"));
        assert!(!allows(&l, "http://127.0.0.2/"));
    }

    #[test]
    fn no_list_allows_all_and_hostless_pages_are_refused_under_one() {
        assert!(allows(&[], "data:text/html,hi"));
        let l = list(&["example.com"]);
        assert!(allows(&l, "about:blank"));
        assert!(!allows(&l, "data:text/html,hi"));
        assert!(!allows(&l, "about:config"));
        assert_eq!(host("http://[::1]:80/x").as_deref(), Some("::1"));
        assert_eq!(
            host("https://Example.COM./").as_deref(),
            Some("example.com")
        );
    }
}
