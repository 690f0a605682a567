//! `firefox_create_window` and `firefox_navigate`.

use serde::{Deserialize, Serialize};

use super::*;

/// Arguments of `firefox_create_window`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateWindowArgs {
    /// Page to open (http, https or about:blank).
    #[serde(default = "about_blank")]
    pub url: String,
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
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub url: Option<String>,
        /// Instead of a url: back, forward or reload.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub action: Option<NavAction>,
    }
}

impl NavigateArgs {
    pub(crate) fn validate(&self) -> Result<(), Invalid> {
        match (&self.url, self.action) {
            (Some(url), None) => validate::url("url", url),
            (None, Some(_)) => Ok(()),
            _ => Err(Invalid::new(
                "url",
                "give either a url, or an action (back, forward, reload)",
            )),
        }
    }
}
