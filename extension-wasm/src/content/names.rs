//! Accessible names read from the page: the DOM behind `a11y::name`'s `NameSources`, which
//! computes them as AccName does. Text is read through open shadow roots and slots (a web
//! component's button is named by the words slotted into it) and `aria-labelledby` resolves in
//! the element's own tree.

use wasm_bindgen::prelude::*;
use web_sys::{Element, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement, Node};

pub use super::dom::slotted;
use super::dom::{self, Dom};
use super::style_sheets::PageSheets;
use crate::a11y;
use crate::a11y::name::{Generated, NameSources, Named, Shown};
use crate::composed;
use crate::showing::Showing;
use crate::snapshot::{Facts, Seen};
use crate::style_rules;

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
    /// The attributes `a11y::name::NAMING` lists, as one selector.
    static NAMING: JsValue = JsValue::from_str(
        &a11y::name::NAMING.iter().map(|a| format!("[{a}]")).collect::<Vec<_>>().join(","),
    );
}

/// The nodes the page shows under `node` ([`composed::shown_children`]).
pub fn rendered_children(node: &Node) -> Vec<Node> {
    composed::shown_children(&Dom, node)
}

/// The element's words as the page shows them (through shadow roots and slots, without what
/// is `aria-hidden`), cleaned and cut at `max` characters.
pub fn flat_text(el: &Element, max: usize) -> String {
    a11y::clean(&composed::shown_words(&Dom, el.as_ref(), MAX_WORDS), max)
}

/// The element of `root` (a document or a shadow root) with this id.
fn by_id(root: &Node, id: &str) -> Option<Element> {
    root.unchecked_ref::<web_sys::DocumentFragment>()
        .get_element_by_id(id)
}

/// Each field's labels, found once per tree (the document, each shadow root) from the labels'
/// side (`label.control`), instead of asking every field for its `labels`: Firefox searches
/// the whole tree for each such question, which made large forms slow.
///
/// It also keeps, for the snapshot's time, which elements the page's style rules may give
/// generated words (`::before`, `::after`): only those are asked their computed style; and
/// the numbers of the list items whose markers were named, each list numbered once.
#[derive(Default)]
pub struct Labels {
    indexed: Vec<Node>,
    /// Field → its labels (a JS array, in tree order).
    all: js_sys::Map,
    generating: Option<Generating>,
    /// List item → its number, for the lists whose items were numbered.
    numbered: js_sys::Map,
}

impl Labels {
    /// The `labels` of `field`, in tree order, as the browser would answer them.
    pub fn of(&mut self, field: &Element) -> Vec<Node> {
        let root = dom::root_node(field);
        if !self.indexed.contains(&root) {
            let labels = root.unchecked_ref::<Tree>().query_all("label");
            for i in 0..labels.length() {
                let Some(label) = labels.item(i) else {
                    continue;
                };
                let control =
                    js_sys::Reflect::get(&label, &"control".into()).unwrap_or(JsValue::NULL);
                if !control.is_object() {
                    continue;
                }
                let known = self.all.get(&control);
                let list = match known.dyn_into::<js_sys::Array>() {
                    Ok(list) => list,
                    Err(_) => {
                        let list = js_sys::Array::new();
                        self.all.set(&control, &list);
                        list
                    }
                };
                list.push(&label);
            }
            self.indexed.push(root);
        }
        match self.all.get(field).dyn_into::<js_sys::Array>() {
            Ok(list) => list.iter().map(JsCast::unchecked_into).collect(),
            Err(_) => Vec::new(),
        }
    }

    /// May the page's styles give `el` generated words before (0) or after (1) it?
    fn may_generate(&mut self, el: &Element, which: usize) -> bool {
        let generating = self.generating.get_or_insert_with(Generating::read);
        match &generating.0[which] {
            None => false,
            // An invalid selector (a prefixed pseudo-class) may match: ask the style.
            Some(list) => el.matches(list).unwrap_or(true),
        }
    }
}

/// For `::before` and `::after`: the selectors of the rules whose `content` gives words, as one
/// list, or `None` when no rule does.
struct Generating([Option<String>; 2]);

