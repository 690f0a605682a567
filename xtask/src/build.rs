//! Builds the native binaries (release) and the extension: its two wasm modules (background,
//! content script) through wasm-bindgen, then the content bundle (wasm glue + content shim),
//! and axe-core beside them.

use std::fs;
use std::process::Command;

use crate::sh::{self, Result, cmd, root};

pub const WASM_CRATE: &str = "claudezilla_extension_wasm";

pub fn all() -> Result {
    sh::run(cmd(
        "cargo",
        &[
            "build",
            "--release",
            "-p",
            "claudezilla-host",
            "-p",
            "claudezilla-mcp",
        ],
    ))?;
    extension()
}

/// The packages `cargo xtask test` builds and tests in release: the workspace but xtask, whose
/// own dependency (wasm-bindgen's library) is built once, unoptimised, to run it. Every release
/// command of the run names this same set, so all share one build (another set would resolve
/// other features, and build the dependencies again).
pub const RELEASE_PACKAGES: [&str; 3] = ["--workspace", "--exclude", "xtask"];

/// What `cargo xtask test` builds: the binaries together with the workspace's tests and
/// benchmark, so they share one feature set and a clean machine compiles the release
/// dependencies once, not twice (`-p` of the two binaries alone resolves features without the
/// tests' dev-dependencies). The build is also their lint (`linted`).
pub fn for_tests() -> Result {
    let args = [
        &["build", "--release"][..],
        &RELEASE_PACKAGES,
        &["--bins", "--tests", "--benches"],
    ]
    .concat();
    sh::run(linted(cmd("cargo", &args)))?;
    extension()?;
    glue_extension()
}

/// A cargo command whose build is also clippy's lint, warnings denied: cargo runs clippy's
/// driver in rustc's place for the workspace's own crates, as `cargo clippy` does (where it
/// only checks), and the flags travel in `CLIPPY_ARGS`, in `cargo clippy`'s own form. A
/// separate `cargo clippy` would compile every dependency a second time, as metadata: 107 s of
/// a clean machine's run for the native crates, 105 for Windows'. The driver compiles as rustc
/// does but for clippy's settings (MIR optimised at level 0, so LLVM is given other input;
/// `--cfg clippy`). The extension is never built by it; the binaries in `target/release`
/// (which `install` links) are, after a test run, until the next `build`. Every cargo command
/// of a linted build must say so, or cargo builds the workspace's crates again without the
/// driver.
pub fn linted(mut c: Command) -> Command {
    c.env("RUSTC_WORKSPACE_WRAPPER", "clippy-driver").env(
        "CLIPPY_ARGS",
        "-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__",
    );
    c
}

/// How the extension's wasm is built (and linted): its own profile, the wasm target.
pub const WASM_BUILD: [&str; 6] = [
    "--profile",
    "wasm",
    "--target",
    "wasm32-unknown-unknown",
    "-p",
    "claudezilla-extension-wasm",
];

/// The extension's two modules, each the crate built with one feature: `wasm/background.js`
/// with `background_bg.wasm`, and `content.js` with `content_bg.wasm` (compiled in every page
/// an agent loads, so it carries nothing of the background); each with how hard wasm-opt
/// shrinks it. The background is loaded once: `-O1` takes 18 s of `-O3`'s 79 for 3 % more
/// bytes (2.05 MB against 1.99), its code already optimised by LLVM.
const MODULES: [(&str, &str); 2] = [("background", "-O1"), ("content", "-O3")];

