//! Timers for wasm: sleeping, deadlines and a clock.

use std::future::Future;

use futures_util::future::{Either, select};
use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(callback: &Function, ms: i32) -> JsValue;
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// A monotonic clock with sub-millisecond resolution, for timing hops (not for deadlines,
/// which share `now_ms` with the content scripts).
pub fn precise_ms() -> f64 {
    performance_now()
}

pub async fn sleep(ms: u32) {
    let promise = Promise::new(&mut |resolve, _| {
        set_timeout(&resolve, ms.min(i32::MAX as u32) as i32);
    });
    let _ = JsFuture::from(promise).await;
}

/// Yields to the event loop for one task (a message to ourselves): what the page queued runs
/// first. Unlike a timer, it is not held back in a background tab (Firefox runs those timers at
/// most once a second).
pub async fn tick() {
    let promise = Promise::new(&mut |resolve, _| {
        let Ok(channel) = web_sys::MessageChannel::new() else {
            let _ = resolve.call0(&JsValue::UNDEFINED);
            return;
        };
        channel.port1().set_onmessage(Some(&resolve));
        let _ = channel.port2().post_message(&JsValue::NULL);
    });
    let _ = JsFuture::from(promise).await;
}

/// `Some(output)` if `fut` finishes within `ms`, else `None`.
pub async fn with_deadline<F: Future>(ms: u32, fut: F) -> Option<F::Output> {
    let fut = std::pin::pin!(fut);
    let timer = std::pin::pin!(sleep(ms));
    match select(fut, timer).await {
        Either::Left((out, _)) => Some(out),
        Either::Right(_) => None,
    }
}

pub fn now_ms() -> f64 {
    js_sys::Date::now()
}
