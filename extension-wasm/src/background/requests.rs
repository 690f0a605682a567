//! Listens to webRequest: each event, parsed, goes to [`crate::request_events`], which feeds
//! the critical requests in flight (a screenshot waits until the network is quiet), the
//! main-frame loads, the downloads' sources and the agent tabs' network log.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::with_state;
use crate::request_events::{Event, MAIN_FRAME, Request, Watchers};
use crate::web;

#[derive(Serialize)]
struct MainFrameOnly {
    urls: [&'static str; 1],
    types: [&'static str; 1],
}

/// What a listener does with each report of `event`: the watchers hear it, and the tab's
/// load waiters hear of its main frame.
fn listener(event: Event) -> Closure<dyn FnMut(JsValue)> {
    Closure::new(move |d: JsValue| {
        let Ok(r) = serde_wasm_bindgen::from_value::<Request>(d) else {
            return;
        };
        // The browser's own requests have no tab.
        let Some(tab) = r.tab() else {
            return;
        };
        let main_frame = with_state(|s| {
            Watchers {
                network: &mut s.network,
                main_frames: &mut s.main_frames,
                downloads: &mut s.downloads,
                requests: &mut s.requests,
                pool: &s.pool,
            }
            .hear(event, tab, r, web::now_ms())
        });
        if main_frame {
            super::tabs::main_frame_heard(tab);
        }
    })
}

/// One listener per webRequest event (`firefox_get_network`: metadata only, no bodies; other
/// tabs' newest requests are held a few seconds, for a tab about to join the pool).
pub fn listen() {
    let all = web::to_js(&web::AllUrls::default());
    let main_frames = web::to_js(&MainFrameOnly {
        urls: ["<all_urls>"],
        types: [MAIN_FRAME],
    });
    let with = |what: &str| web::to_js(&[what]);
    let add = |event: Event, filter: &JsValue, extra: Option<JsValue>| {
        let listener = listener(event);
        let f = listener.as_ref().unchecked_ref();
        let target = match event {
            Event::Started => &web::WEB_REQUEST_ON_BEFORE_REQUEST,
            Event::Sent => &web::WEB_REQUEST_ON_SEND_HEADERS,
            Event::Completed => &web::WEB_REQUEST_ON_COMPLETED,
            Event::Failed => &web::WEB_REQUEST_ON_ERROR_OCCURRED,
            Event::Redirected => &web::WEB_REQUEST_ON_BEFORE_REDIRECT,
            Event::Responded => &web::WEB_REQUEST_ON_RESPONSE_STARTED,
        };
        target.with(|e| match &extra {
            Some(extra) => e.add_listener_with_extra(f, filter, extra),
            None => e.add_filtered_listener(f, filter),
        });
        listener.forget();
    };
    add(Event::Redirected, &main_frames, None);
    add(Event::Responded, &main_frames, None);
    add(Event::Started, &all, None);
    add(Event::Sent, &all, Some(with("requestHeaders")));
    add(Event::Completed, &all, Some(with("responseHeaders")));
    add(Event::Failed, &all, None);
}
