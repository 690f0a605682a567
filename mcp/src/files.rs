//! Files an agent reads (`firefox_upload_file`) and writes (`firefox_screenshot {savePath}`):
//! only inside the folders the user allowed — the MCP client's roots (the project), else the
//! server's working directory, plus `--allow-dir` folders.
//!
//! A page can talk the agent into asking for `~/.ssh/id_ed25519` or `/proc/self/environ`, so
//! every path is opened *beneath* an allowed folder with `cap-std`, which resolves `..` and
//! symlinks itself and refuses any that lead outside (no check-then-open race on the path).
//! (Absolute symlinks are refused even when they point inside: they resolve from `/`.)
//! Only regular files are read (a FIFO is opened non-blocking and refused; procfs and sysfs
//! files are refused though they look regular); a file is written under a fresh name in the
//! target folder and renamed into place, so an existing symlink is replaced, never followed.
//! On Windows a path naming a DOS device (`CON`, `NUL`, `COM1.txt`, …) is refused: such a name
//! opens the device in any folder.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use cap_std::ambient_authority;
use cap_std::fs::{Dir, OpenOptions};
use claudezilla_protocol::args::{FileData, MAX_UPLOAD_BYTES};
use claudezilla_protocol::{ErrorBody, ErrorCode};

/// The environment variable naming extra allowed folders, separated like `PATH`.
pub const ENV_ALLOW_DIRS: &str = "CLAUDEZILLA_ALLOW_DIRS";

const ADD_ONE: &str = "Ask the user to allow the folder: start claudezilla-mcp with --allow-dir DIR (repeatable) \
or set CLAUDEZILLA_ALLOW_DIRS=DIR1:DIR2 (DIR1;DIR2 on Windows); the MCP client's roots (your project folder) are always allowed.";

/// The folders files may be read from and written to, each canonical (symlinks resolved).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Allowed(Vec<PathBuf>);

impl Allowed {
    /// Canonical forms of the folders that exist; the first is where relative paths start.
    pub fn new(folders: impl IntoIterator<Item = PathBuf>) -> Self {
        let mut out: Vec<PathBuf> = Vec::new();
        for folder in folders {
            // dunce: on Windows a path the agent gives (`C:\…`) must be comparable with it,
            // which the verbatim form (`\\?\C:\…`) is not.
            let Ok(real) = dunce::canonicalize(&folder) else {
                tracing::warn!("allowed folder {} does not exist", folder.display());
                continue;
            };
            if !real.is_dir() || pseudo_path(&real) {
                tracing::warn!("{} cannot be an allowed folder", real.display());
                continue;
            }
            if !out.contains(&real) {
                out.push(real);
            }
        }
        Self(out)
    }

    pub fn folders(&self) -> &[PathBuf] {
        &self.0
    }

    fn listed(&self) -> String {
        if self.0.is_empty() {
            return "none".into();
        }
        let names: Vec<String> = self.0.iter().map(|p| p.display().to_string()).collect();
        names.join(", ")
    }

    /// The allowed folder `path` lies in, and the path relative to it. A relative path starts
    /// in the first folder. Nothing is resolved here: that happens beneath the folder.
    fn locate(&self, path: &str) -> Result<(&Path, PathBuf), ErrorBody> {
        let given = Path::new(path);
        if path.is_empty() || path.contains('\0') {
            return Err(invalid("the path is empty or holds a NUL byte"));
        }
        if cfg!(windows) && given.iter().any(dos_device) {
            return Err(invalid(format!("{path} names a device, not a file")));
        }
        if given.is_relative() {
            let first = self.0.first().ok_or_else(|| self.outside(path))?;
            return Ok((first, given.to_owned()));
        }
        // The longest folder that holds the path lexically (nested folders may both be allowed).
        let lexical = normalize(given);
        self.0
            .iter()
            .filter_map(|folder| Some((folder.as_path(), within(&lexical, folder, cfg!(windows))?)))
            .max_by_key(|(folder, _)| folder.as_os_str().len())
            .ok_or_else(|| self.outside(path))
    }

