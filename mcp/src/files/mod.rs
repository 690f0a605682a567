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
//! opens the device in any folder. An upload is never the user's secrets file nor a file
//! holding one of its values; what may be named what, and where, is `rules`'s to say.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use cap_std::ambient_authority;
use cap_std::fs::{Dir, OpenOptions};
use claudezilla_protocol::args::{FileData, MAX_UPLOAD_BYTES};
use claudezilla_protocol::{ErrorBody, ErrorCode};

use crate::secrets::Secrets;

mod cli;
mod platform;
mod rules;

pub use cli::{ENV_ALLOW_DIRS, ENV_DOWNLOADS_DIR, Options, root_path};
pub use rules::Written;

use platform::{
    dos_device, open_no_follow, pseudo_dir, pseudo_file, pseudo_path, pseudo_std_file, same_file,
};

const ADD_ONE: &str = "Ask the user to allow the folder: start claudezilla-mcp with --allow-dir DIR (repeatable) \
or set CLAUDEZILLA_ALLOW_DIRS=DIR1:DIR2 (DIR1;DIR2 on Windows); the MCP client's roots (your project folder) are always allowed.";

/// The folders files may be read from and written to, each canonical (symlinks resolved).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Allowed {
    folders: Vec<PathBuf>,
    /// Where downloads land, if the user named a folder (else `downloads/` in the first).
    downloads: Option<PathBuf>,
}

