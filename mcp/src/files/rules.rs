//! What may be read and written where: one place decides for every file the MCP server touches.
//! A page can talk the agent into writing a file that something else will run or trust — a
//! `build.rs`, `.git/hooks/pre-commit`, `.claude/settings.json`, `tests/test_notes.txt` — so:
//! * nothing is written to a hidden file or into a hidden folder, and nothing hidden is read
//!   (uploads, saved states): those hold what other tools run or trust, and secrets (`.env`);
//! * nothing is written under a name that runners, package managers or agents pick up by
//!   themselves ([`collected_by`]: `conftest.py`, `x.test.js`, `requirements.txt`,
//!   `CLAUDE.md`, …); a download with such a name is kept inert as `NAME.download`;
//! * a screenshot is a picture file, a saved state a `.json` file, an answer a `.txt` or `.log`
//!   (a network log also a `.har`, which only network panels import) in the output folder ([`OUTPUT_FOLDER`]), a trace an `.html` with its data beside it
//!   (`firefox_trace` names it `NAME.trace.json`), its test a `.ts` no runner collects;
//! * downloads land only under the downloads folder (never in the project's own folders);
//! * nothing is replaced without `overwrite: true` (decided where the file is written).

use std::path::{Component, Path, PathBuf};
use std::sync::LazyLock;

use claudezilla_protocol::{ErrorBody, ErrorCode};
use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

/// The folder, in an allowed folder, that answers written to files (`outputFile`) go into:
/// bulky page text kept apart from the project's own files.
pub const OUTPUT_FOLDER: &str = "claudezilla-output";

/// What a download named as a tool would pick it up is kept as, until the user renames it: no
/// runner collects a `.download` file.
pub const INERT_SUFFIX: &str = ".download";

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
    /// A trace's pictures as one animated PNG.
    TraceMovie,
    /// A trace's actions as a Playwright test (`.ts`), under a name no runner collects: the
    /// user runs it by naming it `*.spec.ts`, after reading it.
    TraceTest,
}

impl Written {
    fn extensions(self) -> &'static [&'static str] {
        match self {
            Self::Screenshot => &["png", "jpg", "jpeg"],
            Self::State => &["json"],
            Self::Output => &["txt", "log", "har"],
            Self::TracePage => &["html"],
            Self::TraceData => &["json"],
            Self::TraceMovie => &["png"],
            Self::TraceTest => &["ts"],
        }
    }

    fn what(self) -> &'static str {
        match self {
            Self::Screenshot => "a screenshot",
            Self::State => "a saved state",
            Self::Output => "an output file",
            Self::TracePage => "a trace",
            Self::TraceData => "a trace's data",
            Self::TraceMovie => "a trace's moving picture",
            Self::TraceTest => "a trace's test",
        }
    }

    /// The folder of its own this kind is written into, made when missing. Only answers: a
    /// screenshot, a saved state or a trace goes where the agent says (a state is loaded back
    /// from there; nothing collects pictures, `.json` states or `.html` traces by name).
    pub fn own_folder(self) -> Option<&'static str> {
        match self {
            Self::Output => Some(OUTPUT_FOLDER),
            Self::Screenshot
            | Self::State
            | Self::TracePage
            | Self::TraceData
            | Self::TraceMovie
            | Self::TraceTest => None,
        }
    }
}

/// Languages whose test runners pick files up by name (pytest, go test, RSpec and minitest,
/// jest, vitest, bun, deno, node --test, ExUnit, dart test, busted).
const CODE: &str = "{py,go,rb,js,jsx,ts,tsx,mjs,cjs,mts,cts,exs,dart,lua}";
/// Scripts node, deno, jest and vitest run.
const JS: &str = "{js,jsx,ts,tsx,mjs,cjs,mts,cts}";

/// Names that runners, package managers and agents pick up by themselves, at any depth, with
/// who does (`CODE` and `JS` stand for the lists above). Each pattern names its extensions, so
/// `NAME.download` matches none of them.
const COLLECTED: &[(&str, &str)] = &[
    ("conftest.py", "pytest"),
    ("test*.py", "pytest and unittest"),
    ("test*.txt", "pytest (as doctests)"),
    ("test_*.CODE", "test runners"),
    (
        "*_test.CODE",
        "test runners (go test, pytest, deno, bun, …)",
    ),
    ("*.test.CODE", "test runners (jest, vitest, bun, deno, …)"),
    ("*.spec.CODE", "test runners (jest, vitest, bun, …)"),
    ("*_spec.CODE", "test runners (RSpec, bun, busted, …)"),
    ("test.JS", "deno test and node --test"),
    ("test-*.JS", "node --test"),
    ("*-test.JS", "node --test"),
    ("test/**/*.JS", "node --test"),
    ("__tests__/**/*.JS", "jest and vitest"),
    ("*requirements*.{txt,in}", "pip (-r)"),
    ("requirements/*.{txt,in}", "pip (-r)"),
    ("*constraints*.txt", "pip (-c)"),
    ("package.json", "npm"),
    ("{makefile,gnumakefile}", "make"),
    ("justfile", "just"),
    ("build.rs", "cargo"),
    ("cmakelists.txt", "CMake"),
    ("robots.txt", "web crawlers"),
    ("{claude.md,claude.local.md}", "Claude Code"),
    ("agents.md", "coding agents"),
    (".envrc", "direnv"),
    ("*.{sh,bash,zsh}", "the shell"),
    ("*.{bat,cmd,ps1}", "Windows"),
    (".git/hooks/*", "git"),
];

