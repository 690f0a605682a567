//! Installs what is missing: the wasm target, the npm tools and
//! Firefox ESR (via apt, as root). Each step checks first, so a ready machine costs ~nothing.

use crate::sh::{self, Result, cmd, exists, is_root, output, root};

pub fn all() -> Result {
    wasm_target()?;
    node_tools()?;
    firefox()
}

fn wasm_target() -> Result {
    let installed = output("rustup", &["target", "list", "--installed"]).unwrap_or_default();
    if installed
        .lines()
        .any(|t| t.trim() == "wasm32-unknown-unknown")
    {
        return Ok(());
    }
    sh::run(cmd("rustup", &["target", "add", "wasm32-unknown-unknown"]))
}

fn node_tools() -> Result {
    if !exists("npm") {
        apt_install(&["nodejs", "npm"], "Node.js and npm (for web-ext)")?;
    }
    let stamp = root().join("node_modules/.package-lock.json");
    let lock = root().join("package-lock.json");
    let fresh = match (std::fs::metadata(&stamp), std::fs::metadata(&lock)) {
        (Ok(s), Ok(l)) => s.modified().ok() >= l.modified().ok(),
        _ => false,
    };
    if fresh {
        return Ok(());
    }
    let mut npm = cmd("npm", &["ci", "--no-audit", "--no-fund"]);
    npm.env("NO_UPDATE_NOTIFIER", "1");
    sh::run(npm)
}

/// The Claude Code CLI the plugin test drives, pinned (a version measured with this project).
const CLAUDE_CODE: &str = "@anthropic-ai/claude-code@2.1.332";

/// Where the test's Claude Code CLI lives (apart from the project's own npm tools: it is
/// large, and only the tests need it).
pub fn claude_cli() -> std::path::PathBuf {
    root().join("target/claude-code/node_modules/.bin/claude")
}

/// Installs the pinned Claude Code CLI for the plugin test, once.
pub fn claude_code() -> Result {
    let folder = root().join("target/claude-code");
    let version = output(&claude_cli().to_string_lossy(), &["--version"]).unwrap_or_default();
    let want = CLAUDE_CODE.rsplit('@').next().unwrap_or_default();
    if version.split_whitespace().next() == Some(want) {
        return Ok(());
    }
    std::fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let prefix = folder.to_string_lossy();
    let mut npm = cmd(
        "npm",
        &[
            "install",
            "--prefix",
            &prefix,
            "--no-audit",
            "--no-fund",
            "--no-save",
            CLAUDE_CODE,
        ],
    );
    npm.env("NO_UPDATE_NOTIFIER", "1");
    sh::run(npm)
}

/// Where the end-to-end tests' third-party widgets are installed (pinned in
/// `e2e/widgets/package.json`) and bundled: an ignored folder the tests serve locally.
pub fn widgets_dir() -> std::path::PathBuf {
    root().join("target/widgets")
}

/// Installs the widgets the end-to-end tests drive (CodeMirror, Monaco, Quill, …) from npm at
/// their pinned versions, and bundles the ones published as modules (`e2e/widgets/src/*.js`)
/// into `dist/`, once per change of the lock file or the sources.
pub fn widgets() -> Result {
    let source = root().join("e2e/widgets");
    let folder = widgets_dir();
    let copy = |name: &str| {
        std::fs::copy(source.join(name), folder.join(name))
            .map(drop)
            .map_err(|e| format!("{name}: {e}"))
    };
    std::fs::create_dir_all(folder.join("dist"))
        .map_err(|e| format!("{}: {e}", folder.display()))?;
    let stamp = folder.join("node_modules/.package-lock.json");
    if !newer(&stamp, &[source.join("package-lock.json")]) {
        copy("package.json")?;
        copy("package-lock.json")?;
        let prefix = folder.to_string_lossy();
        let mut npm = cmd(
            "npm",
            &["ci", "--prefix", &prefix, "--no-audit", "--no-fund"],
        );
        npm.env("NO_UPDATE_NOTIFIER", "1");
        sh::run(npm)?;
    }
    let esbuild = folder.join("node_modules/.bin/esbuild");
    let sources =
        std::fs::read_dir(source.join("src")).map_err(|e| format!("e2e/widgets/src: {e}"))?;
    for entry in sources.flatten() {
        let from = entry.path();
        let bundled = folder.join("dist").join(entry.file_name());
        if newer(&bundled, &[from.clone(), stamp.clone()]) {
            continue;
        }
        let mut bundle = cmd(
            &esbuild.to_string_lossy(),
            &[
                &from.to_string_lossy(),
                "--bundle",
                "--format=iife",
                "--minify",
                "--log-level=warning",
                &format!("--outfile={}", bundled.display()),
            ],
        );
        // The sources import what `npm ci` put in the widgets folder.
        bundle.env("NODE_PATH", folder.join("node_modules"));
        sh::run(bundle)?;
    }
    Ok(())
}