impl Generating {
    /// Read from the page's style sheets ([`style_rules::generating`]).
    fn read() -> Self {
        Self(style_rules::generating(&PageSheets))
    }
}

/// The accessible name of `el` (whose tag the caller knows), as `a11y::name` computes it.
pub fn name(el: &Element, tag: &str, labels: &mut Labels) -> String {
    name_as(el, tag, labels, Named::Shown)
}

/// The accessible name of `el` as a locator matches it: as [`name`], cut much later.
pub fn full_name(el: &Element, tag: &str, labels: &mut Labels) -> String {
    let mut dom = Sources { labels, root: None };
    let name = a11y::name::accessible_name(&mut dom, el.as_ref(), tag, Named::Shown);
    a11y::clean(&name, a11y::pick::MAX_LOCATOR_NAME)
}

/// The name of an element met as `how` says (hidden, or a script's clickable element).
pub fn name_as(el: &Element, tag: &str, labels: &mut Labels, how: Named) -> String {
    let name =
        a11y::name::accessible_name(&mut Sources { labels, root: None }, el.as_ref(), tag, how);
    a11y::clean(&name, 80)
}

/// [`name_as`] of an element a walk met, whose facts spare the name's first questions. Its
/// `marked` fact must cover [`a11y::name::NAMING`] (the snapshot's does).
pub fn name_seen(seen: Seen<Element>, labels: &mut Labels, how: Named) -> String {
    let root = Some((Node::from(seen.el.clone()), seen.facts));
    let name = a11y::name::accessible_name(
        &mut Sources { labels, root },
        seen.el.as_ref(),
        seen.tag,
        how,
    );
    a11y::clean(&name, 80)
}

/// The page's tree, as the name computation reads it.
struct Sources<'a> {
    labels: &'a mut Labels,
    /// The element named, with what the caller already read of it.
    root: Option<(Node, Facts)>,
}

impl Sources<'_> {
    /// What is known of `n` without asking: the facts of the element named.
    fn known(&self, n: &Node) -> Option<Facts> {
        self.root
            .as_ref()
            .filter(|(root, _)| root == n)
            .map(|(_, f)| *f)
    }
}

impl NameSources for Sources<'_> {
    type Node = Node;

    fn tag(&mut self, n: &Node) -> Option<String> {
        (dom::node_type(n) == Node::ELEMENT_NODE).then(|| dom::local_name(n.unchecked_ref()))
    }

    fn text(&mut self, n: &Node) -> Option<String> {
        (dom::node_type(n) == Node::TEXT_NODE).then(|| dom::text(n).unwrap_or_default())
    }

    fn attribute(&mut self, n: &Node, name: &str) -> Option<String> {
        dom::attribute(n.unchecked_ref(), name)
    }

    fn marked(&mut self, n: &Node) -> bool {
        match self.known(n) {
            Some(facts) => facts.marked(),
            None => super::dom::has_any(n.unchecked_ref(), &NAMING),
        }
    }

    fn only_text(&mut self, n: &Node, tag: &str) -> Option<String> {
        let el = n.unchecked_ref::<Element>();
        let shadowed = |el: &Element| match self.known(n) {
            Some(facts) => facts.shadowed(),
            None => el.shadow_root().is_some(),
        };
        // A slot shows its assigned nodes, not its own text.
        let plain = tag != "slot" && dom::child_element_count(el) == 0 && !shadowed(el);
        plain.then(|| dom::text(n).unwrap_or_default())
    }

    fn children(&mut self, n: &Node) -> Vec<Node> {
        rendered_children(n)
    }

    fn by_id(&mut self, n: &Node, id: &str) -> Option<Node> {
        by_id(&dom::root_node(n), id).map(Node::from)
    }

    fn shown(&mut self, n: &Node) -> Shown {
        match dom::showing(n.unchecked_ref()) {
            // `display: contents` has no box, but its children show.
            Showing::Rendered | Showing::BoxLess { seen: true } => Shown::Rendered,
            Showing::Invisible | Showing::BoxLess { seen: false } => Shown::Invisible,
            Showing::NotRendered => Shown::NotRendered,
        }
    }

    fn generated(&mut self, n: &Node, which: Generated) -> Option<String> {
        let (pseudo, k) = match which {
            Generated::Before => ("::before", 0),
            Generated::After => ("::after", 1),
            Generated::Marker => return marker(n.unchecked_ref(), self.labels),
        };
        if !self.labels.may_generate(n.unchecked_ref(), k) {
            return None;
        }
        style_of(n.unchecked_ref(), pseudo, "content")
    }

    fn labels(&mut self, n: &Node) -> Vec<Node> {
        self.labels.of(n.unchecked_ref())
    }

    /// A field's value as the snapshot shows it: never a password's characters, a typed
    /// secret as its placeholder.
    fn value(&mut self, n: &Node) -> Option<String> {
        let el = n.unchecked_ref::<Element>();
        let value = match el.local_name().as_str() {
            "input" => {
                let input = el.unchecked_ref::<HtmlInputElement>();
                if input.type_().eq_ignore_ascii_case("password") {
                    return None;
                }
                input.value()
            }
            "textarea" => el.unchecked_ref::<HtmlTextAreaElement>().value(),
            _ => return None,
        };
        Some(super::secrets::shown_value(el, &value))
    }

    fn selected(&mut self, n: &Node) -> Vec<Node> {
        let el = n.unchecked_ref::<Element>();
        if let Some(select) = el.dyn_ref::<HtmlSelectElement>() {
            let options = select.selected_options();
            return (0..options.length())
                .filter_map(|i| options.item(i))
                .map(Node::from)
                .collect();
        }
        let Ok(chosen) = el.query_selector_all("[aria-selected=true]") else {
            return Vec::new();
        };
        (0..chosen.length())
            .filter_map(|i| chosen.item(i))
            .collect()
    }
}

