//! Where clients connect: a Unix socket in the runtime folder, or on Windows a named pipe whose
//! fresh random name is written there. Each yields connections as two owned halves whose other
//! end runs as this user; everything above this module is the same everywhere.
//!
//! The newest host wins: it takes the socket (or names its pipe) over any older one's, and on
//! exit removes only what is still its own.

use std::io;

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub use unix::{Claim, Listener, ReadHalf, WriteHalf};
#[cfg(windows)]
mod windows;
#[cfg(windows)]
pub use windows::{Claim, Listener, ReadHalf, WriteHalf};

/// One accepted connection.
pub enum Accepted {
    Client(ReadHalf, WriteHalf),
    /// Its other end is not this user (the reason, for the log). On Windows the pipe's access
    /// list refuses such a client before it connects.
    #[cfg(unix)]
    Refused(String),
}

/// Why the host could not listen.
#[derive(Debug, thiserror::Error)]
#[error("cannot listen on {at}: {source}")]
pub struct ListenError {
    pub at: String,
    #[source]
    pub source: io::Error,
}
