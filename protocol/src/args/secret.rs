//! Secrets from the user's secrets file (`claudezilla-mcp --secrets FILE`). An agent names
//! one; the MCP server fills in its value and the sites it is bound to; the content script of
//! the frame holding the field checks its own site and the field's kind, then types the
//! value. No answer carries a value: the frame hides it as `<secret:NAME>` wherever its page
//! shows it, and the MCP server replaces any it still sees with `<redacted:NAME>`
//! ([`crate::hiding`]).

use std::fmt;

use serde::{Deserialize, Serialize};

/// Longest secret name.
pub const MAX_SECRET_NAME: usize = 64;

/// A secret's name as the file writes it: a letter or `_`, then letters, digits and `_`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct SecretName(String);

impl TryFrom<String> for SecretName {
    type Error = String;

    fn try_from(name: String) -> Result<Self, String> {
        let mut chars = name.chars();
        let first_ok = chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
        let rest_ok = chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !first_ok || !rest_ok || name.len() > MAX_SECRET_NAME {
            return Err(format!(
                "a secret's name is a letter or _, then letters, digits or _ (at most \
                 {MAX_SECRET_NAME}), as in the secrets file; got {:?}",
                name.chars().take(80).collect::<String>()
            ));
        }
        Ok(Self(name))
    }
}

impl From<SecretName> for String {
    fn from(name: SecretName) -> Self {
        name.0
    }
}

impl SecretName {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// What answers show in the value's place, where the frame hid it.
    pub fn placeholder(&self) -> String {
        format!("<secret:{}>", self.0)
    }

    /// What answers show in the value's place where the MCP server's last pass caught it
    /// (said apart from [`Self::placeholder`], so a test sees which of the two hid it).
    pub fn redacted(&self) -> String {
        format!("<redacted:{}>", self.0)
    }
}

impl fmt::Display for SecretName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A secret's value and the sites it may be typed into (none: any site).
#[derive(Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FilledSecret {
    pub name: SecretName,
    pub value: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sites: Vec<Site>,
}

/// Never the value: errors and logs print commands with `{:?}`.
impl fmt::Debug for FilledSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FilledSecret")
            .field("name", &self.name)
            .field(
                "value",
                &format_args!("<{} chars>", self.value.chars().count()),
            )
            .field("sites", &self.sites)
            .finish()
    }
}

/// A site a secret is bound to: a host (lower case; its subdomains included), and whether
/// the user let the secret go into any text field there (`@host:any-field`), not only into
/// the fields a login form uses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Site {
    host: String,
    any_field: bool,
}

/// How a site's word ends when the user lets a secret into any field there.
const ANY_FIELD: &str = ":any-field";

impl TryFrom<String> for Site {
    type Error = String;

    /// `github.com` or `github.com:any-field` (`*.` allowed, meaning the same: a bound site
    /// always includes its subdomains).
    fn try_from(word: String) -> Result<Self, String> {
        let (host, any_field) = match word.strip_suffix(ANY_FIELD) {
            Some(host) => (host, true),
            None => (word.as_str(), false),
        };
        let host = host
            .strip_prefix("*.")
            .unwrap_or(host)
            .trim_end_matches('.');
        // A colon only inside an IPv6 address's brackets: no port, no other option.
        let ipv6 = host.starts_with('[') && host.ends_with(']');
        let ok = !host.is_empty()
            && host.chars().all(|c| {
                c.is_ascii_alphanumeric() || matches!(c, '.' | '-') || (ipv6 && "[]:".contains(c))
            });
        if !ok {
            return Err(format!(
                "a site is a host name such as @github.com (no scheme, port or path), \
                 optionally followed by {ANY_FIELD}"
            ));
        }
        Ok(Self {
            host: host.to_ascii_lowercase(),
            any_field,
        })
    }
}

impl From<Site> for String {
    fn from(site: Site) -> Self {
        match site.any_field {
            true => format!("{}{ANY_FIELD}", site.host),
            false => site.host,
        }
    }
}

impl Site {
    pub fn host(&self) -> &str {
        &self.host
    }

    /// Whether `host` (lower case) is this site or one of its subdomains.
    fn holds(&self, host: &str) -> bool {
        host == self.host
            || host
                .strip_suffix(self.host.as_str())
                .is_some_and(|sub| sub.ends_with('.'))
    }
}

