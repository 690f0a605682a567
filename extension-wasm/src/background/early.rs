//! What a page does while it loads, before our content module can start (it is injected at
//! load-complete): console messages and dialogs. A tiny script (`early.js`) is registered to
//! run at `document_start` in every http(s) frame, but it acts only in documents loaded for an
//! agent's tab: the background marks those responses with a `Server-Timing` entry carrying a
//! secret of this run, which the script reads synchronously. There it buffers the console,
//! answers dialogs by the default policy and keeps `beforeunload` from blocking, until the
//! content module takes the buffer over. In the user's own tabs it does nothing.

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use super::with_state;
use crate::web;

/// The Server-Timing metric name the script looks for.
const METRIC: &str = "claudezilla";

thread_local! {
    /// This run's secret, so a page cannot make its own documents look like agent documents
    /// to the script (it could only affect itself, but no guessing needed).
    static SECRET: String = {
        let mut bytes = [0u8; 16];
        let _ = web::fill_random(&mut bytes);
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    };
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Register {
    matches: [&'static str; 2],
    js: [Code; 2],
    run_at: &'static str,
    all_frames: bool,
}

#[derive(Serialize)]
#[serde(untagged)]
enum Code {
    Code { code: String },
    File { file: &'static str },
}

#[derive(Serialize)]
struct Filter {
    urls: [&'static str; 1],
    types: [&'static str; 2],
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Headers {
    tab_id: i64,
    #[serde(default)]
    response_headers: Vec<serde_json::Value>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Changed {
    response_headers: Vec<serde_json::Value>,
}

/// What the script says when its top document has loaded.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Loaded {
    claudezilla_loaded: String,
    #[serde(default)]
    title: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Sender {
    tab: Option<SenderTab>,
    frame_id: Option<i64>,
}

#[derive(Deserialize)]
struct SenderTab {
    id: u32,
}

/// The script's word that an agent tab's top document loaded (only the script sends it: a
/// page cannot reach `runtime.sendMessage`).
fn on_message(message: JsValue, sender: JsValue) -> JsValue {
    let (Ok(loaded), Ok(sender)) = (
        serde_wasm_bindgen::from_value::<Loaded>(message),
        serde_wasm_bindgen::from_value::<Sender>(sender),
    ) else {
        return JsValue::UNDEFINED;
    };
    if let (Some(tab), Some(0)) = (sender.tab, sender.frame_id) {
        let tab = claudezilla_protocol::TabId(tab.id);
        super::tabs::page_loaded(tab, loaded.claudezilla_loaded, &loaded.title);
    }
    JsValue::UNDEFINED
}

/// Registers the script, the listener that marks agent documents and the one that hears
/// their loads.
pub fn listen() {
    let loaded = Closure::<dyn FnMut(JsValue, JsValue) -> JsValue>::new(on_message);
    web::RUNTIME_ON_MESSAGE.with(|e| e.add_listener(loaded.as_ref().unchecked_ref()));
    loaded.forget();
    let secret = SECRET.with(Clone::clone);
    let register = Register {
        matches: ["http://*/*", "https://*/*"],
        js: [
            Code::Code {
                code: format!("var claudezillaEarlySecret = {secret:?};"),
            },
            Code::File { file: "/early.js" },
        ],
        run_at: "document_start",
        all_frames: true,
    };
    if let Ok(promise) = web::content_scripts_register(&web::to_js(&register)) {
        wasm_bindgen_futures::spawn_local(async move {
            if let Err(e) = web::call(promise).await {
                crate::web::log(&format!("cannot register the early script: {}", e.message));
            }
        });
    }
    let mark = Closure::<dyn FnMut(JsValue) -> JsValue>::new(move |details: JsValue| {
        let Ok(h) = serde_wasm_bindgen::from_value::<Headers>(details) else {
            return JsValue::UNDEFINED;
        };
        let agent_tab = u32::try_from(h.tab_id)
            .is_ok_and(|t| with_state(|s| s.pool.contains(claudezilla_protocol::TabId(t))));
        if !agent_tab {
            return JsValue::UNDEFINED;
        }
        let mut headers = h.response_headers;
        let value = format!("{METRIC};desc={}", SECRET.with(Clone::clone));
        headers.push(serde_json::json!({"name": "Server-Timing", "value": value}));
        web::to_js(&Changed {
            response_headers: headers,
        })
    });
    let filter = web::to_js(&Filter {
        urls: ["<all_urls>"],
        types: ["main_frame", "sub_frame"],
    });
    let extra = web::to_js(&["blocking", "responseHeaders"]);
    web::WEB_REQUEST_ON_HEADERS_RECEIVED
        .with(|e| e.add_listener_with_extra(mark.as_ref().unchecked_ref(), &filter, &extra));
    mark.forget();
}
