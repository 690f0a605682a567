//! Argument checks shared by the MCP server and the extension.

pub use crate::error::Invalid;

/// Longest CSS selector accepted (as Claudezilla).
pub const MAX_SELECTOR: usize = 1_000;
/// Longest URL accepted.
pub const MAX_URL: usize = 32 * 1024;
/// Per-call timeout bounds and default, in milliseconds.
pub const MIN_TIMEOUT_MS: u32 = 5_000;
pub const MAX_TIMEOUT_MS: u32 = 300_000;
pub const DEFAULT_TIMEOUT_MS: u32 = 150_000;

/// A whole number within `range`, or what is allowed and what was given.
pub fn within(
    field: &'static str,
    value: u32,
    range: std::ops::RangeInclusive<u32>,
) -> Result<(), Invalid> {
    if range.contains(&value) {
        return Ok(());
    }
    let (low, high) = range.into_inner();
    Err(Invalid::new(
        field,
        format!("must be between {low} and {high}, got {value}"),
    ))
}

/// Only pages an agent may open: http(s) with a host, file, and exactly `about:blank`.
/// Everything else — `javascript:`, `data:`, `blob:`, `moz-extension:`, `about:config`,
/// `view-source:` — could run code with our privileges or read the user's settings.
pub fn url(field: &'static str, url: &str) -> Result<(), Invalid> {
    const ALLOWED: &str = "allowed: http://, https://, file:// and about:blank";
    if url.len() > MAX_URL {
        return Err(Invalid::new(
            field,
            format!("is {} bytes, over the {MAX_URL}-byte limit", url.len()),
        ));
    }
    // Browsers strip leading/trailing whitespace and control characters before parsing, which
    // would let " javascript:…" past a naive scheme check: refuse them outright.
    if url.chars().any(|c| c.is_control()) || url.trim() != url {
        return Err(Invalid::new(
            field,
            "contains whitespace at an end or control characters",
        ));
    }
    if url == "about:blank" {
        return Ok(());
    }
    let Some((scheme, rest)) = url.split_once(':') else {
        return Err(Invalid::new(
            field,
            format!("{url:?} has no scheme; {ALLOWED}"),
        ));
    };
    match scheme.to_ascii_lowercase().as_str() {
        "http" | "https" => {
            let host = rest
                .strip_prefix("//")
                .map(|r| r.split(['/', '?', '#']).next().unwrap_or(""));
            match host {
                Some(h) if !h.is_empty() && !h.starts_with('@') => Ok(()),
                _ => Err(Invalid::new(
                    field,
                    format!("{url:?} has no host; write it as {scheme}://host/path"),
                )),
            }
        }
        "file" if rest.starts_with("//") => Ok(()),
        "file" => Err(Invalid::new(
            field,
            format!("{url:?} must start with file:///"),
        )),
        other => Err(Invalid::new(
            field,
            format!("scheme {other:?} is not allowed; {ALLOWED}"),
        )),
    }
}

/// A CSS selector: non-empty, at most [`MAX_SELECTOR`] characters. Its syntax is checked by the
/// browser itself, which says precisely what is wrong.
pub fn selector(field: &'static str, selector: &str) -> Result<(), Invalid> {
    if selector.trim().is_empty() {
        return Err(Invalid::new(
            field,
            "is empty; give a CSS selector such as \"#submit\" or \"form button\"",
        ));
    }
    let chars = selector.chars().count();
    if chars > MAX_SELECTOR {
        return Err(Invalid::new(
            field,
            format!("is {chars} characters; at most {MAX_SELECTOR} are allowed"),
        ));
    }
    Ok(())
}

/// The per-call timeout in ms: absent means the default; out of range is an error.
/// Is `d` a domain pattern of an allowlist: `example.com` (it and its subdomains) or
/// `*.example.com` (only its subdomains)?
pub fn domain_pattern(d: &str) -> bool {
    let host = d.strip_prefix("*.").unwrap_or(d);
    !host.is_empty()
        && host.len() <= 253
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
}

