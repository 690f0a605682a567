//! What a page does while it loads, before our content module can start (it is injected at
//! load-complete): console messages and dialogs. A tiny script (`early.js`) is registered to
//! run at `document_start` in every http(s) frame, but it acts only in documents loaded for an
//! agent's tab: the background marks those responses with a `Server-Timing` entry carrying a
//! secret of this run, which the script reads synchronously. There it buffers the console,
//! answers dialogs by the default policy and keeps `beforeunload` from blocking, until the
//! content module takes the buffer over. In the user's own tabs it does nothing.
//!
//! The marking listener blocks the response until the background answers, so it is added for
//! each agent tab alone (webRequest's `tabId` filter) as the tab joins the pool, and removed as
//! it leaves ([`sync`]): a tab outside the pool (the user's own, not lent to an agent) never
//! waits on it, however busy the background is.

use std::cell::RefCell;

use claudezilla_protocol::TabId;
use wasm_bindgen::prelude::*;

use super::with_state;
use crate::early_mark::{self, Headers, Loaded, Sender};
use crate::tab_listeners::PerTab;
use crate::web;

/// A listener of one tab's response headers.
type Marker = Closure<dyn FnMut(JsValue) -> JsValue>;

thread_local! {
    /// This run's secret, so a page cannot make its own documents look like agent documents
    /// to the script (it could only affect itself, but no guessing needed).
    static SECRET: String = {
        let mut bytes = [0u8; 16];
        if let Err(e) = web::fill_random(&mut bytes) {
            // Never all zeros, which a page could guess: a weaker source rather than none.
            web::log(&format!("no cryptographic random source: {}", web::js_error_message(&e)));
            bytes.fill_with(|| (js_sys::Math::random() * 256.0) as u8);
        }
        early_mark::secret_hex(&bytes)
    };
    /// The marking listener of each agent tab, by tab.
    static MARKERS: RefCell<PerTab<Marker>> = RefCell::new(PerTab::default());
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
    if let Some(tab) = sender.top_load() {
        super::tabs::page_loaded(tab, loaded.claudezilla_loaded, &loaded.title);
    }
    JsValue::UNDEFINED
}

/// Registers the script and the listener that hears agent documents' loads.
pub fn listen() {
    let loaded = Closure::<dyn FnMut(JsValue, JsValue) -> JsValue>::new(on_message);
    web::RUNTIME_ON_MESSAGE.with(|e| e.add_listener(loaded.as_ref().unchecked_ref()));
    loaded.forget();
    let secret = SECRET.with(Clone::clone);
    let made = web::content_scripts_register(&web::to_js(&early_mark::registration(&secret)));
    wasm_bindgen_futures::spawn_local(async move {
        if let Err(e) = web::call(made).await {
            crate::web::log(&format!("cannot register the early script: {}", e.message));
        }
    });
}

/// Adds the marking listener of each tab that joined the pool since the last call, and removes
/// those of the tabs that left it. Called wherever the pool gains or loses a tab, before an
/// agent tab's first load.
pub fn sync() {
    let tabs = with_state(|s| s.pool.tab_ids());
    MARKERS.with_borrow_mut(|m| {
        m.follow(&tabs, marker, |mark| {
            web::WEB_REQUEST_ON_HEADERS_RECEIVED
                .with(|e| e.remove_listener(mark.as_ref().unchecked_ref()));
        })
    });
}

/// The listener marking the responses of `tab`'s documents, added for that tab alone.
fn marker(tab: TabId) -> Marker {
    let mark = Marker::new(move |details: JsValue| {
        let Ok(headers) = serde_wasm_bindgen::from_value::<Headers>(details) else {
            return JsValue::UNDEFINED;
        };
        // Removed as the tab leaves the pool; until then, a user's tab again is not marked.
        if !with_state(|s| s.pool.contains(tab)) {
            return JsValue::UNDEFINED;
        }
        let secret = SECRET.with(Clone::clone);
        web::to_js(&early_mark::marked(headers, &secret))
    });
    let filter = web::to_js(&early_mark::documents_of(tab));
    let extra = web::to_js(&["blocking", "responseHeaders"]);
    web::WEB_REQUEST_ON_HEADERS_RECEIVED
        .with(|e| e.add_listener_with_extra(mark.as_ref().unchecked_ref(), &filter, &extra));
    mark
}
