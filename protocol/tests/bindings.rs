//! The content script's own bindings to the page: a binding given selectors is `catch`, since
//! the browser throws on a selector it refuses, and a throw through a binding not declared
//! `catch` unwinds the content script (through any lock it holds) instead of being an error.

use std::path::{Path, PathBuf};

fn content() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../extension-wasm/src/content")
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable tree").flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Each function an `extern "C"` block declares in `source`: its `#[wasm_bindgen…]` attribute
/// (over as many lines as it takes; empty where it has none) and the declaration to its `;`,
/// each on one line.
fn bindings(source: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut lines = source.lines().map(str::trim);
    let mut inside = false;
    let mut attribute = String::new();
    while let Some(line) = lines.next() {
        if line.starts_with("extern \"C\"") {
            inside = true;
            continue;
        }
        if !inside || line.is_empty() || line.starts_with("//") {
            continue;
        }
        if line == "}" {
            inside = false;
        } else if line.starts_with("#[wasm_bindgen") {
            attribute = line.to_owned();
            while !closed(&attribute) {
                let Some(next) = lines.next() else { break };
                attribute.push_str(next);
            }
        } else if !line.starts_with("#[") {
            let mut declaration = line.to_owned();
            while !declaration.ends_with(';') && !declaration.ends_with('{') {
                let Some(next) = lines.next() else { break };
                declaration.push_str(next);
            }
            if is_function(&declaration) && declaration.ends_with(';') {
                out.push((attribute.clone(), declaration));
            }
            attribute.clear();
        }
    }
    out
}

/// Is the attribute whole: its brackets and parentheses closed?
fn closed(attribute: &str) -> bool {
    let depth = |open: char, close: char| {
        attribute.matches(open).count() == attribute.matches(close).count()
    };
    depth('(', ')') && depth('[', ']')
}

/// Does `declaration` declare a function, of any visibility (none, `pub`, `pub(…)`)?
fn is_function(declaration: &str) -> bool {
    let unscoped = match declaration.strip_prefix("pub(") {
        Some(scoped) => scoped.split_once(')').map_or("", |(_, rest)| rest),
        None => declaration.strip_prefix("pub").unwrap_or(declaration),
    };
    unscoped.trim_start().starts_with("fn ")
}

/// Is the binding given selectors (`selector`, `selectors`, or `marked`: what the snapshot's
/// reader matches)?
fn given_selectors(declaration: &str) -> bool {
    let params = declaration.split_once('(').map_or("", |(_, p)| p);
    ["selector:", "selectors:", "marked:"]
        .iter()
        .any(|p| params.contains(p))
}

/// The bindings of `source` given selectors and not `catch`.
fn throwing(source: &str) -> Vec<String> {
    bindings(source)
        .into_iter()
        .filter(|(attribute, declaration)| {
            given_selectors(declaration) && !attribute.contains("catch")
        })
        .map(|(_, declaration)| declaration)
        .collect()
}

#[test]
fn every_binding_given_selectors_is_catch() {
    let mut files = Vec::new();
    sources(&content(), &mut files);
    let mut found = 0;
    let mut wrong = Vec::new();
    for file in files {
        let source = std::fs::read_to_string(&file).expect("readable source");
        found += bindings(&source).len();
        wrong.extend(
            throwing(&source)
                .into_iter()
                .map(|d| format!("{}: {d}", file.display())),
        );
    }
    assert!(found > 10, "the bindings were not found ({found})");
    assert!(wrong.is_empty(), "not catch: {wrong:#?}");
}

#[test]
fn a_binding_given_selectors_not_catch_would_be_caught() {
    let source = r#"
        #[wasm_bindgen]
        extern "C" {
            /// Does it match?
            #[wasm_bindgen(js_namespace = page, js_name = matches)]
            pub fn matches(el: &Element, selectors: &JsValue) -> bool;
            #[wasm_bindgen(catch, js_name = all)]
            fn all(
                root: &Node,
                selector: &str,
            ) -> Result<JsValue, JsValue>;
            #[wasm_bindgen(js_name = text)]
            fn text(node: &Node) -> String;
        }
    "#;
    assert_eq!(bindings(source).len(), 3);
    assert_eq!(
        throwing(source),
        ["pub fn matches(el: &Element, selectors: &JsValue) -> bool;"]
    );
}

#[test]
fn a_binding_over_several_lines_scoped_or_bare_is_read() {
    let source = r#"
        #[wasm_bindgen]
        extern "C" {
            // A comment, then a blank line.

            #[wasm_bindgen(
                js_namespace = page,
                js_name = matches
            )]
            fn matches(el: &Element, selectors: &JsValue) -> bool;
            #[wasm_bindgen(js_name = closest)]
            pub(super) fn closest(el: &Element, selector: &str) -> Option<Element>;
            #[wasm_bindgen(
                catch,
                js_name = all
            )]
            pub(crate) fn all(root: &Node, selector: &str) -> Result<JsValue, JsValue>;
            fn pick(selectors: &str) -> Element;
        }
    "#;
    assert_eq!(bindings(source).len(), 4);
    assert_eq!(
        throwing(source),
        [
            "fn matches(el: &Element, selectors: &JsValue) -> bool;",
            "pub(super) fn closest(el: &Element, selector: &str) -> Option<Element>;",
            "fn pick(selectors: &str) -> Element;",
        ]
    );
}
