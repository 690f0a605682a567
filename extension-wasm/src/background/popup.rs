//! Answers the toolbar popup: the pool, the waiting agents, the screenshot lock, the loops;
//! and takes the user's decisions: the switches, the allowlist, giving an attached tab back.

use claudezilla_protocol::envelope::{PopupRequest, PopupStatus};
use claudezilla_protocol::validate;
use wasm_bindgen::prelude::*;

use super::{attach, config, native, now, with_state};
use crate::popup_status::{self, Parts};
use crate::web;

/// The fields of a `runtime.MessageSender` that say who sent a message.
#[derive(serde::Deserialize, Default)]
struct Sender {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    url: Option<String>,
}

/// Only our own extension pages may ask: a content script runs inside a web page, and what
/// reaches us from one must never switch `firefox_evaluate` on or take a tab back.
fn from_our_page(sender: JsValue) -> bool {
    let sender: Sender = serde_wasm_bindgen::from_value(sender).unwrap_or_default();
    crate::approvals::from_extension_page(
        sender.id.as_deref(),
        sender.url.as_deref(),
        &web::runtime_get_url(""),
    )
}

pub fn listen() {
    let on_message = Closure::<dyn FnMut(JsValue, JsValue) -> JsValue>::new(
        |message: JsValue, sender: JsValue| {
            if !from_our_page(sender) {
                return JsValue::UNDEFINED;
            }
            let Ok(request) = serde_wasm_bindgen::from_value::<PopupRequest>(message) else {
                return JsValue::UNDEFINED;
            };
            match request {
                PopupRequest::Status => {}
                PopupRequest::SetEvaluate { enabled } => {
                    with_state(|s| s.evaluate_switch = enabled)
                }
                PopupRequest::GiveBack { tab_id } => attach::give_back(tab_id),
                PopupRequest::Decide { id, allow } => attach::decide(id, allow),
                PopupRequest::SetPrivateAttach { enabled } => {
                    with_state(|s| s.private_attach = enabled)
                }
                PopupRequest::SetStorage { enabled } => with_state(|s| s.storage_switch = enabled),
                PopupRequest::SetAllowedDomains { domains } => {
                    // The environment's list stands; the popup shows it as fixed.
                    if with_state(|s| s.tuning.allowed_domains.is_empty()) {
                        config::set_user_list(validate::domain_list(&domains.join(",")));
                    }
                }
            }
            js_sys::Promise::resolve(&web::to_js(&status())).into()
        },
    );
    web::RUNTIME_ON_MESSAGE.with(|e| e.add_listener(on_message.as_ref().unchecked_ref()));
    on_message.forget();
}

fn status() -> PopupStatus {
    let connected = native::is_connected();
    with_state(|s| {
        let evaluate = s.code_allowed();
        let parts = Parts {
            connected,
            pool: &mut s.pool,
            capture: &s.capture,
            loops: &s.loops,
            approvals: &s.approvals,
            activity: &s.activity,
            tuning: &s.tuning,
            evaluate,
            storage_switch: s.storage_switch,
            private_attach: s.private_attach,
            popup_domains: &s.user_domains,
        };
        popup_status::status(parts, now())
    })
}
