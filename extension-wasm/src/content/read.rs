//! Reading the page: text, Markdown or HTML; one element in detail; a structured page state;
//! waiting for something to appear.

use claudezilla_protocol::reply;
use std::cell::RefCell;

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::args::ContentFormat;
use claudezilla_protocol::args::ElementRef;
use claudezilla_protocol::envelope::PageLimits;
use claudezilla_protocol::reply::{ElementInfo, PageContent, PageState};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{
    Element, HtmlAnchorElement, HtmlElement, HtmlInputElement, HtmlSelectElement,
    HtmlTextAreaElement, Node,
};

use super::dom::{self, Dom, document, is_visible as check_visibility};
use super::find::{self, describe, ref_for};
use crate::composed::Tree;
use crate::lookup::{self, Awaited};
use crate::markdown::{self, Shown};
use crate::page_content;
use crate::page_state;
use crate::showing::Showing;

thread_local! {
    /// The page's last uncaught errors (for the page state).
    static ERRORS: RefCell<page_state::Errors> = const { RefCell::new(page_state::Errors::new()) };
    /// The shim's `hidden(root)`: the composed-tree paths to shadow hosts and frames.
    static HIDDEN: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
}

pub fn set_hidden(f: js_sys::Function) {
    HIDDEN.with(|h| *h.borrow_mut() = Some(f));
}

/// Every element on a path from `root` to a shadow host or a frame (empty: plain DOM, which
/// `innerText` reads whole).
fn hidden_paths(root: &Element) -> js_sys::Set {
    HIDDEN
        .with(|h| h.borrow().clone())
        .and_then(|f| f.call1(&JsValue::NULL, root).ok())
        .and_then(|s| s.dyn_into::<js_sys::Set>().ok())
        .unwrap_or_else(|| js_sys::Set::new(&JsValue::UNDEFINED))
}

pub fn record_error(message: &str) {
    ERRORS.with(|e| e.borrow_mut().record(message));
}

pub fn get_content(
    selector: Option<&str>,
    max_length: u32,
    format: ContentFormat,
) -> Result<PageContent, ErrorBody> {
    let page = Page { doc: document()? };
    page_content::content(&page, selector, max_length, format)
}

/// The page as the Markdown walk ([`markdown::Walk`]) and a read of its content see it.
struct Page {
    doc: web_sys::Document,
}

fn shown(node: Node) -> Shown<Element> {
    match dom::node_type(&node) {
        Node::TEXT_NODE => Shown::Text(dom::text(&node).unwrap_or_default()),
        Node::ELEMENT_NODE => Shown::Element(node.unchecked_into()),
        _ => Shown::Other,
    }
}

impl markdown::Source for Page {
    type Element = Element;

    fn tag(&self, el: &Element) -> String {
        dom::local_name(el)
    }
    fn has_attribute(&self, el: &Element, name: &str) -> bool {
        dom::has_attribute(el, name)
    }
    fn attribute(&self, el: &Element, name: &str) -> Option<String> {
        dom::attribute(el, name)
    }
    fn child_element_count(&self, el: &Element) -> u32 {
        dom::child_element_count(el)
    }
    fn text_content(&self, el: &Element) -> String {
        dom::text(el).unwrap_or_default()
    }
    fn inner_text(&self, el: &Element) -> Option<String> {
        el.dyn_ref::<HtmlElement>().map(HtmlElement::inner_text)
    }
    fn href(&self, el: &Element) -> Option<String> {
        el.dyn_ref::<HtmlAnchorElement>()
            .map(HtmlAnchorElement::href)
    }
    fn showing(&self, el: &Element) -> Showing {
        dom::showing(el)
    }
    fn children(&self, el: &Element, read_shadow: bool) -> Vec<Shown<Element>> {
        let shadow = read_shadow.then(|| Dom.shadow_root(el)).flatten();
        let children = Dom.children(shadow.as_ref().unwrap_or(el));
        children.into_iter().map(shown).collect()
    }
    fn child_elements(&self, el: &Element) -> Vec<Element> {
        let mut out = Vec::new();
        let mut child = el.first_element_child();
        while let Some(c) = child {
            child = c.next_element_sibling();
            out.push(c);
        }
        out
    }
    fn slotted(&self, slot: &Element) -> Vec<Shown<Element>> {
        let assigned = super::names::slotted(slot);
        assigned.iter().map(|n| shown(n.unchecked_into())).collect()
    }
    fn frame_id(&self, iframe: &Element) -> Option<u64> {
        super::snapshot::frame_id_of(iframe)
    }
}

impl page_content::Document for Page {
    type Paths = js_sys::Set;

