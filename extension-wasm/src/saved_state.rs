//! Which cookies of a saved state (`firefox_storage_state {action: "load"}`) may go into the
//! browser. A state file can come from anywhere a page talked the agent into, so a cookie is
//! set only for a site the agent has open and the allowlists allow: otherwise a file could
//! plant an attacker's session on any site (session fixation), or — with a past expiry —
//! delete the user's own login.

use std::collections::BTreeMap;

use claudezilla_protocol::args::{
    MAX_SAVED, MAX_STORED_VALUE, SavedCookie, SavedOrigin, SavedState,
};
use claudezilla_protocol::reply::CookieInfo;
use serde::Deserialize;

use crate::allowlist;

/// A `cookies.Cookie` as the browser gives it, the fields we keep.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BrowserCookie {
    pub name: String,
    pub value: String,
    pub domain: String,
    pub path: String,
    pub secure: bool,
    pub http_only: bool,
    pub expiration_date: Option<f64>,
    #[serde(default)]
    pub host_only: bool,
}

impl BrowserCookie {
    /// As `firefox_cookies` shows it: name and value capped.
    pub fn shown(self) -> CookieInfo {
        CookieInfo {
            value: crate::text::cap(&self.value, MAX_STORED_VALUE),
            name: crate::text::cap(&self.name, 256),
            domain: self.domain,
            path: self.path,
            secure: self.secure,
            http_only: self.http_only,
            expires: self.expiration_date,
        }
    }
}

/// Adds the cookies a page (at `origin`) has to a state being saved: each (name, domain,
/// path) once, at most [`MAX_SAVED`].
pub fn save_cookies(state: &mut SavedState, origin: &str, cookies: Vec<BrowserCookie>) {
    for c in cookies {
        let known = state
            .cookies
            .iter()
            .any(|k| (&k.name, &k.domain, &k.path) == (&c.name, &c.domain, &c.path));
        if known || state.cookies.len() >= MAX_SAVED {
            continue;
        }
        state.cookies.push(SavedCookie {
            url: format!("{origin}{}", c.path),
            name: c.name,
            value: c.value,
            domain: c.domain,
            path: c.path,
            secure: c.secure,
            http_only: c.http_only,
            expires: c.expiration_date,
            host_only: c.host_only,
        });
    }
}

/// Adds an origin's local storage to a state being saved: each origin once, at most
/// [`MAX_SAVED`].
pub fn save_origin(state: &mut SavedState, origin: String, entries: Vec<(String, String)>) {
    if state.origins.len() < MAX_SAVED && !state.origins.iter().any(|o| o.origin == origin) {
        state.origins.push(SavedOrigin {
            origin,
            local_storage: entries,
        });
    }
}

/// What loading a state did, for its answer.
#[derive(Debug, Default)]
pub struct LoadReport {
    pub set: usize,
    skipped: BTreeMap<Skip, Vec<String>>,
    filled: Vec<String>,
    missing: Vec<String>,
}

impl LoadReport {
    /// A cookie not set, and why (each site named once per reason).
    pub fn skip(&mut self, why: Skip, c: &SavedCookie) {
        let sites = self.skipped.entry(why).or_default();
        let site = c.domain.trim_start_matches('.').to_owned();
        if !sites.contains(&site) {
            sites.push(site);
        }
    }

    /// An origin's local storage was loaded (`true`) or had no tab of the agent's to go into.
    pub fn origin(&mut self, origin: &str, loaded: bool) {
        let list = if loaded {
            &mut self.filled
        } else {
            &mut self.missing
        };
        list.push(origin.to_owned());
    }

    /// The answer: of `total` cookies, how many went into `jar`, what was left out and why,
    /// and what to do about it.
    pub fn words(&self, total: usize, jar: &str) -> String {
        let mut what = format!(
            "Loaded {} of {total} cookies into {jar}; local storage of {} site(s): {}.",
            self.set,
            self.filled.len(),
            self.filled.join(", ")
        );
        for (why, sites) in &self.skipped {
            what.push_str(&format!(
                " Not loaded, {}: cookies of {}.",
                why.reason(),
                crate::text::cap(&sites.join(", "), 500)
            ));
        }
        if self.skipped.contains_key(&Skip::NoTab) || !self.missing.is_empty() {
            what.push_str(" Open a tab on a site (within the allowed domains) and load again for its cookies and storage.");
        }
        if !self.missing.is_empty() {
            what.push_str(&format!(
                " Local storage not loaded (no tab of yours there): {}.",
                self.missing.join(", ")
            ));
        }
        what
    }
}

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

    fn browser_cookie(name: &str, domain: &str) -> BrowserCookie {
        BrowserCookie {
            name: name.into(),
            value: "v".into(),
            domain: domain.into(),
            path: "/".into(),
            secure: true,
            http_only: false,
            expiration_date: None,
            host_only: !domain.starts_with('.'),
        }
    }

    #[test]
    fn a_saved_state_keeps_each_cookie_and_origin_once_within_bounds() {
        let mut state = SavedState::default();
        let page = vec![
            browser_cookie("sid", "a.test"),
            browser_cookie("t", ".a.test"),
        ];
        save_cookies(&mut state, "https://a.test", page.clone());
        save_cookies(&mut state, "https://a.test", page);
        assert_eq!(state.cookies.len(), 2);
        assert_eq!(state.cookies[0].url, "https://a.test/");
        assert!(state.cookies[0].host_only && !state.cookies[1].host_only);
        let many = (0..MAX_SAVED + 3)
            .map(|i| browser_cookie(&format!("c{i}"), "b.test"))
            .collect();
        save_cookies(&mut state, "https://b.test", many);
        assert_eq!(state.cookies.len(), MAX_SAVED);
        save_origin(
            &mut state,
            "https://a.test".into(),
            vec![("k".into(), "v".into())],
        );
        save_origin(&mut state, "https://a.test".into(), Vec::new());
        assert_eq!(state.origins.len(), 1);
        assert_eq!(state.origins[0].local_storage.len(), 1);
    }

    #[test]
    fn a_load_report_says_what_was_left_out_and_what_to_do() {
        let mut report = LoadReport {
            set: 1,
            ..LoadReport::default()
        };
        let c = |domain: &str| SavedCookie {
            url: format!("https://{}/", domain.trim_start_matches('.')),
            name: "n".into(),
            value: "v".into(),
            domain: domain.into(),
            path: "/".into(),
            secure: true,
            http_only: false,
            expires: None,
            host_only: false,
        };
        report.skip(Skip::NoTab, &c(".b.test"));
        report.skip(Skip::NoTab, &c("b.test"));
        report.skip(Skip::Expired, &c("c.test"));
        report.origin("https://a.test", true);
        report.origin("https://d.test", false);
        assert_eq!(
            report.words(4, "your container Work"),
            "Loaded 1 of 4 cookies into your container Work; local storage of 1 site(s): https://a.test. \
             Not loaded, no tab of yours on their site: cookies of b.test. \
             Not loaded, expired (loading them would delete the browser's): cookies of c.test. \
             Open a tab on a site (within the allowed domains) and load again for its cookies and storage. \
             Local storage not loaded (no tab of yours there): https://d.test."
        );
        let clean = LoadReport::default();
        assert_eq!(
            clean.words(0, "the user's session"),
            "Loaded 0 of 0 cookies into the user's session; local storage of 0 site(s): ."
        );
    }

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