/// The user's allowlist as written in `CLAUDEZILLA_ALLOWED_DOMAINS` (`a.com, *.b.org`), lower
/// case. An entry that is not a domain pattern is kept: it matches no page, so a typo narrows
/// what loads instead of lifting the list.
pub fn domain_list(text: &str) -> Vec<String> {
    text.split([',', ' ', '\n'])
        .map(|d| d.trim().to_ascii_lowercase())
        .filter(|d| !d.is_empty())
        .collect()
}

pub fn timeout(ms: Option<u64>) -> Result<u32, Invalid> {
    let Some(ms) = ms else {
        return Ok(DEFAULT_TIMEOUT_MS);
    };
    match u32::try_from(ms) {
        Ok(ms) if (MIN_TIMEOUT_MS..=MAX_TIMEOUT_MS).contains(&ms) => Ok(ms),
        _ => Err(Invalid::new(
            "timeout",
            format!(
                "{ms} ms is outside {MIN_TIMEOUT_MS}–{MAX_TIMEOUT_MS} ms (default {DEFAULT_TIMEOUT_MS})"
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ErrorBody, ErrorCode};

    #[test]
    fn allowed_urls() {
        for ok in [
            "http://127.0.0.1:8080/page",
            "https://example.com",
            "HTTPS://EXAMPLE.COM/a?b#c",
            "https://user@example.com/",
            "file:///tmp/x.html",
            "about:blank",
        ] {
            assert_eq!(url("url", ok), Ok(()), "{ok}");
        }
    }

    #[test]
    fn refused_urls_say_what_is_allowed() {
        for bad in [
            "javascript:alert(1)",
            "JavaScript:alert(1)",
            "data:text/html,<b>x</b>",
            "blob:https://x/1",
            "moz-extension://abc/popup.html",
            "about:config",
            "about:blank#x",
            "view-source:https://example.com",
            " javascript:alert(1)",
            "https://exa\nmple.com",
            "https:/example.com",
            "https://",
            "https:///path",
            "file:/etc/passwd",
            "example.com",
            "",
        ] {
            let err = url("url", bad).expect_err(bad);
            assert_eq!(err.field, "url");
        }
        let err = url("url", "javascript:alert(1)").unwrap_err();
        assert!(
            err.message.contains("\"javascript\" is not allowed"),
            "{err}"
        );
        assert!(err.message.contains("about:blank"), "{err}");
        assert_eq!(ErrorBody::from(err).code, ErrorCode::BadUrl);
    }

    #[test]
    fn selectors() {
        assert!(selector("selector", "#a > b").is_ok());
        assert!(selector("selector", &"a".repeat(MAX_SELECTOR)).is_ok());
        assert!(selector("selector", &"a".repeat(MAX_SELECTOR + 1)).is_err());
        assert!(selector("selector", "  ").is_err());
        let err = ErrorBody::from(selector("selector", "").unwrap_err());
        assert_eq!(err.code, ErrorCode::InvalidArgument);
    }

    #[test]
    fn timeouts() {
        assert_eq!(timeout(None), Ok(DEFAULT_TIMEOUT_MS));
        assert_eq!(timeout(Some(5_000)), Ok(5_000));
        assert_eq!(timeout(Some(300_000)), Ok(300_000));
        for bad in [0, 4_999, 300_001, u64::MAX] {
            let err = timeout(Some(bad)).unwrap_err();
            assert!(err.message.contains("5000–300000"), "{err}");
        }
    }

    #[test]
    fn domain_patterns_and_the_users_list() {
        for ok in ["example.com", "*.docs.rs", "127.0.0.1", "a-b.example"] {
            assert!(domain_pattern(ok), "{ok}");
        }
        for bad in [
            "",
            "*.",
            "https://x.com",
            "x.com/a",
            "ex ample.com",
            "**.x.com",
        ] {
            assert!(!domain_pattern(bad), "{bad}");
        }
        assert_eq!(
            domain_list("Example.com,, *.docs.rs\nlocalhost "),
            ["example.com", "*.docs.rs", "localhost"]
        );
        assert!(domain_list(" , ").is_empty());
    }
}
