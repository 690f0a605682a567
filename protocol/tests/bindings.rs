//! The content script's own bindings to the page: a binding given selectors is `catch`, since
//! the browser throws on a selector it refuses, and a throw through a binding not declared
//! `catch` unwinds the content script (through any lock it holds) instead of being an error.

use std::path::{Path, PathBuf};

use proc_macro2::TokenTree;
use quote::ToTokens;
use syn::visit::Visit;

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

/// A function an `extern` block of `source` declares (`unsafe extern` too, in a module or a
/// function's body): its name, whether a `#[wasm_bindgen(…)]` attribute makes it `catch`,
/// and its parameters' names.
struct Binding {
    name: String,
    catch: bool,
    params: Vec<String>,
}

fn bindings(source: &str) -> Vec<Binding> {
    struct Blocks(Vec<Binding>);
    impl<'ast> Visit<'ast> for Blocks {
        fn visit_foreign_item_fn(&mut self, f: &'ast syn::ForeignItemFn) {
            let catch = f.attrs.iter().any(|a| {
                a.path().is_ident("wasm_bindgen")
                    && a.meta.to_token_stream().into_iter().any(|t| is_catch(&t))
            });
            let params = f.sig.inputs.iter().filter_map(|input| match input {
                syn::FnArg::Typed(typed) => match &*typed.pat {
                    syn::Pat::Ident(p) => Some(p.ident.to_string()),
                    _ => None,
                },
                syn::FnArg::Receiver(_) => None,
            });
            self.0.push(Binding {
                name: f.sig.ident.to_string(),
                catch,
                params: params.collect(),
            });
        }
    }
    let file = syn::parse_file(source).expect("a source syn reads");
    let mut blocks = Blocks(Vec::new());
    blocks.visit_file(&file);
    blocks.0
}

/// Is the token `catch`, at any depth of the attribute's parentheses?
fn is_catch(token: &TokenTree) -> bool {
    match token {
        TokenTree::Ident(ident) => ident == "catch",
        TokenTree::Group(group) => group.stream().into_iter().any(|t| is_catch(&t)),
        _ => false,
    }
}

/// The bindings of `source` given selectors (`selector`, `selectors`, or `marked`: what the
/// snapshot's reader matches) and not `catch`.
fn throwing(source: &str) -> Vec<String> {
    let given_selectors = |b: &Binding| {
        b.params
            .iter()
            .any(|p| matches!(p.as_str(), "selector" | "selectors" | "marked"))
    };
    bindings(source)
        .into_iter()
        .filter(|b| given_selectors(b) && !b.catch)
        .map(|b| b.name)
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
    assert_eq!(throwing(source), ["matches"]);
}

#[test]
fn a_binding_over_several_lines_scoped_bare_or_unsafe_is_read() {
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
        mod inner {
            #[wasm_bindgen]
            unsafe extern "C" {
                #[wasm_bindgen(js_name = first)]
                fn first(marked: &JsValue) -> Node;
            }
        }
        fn body() {
            #[wasm_bindgen]
            extern "C" {
                fn last(selector: &str) -> Node;
            }
        }
    "#;
    assert_eq!(bindings(source).len(), 6);
    assert_eq!(
        throwing(source),
        ["matches", "closest", "pick", "first", "last"]
    );
}
