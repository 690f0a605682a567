//! Accessible names, as a person reads them: the ARIA order (labelledby, aria-label, the
//! field's label, alt, the element's own text, title, placeholder), with text read through
//! open shadow roots and slots — a web component's button is named by the words slotted into
//! it, and `aria-labelledby` resolves in the element's own shadow root.

use wasm_bindgen::prelude::*;
use web_sys::{Element, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement, Node};

use crate::a11y;

/// Bytes of text read for one name at most (names are cut far shorter).
const MAX_WORDS: usize = 400;

#[wasm_bindgen]
extern "C" {
    /// A document or shadow root: what `querySelectorAll` is asked of.
    #[wasm_bindgen(extends = Node)]
    type Tree;
    #[wasm_bindgen(method, js_name = querySelectorAll)]
    fn query_all(this: &Tree, selectors: &str) -> web_sys::NodeList;
}

thread_local! {
    /// The ARIA attributes that name an element.
    static ARIA_NAMED: JsValue = JsValue::from_str("[aria-labelledby],[aria-label]");
}

/// The nodes the page shows under `node`: a host's shadow tree (its light children appear
/// where its slots are), a slot's assigned nodes (its fallback content when none), otherwise
/// its children.
pub fn rendered_children(node: &Node) -> Vec<Node> {
    let el = node.dyn_ref::<Element>();
    if let Some(shadow) = el.and_then(Element::shadow_root) {
        return children(&shadow);
    }
    if let Some(slot) = el.filter(|e| e.local_name() == "slot") {
        let assigned = slotted(slot);
        if assigned.length() > 0 {
            return assigned.iter().map(JsCast::unchecked_into).collect();
        }
    }
    children(node)
}

fn children(node: &Node) -> Vec<Node> {
    let mut out = Vec::new();
    let mut child = node.first_child();
    while let Some(n) = child {
        child = n.next_sibling();
        out.push(n);
    }
    out
}

/// What a `<slot>` shows: the nodes assigned to it, nested slots flattened.
pub fn slotted(slot: &Element) -> js_sys::Array {
    let options = web_sys::AssignedNodesOptions::new();
    options.set_flatten(true);
    slot.unchecked_ref::<web_sys::HtmlSlotElement>()
        .assigned_nodes_with_options(&options)
}

/// An element's own words: its text, or — when its text is only what slots show (a web
/// component's button) — the words as the page shows them.
fn own_text(el: &Element) -> String {
    // Parts laid out as blocks (a grid cell's lines, a card's rows) are words apart, as the
    // accessible-name computation joins them; `textContent` would run them together.
    if el.child_element_count() > 0 && el.query_selector(BLOCKS).ok().flatten().is_some() {
        return flat_text(el, 80);
    }
    let text = a11y::clean(&el.text_content().unwrap_or_default(), 80);
    if text.chars().any(char::is_alphanumeric) {
        return text;
    }
    flat_text(el, 80)
}

/// Elements laid out as blocks by default, or as a widget's parts: their words stand apart.
const BLOCKS: &str = "div, p, li, br, td, th, tr, dt, dd, section, article, header, footer, h1, h2, h3, h4, h5, h6, [role=gridcell], [role=cell], [role=columnheader], [role=row]";

/// The element's words as the page shows them (through shadow roots and slots, without what
/// is `aria-hidden`), cleaned and cut at `max` characters.
pub fn flat_text(el: &Element, max: usize) -> String {
    let mut words = String::new();
    words_under(el.as_ref(), &mut words, &mut 0, &|_| false);
    a11y::clean(&words, max)
}

/// Appends the words the page shows under `node` (through shadow roots and slots) to `out`,
/// leaving out what is not for people and the elements `left_out` picks; reads `MAX_WORDS`
/// bytes at most (`read` counts them).
fn words_under(
    node: &Node,
    out: &mut String,
    read: &mut usize,
    left_out: &dyn Fn(&Element) -> bool,
) {
    for n in rendered_children(node) {
        if *read > MAX_WORDS {
            return;
        }
        match n.node_type() {
            Node::TEXT_NODE => {
                let text = n.text_content().unwrap_or_default();
                *read += text.len();
                out.push_str(&text);
            }
            Node::ELEMENT_NODE
                if shows_words(n.unchecked_ref()) && !left_out(n.unchecked_ref()) =>
            {
                out.push(' ');
                words_under(&n, out, read, left_out);
                out.push(' ');
            }
            _ => {}
        }
    }
}