    fn outside(&self, path: &str) -> ErrorBody {
        ErrorBody::new(
            ErrorCode::NotAllowed,
            format!(
                "{path} is outside the folders files may be read from or written to ({})",
                self.listed()
            ),
        )
        .with_hint(ADD_ONE)
    }

    /// Reads a regular file for an upload, at most [`MAX_UPLOAD_BYTES`].
    pub fn read_upload(&self, path: &str) -> Result<FileData, ErrorBody> {
        let (name, bytes) = self.read(path)?;
        use base64::Engine;
        Ok(FileData {
            mime: mime_guess::from_path(&name)
                .first_or_octet_stream()
                .essence_str()
                .to_owned(),
            name,
            base64: base64::engine::general_purpose::STANDARD.encode(bytes),
        })
    }

    /// A regular file's name and bytes, at most [`MAX_UPLOAD_BYTES`].
    pub fn read(&self, path: &str) -> Result<(String, Vec<u8>), ErrorBody> {
        let (folder, rel) = self.locate(path)?;
        let dir = open_folder(folder)?;
        let cannot = |e: std::io::Error| refused(path, folder, e);
        if !dir.metadata(&rel).map_err(cannot)?.is_file() {
            return Err(invalid(format!("{path} is not a regular file")));
        }
        let mut options = OpenOptions::new();
        options.read(true);
        // A FIFO swapped in after the check must not block the open.
        #[cfg(unix)]
        cap_std::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK | libc::O_NOCTTY);
        let mut file = dir.open_with(&rel, &options).map_err(cannot)?;
        let meta = file.metadata().map_err(cannot)?;
        if !meta.is_file() || pseudo_file(&file) {
            return Err(invalid(format!("{path} is not a regular file")));
        }
        if meta.len() > MAX_UPLOAD_BYTES {
            return Err(too_large(path, meta.len()));
        }
        let mut bytes = Vec::new();
        (&mut file)
            .take(MAX_UPLOAD_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(cannot)?;
        if bytes.len() as u64 > MAX_UPLOAD_BYTES {
            return Err(too_large(path, bytes.len() as u64));
        }
        let name = rel
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "file".into());
        Ok((name, bytes))
    }

    /// Refuses a path outside the allowed folders now, before any work.
    pub fn check(&self, path: &str) -> Result<(), ErrorBody> {
        self.locate(path).map(drop)
    }

    /// Copies a finished download from where the browser wrote it into `folder` (in the
    /// allowed folders, made if missing) under its own name, or `name (2).ext` when that is
    /// taken: nothing is ever replaced. Only the file the browser reported is read: a regular
    /// file, not a symlink, of exactly `size` bytes. Returns where it is now.
    pub fn take_download(
        &self,
        folder: &str,
        source: &Path,
        size: u64,
    ) -> Result<PathBuf, ErrorBody> {
        let mut file = open_download(source, size)?;
        let (root, rel) = self.locate(folder)?;
        let cannot = |e: std::io::Error| refused(folder, root, e);
        let base = open_folder(root)?;
        let dir = if rel.as_os_str().is_empty() {
            base
        } else {
            base.create_dir_all(&rel).map_err(cannot)?;
            base.open_dir(&rel).map_err(cannot)?
        };
        if pseudo_dir(&dir) {
            return Err(invalid(format!("{folder} is not an ordinary folder")));
        }
        let name = download_name(source);
        let shown = |e: std::io::Error| {
            ErrorBody::new(
                ErrorCode::PageError,
                format!("cannot write {name} in {folder}: {e}"),
            )
        };
        let tmp = write_temp(&dir, &name, &mut file).map_err(shown)?;
        let placed = numbered(&name).take(1_000).find_map(|candidate| {
            match dir.hard_link(&tmp, &dir, &candidate) {
                Ok(()) => Some(Ok(candidate)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => None,
                Err(e) => Some(Err(e)),
            }
        });
        let _ = dir.remove_file(&tmp);
        match placed {
            Some(Ok(placed)) => Ok(root.join(rel).join(placed)),
            Some(Err(e)) => Err(shown(e)),
            None => Err(shown(std::io::ErrorKind::AlreadyExists.into())),
        }
    }

    /// Checks a destination now (so a bad path fails before any work) and keeps the folder
    /// open for the write.
    pub fn prepare_save(&self, path: &str, overwrite: bool) -> Result<SaveTarget, ErrorBody> {
        let (folder, rel) = self.locate(path)?;
        let name = match rel.components().next_back() {
            Some(Component::Normal(name)) => name.to_owned(),
            _ => return Err(invalid(format!("{path} does not end in a file name"))),
        };
        let parent = rel.parent().unwrap_or(Path::new(""));
        let root = open_folder(folder)?;
        let dir = if parent.as_os_str().is_empty() {
            root
        } else {
            root.open_dir(parent)
                .map_err(|e| refused(path, folder, e))?
        };
        if pseudo_dir(&dir) {
            return Err(invalid(format!("{path} is not in an ordinary folder")));
        }
        match dir.symlink_metadata(&name) {
            Ok(meta) if meta.is_dir() => Err(invalid(format!("{path} is a folder"))),
            Ok(_) if !overwrite => Err(invalid(format!("{path} exists"))
                .with_hint("pass overwrite: true to replace it, or choose another path")),
            Ok(_) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(refused(path, folder, e)),
        }?;
        Ok(SaveTarget {
            dir,
            name,
            shown: PathBuf::from(path),
            overwrite,
        })
    }
}

