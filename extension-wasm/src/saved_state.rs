//! Which cookies of a saved state (`firefox_storage_state {action: "load"}`) may go into the
//! browser. A state file can come from anywhere a page talked the agent into, so a cookie is
//! set only for a site the agent has open and the allowlists allow: otherwise a file could
//! plant an attacker's session on any site (session fixation), or — with a past expiry —
//! delete the user's own login.

use claudezilla_protocol::args::SavedCookie;

use crate::allowlist;

/// Why a cookie was not set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Skip {
    /// Its site is not open in any of the agent's tabs.
    NoTab,
    /// Its site is outside the user's or the agent's allowlist.
    NotAllowed,
    /// Its expiry has passed: setting it would delete the browser's cookie of that name.
    Expired,
    /// Its address or domain does not make sense together.
    Malformed,
}

impl Skip {
    pub fn reason(self) -> &'static str {
        match self {
            Self::NoTab => "no tab of yours on their site",
            Self::NotAllowed => "outside the allowed domains",
            Self::Expired => "expired (loading them would delete the browser's)",
            Self::Malformed => "address and domain do not match",
        }
    }
}

/// The site a cookie is for: its host (host-only) or its domain; and whether subdomains of it
/// get the cookie too.
fn site(c: &SavedCookie) -> Result<(String, bool), Skip> {
    let url_host = allowlist::host(&c.url).ok_or(Skip::Malformed)?;
    let domain = c.domain.trim_start_matches('.').to_ascii_lowercase();
    if c.host_only {
        return match domain.is_empty() || domain == url_host {
            true => Ok((url_host, false)),
            false => Err(Skip::Malformed),
        };
    }
    let under = url_host == domain || url_host.ends_with(&format!(".{domain}"));
    match under && !domain.is_empty() {
        true => Ok((domain, true)),
        false => Err(Skip::Malformed),
    }
}

/// May `c` be set, for an agent whose tabs show `open_hosts`, under `allowed` (the user's and
/// the agent's allowlists together, asked with a URL), at `now_s` (seconds since the epoch)?
pub fn admit(
    c: &SavedCookie,
    open_hosts: &[String],
    allowed: impl Fn(&str) -> bool,
    now_s: f64,
) -> Result<(), Skip> {
    let (site, with_subdomains) = site(c)?;
    if c.expires.is_some_and(|at| at <= now_s) {
        return Err(Skip::Expired);
    }
    if !allowed(&format!("https://{site}/")) {
        return Err(Skip::NotAllowed);
    }
    let open = open_hosts
        .iter()
        .any(|h| *h == site || (with_subdomains && h.ends_with(&format!(".{site}"))));
    match open {
        true => Ok(()),
        false => Err(Skip::NoTab),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cookie(url: &str, domain: &str, host_only: bool, expires: Option<f64>) -> SavedCookie {
        SavedCookie {
            url: url.into(),
            name: "sid".into(),
            value: "attacker".into(),
            domain: domain.into(),
            path: "/".into(),
            secure: false,
            http_only: true,
            expires,
            host_only,
        }
    }

    #[test]
    fn only_open_allowed_sites_get_cookies() {
        let open = vec!["app.example.com".to_string(), "127.0.0.1".to_string()];
        let any = |_: &str| true;
        let admit = |c: &SavedCookie| admit(c, &open, any, 1_000.0);
        assert_eq!(
            admit(&cookie("http://127.0.0.1/", "127.0.0.1", true, None)),
            Ok(())
        );
        // A domain cookie of the open site's parent is for the open site too.
        assert_eq!(
            admit(&cookie(
                "https://app.example.com/",
                ".example.com",
                false,
                Some(5_000.0)
            )),
            Ok(())
        );
        // A site the agent has no tab on: refused (session fixation).
        assert_eq!(
            admit(&cookie("https://bank.test/", "bank.test", true, None)),
            Err(Skip::NoTab)
        );
        // A host-only cookie of the parent domain is not the open subdomain's.
        assert_eq!(
            admit(&cookie("https://example.com/", "example.com", true, None)),
            Err(Skip::NoTab)
        );
        // A past expiry would delete the user's cookie.
        assert_eq!(
            admit(&cookie("http://127.0.0.1/", "127.0.0.1", true, Some(999.0))),
            Err(Skip::Expired)
        );
        // Address and domain that disagree.
        assert_eq!(
            admit(&cookie("https://evil.test/", ".example.com", false, None)),
            Err(Skip::Malformed)
        );
        assert_eq!(
            admit(&cookie("not a url", "", true, None)),
            Err(Skip::Malformed)
        );
    }

    #[test]
    fn the_allowlists_hold_for_loaded_cookies() {
        let open = vec!["app.example.com".to_string()];
        let only_app = |url: &str| allowlist::allows(&["app.example.com".into()], url);
        let c = cookie("https://app.example.com/", "app.example.com", true, None);
        assert_eq!(admit(&c, &open, only_app, 0.0), Ok(()));
        // A cookie for every subdomain of example.com reaches beyond the list.
        let wide = cookie("https://app.example.com/", ".example.com", false, None);
        assert_eq!(admit(&wide, &open, only_app, 0.0), Err(Skip::NotAllowed));
    }
}
