//! The runtime directory the host and its clients agree on, and the files in it.
//!
//! Unix: `CLAUDEZILLA_RUNTIME_DIR` if set, else `$XDG_RUNTIME_DIR/claudezilla`, else
//! `<temp>/claudezilla-<uid>`. The folder is 0700 and must belong to us (a folder pre-created
//! in a shared /tmp by someone else is refused); the socket and token files in it are 0600.
//!
//! Windows: `CLAUDEZILLA_RUNTIME_DIR` if set, else `%LOCALAPPDATA%\claudezilla` (in the user's
//! profile, closed to other users by the access list it inherits). It holds the token and, in
//! place of the socket, the name of the host's named pipe ([`crate::pipe`]).

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::pipe::PipeName;

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub use unix::{check_peer, current_uid, make_private};
#[cfg(windows)]
mod windows;
#[cfg(unix)]
use unix as platform;
#[cfg(windows)]
use windows as platform;
#[cfg(windows)]
pub use windows::{check_peer, current_user_sid};

pub const ENV_RUNTIME_DIR: &str = "CLAUDEZILLA_RUNTIME_DIR";
const SOCKET_FILE: &str = "claudezilla.sock";
const TOKEN_FILE: &str = "claudezilla.token";
const PIPE_FILE: &str = "claudezilla.pipe";
/// `sun_path` holds 108 bytes including the final NUL on Linux, 104 on macOS (where the
/// temp folder, `$TMPDIR`, is per user and long: `/var/folders/…/T/`).
#[cfg(not(target_os = "macos"))]
pub const MAX_SOCKET_PATH: usize = 107;
#[cfg(target_os = "macos")]
pub const MAX_SOCKET_PATH: usize = 103;

#[derive(Debug, thiserror::Error)]
pub enum PathError {
    #[error("cannot create or use the runtime directory {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error(
        "runtime directory {path} belongs to uid {owner}, not to us (uid {uid}); remove it or set {ENV_RUNTIME_DIR}"
    )]
    NotOurs { path: PathBuf, owner: u32, uid: u32 },
    #[error(
        "socket path {path} is {len} bytes, over the {MAX_SOCKET_PATH}-byte limit of Unix sockets; set {ENV_RUNTIME_DIR} to a shorter folder"
    )]
    SocketPathTooLong { path: PathBuf, len: usize },
    #[error(
        "runtime directory {path} is not private (mode {mode:o}, a symlink or not a folder): another user could pose as the host; remove it and start Firefox again"
    )]
    NotPrivate { path: PathBuf, mode: u32 },
    #[error(
        "the socket's other end runs as uid {peer}, not as us (uid {uid}): refusing to talk to it"
    )]
    ForeignPeer { peer: u32, uid: u32 },
    #[error(
        "runtime directory {path} is a link or not a folder: it could lead elsewhere; remove it and start Firefox again"
    )]
    NotAFolder { path: PathBuf },
    #[error("the host's pipe is not owned by this user: refusing to talk to it")]
    ForeignPipe,
}

/// Where the socket (or pipe name) and token live.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuntimeDir {
    dir: PathBuf,
}

impl RuntimeDir {
    /// Resolves the folder from the environment, without touching the disk.
    pub fn from_env() -> Self {
        let env = |k: &str| std::env::var_os(k);
        #[cfg(unix)]
        return Self::resolve(env, current_uid());
        #[cfg(windows)]
        return Self::resolve_windows(env);
    }

    /// The Unix rule, with the environment and uid passed in (for tests).
    pub fn resolve(env: impl Fn(&str) -> Option<std::ffi::OsString>, uid: u32) -> Self {
        let non_empty = |k: &str| env(k).filter(|v| !v.is_empty()).map(PathBuf::from);
        let dir = non_empty(ENV_RUNTIME_DIR)
            .or_else(|| non_empty("XDG_RUNTIME_DIR").map(|d| d.join("claudezilla")))
            .unwrap_or_else(|| std::env::temp_dir().join(format!("claudezilla-{uid}")));
        Self { dir }
    }

    /// The Windows rule (the temp folder is per user there too, under the profile).
    pub fn resolve_windows(env: impl Fn(&str) -> Option<std::ffi::OsString>) -> Self {
        let non_empty = |k: &str| env(k).filter(|v| !v.is_empty()).map(PathBuf::from);
        let dir = non_empty(ENV_RUNTIME_DIR)
            .or_else(|| non_empty("LOCALAPPDATA").map(|d| d.join("claudezilla")))
            .unwrap_or_else(|| std::env::temp_dir().join("claudezilla"));
        Self { dir }
    }

