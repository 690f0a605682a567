//! Watches the agent tabs' critical requests (scripts, styles, XHR/fetch) through webRequest,
//! so a screenshot can wait until the network is quiet.

use claudezilla_protocol::TabId;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use super::with_state;
use crate::web;

#[derive(Serialize)]
struct Filter {
    urls: [&'static str; 1],
    types: [&'static str; 3],
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Details {
    request_id: String,
    tab_id: i64,
}

/// Every tab is counted (only counts are kept, no URLs): a page starts loading, and
/// requesting, before its tab joins the pool.
fn details(value: JsValue) -> Option<(TabId, String)> {
    let d: Details = serde_wasm_bindgen::from_value(value).ok()?;
    Some((TabId(u32::try_from(d.tab_id).ok()?), d.request_id))
}

pub fn listen() {
    let filter = web::to_js(&Filter {
        urls: ["<all_urls>"],
        types: ["script", "stylesheet", "xmlhttprequest"],
    });
    let started = Closure::<dyn FnMut(JsValue)>::new(|d: JsValue| {
        if let Some((tab, id)) = details(d) {
            with_state(|s| s.network.started(tab, &id, web::now_ms()));
        }
    });
    let finished = Closure::<dyn FnMut(JsValue)>::new(|d: JsValue| {
        if let Some((tab, id)) = details(d) {
            with_state(|s| s.network.finished(tab, &id, web::now_ms()));
        }
    });
    web::WEB_REQUEST_ON_BEFORE_REQUEST
        .with(|e| e.add_filtered_listener(started.as_ref().unchecked_ref(), &filter));
    for event in [
        &web::WEB_REQUEST_ON_COMPLETED,
        &web::WEB_REQUEST_ON_ERROR_OCCURRED,
    ] {
        event.with(|e| e.add_filtered_listener(finished.as_ref().unchecked_ref(), &filter));
    }
    started.forget();
    finished.forget();
}