/// Is `made` newer than every one of `from` (false when it does not exist)?
fn newer(made: &std::path::Path, from: &[std::path::PathBuf]) -> bool {
    let Ok(made) = std::fs::metadata(made).and_then(|m| m.modified()) else {
        return false;
    };
    from.iter().all(|f| {
        std::fs::metadata(f)
            .and_then(|m| m.modified())
            .is_ok_and(|t| t <= made)
    })
}

/// Where macOS keeps Firefox (ESR installs as Firefox.app too), in the order tried.
const MAC_APPS: [&str; 3] = [
    "Firefox.app",
    "Firefox Developer Edition.app",
    "Firefox Nightly.app",
];

/// The Firefox to run: $FIREFOX, else firefox-esr or firefox on PATH, else (macOS) the app in
/// /Applications or ~/Applications, (Windows) in Program Files.
pub fn firefox_binary() -> Option<String> {
    if let Some(f) = std::env::var("FIREFOX").ok().filter(|f| !f.is_empty()) {
        return Some(f);
    }
    let on_path = ["firefox-esr", "firefox"]
        .into_iter()
        .find(|b| exists(b))
        .map(str::to_owned);
    if on_path.is_some() {
        return on_path;
    }
    if cfg!(windows) {
        let programs = std::env::var("ProgramFiles").unwrap_or_default();
        let exe = std::path::Path::new(&programs).join(r"Mozilla Firefox\firefox.exe");
        return exe.is_file().then(|| exe.display().to_string());
    }
    if !cfg!(target_os = "macos") {
        return None;
    }
    let home = std::env::var("HOME").unwrap_or_default();
    mac_candidates(&home)
        .into_iter()
        .find(|p| std::path::Path::new(p).is_file())
}

/// The app bundles' binaries, system-wide first.
fn mac_candidates(home: &str) -> Vec<String> {
    ["/Applications".to_owned(), format!("{home}/Applications")]
        .iter()
        .flat_map(|dir| {
            MAC_APPS
                .iter()
                .map(move |app| format!("{dir}/{app}/Contents/MacOS/firefox"))
        })
        .collect()
}

fn firefox() -> Result {
    if firefox_binary().is_some() {
        return Ok(());
    }
    if cfg!(windows) {
        return Err(
            "Firefox is missing: install it from https://www.mozilla.org/firefox/, or set FIREFOX to its firefox.exe"
                .into(),
        );
    }
    if cfg!(target_os = "macos") {
        return Err(
            "Firefox is missing: install it from https://www.mozilla.org/firefox/ (or `brew install --cask firefox`) into /Applications, or set FIREFOX to its binary"
                .into(),
        );
    }
    apt_install(&["firefox-esr"], "Firefox ESR")
}

/// Installs a target for the cross-checks in `cargo xtask test`; false (with a word why) when
/// rustup cannot.
pub fn cross_target(target: &str) -> bool {
    let installed = output("rustup", &["target", "list", "--installed"]).unwrap_or_default();
    if installed.lines().any(|t| t.trim() == target) {
        return true;
    }
    let added = cmd("rustup", &["target", "add", target])
        .status()
        .is_ok_and(|s| s.success());
    if !added {
        eprintln!("rustup could not install {target}: that build is not checked");
    }
    added
}

/// The desktops checked beside this one (no linker for them here: checked, not linked).
pub const CROSS_TARGETS: [&str; 2] = ["x86_64-apple-darwin", "x86_64-pc-windows-gnu"];

/// The crates that run on the user's desktop (not in the browser), as cargo's `-p` arguments.
pub fn desktop_packages() -> Vec<&'static str> {
    [
        "claudezilla-protocol",
        "claudezilla-host",
        "claudezilla-mcp",
    ]
    .into_iter()
    .flat_map(|p| ["-p", p])
    .collect()
}

pub fn apt_install(packages: &[&str], what: &str) -> Result {
    if !is_root() || !exists("apt-get") {
        return Err(format!(
            "{what} is missing: install it (Debian/Ubuntu: `sudo apt-get install {}`) and run this again",
            packages.join(" ")
        ));
    }
    // Once a run: Firefox and then Wine may each be missing on a fresh machine.
    static UPDATED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if !UPDATED.load(std::sync::atomic::Ordering::Relaxed) {
        let mut update = cmd("apt-get", &["update", "-q"]);
        update.env("DEBIAN_FRONTEND", "noninteractive");
        sh::run(update)?;
        UPDATED.store(true, std::sync::atomic::Ordering::Relaxed);
    }
    let mut args = vec!["install", "-y", "-q", "--no-install-recommends"];
    args.extend(packages);
    let mut install = cmd("apt-get", &args);
    install.env("DEBIAN_FRONTEND", "noninteractive");
    sh::run(install)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mac_firefox_is_looked_for_in_both_application_folders() {
        let found = mac_candidates("/Users/ann");
        assert_eq!(found[0], "/Applications/Firefox.app/Contents/MacOS/firefox");
        assert!(found.contains(
            &"/Users/ann/Applications/Firefox Nightly.app/Contents/MacOS/firefox".to_owned()
        ));
        assert_eq!(found.len(), 6);
    }
}
