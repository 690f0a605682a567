//! A link the agent clicks that opens a new tab. Firefox's popup blocker refuses a new tab to
//! a synthetic click (it carries no user activation), silently. So while the click runs, a
//! listener on the window — after the page's own handlers — stops the click's default when
//! the page left it alone, and keeps the address; the background opens it as the agent's tab.

use std::cell::RefCell;
use std::rc::Rc;

use claudezilla_protocol::args::MouseButton;
use claudezilla_protocol::keys::Modifiers;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Element, Event, HtmlAnchorElement, HtmlAreaElement};

use crate::backstop::Armed;
use crate::input_plan::{self, Link};
use crate::pointer_press::Caught;

/// Longest link address opened for the agent (longer ones are left to the page).
const MAX_ADDRESS: usize = 8 * 1024;

/// Armed for one click; disarmed when dropped.
pub struct NewTabCatch {
    _listening: Armed,
    taken: Rc<RefCell<Option<String>>>,
}

impl NewTabCatch {
    /// Armed when a click on `target` (or the link it is in) would open a new tab.
    pub fn arm(target: &Element, button: MouseButton, modifiers: Modifiers) -> Option<Self> {
        let link = target.closest("a[href], area[href]").ok().flatten()?;
        // A page's absurdly long address is left to the page: answers stay bounded.
        let href = address(&link).filter(|h| h.len() <= MAX_ADDRESS)?;
        let target_attr = link.get_attribute("target");
        let facts = Link {
            target: target_attr.as_deref(),
            download: link.has_attribute("download"),
            address: &href,
        };
        if !input_plan::opens_new_tab(facts, button, modifiers) {
            return None;
        }
        let kind = input_plan::default_event(button);
        let taken = Rc::new(RefCell::new(None));
        let keep = taken.clone();
        let listener = Closure::<dyn FnMut(Event)>::new(move |e: Event| {
            if !e.default_prevented() {
                e.prevent_default();
                *keep.borrow_mut() = Some(href.clone());
            }
        });
        let window = web_sys::window()?;
        window
            .add_event_listener_with_callback(kind, listener.as_ref().unchecked_ref())
            .ok()?;
        let listening = Armed::new(move || {
            let callback = listener.as_ref().unchecked_ref();
            let _ = window.remove_event_listener_with_callback(kind, callback);
        });
        Some(Self {
            _listening: listening,
            taken,
        })
    }
}

impl Caught for NewTabCatch {
    fn taken(&self) -> Option<String> {
        self.taken.borrow().clone()
    }
}

/// The link's resolved address.
fn address(link: &Element) -> Option<String> {
    if let Some(a) = link.dyn_ref::<HtmlAnchorElement>() {
        return Some(a.href());
    }
    link.dyn_ref::<HtmlAreaElement>().map(HtmlAreaElement::href)
}
