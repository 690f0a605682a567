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

use petgraph::algo::tarjan_scc;
use petgraph::graphmap::DiGraphMap;
use proc_macro2::TokenTree;
use quote::ToTokens;
use syn::visit::Visit;

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

/// The paths a file names from `crate::`, `super::` or `self::` (in `use`s, in code, and in
/// macros' tokens), each resolved to an absolute module path. An inline test module is left
/// out: its `super` is the file itself, not its parent.
fn named_paths(module: &[String], text: &str) -> Vec<Vec<String>> {
    let file = syn::parse_file(text).expect("a source syn reads");
    let mut named = Named {
        module: module.to_vec(),
        out: Vec::new(),
    };
    named.visit_file(&file);
    named.out
}

struct Named {
    /// The module being read: the file's, and an inline module's inside it.
    module: Vec<String>,
    out: Vec<Vec<String>>,
}

impl Named {
    /// `segments` from the module being read, when they start at `crate`, `self` or `super`.
    fn resolve(&mut self, segments: &[String]) {
        let mut base = match segments.first().map(String::as_str) {
            Some("crate") => Vec::new(),
            Some("self" | "super") => self.module.clone(),
            _ => return,
        };
        let mut rest = &segments[usize::from(segments[0] != "super")..];
        while let Some(("super", after)) = rest.split_first().map(|(s, r)| (s.as_str(), r)) {
            base.pop();
            rest = after;
        }
        base.extend(rest.iter().filter(|s| *s != "self").cloned());
        self.out.push(base);
    }

    /// Each path a `use` tree names (groups spread out).
    fn tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => self.leaf(prefix, &n.ident),
            syn::UseTree::Rename(r) => self.leaf(prefix, &r.ident),
            syn::UseTree::Glob(_) => self.resolve(prefix),
            syn::UseTree::Group(g) => g.items.iter().for_each(|t| self.tree(prefix, t)),
        }
    }

    fn leaf(&mut self, prefix: &mut Vec<String>, ident: &syn::Ident) {
        prefix.push(ident.to_string());
        self.resolve(prefix);
        prefix.pop();
    }

    /// The paths in a macro's tokens (`thread_local!`, `format!`): runs of `ident ::`.
    fn tokens(&mut self, tokens: proc_macro2::TokenStream) {
        let mut run: Vec<String> = Vec::new();
        let mut colons = 0;
        for token in tokens {
            match token {
                TokenTree::Ident(ident) => {
                    if colons != 2 {
                        self.resolve(&std::mem::take(&mut run));
                    }
                    run.push(ident.to_string());
                    colons = 0;
                }
                TokenTree::Punct(p) if p.as_char() == ':' && colons < 2 => colons += 1,
                other => {
                    self.resolve(&std::mem::take(&mut run));
                    colons = 0;
                    if let TokenTree::Group(group) = other {
                        self.tokens(group.stream());
                    }
                }
            }
        }
        self.resolve(&run);
    }
}

impl<'ast> Visit<'ast> for Named {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        let test = m.attrs.iter().any(|a| {
            a.path().is_ident("cfg") && a.meta.to_token_stream().to_string().contains("test")
        });
        if test {
            return;
        }
        self.module.push(m.ident.to_string());
        syn::visit::visit_item_mod(self, m);
        self.module.pop();
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        self.tree(&mut Vec::new(), &u.tree);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.resolve(&segments);
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.tokens(mac.tokens.clone());
        syn::visit::visit_macro(self, mac);
    }
}

/// Edges between sibling modules: `folder → (from, to)`, where `folder` is the module whose
/// children `from` and `to` are (the first place the two paths part).
fn sibling_edges(krate: &str, src: &Path) -> BTreeMap<String, BTreeSet<(String, String)>> {
    let files = modules(src);
    let known: BTreeSet<Vec<String>> = files.iter().map(|(m, _)| m.clone()).collect();
    let mut edges: BTreeMap<String, BTreeSet<(String, String)>> = BTreeMap::new();
    for (module, text) in &files {
        for named in named_paths(module, text) {
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

/// The strongly connected groups of more than one module, each sorted.
fn cycles(edges: &BTreeSet<(String, String)>) -> Vec<Vec<String>> {
    let graph: DiGraphMap<&str, ()> = edges
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let mut found: Vec<Vec<String>> = tarjan_scc(&graph)
        .into_iter()
        .filter(|group| group.len() > 1)
        .map(|group| {
            let mut group: Vec<String> = group.into_iter().map(str::to_owned).collect();
            group.sort();
            group
        })
        .collect();
    found.sort();
    found
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

#[test]
fn the_reader_follows_macros_inline_modules_and_skips_tests() {
    let module = ["app".to_owned(), "a".to_owned()];
    let source = r#"
        thread_local! { static KEPT: RefCell<crate::store::Kept> = RefCell::default(); }
        mod inner { fn f() { super::super::b::go(); } }
        #[cfg(test)]
        mod tests { use super::super::c::Only; }
    "#;
    let named = named_paths(&module, source);
    let names: Vec<String> = named.iter().map(|p| p.join("::")).collect();
    assert!(names.contains(&"store::Kept".to_owned()), "{names:?}");
    assert!(names.contains(&"app::b::go".to_owned()), "{names:?}");
    assert!(!names.iter().any(|n| n.contains("Only")), "{names:?}");
}