/// The downloads folder in the project when the user names none.
const DOWNLOADS: &str = "downloads";

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
        Self {
            folders: out,
            downloads: None,
        }
    }

    /// Downloads land in `folder` (the user's word; made if missing) instead of `downloads/`
    /// in the project.
    pub fn with_downloads(mut self, folder: Option<PathBuf>) -> Self {
        self.downloads = folder;
        self
    }

    pub fn folders(&self) -> &[PathBuf] {
        &self.folders
    }

    fn listed(&self) -> String {
        if self.folders.is_empty() {
            return "none".into();
        }
        let names: Vec<String> = self
            .folders
            .iter()
            .map(|p| p.display().to_string())
            .collect();
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
            let first = self.folders.first().ok_or_else(|| self.outside(path))?;
            return Ok((first, given.to_owned()));
        }
        // The longest folder that holds the path lexically (nested folders may both be allowed).
        let lexical = normalize(given);
        self.folders
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

    /// Reads a regular file for an upload, at most [`MAX_UPLOAD_BYTES`]: never the secrets
    /// file (known by what it is, so a symlink or hard link to it is refused too) nor a file
    /// that holds a secret's value — a page would have the agent upload exactly those.
    pub fn read_upload(&self, path: &str, secrets: &Secrets) -> Result<FileData, ErrorBody> {
        let opened = self.open_regular(path)?;
        if let Some(file) = secrets.file()
            && same_file(&opened.file, &opened.folder.join(&opened.rel), file)
        {
            return Err(secret_refusal(format!(
                "{path} is the secrets file (--secrets)"
            )));
        }
        let (name, bytes) = opened.read_all(path)?;
        if let Some(secret) = secrets.found_in(&bytes) {
            return Err(secret_refusal(format!(
                "{path} holds the value of the secret {secret}"
            )));
        }
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

    /// A regular file's name and bytes, at most [`MAX_UPLOAD_BYTES`]; never a hidden one.
    pub fn read(&self, path: &str) -> Result<(String, Vec<u8>), ErrorBody> {
        self.open_regular(path)?.read_all(path)
    }

    /// Opens a regular file beneath its allowed folder; never a hidden one.
    fn open_regular(&self, path: &str) -> Result<Opened<'_>, ErrorBody> {
        let (folder, rel) = self.locate(path)?;
        rules::readable(&rel, path)?;
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
        let file = dir.open_with(&rel, &options).map_err(cannot)?;
        Ok(Opened { folder, rel, file })
    }

    /// Where downloads land, `save_to` beneath it: checked now, before any work.
    pub fn downloads_folder(&self, save_to: Option<&str>) -> Result<Downloads, ErrorBody> {
        let sub = rules::download_subfolder(save_to.unwrap_or("."))?;
        let (root, named) = match &self.downloads {
            Some(named) => (named.clone(), true),
            None => (
                self.folders
                    .first()
                    .ok_or_else(|| self.outside(DOWNLOADS))?
                    .join(DOWNLOADS),
                false,
            ),
        };
        Ok(Downloads { root, named, sub })
    }

    /// Copies a finished download from where the browser wrote it into the downloads folder
    /// (made if missing) under its own name — kept inert as `NAME.download` when a tool would
    /// pick that name up (`rules::inert`) — or `name (2).ext` when that is taken: nothing is
    /// ever replaced. Only the file the browser reported is read: a regular file, not a
    /// symlink, of exactly `size` bytes. Returns where it is now.
    pub fn take_download(
        &self,
        to: &Downloads,
        source: &Path,
        size: u64,
    ) -> Result<Taken, ErrorBody> {
        let mut file = open_download(source, size)?;
        let shown_folder = to.root.join(&to.sub);
        let folder = shown_folder.display().to_string();
        let dir = to.open()?;
        if pseudo_dir(&dir) {
            return Err(invalid(format!("{folder} is not an ordinary folder")));
        }
        let (name, inert_for) = rules::inert(&to.sub, download_name(source));
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
            Some(Ok(placed)) => Ok(Taken {
                path: shown_folder.join(placed),
                inert_for,
            }),
            Some(Err(e)) => Err(shown(e)),
            None => Err(shown(std::io::ErrorKind::AlreadyExists.into())),
        }
    }

    /// Checks a destination for a file of `kind` now (so a bad path fails before any work)
    /// and keeps the folder open for the write. An answer goes beneath the output folder
    /// (`rules::placed`), made when missing.
    pub fn prepare_save(
        &self,
        path: &str,
        overwrite: bool,
        kind: Written,
    ) -> Result<SaveTarget, ErrorBody> {
        let (folder, rel) = self.locate(path)?;
        let rel = rules::placed(rel, path, kind)?;
        rules::writable(&rel, path, kind)?;
        let name = match rel.components().next_back() {
            Some(Component::Normal(name)) => name.to_owned(),
            _ => return Err(invalid(format!("{path} does not end in a file name"))),
        };
        let parent = rel.parent().unwrap_or(Path::new(""));
        let root = open_folder(folder)?;
        // A folder of its own is made beneath the allowed folder (cap-std refuses a link out).
        if kind.own_folder().is_some() {
            root.create_dir_all(parent)
                .map_err(|e| refused(path, folder, e))?;
        }
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
        // A file placed in a folder of its own is answered where it really is.
        let shown = match kind.own_folder() {
            Some(_) => folder.join(&rel),
            None => PathBuf::from(path),
        };
        Ok(SaveTarget {
            dir,
            name,
            shown,
            overwrite,
        })
    }
}

/// A download where it landed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Taken {
    pub path: PathBuf,
    /// The tool that would have picked up its name, which it was kept inert from.
    pub inert_for: Option<&'static str>,
}

/// Where downloads land: the downloads folder (the user's, or `downloads/` in the project)
/// and a checked folder beneath it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Downloads {
    root: PathBuf,
    /// The user named the folder: it is made where they said. Otherwise it is made beneath
    /// the project, never through a link that leads out.
    named: bool,
    sub: PathBuf,
}

impl Downloads {
    fn open(&self) -> Result<Dir, ErrorBody> {
        let shown = self.root.join(&self.sub).display().to_string();
        let cannot = |e: std::io::Error| {
            ErrorBody::new(
                ErrorCode::NotAllowed,
                format!(
                    "cannot use the downloads folder {shown}: {e} (a link leading out of it is refused)"
                ),
            )
        };
        let base = match self.named {
            true => {
                std::fs::create_dir_all(&self.root).map_err(cannot)?;
                open_folder(&self.root)?
            }
            false => {
                let project = self.root.parent().unwrap_or(Path::new("."));
                let project = open_folder(project)?;
                project.create_dir_all(DOWNLOADS).map_err(cannot)?;
                project.open_dir(DOWNLOADS).map_err(cannot)?
            }
        };
        if self.sub.as_os_str().is_empty() {
            return Ok(base);
        }
        base.create_dir_all(&self.sub).map_err(cannot)?;
        base.open_dir(&self.sub).map_err(cannot)
    }
}