fn extension() -> Result {
    let out = root().join("extension-shell/wasm");
    // Nothing stale is shipped (an older build's single module, say).
    if out.exists() {
        fs::remove_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let wasm = root().join(format!(
        "target/wasm32-unknown-unknown/wasm/{WASM_CRATE}.wasm"
    ));
    for (module, level) in MODULES {
        let only = ["--no-default-features", "--features", module];
        sh::run(cmd("cargo", &[&["build"][..], &WASM_BUILD, &only].concat()))?;
        bindgen(&wasm, module, &out)?;
        optimize(&out.join(format!("{module}_bg.wasm")), level)?;
    }
    bundle_content(&out)?;
    vendor_axe(&out)
}

/// The test extension that runs the content glue's unit tests in Firefox
/// (`e2e/tests/glue.rs` installs it): the content module built with them (feature
/// `glue-tests`, `content/glue_run.rs`), bundled with the shim as the extension's own is,
/// under `e2e/glue-extension/manifest.json`. Not shrunk: it is loaded once per run.
const GLUE_EXTENSION: &str = "target/glue-extension";

fn glue_extension() -> Result {
    let dir = root().join(GLUE_EXTENSION);
    let out = dir.join("wasm");
    if dir.exists() {
        fs::remove_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let only = ["--no-default-features", "--features", "glue-tests"];
    sh::run(cmd("cargo", &[&["build"][..], &WASM_BUILD, &only].concat()))?;
    let wasm = root().join(format!(
        "target/wasm32-unknown-unknown/wasm/{WASM_CRATE}.wasm"
    ));
    bindgen(&wasm, "content", &out)?;
    bundle_content(&out)?;
    let manifest = root().join("e2e/glue-extension/manifest.json");
    fs::copy(&manifest, dir.join("manifest.json"))
        .map(drop)
        .map_err(|e| format!("{}: {e}", manifest.display()))
}

/// The JS glue and the module wasm-bindgen makes of `wasm`, as `out/{module}.js` and
/// `out/{module}_bg.wasm`: plain scripts (MV2 loads no ES modules), no names section.
fn bindgen(wasm: &std::path::Path, module: &str, out: &std::path::Path) -> Result {
    let started = std::time::Instant::now();
    eprintln!("$ wasm-bindgen {} as {module}", wasm.display());
    wasm_bindgen_cli_support::Bindgen::new()
        .input_path(wasm)
        .out_name(module)
        .no_modules(true)
        .and_then(|b| b.typescript(false).remove_name_section(true).generate(out))
        .map_err(|e| format!("wasm-bindgen ({module}): {e:#}"))?;
    sh::took(started);
    Ok(())
}

/// axe-core as npm ships it (pinned in package.json), with its licence (MPL-2.0): what
/// `firefox_audit` injects into the frames it audits.
pub const AXE: &str = "axe.min.js";

fn vendor_axe(out: &std::path::Path) -> Result {
    let from = root().join("node_modules/axe-core");
    for (file, to) in [(AXE, AXE), ("LICENSE", "axe-LICENSE.txt")] {
        fs::copy(from.join(file), out.join(to)).map_err(|e| {
            format!(
                "{} (cargo xtask setup installs it): {e}",
                from.join(file).display()
            )
        })?;
    }
    Ok(())
}

/// Shrinks the module with binaryen's wasm-opt from npm (Debian's is too old and miscompiles).
fn optimize(wasm: &std::path::Path, level: &str) -> Result {
    let wasm_opt = root().join("node_modules/.bin/wasm-opt");
    let path = wasm.to_string_lossy();
    sh::run(cmd(
        &wasm_opt.to_string_lossy(),
        &[
            level,
            "--strip-debug",
            "--strip-producers",
            &path,
            "-o",
            &path,
        ],
    ))
}

/// One file for `tabs.executeScript`: the glue, then the shim that uses it, in one block so the
/// glue's top-level `let` cannot clash when a frame gets the bundle twice.
fn bundle_content(out: &std::path::Path) -> Result {
    let read =
        |p: std::path::PathBuf| fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()));
    let glue = read(out.join("content.js"))?;
    let shim = read(root().join("extension-shell/content-shim.js"))?;
    let bundle = format!("\"use strict\";\n{{\n{glue}\n{shim}}}\n");
    fs::write(out.join("content-bundle.js"), bundle).map_err(|e| format!("content bundle: {e}"))
}
