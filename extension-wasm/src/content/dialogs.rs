//! Dialogs: the page's alert, confirm and prompt are replaced (in the page's own world) by
//! versions that never block — they record the dialog and answer by the current policy, which
//! `firefox_handle_dialog` sets. By default alerts are acknowledged and confirm/prompt dismissed.

use std::cell::RefCell;

use claudezilla_protocol::reply::DialogReport;
use claudezilla_protocol::{Outcome, Reply};
use wasm_bindgen::prelude::*;

use crate::a11y::clean;

#[wasm_bindgen]
extern "C" {
    /// Firefox content-script API: makes a function callable from the page.
    #[wasm_bindgen(js_name = exportFunction)]
    fn export_function(f: &JsValue, target: &JsValue, options: &JsValue) -> JsValue;
}

struct Policy {
    accept: bool,
    prompt_text: Option<String>,
    seen: Vec<String>,
}

thread_local! {
    static POLICY: RefCell<Policy> = const { RefCell::new(Policy { accept: false, prompt_text: None, seen: Vec::new() }) };
}

fn note(kind: &str, message: &JsValue, answer: &str) {
    let message = clean(&message.as_string().unwrap_or_default(), 200);
    POLICY.with(|p| {
        let mut p = p.borrow_mut();
        p.seen.push(format!("{kind}({message:?}) → {answer}"));
        let len = p.seen.len();
        if len > 20 {
            p.seen.drain(..len - 20);
        }
    });
}

/// Replaces the page's dialog functions; called once when the content script starts.
pub fn install() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(page) = js_sys::Reflect::get(&window, &"wrappedJSObject".into()) else {
        return;
    };
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
        let options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&options, &"defineAs".into(), &name.into());
        export_function(f, &page, &options);
    }
    alert.forget();
    confirm.forget();
    prompt.forget();
}

pub fn handle(accept: bool, prompt_text: Option<String>) -> Outcome {
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
        Ok(Reply::Dialogs(DialogReport {
            policy,
            seen: std::mem::take(&mut p.seen),
        }))
    })
}