/// A file opened for reading beneath its allowed folder.
struct Opened<'a> {
    folder: &'a Path,
    rel: PathBuf,
    file: cap_std::fs::File,
}

impl Opened<'_> {
    /// The file's name and bytes: a regular file (procfs files look regular but are not), at
    /// most [`MAX_UPLOAD_BYTES`].
    fn read_all(self, path: &str) -> Result<(String, Vec<u8>), ErrorBody> {
        let Self { folder, rel, file } = self;
        let cannot = |e: std::io::Error| refused(path, folder, e);
        let meta = file.metadata().map_err(cannot)?;
        if !meta.is_file() || pseudo_file(&file) {
            return Err(invalid(format!("{path} is not a regular file")));
        }
        if meta.len() > MAX_UPLOAD_BYTES {
            return Err(too_large(path, meta.len()));
        }
        let mut bytes = Vec::new();
        file.take(MAX_UPLOAD_BYTES + 1)
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

/// An upload refused because it would carry a secret out; `what` names it, never its value.
fn secret_refusal(what: String) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::NotAllowed,
        format!("{what}: a secret's value is never uploaded"),
    )
    .with_hint(
        "upload another file; a secret goes only into a field, by name (firefox_type {secret})",
    )
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

/// Windows' path rules, pure, so they are tested on every platform.
#[cfg(test)]
mod windows_rules {
    use std::path::Path;

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
            let to = allowed.downloads_folder(None).unwrap();
            let e = allowed
                .take_download(&to, Path::new(source), 3)
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

    fn upload(allowed: &Allowed, path: &str) -> Result<FileData, ErrorBody> {
        allowed.read_upload(path, &Secrets::default())
    }

