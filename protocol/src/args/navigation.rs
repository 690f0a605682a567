//! `firefox_create_window` and `firefox_navigate`.

use serde::{Deserialize, Serialize};

use super::*;

args_struct! {
    /// Arguments of `firefox_create_window`.
    pub struct CreateWindowArgs {
        /// Page to open (http, https or about:blank).
        #[serde(default = "about_blank")]
        #[cfg_attr(feature = "schema", schemars(with = "String"))]
        pub url: PageUrl,
        /// "own": a Firefox container of your own (cookies and logins apart from the user's and other agents'), kept for your later tabs; "user" (default): the user's session; or one of the user's containers by name.
        pub container: Option<Container>,
        /// Keep your own container (its logins) when your last tab closes, until you leave.
        #[serde(default)]
        pub keep_container: bool,
    }
}

/// Whose cookie jar a new tab uses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(try_from = "String", into = "String")]
pub enum Container {
    /// The agent's own container, made on first use.
    Own,
    /// The user's default session.
    User,
    /// One of the user's containers.
    Named(String),
}

impl TryFrom<String> for Container {
    type Error = String;

    fn try_from(name: String) -> Result<Self, String> {
        Ok(match name.trim() {
            "own" => Self::Own,
            "user" => Self::User,
            n if !n.is_empty() && n.chars().count() <= 100 => Self::Named(n.to_owned()),
            _ => {
                return Err(
                    "container is \"own\", \"user\" or a container's name (≤ 100 characters)"
                        .into(),
                );
            }
        })
    }
}

impl From<Container> for String {
    fn from(c: Container) -> Self {
        match c {
            Container::Own => "own".into(),
            Container::User => "user".into(),
            Container::Named(n) => n,
        }
    }
}

// Where `firefox_navigate` goes other than a URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum NavAction {
    Back,
    Forward,
    Reload,
}

tab_args! {
    /// Arguments of `firefox_navigate`.
    pub struct NavigateArgs {
        /// Page to load (http, https or about:blank).
        pub url: Option<PageUrl>,
        /// Instead of a url: back, forward or reload.
        pub action: Option<NavAction>,
    }
}

impl Validate for NavigateArgs {
    fn validate(&self) -> Result<(), Invalid> {
        match (&self.url, self.action) {
            (Some(_), None) | (None, Some(_)) => Ok(()),
            _ => Err(Invalid::new(
                "url",
                "give either a url, or an action (back, forward, reload)",
            )),
        }
    }
}

/// The URL is typed; the container is checked where it is parsed.
impl Validate for CreateWindowArgs {}

checked_text! {
    /// A page an agent may open ([`validate::url`]: http(s) with a host, file, exactly
    /// `about:blank`), checked where it is parsed (the MCP server answers `BAD_URL`; the
    /// host, `INVALID_ARGUMENT` with the same words).
    PageUrl(|url| validate::url("url", url))
}

impl PageUrl {
    pub fn blank() -> Self {
        Self("about:blank".into())
    }
}