/// A checked destination whose folder is held open.
#[derive(Debug)]
pub struct SaveTarget {
    dir: Dir,
    name: OsString,
    shown: PathBuf,
    overwrite: bool,
}

impl SaveTarget {
    /// Writes `bytes` under a fresh name, then moves it into place: a symlink at the
    /// destination is replaced, never written through. Returns the path as the agent gave it.
    pub fn write(self, bytes: &[u8]) -> Result<PathBuf, ErrorBody> {
        let failed = |e: std::io::Error| {
            ErrorBody::new(
                ErrorCode::PageError,
                format!("cannot write {}: {e}", self.shown.display()),
            )
        };
        let tmp =
            write_temp(&self.dir, &self.name.to_string_lossy(), &mut &bytes[..]).map_err(failed)?;
        let placed = self.place(&tmp);
        let _ = self.dir.remove_file(&tmp);
        placed.map_err(failed)?;
        Ok(self.shown)
    }

    fn place(&self, tmp: &str) -> std::io::Result<()> {
        if self.overwrite {
            return self.dir.rename(tmp, &self.dir, &self.name);
        }
        // A link fails if the name was taken meanwhile: nothing is ever replaced unasked.
        self.dir.hard_link(tmp, &self.dir, &self.name)
    }
}

/// Writes `from` to a fresh hidden name in `dir` (removed again if the write fails), from
/// where it is moved into place.
fn write_temp(dir: &Dir, name: &str, from: &mut impl Read) -> std::io::Result<String> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let tmp = format!(
        ".{name}.{}-{}.part",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    );
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    let written = dir
        .open_with(&tmp, &options)
        .and_then(|mut f| std::io::copy(from, &mut f).and_then(|_| f.flush()));
    match written {
        Ok(()) => Ok(tmp),
        Err(e) => {
            let _ = dir.remove_file(&tmp);
            Err(e)
        }
    }
}

/// Opens the file a download wrote, refusing anything but a regular file of `size` bytes
/// (a symlink is not followed).
fn open_download(source: &Path, size: u64) -> Result<std::fs::File, ErrorBody> {
    let shown = source.display();
    if !source.is_absolute() {
        return Err(invalid(format!(
            "the browser's file {shown} is not absolute"
        )));
    }
    let file = open_no_follow(source)
        .map_err(|e| invalid(format!("cannot open the downloaded file {shown}: {e}")))?;
    let meta = file
        .metadata()
        .map_err(|e| invalid(format!("cannot read {shown}: {e}")))?;
    if !meta.is_file() || pseudo_std_file(&file) || meta.len() != size {
        return Err(invalid(format!(
            "{shown} is not the file the browser downloaded ({size} bytes)"
        )));
    }
    Ok(file)
}

