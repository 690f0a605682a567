//! The language every part of Claudezilla speaks.
//!
//! ```text
//! MCP server ──socket──▶ host ──native messaging──▶ extension background ──▶ content script
//!   ClientMessage          ToExtension                    ContentRequest
//!   ◀── HostMessage        ◀── FromExtension              ◀── ContentReply
//! ```
//!
//! * [`framing`]: 4-byte little-endian length + UTF-8 JSON, with the size limits of each hop.
//! * [`command`]: what an agent can ask for, with typed arguments.
//! * [`reply`]: what comes back — a typed [`reply::Reply`], or an [`error::ErrorBody`] with a
//!   stable [`error::ErrorCode`] ([`error`]: also [`error::Invalid`], a refused argument).
//! * [`keys`]: keys and the modifiers held, as real keystrokes carry them.
//! * [`envelope`]: the messages of each hop (socket, native messaging, content script).
//! * [`hiding`]: a secret's value found in text in every form it is written, to hide it.
//! * [`validate`]: argument checks shared by the MCP server (first line) and the extension (last line).
//! * [`paths`], [`handshake`]: the runtime directory the host and its clients agree on, and the
//!   checks before a client says hello; [`pipe`]: the rules of the Windows pipe's name.
//! * [`process`]: a process's parent, for the Stop hook's session lookup.
//!
//! This crate does no I/O except in [`paths`], [`handshake`] and [`process`] (none of which
//! builds for wasm32), and knows nothing of tokio unless the `codec` feature is on.

pub mod args;
pub mod command;
pub mod envelope;
pub mod error;
pub mod framing;
pub mod hiding;
pub mod ids;
pub mod keys;
#[cfg(any(unix, windows))]
pub mod pipe;
pub mod reply;
pub mod validate;

#[cfg(feature = "codec")]
pub mod codec;
#[cfg(any(unix, windows))]
pub mod handshake;
#[cfg(any(unix, windows))]
pub mod paths;
#[cfg(any(unix, windows))]
pub mod process;
#[cfg(feature = "signals")]
pub mod signals;

pub use command::{Asking, Command, asks};
pub use envelope::{
    Ask, ClientMessage, FromExtension, HostMessage, Request, Response, ToExtension,
};
pub use error::{ErrorBody, ErrorCode};
pub use ids::{AgentId, RequestId, TabId};
pub use reply::{Answer, Outcome, Reply};

/// The version every part reports, so `firefox_diagnose` can spot a mismatch.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Name of the native-messaging host, as registered with Firefox and used by `connectNative`.
pub const NATIVE_HOST_NAME: &str = "claudezilla";

/// Most tabs all agents together may hold.
pub const POOL_LIMIT: usize = 12;
/// An agent may grant a slot only while it holds more than this many tabs.
pub const GRANT_MINIMUM: usize = 2;

/// The extension's gecko id (must match `extension-shell/manifest.json`).
pub const EXTENSION_ID: &str = "claudezilla-rs@claudezilla.org";
