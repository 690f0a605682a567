//! Finding elements: by CSS selector (the document, then open shadow roots) or by snapshot ref,
//! waiting for them until the request's deadline; clear errors with "did you mean" suggestions.

use std::cell::RefCell;

use claudezilla_protocol::args::{ElementRef, FrameTarget};
use claudezilla_protocol::{ErrorBody, ErrorCode};
use wasm_bindgen::JsValue;
use web_sys::{Document, Element, Node};

pub use super::dom::query_all_in;
use super::dom::{Dom, document};
use crate::composed;
use crate::lookup::{self, Candidate, Targets, Watch};
use crate::web;

thread_local! {
    /// Elements handed out as refs in this frame: index → element. Kept until the page goes.
    static REFS: RefCell<Vec<Element>> = const { RefCell::new(Vec::new()) };
    /// element → index, so an element keeps its ref across snapshots.
    static INDEX: js_sys::WeakMap = js_sys::WeakMap::new();
}

/// The ref of `element` in this frame, handing out a new one on first sight.
pub fn ref_for(element: &Element, frame: u32) -> ElementRef {
    let known = INDEX.with(|m| m.get(element)).as_f64();
    let index = match known {
        Some(i) => i as u32,
        None => REFS.with(|r| {
            let mut r = r.borrow_mut();
            r.push(element.clone());
            let i = r.len() as u32;
            INDEX.with(|m| m.set(element, &JsValue::from(i)));
            i
        }),
    };
    ElementRef { frame, index }
}

/// The first element matching `selector` in the document or any open shadow root.
pub fn query(selector: &str) -> Result<Option<Element>, ErrorBody> {
    let doc = document()?;
    let found = doc
        .query_selector(selector)
        .map_err(|e| invalid(selector, &e))?;
    if found.is_some() {
        return Ok(found);
    }
    Ok(open_roots(&doc)
        .iter()
        .skip(1)
        .find_map(|root| query_all_in(root, selector).into_iter().next()))
}

/// Open shadow roots visited in one frame at most (a page can make any number).
const MAX_ROOTS: usize = 10_000;

/// The document and every open shadow root in it, nested ones too, the document first, in the
/// order Playwright's engines query them ([`composed::open_roots`]).
pub fn open_roots(doc: &Document) -> Vec<Node> {
    composed::open_roots(&Dom, doc.clone().into(), MAX_ROOTS)
}

fn invalid(selector: &str, e: &JsValue) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::InvalidArgument,
        format!(
            "selector {selector:?} is not valid CSS: {}",
            web::js_error_message(e)
        ),
    )
}

/// The target in this frame (alias `frame`, which names its refs in messages) now, or an
/// error (no waiting; [`lookup::resolve`]).
pub fn resolve(target: &FrameTarget, frame: u32) -> Result<Element, ErrorBody> {
    lookup::resolve(&ThisFrame, target, frame)
}

/// The target, waiting for a selector to match until `until` (ms since the epoch).
pub async fn wait_for(target: &FrameTarget, frame: u32, until: u64) -> Result<Element, ErrorBody> {
    lookup::wait_for(&ThisFrame, target, frame, until).await
}

/// The frame as a wait watches it (looked at again at its next change) and as a target finds
/// its elements.
pub struct ThisFrame;

impl Watch for ThisFrame {
    fn now_ms(&self) -> f64 {
        web::now_ms()
    }

    fn next_change(&self, until: u64) -> impl Future<Output = ()> {
        super::changes::next_change(until)
    }
}

impl Targets for ThisFrame {
    type Element = Element;

    fn query(&self, selector: &str) -> Result<Option<Element>, ErrorBody> {
        query(selector)
    }

    fn known(&self, index: u32) -> Option<Element> {
        let at = (index as usize).wrapping_sub(1);
        REFS.with(|refs| refs.borrow().get(at).cloned())
    }

    fn connected(&self, el: &Element) -> bool {
        el.is_connected()
    }

    fn candidates(&self) -> Vec<String> {
        let all = document().map(|d| super::dom::matching(&d, lookup::CANDIDATES));
        let Ok(Ok(all)) = all else {
            return Vec::new();
        };
        let elements = all.map(|el| Candidate {
            tag: el.local_name(),
            id: el.id(),
            name: el.get_attribute("name"),
            // The attribute, not `className`: an SVG element's is an object, no string.
            class: super::dom::attribute(&el, "class").unwrap_or_default(),
        });
        lookup::candidates(elements)
    }
}

/// "No element matches" with up to 5 selectors the page does have that look alike.
pub fn not_found(selector: &str, waited: Option<u32>) -> ErrorBody {
    lookup::not_found(selector, waited, &ThisFrame.candidates())
}

/// Short description for answers: `button#save.primary "Save"` ([`page_names::describe`]).
pub fn describe(element: &Element) -> String {
    crate::page_names::describe(&Dom, element.as_ref())
}
