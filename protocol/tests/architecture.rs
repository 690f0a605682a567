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
/// earlier in the same section (`background/`: `native.rs`), the latest first. Each path span
/// with its line's index and what it resolved to.
fn resolve_each(text: &str, exists: impl Fn(&str) -> bool) -> Vec<(usize, String, Option<String>)> {
    let mut out = Vec::new();
    let mut bases: Vec<String> = vec![String::new()];
    for (at, line) in text.lines().enumerate() {
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
                .rev()
                .map(|base| format!("{base}{span}"))
                .find(|path| exists(path));
            if let Some(folder) = found.as_ref().filter(|p| p.ends_with('/')) {
                bases.push(folder.clone());
            }
            out.push((at, span.to_owned(), found));
        }
    }
    out
}

/// The paths of [`resolve_each`]: how many resolved, or `Err` with those that resolve nowhere.
fn resolve_paths(text: &str, exists: impl Fn(&str) -> bool) -> Result<usize, Vec<String>> {
    let each = resolve_each(text, exists);
    let missing: Vec<String> = each
        .iter()
        .filter(|(_, _, found)| found.is_none())
        .map(|(_, span, _)| span.clone())
        .collect();
    match missing.is_empty() {
        true => Ok(each.len()),
        false => Err(missing),
    }
}

/// Items the map places in a file: `` `Selector` (`element.rs`) `` or
/// `` `element.rs` (`ElementTarget` ``, as (line index, item, the file's span).
fn placed_items(text: &str) -> Vec<(usize, String, String)> {
    let mut out = Vec::new();
    for (at, line) in text.lines().enumerate() {
        let parts: Vec<&str> = line.split('`').collect();
        // Spans sit at odd indices; between two spans, the text that joins them.
        for i in (1..parts.len().saturating_sub(2)).step_by(2) {
            let (first, joint, second) = (parts[i], parts[i + 1], parts[i + 2]);
            if joint != " (" {
                continue;
            }
            let pair = match (is_path(first), is_path(second)) {
                (false, true) => (first, second),
                (true, false) => (second, first),
                _ => continue,
            };
            if !named_items(&format!("`{}`", pair.0)).is_empty() {
                out.push((at, pair.0.to_owned(), pair.1.to_owned()));
            }
        }
    }
    out
}

/// Is `item` (`Pool::authorize`, `run()`, `browser_tools!`) declared in `source`: its last
/// name, which the map says lives there.
fn declared_item(source: &str, item: &str) -> bool {
    let bare = item.trim_end_matches("()").trim_end_matches('!');
    declared(source, bare.rsplit("::").next().unwrap_or(bare))
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
fn every_item_it_places_is_in_that_file() {
    let text = architecture();
    let tree = tree();
    let resolved = resolve_each(&text, |p| tree.contains(&p.to_owned()));
    let placed = placed_items(&text);
    assert!(placed.len() >= 5, "too few placed items found: {placed:?}");
    let wrong: Vec<String> = placed
        .iter()
        .filter_map(|(at, item, span)| {
            // A path that resolves nowhere is `every_path_it_names_exists`'s to report.
            let path = resolved
                .iter()
                .find(|(line, s, _)| line == at && s == span)
                .and_then(|(_, _, path)| path.clone())?;
            let source = std::fs::read_to_string(repo().join(&path)).ok()?;
            (!declared_item(&source, item)).then(|| format!("{item} is not in {path}"))
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "ARCHITECTURE.md places items wrongly: {wrong:?}"
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
    // An item placed in a file is looked for there.
    let placed = placed_items("- `Selector` (`navigation.rs`), `pool.rs` (`Pool::authorize`, …)");
    assert_eq!(
        placed,
        [
            (0, "Selector".to_owned(), "navigation.rs".to_owned()),
            (0, "Pool::authorize".to_owned(), "pool.rs".to_owned())
        ]
    );
    assert!(declared_item(source, "Pool::authorize") && !declared_item(source, "Selector"));
    let items = named_items("`Pool::authorize`, `page_route()`, `tabs.rs`, `BUSY`, `e12`, `x`");
    assert_eq!(items, BTreeSet::from(["Pool::authorize", "page_route()"]));
}