/// Opens a file itself, not what a symlink at its path points to (and a FIFO without waiting).
#[cfg(unix)]
fn open_no_follow(path: &Path) -> std::io::Result<std::fs::File> {
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
fn open_no_follow(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::windows::fs::OpenOptionsExt as _;
    use std::path::Prefix;
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

/// `CON`, `nul.txt`, `COM1 .log`, `CONIN$`: names Windows resolves to a device in any folder.
fn dos_device(part: &std::ffi::OsStr) -> bool {
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

/// A download's file name, safe in a project: never hidden (`.envrc` → `_envrc`).
fn download_name(source: &Path) -> String {
    let name = source
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match name.strip_prefix('.') {
        _ if name.is_empty() => "download".into(),
        Some(rest) => format!("_{rest}"),
        None => name,
    }
}

/// `report.bin`, `report (2).bin`, `report (3).bin`, …
fn numbered(name: &str) -> impl Iterator<Item = String> + '_ {
    let (stem, ext) = match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => (stem, format!(".{ext}")),
        _ => (name, String::new()),
    };
    std::iter::once(name.to_owned()).chain((2..).map(move |n| format!("{stem} ({n}){ext}")))
}

/// `path` relative to `folder` if it lies in it; on Windows names compare without case (as the
/// file system does: `c:\users\…` is in `C:\Users`). Opening beneath the folder stays exact.
fn within(path: &Path, folder: &Path, ignore_case: bool) -> Option<PathBuf> {
    if !ignore_case {
        return path.strip_prefix(folder).ok().map(Path::to_owned);
    }
    let mut parts = path.components();
    for expected in folder.components() {
        let part = parts.next()?;
        if !part.as_os_str().eq_ignore_ascii_case(expected.as_os_str()) {
            return None;
        }
    }
    Some(parts.as_path().to_owned())
}

/// `a/./b/../c` → `a/c`, without touching the disk (only to find which folder a path is in;
/// the opening itself resolves beneath that folder, refusing escapes).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

fn open_folder(folder: &Path) -> Result<Dir, ErrorBody> {
    Dir::open_ambient_dir(folder, ambient_authority()).map_err(|e| {
        ErrorBody::new(
            ErrorCode::NotAllowed,
            format!(
                "the allowed folder {} cannot be opened: {e}",
                folder.display()
            ),
        )
    })
}

fn refused(path: &str, folder: &Path, e: std::io::Error) -> ErrorBody {
    if e.kind() == std::io::ErrorKind::NotFound {
        return invalid(format!("{path} does not exist"));
    }
    ErrorBody::new(
        ErrorCode::NotAllowed,
        format!(
            "cannot use {path} inside {}: {e} (a symlink or .. leading out of the folder is refused)",
            folder.display()
        ),
    )
    .with_hint(ADD_ONE)
}

fn invalid(message: impl Into<String>) -> ErrorBody {
    ErrorBody::new(ErrorCode::InvalidArgument, message)
}

fn too_large(path: &str, len: u64) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::TooLarge,
        format!("{path} is {len} bytes; at most {MAX_UPLOAD_BYTES} bytes can be uploaded"),
    )
    .with_hint("Firefox takes at most 1 MiB per message from the host; upload a smaller file")
}

/// Kernel filesystems whose "regular" files are views of processes and devices.
fn pseudo_path(path: &Path) -> bool {
    ["/proc", "/sys", "/dev"]
        .iter()
        .any(|p| path.starts_with(p))
}

#[cfg(unix)]
fn pseudo_file(file: &cap_std::fs::File) -> bool {
    use std::os::fd::AsRawFd;
    pseudo_fd(file.as_raw_fd())
}

