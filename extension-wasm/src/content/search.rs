//! `firefox_find` in one frame: the DOM as the search reads it ([`crate::search::walk`]
//! decides what is searched and how each match is named).

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::args::{ElementRef, Words};
use claudezilla_protocol::reply::Found;
use wasm_bindgen::JsCast;
use web_sys::{CharacterData, Element, Node};

use super::dom::{self, Dom, document, showing};
use super::find::ref_for;
use super::names::{self, Labels};
use super::snapshot::{frame_id_of, role_of};
use crate::a11y::name::Named;
use crate::composed::Tree;
use crate::search::walk::{self, Child};
use crate::showing::Showing;
use crate::web;

/// The frame's matches of `needle` ([`walk::find`]).
pub fn find(needle: &Words, limit: u32, frame: u32, until: u64) -> Result<Found, ErrorBody> {
    let doc = document()?;
    let root = doc
        .body()
        .map(Element::from)
        .or_else(|| doc.document_element());
    let page = Frame {
        frame,
        labels: Default::default(),
    };
    walk::find(&page, root.as_ref(), needle, limit, until)
}

/// One frame's DOM; names computed share what they read of its labels.
struct Frame {
    frame: u32,
    labels: std::cell::RefCell<Labels>,
}

fn child(node: Node) -> Child<Element, CharacterData> {
    match node.node_type() {
        Node::ELEMENT_NODE => Child::Element(node.unchecked_into()),
        Node::TEXT_NODE => Child::Text(node.unchecked_into()),
        _ => Child::Other,
    }
}

impl walk::Page for Frame {
    type Element = Element;
    type Text = CharacterData;

    fn tag(&self, el: &Element) -> String {
        dom::local_name(el)
    }
    fn showing(&self, el: &Element) -> Showing {
        showing(el)
    }
    fn has_hidden_attribute(&self, el: &Element) -> bool {
        super::dom::has_hidden_attribute(el)
    }
    fn is_open(&self, details: &Element) -> bool {
        super::dom::has_attribute(details, "open")
    }
    fn frame_id(&self, iframe: &Element) -> Option<u64> {
        frame_id_of(iframe)
    }
    /// Read through the page's native getters ([`Dom`]'s children).
    fn children(&self, el: &Element) -> Vec<Child<Element, CharacterData>> {
        let shadow = el.shadow_root().map(Node::from);
        let children = Dom.children(shadow.as_ref().unwrap_or(el));
        children.into_iter().map(child).collect()
    }
    fn slotted(&self, slot: &Element) -> Vec<Child<Element, CharacterData>> {
        let assigned = names::slotted(slot);
        assigned.iter().map(|n| child(n.unchecked_into())).collect()
    }
    fn data(&self, text: &CharacterData, room: usize) -> (String, bool) {
        let room = room as u32;
        match text.length() <= room {
            true => (text.data(), false),
            false => (text.substring_data(0, room).unwrap_or_default(), true),
        }
    }
    fn parent(&self, text: &CharacterData) -> Option<Element> {
        text.parent_element()
    }
    fn parent_or_host(&self, el: &Element) -> Option<Element> {
        super::dom::composed_parent(el)
    }
    fn role(&self, el: &Element) -> (Option<&'static str>, bool) {
        role_of(el, &dom::local_name(el), true)
    }
    fn element_ref(&self, el: &Element) -> ElementRef {
        ref_for(el, self.frame)
    }
    fn name(&self, el: &Element, how: Named) -> String {
        let labels = &mut self.labels.borrow_mut();
        names::name_as(el, &dom::local_name(el), labels, how)
    }
    fn now_ms(&self) -> f64 {
        web::now_ms()
    }
}
