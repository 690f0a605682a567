//! Naming one element of this frame as a Playwright test names it ([`a11y::pick`] decides how,
//! and which elements its role engine counts): the frame read from the DOM, a root's elements
//! in tree order, then each open shadow root in it, depth first.

use std::cell::RefCell;

use claudezilla_protocol::reply::{Found, FoundMatch, Locator, Pick, Searched};
use claudezilla_protocol::{ErrorBody, ErrorCode};
use wasm_bindgen::JsCast;
use web_sys::{Element, ShadowRoot};

use super::dom::{self, box_less, document, is_visible};
use super::find::{open_roots, query_all_in, ref_for};
use super::names::{self, Labels};
use super::snapshot::{child_frames, css_path, frame_id_of, role_of};
use crate::a11y::pick::{self, Frame};
use crate::{a11y, web};

/// The element's locator within this frame.
pub fn element(el: &Element) -> Result<Box<Locator>, ErrorBody> {
    Ok(located(pick::element(&ThisFrame::read()?, el)?))
}

/// The iframe (or frame) of the child frame `child` (the browser's frame id), by CSS.
pub fn frame(child: u64) -> Result<Box<Locator>, ErrorBody> {
    let this = ThisFrame::read()?;
    let iframes = this.select("iframe, frame");
    let iframe = iframes
        .iter()
        .find(|f| frame_id_of(f) == Some(child))
        .ok_or_else(|| {
            ErrorBody::new(
                ErrorCode::ElementNotFound,
                "the frame's iframe left the page",
            )
            .with_hint("call firefox_snapshot again")
        })?;
    Ok(located(pick::iframe(&this, &iframes, iframe)))
}

/// `firefox_find {role, name?}` in this frame: the elements Playwright's `getByRole` finds
/// (the same ones a locator is counted among), in its order, `limit` listed with their refs;
/// and the child frames, for the background to search next.
pub fn find(role: &str, name: Option<&str>, limit: u32, frame: u32) -> Result<Found, ErrorBody> {
    a11y::locator::known_role(role)?;
    let started = web::now_ms();
    let doc = document()?;
    let (found, total) = pick::by_role_and_name(&ThisFrame::read()?, role, name, limit as usize);
    let matches = found
        .into_iter()
        .map(|(el, name)| FoundMatch {
            element_ref: ref_for(&el, frame),
            role: role.to_owned(),
            name: a11y::clean(&name, 80),
            context: String::new(),
        })
        .collect();
    Ok(Found {
        matches,
        total,
        frames: child_frames(&doc),
        searched: Searched {
            chars: 0,
            frames: 1,
            ms: (web::now_ms() - started) as u32,
            stopped: None,
        },
    })
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
}

impl ThisFrame {
    fn read() -> Result<Self, ErrorBody> {
        Ok(Self {
            roots: open_roots(&document()?),
            labels: RefCell::default(),
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
        el.local_name()
    }

    fn attribute(&self, el: &Element, name: &str) -> Option<String> {
        dom::attribute(el, name)
    }

    fn role(&self, el: &Element, tag: &str) -> Option<&'static str> {
        role_of(el, tag, true).0
    }

    fn full_name(&self, el: &Element) -> String {
        names::full_name(el, &el.local_name(), &mut self.labels.borrow_mut())
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
}