    #[test]
    fn a_download_is_copied_in_under_a_fresh_name_never_replacing() {
        let (tmp, project, allowed) = setup();
        let browser = tmp.path().join("Downloads");
        std::fs::create_dir(&browser).unwrap();
        let report = browser.join("report.bin");
        std::fs::write(&report, [1, 2, 3]).unwrap();
        let to = allowed.downloads_folder(None).unwrap();
        let first = allowed.take_download(&to, &report, 3).unwrap().path;
        assert_eq!(first, project.join("downloads/report.bin"));
        assert_eq!(std::fs::read(&first).unwrap(), [1, 2, 3]);
        let second = allowed.take_download(&to, &report, 3).unwrap().path;
        assert_eq!(second, project.join("downloads/report (2).bin"));
        assert_eq!(std::fs::read(&first).unwrap(), [1, 2, 3], "not replaced");
        let hidden = browser.join(".envrc");
        std::fs::write(&hidden, "export X=1").unwrap();
        let placed = allowed.take_download(&to, &hidden, 10).unwrap().path;
        assert_eq!(
            placed,
            project.join("downloads/_envrc"),
            "never a hidden file"
        );
        let beneath = allowed.downloads_folder(Some("reports/q3")).unwrap();
        let deep = allowed.take_download(&beneath, &report, 3).unwrap().path;
        assert_eq!(deep, project.join("downloads/reports/q3/report.bin"));
        let leftovers: Vec<_> = std::fs::read_dir(project.join("downloads"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(leftovers.len(), 4, "no temporary file left: {leftovers:?}");
    }

    #[test]
    fn a_download_named_as_a_tool_picks_it_up_is_kept_inert() {
        let (tmp, project, allowed) = setup();
        let to = allowed.downloads_folder(None).unwrap();
        for (name, lands, tool) in [
            ("conftest.py", "conftest.py.download", Some("pytest")),
            (
                "x_test.go",
                "x_test.go.download",
                Some("test runners (go test, pytest, deno, bun, …)"),
            ),
            ("CLAUDE.md", "CLAUDE.md.download", Some("Claude Code")),
            ("report.csv", "report.csv", None),
        ] {
            let source = tmp.path().join(name);
            std::fs::write(&source, "x").unwrap();
            let taken = allowed.take_download(&to, &source, 1).unwrap();
            assert_eq!(taken.path, project.join("downloads").join(lands), "{name}");
            assert_eq!(taken.inert_for, tool, "{name}");
            assert!(!project.join("downloads").join(name).exists() || tool.is_none());
        }
        let again = allowed
            .take_download(&to, &tmp.path().join("conftest.py"), 1)
            .unwrap();
        assert_eq!(
            again.path,
            project.join("downloads/conftest.py (2).download")
        );
        // A folder a runner looks in makes its scripts inert too.
        let tests = allowed.downloads_folder(Some("__tests__")).unwrap();
        let source = tmp.path().join("x.js");
        std::fs::write(&source, "x").unwrap();
        let taken = allowed.take_download(&tests, &source, 1).unwrap();
        assert_eq!(
            taken.path,
            project.join("downloads/__tests__/x.js.download")
        );
    }

    #[test]
    fn answers_are_written_in_their_own_folder() {
        let (_tmp, project, allowed) = setup();
        std::fs::create_dir(project.join("tests")).unwrap();
        let out = project.join("claudezilla-output");
        let save = |path: &str, overwrite| {
            allowed
                .prepare_save(path, overwrite, Written::Output)
                .and_then(|t| t.write(b"page text"))
        };
        assert_eq!(save("page.txt", false).unwrap(), out.join("page.txt"));
        assert_eq!(std::fs::read(out.join("page.txt")).unwrap(), b"page text");
        assert!(!project.join("page.txt").exists());
        // The path an answer gave names the same file.
        let e = save("claudezilla-output/page.txt", false).unwrap_err();
        assert!(e.message.contains("exists"), "{e}");
        assert_eq!(
            save(&s(&out.join("page.txt")), true).unwrap(),
            out.join("page.txt")
        );
        let deep = save(&s(&project.join("sub/a.log")), false).unwrap();
        assert_eq!(deep, out.join("sub/a.log"), "made beneath it");
        for (path, code) in [
            ("tests/test_notes.txt", ErrorCode::NotAllowed),
            ("requirements/base.txt", ErrorCode::NotAllowed),
            ("dev-requirements.txt", ErrorCode::NotAllowed),
            ("../x.txt", ErrorCode::NotAllowed),
            ("CLAUDE.md", ErrorCode::InvalidArgument),
        ] {
            assert_eq!(save(path, true).unwrap_err().code, code, "{path}");
        }
        assert!(!out.join("tests/test_notes.txt").exists());
        assert_eq!(std::fs::read_dir(project.join("tests")).unwrap().count(), 0);
        // A link in place of the folder does not lead out.
        let (tmp2, project2, allowed2) = setup();
        symlink(tmp2.path(), project2.join("claudezilla-output")).unwrap();
        let e = allowed2
            .prepare_save("page.txt", false, Written::Output)
            .unwrap_err();
        assert_eq!(e.code, ErrorCode::NotAllowed, "{e}");
        assert!(!tmp2.path().join("page.txt").exists());
    }

    #[test]
    fn downloads_land_only_under_the_downloads_folder() {
        let (tmp, project, allowed) = setup();
        let report = tmp.path().join("build.rs");
        std::fs::write(&report, "fn main() {}").unwrap();
        // The project's root, its sources, hidden folders, anything outside: refused.
        for save_to in [".git/hooks", "..", "../src", "/tmp", ".cargo"] {
            let e = allowed.downloads_folder(Some(save_to)).unwrap_err();
            assert_eq!(e.code, ErrorCode::NotAllowed, "{save_to}: {e}");
        }
        // "." and "src" are beneath the downloads folder, not the project's own.
        for save_to in [".", "src"] {
            let to = allowed.downloads_folder(Some(save_to)).unwrap();
            let placed = allowed.take_download(&to, &report, 12).unwrap().path;
            assert!(placed.starts_with(project.join("downloads")), "{placed:?}");
        }
        assert!(!project.join("build.rs").exists() && !project.join("src").exists());
        // A link in place of the downloads folder does not lead out.
        let (tmp2, project2, allowed2) = setup();
        symlink(tmp2.path(), project2.join("downloads")).unwrap();
        let to = allowed2.downloads_folder(None).unwrap();
        let e = allowed2.take_download(&to, &report, 12).unwrap_err();
        assert_eq!(e.code, ErrorCode::NotAllowed, "{e}");
        assert!(!tmp2.path().join("build.rs").exists());
        // The user's own folder, made where they said.
        let named = tmp.path().join("theirs/dl");
        let allowed3 = Allowed::new([project.clone()]).with_downloads(Some(named.clone()));
        let to = allowed3.downloads_folder(Some("x")).unwrap();
        let placed = allowed3.take_download(&to, &report, 12).unwrap().path;
        assert_eq!(
            placed,
            named.join("x/build.rs.download"),
            "kept inert there too"
        );
    }

    #[test]
    fn only_the_file_the_browser_reported_is_taken() {
        let (tmp, project, allowed) = setup();
        let secret = tmp.path().join("secret");
        let link = tmp.path().join("report.bin");
        symlink(&secret, &link).unwrap();
        let to = allowed.downloads_folder(None).unwrap();
        let e = allowed.take_download(&to, &link, 7).unwrap_err();
        assert_eq!(
            e.code,
            ErrorCode::InvalidArgument,
            "a symlink is not followed"
        );
        let e = allowed.take_download(&to, &secret, 99).unwrap_err();
        assert!(e.message.contains("not the file"), "{e}");
        let e = allowed
            .take_download(&to, Path::new("secret"), 7)
            .unwrap_err();
        assert!(e.message.contains("absolute"), "{e}");
        assert!(!project.join("downloads").join("secret").exists());
    }

    #[test]
    fn hidden_files_are_not_read_nor_written() {
        let (_tmp, project, allowed) = setup();
        std::fs::write(project.join(".env"), "API_KEY=1").unwrap();
        std::fs::create_dir(project.join(".claude")).unwrap();
        std::fs::write(project.join(".claude/settings.json"), "{}").unwrap();
        for path in [".env", "sub/../.env", ".claude/settings.json"] {
            let e = allowed.read(path).unwrap_err();
            assert_eq!(e.code, ErrorCode::NotAllowed, "{path}: {e}");
        }
        for (path, kind) in [
            (".claude/settings.json", Written::State),
            (".gitignore", Written::State),
            ("shot.png.sh", Written::Screenshot),
        ] {
            assert!(allowed.prepare_save(path, true, kind).is_err(), "{path}");
        }
        assert_eq!(
            std::fs::read_to_string(project.join(".claude/settings.json")).unwrap(),
            "{}"
        );
    }

    #[test]
    fn an_upload_inside_reads_the_file() {
        let (_tmp, project, allowed) = setup();
        let file = upload(&allowed, &s(&project.join("notes.txt"))).unwrap();
        assert_eq!(
            (file.name.as_str(), file.mime.as_str(), file.base64.as_str()),
            ("notes.txt", "text/plain", "aGVsbG8=")
        );
        let relative = upload(&allowed, "sub/../notes.txt").unwrap();
        assert_eq!(relative.base64, "aGVsbG8=");
    }

    #[test]
    fn the_secrets_file_and_its_values_are_never_uploaded() {
        let (_tmp, project, allowed) = setup();
        let file = project.join("agent.secrets");
        std::fs::write(&file, "PASSWORD=pw-7c1e-correct-horse @example.com\n").unwrap();
        let secrets = Secrets::load(&file).unwrap();
        symlink("agent.secrets", project.join("alias.txt")).unwrap();
        std::fs::hard_link(&file, project.join("copy.txt")).unwrap();
        for path in [
            "agent.secrets",
            "alias.txt",
            "copy.txt",
            "sub/../agent.secrets",
        ] {
            let e = allowed.read_upload(path, &secrets).unwrap_err();
            assert_eq!(e.code, ErrorCode::NotAllowed, "{path}: {e}");
            assert!(e.message.contains("is the secrets file"), "{path}: {e}");
        }
        std::fs::write(project.join("notes.txt"), "token: pw-7c1e-correct-horse").unwrap();
        std::fs::write(project.join("form.txt"), "p=pw-7c1e-correct-horse&x=1").unwrap();
        for path in ["notes.txt", "form.txt"] {
            let e = allowed.read_upload(path, &secrets).unwrap_err();
            assert_eq!(e.code, ErrorCode::NotAllowed, "{path}: {e}");
            assert!(e.message.contains("the secret PASSWORD"), "{path}: {e}");
            assert!(!e.to_string().contains("pw-7c1e"), "never the value: {e}");
        }
        std::fs::write(project.join("clean.txt"), "nothing secret").unwrap();
        assert!(allowed.read_upload("clean.txt", &secrets).is_ok());
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
            let err = upload(&allowed, &path).unwrap_err();
            assert_eq!(err.code, ErrorCode::NotAllowed, "{path}: {err}");
            assert!(err.to_string().contains("--allow-dir"), "{err}");
        }
        let err = upload(&allowed, "/etc/passwd").unwrap_err();
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
            let err = upload(&allowed, &s(&project.join(link))).unwrap_err();
            assert_eq!(err.code, ErrorCode::NotAllowed, "{link}: {err}");
        }
        assert!(upload(&allowed, &s(&project.join("alias"))).is_ok());
    }