/// Are an element's words for people: not a script or style, not `aria-hidden`?
fn shows_words(el: &Element) -> bool {
    !a11y::is_skipped(&el.local_name())
        && el.get_attribute("aria-hidden").as_deref() != Some("true")
}

/// The element of `root` (a document or a shadow root) with this id.
fn by_id(root: &Node, id: &str) -> Option<Element> {
    root.unchecked_ref::<web_sys::DocumentFragment>()
        .get_element_by_id(id)
}

/// Each field's first label, found once per tree (the document, each shadow root) from the
/// labels' side (`label.control`), instead of asking every field for its `labels`: Firefox
/// searches the whole tree for each such question, which made large forms slow.
#[derive(Default)]
pub struct Labels {
    indexed: Vec<Node>,
    first: js_sys::Map,
}

impl Labels {
    /// `labels[0]` of `field`, as the browser would answer it.
    pub fn of(&mut self, field: &Element) -> Option<Element> {
        let root = field.get_root_node();
        if !self.indexed.contains(&root) {
            let labels = root.unchecked_ref::<Tree>().query_all("label");
            for i in 0..labels.length() {
                let Some(label) = labels.item(i) else {
                    continue;
                };
                let control =
                    js_sys::Reflect::get(&label, &"control".into()).unwrap_or(JsValue::NULL);
                if control.is_object() && !self.first.has(&control) {
                    self.first.set(&control, &label);
                }
            }
            self.indexed.push(root);
        }
        self.first.get(field).dyn_into::<Element>().ok()
    }
}

/// A label's words without those of the fields inside it (a select's options, say), as the
/// page shows them.
fn label_words(label: &Element) -> String {
    let mut words = String::new();
    let field = |el: &Element| matches!(el.local_name().as_str(), "input" | "select" | "textarea");
    words_under(label.as_ref(), &mut words, &mut 0, &field);
    a11y::clean(&words, 80)
}

/// The name ARIA gives an element (`aria-labelledby`, resolved in its own tree, then
/// `aria-label`), if any.
pub fn aria_name(el: &Element) -> Option<String> {
    if !super::snapshot::has_any(el, &ARIA_NAMED) {
        return None;
    }
    if let Some(ids) = el.get_attribute("aria-labelledby") {
        // The ids name elements of the element's own tree: its shadow root, or the document.
        let root = el.get_root_node();
        let text: Vec<String> = ids
            .split_whitespace()
            .filter_map(|id| by_id(&root, id))
            .map(|e| flat_text(&e, 80))
            .collect();
        if !text.is_empty() {
            return Some(a11y::clean(&text.join(" "), 80));
        }
    }
    el.get_attribute("aria-label")
        .filter(|l| !l.trim().is_empty())
        .map(|l| a11y::clean(&l, 80))
}

/// The accessible name, in the order [`a11y::accessible_name`] gives; each source is read from
/// the page only when the ones before it gave nothing.
pub fn name(el: &Element, tag: &str, role: &str, labels: &mut Labels) -> String {
    // Only form fields have labels (a hidden input has none, and is no field here).
    let labelable = match tag {
        "input" => el
            .dyn_ref::<HtmlInputElement>()
            .is_some_and(|i| i.type_() != "hidden"),
        "select" => el.has_type::<HtmlSelectElement>(),
        "textarea" => el.has_type::<HtmlTextAreaElement>(),
        _ => false,
    };
    a11y::accessible_name(tag, role, labelable, &mut Sources { el, labels })
}

/// One element's name sources, read from the page.
struct Sources<'a> {
    el: &'a Element,
    labels: &'a mut Labels,
}

impl a11y::NameSources for Sources<'_> {
    fn aria(&mut self) -> Option<String> {
        aria_name(self.el)
    }

    fn label(&mut self) -> Option<String> {
        self.labels.of(self.el).map(|l| label_words(&l))
    }

    fn value(&mut self) -> String {
        self.el
            .dyn_ref::<HtmlInputElement>()
            .map(HtmlInputElement::value)
            .unwrap_or_default()
    }

    fn content(&mut self) -> String {
        self.el
            .get_attribute("alt")
            .map(|a| a11y::clean(&a, 80))
            .unwrap_or_else(|| own_text(self.el))
    }

    fn attribute(&mut self, name: &str) -> Option<String> {
        self.el.get_attribute(name)
    }
}