    fn query(&self, selector: &str) -> Result<Option<Element>, ErrorBody> {
        find::query(selector)
    }
    fn not_found(&self, selector: &str) -> ErrorBody {
        find::not_found(selector, None)
    }
    fn body(&self) -> Option<Element> {
        self.doc.body().map(Element::from)
    }
    fn document_element(&self) -> Option<Element> {
        self.doc.document_element()
    }
    fn hidden_paths(&self, root: &Element) -> js_sys::Set {
        hidden_paths(root)
    }
    fn is_on(&self, paths: &js_sys::Set, el: &Element) -> bool {
        paths.has(el)
    }
    fn none_on(&self, paths: &js_sys::Set) -> bool {
        paths.size() == 0
    }
    fn has_hidden_attribute(&self, el: &Element) -> bool {
        dom::has_hidden_attribute(el)
    }
    fn outer_html(&self, el: &Element) -> String {
        el.outer_html()
    }
    fn url(&self) -> String {
        self.doc.url().unwrap_or_default()
    }
    fn title(&self) -> String {
        self.doc.title()
    }
}

pub fn get_element(el: &Element, frame: u32) -> Result<Box<ElementInfo>, ErrorBody> {
    Ok(Box::new(page_content::element(&Inspect { frame }, el)))
}

/// One element as `firefox_get_element` reads it.
struct Inspect {
    frame: u32,
}

impl page_content::Inspected for Inspect {
    type Element = Element;

    fn attributes(&self, el: &Element, first: u32) -> Vec<(String, String)> {
        let attrs = el.attributes();
        (0..attrs.length().min(first))
            .filter_map(|i| attrs.item(i))
            .map(|a| (a.name(), a.value()))
            .collect()
    }
    fn rect(&self, el: &Element) -> [f64; 4] {
        let r = el.get_bounding_client_rect();
        [r.x(), r.y(), r.width(), r.height()]
    }
    fn styles(&self, el: &Element, properties: &[&str]) -> Option<Vec<String>> {
        let style = web_sys::window()?.get_computed_style(el).ok()??;
        let value = |p: &&str| style.get_property_value(p).unwrap_or_default();
        Some(properties.iter().map(value).collect())
    }
    fn value(&self, el: &Element) -> Option<String> {
        el.dyn_ref::<HtmlInputElement>()
            .map(HtmlInputElement::value)
            .or_else(|| {
                el.dyn_ref::<HtmlTextAreaElement>()
                    .map(HtmlTextAreaElement::value)
            })
            .or_else(|| {
                el.dyn_ref::<HtmlSelectElement>()
                    .map(HtmlSelectElement::value)
            })
    }
    fn held(&self, el: &Element) -> Option<String> {
        super::secrets::held(el)
    }
    fn text(&self, el: &Element) -> String {
        el.dyn_ref::<HtmlElement>()
            .map(HtmlElement::inner_text)
            .unwrap_or_else(|| el.text_content().unwrap_or_default())
    }
    fn tag(&self, el: &Element) -> String {
        el.local_name()
    }
    fn visible(&self, el: &Element) -> bool {
        check_visibility(el)
    }
    fn described(&self, el: &Element) -> (String, String) {
        (describe(el), ref_for(el, self.frame).to_string())
    }
}

/// Headings, links, buttons, inputs, images, landmarks, counts and recent errors; the actionable
/// entries carry refs ([`page_state::outline`]).
pub fn page_state(frame: u32, limits: PageLimits) -> Result<Box<PageState>, ErrorBody> {
    let page = Outline {
        doc: document()?,
        frame,
    };
    let errors = ERRORS.with(|e| e.borrow().list());
    Ok(Box::new(page_state::outline(&page, limits, errors)))
}

/// The frame's document as the outline reads it.
struct Outline {
    doc: web_sys::Document,
    frame: u32,
}

impl page_state::Page for Outline {
    type Element = Element;

    fn url(&self) -> String {
        self.doc.url().unwrap_or_default()
    }
    fn title(&self) -> String {
        self.doc.title()
    }
    fn each(&self, selector: &str, f: &mut dyn FnMut(&Element)) -> u32 {
        let all = dom::matching(&self.doc, selector).into_iter().flatten();
        all.inspect(|el| f(el)).count() as u32
    }
    fn tag(&self, el: &Element) -> String {
        el.local_name()
    }
    fn text(&self, el: &Element) -> String {
        el.text_content().unwrap_or_default()
    }
    fn visible(&self, el: &Element) -> bool {
        check_visibility(el)
    }
    fn href(&self, el: &Element) -> Option<String> {
        el.dyn_ref::<HtmlAnchorElement>()
            .map(HtmlAnchorElement::href)
    }
    fn attribute(&self, el: &Element, name: &str) -> Option<String> {
        el.get_attribute(name)
    }
    fn describe(&self, el: &Element) -> String {
        describe(el)
    }
    fn element_ref(&self, el: &Element) -> ElementRef {
        ref_for(el, self.frame)
    }
}

/// Waits until `selector` matches or the page's text contains `text`.
pub async fn wait_for(
    selector: Option<&str>,
    text: Option<&str>,
    until: u64,
) -> Result<reply::Waited, ErrorBody> {
    let awaited = Awaited::of(selector, text);
    let met = || {
        let found = |s: &str| Ok(find::query(s)?.is_some());
        let body = || Ok(document()?.body().map(|b| b.inner_text()));
        awaited.met(found, body)
    };
    lookup::waited(awaited, lookup::wait(&find::ThisFrame, until, met).await?)
}
