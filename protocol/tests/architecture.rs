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

/// The code spans of a text, in order.
fn spans(text: &str) -> impl Iterator<Item = &str> {
    text.split('`').skip(1).step_by(2)
}

/// Does a code span name a file or folder: `content/act/`, `tools/`, `manifest.json`?
fn is_path(span: &str) -> bool {
    const KINDS: [&str; 8] = [
        ".rs", ".js", ".mjs", ".json", ".html", ".css", ".md", ".toml",
    ];
    span.bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"_./-".contains(&b))
        && (span.ends_with('/') || KINDS.iter().any(|k| span.ends_with(k)))
        // `wasm/` inside the extension is build output (named as such), not source.
        && !span.starts_with("wasm/")
}

/// Each path the map names, resolved exactly: from the repository root, the crate its section
/// (`### \`host/\``) or step (`**host/**`) is about, that crate's `src/`, or a folder named
/// earlier in the same section (`background/`: `native.rs`). `Err` holds those that resolve
/// nowhere.
fn resolve_paths(text: &str, exists: impl Fn(&str) -> bool) -> Result<usize, Vec<String>> {
    let mut missing = Vec::new();
    let mut resolved = 0;
    let mut bases: Vec<String> = vec![String::new()];
    for line in text.lines() {
        let section = line
            .strip_prefix("### `")
            .or_else(|| line.split("**").nth(1).filter(|c| c.ends_with('/')));
        if line.starts_with("#") || section.is_some() {
            bases = vec![String::new()];
        }
        if let Some(krate) = section.and_then(|s| s.split('`').next()) {
            bases.push(krate.to_owned());
            bases.push(format!("{krate}src/"));
        }
        for span in spans(line).filter(|s| is_path(s)) {
            let found = bases
                .iter()
                .map(|base| format!("{base}{span}"))
                .find(|path| exists(path));
            match found {
                Some(path) => {
                    resolved += 1;
                    if path.ends_with('/') {
                        bases.push(path);
                    }
                }
                None => missing.push(span.to_owned()),
            }
        }
    }
    if missing.is_empty() {
        Ok(resolved)
    } else {
        Err(missing)
    }
}

/// The code spans that name Rust items: `Pool::authorize`, `AuthorizedTab`, `run()`,
/// `browser_tools!`. Error codes (`BUSY`) are the error table's business.
fn named_items(text: &str) -> BTreeSet<&str> {
    spans(text)
        .filter(|span| {
            let bare = span.trim_end_matches("()").trim_end_matches('!');
            let rusty = !bare.is_empty()
                && bare.split("::").all(|seg| {
                    !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                });
            let first = bare.chars().next().unwrap_or(' ');
            let camel = first.is_ascii_uppercase() && bare.chars().any(|c| c.is_ascii_lowercase());
            rusty
                && !first.is_ascii_digit()
                && (camel || bare.contains("::") || span.ends_with("()") || span.ends_with('!'))
        })
        .collect()
}

/// Is `name` declared somewhere in `source`: an item, a macro, or an enum variant? The whole
/// name only: `fn validate_url` does not declare `validate`.
fn declared(source: &str, name: &str) -> bool {
    let ends_there =
        |rest: &str| !rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
    let items = [
        "struct",
        "enum",
        "trait",
        "type",
        "fn",
        "const",
        "static",
        "mod",
        "macro_rules!",
    ];
    let item = items.iter().any(|kind| {
        source
            .match_indices(&format!("{kind} {name}"))
            .any(|(at, found)| ends_there(&source[at + found.len()..]))
    });
    item || source.lines().any(|l| {
        l.trim_start()
            .strip_prefix(name)
            .is_some_and(|rest| [" {", "(", ",", " ="].iter().any(|p| rest.starts_with(p)))
    })
}

/// Every Rust source of the tree, in one text (but this test's, whose examples declare
/// nothing).
fn sources() -> String {
    tree()
        .iter()
        .filter(|p| p.ends_with(".rs") && !p.ends_with("tests/architecture.rs"))
        .filter_map(|p| std::fs::read_to_string(repo().join(p)).ok())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_path_it_names_exists() {
    let tree: BTreeSet<String> = tree().into_iter().collect();
    let resolved = resolve_paths(&architecture(), |p| tree.contains(p));
    match resolved {
        Ok(n) => assert!(n > 60, "too few paths found: {n}"),
        Err(missing) => panic!("ARCHITECTURE.md names paths that do not exist: {missing:?}"),
    }
}

#[test]
fn every_item_it_names_is_declared() {
    let text = architecture();
    let source = sources();
    let named = named_items(&text);
    assert!(named.len() > 30, "too few items found: {named:?}");
    // Named for what they are, declared by others: std, serde, rmcp, the DOM.
    const ELSEWHERE: [&str; 4] = [
        "Display",
        "Deserialize",
        "ServerHandler",
        "MutationObserver",
    ];
    let missing: Vec<_> = named
        .iter()
        .filter(|span| !ELSEWHERE.contains(span))
        .filter(|span| {
            let bare = span.trim_end_matches("()").trim_end_matches('!');
            !bare.split("::").all(|seg| declared(&source, seg))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names items no source declares: {missing:?}"
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
fn a_wrong_path_or_item_would_be_caught() {
    let exists = |p: &str| {
        [
            "host/",
            "host/src/",
            "host/src/server.rs",
            "mcp/",
            "README.md",
        ]
        .contains(&p)
    };
    let text =
        "### `host/`\n`server.rs`, `README.md`, not `a b.rs` or `e12`\n### `mcp/`\n`server.rs`";
    // `server.rs` is the host's in its section; under `mcp/` it is not.
    assert_eq!(
        resolve_paths(text, exists),
        Err(vec!["server.rs".to_owned()])
    );
    assert_eq!(
        resolve_paths("see `src/server.rs`", exists),
        Err(vec!["src/server.rs".to_owned()])
    );
    let source =
        "pub struct Pool;\nimpl Pool { pub fn authorize() {} }\nenum Placed {\n    OnTab {\n";
    assert!(declared(source, "Pool") && declared(source, "authorize") && declared(source, "OnTab"));
    assert!(!declared(source, "page_route"));
    // A longer name is not the one asked for.
    assert!(!declared("fn authorize_all() {}", "authorize"));
    let items = named_items("`Pool::authorize`, `page_route()`, `tabs.rs`, `BUSY`, `e12`, `x`");
    assert_eq!(items, BTreeSet::from(["Pool::authorize", "page_route()"]));
}
