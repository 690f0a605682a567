//! Naming one element of this frame as a Playwright test names it ([`a11y::pick`] decides how,
//! and which elements its role engine counts): the frame read from the DOM, a root's elements
//! in tree order, then each open shadow root in it, depth first.

use std::cell::RefCell;

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::args::ElementRef;
use claudezilla_protocol::reply::{Found, Locator, Pick};
use wasm_bindgen::JsCast;
use web_sys::{Element, ShadowRoot};

use super::dom::{self, box_less, document, is_visible};
use super::find::{open_roots, query_all_in, ref_for};
use super::names::{self, Labels};
use super::snapshot::{css_path, frame_id_of, role_of};
use crate::a11y::pick::{self, Frame};
use crate::{a11y, web};

/// The element's locator within this frame (alias `frame`, which its refs carry).
pub fn element(el: &Element, frame: u32) -> Result<Box<Locator>, ErrorBody> {
    Ok(located(pick::element(&ThisFrame::read(frame)?, el)?))
}

/// The iframe (or frame) of the child frame `child` (the browser's frame id), by CSS.
pub fn frame(child: u64, frame: u32) -> Result<Box<Locator>, ErrorBody> {
    Ok(located(pick::child_frame(&ThisFrame::read(frame)?, child)?))
}

/// `firefox_find {role, name?}` in this frame ([`pick::found`]).
pub fn find(role: &str, name: Option<&str>, limit: u32, frame: u32) -> Result<Found, ErrorBody> {
    a11y::locator::known_role(role)?;
    let started = web::now_ms();
    let this = ThisFrame::read(frame)?;
    Ok(pick::found(&this, role, name, limit, started))
}

fn located(element: Pick) -> Box<Locator> {
    Box::new(Locator {
        frames: Vec::new(),
        element,
    })
}

/// This frame's document and its open shadow roots, as picking reads them.
struct ThisFrame {
    roots: Vec<web_sys::Node>,
    labels: RefCell<Labels>,
    /// The frame's alias, which its refs carry.
    frame: u32,
}

impl ThisFrame {
    fn read(frame: u32) -> Result<Self, ErrorBody> {
        Ok(Self {
            roots: open_roots(&document()?),
            labels: RefCell::default(),
            frame,
        })
    }
}

impl Frame for ThisFrame {
    type Element = Element;

    fn rendered(&self, el: &Element) -> bool {
        is_visible(el)
    }

    fn box_less(&self, el: &Element) -> bool {
        box_less(el)
    }

    fn aria_hidden_in_tree(&self, el: &Element) -> bool {
        el.closest("[aria-hidden=true]").ok().flatten().is_some()
    }

    fn host(&self, el: &Element) -> Option<Element> {
        let root = el.get_root_node().dyn_into::<ShadowRoot>().ok();
        root.map(|root| root.host())
    }

    fn tag(&self, el: &Element) -> String {
        dom::local_name(el)
    }

    fn attribute(&self, el: &Element, name: &str) -> Option<String> {
        dom::attribute(el, name)
    }

    fn role(&self, el: &Element, tag: &str) -> Option<&'static str> {
        role_of(el, tag, true).0
    }

    fn full_name(&self, el: &Element) -> String {
        names::full_name(el, &dom::local_name(el), &mut self.labels.borrow_mut())
    }

    fn parent(&self, el: &Element) -> Option<Element> {
        el.parent_element().or_else(|| {
            el.parent_node()
                .and_then(|n| n.dyn_into::<ShadowRoot>().ok())
                .map(|root| root.host())
        })
    }

    fn select(&self, selector: &str) -> Vec<Element> {
        let roots = self.roots.iter();
        roots
            .flat_map(|root| query_all_in(root, selector))
            .collect()
    }

    fn matches(&self, el: &Element, selector: &str) -> bool {
        el.matches(selector).unwrap_or(false)
    }

    fn css_path(&self, el: &Element) -> String {
        css_path(el)
    }

    fn frame_id(&self, iframe: &Element) -> Option<u64> {
        frame_id_of(iframe)
    }

    fn element_ref(&self, el: &Element) -> ElementRef {
        ref_for(el, self.frame)
    }

    fn now_ms(&self) -> f64 {
        web::now_ms()
    }
}
