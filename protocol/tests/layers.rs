//! The layers of each crate, checked rather than described: among the modules of one folder
//! (the children of one module), the `use`s form no cycle, and the edges ARCHITECTURE.md
//! forbids are absent. A module reaching into its own parent (`super::with_state`) is how a
//! folder shares its state and does not count; between siblings, one is below the other.
//!
//! What the compiler checks already is not repeated here: the pure modules of
//! `extension-wasm` build natively, where `background`, `content` and `web` do not exist, and
//! the background and content scripts are built apart, so neither can use the other.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use regex_lite::Regex;

/// The crates whose modules are checked, by their `src/` folder.
const CRATES: [&str; 4] = ["protocol/src", "host/src", "mcp/src", "extension-wasm/src"];

/// Edges that must not exist: (the folder's module, the lower module, the module above it).
/// The lower one never uses the upper.
const BELOW: [(&str, &str, &str); 6] = [
    // The session (link, folders, `ask`) is below every tool, which the server routes.
    ("mcp", "session", "tools"),
    ("mcp", "tools", "server"),
    // What follows a load reaches into tabs and devtools, never the reverse.
    ("extension-wasm::background", "tabs", "page_load"),
    ("extension-wasm::background", "devtools", "page_load"),
    // The document and the element checks are the content script's leaf.
    ("extension-wasm::content", "dom", "find"),
    ("extension-wasm::content", "names", "snapshot"),
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every `.rs` file under `src`, with its module path (`background::tabs::opened`), the crate
/// root being the empty path.
fn modules(src: &Path) -> Vec<(Vec<String>, String)> {
    fn walk(dir: &Path, path: &[String], out: &mut Vec<(Vec<String>, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("readable src")
            .flatten()
            .collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                let mut inner = path.to_vec();
                inner.push(name);
                walk(&entry.path(), &inner, out);
                continue;
            }
            let Some(stem) = name.strip_suffix(".rs") else {
                continue;
            };
            let mut module = path.to_vec();
            if !matches!(stem, "mod" | "lib" | "main") {
                module.push(stem.to_owned());
            }
            let text = std::fs::read_to_string(entry.path()).expect("readable source");
            out.push((module, text));
        }
    }
    let mut out = Vec::new();
    walk(src, &[], &mut out);
    out
}

/// The code of a file without comments and without its inline test module (whose `super`
/// is the file itself, not its parent).
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests {") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths a file names from `crate::` or `super::` (groups in braces spread out), each
/// resolved to an absolute module path.
fn named_paths(module: &[String], code: &str) -> Vec<Vec<String>> {
    let path = Regex::new(r"\b((?:crate|super|self)(?:::super)*)::((?:[a-z_][a-z0-9_]*::)*)(\{[^}]*\}|[a-z_][a-z0-9_]*)").unwrap();
    let mut out = Vec::new();
    for caps in path.captures_iter(code) {
        // `self` and `super` start at the file's own module; each `super` climbs one.
        let mut base: Vec<String> = match caps[1].starts_with("crate") {
            true => Vec::new(),
            false => module.to_vec(),
        };
        for _ in 0..caps[1].matches("super").count() {
            base.pop();
        }
        let middle: Vec<String> = caps[2]
            .split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect();
        let last = &caps[3];
        let tails: Vec<String> = match last.strip_prefix('{') {
            Some(group) => group
                .trim_end_matches('}')
                .split(',')
                .map(|s| s.trim().split("::").next().unwrap_or_default().to_owned())
                .filter(|s| !s.is_empty() && s != "self")
                .collect(),
            None => vec![last.to_owned()],
        };
        for tail in tails {
            let mut full = base.clone();
            full.extend(middle.iter().cloned());
            full.push(tail);
            out.push(full);
        }
    }
    out
}

/// Edges between sibling modules: `folder → (from, to)`, where `folder` is the module whose
/// children `from` and `to` are (the first place the two paths part).
fn sibling_edges(krate: &str, src: &Path) -> BTreeMap<String, BTreeSet<(String, String)>> {
    let files = modules(src);
    let known: BTreeSet<Vec<String>> = files.iter().map(|(m, _)| m.clone()).collect();
    let mut edges: BTreeMap<String, BTreeSet<(String, String)>> = BTreeMap::new();
    for (module, text) in &files {
        for named in named_paths(module, &code(text)) {
            // The longest known module the path names.
            let Some(target) = (0..=named.len())
                .rev()
                .map(|n| named[..n].to_vec())
                .find(|p| known.contains(p))
            else {
                continue;
            };
            let common = module
                .iter()
                .zip(&target)
                .take_while(|(a, b)| a == b)
                .count();
            // An ancestor or descendant: a folder and its own parts.
            if common == module.len() || common == target.len() {
                continue;
            }
            let folder = std::iter::once(krate.to_owned())
                .chain(module[..common].iter().cloned())
                .collect::<Vec<_>>()
                .join("::");
            edges
                .entry(folder)
                .or_default()
                .insert((module[common].clone(), target[common].clone()));
        }
    }
    edges
}

/// The strongly connected groups of more than one module (Tarjan's algorithm).
fn cycles(edges: &BTreeSet<(String, String)>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        next: BTreeMap<&'a str, Vec<&'a str>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a str) {
            let i = self.index.len();
            self.index.insert(v, i);
            self.low.insert(v, i);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.next.get(v).cloned().unwrap_or_default() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut group = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    group.push(w.to_owned());
                    if w == v {
                        break;
                    }
                }
                if group.len() > 1 {
                    group.sort();
                    self.found.push(group);
                }
            }
        }
    }
    let mut walk = Walk {
        next: BTreeMap::new(),
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for (a, b) in edges {
        walk.next.entry(a).or_default().push(b);
    }
    let nodes: BTreeSet<&str> = edges
        .iter()
        .flat_map(|(a, b)| [a.as_str(), b.as_str()])
        .collect();
    for v in nodes {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    walk.found
}

fn all_edges() -> BTreeMap<String, BTreeSet<(String, String)>> {
    CRATES
        .iter()
        .flat_map(|src| {
            let krate = src.trim_end_matches("/src");
            sibling_edges(krate, &repo().join(src))
        })
        .collect()
}

#[test]
fn no_folder_has_an_import_cycle() {
    let found: Vec<String> = all_edges()
        .iter()
        .flat_map(|(folder, edges)| {
            cycles(edges)
                .into_iter()
                .map(move |group| format!("{folder}: {}", group.join(" ↔ ")))
        })
        .collect();
    assert!(found.is_empty(), "import cycles:\n{}", found.join("\n"));
}

#[test]
fn the_lower_layers_never_use_the_upper() {
    let edges = all_edges();
    for (folder, lower, upper) in BELOW {
        let in_folder = edges.get(folder);
        assert!(
            in_folder.is_some_and(|e| e.iter().any(|(a, _)| a == upper || a == lower)),
            "{folder}: no edges read for {lower} or {upper} (a module renamed?)"
        );
        assert!(
            !in_folder.is_some_and(|e| e.contains(&(lower.to_owned(), upper.to_owned()))),
            "{folder}: {lower} uses {upper}, which is above it"
        );
    }
}

#[test]
fn the_reader_sees_cycles_it_is_shown() {
    let edges = sibling_edges("demo", &repo().join("protocol/tests/layers_demo"));
    let found = cycles(&edges["demo::app"]);
    assert_eq!(found, [vec!["a".to_owned(), "b".to_owned()]], "{edges:?}");
}