fn style_of(el: &Element, pseudo: &str, property: &str) -> Option<String> {
    web_sys::window()?
        .get_computed_style_with_pseudo_elt(el, pseudo)
        .ok()??
        .get_property_value(property)
        .ok()
}

/// A list item's marker as its list shows it: its `::marker` content, else the bullet or the
/// number its `list-style-type` draws (the common types; others give none).
fn marker(li: &Element, labels: &mut Labels) -> Option<String> {
    let content = style_of(li, "::marker", "content")?;
    if !matches!(content.as_str(), "normal" | "none" | "") {
        return Some(a11y::generated::generated_text(&content, &mut |a| {
            dom::attribute(li, a)
        }));
    }
    let style = style_of(li, "", "list-style-type")?;
    a11y::generated::list_marker(&style, || ordinal(li, labels))
}

/// The number an ordered list gives this item ([`a11y::generated::ordinals`] decides): its
/// own `value`, the earlier items' and the list's `start` and `reversed`. A list's items are
/// numbered at once, the first time one is asked, and kept for the walk.
fn ordinal(li: &Element, labels: &mut Labels) -> i64 {
    if let Some(n) = labels.numbered.get(li).as_f64() {
        return n as i64;
    }
    let value = |el: &Element| a11y::generated::html_integer(&dom::attribute(el, "value")?);
    let list = li.parent_element();
    let mut items = Vec::new();
    let mut at = list.as_ref().and_then(Element::first_element_child);
    while let Some(child) = at {
        at = child.next_element_sibling();
        if dom::local_name(&child) == "li" {
            items.push(child);
        }
    }
    let list = list.filter(|p| dom::local_name(p) == "ol");
    let reversed = list
        .as_ref()
        .is_some_and(|ol| dom::has_attribute(ol, "reversed"));
    let start = list
        .as_ref()
        .and_then(|ol| dom::attribute(ol, "start"))
        .and_then(|s| a11y::generated::html_integer(&s));
    let values: Vec<Option<i64>> = items.iter().map(value).collect();
    let numbers = a11y::generated::ordinals(&values, start, reversed);
    for (item, n) in items.iter().zip(&numbers) {
        labels.numbered.set(item, &JsValue::from_f64(*n as f64));
    }
    let at = items.iter().position(|item| item == li);
    at.map_or_else(|| value(li).unwrap_or(1), |at| numbers[at])
}
