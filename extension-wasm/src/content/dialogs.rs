//! Dialogs: the page's alert, confirm and prompt are replaced (in the page's own world) by
//! versions that never block — they record the dialog and answer by the current policy, which
//! `firefox_handle_dialog` sets. By default alerts are acknowledged and confirm/prompt dismissed.

use std::cell::RefCell;

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::reply::DialogReport;
use wasm_bindgen::prelude::*;

use crate::a11y::clean;
use crate::content::page_world;

struct Policy {
    accept: bool,
    prompt_text: Option<String>,
    seen: Vec<String>,
    /// Dialogs not yet told to the agent in an answer.
    untold: Vec<String>,
}

thread_local! {
    static POLICY: RefCell<Policy> = const { RefCell::new(Policy { accept: false, prompt_text: None, seen: Vec::new(), untold: Vec::new() }) };
    /// The page's own alert, confirm and prompt while ours stand in for them.
    static ORIGINALS: RefCell<Option<Vec<(&'static str, JsValue)>>> = const { RefCell::new(None) };
}

const NAMES: [&str; 3] = ["alert", "confirm", "prompt"];

pub fn note(kind: &str, message: &JsValue, answer: &str) {
    let message = clean(&message.as_string().unwrap_or_default(), 200);
    POLICY.with(|p| {
        let mut p = p.borrow_mut();
        p.seen.push(format!("{kind}({message:?}) → {answer}"));
        let len = p.seen.len();
        if len > 20 {
            p.seen.drain(..len - 20);
        }
        let how = if kind == "alert" {
            String::new()
        } else {
            let other = if p.accept { "false" } else { "true" };
            format!(
                "; to answer otherwise, call firefox_handle_dialog {{accept: {other}}} (and promptText for a prompt), then act again"
            )
        };
        if p.untold.len() < 10 {
            p.untold.push(format!(
                "the page showed {kind}({message:?}), answered {answer} by the dialog policy{how}"
            ));
        }
    });
}

/// The dialogs the agent has not heard of yet, to add to the current answer.
pub fn untold() -> Vec<String> {
    POLICY.with(|p| std::mem::take(&mut p.borrow_mut().untold))
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
    let originals = NAMES
        .iter()
        .map(|name| {
            (
                *name,
                js_sys::Reflect::get(&page, &(*name).into()).unwrap_or_default(),
            )
        })
        .collect();
    ORIGINALS.with(|o| *o.borrow_mut() = Some(originals));
    let alert = Closure::<dyn Fn(JsValue)>::new(|m: JsValue| note("alert", &m, "ok"));
    let confirm = Closure::<dyn Fn(JsValue) -> bool>::new(|m: JsValue| {
        let accept = POLICY.with(|p| p.borrow().accept);
        note("confirm", &m, if accept { "ok" } else { "cancel" });
        accept
    });
    let prompt =
        Closure::<dyn Fn(JsValue, JsValue) -> JsValue>::new(|m: JsValue, default: JsValue| {
            let (accept, text) =
                POLICY.with(|p| (p.borrow().accept, p.borrow().prompt_text.clone()));
            let answer = if accept {
                text.map(JsValue::from).unwrap_or(default)
            } else {
                JsValue::NULL
            };
            note(
                "prompt",
                &m,
                &answer
                    .as_string()
                    .map_or("cancel".into(), |a| format!("{a:?}")),
            );
            answer
        });
    for (name, f) in [
        ("alert", alert.as_ref()),
        ("confirm", confirm.as_ref()),
        ("prompt", prompt.as_ref()),
    ] {
        let _ = page_world::export_as(f.unchecked_ref(), &page, name);
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
    POLICY.with(|p| {
        let mut p = p.borrow_mut();
        p.accept = false;
        p.prompt_text = None;
        p.seen.clear();
        p.untold.clear();
    });
}

pub fn handle(accept: bool, prompt_text: Option<String>) -> Result<DialogReport, ErrorBody> {
    POLICY.with(|p| {
        let mut p = p.borrow_mut();
        p.accept = accept;
        p.prompt_text = prompt_text;
        let policy = if accept {
            format!(
                "accept (prompt answers {:?})",
                p.prompt_text.clone().unwrap_or_default()
            )
        } else {
            "dismiss".to_owned()
        };
        Ok(DialogReport {
            policy,
            seen: std::mem::take(&mut p.seen),
        })
    })
}
