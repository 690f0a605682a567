//! `cargo xtask <command>`: the project's automation, in Rust so it runs the same everywhere.
//!
//! * `run`   — install what is missing, build, `install`, start Firefox with the extension
//!   (`web-ext run`), print how to connect Claude Code (plugin or `claude mcp add`).
//! * `install` — build, register the host with Firefox, link the binaries into ~/.local/bin.
//! * `uninstall` — undo `install` and remove the plugin and MCP entry from Claude Code.
//! * `sign`  — build, then a signed XPI for release Firefox (AMO credentials from the env).
//! * `test`  — install what is missing, build, then fmt, clippy, web-ext lint and every test.
//! * `build` — build the binaries (release) and the extension (wasm + shims).
//! * `setup` — only install what is missing.
//! * `bench` — build, then run the end-to-end benchmark.

mod build;
mod install;
mod run;
mod setup;
mod sh;
mod sign;
mod wine;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("setup") => setup::all(),
        Some("build") => setup::all().and_then(|()| build::all()),
        Some("run") => run::run(),
        Some("install") => setup::all()
            .and_then(|()| build::all())
            .and_then(|()| install::install())
            .map(|()| println!("\n{}", install::connect_help())),
        Some("uninstall") => install::uninstall(),
        Some("sign") => setup::all()
            .and_then(|()| build::all())
            .and_then(|()| sign::sign()),
        Some("test") => setup::all()
            .and_then(|()| setup::claude_code())
            .and_then(|()| setup::widgets())
            .and_then(|()| build::for_tests())
            .and_then(|()| run::test(&args[1..])),
        Some("bench") => setup::all()
            .and_then(|()| build::all())
            .and_then(|()| run::bench(&args[1..])),
        _ => {
            eprintln!(
                "usage: cargo xtask <run | test | build | setup | bench | install | uninstall | sign>"
            );
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("\nxtask: {e}");
            ExitCode::FAILURE
        }
    }
}
