//! Domain allowlists: the user's (the popup, or `CLAUDEZILLA_ALLOWED_DOMAINS`), which holds for
//! every agent, and each agent's own (`firefox_set_config{allowedDomains}`), which may only
//! narrow the user's. A URL loads when both allow it. Pure, so the rules are tested natively.

use claudezilla_protocol::{ErrorBody, ErrorCode};

/// The user's list in force: the environment's when it set one (the popup cannot change
/// that), else the popup's.
pub fn users<'a>(environment: &'a [String], popup: &'a [String]) -> &'a [String] {
    match environment.is_empty() {
        true => popup,
        false => environment,
    }
}

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

/// Does every host `pattern` allows also pass `user`'s list (an empty list passes all)? An
/// agent's list may only narrow the user's.
pub fn within(user: &[String], pattern: &str) -> bool {
    if user.is_empty() {
        return true;
    }
    let pattern = pattern.to_ascii_lowercase();
    let (base, subdomains_only) = split(&pattern);
    user.iter().any(|u| {
        let u = u.to_ascii_lowercase();
        let (user_base, user_subdomains_only) = split(&u);
        let below = base
            .strip_suffix(user_base)
            .is_some_and(|rest| rest.ends_with('.'));
        below || (base == user_base && (subdomains_only || !user_subdomains_only))
    })
}

/// `*.example.com` → (`example.com`, only subdomains); `example.com` → (it, and subdomains).
fn split(pattern: &str) -> (&str, bool) {
    match pattern.strip_prefix("*.") {
        Some(base) => (base, true),
        None => (pattern, false),
    }
}

fn matches(pattern: &str, host: &str) -> bool {
    let pattern = pattern.to_ascii_lowercase();
    let (base, subdomains_only) = split(&pattern);
    let sub = host
        .strip_suffix(base)
        .is_some_and(|rest| rest.ends_with('.'));
    sub || (!subdomains_only && host == base)
}

/// Schemes whose URLs the browser parses with the "special" rules: `\\` counts as `/`, and
/// any run of slashes after the colon leads to the host.
/// `file:` is special too, but reaches its host only after exactly two slashes.
const SPECIAL: [&str; 5] = ["http", "https", "ws", "wss", "ftp"];

