//! ARCHITECTURE.md stays true: every path it names exists, and its error table is exactly the
//! stable error codes.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use claudezilla_protocol::ErrorCode;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn architecture() -> String {
    std::fs::read_to_string(repo().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md")
}

/// Every file and folder of the source tree, as `/`-separated paths from the repository root
/// (folders end with `/`); build output and dependencies are not source.
fn tree() -> Vec<String> {
    fn walk(dir: &Path, prefix: &str, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("readable tree").flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if matches!(name.as_str(), "target" | "node_modules" | ".git") {
                continue;
            }
            let path = format!("{prefix}{name}");
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                out.push(format!("{path}/"));
                walk(&entry.path(), &format!("{path}/"), out);
            } else {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&repo(), "", &mut out);
    out
}

/// The code spans that name a file or folder: `content/act.rs`, `tools/`, `manifest.json`.
fn named_paths(text: &str) -> BTreeSet<String> {
    const KINDS: [&str; 8] = [
        ".rs", ".js", ".mjs", ".json", ".html", ".css", ".md", ".toml",
    ];
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| {
            span.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_./-".contains(&b))
        })
        .filter(|span| span.ends_with('/') || KINDS.iter().any(|k| span.ends_with(k)))
        // `wasm/` inside the extension is build output (named as such), not source.
        .filter(|span| !span.starts_with("wasm/"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_path_it_names_exists() {
    let tree = tree();
    let named = named_paths(&architecture());
    assert!(named.len() > 60, "too few paths found: {named:?}");
    let missing: Vec<_> = named
        .iter()
        .filter(|p| {
            !tree
                .iter()
                .any(|t| t == *p || t.ends_with(&format!("/{p}")))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names paths that do not exist: {missing:?}"
    );
}

#[test]
fn the_error_table_is_every_code() {
    let text = architecture();
    let errors = &text[text.find("## Errors").expect("an Errors section")..];
    let table: BTreeSet<&str> = errors
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .collect();
    let codes: BTreeSet<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(
        table, codes,
        "ARCHITECTURE.md's error table and ErrorCode::ALL differ"
    );
}

#[test]
fn a_wrong_path_would_be_caught() {
    let named = named_paths("see `content/dom.rs` and `tools/` but not `a b.rs` or `e12`");
    assert_eq!(
        named,
        BTreeSet::from(["content/dom.rs".to_owned(), "tools/".to_owned()])
    );
    assert!(!tree().iter().any(|t| t.ends_with("/content/dom.rs")));
}
