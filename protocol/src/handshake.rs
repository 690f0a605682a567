//! The opening of a socket connection, written once for every client (the MCP server, the
//! host's `status` and Stop hook, the tests): the checks before anything is sent, the hello,
//! and what the host's first answer means. The I/O stays with each client (async or blocking).
//!
//! The host listens on a Unix socket in the runtime folder, or on Windows on a named pipe
//! whose name is in that folder ([`crate::pipe`]).

use std::io;

use crate::paths::{PathError, RuntimeDir, check_peer};
use crate::{AgentId, ClientMessage, ErrorBody, ErrorCode, HostMessage};

/// Where a client reaches the host: the socket's path.
#[cfg(unix)]
pub type Endpoint = std::path::PathBuf;
/// Where a client reaches the host: the pipe named in the runtime folder.
#[cfg(windows)]
pub type Endpoint = crate::pipe::PipeName;

/// A blocking connection to the host.
#[cfg(unix)]
pub type Stream = std::os::unix::net::UnixStream;
/// A blocking connection to the host.
#[cfg(windows)]
pub type Stream = std::fs::File;

/// A connection whose other end can be asked who runs it.
#[cfg(unix)]
pub trait Local: std::os::fd::AsRawFd {}
#[cfg(unix)]
impl<T: std::os::fd::AsRawFd> Local for T {}
/// A connection whose other end can be asked who runs it.
#[cfg(windows)]
pub trait Local: std::os::windows::io::AsRawHandle {}
#[cfg(windows)]
impl<T: std::os::windows::io::AsRawHandle> Local for T {}

/// A connection whose folder and peer were checked, and the token to say hello with.
pub struct Checked<S = Stream> {
    pub stream: S,
    pub token: String,
}

/// Why a client could not even say hello.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    /// The folder or the socket's other end is not ours: nothing was sent.
    #[error(transparent)]
    Untrusted(#[from] PathError),
    #[error("no Claudezilla host at {at}: {source}")]
    NoHost { at: String, source: io::Error },
    #[error("cannot read the host's token {path}: {source}")]
    NoToken {
        path: std::path::PathBuf,
        source: io::Error,
    },
}

/// Where the host listens, as the runtime folder says.
pub fn endpoint(runtime: &RuntimeDir) -> io::Result<Endpoint> {
    #[cfg(unix)]
    return Ok(runtime.socket());
    #[cfg(windows)]
    return runtime.read_pipe_name();
}

/// Connects a blocking stream (see [`connect_with`]).
pub fn connect(runtime: &RuntimeDir) -> Result<Checked, ConnectError> {
    connect_with(runtime, open)
}

/// Checks the runtime folder (a real folder; on Unix also ours and closed to others),
/// connects with `open`, checks that the other end is ours (the socket's peer uid, or the
/// pipe's owner), and reads the token — in that order, so neither the
/// token nor anything else goes to a host another local user set up.
pub fn connect_with<S: Local>(
    runtime: &RuntimeDir,
    open: impl FnOnce(&Endpoint) -> io::Result<S>,
) -> Result<Checked<S>, ConnectError> {
    runtime.verify()?;
    let at = endpoint(runtime).map_err(|source| ConnectError::NoHost {
        at: runtime.path().display().to_string(),
        source,
    })?;
    let stream = open(&at).map_err(|source| ConnectError::NoHost {
        at: shown(&at),
        source,
    })?;
    check_peer(&stream)?;
    let token = runtime
        .read_token()
        .map_err(|source| ConnectError::NoToken {
            path: runtime.token(),
            source,
        })?;
    Ok(Checked { stream, token })
}

#[cfg(unix)]
fn open(socket: &Endpoint) -> io::Result<Stream> {
    Stream::connect(socket)
}

#[cfg(unix)]
fn shown(socket: &Endpoint) -> String {
    socket.display().to_string()
}

/// Opens the pipe for reading and writing, at the identification level only: the server may
/// learn who we are but cannot act as us.
#[cfg(windows)]
fn open(pipe: &Endpoint) -> io::Result<Stream> {
    use std::os::windows::fs::OpenOptionsExt;
    open_retrying_busy(|| {
        std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .security_qos_flags(windows_sys::Win32::Storage::FileSystem::SECURITY_IDENTIFICATION)
            .open(pipe.as_str())
    })
}

#[cfg(windows)]
fn shown(pipe: &Endpoint) -> String {
    pipe.to_string()
}

/// Every instance of the pipe is taken only between a client's connection and the host's next
/// instance: worth a few short waits.
#[cfg(windows)]
fn open_retrying_busy<S>(open: impl Fn() -> io::Result<S>) -> io::Result<S> {
    const BUSY: i32 = windows_sys::Win32::Foundation::ERROR_PIPE_BUSY as i32;
    let mut waits = 0;
    loop {
        match open() {
            Err(e) if e.raw_os_error() == Some(BUSY) && waits < 50 => {
                waits += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            other => return other,
        }
    }
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

    #[cfg(unix)]
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
