//! Accessible names read from the page: the DOM as `page_names::NamePage`, which answers
//! `a11y::name`'s `NameSources` (AccName's computation) over it. Text is read through open
//! shadow roots and slots (a web component's button is named by the words slotted into it) and
//! `aria-labelledby` resolves in the element's own tree.

use wasm_bindgen::prelude::*;
use web_sys::{
    Element, HtmlElement, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement, Node,
};

pub use super::dom::slotted;
use super::dom::{self, Dom};
use super::style_sheets::PageSheets;
use crate::a11y;
use crate::a11y::name::Named;
use crate::composed;
use crate::page_names::{self, Described, Kept, NamePage, SHOWN_NAME};
use crate::showing::Showing;
use crate::snapshot::{self, Seen};
use crate::style_rules;

/// Bytes of text read for one name at most (names are cut far shorter).
const MAX_WORDS: usize = 400;

thread_local! {
    /// The attributes `a11y::name::NAMING` lists, as one selector.
    static NAMING: JsValue = JsValue::from_str(&snapshot::carrying(a11y::name::NAMING));
}

/// The element's words as the page shows them (through shadow roots and slots, without what
/// is `aria-hidden`), cleaned and cut at `max` characters.
pub fn flat_text(el: &Element, max: usize) -> String {
    a11y::clean(&composed::shown_words(&Dom, el.as_ref(), MAX_WORDS), max)
}

/// What a walk keeps of the page between names ([`page_names::Kept`]): each tree's labels,
/// found once, the style rules that give words, each numbered list.
pub type Labels = Kept<Dom>;

/// The accessible name of `el` as a locator matches it: as [`name_as`], cut much later.
pub fn full_name(el: &Element, tag: &str, labels: &mut Labels) -> String {
    let max = a11y::pick::MAX_LOCATOR_NAME;
    page_names::name(&Dom, labels, el.as_ref(), tag, None, Named::Shown, max)
}

/// The accessible name of `el` (whose tag the caller knows), as `a11y::name` computes it for
/// an element met as `how` says (shown, hidden, or a script's clickable element).
pub fn name_as(el: &Element, tag: &str, labels: &mut Labels, how: Named) -> String {
    page_names::name(&Dom, labels, el.as_ref(), tag, None, how, SHOWN_NAME)
}

/// [`name_as`] of an element a walk met, whose facts spare the name's first questions. Its
/// `marked` fact must cover [`a11y::name::NAMING`] (the snapshot's does).
pub fn name_seen(seen: Seen<Element>, labels: &mut Labels, how: Named) -> String {
    let facts = Some(seen.facts);
    page_names::name(
        &Dom,
        labels,
        seen.el.as_ref(),
        seen.tag,
        facts,
        how,
        SHOWN_NAME,
    )
}

/// Each field's labels (a JS array, in tree order) and each numbered list item's number.
#[derive(Default)]
pub struct Index {
    labels: js_sys::Map,
    numbered: js_sys::Map,
}

impl NamePage for Dom {
    type Node = Node;
    type Index = Index;

    fn node_type(&self, n: &Node) -> u16 {
        dom::node_type(n)
    }

    fn local_name(&self, el: &Node) -> String {
        dom::local_name(el.unchecked_ref())
    }

    fn text(&self, n: &Node) -> Option<String> {
        dom::text(n)
    }

    fn attribute(&self, el: &Node, name: &str) -> Option<String> {
        dom::attribute(el.unchecked_ref(), name)
    }

    fn has_attribute(&self, el: &Node, name: &str) -> bool {
        dom::has_attribute(el.unchecked_ref(), name)
    }

    fn naming(&self, el: &Node) -> bool {
        NAMING
            .with(|naming| dom::matches(el.unchecked_ref(), naming))
            .unwrap_or(false)
    }

    fn child_element_count(&self, el: &Node) -> u32 {
        dom::child_element_count(el.unchecked_ref())
    }

    fn has_shadow_root(&self, el: &Node) -> bool {
        el.unchecked_ref::<Element>().shadow_root().is_some()
    }

    fn shown_children(&self, n: &Node) -> Vec<Node> {
        composed::shown_children(&Dom, n)
    }

