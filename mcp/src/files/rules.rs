//! What may be read and written where: one place decides for every file the MCP server touches.
//! A page can talk the agent into writing a file that something else will run or trust — a
//! `build.rs`, `.git/hooks/pre-commit`, `.claude/settings.json`, `.gitignore` — so:
//! * nothing is written to a hidden file or into a hidden folder, and nothing hidden is read
//!   (uploads, saved states): those hold what other tools run or trust, and secrets (`.env`);
//! * a screenshot is a picture file, a saved state a `.json` file, an answer a `.txt` or `.log`, a trace an `.html` with its
//!   data beside it (`firefox_trace` names it `NAME.trace.json`, never `package.json`); no
//!   answer goes into a text file tools act on (`requirements.txt`);
//! * downloads land only under the downloads folder (never in the project's own folders);
//! * nothing is replaced without `overwrite: true` (decided where the file is written).

use std::path::{Component, Path, PathBuf};

use claudezilla_protocol::{ErrorBody, ErrorCode};

/// What a written file is, which says what it may be named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Written {
    Screenshot,
    /// A saved storage state (`firefox_storage_state`).
    State,
    /// A tool's whole answer (`outputFile`): plain text, a name nothing runs or reads as
    /// instructions (not `.md`: `CLAUDE.md` steers the agent; not `.json`: `package.json`).
    Output,
    /// A trace's page for the user to open (`firefox_trace`), and its data beside it.
    TracePage,
    TraceData,
}

impl Written {
    fn extensions(self) -> &'static [&'static str] {
        match self {
            Self::Screenshot => &["png", "jpg", "jpeg"],
            Self::State => &["json"],
            Self::Output => &["txt", "log"],
            Self::TracePage => &["html"],
            Self::TraceData => &["json"],
        }
    }

    fn what(self) -> &'static str {
        match self {
            Self::Screenshot => "a screenshot",
            Self::State => "a saved state",
            Self::Output => "an output file",
            Self::TracePage => "a trace",
            Self::TraceData => "a trace's data",
        }
    }
}

/// The first hidden part of `rel` (`.git`, `.env`), if any.
fn hidden(rel: &Path) -> Option<String> {
    rel.components().find_map(|c| match c {
        Component::Normal(part) => {
            let part = part.to_string_lossy();
            part.starts_with('.').then(|| part.into_owned())
        }
        _ => None,
    })
}

fn hidden_refusal(shown: &str, part: &str, doing: &str) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::NotAllowed,
        format!(
            "{shown} is hidden ({part}): hidden files and folders hold what other tools run or trust and secrets (.git, .claude, .env, …), so agents never {doing} them"
        ),
    )
    .with_hint("use a path without a part that starts with a dot")
}

/// Refuses a file to read (`rel`, within its allowed folder) that is hidden or in a hidden
/// folder.
pub fn readable(rel: &Path, shown: &str) -> Result<(), ErrorBody> {
    match hidden(rel) {
        Some(part) => Err(hidden_refusal(shown, &part, "read")),
        None => Ok(()),
    }
}

/// Refuses a file to write (`rel`, within its allowed folder) that is hidden, in a hidden
/// folder, or not named as `kind` is.
pub fn writable(rel: &Path, shown: &str, kind: Written) -> Result<(), ErrorBody> {
    if let Some(part) = hidden(rel) {
        return Err(hidden_refusal(shown, &part, "write"));
    }
    if kind == Written::Output && trusted_text(rel) {
        return Err(ErrorBody::new(
            ErrorCode::NotAllowed,
            format!(
                "{shown} is a file build tools read and act on, so an answer is never written there"
            ),
        )
        .with_hint("name the output file after what it holds, e.g. page.txt"));
    }
    let ext = rel
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    if kind.extensions().contains(&ext.as_str()) {
        return Ok(());
    }
    let allowed = kind
        .extensions()
        .iter()
        .map(|e| format!(".{e}"))
        .collect::<Vec<_>>()
        .join(", ");
    Err(ErrorBody::new(
        ErrorCode::InvalidArgument,
        format!(
            "{shown} cannot be {}: its name must end in {allowed}",
            kind.what()
        ),
    )
    .with_hint(format!("name the file with {allowed}")))
}

