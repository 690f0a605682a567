//! Answers the toolbar popup: the pool, the waiting agents, the screenshot lock, the loops;
//! and takes the user's decisions: the switches, the allowlist, giving an attached tab back.

use claudezilla_protocol::envelope::{
    CaptureState, PopupActivity, PopupRequest, PopupStatus, PopupTab,
};
use claudezilla_protocol::{AgentId, validate};
use wasm_bindgen::prelude::*;

use super::{attach, config, native, now, with_state};
use crate::web;

/// Activity entries the popup shows (newest first, grouped by agent there).
const POPUP_ACTIVITY: usize = 60;

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
    let now = now();
    // The popup is nobody's agent: no slot request is its own.
    let nobody = AgentId::new([0; 16], 0);
    with_state(|s| {
        let requests = s.pool.slot_requests(&nobody, now);
        PopupStatus {
            connected: native::is_connected(),
            pool_limit: requests.pool_limit,
            tabs: s
                .pool
                .entries_for_user()
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
            evaluate: s.code_allowed(),
            evaluate_by_environment: s.tuning.allow_evaluate,
            loops: s.loops.summary(now),
            approvals: s.approvals.pending().to_vec(),
            private_attach: s.private_attach,
            storage: s.storage_switch || s.tuning.allow_storage,
            storage_by_environment: s.tuning.allow_storage,
            allowed_domains: config::user_list(s).to_vec(),
            allowed_domains_by_environment: !s.tuning.allowed_domains.is_empty(),
            activity: s
                .activity
                .newest(POPUP_ACTIVITY)
                .map(|e| PopupActivity {
                    agent: e.agent.short().to_owned(),
                    entry: e.entry.clone(),
                })
                .collect(),
        }
    })
}
