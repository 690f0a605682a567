//! Running commands, with the command line echoed and failures turned into errors.

use std::path::{Path, PathBuf};
use std::process::Command;

pub type Result<T = ()> = std::result::Result<T, String>;

/// The repository root (xtask lives one level below it).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask has a parent")
        .to_owned()
}

pub fn cmd(program: &str, args: &[&str]) -> Command {
    let mut c = Command::new(program);
    c.args(args).current_dir(root());
    c
}

/// Runs to completion; an unsuccessful exit is an error naming the command.
pub fn run(mut c: Command) -> Result {
    let line = describe(&c);
    eprintln!("$ {line}");
    let status = c
        .status()
        .map_err(|e| format!("cannot start `{line}`: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{line}` failed ({status})"))
    }
}

/// Runs and returns stdout, or `None` if the program is missing or fails.
pub fn output(program: &str, args: &[&str]) -> Option<String> {
    let out = cmd(program, args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

pub fn exists(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

fn describe(c: &Command) -> String {
    let mut parts = vec![c.get_program().to_string_lossy().into_owned()];
    parts.extend(c.get_args().map(|a| a.to_string_lossy().into_owned()));
    parts.join(" ")
}

pub fn is_root() -> bool {
    output("id", &["-u"]).is_some_and(|uid| uid.trim() == "0")
}
