//! The runtime folder's privacy on Unix: modes, owners and the socket peer's uid.

use std::fs;
use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::{MAX_SOCKET_PATH, PathError, RuntimeDir, check_private, kind_of};

pub(super) fn ensure(rt: &RuntimeDir) -> Result<(), PathError> {
    let dir = rt.path();
    let io = |source| PathError::Io {
        path: dir.to_owned(),
        source,
    };
    match fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
    {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(io(e)),
    }
    let meta = fs::symlink_metadata(dir).map_err(io)?;
    let uid = current_uid();
    if !meta.is_dir() || meta.uid() != uid {
        return Err(PathError::NotOurs {
            path: dir.to_owned(),
            owner: meta.uid(),
            uid,
        });
    }
    if meta.mode() & 0o077 != 0 {
        fs::set_permissions(dir, fs::Permissions::from_mode(0o700)).map_err(io)?;
    }
    let len = rt.socket().as_os_str().len();
    if len > MAX_SOCKET_PATH {
        return Err(PathError::SocketPathTooLong {
            path: rt.socket(),
            len,
        });
    }
    Ok(())
}

pub(super) fn verify(dir: &Path) -> Result<(), PathError> {
    let meta = fs::symlink_metadata(dir).map_err(|source| PathError::Io {
        path: dir.to_owned(),
        source,
    })?;
    check_private(dir, kind_of(&meta), meta.uid(), meta.mode(), current_uid())
}

pub(super) fn owner_only(options: &mut fs::OpenOptions) {
    options.mode(0o600);
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
    use crate::pipe::PipeName;

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
    fn token_and_pipe_files_are_0600_and_replaced() {
        let tmp = tempfile::tempdir().unwrap();
        let rt = RuntimeDir::at(tmp.path());
        rt.write_token("first").unwrap();
        rt.write_token("second").unwrap();
        assert_eq!(rt.read_token().unwrap(), "second");
        assert_eq!(fs::metadata(rt.token()).unwrap().mode() & 0o777, 0o600);
        rt.write_pipe_name(&PipeName::from_random([1; 16])).unwrap();
        assert_eq!(fs::metadata(rt.pipe_file()).unwrap().mode() & 0o777, 0o600);
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
        assert!(
            err.to_string().contains(super::super::ENV_RUNTIME_DIR),
            "{err}"
        );
    }
}