/// The fields a secret may go into on a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fields {
    /// Password fields, and fields marked `autocomplete` username, current-password,
    /// new-password or one-time-code: where a login form takes it. An issue's comment box on
    /// the bound site is not one (its text would publish the value).
    Login,
    /// Any text field: the user said so for this site (`@host:any-field`).
    Any,
}

impl FilledSecret {
    /// Whether the page at `scheme` (`https:`, as `location.protocol` writes it) and `host`
    /// may receive this secret: a bound site or one of its subdomains, over https (http only on
    /// this machine's loopback, where nothing travels). The fields it may go into there, or
    /// the reason it may not.
    pub fn may_go_to(&self, scheme: &str, host: &str) -> Result<Fields, String> {
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        let loopback = matches!(host.as_str(), "localhost" | "127.0.0.1" | "[::1]" | "::1");
        if scheme != "https:" && !(scheme == "http:" && loopback) {
            return Err(format!(
                "secret {} is typed only into https pages, and this frame is {scheme}//{host}",
                self.name
            ));
        }
        if self.sites.is_empty() {
            return Ok(Fields::Login);
        }
        let mut bound = self
            .sites
            .iter()
            .filter(|site| site.holds(&host))
            .peekable();
        if bound.peek().is_none() {
            let sites: Vec<&str> = self.sites.iter().map(Site::host).collect();
            return Err(format!(
                "secret {} is bound to {}; this frame is {host}",
                self.name,
                sites.join(", ")
            ));
        }
        match bound.any(|site| site.any_field) {
            true => Ok(Fields::Any),
            false => Ok(Fields::Login),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bound(sites: &[&str]) -> FilledSecret {
        FilledSecret {
            name: SecretName("GH".into()),
            value: "hunter2-long".into(),
            sites: sites
                .iter()
                .map(|s| Site::try_from(s.to_string()).unwrap())
                .collect(),
        }
    }

    #[test]
    fn names_are_the_files_identifiers() {
        for good in ["GITHUB_PASSWORD", "_x", "a1"] {
            assert!(SecretName::try_from(good.to_owned()).is_ok(), "{good}");
        }
        for bad in ["", "1A", "A-B", "A B", "É", &"A".repeat(65)] {
            assert!(SecretName::try_from(bad.to_owned()).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_bound_secret_goes_to_its_site_and_subdomains_over_https_only() {
        let s = bound(&["github.com"]);
        assert!(s.may_go_to("https:", "github.com").is_ok());
        assert!(s.may_go_to("https:", "gist.github.com").is_ok());
        assert!(s.may_go_to("https:", "GitHub.com.").is_ok());
        for (scheme, host) in [
            ("https:", "evilgithub.com"),
            ("https:", "github.com.evil.example"),
            ("http:", "github.com"),
            ("https:", "example.com"),
        ] {
            let e = s.may_go_to(scheme, host).unwrap_err();
            assert!(!e.contains("hunter2"), "{e}");
        }
        assert!(
            bound(&["localhost"])
                .may_go_to("http:", "localhost")
                .is_ok()
        );
        assert_eq!(
            bound(&[]).may_go_to("https:", "anywhere.example"),
            Ok(Fields::Login)
        );
        assert!(bound(&[]).may_go_to("http:", "anywhere.example").is_err());
        assert!(bound(&[]).may_go_to("file:", "").is_err());
    }

    #[test]
    fn any_field_is_the_users_word_for_a_site() {
        let s = bound(&["github.com", "docs.example:any-field"]);
        assert_eq!(s.may_go_to("https:", "github.com"), Ok(Fields::Login));
        assert_eq!(s.may_go_to("https:", "a.docs.example"), Ok(Fields::Any));
        let site = Site::try_from("*.Docs.Example.:any-field".to_owned()).unwrap();
        assert_eq!(String::from(site), "docs.example:any-field");
        for bad in ["", ":any-field", "https://x.com", "x.com/path", "x.com:any"] {
            assert!(Site::try_from(bad.to_owned()).is_err(), "{bad}");
        }
    }

    #[test]
    fn debug_never_shows_the_value() {
        let shown = format!("{:?}", crate::args::Typing::Secret(bound(&["github.com"])));
        assert!(!shown.contains("hunter2"), "{shown}");
        assert!(shown.contains("12 chars"), "{shown}");
    }
}
