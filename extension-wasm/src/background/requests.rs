//! Watches requests through webRequest: every tab's critical requests in flight (scripts,
//! styles, XHR/fetch; counts only), so a screenshot can wait until the network is quiet, and
//! the agent tabs' network log.

use claudezilla_protocol::TabId;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use super::with_state;
use crate::request_log::Side;
use crate::request_routes::Header;
use crate::web;

/// The request types a screenshot waits for (counted in flight for every tab: a page starts
/// requesting before its tab joins the pool; only counts are kept, no URLs).
const CRITICAL: [&str; 3] = ["script", "stylesheet", "xmlhttprequest"];

#[derive(Serialize)]
struct MainFrameOnly {
    urls: [&'static str; 1],
    types: [&'static str; 1],
}

const MAIN_FRAME: &str = "main_frame";
/// Requests whose answer may become a download (a link with `download` is "other").
const DOCUMENTS: [&str; 3] = [MAIN_FRAME, "sub_frame", "other"];

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Request {
    request_id: String,
    tab_id: i64,
    #[serde(default)]
    incognito: bool,
    #[serde(default)]
    method: String,
    #[serde(default)]
    url: String,
    #[serde(default, rename = "type")]
    kind: String,
    #[serde(default)]
    status_code: u16,
    #[serde(default)]
    response_size: u64,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    redirect_url: Option<String>,
    #[serde(default)]
    request_headers: Option<Vec<Header>>,
    #[serde(default)]
    response_headers: Option<Vec<Header>>,
}

/// The request and its tab (none for the browser's own requests).
fn tab_request(value: JsValue) -> Option<(TabId, Request)> {
    let r: Request = serde_wasm_bindgen::from_value(value).ok()?;
    let tab = TabId(u32::try_from(r.tab_id).ok()?);
    Some((tab, r))
}

fn pairs(headers: Option<Vec<Header>>) -> Vec<(String, String)> {
    headers
        .unwrap_or_default()
        .into_iter()
        .map(|h| (h.name, h.value.unwrap_or_default()))
        .collect()
}

/// One listener per webRequest event feeds both the readiness counts and each agent tab's
/// network log (`firefox_get_network`: metadata only, no bodies; other tabs' newest requests
/// are held a few seconds, for a tab about to join the pool).
pub fn listen() {
    let filter = web::to_js(&web::AllUrls::default());
    let started = Closure::<dyn FnMut(JsValue)>::new(|d: JsValue| {
        if let Some((tab, r)) = tab_request(d) {
            with_state(|s| {
                if CRITICAL.contains(&r.kind.as_str()) {
                    s.network.started(tab, &r.request_id, web::now_ms());
                }
                if r.kind == MAIN_FRAME && !r.incognito {
                    s.main_frames.started(tab, &r.request_id, &r.url);
                }
                let agent_tab = s.pool.contains(tab);
                if DOCUMENTS.contains(&r.kind.as_str()) {
                    // A download has no tab of its own: this is how it is traced to one (and
                    // one the user's tab asked for is the user's).
                    s.downloads.requested(tab, agent_tab, &r.url, web::now_ms());
                }
                if agent_tab {
                    s.requests.claim(tab);
                } else if r.incognito {
                    // Private browsing is never held, not even briefly.
                    return;
                }
                s.requests.started(
                    tab,
                    &r.request_id,
                    &r.method,
                    &r.url,
                    &r.kind,
                    web::now_ms(),
                )
            });
        }
    });
    let sent = Closure::<dyn FnMut(JsValue)>::new(|d: JsValue| {
        if let Some((tab, r)) = tab_request(d) {
            let headers = pairs(r.request_headers);
            with_state(|s| {
                s.requests
                    .headers(tab, &r.request_id, Side::Request, &headers)
            });
        }
    });
    let completed = Closure::<dyn FnMut(JsValue)>::new(|d: JsValue| {
        if let Some((tab, r)) = tab_request(d) {
            let headers = pairs(r.response_headers);
            with_state(|s| {
                if r.kind == MAIN_FRAME {
                    s.main_frames.completed(tab, &r.request_id);
                }
                s.network.finished(tab, &r.request_id, web::now_ms());
                s.requests
                    .headers(tab, &r.request_id, Side::Response, &headers);
                let status = Ok((r.status_code, r.response_size));
                s.requests
                    .finished(tab, &r.request_id, status, web::now_ms());
            });
            if r.kind == MAIN_FRAME {
                super::tabs::main_frame_heard(tab);
            }
        }
    });
    let failed = Closure::<dyn FnMut(JsValue)>::new(|d: JsValue| {
        if let Some((tab, r)) = tab_request(d) {
            let error = Err(r.error.unwrap_or_else(|| "failed".into()));
            with_state(|s| {
                if let (MAIN_FRAME, Err(e)) = (r.kind.as_str(), &error) {
                    s.main_frames.failed(tab, &r.request_id, e);
                }
                s.network.finished(tab, &r.request_id, web::now_ms());
                s.requests
                    .finished(tab, &r.request_id, error, web::now_ms())
            });
            if r.kind == MAIN_FRAME {
                super::tabs::main_frame_heard(tab);
            }
        }
    });
    let redirected = Closure::<dyn FnMut(JsValue)>::new(|d: JsValue| {
        if let Some((tab, r)) = tab_request(d)
            && let Some(to) = &r.redirect_url
        {
            with_state(|s| {
                s.main_frames.redirected(tab, &r.request_id, to);
                let agent_tab = s.pool.contains(tab);
                s.downloads.requested(tab, agent_tab, to, web::now_ms());
            });
        }
    });
    // Firefox may report a main frame's onCompleted well after the tab's load is complete
    // (measured: up to 90 ms later); its first response byte is word enough that it did
    // not fail.
    let responded = Closure::<dyn FnMut(JsValue)>::new(|d: JsValue| {
        if let Some((tab, r)) = tab_request(d) {
            with_state(|s| s.main_frames.responded(tab, &r.request_id, r.status_code));
            super::tabs::main_frame_heard(tab);
        }
    });
    let main_frames = web::to_js(&MainFrameOnly {
        urls: ["<all_urls>"],
        types: [MAIN_FRAME],
    });
    web::WEB_REQUEST_ON_BEFORE_REDIRECT
        .with(|e| e.add_filtered_listener(redirected.as_ref().unchecked_ref(), &main_frames));
    web::WEB_REQUEST_ON_RESPONSE_STARTED
        .with(|e| e.add_filtered_listener(responded.as_ref().unchecked_ref(), &main_frames));
    redirected.forget();
    responded.forget();
    let with = |what: &str| web::to_js(&[what]);
    web::WEB_REQUEST_ON_BEFORE_REQUEST
        .with(|e| e.add_filtered_listener(started.as_ref().unchecked_ref(), &filter));
    web::WEB_REQUEST_ON_SEND_HEADERS.with(|e| {
        e.add_listener_with_extra(
            sent.as_ref().unchecked_ref(),
            &filter,
            &with("requestHeaders"),
        )
    });
    web::WEB_REQUEST_ON_COMPLETED.with(|e| {
        e.add_listener_with_extra(
            completed.as_ref().unchecked_ref(),
            &filter,
            &with("responseHeaders"),
        )
    });
    web::WEB_REQUEST_ON_ERROR_OCCURRED
        .with(|e| e.add_filtered_listener(failed.as_ref().unchecked_ref(), &filter));
    for c in [started, sent, completed, failed] {
        c.forget();
    }
}