    pub fn at(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// The Unix socket's path.
    pub fn socket(&self) -> PathBuf {
        self.dir.join(SOCKET_FILE)
    }

    pub fn token(&self) -> PathBuf {
        self.dir.join(TOKEN_FILE)
    }

    /// The file that names the Windows pipe.
    pub fn pipe_file(&self) -> PathBuf {
        self.dir.join(PIPE_FILE)
    }

    /// Creates the folder if needed and checks it: on Unix 0700 and ours; on Windows a real
    /// folder, not a link (its access list is the profile's, not checked).
    pub fn ensure(&self) -> Result<(), PathError> {
        platform::ensure(self)
    }

    /// For clients, before they read the token or send anything: the folder must be a real
    /// folder (not a symlink) — on Unix also ours and closed to everyone else — otherwise
    /// another local user may have made it, to pose as the host and read what agents send.
    pub fn verify(&self) -> Result<(), PathError> {
        platform::verify(&self.dir)
    }

    /// Writes the token file (0600 on Unix), replacing any old one atomically.
    pub fn write_token(&self, token: &str) -> io::Result<()> {
        self.write_private(TOKEN_FILE, token)
    }

    pub fn read_token(&self) -> io::Result<String> {
        Ok(fs::read_to_string(self.token())?.trim().to_owned())
    }

    /// Names the pipe a host listens on (Windows), replacing any older host's.
    pub fn write_pipe_name(&self, name: &PipeName) -> io::Result<()> {
        self.write_private(PIPE_FILE, name.as_str())
    }

    /// The pipe the current host listens on; a file that does not hold one of our names is an
    /// error, never a pipe to open.
    pub fn read_pipe_name(&self) -> io::Result<PipeName> {
        let text = fs::read_to_string(self.pipe_file())?;
        PipeName::parse(&text).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
    }

    fn write_private(&self, name: &str, content: &str) -> io::Result<()> {
        let tmp = self.dir.join(format!(".{name}.{}", std::process::id()));
        // Left by a host that died mid-write with the same pid (pids are reused quickly).
        let _ = fs::remove_file(&tmp);
        let mut options = fs::OpenOptions::new();
        options.write(true).create_new(true);
        platform::owner_only(&mut options);
        let mut file = options.open(&tmp)?;
        file.write_all(content.as_bytes())?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, self.dir.join(name))
    }
}

/// What a runtime folder path turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Dir,
    Symlink,
    Other,
}

/// The Unix rule of [`RuntimeDir::verify`], apart from the disk (so it is tested with any
/// owner).
pub fn check_private(
    path: &Path,
    kind: Kind,
    owner: u32,
    mode: u32,
    uid: u32,
) -> Result<(), PathError> {
    if owner != uid {
        return Err(PathError::NotOurs {
            path: path.to_owned(),
            owner,
            uid,
        });
    }
    if kind != Kind::Dir || mode & 0o077 != 0 {
        return Err(PathError::NotPrivate {
            path: path.to_owned(),
            mode: mode & 0o7777,
        });
    }
    Ok(())
}

fn kind_of(meta: &fs::Metadata) -> Kind {
    if meta.file_type().is_symlink() {
        Kind::Symlink
    } else if meta.is_dir() {
        Kind::Dir
    } else {
        Kind::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| OsString::from(v))
        }
    }

    #[test]
    fn resolution_order() {
        let both = [
            (ENV_RUNTIME_DIR, "/a/b"),
            ("XDG_RUNTIME_DIR", "/run/user/5"),
        ];
        assert_eq!(RuntimeDir::resolve(env(&both), 5).path(), Path::new("/a/b"));
        let xdg = [("XDG_RUNTIME_DIR", "/run/user/5")];
        assert_eq!(
            RuntimeDir::resolve(env(&xdg), 5).path(),
            Path::new("/run/user/5/claudezilla")
        );
        let empty = [(ENV_RUNTIME_DIR, ""), ("XDG_RUNTIME_DIR", "")];
        let fallback = RuntimeDir::resolve(env(&empty), 5);
        assert_eq!(fallback.path(), std::env::temp_dir().join("claudezilla-5"));
        assert_eq!(fallback.socket().file_name().unwrap(), "claudezilla.sock");
    }

    #[test]
    fn on_windows_the_folder_is_in_local_app_data() {
        let local = [("LOCALAPPDATA", r"C:\Users\ada\AppData\Local")];
        let rt = RuntimeDir::resolve_windows(env(&local));
        assert_eq!(
            rt.path(),
            Path::new(r"C:\Users\ada\AppData\Local").join("claudezilla")
        );
        assert_eq!(rt.pipe_file().file_name().unwrap(), "claudezilla.pipe");
        let chosen = [(ENV_RUNTIME_DIR, r"D:\cz"), ("LOCALAPPDATA", r"C:\x")];
        assert_eq!(
            RuntimeDir::resolve_windows(env(&chosen)).path(),
            Path::new(r"D:\cz")
        );
        let none = [("LOCALAPPDATA", "")];
        assert_eq!(
            RuntimeDir::resolve_windows(env(&none)).path(),
            std::env::temp_dir().join("claudezilla")
        );
    }

    #[test]
    fn the_pipe_file_holds_a_pipe_name_or_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let rt = RuntimeDir::at(tmp.path());
        assert_eq!(
            rt.read_pipe_name().unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
        let name = PipeName::from_random([7; 16]);
        rt.write_pipe_name(&name).unwrap();
        assert_eq!(rt.read_pipe_name().unwrap(), name);
        fs::write(rt.pipe_file(), r"\\attacker\pipe\claudezilla-x").unwrap();
        assert_eq!(
            rt.read_pipe_name().unwrap_err().kind(),
            io::ErrorKind::InvalidData
        );
    }

    #[test]
    fn clients_refuse_a_folder_that_is_not_ours_and_private() {
        let p = Path::new("/tmp/claudezilla-5");
        assert!(check_private(p, Kind::Dir, 5, 0o40700, 5).is_ok());
        // Made by another local user, to pose as the host.
        assert!(matches!(
            check_private(p, Kind::Dir, 6, 0o40700, 5),
            Err(PathError::NotOurs { owner: 6, .. })
        ));
        assert!(matches!(
            check_private(p, Kind::Dir, 5, 0o40755, 5),
            Err(PathError::NotPrivate { .. })
        ));
        assert!(check_private(p, Kind::Symlink, 5, 0o120777, 5).is_err());
        assert!(check_private(p, Kind::Other, 5, 0o100600, 5).is_err());
    }
}
