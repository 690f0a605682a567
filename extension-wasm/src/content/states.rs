//! Element states a synthetic pointer and focus do not give: `:hover`, and `:focus`,
//! `:focus-visible`, `:focus-within` in a tab that is not the focused window's active one.
//! Events alone never make the browser match them, so controls that appear on hover (a row's
//! delete button, menus, tooltips) stayed invisible and focus rings never showed. Like
//! DevTools' forced element state, the page's own rules for these states are mirrored onto
//! attributes: we set the hover one on the hovered element and its ancestors until the pointer
//! moves elsewhere, and the shim's focus hook sets the focus ones (`super::focus`).

use std::cell::RefCell;

use js_sys::Reflect;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CssStyleSheet, Element, HtmlStyleElement, MouseEvent, MouseEventInit};

use super::dom::document;

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
/// Rules mirrored at most (a page with more has them cut, and is told).
const MAX_RULES: usize = 2_000;

thread_local! {
    /// The hovered element and its ancestors, innermost first.
    static HOVERED: RefCell<Vec<Element>> = const { RefCell::new(Vec::new()) };
    /// What the page's stylesheets looked like when last mirrored (sheets, rules).
    static MIRRORED: std::cell::Cell<Option<(u32, u32)>> = const { std::cell::Cell::new(None) };
}

/// Applies `:hover` styles to `element` and its ancestors (through shadow hosts); says what it
/// did when something is worth saying (stylesheets it could not read).
pub fn force(element: &Element) -> String {
    let report = mirror();
    MIRRORED.with(|m| m.set(signature()));
    let mut chain = Vec::new();
    let mut at = Some(element.clone());
    while let Some(el) = at {
        let _ = el.set_attribute(ATTR, "");
        at = composed_parent(&el);
        chain.push(el);
    }
    HOVERED.with(|h| *h.borrow_mut() = chain);
    report
}

/// The element's parent in the composed tree: its parent, or its shadow root's host.
pub(in crate::content) fn composed_parent(el: &Element) -> Option<Element> {
    el.parent_element().or_else(|| shadow_host(el))
}

fn shadow_host(el: &Element) -> Option<Element> {
    let root = el.get_root_node();
    Reflect::get(&root, &"host".into())
        .ok()?
        .dyn_into::<Element>()
        .ok()
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
    let now = signature();
    if MIRRORED.with(|m| m.replace(now)) != now {
        mirror();
    }
}

/// How many stylesheets and rules the page has (not counting ours).
fn signature() -> Option<(u32, u32)> {
    let doc = document().ok()?;
    let sheets = doc.style_sheets();
    let mut rules = 0;
    for i in 0..sheets.length() {
        if let Some(sheet) = sheets
            .item(i)
            .and_then(|s| s.dyn_into::<CssStyleSheet>().ok())
            && let Ok(list) = sheet.css_rules()
        {
            rules += list.length();
        }
    }
    let ours = u32::from(doc.get_element_by_id(SHEET_ID).is_some());
    Some((sheets.length() - ours, rules))
}

/// Rebuilds our stylesheet from the page's state rules (the page may have changed them).
fn mirror() -> String {
    let Ok(doc) = document() else {
        return String::new();
    };
    if let Some(old) = doc.get_element_by_id(SHEET_ID) {
        old.remove();
    }
    let mut rules = Vec::new();
    let mut unreadable = 0;
    let sheets = doc.style_sheets();
    for i in 0..sheets.length() {
        let Some(sheet) = sheets
            .item(i)
            .and_then(|s| s.dyn_into::<CssStyleSheet>().ok())
        else {
            continue;
        };
        match sheet.css_rules() {
            Ok(list) => collect(&list.into(), &mut rules),
            Err(_) => unreadable += 1,
        }
    }
    let cut = rules.len() > MAX_RULES;
    rules.truncate(MAX_RULES);
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
            for rule in &rules {
                let at = sheet.css_rules().map(|l| l.length()).unwrap_or(0);
                let _ = sheet.insert_rule_with_index(rule, at);
            }
        }
    }
    let mut notes = Vec::new();
    if unreadable > 0 {
        notes.push(format!(
            "{unreadable} stylesheet(s) could not be read (cross-origin): their :hover styles are not shown"
        ));
    }
    if cut {
        notes.push(format!(
            "only the first {MAX_RULES} :hover and :focus rules are applied"
        ));
    }
    if notes.is_empty() {
        String::new()
    } else {
        format!("; {}", notes.join("; "))
    }
}

/// The `:hover` rules of a rule list (nested in `@media`, `@supports`, … that apply now),
/// rewritten onto the attribute.
fn collect(list: &JsValue, out: &mut Vec<String>) {
    let len = Reflect::get(list, &"length".into())
        .ok()
        .and_then(|l| l.as_f64())
        .unwrap_or(0.0) as u32;
    for i in 0..len {
        if out.len() > MAX_RULES {
            return;
        }
        let Ok(rule) = Reflect::get(list, &i.into()) else {
            continue;
        };
        let selector = Reflect::get(&rule, &"selectorText".into())
            .ok()
            .and_then(|s| s.as_string());
        match selector {
            Some(selector) if selector.contains(":hover") || selector.contains(":focus") => {
                let text = Reflect::get(&rule, &"cssText".into())
                    .ok()
                    .and_then(|t| t.as_string())
                    .unwrap_or_default();
                if let Some(mirrored) = crate::text::mirror_states(&text, &STATES) {
                    out.push(mirrored);
                }
            }
            Some(_) => {}
            None => {
                // A group rule: an @media one counts when it matches now (@supports, @layer
                // and the like are taken as they are).
                let is_media =
                    Reflect::get(&rule, &"media".into()).is_ok_and(|m| !m.is_undefined());
                let applies = !is_media
                    || Reflect::get(&rule, &"conditionText".into())
                        .ok()
                        .and_then(|c| c.as_string())
                        .is_none_or(|c| media_matches(&c));
                if let Ok(children) = Reflect::get(&rule, &"cssRules".into())
                    && applies
                    && !children.is_undefined()
                {
                    collect(&children, out);
                }
            }
        }
    }
}

fn media_matches(condition: &str) -> bool {
    web_sys::window()
        .and_then(|w| w.match_media(condition).ok().flatten())
        .is_none_or(|m| m.matches())
}
