//! Console, network and evaluate.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::*;

fn d100() -> u32 {
    100
}

tab_args! {
    /// Arguments of `firefox_get_console`.
    pub struct ConsoleArgs {
        /// Only this level: log, info, warn, error, debug.
        pub level: Option<ConsoleLevel>,
        /// Empty the log after reading it.
        #[serde(default)]
        pub clear: bool,
        /// Newest entries to return (100).
        #[serde(default = "d100")]
        pub limit: u32,
    }
}

tab_args! {
    /// Arguments of `firefox_get_network`.
    pub struct NetworkArgs {
        /// Only this request type: script, stylesheet, image, xmlhttprequest, main_frame, font, …
        #[serde(rename = "type")]
        pub kind: Option<String>,
        /// Only this status (404) or class (4xx), or "failed".
        pub status: Option<String>,
        /// Newest entries to return (50).
        #[serde(default = "d50")]
        pub limit: u32,
        /// Add request and response headers (credentials redacted).
        #[serde(default)]
        pub include_headers: bool,
        /// Add response bodies (text; credentials redacted). The first such call starts capturing this tab's bodies.
        #[serde(default)]
        pub include_body: bool,
    }
}

tab_args! {
    /// Arguments of `firefox_evaluate`.
    pub struct EvaluateArgs {
        /// JavaScript run in the page (≤ 10000 characters); a returned promise is awaited.
        pub expression: String,
    }
}

/// Longest body a route answers with.
pub const MAX_ROUTE_BODY: usize = 256 * 1024;
/// Longest delay a route holds a request.
pub const MAX_ROUTE_DELAY_MS: u32 = 30_000;

/// What a route does to the requests it matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum RouteAction {
    Fulfill,
    Abort,
    Delay,
}

args_struct! {
    /// Arguments of `firefox_route`.
    pub struct RouteArgs {
        /// URL glob (* within a path part, ** anything).
        pub pattern: Option<String>,
        /// fulfill, abort (the request fails) or delay.
        pub action: Option<RouteAction>,
        /// fulfill: the response body (text).
        pub body: Option<String>,
        /// fulfill: headers to set, e.g. {"content-type": "application/json"}.
        #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
        pub headers: std::collections::BTreeMap<String, String>,
        /// Refused: Firefox cannot change a status.
        pub status: Option<u16>,
        /// delay: ms to hold the request.
        pub delay_ms: Option<u32>,
    }
}

args_struct! {
    /// Arguments of `firefox_unroute`.
    pub struct UnrouteArgs {
        /// The pattern of the route to remove; all of yours when absent.
        pub pattern: Option<String>,
    }
}

/// A console message's level: the `console` method the page called.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(try_from = "String", into = "&'static str")]
pub enum ConsoleLevel {
    Log,
    Info,
    Warn,
    Error,
    Debug,
}

impl ConsoleLevel {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Log => "log",
            Self::Info => "info",
            Self::Warn => "warn",
            Self::Error => "error",
            Self::Debug => "debug",
        }
    }
}

impl TryFrom<String> for ConsoleLevel {
    type Error = String;

    fn try_from(level: String) -> Result<Self, String> {
        Ok(match level.as_str() {
            "log" => Self::Log,
            "info" => Self::Info,
            "warn" => Self::Warn,
            "error" => Self::Error,
            "debug" => Self::Debug,
            _ => {
                return Err(format!(
                    "{level:?} is not one of log, info, warn, error, debug"
                ));
            }
        })
    }
}

impl From<ConsoleLevel> for &'static str {
    fn from(level: ConsoleLevel) -> Self {
        level.as_str()
    }
}

impl fmt::Display for ConsoleLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Most console messages and network requests one answer lists (as many as a tab keeps).
pub const MAX_CONSOLE_LIMIT: u32 = 500;
pub const MAX_NETWORK_LIMIT: u32 = 200;

impl Validate for ConsoleArgs {
    fn validate(&self) -> Result<(), Invalid> {
        validate::within("limit", self.limit, 1..=MAX_CONSOLE_LIMIT)
    }
}

impl Validate for NetworkArgs {
    fn validate(&self) -> Result<(), Invalid> {
        validate::within("limit", self.limit, 1..=MAX_NETWORK_LIMIT)?;
        if let Some(s) = &self.status {
            let ok = s == "failed"
                || s.parse::<u16>().is_ok()
                || (s.len() == 3 && s.ends_with("xx") && s.as_bytes()[0].is_ascii_digit());
            refuse_if(
                !ok,
                "status",
                format!("{s:?}: give a status (404), a class (4xx) or \"failed\""),
            )?;
        }
        Ok(())
    }
}

impl Validate for EvaluateArgs {
    fn validate(&self) -> Result<(), Invalid> {
        refuse_if(self.expression.trim().is_empty(), "expression", "is empty")?;
        check_len("expression", &self.expression, MAX_EXPRESSION)
    }
}

impl Validate for RouteArgs {
    fn validate(&self) -> Result<(), Invalid> {
        let Some(pattern) = &self.pattern else {
            return match self.action {
                Some(_) => Err(Invalid::new("pattern", "an action needs a URL pattern")),
                None => Ok(()),
            };
        };
        refuse_if(pattern.is_empty(), "pattern", "must not be empty")?;
        check_len("pattern", pattern, 2_000)?;
        refuse_if(
            self.status.is_some(),
            "status",
            "Firefox does not let an extension change a response's status: the server's status stays; fulfill replaces the body and headers",
        )?;
        let action = self
            .action
            .ok_or_else(|| Invalid::new("action", "give fulfill, abort or delay"))?;
        let fulfill = action == RouteAction::Fulfill;
        refuse_if(
            !fulfill && (self.body.is_some() || !self.headers.is_empty()),
            "body",
            "body and headers go with fulfill",
        )?;
        if let Some(body) = &self.body {
            check_len("body", body, MAX_ROUTE_BODY)?;
        }
        refuse_if(self.headers.len() > 20, "headers", "at most 20")?;
        for (name, value) in &self.headers {
            if name.is_empty()
                || !name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_".contains(&b))
            {
                return Err(Invalid::new(
                    "headers",
                    format!("{name:?} is not a header name"),
                ));
            }
            check_len("headers", value, 2_000)?;
        }
        match (action, self.delay_ms) {
            (RouteAction::Delay, Some(1..=MAX_ROUTE_DELAY_MS)) => Ok(()),
            (RouteAction::Delay, _) => Err(Invalid::new(
                "delayMs",
                format!("delay needs delayMs, 1 to {MAX_ROUTE_DELAY_MS}"),
            )),
            (_, Some(_)) => Err(Invalid::new("delayMs", "only delay takes delayMs")),
            _ => Ok(()),
        }
    }
}

/// Any pattern may be removed: one never made is said so.
impl Validate for UnrouteArgs {}
