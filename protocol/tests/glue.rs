//! The extension's glue (the wasm-only modules that call the browser: `background/`,
//! `content/`, `web/`) and its tests in Firefox (`content/glue_tests/`, run by
//! `e2e/tests/glue.rs`). A glue file counts as tested when a test file at its path under
//! `glue_tests/` exists, is compiled in and runs tests; the lines of the rest may not grow.

use std::path::{Path, PathBuf};

/// Lines of glue with no test of their own, at most: lower it as files gain tests.
const UNTESTED_AT_MOST: usize = 6_000;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../extension-wasm/src")
}

/// The `.rs` files under `dir`, as paths from it (`act/pointer.rs`).
fn files(dir: &Path) -> Vec<String> {
    fn walk(dir: &Path, prefix: &str, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = format!("{prefix}{name}");
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                walk(&entry.path(), &format!("{path}/"), out);
            } else if name.ends_with(".rs") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, "", &mut out);
    out.sort();
    out
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `text` without its comment lines: a `mod` or a list commented out wires nothing in.
fn code(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The glue files, as paths from `src/`: the test runner and the tests are not glue.
fn glue() -> Vec<String> {
    ["background", "content", "web"]
        .iter()
        .flat_map(|part| {
            files(&src().join(part))
                .into_iter()
                .map(move |f| format!("{part}/{f}"))
        })
        .filter(|f| !f.starts_with("content/glue_tests/") && f != "content/glue_run.rs")
        .collect()
}

/// The test files under `content/glue_tests/`, as paths from there.
fn test_files() -> Vec<String> {
    files(&src().join("content/glue_tests"))
}

/// Why the test file `file` (a path under `glue_tests/`) would test nothing, if it would not:
/// it mirrors no glue file, its parent does not compile it in or run its tests, or it holds
/// none.
fn unwired(file: &str) -> Option<String> {
    let tests = src().join("content/glue_tests");
    if !src().join("content").join(file).is_file() {
        return Some(format!(
            "{file} tests no glue file (content/{file} is missing)"
        ));
    }
    let text = code(&read(&tests.join(file)));
    let listed = text.split_once("tests![").is_some_and(|(_, rest)| {
        rest.split(']')
            .next()
            .is_some_and(|l| l.chars().any(char::is_alphanumeric))
    });
    if !listed {
        return Some(format!("{file} lists no test (`tests![a, b]`)"));
    }
    if file == "mod.rs" {
        return None;
    }
    let (parent, name) = match file.strip_suffix("/mod.rs") {
        Some(dir) => (parent_of(dir), dir.rsplit('/').next().unwrap_or(dir)),
        None => {
            let stem = file.trim_end_matches(".rs");
            (parent_of(stem), stem.rsplit('/').next().unwrap_or(stem))
        }
    };
    let parent_text = code(&read(&tests.join(&parent)));
    if !parent_text.contains(&format!("mod {name};")) {
        return Some(format!(
            "{parent} does not compile {file} in (`mod {name};`)"
        ));
    }
    let runs = [format!("{name}::tests()"), format!("{name}::all()")];
    if !runs.iter().any(|r| parent_text.contains(r.as_str())) {
        return Some(format!("{parent} does not run {file}'s tests"));
    }
    None
}

/// The module file that declares the module at `path` (`act/pointer` → `act/mod.rs`).
fn parent_of(path: &str) -> String {
    match path.rsplit_once('/') {
        Some((dir, _)) => format!("{dir}/mod.rs"),
        None => "mod.rs".to_owned(),
    }
}

fn untested() -> Vec<(String, usize)> {
    let tested = test_files();
    glue()
        .into_iter()
        .filter(|g| {
            !g.strip_prefix("content/")
                .is_some_and(|f| tested.iter().any(|t| t == f))
        })
        .map(|g| {
            let lines = read(&src().join(&g)).lines().count();
            (g, lines)
        })
        .collect()
}

#[test]
fn every_glue_test_file_tests_its_glue_file() {
    let wrong: Vec<String> = test_files().iter().filter_map(|f| unwired(f)).collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_untested_glue_does_not_grow() {
    let untested = untested();
    let lines: usize = untested.iter().map(|(_, n)| n).sum();
    let all: usize = glue()
        .iter()
        .map(|g| read(&src().join(g)).lines().count())
        .sum();
    println!(
        "untested glue: {lines} of {all} lines, in {} files",
        untested.len()
    );
    assert!(
        lines <= UNTESTED_AT_MOST,
        "{lines} lines of glue have no test of their own (at most {UNTESTED_AT_MOST}); the largest: {:?}",
        {
            let mut largest = untested.clone();
            largest.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
            largest.truncate(8);
            largest
        }
    );
}

#[test]
fn a_stray_or_unwired_test_file_would_be_caught() {
    // A file under glue_tests/ for a glue file that is not there is caught before its text is
    // read.
    let said = unwired("no_such_module.rs").unwrap_or_default();
    assert!(said.contains("tests no glue file"), "{said}");
}
