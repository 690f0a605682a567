//! Element states a synthetic pointer and focus do not give: `:hover`, and `:focus`,
//! `:focus-visible`, `:focus-within` in a tab that is not the focused window's active one.
//! Events alone never make the browser match them, so controls that appear on hover (a row's
//! delete button, menus, tooltips) stayed invisible and focus rings never showed. Like
//! DevTools' forced element state, the page's own rules for these states are mirrored onto
//! attributes: we set the hover one on the hovered element and its ancestors until the pointer
//! moves elsewhere, and the shim's focus hook sets the focus ones (`super::focus`).

use std::cell::{Cell, RefCell};

use wasm_bindgen::JsCast;
use web_sys::{CssStyleSheet, Element, HtmlStyleElement, MouseEvent, MouseEventInit};

use super::dom::{self, document};
use super::style_sheets::PageSheets;
use crate::style_rules::{self, Mirroring, StateSheet};

/// The attribute standing in for `:hover`.
const ATTR: &str = "data-claudezilla-hover";
/// The attributes standing in for the focus states.
pub const FOCUS: &str = "data-claudezilla-focus";
pub const FOCUS_VISIBLE: &str = "data-claudezilla-focus-visible";
pub const FOCUS_WITHIN: &str = "data-claudezilla-focus-within";
/// Each mirrored pseudo-class and its attribute.
const STATES: [(&str, &str); 4] = [
    ("hover", ATTR),
    ("focus", FOCUS),
    ("focus-visible", FOCUS_VISIBLE),
    ("focus-within", FOCUS_WITHIN),
];
/// Our stylesheet's id, so it is never mirrored itself.
const SHEET_ID: &str = "claudezilla-state-rules";

thread_local! {
    /// The hovered element and its ancestors, innermost first.
    static HOVERED: RefCell<Vec<Element>> = const { RefCell::new(Vec::new()) };
    /// When our sheet was last rebuilt ([`style_rules::Mirroring`]).
    static MIRRORED: Cell<Mirroring> = Cell::default();
}

/// Applies `:hover` styles to `element` and its ancestors (through shadow hosts); says what it
/// did when something is worth saying (stylesheets it could not read).
pub fn force(element: &Element) -> String {
    let report = mirroring(|m| m.force(&Ours));
    let mut chain = Vec::new();
    let mut at = Some(element.clone());
    while let Some(el) = at {
        let _ = el.set_attribute(ATTR, "");
        at = dom::composed_parent(&el);
        chain.push(el);
    }
    HOVERED.with(|h| *h.borrow_mut() = chain);
    report
}

/// The pointer leaves what it hovered: out/leave events, and the forced `:hover` removed.
pub fn leave() {
    let chain = HOVERED.with(|h| std::mem::take(&mut *h.borrow_mut()));
    if let Some(inner) = chain.first() {
        for kind in ["pointerout", "mouseout", "pointerleave", "mouseleave"] {
            let init = MouseEventInit::new();
            let shape = crate::input_plan::event_shape(kind);
            init.set_bubbles(shape.bubbles);
            init.set_cancelable(shape.cancelable);
            init.set_composed(true);
            if let Ok(e) = MouseEvent::new_with_mouse_event_init_dict(kind, &init) {
                let _ = inner.dispatch_event(&e);
            }
        }
    }
    for el in chain {
        let _ = el.remove_attribute(ATTR);
    }
}

/// Mirrors the page's state rules again if its stylesheets changed since the last time (a
/// count of sheets and rules: cheap enough for every action).
pub fn refresh() {
    mirroring(|m| m.refresh(&Ours));
}

/// `f` given when our sheet was last rebuilt, taken out meanwhile (`f` calls into the page).
fn mirroring<T>(f: impl FnOnce(&mut Mirroring) -> T) -> T {
    let mut mirroring = MIRRORED.take();
    let out = f(&mut mirroring);
    MIRRORED.set(mirroring);
    out
}

/// Our stylesheet of the page's state rules, in this frame's document.
struct Ours;

impl StateSheet for Ours {
    fn signature(&self) -> Option<(usize, u32)> {
        let doc = document().ok()?;
        let ours = || doc.get_element_by_id(SHEET_ID).is_some();
        Some(style_rules::signature(&PageSheets, ours))
    }

    fn mirror(&self) -> String {
        mirror()
    }
}

/// Rebuilds our stylesheet from the page's state rules (the page may have changed them).
fn mirror() -> String {
    let Ok(doc) = document() else {
        return String::new();
    };
    if let Some(old) = doc.get_element_by_id(SHEET_ID) {
        old.remove();
    }
    let read = style_rules::mirrored(&PageSheets, &STATES);
    let rules = &read.rules;
    if !rules.is_empty()
        && let Ok(style) = doc.create_element("style")
    {
        style.set_id(SHEET_ID);
        let parent = doc
            .query_selector("head")
            .ok()
            .flatten()
            .or_else(|| doc.document_element());
        if let Some(parent) = parent
            && parent.append_child(&style).is_ok()
            && let Some(sheet) = style
                .dyn_ref::<HtmlStyleElement>()
                .and_then(HtmlStyleElement::sheet)
                .and_then(|s| s.dyn_into::<CssStyleSheet>().ok())
        {
            // The CSS object model, not inline text: a page's CSP does not stop it.
            for rule in rules {
                let at = sheet.css_rules().map(|l| l.length()).unwrap_or(0);
                let _ = sheet.insert_rule_with_index(rule, at);
            }
        }
    }
    read.note()
}
