//! The leaf every content module reads the page through: the document, and the element checks
//! web-sys lacks (`checkVisibility`, `matches` with a selector kept as a JS string).

use claudezilla_protocol::{ErrorBody, ErrorCode};
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element, Node};

#[wasm_bindgen]
extern "C" {
    /// An element seen through `checkVisibility()` (not in web-sys yet).
    #[wasm_bindgen(extends = Element)]
    pub type Checkable;
    #[wasm_bindgen(method, js_name = checkVisibility)]
    fn check_visibility(this: &Checkable) -> bool;
    /// `matches` with a selector kept as a JS string (no re-encoding per call).
    #[wasm_bindgen(method, js_name = matches)]
    pub fn matches_value(this: &Checkable, selectors: &JsValue) -> bool;
}

pub fn document() -> Result<Document, ErrorBody> {
    web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| ErrorBody::new(ErrorCode::PageError, "this page has no document"))
}

/// Does `el` match any of the selectors kept in `selectors`?
pub fn has_any(el: &Element, selectors: &'static std::thread::LocalKey<JsValue>) -> bool {
    selectors.with(|s| el.unchecked_ref::<Checkable>().matches_value(s))
}

/// False for elements not rendered (display: none, content-visibility hidden, …).
pub fn is_visible(el: &Element) -> bool {
    el.unchecked_ref::<Checkable>().check_visibility()
}

/// `display: contents` (a grid's header row laid out by its cells): no box of its own, so
/// `checkVisibility` says hidden, but its children show. Asked only in the walk, which never
/// enters a hidden ancestor.
pub fn box_less(el: &Element) -> bool {
    web_sys::window()
        .and_then(|w| w.get_computed_style(el).ok().flatten())
        .and_then(|style| style.get_property_value("display").ok())
        .is_some_and(|d| d == "contents")
}

/// The elements matching `selector` under a document, shadow root or element (none when the
/// selector is invalid: callers validate selectors first).
pub fn query_all_in(root: &Node, selector: &str) -> Vec<Element> {
    let list = if let Some(d) = root.dyn_ref::<Document>() {
        d.query_selector_all(selector)
    } else if let Some(s) = root.dyn_ref::<web_sys::ShadowRoot>() {
        s.query_selector_all(selector)
    } else if let Some(e) = root.dyn_ref::<Element>() {
        e.query_selector_all(selector)
    } else {
        return Vec::new();
    };
    let Ok(list) = list else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into::<Element>().ok())
        .collect()
}

/// What a `<slot>` shows: the nodes assigned to it, nested slots flattened.
pub fn slotted(slot: &Element) -> js_sys::Array {
    let options = web_sys::AssignedNodesOptions::new();
    options.set_flatten(true);
    slot.unchecked_ref::<web_sys::HtmlSlotElement>()
        .assigned_nodes_with_options(&options)
}

/// The page's DOM, as the composed tree's walks ([`crate::composed`]) read it.
pub struct Dom;

impl crate::composed::Tree for Dom {
    type Node = Node;

    fn children(&self, node: &Node) -> Vec<Node> {
        let mut out = Vec::new();
        let mut child = node.first_child();
        while let Some(n) = child {
            child = n.next_sibling();
            out.push(n);
        }
        out
    }

    fn shadow_root(&self, node: &Node) -> Option<Node> {
        node.dyn_ref::<Element>()
            .and_then(Element::shadow_root)
            .map(Node::from)
    }

    fn is_slot(&self, node: &Node) -> bool {
        node.dyn_ref::<Element>()
            .is_some_and(|e| e.local_name() == "slot")
    }

    fn assigned(&self, slot: &Node) -> Vec<Node> {
        slotted(slot.unchecked_ref())
            .iter()
            .map(JsCast::unchecked_into)
            .collect()
    }

    fn elements(&self, root: &Node) -> Vec<Node> {
        query_all_in(root, "*")
            .into_iter()
            .map(Node::from)
            .collect()
    }
}
