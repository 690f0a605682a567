//! `firefox_evaluate`: runs the agent's JavaScript in the page's own world (the page's `eval`,
//! so the page's globals are there and its CSP applies) and describes the result as JSON.
//!
//! This is a capability the user switches on, not a sandbox: the code can do anything the
//! page can.

use claudezilla_protocol::reply;
use claudezilla_protocol::{ErrorBody, ErrorCode};
use futures_channel::oneshot;
use js_sys::{Function, Reflect};
use wasm_bindgen::prelude::*;

use super::find::describe as describe_element;
use crate::page_value;
use crate::web;

#[wasm_bindgen]
extern "C" {
    /// The safe (Xray) view of a page object, on which DOM types are recognised.
    #[wasm_bindgen(js_name = XPCNativeWrapper)]
    fn xray(value: &JsValue) -> JsValue;
}

pub async fn evaluate(expression: &str, until: u64) -> Result<reply::Evaluated, ErrorBody> {
    let page = super::page_world::global().ok_or_else(page_value::no_world)?;
    let eval: Function = Reflect::get(&page, &"eval".into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or_else(page_value::no_eval)?;
    let mut value = eval
        .call1(&page, &JsValue::from_str(expression))
        .map_err(|e| page_value::threw(&e))?;
    if let Some(then) = thenable(&value) {
        let left = page_value::settle_ms(until, web::now_ms());
        value = web::with_deadline(left, settle(&value, &then))
            .await
            .ok_or_else(page_value::unsettled)??;
    }
    Ok(render(&page, &value))
}

fn thenable(value: &JsValue) -> Option<Function> {
    if !value.is_object() {
        return None;
    }
    Reflect::get(value, &"then".into()).ok()?.dyn_into().ok()
}

/// Awaits a page promise: its callbacks must be exported for the page to call them.
async fn settle(promise: &JsValue, then: &Function) -> Result<JsValue, ErrorBody> {
    let (tx, rx) = oneshot::channel::<Result<JsValue, JsValue>>();
    let tx = std::rc::Rc::new(std::cell::RefCell::new(Some(tx)));
    let (ok_tx, err_tx) = (tx.clone(), tx);
    let on_ok = Closure::once(move |v: JsValue| {
        if let Some(tx) = ok_tx.borrow_mut().take() {
            let _ = tx.send(Ok(v));
        }
    });
    let on_err = Closure::once(move |e: JsValue| {
        if let Some(tx) = err_tx.borrow_mut().take() {
            let _ = tx.send(Err(e));
        }
    });
    let scope = web_sys::window().map(JsValue::from).unwrap_or_default();
    let export =
        |f: &Function| super::page_world::export(f, &scope).map_err(|e| page_value::threw(&e));
    let ok = export(on_ok.as_ref().unchecked_ref())?;
    let err = export(on_err.as_ref().unchecked_ref())?;
    then.call2(promise, &ok, &err)
        .map_err(|e| page_value::threw(&e))?;
    let outcome = rx
        .await
        .map_err(|_| ErrorBody::new(ErrorCode::Internal, "the promise's callbacks were dropped"))?;
    // Both closures stay alive until here; whichever the page did not call is dropped now.
    drop((on_ok, on_err));
    outcome.map_err(|e| page_value::threw(&e))
}

/// The value as JSON (via the page's own `JSON.stringify`), or a description when it has none
/// ([`page_value::evaluated`]).
fn render(page: &JsValue, value: &JsValue) -> reply::Evaluated {
    let element = || {
        let el = xray(value).dyn_into::<web_sys::Element>().ok()?;
        Some(describe_element(&el))
    };
    page_value::evaluated(value, element, || json(page, value))
}

fn json(page: &JsValue, value: &JsValue) -> Option<String> {
    let json = Reflect::get(page, &"JSON".into()).ok()?;
    let stringify: Function = Reflect::get(&json, &"stringify".into())
        .ok()?
        .dyn_into()
        .ok()?;
    stringify.call1(&json, value).ok()?.as_string()
}
