//! The leaf every content module reads the page through: the document; the hot reads of the
//! walks through the page's native getters (`checkVisibility`, which web-sys lacks, and
//! `matches` with a selector kept as a JS string among them); the snapshot's reader of a
//! node's children and their facts.

use claudezilla_protocol::{ErrorBody, ErrorCode};
use wasm_bindgen::prelude::*;
use web_sys::{
    CssStyleDeclaration, Document, Element, HtmlElement, HtmlInputElement, HtmlTextAreaElement,
    Node,
};

use crate::child_batches::{self, BATCH, Batches};
use crate::field_kind::Field;
use crate::showing::Showing;
use crate::snapshot::Facts;

#[wasm_bindgen]
extern "C" {
    // The walks' hot reads, through the page's native getters and methods called directly
    // (the shim's `claudezillaNative`): the same answers as web-sys's property reads, which go
    // through the content script's Xray view at about twenty times the cost.
    #[wasm_bindgen(js_namespace = claudezillaNative, js_name = visible)]
    fn native_visible(el: &Element) -> bool;
    /// Rendered, not made invisible, and its content not skipped (`content-visibility:
    /// hidden`: its box shows, empty).
    #[wasm_bindgen(js_namespace = claudezillaNative, js_name = seen)]
    fn native_seen(el: &Element) -> bool;
    /// Its content not skipped (`content-visibility: hidden`, where it applies).
    #[wasm_bindgen(js_namespace = claudezillaNative, js_name = contentShown)]
    fn content_shown(el: &Element) -> bool;
    /// Does `el` match any of `selectors` (a selector list as a JS string)? A selector the
    /// browser refuses throws.
    #[wasm_bindgen(catch, js_namespace = claudezillaNative, js_name = matches)]
    pub fn matches(el: &Element, selectors: &JsValue) -> Result<bool, JsValue>;
    /// The element's attribute `name`, as `getAttribute` reads it.
    #[wasm_bindgen(js_namespace = claudezillaNative, js_name = attribute)]
    pub fn attribute(el: &Element, name: &str) -> Option<String>;
    #[wasm_bindgen(js_namespace = claudezillaNative, js_name = hasAttribute)]
    pub fn has_attribute(el: &Element, name: &str) -> bool;
    /// An HTML `<input>`'s `type` attribute (empty without one); none for an element of
    /// another namespace (`<svg><input>`). One call, as the attribute's read was.
    #[wasm_bindgen(js_namespace = claudezillaNative, js_name = inputType)]
    pub fn input_type(el: &Element) -> Option<String>;
    /// Is the element of HTML's namespace (not `<svg><button>`)?
    #[wasm_bindgen(js_namespace = claudezillaNative, js_name = isHtml)]
    pub fn is_html(el: &Element) -> bool;
    #[wasm_bindgen(js_namespace = claudezillaNative, js_name = hasAttribute)]
    fn has_attribute_named(el: &Element, name: &JsValue) -> bool;
    /// The node's `textContent`.
    #[wasm_bindgen(js_namespace = claudezillaNative, js_name = text)]
    pub fn text(node: &Node) -> Option<String>;
    #[wasm_bindgen(js_namespace = claudezillaNative, js_name = childElementCount)]
    pub fn child_element_count(el: &Element) -> u32;
    #[wasm_bindgen(js_namespace = claudezillaNative, js_name = nodeType)]
    pub fn node_type(node: &Node) -> u16;
    #[wasm_bindgen(js_namespace = claudezillaNative, js_name = localName)]
    pub fn local_name(el: &Element) -> String;
    /// The node's tree: its document, or the shadow root it is in.
    #[wasm_bindgen(js_namespace = claudezillaNative, js_name = rootNode)]
    pub fn root_node(node: &Node) -> Node;
    #[wasm_bindgen(js_namespace = claudezillaNative, js_name = firstChild)]
    fn first_child(node: &Node) -> Option<Node>;
    #[wasm_bindgen(js_namespace = claudezillaNative, js_name = nextSibling)]
    fn next_sibling(node: &Node) -> Option<Node>;
    /// An element's open shadow root; none for other nodes.
    #[wasm_bindgen(js_namespace = claudezillaNative, js_name = shadowRootOf)]
    fn shadow_root_of(node: &Node) -> Option<web_sys::ShadowRoot>;
}

