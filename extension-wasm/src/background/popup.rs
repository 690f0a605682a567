//! Answers the toolbar popup: the pool, the waiting agents, the screenshot lock.

use claudezilla_protocol::AgentId;
use claudezilla_protocol::envelope::{CaptureState, PopupStatus, PopupTab};
use wasm_bindgen::prelude::*;

use super::{native, now, with_state};
use crate::web;

pub fn listen() {
    let on_message = Closure::<dyn FnMut(JsValue) -> JsValue>::new(|message: JsValue| {
        if message.as_string().as_deref() != Some("popup-status") {
            return JsValue::UNDEFINED;
        }
        let status = serde_json::to_string(&status()).unwrap_or_default();
        js_sys::Promise::resolve(&JsValue::from_str(&status)).into()
    });
    web::RUNTIME_ON_MESSAGE.with(|e| e.add_listener(on_message.as_ref().unchecked_ref()));
    on_message.forget();
}

fn status() -> PopupStatus {
    let now = now();
    // The popup is nobody's agent: it sees every tab as someone else's.
    let nobody = AgentId::new([0; 16], 0);
    with_state(|s| {
        let requests = s.pool.slot_requests(&nobody, now);
        PopupStatus {
            connected: native::is_connected(),
            pool_limit: requests.pool_limit,
            tabs: s
                .pool
                .entries(&nobody)
                .into_iter()
                .map(|t| PopupTab {
                    tab_id: t.tab_id,
                    title: t.title,
                    owner: t.owner,
                })
                .collect(),
            waiting: requests.waiting.into_iter().map(|w| w.agent).collect(),
            reserved: requests.reserved.into_iter().map(|w| w.agent).collect(),
            capture: s.capture.holder().map(|h| CaptureState {
                holder: h.agent.short().to_owned(),
                held_ms: now.saturating_sub(h.since),
                waiting: s.capture.waiting() as u32,
            }),
        }
    })
}
