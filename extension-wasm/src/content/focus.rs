//! Focus in an agent's tab as a user's click gives it. The tab is not the focused window's
//! active one, so Firefox fires no focus events there and `document.hasFocus()` is false; the
//! shim's `hookFocus` (page world) makes the page's own `focus()`/`blur()` and ours fire them,
//! in order and with their `relatedTarget`, and marks the focused element for the mirrored
//! `:focus` styles (`super::states`). Installed in agent tabs only, undone when the tab is
//! given back to the user.

use std::cell::RefCell;

use js_sys::{Function, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlElement};

use super::dom::document;
use super::states::{FOCUS, FOCUS_VISIBLE, FOCUS_WITHIN};

thread_local! {
    /// The shim's `hookFocus`.
    static HOOK: RefCell<Option<Function>> = const { RefCell::new(None) };
    /// What it returned while installed: `{focus(el, keyboard), undo()}`.
    static INSTALLED: RefCell<Option<JsValue>> = const { RefCell::new(None) };
}

/// Keeps the shim's hook and installs it.
pub fn set_hook(hook: Function) {
    HOOK.with(|h| *h.borrow_mut() = Some(hook));
    install();
}

/// Takes over the page's focus (again, after the tab was given back and attached anew).
pub fn install() {
    if INSTALLED.with(|i| i.borrow().is_some()) {
        return;
    }
    let Some(hook) = HOOK.with(|h| h.borrow().clone()) else {
        return;
    };
    let marks = Object::new();
    for (name, attr) in [
        ("focus", FOCUS),
        ("visible", FOCUS_VISIBLE),
        ("within", FOCUS_WITHIN),
    ] {
        let _ = Reflect::set(&marks, &name.into(), &attr.into());
    }
    match hook.call1(&JsValue::NULL, &marks) {
        Ok(api) => INSTALLED.with(|i| *i.borrow_mut() = Some(api)),
        Err(e) => crate::web::log(&format!(
            "focus emulation unavailable: {}",
            crate::web::js_error_message(&e)
        )),
    }
}

/// Gives the page its own focus back (the tab goes back to the user).
pub fn uninstall() {
    if let Some(api) = INSTALLED.with(|i| i.borrow_mut().take()) {
        let _ = call(&api, "undo", &[]);
    }
}

fn call(api: &JsValue, name: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
    let f: Function = Reflect::get(api, &name.into())?.dyn_into()?;
    f.apply(api, &args.iter().collect())
}

/// Moves focus to `element` as a user does (by the pointer, or by the keyboard: then
/// `:focus-visible` applies to any element, not only text fields).
pub fn focus(element: &Element, keyboard: bool) {
    super::states::refresh();
    let installed = INSTALLED.with(|i| i.borrow().clone());
    match installed {
        Some(api) => {
            let _ = call(&api, "focus", &[element.into(), keyboard.into()]);
        }
        None => {
            if let Some(html) = element.dyn_ref::<HtmlElement>() {
                let _ = html.focus();
            }
        }
    }
}

/// Takes focus from whatever has it (a press of the pointer where nothing can take it).
pub fn blur() {
    let installed = INSTALLED.with(|i| i.borrow().clone());
    match installed {
        Some(api) => {
            let _ = call(&api, "focus", &[JsValue::NULL, false.into()]);
        }
        None => {
            if let Some(html) = active().and_then(|a| a.dyn_into::<HtmlElement>().ok()) {
                let _ = html.blur();
            }
        }
    }
}

/// The focused element, inside open shadow roots too (`document.activeElement` is only the
/// outermost host).
pub fn active() -> Option<Element> {
    let mut at = document().ok()?.active_element()?;
    while let Some(inner) = at.shadow_root().and_then(|r| r.active_element()) {
        at = inner;
    }
    Some(at)
}
