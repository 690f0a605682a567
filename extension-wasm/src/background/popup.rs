//! Answers the toolbar popup: the pool, the waiting agents, the screenshot lock, the loops;
//! and takes the user's decisions: the `firefox_evaluate` switch, giving an attached tab back.

use claudezilla_protocol::AgentId;
use claudezilla_protocol::envelope::{CaptureState, PopupRequest, PopupStatus, PopupTab};
use wasm_bindgen::prelude::*;

use super::{attach, native, now, with_state};
use crate::web;

pub fn listen() {
    let on_message = Closure::<dyn FnMut(JsValue) -> JsValue>::new(|message: JsValue| {
        // Only the popup sends JSON strings to the background.
        let Some(request) = message
            .as_string()
            .and_then(|m| serde_json::from_str::<PopupRequest>(&m).ok())
        else {
            return JsValue::UNDEFINED;
        };
        match request {
            PopupRequest::Status => {}
            PopupRequest::SetEvaluate { enabled } => with_state(|s| s.evaluate_switch = enabled),
            PopupRequest::GiveBack { tab_id } => attach::give_back(tab_id),
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
                    attached: t.attached,
                })
                .collect(),
            waiting: requests.waiting.into_iter().map(|w| w.agent).collect(),
            reserved: requests.reserved.into_iter().map(|w| w.agent).collect(),
            capture: s.capture.holder().map(|h| CaptureState {
                holder: h.agent.short().to_owned(),
                held_ms: now.saturating_sub(h.since),
                waiting: s.capture.waiting() as u32,
            }),
            evaluate: s.evaluate_switch || s.tuning.allow_evaluate,
            evaluate_by_environment: s.tuning.allow_evaluate,
            loops: s.loops.summary(now),
        }
    })
}
