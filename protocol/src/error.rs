//! What goes wrong: the stable [`ErrorCode`]s, the [`ErrorBody`] every hop carries back, and
//! the [`Invalid`] argument that becomes one. A leaf: it names no other module of the crate.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Declares the codes once: the enum, its wire names and `as_str` come from one list.
macro_rules! error_codes {
    ($($(#[$doc:meta])* $code:ident = $name:literal,)*) => {
        /// Stable error codes. They are part of the interface (agents and scripts match on
        /// them): never rename one; add new ones at the end. Documented in ARCHITECTURE.md.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum ErrorCode {
            $($(#[$doc])* #[serde(rename = $name)] $code,)*
        }

        impl ErrorCode {
            /// Every code, in the order they were added.
            pub const ALL: &[Self] = &[$(Self::$code),*];

            pub fn as_str(self) -> &'static str {
                match self {
                    $(Self::$code => $name,)*
                }
            }
        }
    };
}

error_codes! {
    /// An argument is missing, malformed or out of range.
    InvalidArgument = "INVALID_ARGUMENT",
    /// A URL whose scheme or form is not allowed.
    BadUrl = "BAD_URL",
    /// The command is not on the host's whitelist.
    UnknownCommand = "UNKNOWN_COMMAND",
    /// A message could not be decoded (bad framing, UTF-8 or JSON).
    Malformed = "MALFORMED",
    /// The socket client did not authenticate (missing, wrong or late token).
    AuthFailed = "AUTH_FAILED",
    /// The tab belongs to another agent.
    Ownership = "OWNERSHIP",
    /// The tab does not exist (closed, or never was), or the agent has none.
    NoSuchTab = "NO_SUCH_TAB",
    /// No element matches the selector.
    ElementNotFound = "ELEMENT_NOT_FOUND",
    /// The page refused the operation (not scriptable, element not editable, …).
    PageError = "PAGE_ERROR",
    /// A browser API failed.
    Browser = "BROWSER",
    /// The operation did not finish within its timeout.
    Timeout = "TIMEOUT",
    /// The host, the extension or Firefox is not running or not reachable.
    NotConnected = "NOT_CONNECTED",
    /// A message would exceed a channel's size limit.
    TooLarge = "TOO_LARGE",
    /// Another agent holds the screenshot lock.
    MutexBusy = "MUTEX_BUSY",
    /// The shared tab pool is full.
    PoolFull = "POOL_FULL",
    /// A bug on our side.
    Internal = "INTERNAL",
    /// Outside what is allowed: the agent's domain allowlist (`firefox_set_config`), or the
    /// folders files may be read from and written to.
    NotAllowed = "NOT_ALLOWED",
    /// The user has not switched the capability on (`firefox_evaluate`).
    Disabled = "DISABLED",
    /// Too much at once (connections, requests in flight): retry shortly.
    Busy = "BUSY",
    /// A page could not be loaded (connection refused, unknown host, …).
    LoadFailed = "LOAD_FAILED",
    /// The user refused, or did not answer, a request for consent (attaching a tab).
    Denied = "DENIED",
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An error as shown to the agent: `CODE: what went wrong` and, when there is one, what to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(rename_all = "camelCase")]
pub struct ErrorBody {
    pub code: ErrorCode,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

impl ErrorBody {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            hint: None,
        }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

impl fmt::Display for ErrorBody {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)?;
        if let Some(hint) = &self.hint {
            write!(f, "\nHint: {hint}")?;
        }
        Ok(())
    }
}

/// An argument that was refused, with what was wrong and what is allowed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid `{field}`: {message}")]
pub struct Invalid {
    pub field: &'static str,
    pub message: String,
}

impl Invalid {
    pub fn new(field: &'static str, message: impl Into<String>) -> Self {
        Self {
            field,
            message: message.into(),
        }
    }
}

impl Invalid {
    /// `BAD_URL` for the `url` field, else `INVALID_ARGUMENT`.
    pub fn code(&self) -> ErrorCode {
        match self.field {
            "url" => ErrorCode::BadUrl,
            _ => ErrorCode::InvalidArgument,
        }
    }

    /// The code of a refusal that reached the caller only as serde's words (the text of an
    /// `Invalid`, or serde's own, such as a wrong type): [`Invalid::code`] for the first,
    /// `INVALID_ARGUMENT` for the rest.
    pub fn code_of_words(words: &str) -> ErrorCode {
        match words.starts_with("invalid `url`:") {
            true => ErrorCode::BadUrl,
            false => ErrorCode::InvalidArgument,
        }
    }
}

impl From<Invalid> for ErrorBody {
    fn from(e: Invalid) -> Self {
        ErrorBody::new(e.code(), e.to_string())
    }
}
