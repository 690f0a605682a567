//! What differs by platform when opening files: opening a file itself rather than what a link
//! points to, whether two paths are one file, kernel filesystems posing as files, and Windows'
//! device names.

use std::path::Path;

use cap_std::fs::Dir;

/// Opens a file itself, not what a symlink at its path points to (and a FIFO without waiting).
#[cfg(unix)]
pub(super) fn open_no_follow(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt as _;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
}

/// Opens a file itself: a symlink or junction is opened as the link, which is not a file. Only
/// a path on a drive: a share (`\\server\…`) or device path would reach the network or a
/// device; and the open is anonymous, so nothing opened can act as the user.
#[cfg(windows)]
pub(super) fn open_no_follow(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::windows::fs::OpenOptionsExt as _;
    use std::path::{Component, Prefix};
    use windows_sys::Win32::Storage::FileSystem::{
        FILE_FLAG_OPEN_REPARSE_POINT, SECURITY_ANONYMOUS,
    };
    let on_a_drive = matches!(
        path.components().next(),
        Some(Component::Prefix(p)) if matches!(p.kind(), Prefix::Disk(_) | Prefix::VerbatimDisk(_))
    );
    if !on_a_drive {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a path on a local drive",
        ));
    }
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(FILE_FLAG_OPEN_REPARSE_POINT)
        .security_qos_flags(SECURITY_ANONYMOUS)
        .open(path)
}

/// Whether the open `file`, found at `at`, is the file at `other`: the same real path (a
/// symlink resolves to it) or, on unix, the same device and inode (a hard link has its own
/// path). A file that cannot be looked at is not the same.
pub(super) fn same_file(file: &cap_std::fs::File, at: &Path, other: &Path) -> bool {
    let real = |p: &Path| dunce::canonicalize(p).ok();
    let same_path = real(at).is_some_and(|at| real(other).is_some_and(|o| o == at));
    same_path || same_inode(file, other)
}

#[cfg(unix)]
fn same_inode(file: &cap_std::fs::File, other: &Path) -> bool {
    use cap_std::fs::MetadataExt as _;
    use std::os::unix::fs::MetadataExt as _;
    match (file.metadata(), std::fs::metadata(other)) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    }
}

/// The standard library gives no file's identity on Windows: a hard link there is known only
/// by what it holds (the secrets' values).
#[cfg(windows)]
fn same_inode(_file: &cap_std::fs::File, _other: &Path) -> bool {
    false
}

/// `CON`, `nul.txt`, `COM1 .log`, `CONIN$`: names Windows resolves to a device in any folder.
pub(super) fn dos_device(part: &std::ffi::OsStr) -> bool {
    let name = part.to_string_lossy();
    let stem = name
        .split(['.', ':'])
        .next()
        .unwrap_or_default()
        .trim_end_matches(' ');
    let upper = stem.to_ascii_uppercase();
    let numbered = |prefix: &str| {
        let mut rest = upper.strip_prefix(prefix).unwrap_or_default().chars();
        let digit = |c: char| c.is_ascii_digit() || matches!(c, '¹' | '²' | '³');
        rest.next().is_some_and(digit) && rest.next().is_none()
    };
    matches!(
        upper.as_str(),
        "CON" | "PRN" | "AUX" | "NUL" | "CONIN$" | "CONOUT$"
    ) || numbered("COM")
        || numbered("LPT")
}

/// Kernel filesystems whose "regular" files are views of processes and devices.
pub(super) fn pseudo_path(path: &Path) -> bool {
    ["/proc", "/sys", "/dev"]
        .iter()
        .any(|p| path.starts_with(p))
}

#[cfg(unix)]
pub(super) fn pseudo_file(file: &cap_std::fs::File) -> bool {
    use std::os::fd::AsRawFd;
    pseudo_fd(file.as_raw_fd())
}

#[cfg(unix)]
pub(super) fn pseudo_std_file(file: &std::fs::File) -> bool {
    use std::os::fd::AsRawFd;
    pseudo_fd(file.as_raw_fd())
}

#[cfg(unix)]
pub(super) fn pseudo_dir(dir: &Dir) -> bool {
    use std::os::fd::AsRawFd;
    pseudo_fd(dir.as_raw_fd())
}

/// Windows has no kernel filesystems posing as folders of files; devices are refused by name.
#[cfg(windows)]
pub(super) fn pseudo_file(_file: &cap_std::fs::File) -> bool {
    false
}

#[cfg(windows)]
pub(super) fn pseudo_std_file(_file: &std::fs::File) -> bool {
    false
}

#[cfg(windows)]
pub(super) fn pseudo_dir(_dir: &Dir) -> bool {
    false
}

#[cfg(target_os = "linux")]
fn pseudo_fd(fd: std::os::fd::RawFd) -> bool {
    const PROC: i64 = 0x9fa0;
    const SYSFS: i64 = 0x6265_6572;
    const DEVPTS: i64 = 0x1cd1;
    const DEBUGFS: i64 = 0x6462_6720;
    // SAFETY: an out-parameter of the right type, and a descriptor we own.
    let mut stat: libc::statfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstatfs(fd, &mut stat) } != 0 {
        return true;
    }
    [PROC, SYSFS, DEVPTS, DEBUGFS].contains(&(stat.f_type as i64))
}

#[cfg(all(unix, not(target_os = "linux")))]
fn pseudo_fd(_fd: std::os::fd::RawFd) -> bool {
    false
}

/// Windows' device names, pure, so they are tested on every platform.
#[cfg(test)]
mod tests {
    use super::dos_device;
    use std::ffi::OsStr;

    #[test]
    fn dos_device_names_are_known_in_every_disguise() {
        for device in [
            "CON",
            "con",
            "Nul",
            "nul.txt",
            "COM1",
            "com9.log",
            "LPT3 .x",
            "AUX.",
            "CONIN$",
            "conout$.txt",
            "PRN ",
            "NUL:",
            "com¹",
            "LPT³.txt",
        ] {
            assert!(dos_device(OsStr::new(device)), "{device}");
        }
        for file in [
            "console",
            "CONS",
            "COM",
            "COM10",
            "LPT",
            "nul_",
            "icon",
            "notes.txt",
            "a.con",
            "",
        ] {
            assert!(!dos_device(OsStr::new(file)), "{file}");
        }
    }
}
