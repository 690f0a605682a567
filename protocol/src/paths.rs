//! The runtime directory the host and the MCP server agree on, and the files in it.
//!
//! `CLAUDEZILLA_RUNTIME_DIR` if set, else `$XDG_RUNTIME_DIR/claudezilla`, else
//! `<temp>/claudezilla-<uid>`. The folder is 0700 and must belong to us (a folder pre-created
//! in a shared /tmp by someone else is refused); the socket and token files in it are 0600.

use std::fs;
use std::io::{self, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

pub const ENV_RUNTIME_DIR: &str = "CLAUDEZILLA_RUNTIME_DIR";
const SOCKET_FILE: &str = "claudezilla.sock";
const TOKEN_FILE: &str = "claudezilla.token";
/// `sun_path` holds 108 bytes including the final NUL on Linux, 104 on macOS (where the
/// temp folder, `$TMPDIR`, is per user and long: `/var/folders/…/T/`).
#[cfg(not(target_os = "macos"))]
const MAX_SOCKET_PATH: usize = 107;
#[cfg(target_os = "macos")]
const MAX_SOCKET_PATH: usize = 103;

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
}

/// Where the socket and token live.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuntimeDir {
    dir: PathBuf,
}

impl RuntimeDir {
    /// Resolves the folder from the environment, without touching the disk.
    pub fn from_env() -> Self {
        Self::resolve(|k| std::env::var_os(k), current_uid())
    }

    /// The resolution rule, with the environment and uid passed in (for tests).
    pub fn resolve(env: impl Fn(&str) -> Option<std::ffi::OsString>, uid: u32) -> Self {
        let non_empty = |k: &str| env(k).filter(|v| !v.is_empty()).map(PathBuf::from);
        let dir = non_empty(ENV_RUNTIME_DIR)
            .or_else(|| non_empty("XDG_RUNTIME_DIR").map(|d| d.join("claudezilla")))
            .unwrap_or_else(|| std::env::temp_dir().join(format!("claudezilla-{uid}")));
        Self { dir }
    }

    pub fn at(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    pub fn path(&self) -> &Path {
        &self.dir
    }

    pub fn socket(&self) -> PathBuf {
        self.dir.join(SOCKET_FILE)
    }

    pub fn token(&self) -> PathBuf {
        self.dir.join(TOKEN_FILE)
    }

    /// Creates the folder 0700 if needed, and checks that it is ours and private.
    pub fn ensure(&self) -> Result<(), PathError> {
        let io = |source| PathError::Io {
            path: self.dir.clone(),
            source,
        };
        match fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&self.dir)
        {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(io(e)),
        }
        let meta = fs::symlink_metadata(&self.dir).map_err(io)?;
        let uid = current_uid();
        if !meta.is_dir() || meta.uid() != uid {
            return Err(PathError::NotOurs {
                path: self.dir.clone(),
                owner: meta.uid(),
                uid,
            });
        }
        if meta.mode() & 0o077 != 0 {
            fs::set_permissions(&self.dir, fs::Permissions::from_mode(0o700)).map_err(io)?;
        }
        let len = self.socket().as_os_str().len();
        if len > MAX_SOCKET_PATH {
            return Err(PathError::SocketPathTooLong {
                path: self.socket(),
                len,
            });
        }
        Ok(())
    }

    /// For clients, before they read the token or send anything: the folder must be a real
    /// folder (not a symlink), ours, and closed to everyone else — otherwise another local
    /// user may have made it, to pose as the host and read what agents send.
    pub fn verify(&self) -> Result<(), PathError> {
        let meta = fs::symlink_metadata(&self.dir).map_err(|source| PathError::Io {
            path: self.dir.clone(),
            source,
        })?;
        let kind = if meta.file_type().is_symlink() {
            Kind::Symlink
        } else if meta.is_dir() {
            Kind::Dir
        } else {
            Kind::Other
        };
        check_private(&self.dir, kind, meta.uid(), meta.mode(), current_uid())
    }

    /// Writes the token file 0600, replacing any old one atomically.
    pub fn write_token(&self, token: &str) -> io::Result<()> {
        let tmp = self
            .dir
            .join(format!(".{TOKEN_FILE}.{}", std::process::id()));
        let mut file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&tmp)?;
        file.write_all(token.as_bytes())?;
        file.sync_all()?;
        fs::rename(&tmp, self.token())
    }

    pub fn read_token(&self) -> io::Result<String> {
        Ok(fs::read_to_string(self.token())?.trim().to_owned())
    }
}

/// What a runtime folder path turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Dir,
    Symlink,
    Other,
}

/// The rule of [`RuntimeDir::verify`], apart from the disk (so it is tested with any owner).
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