#[cfg(unix)]
fn pseudo_std_file(file: &std::fs::File) -> bool {
    use std::os::fd::AsRawFd;
    pseudo_fd(file.as_raw_fd())
}

#[cfg(unix)]
fn pseudo_dir(dir: &Dir) -> bool {
    use std::os::fd::AsRawFd;
    pseudo_fd(dir.as_raw_fd())
}

/// Windows has no kernel filesystems posing as folders of files; devices are refused by name.
#[cfg(windows)]
fn pseudo_file(_file: &cap_std::fs::File) -> bool {
    false
}

#[cfg(windows)]
fn pseudo_std_file(_file: &std::fs::File) -> bool {
    false
}

#[cfg(windows)]
fn pseudo_dir(_dir: &Dir) -> bool {
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

/// The folders named on the command line (`--allow-dir DIR`, repeatable) and in
/// [`ENV_ALLOW_DIRS`]; anything else on the command line is an error.
pub fn folders_from(
    args: impl IntoIterator<Item = OsString>,
    env: Option<OsString>,
) -> Result<Vec<PathBuf>, String> {
    let mut out: Vec<PathBuf> = env
        .map(|v| {
            std::env::split_paths(&v)
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        })
        .unwrap_or_default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        if arg == "--allow-dir" {
            let dir = args.next().ok_or("--allow-dir needs a folder")?;
            out.push(dir.into());
        } else if let Some(dir) = arg.to_str().and_then(|a| a.strip_prefix("--allow-dir=")) {
            out.push(dir.into());
        } else {
            return Err(format!(
                "unknown argument {arg:?}; usage: claudezilla-mcp [--allow-dir DIR]..."
            ));
        }
    }
    Ok(out)
}

/// The local path of a `file://` root URI (MCP roots), if it is one.
pub fn root_path(uri: &str) -> Option<PathBuf> {
    root_path_on(uri, cfg!(windows)).map(PathBuf::from)
}

/// The rule of [`root_path`]; on Windows `file:///C:/p` is `C:/p` (a drive, not `/C:`).
fn root_path_on(uri: &str, windows: bool) -> Option<String> {
    let rest = uri.strip_prefix("file://")?;
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    if !path.starts_with('/') {
        return None;
    }
    let decoded = percent_encoding::percent_decode_str(path)
        .decode_utf8()
        .ok()?;
    let drive = |p: &str| {
        let b = p.as_bytes();
        b.len() >= 3 && b[1].is_ascii_alphabetic() && b[2] == b':'
    };
    match windows && drive(&decoded) {
        true => Some(decoded[1..].to_owned()),
        false => Some(decoded.into_owned()),
    }
}

/// Windows' path rules, pure, so they are tested on every platform.
#[cfg(test)]
mod windows_rules {
    use super::dos_device;
    use std::ffi::OsStr;
    use std::path::Path;

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

    #[test]
    fn windows_folders_match_without_case() {
        let folder = Path::new("/Users/Ada/Project");
        let rel = |p: &str, ignore| super::within(Path::new(p), folder, ignore);
        assert_eq!(
            rel("/users/ada/PROJECT/a/b.txt", true),
            Some("a/b.txt".into())
        );
        assert_eq!(rel("/users/ada/PROJECT/a/b.txt", false), None);
        assert_eq!(rel("/Users/Ada/Project", true), Some("".into()));
        assert_eq!(rel("/Users/Ada/Projects/x", true), None);
        assert_eq!(rel("/Users/Ada", true), None);
    }

    #[test]
    fn a_windows_root_uri_is_a_drive_path() {
        let root = |uri, windows| super::root_path_on(uri, windows);
        assert_eq!(
            root("file:///C:/Users/Ada%20L/p", true).as_deref(),
            Some("C:/Users/Ada L/p")
        );
        assert_eq!(root("file:///C:/p", false).as_deref(), Some("/C:/p"));
        assert_eq!(root("file:///home/a", true).as_deref(), Some("/home/a"));
        assert_eq!(root("file://server/share", true), None);
    }
}