/// Text files tools act on (`pip install -r requirements.txt`, CMake): a page's text never
/// goes there.
fn trusted_text(rel: &Path) -> bool {
    let name = rel
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    name == "cmakelists.txt"
        || name.starts_with("requirements")
        || name.starts_with("constraints")
        || name == "robots.txt"
}

/// `saveTo` as a folder beneath the downloads folder: relative, with no hidden part and
/// nothing that leads out (`..`).
pub fn download_subfolder(save_to: &str) -> Result<PathBuf, ErrorBody> {
    let path = Path::new(save_to);
    let out = || {
        ErrorBody::new(
            ErrorCode::NotAllowed,
            format!(
                "{save_to} is not beneath the downloads folder: downloads land only there, so a page cannot drop a file where tools would run it"
            ),
        )
        .with_hint("give saveTo as a folder inside the downloads folder (e.g. \"reports\"), or leave it out; the user names the downloads folder with --downloads-dir")
    };
    let mut rel = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::Normal(p) => rel.push(p),
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => return Err(out()),
        }
    }
    match hidden(&rel) {
        Some(part) => Err(hidden_refusal(save_to, &part, "write")),
        None => Ok(rel),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_places_are_never_read_or_written() {
        for path in [
            ".gitignore",
            ".claude/settings.json",
            ".git/hooks/pre-commit",
            "sub/.cargo/config.json",
            ".env",
            "a/.vscode/x.png",
        ] {
            let rel = Path::new(path);
            for kind in [
                Written::Screenshot,
                Written::State,
                Written::Output,
                Written::TracePage,
                Written::TraceData,
            ] {
                let e = writable(rel, path, kind).unwrap_err();
                assert_eq!(e.code, ErrorCode::NotAllowed, "{path}");
            }
            assert_eq!(readable(rel, path).unwrap_err().code, ErrorCode::NotAllowed);
        }
        assert!(readable(Path::new("docs/notes.txt"), "docs/notes.txt").is_ok());
    }

    #[test]
    fn each_kind_of_file_has_its_own_names() {
        let ok = |p: &str, k| writable(Path::new(p), p, k).is_ok();
        assert!(ok("shot.jpg", Written::Screenshot) && ok("out/s.PNG", Written::Screenshot));
        assert!(ok("state.json", Written::State) && ok("auth/login.JSON", Written::State));
        assert!(ok("page.txt", Written::Output) && ok("out/console.LOG", Written::Output));
        assert!(ok("run.html", Written::TracePage) && ok("run.trace.json", Written::TraceData));
        for trusted in [
            "requirements.txt",
            "dev/requirements-dev.txt",
            "constraints.txt",
            "CMakeLists.txt",
        ] {
            let e = writable(Path::new(trusted), trusted, Written::Output).unwrap_err();
            assert_eq!(e.code, ErrorCode::NotAllowed, "{trusted}");
        }
        for (p, k) in [
            ("build.rs", Written::Screenshot),
            ("Makefile", Written::State),
            ("state.json.sh", Written::State),
            ("shot.jpg", Written::State),
            ("settings.json", Written::Screenshot),
            ("CLAUDE.md", Written::Output),
            ("package.json", Written::Output),
            ("build.rs", Written::Output),
            ("run.htm", Written::TracePage),
            ("run.sh", Written::TraceData),
        ] {
            let e = writable(Path::new(p), p, k).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidArgument, "{p}");
        }
    }

    #[test]
    fn downloads_stay_beneath_their_folder() {
        assert_eq!(
            download_subfolder("reports/2026").unwrap(),
            Path::new("reports/2026")
        );
        assert_eq!(download_subfolder(".").unwrap(), Path::new(""));
        assert_eq!(download_subfolder("./a/./b").unwrap(), Path::new("a/b"));
        for out in ["..", "../src", "a/../../x", "/etc", "/tmp/x"] {
            let e = download_subfolder(out).unwrap_err();
            assert_eq!(e.code, ErrorCode::NotAllowed, "{out}");
        }
        for hidden in [".git/hooks", "a/.cargo", ".claude"] {
            assert!(download_subfolder(hidden).is_err(), "{hidden}");
        }
    }
}