/// [`COLLECTED`] as one set, case-insensitive: on macOS and Windows `Makefile` is `MAKEFILE`.
static COLLECTED_SET: LazyLock<GlobSet> = LazyLock::new(|| {
    let mut set = GlobSetBuilder::new();
    for (pattern, _) in COLLECTED {
        let pattern = format!("**/{}", pattern.replace("CODE", CODE).replace("JS", JS));
        let glob = GlobBuilder::new(&pattern)
            .case_insensitive(true)
            .literal_separator(true)
            .build()
            .expect("COLLECTED's patterns are valid globs");
        set.add(glob);
    }
    set.build().expect("COLLECTED's patterns build")
});

/// Who picks up `rel` (a path within a folder) by itself — a test runner, package manager,
/// build tool or agent — if anyone does.
pub fn collected_by(rel: &Path) -> Option<&'static str> {
    let first = COLLECTED_SET.matches(rel).into_iter().min()?;
    Some(COLLECTED[first].1)
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

/// Where a file of `kind` given as `rel` (within its allowed folder) goes: an answer beneath
/// the output folder (a path already in it stays; `..` is refused, it would lead out of it),
/// anything else where it was given.
pub fn placed(rel: PathBuf, shown: &str, kind: Written) -> Result<PathBuf, ErrorBody> {
    let Some(own) = kind.own_folder() else {
        return Ok(rel);
    };
    if rel.components().any(|c| c == Component::ParentDir) {
        return Err(ErrorBody::new(
            ErrorCode::NotAllowed,
            format!("{shown} leads out of {own}/, the folder answers are written in"),
        )
        .with_hint(format!("name a file in {own}/, e.g. page.txt")));
    }
    // On Windows names compare without case, as its file system does.
    let inside = rel.components().next().is_some_and(|first| {
        let first = first.as_os_str();
        first == own || (cfg!(windows) && first.eq_ignore_ascii_case(own))
    });
    Ok(if inside {
        rel
    } else {
        Path::new(own).join(rel)
    })
}

/// Refuses a file to write (`rel`, within its allowed folder) that is hidden, in a hidden
/// folder, not named as `kind` is, or named as a tool would pick it up.
pub fn writable(rel: &Path, shown: &str, kind: Written) -> Result<(), ErrorBody> {
    if let Some(part) = hidden(rel) {
        return Err(hidden_refusal(shown, &part, "write"));
    }
    let ext = rel
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    if !kind.extensions().contains(&ext.as_str()) {
        let allowed = kind
            .extensions()
            .iter()
            .map(|e| format!(".{e}"))
            .collect::<Vec<_>>()
            .join(", ");
        return Err(ErrorBody::new(
            ErrorCode::InvalidArgument,
            format!(
                "{shown} cannot be {}: its name must end in {allowed}",
                kind.what()
            ),
        )
        .with_hint(format!("name the file with {allowed}")));
    }
    match collected_by(rel) {
        Some(tool) => Err(ErrorBody::new(
            ErrorCode::NotAllowed,
            format!(
                "{shown} is named as {tool} picks files up by itself, so a page's text is never written there"
            ),
        )
        .with_hint("name the file after what it holds, e.g. page.txt")),
        None => Ok(()),
    }
}

