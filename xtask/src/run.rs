//! The README's commands: `run` (start everything for Claude Code) and `test` (every check).

use std::time::{Duration, Instant};

use crate::sh::{self, Result, cmd};
use crate::{build, install, setup, wine};

/// Starts Firefox with the extension through `web-ext run` and waits until the extension has
/// connected, then prints how to connect Claude Code. Runs until Firefox or web-ext stops.
pub fn run() -> Result {
    setup::all()?;
    build::all()?;
    let host = install::built("claudezilla-host");
    install::install()?;

    let mut web_ext = cmd("npx", &["--no-install", "web-ext", "run"]);
    web_ext.env("NO_UPDATE_NOTIFIER", "1");
    if let Some(firefox) = setup::firefox_binary() {
        web_ext.env("FIREFOX", firefox);
    }
    eprintln!("$ npx web-ext run   (Firefox with the extension; Ctrl-C stops it)");
    let mut child = web_ext
        .spawn()
        .map_err(|e| format!("cannot start web-ext: {e}"))?;

    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            return Err(format!(
                "web-ext exited before the extension connected ({status})"
            ));
        }
        if sh::output(&host.to_string_lossy(), &["status"]).is_some() {
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let report = cmd(&host.to_string_lossy(), &["status"])
                .output()
                .map(|o| o.stdout)
                .unwrap_or_default();
            return Err(format!(
                "the extension did not connect within 90 s:\n{}",
                String::from_utf8_lossy(&report)
            ));
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    println!(
        "\nClaudezilla is running: Firefox is up and the extension is connected.\n{}\n\
         Check it any time with `claudezilla-host status`. Stop with Ctrl-C.",
        install::connect_help()
    );
    let status = child.wait().map_err(|e| e.to_string())?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("web-ext exited ({status})"))
    }
}

/// Formatting, lints (Rust native and wasm, web-ext) and every test, release build; then the
/// Windows build's tests under Wine (`wine.rs`).
pub fn test(filter: &[String]) -> Result {
    sh::run(cmd("cargo", &["fmt", "--all", "--check"]))?;
    // The native crates are linted as they are built (`build::linted`): the workspace's by
    // `build::for_tests`, xtask's by its tests below (its test build holds all its code; an
    // item only its tests use is not flagged as dead there).
    // Both modules and the content glue's tests in Firefox (`glue-tests`) in one check.
    let wasm_clippy = [
        &["clippy"][..],
        &build::WASM_BUILD,
        &["--features", "glue-tests", "--", "-D", "warnings"],
    ]
    .concat();
    sh::run(cmd("cargo", &wasm_clippy))?;
    // A filter names native tests: the Windows ones run with the whole suite only.
    let wine = filter.is_empty().then(wine::usable).flatten();
    // The binaries (and their unit tests), built for macOS and Windows as far as checking
    // goes, and xtask for Windows (its `cfg(windows)` items; the native test build has its
    // unix ones). The Windows build Wine runs is linted as it is built.
    for target in setup::CROSS_TARGETS {
        if !setup::cross_target(target) {
            continue;
        }
        let mut packages = match target == wine::TARGET && wine.is_some() {
            true => Vec::new(),
            false => setup::desktop_packages(),
        };
        if target == wine::TARGET {
            packages.extend(["-p", "xtask"]);
        }
        let clippy = [
            &["clippy", "--target", target][..],
            &packages,
            &["--all-targets", "--", "-D", "warnings"],
        ]
        .concat();
        sh::run(cmd("cargo", &clippy))?;
    }
    // axe-core goes in as npm ships it (minified; its template engine builds functions from
    // strings, which the linter warns of): our own files are linted, the vendored one is not.
    let axe = format!("wasm/{}", build::AXE);
    let lint_args = [
        "--no-install",
        "web-ext",
        "lint",
        "--ignore-files",
        "content-shim.js",
        &axe,
    ];
    let mut lint = cmd("npx", &lint_args);
    lint.env("NO_UPDATE_NOTIFIER", "1");
    sh::run(lint)?;
    // Every suite runs even after one fails, so the last line counts them all.
    let filtered = |args: &[&str]| {
        let mut args = args.to_vec();
        if !filter.is_empty() {
            args.push("--");
            args.extend(filter.iter().map(String::as_str));
        }
        cmd("cargo", &args)
    };
    let release = [
        &["test", "--release"][..],
        &build::RELEASE_PACKAGES,
        &["--no-fail-fast"],
    ]
    .concat();
    let mut tally = sh::Tally::default();
    let mut tests = build::linted(filtered(&release));
    tests.env("CLAUDE_CLI", setup::claude_cli());
    let native = sh::run_tests(tests, &mut tally);
    // xtask's own, in the profile `cargo xtask` built its dependencies in.
    let xtask = sh::run_tests(
        build::linted(filtered(&["test", "-p", "xtask"])),
        &mut tally,
    );
    let native = native.and(xtask);
    let windows = match wine {
        Some(wine) => wine::test(&wine, &mut tally),
        None => Ok(()),
    };
    let result = native.and(windows);
    if !tally.failures.is_empty() {
        println!(
            "\nWhat the failing tests said, again:\n{}",
            tally.failures.join("\n")
        );
    }
    // The last line, which CI reads: every suite summed.
    let line = format!("{} passed, {} failed", tally.passed, tally.failed);
    match result {
        Ok(()) => {
            println!("{line}");
            Ok(())
        }
        Err(e) => Err(format!("{e}\n{line}")),
    }
}

/// The end-to-end benchmark (real Firefox); figures go to stdout for the README.
pub fn bench(args: &[String]) -> Result {
    let mut all = vec!["bench", "-p", "claudezilla-e2e"];
    if !args.is_empty() {
        all.push("--");
        all.extend(args.iter().map(String::as_str));
    }
    sh::run(cmd("cargo", &all))
}
