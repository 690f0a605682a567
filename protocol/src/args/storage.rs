//! Cookies and web storage of an agent's tab: login secrets, so off until the user allows them.

use serde::{Deserialize, Serialize};

use super::*;

/// Longest cookie or storage value accepted or shown whole.
pub const MAX_STORED_VALUE: usize = 4_096;
/// Longest cookie name or storage key.
pub(super) const MAX_KEY: usize = 256;

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
        pub name: Option<String>,
        pub value: Option<String>,
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
        pub key: Option<String>,
        pub value: Option<String>,
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

/// What `firefox_storage_state` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum StateAction {
    Save,
    Load,
}

args_struct! {
    /// Arguments of `firefox_storage_state`.
    pub struct StorageStateArgs {
        /// save (to path) or load (from path).
        pub action: StateAction,
        /// A .json file in your project folder (or another allowed folder).
        pub path: String,
        /// Replace an existing file.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        pub overwrite: bool,
    }
}

/// Most cookies and origins a saved state holds.
pub const MAX_SAVED: usize = 500;

/// Cookies and local storage of an agent's sites, as `firefox_storage_state` writes them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SavedState {
    #[serde(default)]
    pub cookies: Vec<SavedCookie>,
    #[serde(default)]
    pub origins: Vec<SavedOrigin>,
}

#[serde_with_macros::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SavedCookie {
    /// The page the cookie was read for (where it is set again).
    pub url: String,
    pub name: String,
    pub value: String,
    pub domain: String,
    pub path: String,
    #[serde(default)]
    pub secure: bool,
    #[serde(default)]
    pub http_only: bool,
    /// Seconds since the epoch; none for a session cookie.
    pub expires: Option<f64>,
    /// Whether the cookie was for the host only (no Domain attribute).
    #[serde(default)]
    pub host_only: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SavedOrigin {
    pub origin: String,
    pub local_storage: Vec<(String, String)>,
}

impl Validate for CookiesArgs {
    fn validate(&self) -> Result<(), Invalid> {
        key_and_value(
            self.action == CookieAction::Get,
            matches!(self.action, CookieAction::Set | CookieAction::Delete),
            self.action == CookieAction::Set,
            ("name", self.name.as_deref()),
            self.value.as_deref(),
        )
    }
}

impl Validate for StorageArgs {
    fn validate(&self) -> Result<(), Invalid> {
        key_and_value(
            self.action != StorageAction::Set,
            self.action == StorageAction::Set,
            self.action == StorageAction::Set,
            ("key", self.key.as_deref()),
            self.value.as_deref(),
        )
    }
}

impl Validate for StorageStateArgs {
    fn validate(&self) -> Result<(), Invalid> {
        refuse_if(self.path.is_empty(), "path", "is empty")
    }
}