#[wasm_bindgen]
extern "C" {
    /// The shim's reader of a node's children (`content-shim.js`): the children after `after`
    /// (from the first when `None`), at most `facts.len()`, each with its [`Facts`] written
    /// into `facts`. One call for all of them where each fact was a call of its own. Marked
    /// `selectors` the browser refuses throw (as in [`facts_of`]).
    #[wasm_bindgen(catch, js_name = claudezillaChildren)]
    fn children_after(
        parent: &Node,
        after: Option<&Node>,
        marked: &JsValue,
        facts: &mut [u32],
    ) -> Result<js_sys::Array, JsValue>;
    /// One node's [`Facts`], as the reader gives them; throws where `marked` is selectors the
    /// browser refuses.
    #[wasm_bindgen(catch, js_name = claudezillaFacts)]
    fn facts_of(node: &Node, marked: &JsValue) -> Result<u32, JsValue>;
    /// The tag the reader numbered `index` (numbers start at 1).
    #[wasm_bindgen(js_name = claudezillaTag)]
    fn tag_numbered(index: u32) -> Option<String>;
    /// The elements under `root` matching `selectors`, as a set the reader looks an element up
    /// in (one query for a whole tree, where `matches` is a read of each element); throws
    /// where the browser refuses `selectors`.
    #[wasm_bindgen(catch, js_name = claudezillaMarkedIn)]
    pub fn marked_in(root: &Node, selectors: &JsValue) -> Result<JsValue, JsValue>;
}

/// A node's [`Facts`], as the reader gives them. What is marked is given to the reader as
/// `marked`: selectors, or the set [`marked_in`] made of the node's tree. Where the reader
/// throws (our selectors refused), the facts are none: the walk takes the node for one it
/// does not show, and leaves it and its whole subtree out of the snapshot.
pub fn facts(node: &Node, marked: &JsValue) -> Facts {
    Facts::from_bits(facts_of(node, marked).unwrap_or(0))
}

/// The element's tag (`localName`): from the numbers already learnt, else asked once
/// ([`child_batches::tag`]).
pub fn tag(el: &Element, facts: Facts) -> String {
    let Some(index) = facts.tag_number() else {
        return local_name(el);
    };
    TAGS.with(|tags| child_batches::tag(tags, index, tag_numbered))
        .unwrap_or_else(|| local_name(el))
}

thread_local! {
    /// The tags the reader numbered, in order (number 1 first).
    static TAGS: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A node's children (open shadow roots not entered) with their [`Facts`], read in batches as
/// the walk goes ([`child_batches::Children`]).
pub type Children<'a> = child_batches::Children<Reader<'a>>;

/// The shim's reader of one node's children; `marked` says which elements are marked
/// (selectors, or the set [`marked_in`] made of the parent's tree).
pub struct Reader<'a> {
    pub parent: &'a Node,
    pub marked: &'a JsValue,
}

impl Batches for Reader<'_> {
    type Node = Node;
    type Batch = js_sys::Array;

    /// Where the reader throws (our selectors refused, or any other error), the whole batch is
    /// dropped, children already read in that call too, and the walk takes it for the last.
    fn read(&self, after: Option<&Node>, facts: &mut [u32; BATCH]) -> js_sys::Array {
        children_after(self.parent, after, self.marked, facts).unwrap_or_default()
    }

    fn len(&self, batch: &js_sys::Array) -> usize {
        batch.length() as usize
    }

    fn get(&self, batch: &js_sys::Array, at: usize) -> Node {
        batch.get(at as u32).unchecked_into()
    }
}

pub fn document() -> Result<Document, ErrorBody> {
    web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| ErrorBody::new(ErrorCode::PageError, "this page has no document"))
}

/// What kind of field `element` is, as typing and a secret's check see it
/// ([`crate::field_kind::Field`]).
pub fn field_of(element: &Element) -> Field {
    let autocomplete = || attribute(element, "autocomplete");
    if let Some(input) = element.dyn_ref::<HtmlInputElement>() {
        return Field::Input {
            kind: input.type_(),
            disabled: input.disabled(),
            read_only: input.read_only(),
            autocomplete: autocomplete(),
        };
    }
    if let Some(area) = element.dyn_ref::<HtmlTextAreaElement>() {
        return Field::TextArea {
            disabled: area.disabled(),
            read_only: area.read_only(),
            autocomplete: autocomplete(),
        };
    }
    match element
        .dyn_ref::<HtmlElement>()
        .is_some_and(HtmlElement::is_content_editable)
    {
        true => Field::ContentEditable,
        false => Field::Other,
    }
}

thread_local! {
    static HIDDEN: JsValue = JsValue::from_str("hidden");
}

/// Whether `el` carries the `hidden` attribute. Asked of every element a walk passes: the
/// name is made once, where a `&str` would be copied into a new JS string at each call.
pub fn has_hidden_attribute(el: &Element) -> bool {
    HIDDEN.with(|name| has_attribute_named(el, name))
}

/// False for elements not rendered (display: none, content-visibility hidden, …).
pub fn is_visible(el: &Element) -> bool {
    native_visible(el)
}

/// `display: contents` (a grid's header row laid out by its cells): no box of its own, so
/// `checkVisibility` says hidden, but its children show. Asked only in the walk, which never
/// enters a hidden ancestor.
pub fn box_less(el: &Element) -> bool {
    style(el).is_some_and(|style| is_box_less(&style))
}

fn style(el: &Element) -> Option<CssStyleDeclaration> {
    web_sys::window().and_then(|w| w.get_computed_style(el).ok().flatten())
}

fn is_box_less(style: &CssStyleDeclaration) -> bool {
    style
        .get_property_value("display")
        .is_ok_and(|d| d == "contents")
}

