//! Console, network and evaluate.

use serde::{Deserialize, Serialize};

use super::*;

fn d100() -> u32 {
    100
}

tab_args! {
    /// Arguments of `firefox_get_console`.
    pub struct ConsoleArgs {
        /// Only this level: log, info, warn, error, debug.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub level: Option<crate::reply::ConsoleLevel>,
        /// Empty the log after reading it.
        #[serde(default)]
        pub clear: bool,
        /// Newest entries to return (100).
        #[serde(default = "d100")]
        pub limit: u32,
    }
}

impl ConsoleArgs {
    pub(crate) fn validate(&self) -> Result<(), Invalid> {
        if !(1..=500).contains(&self.limit) {
            return Err(Invalid::new("limit", "must be between 1 and 500"));
        }
        Ok(())
    }
}

tab_args! {
    /// Arguments of `firefox_get_network`.
    pub struct NetworkArgs {
        /// Only this request type: script, stylesheet, image, xmlhttprequest, main_frame, font, …
        #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "schema", schemars(with = "String"))]
        pub kind: Option<String>,
        /// Only this status (404) or class (4xx), or "failed".
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "schema", schemars(with = "String"))]
        pub status: Option<String>,
        /// Newest entries to return (50).
        #[serde(default = "d50")]
        pub limit: u32,
        /// Add request and response headers (credentials redacted).
        #[serde(default)]
        pub include_headers: bool,
    }
}

impl NetworkArgs {
    pub(crate) fn validate(&self) -> Result<(), Invalid> {
        if !(1..=200).contains(&self.limit) {
            return Err(Invalid::new("limit", "must be between 1 and 200"));
        }
        if let Some(s) = &self.status {
            let ok = s == "failed"
                || s.parse::<u16>().is_ok()
                || (s.len() == 3 && s.ends_with("xx") && s.as_bytes()[0].is_ascii_digit());
            if !ok {
                return Err(Invalid::new(
                    "status",
                    format!("{s:?}: give a status (404), a class (4xx) or \"failed\""),
                ));
            }
        }
        Ok(())
    }
}

tab_args! {
    /// Arguments of `firefox_evaluate`.
    pub struct EvaluateArgs {
        /// JavaScript run in the page (≤ 10000 characters); a returned promise is awaited.
        pub expression: String,
    }
}

impl EvaluateArgs {
    pub(crate) fn validate(&self) -> Result<(), Invalid> {
        if self.expression.trim().is_empty() {
            return Err(Invalid::new("expression", "is empty"));
        }
        check_len("expression", &self.expression, MAX_EXPRESSION)
    }
}
