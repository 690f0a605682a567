//! The Unix socket, 0600 in the 0700 runtime folder; peers are checked by uid as well.

// Creates, checks and removes the socket file: one of the host's named file I/O modules.
#![allow(clippy::disallowed_methods)]

use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;

use claudezilla_protocol::paths::{self, RuntimeDir};
use tokio::net::UnixListener;

use super::{Accepted, ListenError};

pub type ReadHalf = tokio::net::unix::OwnedReadHalf;
pub type WriteHalf = tokio::net::unix::OwnedWriteHalf;

pub struct Listener(UnixListener);

impl Listener {
    /// Replaces any socket a crashed or older host left, and makes it owner-only.
    pub fn bind(rt: &RuntimeDir) -> Result<(Self, Claim), ListenError> {
        let socket = rt.socket();
        let err = |source| ListenError {
            at: socket.display().to_string(),
            source,
        };
        let _ = std::fs::remove_file(&socket);
        let listener = UnixListener::bind(&socket).map_err(err)?;
        paths::make_private(&socket).map_err(err)?;
        let meta = std::fs::metadata(&socket).map_err(err)?;
        tracing::info!(socket = %socket.display(), "listening");
        let claim = Claim {
            inode: (meta.dev(), meta.ino()),
            socket,
        };
        Ok((Self(listener), claim))
    }

    pub async fn accept(&mut self) -> std::io::Result<Accepted> {
        let (stream, _) = self.0.accept().await?;
        if let Err(why) = paths::check_peer(&stream) {
            return Ok(Accepted::Refused(why.to_string()));
        }
        let (rd, wr) = stream.into_split();
        Ok(Accepted::Client(rd, wr))
    }
}

/// The socket this host bound; removed on drop unless a newer host replaced it.
pub struct Claim {
    socket: PathBuf,
    inode: (u64, u64),
}

impl Drop for Claim {
    fn drop(&mut self) {
        if std::fs::metadata(&self.socket).is_ok_and(|m| (m.dev(), m.ino()) == self.inode) {
            let _ = std::fs::remove_file(&self.socket);
        }
    }
}