/// The lower-case host of an absolute URL, found the way the browser finds it (the WHATWG URL
/// standard): tabs and newlines are dropped, `\\` ends the authority like `/` in web URLs,
/// the user info ends at the last `@`. A host the browser would read differently must never
/// pass for an allowed one: when in doubt this answers a host that matches no pattern.
pub fn host(url: &str) -> Option<String> {
    let cleaned: String = url
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let trimmed = cleaned.trim_matches(|c: char| c <= ' ');
    let (scheme, rest) = trimmed.split_once(':')?;
    let valid_scheme = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !valid_scheme {
        return None;
    }
    let scheme = scheme.to_ascii_lowercase();
    let slash = |c: char| c == '/' || c == '\\';
    let (rest, ends): (&str, &[char]) = if SPECIAL.contains(&scheme.as_str()) {
        (rest.trim_start_matches(slash), &['/', '\\', '?', '#'])
    } else if scheme == "file" {
        let mut two = rest.chars();
        if !(two.next().is_some_and(slash) && two.next().is_some_and(slash)) {
            return None;
        }
        (two.as_str(), &['/', '\\', '?', '#'])
    } else {
        (rest.strip_prefix("//")?, &['/', '?', '#'])
    };
    let authority = &rest[..rest.find(ends).unwrap_or(rest.len())];
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = match host_port.strip_prefix('[') {
        Some(v6) => v6.split(']').next()?,
        None => host_port.split(':').next()?,
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    (!host.is_empty()).then_some(host)
}

/// `scheme://host[:port]` of a URL: how another agent's or the user's tab is shown to an
/// agent, without the path and query where a page keeps what is private.
pub fn origin(url: &str) -> String {
    if url == "about:blank" {
        return url.to_owned();
    }
    let Some((scheme, rest)) = url.split_once("://") else {
        return url
            .split(':')
            .next()
            .map(|s| format!("{s}:"))
            .unwrap_or_default();
    };
    let authority = rest.split(['/', '\\', '?', '#']).next().unwrap_or("");
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    crate::text::cap(&format!("{scheme}://{host}"), 300)
}

/// An agent's own list, checked to lie within the user's and kept in lower case; the
/// domains that would widen it refused by name.
pub fn narrow(user: &[String], domains: Vec<String>) -> Result<Vec<String>, ErrorBody> {
    let wider: Vec<&str> = domains
        .iter()
        .map(String::as_str)
        .filter(|d| !within(user, d))
        .collect();
    if !wider.is_empty() {
        return Err(ErrorBody::new(
            ErrorCode::NotAllowed,
            format!(
                "{} lies outside the user's allowed domains ({}): an agent may narrow that list, never widen it",
                wider.join(", "),
                user.join(", ")
            ),
        )
        .with_hint("name domains within the user's list; only the user can change it, in the Claudezilla toolbar popup"));
    }
    Ok(domains
        .into_iter()
        .map(|d| d.to_ascii_lowercase())
        .collect())
}

/// Why a tab whose agent has `own` list (if any) may not load `url` under the `user`'s, if it
/// may not: whose list refuses it, the address shown without credentials.
pub fn refusal(user: &[String], own: Option<&[String]>, url: &str) -> Option<ErrorBody> {
    let shown = crate::redact::shown_url(url, 300);
    if !allows(user, url) {
        return Some(
            ErrorBody::new(
                ErrorCode::NotAllowed,
                format!(
                    "{shown} is outside the user's allowed domains ({}); the load was not allowed",
                    user.join(", ")
                ),
            )
            .with_hint("stay on those domains; only the user can widen the list, in the Claudezilla toolbar popup"),
        );
    }
    let own = own?;
    if allows(own, url) {
        return None;
    }
    Some(
        ErrorBody::new(
            ErrorCode::NotAllowed,
            format!(
                "{shown} is outside your allowed domains ({}); the load was not allowed",
                own.join(", ")
            ),
        )
        .with_hint(
            "stay on those domains, or change your list with firefox_set_config{allowedDomains}",
        ),
    )
}

/// Why a frame of an agent tab was not loaded, if the `user`'s list keeps it out (what reading
/// that frame later says).
pub fn frame_refusal(user: &[String], url: &str) -> Option<String> {
    (!allows(user, url)).then(|| {
        format!(
            "a frame of {} was not loaded: outside the user's allowed domains",
            crate::redact::shown_url(url, 300)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(p: &[&str]) -> Vec<String> {
        p.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_environments_list_stands_over_the_popups() {
        let (env, popup) = (list(&["example.com"]), list(&["test.org"]));
        assert_eq!(users(&env, &popup), env);
        assert_eq!(users(&[], &popup), popup);
        assert!(users(&[], &[]).is_empty());
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
        // The browser reads `\\` as `/`: the host here is evil.net, not example.com.
        assert!(!allows(&l, "https://evil.net\\@example.com/"));
        assert!(!allows(&l, "https:\\\\evil.net\\@example.com/"));
        assert!(!allows(&l, "https://evil.net\t\\@example.com/"));
        assert!(
            allows(&l, "https:example.com/"),
            "the browser's host is example.com"
        );
        assert!(allows(&l, "https://a.test.org/"));
        assert!(!allows(&l, "https://test.org/"));
        assert!(allows(&l, "http://127.0.0.1:8000/page"));
        assert!(!allows(&l, "http://127.0.0.2/"));
    }

    #[test]
    fn origins_drop_user_info_path_query_and_fragment() {
        assert_eq!(
            origin("https://u:p@mail.example.com:8443/inbox/42?q=secret#x"),
            "https://mail.example.com:8443"
        );
        assert_eq!(origin("http://127.0.0.1/a"), "http://127.0.0.1");
        assert_eq!(origin("about:blank"), "about:blank");
        assert_eq!(origin("about:reader?url=secret"), "about:");
        assert_eq!(origin("data:text/html,secret"), "data:");
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

    #[test]
    fn an_agents_list_may_only_narrow_the_users() {
        let user = list(&["example.com", "*.docs.rs"]);
        for narrower in [
            "example.com",
            "api.example.com",
            "*.example.com",
            "*.api.example.com",
            "*.docs.rs",
            "serde.docs.rs",
            "EXAMPLE.com",
        ] {
            assert!(within(&user, narrower), "{narrower}");
        }
        for wider in [
            "docs.rs",
            "evil.net",
            "com",
            "ample.com",
            "*.com",
            "example.com.evil.net",
        ] {
            assert!(!within(&user, wider), "{wider}");
        }
        assert!(within(&[], "anything.net"), "no user list: anything");
    }

    #[test]
    fn an_agent_narrows_the_users_list_never_widens_it() {
        let user = list(&["example.com"]);
        assert_eq!(
            narrow(&user, list(&["API.Example.com", "*.example.com"])).unwrap(),
            ["api.example.com", "*.example.com"]
        );
        let e = narrow(&user, list(&["shop.example.com", "evil.net"])).unwrap_err();
        assert_eq!(e.code, ErrorCode::NotAllowed);
        assert!(
            e.message
                .starts_with("evil.net lies outside the user's allowed domains (example.com)")
        );
        assert_eq!(narrow(&[], list(&["any.org"])).unwrap(), ["any.org"]);
    }

    #[test]
    fn a_refusal_says_whose_list_and_hides_credentials() {
        let user = list(&["example.com"]);
        let own = list(&["api.example.com"]);
        assert!(refusal(&user, Some(&own), "https://api.example.com/x").is_none());
        assert!(refusal(&user, None, "https://www.example.com/").is_none());
        let users = refusal(&user, Some(&own), "https://bob:hunter2@evil.net/").unwrap();
        assert!(
            users.message.contains("outside the user's allowed domains"),
            "{}",
            users.message
        );
        assert!(!users.message.contains("hunter2"), "{}", users.message);
        let agents = refusal(&user, Some(&own), "https://www.example.com/").unwrap();
        assert!(
            agents
                .message
                .contains("outside your allowed domains (api.example.com)")
        );
        assert!(agents.hint.unwrap().contains("firefox_set_config"));
    }

    #[test]
    fn a_frame_outside_the_users_list_is_refused_in_words_without_credentials() {
        let user = list(&["example.com"]);
        assert_eq!(frame_refusal(&user, "https://example.com/f"), None);
        assert_eq!(
            frame_refusal(&user, "https://ads.test/f?token=abc").as_deref(),
            Some(
                "a frame of https://ads.test/f?token=[redacted] was not loaded: outside the user's allowed domains"
            )
        );
        assert_eq!(frame_refusal(&[], "https://ads.test/f"), None, "no list");
    }
}