/// The node's parent in the composed tree: its parent element, or its shadow root's host.
pub fn composed_parent(node: &Node) -> Option<Element> {
    node.parent_element().or_else(|| {
        node.get_root_node()
            .dyn_ref::<web_sys::ShadowRoot>()
            .map(web_sys::ShadowRoot::host)
    })
}

/// How `el` shows ([`crate::showing::showing`]): asked by every read of a page's words and
/// of its roles and names, of each element they pass and of a read's root.
pub fn showing(el: &Element) -> Showing {
    crate::showing::showing(&Dom, el)
}

impl crate::showing::Probe for Dom {
    type Element = Element;
    /// The computed style read once: `display`, then `visibility` where the walk says so.
    type Style = CssStyleDeclaration;

    fn seen(&self, el: &Element) -> bool {
        native_seen(el)
    }

    fn rendered(&self, el: &Element) -> bool {
        is_visible(el)
    }

    fn content_shown(&self, el: &Element) -> bool {
        content_shown(el)
    }

    fn box_less(&self, el: &Element) -> Option<CssStyleDeclaration> {
        style(el).filter(is_box_less)
    }

    fn text_visible(&self, style: &CssStyleDeclaration) -> bool {
        style
            .get_property_value("visibility")
            .is_ok_and(|v| v == "visible")
    }

    fn parent(&self, el: &Element) -> Option<Element> {
        composed_parent(el)
    }
}

#[wasm_bindgen]
extern "C" {
    /// A document, shadow root or element: what `querySelectorAll` is asked of.
    #[wasm_bindgen(extends = Node)]
    pub type ParentNode;
    #[wasm_bindgen(method, catch, js_name = querySelectorAll)]
    pub fn query_all(this: &ParentNode, selectors: &str) -> Result<web_sys::NodeList, JsValue>;
}

/// The elements matching `selector` under a document, shadow root or element, each read as
/// it is asked; the browser's refusal of an invalid selector as an error.
pub fn matching(
    root: &Node,
    selector: &str,
) -> Result<impl Iterator<Item = Element> + use<>, JsValue> {
    let list = root.unchecked_ref::<ParentNode>().query_all(selector)?;
    let all = (0..list.length()).filter_map(move |i| list.item(i));
    Ok(all.map(JsCast::unchecked_into))
}

/// The elements matching `selector` under a document, shadow root or element (none when the
/// selector is invalid: callers validate selectors first).
pub fn query_all_in(root: &Node, selector: &str) -> Vec<Element> {
    matching(root, selector)
        .map(Iterator::collect)
        .unwrap_or_default()
}

/// What a `<slot>` shows: the nodes assigned to it, nested slots flattened; none for an
/// element named `slot` of another namespace (`<svg><slot>`, which a page may plant: it has no
/// `assignedNodes`, and asking it would throw out of the walk).
pub fn slotted(slot: &Element) -> js_sys::Array {
    let Some(slot) = slot.dyn_ref::<web_sys::HtmlSlotElement>() else {
        return js_sys::Array::new();
    };
    let options = web_sys::AssignedNodesOptions::new();
    options.set_flatten(true);
    slot.assigned_nodes_with_options(&options)
}

/// The page's DOM, as the composed tree's walks ([`crate::composed`]) read it.
pub struct Dom;

impl crate::composed::Tree for Dom {
    type Node = Node;

    fn children(&self, node: &Node) -> Vec<Node> {
        let mut out = Vec::new();
        let mut child = first_child(node);
        while let Some(n) = child {
            child = next_sibling(&n);
            out.push(n);
        }
        out
    }

    fn shadow_root(&self, node: &Node) -> Option<Node> {
        shadow_root_of(node).map(Node::from)
    }

    fn is_slot(&self, node: &Node) -> bool {
        node_type(node) == Node::ELEMENT_NODE && local_name(node.unchecked_ref()) == "slot"
    }

    fn assigned(&self, slot: &Node) -> Vec<Node> {
        slotted(slot.unchecked_ref())
            .iter()
            .map(JsCast::unchecked_into)
            .collect()
    }

    fn elements(&self, root: &Node) -> Vec<Node> {
        matching(root, "*")
            .map(|all| all.map(Node::from).collect())
            .unwrap_or_default()
    }
}

impl crate::composed::Words for Dom {
    fn kind(&self, node: &Node) -> crate::composed::Kind {
        use crate::composed::Kind;
        match node_type(node) {
            Node::TEXT_NODE => Kind::Text(text(node).unwrap_or_default()),
            Node::ELEMENT_NODE => Kind::Element(local_name(node.unchecked_ref())),
            _ => Kind::Other,
        }
    }

    fn has_attribute(&self, el: &Node, name: &str) -> bool {
        has_attribute(el.unchecked_ref(), name)
    }

    fn attribute(&self, el: &Node, name: &str) -> Option<String> {
        attribute(el.unchecked_ref(), name)
    }
}
