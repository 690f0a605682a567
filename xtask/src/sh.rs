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
    // npm's commands are batch files on Windows, which are only found by their full name.
    let program = match program {
        "npm" | "npx" if cfg!(windows) => format!("{program}.cmd"),
        other => other.to_owned(),
    };
    let mut c = Command::new(program);
    c.args(args).current_dir(root());
    c
}

/// Runs to completion; an unsuccessful exit is an error naming the command.
pub fn run(mut c: Command) -> Result {
    let line = describe(&c);
    eprintln!("$ {line}");
    let started = std::time::Instant::now();
    let status = c
        .status()
        .map_err(|e| format!("cannot start `{line}`: {e}"))?;
    took(started);
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{line}` failed ({status})"))
    }
}

/// Most lines of failure reports kept to be said again at the end.
const MAX_FAILURE_LINES: usize = 400;

/// Counts of tests, summed over every `test result:` line a test run printed, and what the
/// failing tests said (a suite's `failures:` section), to be said again at the end: a failure
/// early in a long run must not scroll out of the last lines CI keeps.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Tally {
    pub passed: u64,
    pub failed: u64,
    pub failures: Vec<String>,
    in_failures: bool,
}

impl Tally {
    /// Adds what one line of test output reports (`test result: ok. 12 passed; 0 failed; …`),
    /// and keeps it if it is part of a `failures:` section.
    pub fn read(&mut self, line: &str) {
        if line.trim_end() == "failures:" {
            self.in_failures = true;
        }
        let Some(rest) = line.trim().strip_prefix("test result: ") else {
            if self.in_failures && self.failures.len() < MAX_FAILURE_LINES {
                self.failures.push(line.to_owned());
            }
            return;
        };
        self.in_failures = false;
        let count = |what: &str| {
            rest.split([';', '.'])
                .map(str::trim)
                .find_map(|part| part.strip_suffix(what)?.trim().parse::<u64>().ok())
                .unwrap_or(0)
        };
        self.passed += count(" passed");
        self.failed += count(" failed");
    }
}

/// Runs, echoing stdout as it comes and tallying the tests it reports.
pub fn run_tests(mut c: Command, tally: &mut Tally) -> Result {
    use std::io::{BufRead, BufReader};
    let line = describe(&c);
    eprintln!("$ {line}");
    let started = std::time::Instant::now();
    let mut child = c
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start `{line}`: {e}"))?;
    if let Some(out) = child.stdout.take() {
        for text in BufReader::new(out)
            .lines()
            .map_while(std::result::Result::ok)
        {
            println!("{text}");
            tally.read(&text);
        }
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    took(started);
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{line}` failed ({status})"))
    }
}

/// Says how long a step took, so a slow run (CI's, from a clean clone) shows where its time
/// went.
pub fn took(started: std::time::Instant) {
    eprintln!("  ({:.1} s)", started.elapsed().as_secs_f64());
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

#[cfg(test)]
mod tests {
    use super::Tally;

    #[test]
    fn test_results_are_summed() {
        let mut t = Tally::default();
        t.read("test result: ok. 55 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 47.43s");
        t.read("test result: FAILED. 63 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out");
        t.read("running 3 tests");
        t.read("test foo ... ok");
        assert_eq!((t.passed, t.failed), (118, 1));
    }

    #[test]
    fn what_failing_tests_said_is_kept_and_nothing_else() {
        let mut t = Tally::default();
        for line in [
            "test a ... ok",
            "test b ... FAILED",
            "",
            "failures:",
            "",
            "---- b ----",
            "the page said no",
            "test result: FAILED. 1 passed; 1 failed; 0 ignored",
            "test c ... ok",
        ] {
            t.read(line);
        }
        assert_eq!(
            t.failures,
            ["failures:", "", "---- b ----", "the page said no"]
        );
        assert_eq!((t.passed, t.failed), (1, 1));
    }
}
