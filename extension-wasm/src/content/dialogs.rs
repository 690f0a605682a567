//! Dialogs: the page's alert, confirm and prompt are replaced (in the page's own world) by
//! versions that never block — they record the dialog and answer by the current policy, which
//! `firefox_handle_dialog` sets. By default alerts are acknowledged and confirm/prompt dismissed.

use std::cell::RefCell;

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::reply::DialogReport;
use wasm_bindgen::prelude::*;

use crate::content::page_world;
use crate::dialog_policy::{Dialog, DialogPolicy};
use crate::page_value::prompt_default;

thread_local! {
    static POLICY: RefCell<DialogPolicy> = RefCell::new(DialogPolicy::default());
    /// The page's own alert, confirm and prompt while ours stand in for them.
    static ORIGINALS: RefCell<Option<Vec<(&'static str, JsValue)>>> = const { RefCell::new(None) };
}

fn with_policy<T>(f: impl FnOnce(&mut DialogPolicy) -> T) -> T {
    POLICY.with(|p| f(&mut p.borrow_mut()))
}

/// The dialogs the agent has not heard of yet, to add to the current answer.
pub fn untold() -> Vec<String> {
    with_policy(DialogPolicy::untold)
}

/// A dialog `early.js` answered while the page loaded (its kind as the page named it).
pub fn answered_early(kind: &str, message: &str) {
    if let Some(kind) = Dialog::named(kind) {
        with_policy(|p| p.answered_early(kind, message));
    }
}

/// Replaces the page's dialog functions (when the content script starts, and again if the tab
/// is driven again after being given back).
pub fn install() {
    if ORIGINALS.with(|o| o.borrow().is_some()) {
        return;
    }
    let Some(page) = page_world::global() else {
        return;
    };
    let originals = Dialog::ALL
        .iter()
        .map(|d| {
            let name = d.name();
            (
                name,
                js_sys::Reflect::get(&page, &name.into()).unwrap_or_default(),
            )
        })
        .collect();
    ORIGINALS.with(|o| *o.borrow_mut() = Some(originals));
    let text = |m: &JsValue| m.as_string().unwrap_or_default();
    let alert =
        Closure::<dyn Fn(JsValue)>::new(move |m: JsValue| with_policy(|p| p.alert(&text(&m))));
    let confirm = Closure::<dyn Fn(JsValue) -> bool>::new(move |m: JsValue| {
        with_policy(|p| p.confirm(&text(&m)))
    });
    let prompt =
        Closure::<dyn Fn(JsValue, JsValue) -> JsValue>::new(move |m: JsValue, default: JsValue| {
            with_policy(|p| p.prompt(&text(&m), prompt_default(&default)))
                .map_or(JsValue::NULL, JsValue::from)
        });
    for (dialog, f) in [
        (Dialog::Alert, alert.as_ref()),
        (Dialog::Confirm, confirm.as_ref()),
        (Dialog::Prompt, prompt.as_ref()),
    ] {
        let _ = page_world::export_as(f.unchecked_ref(), &page, dialog.name());
    }
    alert.forget();
    confirm.forget();
    prompt.forget();
}

/// Puts the page's own dialogs back and forgets the policy: the user's `confirm()` is never
/// answered by an agent that has given the tab back.
pub fn uninstall() {
    let Some(originals) = ORIGINALS.with(|o| o.borrow_mut().take()) else {
        return;
    };
    if let Some(page) = page_world::global() {
        for (name, original) in originals {
            let _ = js_sys::Reflect::set(&page, &name.into(), &original);
        }
    }
    with_policy(|p| *p = DialogPolicy::default());
}

pub fn handle(accept: bool, prompt_text: Option<String>) -> Result<DialogReport, ErrorBody> {
    Ok(with_policy(|p| p.set(accept, prompt_text)))
}
