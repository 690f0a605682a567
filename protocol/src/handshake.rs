//! The opening of a socket connection, written once for every client (the MCP server, the
//! host's `status` and Stop hook, the tests): the checks before anything is sent, the hello,
//! and what the host's first answer means. The I/O stays with each client (async or blocking).

use crate::paths::{PathError, RuntimeDir};
use crate::{AgentId, ClientMessage, ErrorBody, ErrorCode, HostMessage};

/// A connected socket whose folder and peer were checked, and the token to say hello with.
pub struct Checked {
    pub stream: std::os::unix::net::UnixStream,
    pub token: String,
}

/// Why a client could not even say hello.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    /// The folder or the socket's other end is not ours: nothing was sent.
    #[error(transparent)]
    Untrusted(#[from] PathError),
    #[error("no Claudezilla host at {path}: {source}")]
    NoHost {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("cannot read the host's token {path}: {source}")]
    NoToken {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
}

/// Checks the runtime folder (a real folder, ours, closed to others), connects, checks that
/// the socket's other end runs as us, and reads the token — in that order, so neither the token
/// nor anything else goes to a host another local user set up.
pub fn connect(runtime: &RuntimeDir) -> Result<Checked, ConnectError> {
    runtime.verify()?;
    let path = runtime.socket();
    let stream = std::os::unix::net::UnixStream::connect(&path)
        .map_err(|source| ConnectError::NoHost { path, source })?;
    crate::paths::check_peer(&stream)?;
    let token = runtime
        .read_token()
        .map_err(|source| ConnectError::NoToken {
            path: runtime.token(),
            source,
        })?;
    Ok(Checked { stream, token })
}

/// The first message of every connection.
pub fn hello(token: String, agent_id: AgentId, client: impl Into<String>) -> ClientMessage {
    ClientMessage::Hello {
        token,
        agent_id,
        client: client.into(),
    }
}

/// The host's answer to a hello: its version when welcomed, else why not.
pub fn welcomed(first: Option<HostMessage>) -> Result<String, ErrorBody> {
    match first {
        Some(HostMessage::Welcome { host_version, .. }) => Ok(host_version),
        Some(HostMessage::Refused(e) | HostMessage::Error(e)) => Err(e),
        Some(other) => Err(ErrorBody::new(
            ErrorCode::Malformed,
            format!("the host answered hello with {other:?}"),
        )),
        None => Err(ErrorBody::new(
            ErrorCode::NotConnected,
            "the host closed the connection instead of answering hello",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_to_hello() {
        let welcome = HostMessage::Welcome {
            host_version: "1.2.3".into(),
            host_pid: 7,
        };
        assert_eq!(welcomed(Some(welcome)).unwrap(), "1.2.3");
        let refused = HostMessage::Refused(ErrorBody::new(ErrorCode::AuthFailed, "no"));
        assert_eq!(
            welcomed(Some(refused)).unwrap_err().code,
            ErrorCode::AuthFailed
        );
        assert_eq!(welcomed(None).unwrap_err().code, ErrorCode::NotConnected);
    }

    #[test]
    fn nothing_is_sent_to_a_folder_that_is_not_private() {
        let tmp = tempfile::tempdir().unwrap();
        let rt = RuntimeDir::at(tmp.path().join("rt"));
        std::fs::create_dir(rt.path()).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(rt.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        assert!(matches!(connect(&rt), Err(ConnectError::Untrusted(_))));
        std::fs::set_permissions(rt.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
        assert!(matches!(connect(&rt), Err(ConnectError::NoHost { .. })));
    }
}