    fn root(&self, n: &Node) -> Node {
        dom::root_node(n)
    }

    fn by_id(&self, root: &Node, id: &str) -> Option<Node> {
        let root = root.unchecked_ref::<web_sys::DocumentFragment>();
        root.get_element_by_id(id).map(Node::from)
    }

    fn showing(&self, el: &Node) -> Showing {
        dom::showing(el.unchecked_ref())
    }

    fn style(&self, el: &Node, pseudo: &str, property: &str) -> Option<String> {
        web_sys::window()?
            .get_computed_style_with_pseudo_elt(el.unchecked_ref(), pseudo)
            .ok()??
            .get_property_value(property)
            .ok()
    }

    fn generating(&self) -> [Option<String>; 2] {
        style_rules::generating(&PageSheets)
    }

    fn matches(&self, el: &Node, selectors: &str) -> Option<bool> {
        el.unchecked_ref::<Element>().matches(selectors).ok()
    }

    fn each_label(&self, root: &Node, f: &mut dyn FnMut(&Node)) {
        if let Ok(labels) = dom::matching(root, "label") {
            labels.for_each(|label| f(&label));
        }
    }

    fn control(&self, label: &Node) -> Option<Node> {
        let control = js_sys::Reflect::get(label, &"control".into()).unwrap_or(JsValue::NULL);
        control.is_object().then(|| control.unchecked_into())
    }

    fn keep_label(&self, index: &mut Index, control: &Node, label: &Node) {
        let list = match index.labels.get(control).dyn_into::<js_sys::Array>() {
            Ok(list) => list,
            Err(_) => {
                let list = js_sys::Array::new();
                index.labels.set(control, &list);
                list
            }
        };
        list.push(label);
    }

    fn kept_labels(&self, index: &Index, field: &Node) -> Vec<Node> {
        match index.labels.get(field).dyn_into::<js_sys::Array>() {
            Ok(list) => list.iter().map(JsCast::unchecked_into).collect(),
            Err(_) => Vec::new(),
        }
    }

    fn kept_number(&self, index: &Index, item: &Node) -> Option<i64> {
        index.numbered.get(item).as_f64().map(|n| n as i64)
    }

    fn keep_number(&self, index: &mut Index, item: &Node, n: i64) {
        index.numbered.set(item, &JsValue::from_f64(n as f64));
    }

    fn is_html(&self, el: &Node) -> bool {
        dom::is_html(el.unchecked_ref())
    }

    fn input_type(&self, input: &Node) -> String {
        input.unchecked_ref::<HtmlInputElement>().type_()
    }

    fn input_value(&self, input: &Node) -> String {
        input.unchecked_ref::<HtmlInputElement>().value()
    }

    fn textarea_value(&self, area: &Node) -> String {
        area.unchecked_ref::<HtmlTextAreaElement>().value()
    }

    fn held(&self, field: &Node) -> Option<String> {
        super::secrets::held(field.unchecked_ref())
    }

    fn selected_options(&self, el: &Node) -> Option<Vec<Node>> {
        let options = el.dyn_ref::<HtmlSelectElement>()?.selected_options();
        let chosen = (0..options.length()).filter_map(|i| options.item(i));
        Some(chosen.map(Node::from).collect())
    }

    fn query_all(&self, el: &Node, selectors: &str) -> Vec<Node> {
        dom::matching(el, selectors)
            .map(|chosen| chosen.map(Node::from).collect())
            .unwrap_or_default()
    }

    fn parent_element(&self, n: &Node) -> Option<Node> {
        n.parent_element().map(Node::from)
    }

    fn first_element_child(&self, el: &Node) -> Option<Node> {
        el.unchecked_ref::<Element>()
            .first_element_child()
            .map(Node::from)
    }

    fn next_element_sibling(&self, el: &Node) -> Option<Node> {
        el.unchecked_ref::<Element>()
            .next_element_sibling()
            .map(Node::from)
    }
}

impl Described for Dom {
    fn inner_text(&self, el: &Node) -> Option<String> {
        el.dyn_ref::<HtmlElement>().map(HtmlElement::inner_text)
    }
}
