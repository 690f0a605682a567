//! Cookies and web storage of an agent's tab: login secrets, so off until the user allows them.

use serde::{Deserialize, Serialize};

use super::*;

/// Longest cookie or storage value accepted or shown whole.
pub const MAX_STORED_VALUE: usize = 4_096;
/// Longest cookie name or storage key.
const MAX_KEY: usize = 256;

/// What `firefox_cookies` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum CookieAction {
    Get,
    Set,
    Delete,
}

tab_args! {
    /// Arguments of `firefox_cookies`.
    pub struct CookiesArgs {
        /// get (all, or the one named), set (name and value) or delete (name).
        pub action: CookieAction,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "schema", schemars(with = "String"))]
        pub name: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "schema", schemars(with = "String"))]
        pub value: Option<String>,
    }
}

impl CookiesArgs {
    pub(crate) fn validate(&self) -> Result<(), Invalid> {
        key_and_value(
            self.action == CookieAction::Get,
            matches!(self.action, CookieAction::Set | CookieAction::Delete),
            self.action == CookieAction::Set,
            ("name", self.name.as_deref()),
            self.value.as_deref(),
        )
    }
}

/// What `firefox_storage` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum StorageAction {
    Get,
    Set,
    Clear,
}

/// Which web storage of the page.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum StorageArea {
    #[default]
    Local,
    Session,
}

tab_args! {
    /// Arguments of `firefox_storage`.
    pub struct StorageArgs {
        /// get (all, or key), set (key and value) or clear (key, or all).
        pub action: StorageAction,
        /// local (default) or session.
        #[serde(default)]
        pub area: StorageArea,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "schema", schemars(with = "String"))]
        pub key: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "schema", schemars(with = "String"))]
        pub value: Option<String>,
    }
}

impl StorageArgs {
    pub(crate) fn validate(&self) -> Result<(), Invalid> {
        key_and_value(
            self.action != StorageAction::Set,
            self.action == StorageAction::Set,
            self.action == StorageAction::Set,
            ("key", self.key.as_deref()),
            self.value.as_deref(),
        )
    }
}

/// The name/key and value an action needs: `may_name` (optional), `must_name`, `must_value`.
fn key_and_value(
    may_name: bool,
    must_name: bool,
    must_value: bool,
    (field, name): (&'static str, Option<&str>),
    value: Option<&str>,
) -> Result<(), Invalid> {
    match name {
        None if must_name => return Err(Invalid::new(field, "this action needs it")),
        Some(_) if !(may_name || must_name) => {
            return Err(Invalid::new(field, "this action takes none"));
        }
        Some("") => return Err(Invalid::new(field, "must not be empty")),
        Some(n) => check_len(field, n, MAX_KEY)?,
        None => {}
    }
    match value {
        None if must_value => Err(Invalid::new("value", "set needs a value")),
        Some(_) if !must_value => Err(Invalid::new("value", "only set takes a value")),
        Some(v) => check_len("value", v, MAX_STORED_VALUE),
        None => Ok(()),
    }
}
