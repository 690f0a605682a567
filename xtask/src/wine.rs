//! The Windows build's tests, run under Wine: the protocol, host and MCP server's unit tests
//! and the host's relay tests, then the Windows binaries together (`e2e/tests/windows.rs`),
//! cross-compiled with MinGW. Wine and MinGW come from apt (as root on Debian/Ubuntu);
//! elsewhere this says what is missing and the tests are not run.

use std::path::{Path, PathBuf};

use crate::setup;
use crate::sh::{self, Result, cmd, exists, root};

pub const TARGET: &str = "x86_64-pc-windows-gnu";
const MINGW: &str = "x86_64-w64-mingw32-gcc";

/// Wine's launcher when the Windows tests can run here (Linux, Wine and MinGW, installed if
/// missing, and the Windows target); `None` when they cannot (with a word why on Linux).
pub fn usable() -> Option<PathBuf> {
    if !cfg!(target_os = "linux") {
        return None;
    }
    let Some(wine) = wine() else {
        eprintln!(
            "Windows tests not run: Wine and MinGW are missing (Debian/Ubuntu: `sudo apt-get install wine64 gcc-mingw-w64-x86-64-win32`)"
        );
        return None;
    };
    setup::cross_target(TARGET).then_some(wine)
}

/// Runs the Windows tests under `wine` (from `usable`), adding to `tally`. Their build is also
/// the Windows lint of the desktop crates (`build::linted`).
pub fn test(wine: &Path, tally: &mut sh::Tally) -> Result {
    let bin = root().join("target").join(TARGET).join("debug");
    random_source_for_wine(&[&bin.join("deps"), &bin])?;
    let prefix = root().join("target/wine");
    // Built with the tests' feature set first, so the tests below build nothing again.
    let build = [
        &["build", "--target", TARGET][..],
        &setup::desktop_packages(),
        &["--bins", "--tests"],
    ]
    .concat();
    sh::run(crate::build::linted(cmd("cargo", &build)))?;
    let _server = Server::start(wine, &prefix);
    let args = [
        &["test", "--target", TARGET][..],
        &setup::desktop_packages(),
    ]
    .concat();
    let mut tests = crate::build::linted(cmd("cargo", &args));
    tests
        .env("CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER", wine)
        .env("WINEPREFIX", &prefix)
        .env("WINEDEBUG", "-all");
    sh::run_tests(tests, tally)?;

    let mut together = cmd(&windows_test_program()?.to_string_lossy(), &["--ignored"]);
    together
        .env("CLAUDEZILLA_WINE", wine)
        .env("CLAUDEZILLA_WINDOWS_BIN", &bin)
        .env("WINEPREFIX", &prefix);
    sh::run_tests(together, tally)
}

/// The Wine server of the run, kept up from the first test program to the last. Left to
/// itself it exits a few seconds after its last program, and a program that connects as it
/// goes fails before running a test ("wine client error:0: recvmsg: Connection reset by
/// peer", seen between two test programs of a full run).
struct Server {
    path: PathBuf,
    prefix: PathBuf,
}

impl Server {
    fn start(wine: &Path, prefix: &Path) -> Self {
        let server = Self {
            path: wine.with_file_name("wineserver"),
            prefix: prefix.to_owned(),
        };
        // Kept a minute after its last program (killed at the end; a run stopped before that
        // leaves it a minute, not for good). Should it not start, each program starts its own.
        match server.run("-p60") {
            Ok(status) if status.success() => {}
            other => eprintln!(
                "the Wine server did not start ({other:?}); each test program starts its own"
            ),
        }
        server
    }

    fn run(&self, flag: &str) -> std::io::Result<std::process::ExitStatus> {
        std::process::Command::new(&self.path)
            .arg(flag)
            .env("WINEPREFIX", &self.prefix)
            .status()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.run("-k");
    }
}

/// `e2e/tests/windows.rs` as the workspace's release tests built it. Asking cargo for it by
/// `--test windows` would compile it again: a target chosen alone is hashed apart.
fn windows_test_program() -> Result<PathBuf> {
    let args = [
        &["test", "--release"][..],
        &crate::build::RELEASE_PACKAGES,
        &["--no-run"],
    ]
    .concat();
    let built = crate::build::linted(cmd("cargo", &args))
        .output()
        .map_err(|e| format!("cannot start cargo: {e}"))?;
    // Cargo says where each test program is: `Executable tests/windows.rs (target/…)`.
    String::from_utf8_lossy(&built.stderr)
        .lines()
        .find_map(|line| {
            line.trim()
                .strip_prefix("Executable tests/windows.rs (")?
                .strip_suffix(')')
                .map(|path| root().join(path))
        })
        .ok_or_else(|| "cargo did not say where the tests/windows.rs program is".into())
}

/// Wine's launcher (Debian keeps `wine64` out of PATH), installing Wine and MinGW if needed.
fn wine() -> Option<PathBuf> {
    let found = || {
        let debian = Path::new("/usr/lib/wine/wine64");
        let launcher = match debian.is_file() {
            true => Some(debian.to_owned()),
            false => ["wine64", "wine"]
                .into_iter()
                .find(|w| exists(w))
                .map(PathBuf::from),
        };
        launcher.filter(|_| exists(MINGW))
    };
    found().or_else(|| {
        let packages = ["wine64", "gcc-mingw-w64-x86-64-win32"];
        setup::apt_install(&packages, "Wine and MinGW").ok()?;
        found()
    })
}

/// Wine 8 lacks `bcryptprimitives.dll`, which Rust's standard library loads for randomness;
/// a DLL beside the test programs and the binaries stands in (built from `xtask/wine/`).
fn random_source_for_wine(dirs: &[&Path]) -> Result {
    let src = root().join("xtask/wine");
    for dir in dirs {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let dll = dirs[0].join("bcryptprimitives.dll");
    sh::run(cmd(
        MINGW,
        &[
            "-shared",
            "-O2",
            "-o",
            &dll.to_string_lossy(),
            &src.join("bcryptprimitives.c").to_string_lossy(),
            &src.join("bcryptprimitives.def").to_string_lossy(),
            "-ladvapi32",
        ],
    ))?;
    for dir in &dirs[1..] {
        std::fs::copy(&dll, dir.join("bcryptprimitives.dll"))
            .map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    Ok(())
}