/// What differs on Windows (run under Wine by `cargo xtask test`).
#[cfg(all(test, windows))]
mod windows_tests {
    use super::*;

    #[test]
    fn drive_paths_devices_and_shares() {
        let tmp = tempfile::tempdir().unwrap();
        let project = tmp.path().join("project");
        std::fs::create_dir_all(&project).unwrap();
        std::fs::write(project.join("notes.txt"), "hello").unwrap();
        std::fs::write(tmp.path().join("secret"), "key").unwrap();
        let allowed = Allowed::new([project.clone()]);
        // A drive path as the agent writes it matches the allowed folder.
        let notes = dunce::canonicalize(&project).unwrap().join("notes.txt");
        assert!(!notes.to_string_lossy().starts_with(r"\\?\"), "{notes:?}");
        let (_, bytes) = allowed.read(&notes.to_string_lossy()).unwrap();
        assert_eq!(bytes, b"hello");
        assert_eq!(allowed.read("notes.txt").unwrap().1, b"hello");
        let shouted = notes.to_string_lossy().to_uppercase();
        assert_eq!(allowed.read(&shouted).unwrap().1, b"hello", "{shouted}");
        // Devices, in any folder and any disguise.
        for device in ["CON", "nul.txt", r"sub\COM1", "CONIN$"] {
            let e = allowed.read(device).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidArgument, "{device}: {e}");
            assert!(e.message.contains("device"), "{e}");
        }
        let outside = tmp.path().join("secret");
        let e = allowed.read(&outside.to_string_lossy()).unwrap_err();
        assert_eq!(e.code, ErrorCode::NotAllowed, "{e}");
        // A download "from" a share or a device path is never opened.
        for source in [
            r"\\server\share\x.bin",
            r"\\.\pipe\x",
            r"\\?\UNC\server\s\x",
        ] {
            let e = allowed
                .take_download("downloads", Path::new(source), 3)
                .unwrap_err();
            assert!(e.message.contains("local drive"), "{source}: {e}");
        }
    }
}

/// Unix only: they build the symlinks, FIFOs and `/proc` paths a page would name.
#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn setup() -> (tempfile::TempDir, PathBuf, Allowed) {
        let tmp = tempfile::tempdir().unwrap();
        let project = tmp.path().join("project");
        std::fs::create_dir_all(project.join("sub")).unwrap();
        std::fs::write(project.join("notes.txt"), "hello").unwrap();
        std::fs::write(tmp.path().join("secret"), "ssh key").unwrap();
        let allowed = Allowed::new([project.clone()]);
        (tmp, project.canonicalize().unwrap(), allowed)
    }

    fn s(p: &Path) -> String {
        p.to_string_lossy().into_owned()
    }

    #[test]
    fn a_download_is_copied_in_under_a_fresh_name_never_replacing() {
        let (tmp, project, allowed) = setup();
        let browser = tmp.path().join("Downloads");
        std::fs::create_dir(&browser).unwrap();
        let report = browser.join("report.bin");
        std::fs::write(&report, [1, 2, 3]).unwrap();
        let first = allowed.take_download("downloads", &report, 3).unwrap();
        assert_eq!(first, project.join("downloads/report.bin"));
        assert_eq!(std::fs::read(&first).unwrap(), [1, 2, 3]);
        let second = allowed.take_download("downloads", &report, 3).unwrap();
        assert_eq!(second, project.join("downloads/report (2).bin"));
        assert_eq!(std::fs::read(&first).unwrap(), [1, 2, 3], "not replaced");
        let hidden = browser.join(".envrc");
        std::fs::write(&hidden, "export X=1").unwrap();
        let placed = allowed.take_download(".", &hidden, 10).unwrap();
        assert_eq!(placed, project.join("_envrc"), "never a hidden file");
        let leftovers: Vec<_> = std::fs::read_dir(project.join("downloads"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(leftovers.len(), 2, "no temporary file left: {leftovers:?}");
    }

    #[test]
    fn only_the_file_the_browser_reported_is_taken_and_only_into_allowed_folders() {
        let (tmp, project, allowed) = setup();
        let secret = tmp.path().join("secret");
        let link = tmp.path().join("report.bin");
        symlink(&secret, &link).unwrap();
        let e = allowed.take_download("downloads", &link, 7).unwrap_err();
        assert_eq!(
            e.code,
            ErrorCode::InvalidArgument,
            "a symlink is not followed"
        );
        let e = allowed.take_download("downloads", &secret, 99).unwrap_err();
        assert!(e.message.contains("not the file"), "{e}");
        let e = allowed.take_download("/tmp", &secret, 7).unwrap_err();
        assert_eq!(e.code, ErrorCode::NotAllowed);
        let e = allowed.take_download("../out", &secret, 7).unwrap_err();
        assert_eq!(e.code, ErrorCode::NotAllowed, "{e}");
        assert!(!tmp.path().join("out").exists());
        let e = allowed
            .take_download("downloads", Path::new("secret"), 7)
            .unwrap_err();
        assert!(e.message.contains("absolute"), "{e}");
        assert!(!project.join("downloads").join("secret").exists());
    }

    #[test]
    fn an_upload_inside_reads_the_file() {
        let (_tmp, project, allowed) = setup();
        let file = allowed.read_upload(&s(&project.join("notes.txt"))).unwrap();
        assert_eq!(
            (file.name.as_str(), file.mime.as_str(), file.base64.as_str()),
            ("notes.txt", "text/plain", "aGVsbG8=")
        );
        let relative = allowed.read_upload("sub/../notes.txt").unwrap();
        assert_eq!(relative.base64, "aGVsbG8=");
    }

    #[test]
    fn uploads_outside_are_refused_with_the_folders_and_the_fix() {
        let (tmp, project, allowed) = setup();
        for path in [
            s(&tmp.path().join("secret")),
            s(&project.join("../secret")),
            "../secret".into(),
            "/proc/self/environ".into(),
            "/etc/passwd".into(),
        ] {
            let err = allowed.read_upload(&path).unwrap_err();
            assert_eq!(err.code, ErrorCode::NotAllowed, "{path}: {err}");
            assert!(err.to_string().contains("--allow-dir"), "{err}");
        }
        let err = allowed.read_upload("/etc/passwd").unwrap_err();
        assert!(
            err.message.contains(&s(&project)),
            "names the folders: {err}"
        );
    }

    #[test]
    fn a_symlink_pointing_out_is_refused_one_pointing_in_is_followed() {
        let (tmp, project, allowed) = setup();
        symlink(tmp.path().join("secret"), project.join("key")).unwrap();
        symlink("/proc/self/environ", project.join("env")).unwrap();
        // Relative links that stay inside are followed; absolute ones are refused even when
        // they point inside (they are resolved from /, not from the folder).
        symlink("notes.txt", project.join("alias")).unwrap();
        symlink(project.join("notes.txt"), project.join("absolute")).unwrap();
        symlink(tmp.path(), project.join("up")).unwrap();
        for link in ["key", "env", "up/secret", "absolute"] {
            let err = allowed.read_upload(&s(&project.join(link))).unwrap_err();
            assert_eq!(err.code, ErrorCode::NotAllowed, "{link}: {err}");
        }
        assert!(allowed.read_upload(&s(&project.join("alias"))).is_ok());
    }

    #[test]
    fn fifos_and_folders_are_not_read() {
        let (_tmp, project, allowed) = setup();
        let fifo = project.join("pipe");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid path string.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let err = allowed.read_upload(&s(&fifo)).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidArgument, "{err}");
        assert!(allowed.read_upload(&s(&project.join("sub"))).is_err());
        assert!(allowed.read_upload(&s(&project.join("missing"))).is_err());
    }

    #[test]
    fn large_files_are_refused() {
        let (_tmp, project, allowed) = setup();
        let big = project.join("big.bin");
        std::fs::write(&big, vec![0u8; MAX_UPLOAD_BYTES as usize + 1]).unwrap();
        assert_eq!(
            allowed.read_upload(&s(&big)).unwrap_err().code,
            ErrorCode::TooLarge
        );
    }

    #[test]
    fn saving_writes_once_and_replaces_only_when_told() {
        let (_tmp, project, allowed) = setup();
        let path = s(&project.join("shot.jpg"));
        allowed
            .prepare_save(&path, false)
            .unwrap()
            .write(&[1, 2, 3])
            .unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), [1, 2, 3]);
        let err = allowed.prepare_save(&path, false).unwrap_err();
        assert!(err.hint.unwrap().contains("overwrite"));
        allowed
            .prepare_save(&path, true)
            .unwrap()
            .write(&[4])
            .unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), [4]);
        // Nothing left behind.
        let names: Vec<_> = std::fs::read_dir(&project).unwrap().collect();
        assert_eq!(names.len(), 3, "{names:?}");
        // Taken between the check and the write: not replaced.
        let late = s(&project.join("late.jpg"));
        let target = allowed.prepare_save(&late, false).unwrap();
        std::fs::write(&late, "theirs").unwrap();
        assert!(target.write(&[9]).is_err());
        assert_eq!(std::fs::read(&late).unwrap(), b"theirs");
    }

    #[test]
    fn saving_never_writes_through_a_symlink_or_outside() {
        let (tmp, project, allowed) = setup();
        let bashrc = tmp.path().join("bashrc");
        std::fs::write(&bashrc, "user's").unwrap();
        symlink(&bashrc, project.join("shot.jpg")).unwrap();
        let link = s(&project.join("shot.jpg"));
        allowed
            .prepare_save(&link, true)
            .unwrap()
            .write(&[1])
            .unwrap();
        assert_eq!(
            std::fs::read(&bashrc).unwrap(),
            b"user's",
            "the link's target is untouched"
        );
        assert_eq!(std::fs::read(&link).unwrap(), [1]);
        symlink(tmp.path(), project.join("out")).unwrap();
        for path in [
            s(&project.join("out/x.jpg")),
            s(&bashrc),
            "/proc/self/fd/1".into(),
            s(&project.join("../x.jpg")),
        ] {
            let err = allowed.prepare_save(&path, true).unwrap_err();
            assert_eq!(err.code, ErrorCode::NotAllowed, "{path}: {err}");
        }
        assert!(
            allowed.prepare_save(&s(&project), true).is_err(),
            "a folder"
        );
        assert!(
            allowed
                .prepare_save(&s(&project.join("no/such/x.jpg")), false)
                .is_err()
        );
    }

    #[test]
    fn pseudo_filesystems_are_never_allowed_folders() {
        let allowed = Allowed::new([PathBuf::from("/proc/self"), PathBuf::from("/no/such")]);
        assert!(allowed.folders().is_empty());
        assert_eq!(
            allowed.read_upload("x").unwrap_err().code,
            ErrorCode::NotAllowed
        );
    }

    #[test]
    fn folders_come_from_flags_and_the_environment() {
        let args = ["--allow-dir", "/a", "--allow-dir=/b"].map(OsString::from);
        let got = folders_from(args, Some("/c:/d".into())).unwrap();
        assert_eq!(got, ["/c", "/d", "/a", "/b"].map(PathBuf::from));
        assert!(folders_from([OsString::from("--allow-dir")], None).is_err());
        assert!(folders_from([OsString::from("--bogus")], None).is_err());
    }

    #[test]
    fn root_uris_become_paths() {
        assert_eq!(
            root_path("file:///home/u/my%20proj"),
            Some("/home/u/my proj".into())
        );
        assert_eq!(root_path("file://localhost/x"), Some("/x".into()));
        assert_eq!(root_path("https://x/"), None);
        assert_eq!(root_path("file://server/share"), None);
    }
}