/// A download's name in `sub` (beneath the downloads folder): as it came, or — when a tool
/// would pick it up there — with [`INERT_SUFFIX`], and which tool that was.
pub fn inert(sub: &Path, name: String) -> (String, Option<&'static str>) {
    match collected_by(&sub.join(&name)) {
        Some(tool) => (format!("{name}{INERT_SUFFIX}"), Some(tool)),
        None => (name, None),
    }
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

    /// One path for each entry of [`COLLECTED`], and who it names.
    const EXAMPLES: &[(&str, &str)] = &[
        ("conftest.py", "pytest"),
        ("tests/test_x.py", "unittest"),
        ("test_notes.txt", "doctests"),
        ("spec/test_login.rb", "test runners"),
        ("x_test.go", "go test"),
        ("src/x.test.js", "jest"),
        ("app.spec.tsx", "vitest"),
        ("user_spec.rb", "RSpec"),
        ("test.mjs", "deno"),
        ("test-parse.cjs", "node --test"),
        ("parse-test.js", "node --test"),
        ("test/unit/parse.js", "node --test"),
        ("__tests__/x.ts", "jest"),
        ("dev-requirements.txt", "pip"),
        ("requirements/base.txt", "pip"),
        ("constraints.txt", "pip"),
        ("web/package.json", "npm"),
        ("Makefile", "make"),
        ("justfile", "just"),
        ("build.rs", "cargo"),
        ("CMakeLists.txt", "CMake"),
        ("robots.txt", "crawlers"),
        ("CLAUDE.md", "Claude Code"),
        ("AGENTS.md", "agents"),
        (".envrc", "direnv"),
        ("run.sh", "shell"),
        ("setup.ps1", "Windows"),
        (".git/hooks/pre-commit", "git"),
    ];

    #[test]
    fn the_runner_list_says_who_picks_each_name_up() {
        let mut hit = vec![false; COLLECTED.len()];
        for (path, who) in EXAMPLES {
            let tool = collected_by(Path::new(path)).unwrap_or_else(|| panic!("{path}"));
            assert!(tool.contains(who), "{path}: {tool}");
            for n in COLLECTED_SET.matches(path) {
                hit[n] = true;
            }
        }
        let untried: Vec<_> = COLLECTED.iter().zip(hit).filter(|(_, hit)| !hit).collect();
        assert!(untried.is_empty(), "no example for {untried:?}");
        for (path, who) in [
            ("x_test.py", "test runners"),
            ("TEST_NOTES.TXT", "doctests"),
            ("GNUmakefile", "make"),
            ("a/b/requirements-dev.in", "pip"),
            ("CLAUDE.local.md", "Claude Code"),
            ("sub/.git/hooks/post-checkout", "git"),
        ] {
            assert!(
                collected_by(Path::new(path)).is_some_and(|t| t.contains(who)),
                "{path}"
            );
        }
    }

    #[test]
    fn near_misses_are_no_ones() {
        for path in [
            "contest.py",
            "notes.txt",
            "latest.py",
            "protest.txt",
            "test_login.png",
            "shots/x.test.jpg",
            "state.json",
            "run.html",
            "run.trace.json",
            "page.log",
            "test/notes.txt",
            "requirements.md",
            "claude.txt",
            "README.md",
            "makefile.txt",
            "hooks/pre-commit",
        ] {
            assert_eq!(collected_by(Path::new(path)), None, "{path}");
        }
    }

    #[test]
    fn the_inert_suffix_is_picked_up_by_no_one() {
        for (path, _) in EXAMPLES
            .iter()
            .filter(|(p, _)| hidden(Path::new(p)).is_none())
        {
            let inert = format!("{path}{INERT_SUFFIX}");
            assert_eq!(collected_by(Path::new(&inert)), None, "{inert}");
        }
        let sub = Path::new("reports");
        assert_eq!(
            inert(sub, "conftest.py".into()),
            ("conftest.py.download".into(), Some("pytest"))
        );
        assert_eq!(inert(sub, "report.csv".into()), ("report.csv".into(), None));
        let (name, tool) = inert(Path::new("__tests__"), "x.js".into());
        assert_eq!(
            (name.as_str(), tool),
            ("x.js.download", Some("jest and vitest"))
        );
    }

    #[test]
    fn answers_go_into_their_own_folder() {
        let place = |p: &str, k| placed(PathBuf::from(p), p, k);
        let out = Path::new(OUTPUT_FOLDER);
        assert_eq!(
            place("page.txt", Written::Output).unwrap(),
            out.join("page.txt")
        );
        assert_eq!(
            place("tests/x.txt", Written::Output).unwrap(),
            out.join("tests/x.txt")
        );
        let again = format!("{OUTPUT_FOLDER}/page.txt");
        assert_eq!(
            place(&again, Written::Output).unwrap(),
            out.join("page.txt")
        );
        for out in ["../x.txt", "a/../../x.txt"] {
            assert_eq!(
                place(out, Written::Output).unwrap_err().code,
                ErrorCode::NotAllowed
            );
        }
        assert_eq!(
            place("shot.png", Written::Screenshot).unwrap(),
            Path::new("shot.png")
        );
        assert_eq!(
            place("run.html", Written::TracePage).unwrap(),
            Path::new("run.html")
        );
        for named in [
            "claudezilla-output/tests/test_notes.txt",
            "claudezilla-output/requirements/base.txt",
        ] {
            let e = writable(Path::new(named), named, Written::Output).unwrap_err();
            assert_eq!(e.code, ErrorCode::NotAllowed, "{named}");
        }
        let e = writable(Path::new("package.json"), "package.json", Written::State).unwrap_err();
        assert!(e.message.contains("npm"), "{e}");
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