/// Checks that the process at the other end of a Unix socket runs as this user.
pub fn check_peer(socket: &impl std::os::fd::AsRawFd) -> Result<(), PathError> {
    let uid = current_uid();
    let peer = peer_uid(socket.as_raw_fd()).map_err(|source| PathError::Io {
        path: PathBuf::from("<socket peer>"),
        source,
    })?;
    if peer != uid {
        return Err(PathError::ForeignPeer { peer, uid });
    }
    Ok(())
}

#[cfg(any(target_os = "linux", target_os = "android"))]
fn peer_uid(fd: std::os::fd::RawFd) -> io::Result<u32> {
    let mut cred = libc::ucred {
        pid: 0,
        uid: 0,
        gid: 0,
    };
    let mut len = std::mem::size_of::<libc::ucred>() as libc::socklen_t;
    // SAFETY: `cred` and `len` are valid for writes of the sizes given.
    let r = unsafe {
        libc::getsockopt(
            fd,
            libc::SOL_SOCKET,
            libc::SO_PEERCRED,
            (&mut cred as *mut libc::ucred).cast(),
            &mut len,
        )
    };
    if r != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(cred.uid)
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn peer_uid(fd: std::os::fd::RawFd) -> io::Result<u32> {
    let (mut uid, mut gid) = (0, 0);
    // SAFETY: plain out-parameters.
    if unsafe { libc::getpeereid(fd, &mut uid, &mut gid) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(uid)
}

/// Makes a file owner-only (the socket after `bind`).
pub fn make_private(path: &Path) -> io::Result<()> {
    fs::set_permissions(path, fs::Permissions::from_mode(0o600))
}

pub fn current_uid() -> u32 {
    // SAFETY: getuid has no preconditions and cannot fail.
    unsafe { libc::getuid() }
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
    fn ensure_creates_a_private_folder_and_tightens_a_loose_one() {
        let tmp = tempfile::tempdir().unwrap();
        let rt = RuntimeDir::at(tmp.path().join("rt"));
        rt.ensure().unwrap();
        let mode = fs::metadata(rt.path()).unwrap().mode() & 0o777;
        assert_eq!(mode, 0o700);
        fs::set_permissions(rt.path(), fs::Permissions::from_mode(0o755)).unwrap();
        rt.ensure().unwrap();
        assert_eq!(fs::metadata(rt.path()).unwrap().mode() & 0o777, 0o700);
    }

    #[test]
    fn token_file_is_0600_and_replaced() {
        let tmp = tempfile::tempdir().unwrap();
        let rt = RuntimeDir::at(tmp.path());
        rt.write_token("first").unwrap();
        rt.write_token("second").unwrap();
        assert_eq!(rt.read_token().unwrap(), "second");
        assert_eq!(fs::metadata(rt.token()).unwrap().mode() & 0o777, 0o600);
    }

    #[test]
    fn a_symlink_or_file_in_place_of_the_folder_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("f");
        fs::write(&file, "").unwrap();
        assert!(RuntimeDir::at(&file).ensure().is_err());
        let link = tmp.path().join("l");
        std::os::unix::fs::symlink(tmp.path(), &link).unwrap();
        assert!(matches!(
            RuntimeDir::at(&link).ensure(),
            Err(PathError::NotOurs { .. })
        ));
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

    #[test]
    fn verify_reads_the_real_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let rt = RuntimeDir::at(tmp.path().join("rt"));
        assert!(rt.verify().is_err(), "missing");
        rt.ensure().unwrap();
        rt.verify().unwrap();
        fs::set_permissions(rt.path(), fs::Permissions::from_mode(0o755)).unwrap();
        assert!(matches!(rt.verify(), Err(PathError::NotPrivate { .. })));
        let link = tmp.path().join("link");
        std::os::unix::fs::symlink(rt.path(), &link).unwrap();
        fs::set_permissions(rt.path(), fs::Permissions::from_mode(0o700)).unwrap();
        assert!(
            RuntimeDir::at(&link).verify().is_err(),
            "a symlink to a good folder"
        );
        if current_uid() == 0 {
            // As root a real foreign owner can be made.
            // SAFETY: chown on a path we own, with a valid C string.
            let c = std::ffi::CString::new(rt.path().as_os_str().as_encoded_bytes()).unwrap();
            assert_eq!(unsafe { libc::chown(c.as_ptr(), 4242, 4242) }, 0);
            assert!(matches!(
                rt.verify(),
                Err(PathError::NotOurs { owner: 4242, .. })
            ));
        }
    }

    #[test]
    fn the_peer_of_our_own_socket_is_us() {
        let (a, _b) = std::os::unix::net::UnixStream::pair().unwrap();
        check_peer(&a).unwrap();
    }

    #[test]
    fn long_socket_paths_are_refused_with_the_fix() {
        let tmp = tempfile::tempdir().unwrap();
        let rt = RuntimeDir::at(tmp.path().join("x".repeat(100)));
        let err = rt.ensure().unwrap_err();
        assert!(err.to_string().contains(ENV_RUNTIME_DIR), "{err}");
    }
}