    #[test]
    fn fifos_and_folders_are_not_read() {
        let (_tmp, project, allowed) = setup();
        let fifo = project.join("pipe");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid path string.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let err = upload(&allowed, &s(&fifo)).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidArgument, "{err}");
        assert!(upload(&allowed, &s(&project.join("sub"))).is_err());
        assert!(upload(&allowed, &s(&project.join("missing"))).is_err());
    }

    #[test]
    fn large_files_are_refused() {
        let (_tmp, project, allowed) = setup();
        let big = project.join("big.bin");
        std::fs::write(&big, vec![0u8; MAX_UPLOAD_BYTES as usize + 1]).unwrap();
        assert_eq!(
            upload(&allowed, &s(&big)).unwrap_err().code,
            ErrorCode::TooLarge
        );
    }

    #[test]
    fn saving_writes_once_and_replaces_only_when_told() {
        let (_tmp, project, allowed) = setup();
        let path = s(&project.join("shot.jpg"));
        allowed
            .prepare_save(&path, false, Written::Screenshot)
            .unwrap()
            .write(&[1, 2, 3])
            .unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), [1, 2, 3]);
        let err = allowed
            .prepare_save(&path, false, Written::Screenshot)
            .unwrap_err();
        assert!(err.hint.unwrap().contains("overwrite"));
        allowed
            .prepare_save(&path, true, Written::Screenshot)
            .unwrap()
            .write(&[4])
            .unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), [4]);
        // Nothing left behind.
        let names: Vec<_> = std::fs::read_dir(&project).unwrap().collect();
        assert_eq!(names.len(), 3, "{names:?}");
        // Taken between the check and the write: not replaced.
        let late = s(&project.join("late.jpg"));
        let target = allowed
            .prepare_save(&late, false, Written::Screenshot)
            .unwrap();
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
            .prepare_save(&link, true, Written::Screenshot)
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
            let err = allowed
                .prepare_save(&path, true, Written::Screenshot)
                .unwrap_err();
            assert_eq!(err.code, ErrorCode::NotAllowed, "{path}: {err}");
        }
        assert!(
            allowed
                .prepare_save(&s(&project), true, Written::Screenshot)
                .is_err(),
            "a folder"
        );
        assert!(
            allowed
                .prepare_save(
                    &s(&project.join("no/such/x.jpg")),
                    false,
                    Written::Screenshot
                )
                .is_err()
        );
    }

    #[test]
    fn pseudo_filesystems_are_never_allowed_folders() {
        let allowed = Allowed::new([PathBuf::from("/proc/self"), PathBuf::from("/no/such")]);
        assert!(allowed.folders().is_empty());
        assert_eq!(
            upload(&allowed, "x").unwrap_err().code,
            ErrorCode::NotAllowed
        );
    }
}
