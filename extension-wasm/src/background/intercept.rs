//! `firefox_route` and body capture in the browser. The blocking webRequest listeners are
//! added for one tab each (webRequest's `tabId` filter), and only for the agent tabs that need
//! them: the tabs of an agent with a route, and those whose bodies an agent reads. A request
//! of any other tab, the user's above all, waits on nothing of ours ([`sync`]). Routes
//! apply to their agent's own tabs (never a tab attached from the user, never an address
//! outside the user's allowlist). Fulfilling replaces the response's body through
//! `filterResponseData` (Firefox only) and its headers as they arrive; the request still goes
//! to the server, and its status stays the server's: Firefox lets no extension change it.
//! What the browser would run (a page, frame, script, style) is fulfilled only with the
//! user's evaluate switch on (`crate::request_routes`).

use claudezilla_protocol::reply;
use std::collections::HashMap;

use claudezilla_protocol::args::{RouteArgs, UnrouteArgs};
use claudezilla_protocol::{AgentId, ErrorBody, TabId};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use super::{outbox, with_state};
use crate::request_intercept::{self, Answer, Request, Response};
use crate::request_log::{self, Reading};
use crate::request_routes::{self, PendingHeaders};
use crate::tab_listeners::PerTab;
use crate::web::{self, Cancel, TabUrls};

/// One tab's blocking listeners (kept to remove them again).
struct Listeners {
    request: Closure<dyn FnMut(JsValue) -> JsValue>,
    headers: Closure<dyn FnMut(JsValue) -> JsValue>,
}

thread_local! {
    static LISTENERS: std::cell::RefCell<PerTab<Listeners>> =
        std::cell::RefCell::new(PerTab::default());
    /// Headers to set on responses still to come, by request id.
    static HEADERS: std::cell::RefCell<PendingHeaders> =
        std::cell::RefCell::new(PendingHeaders::default());
}

pub fn set(agent: &AgentId, a: RouteArgs) -> Result<reply::Routes, ErrorBody> {
    let Some((pattern, rule)) = request_routes::asked(a, || with_state(|s| s.code_allowed()))?
    else {
        return list(agent);
    };
    with_state(|s| s.routes.add(agent, &pattern, rule))?;
    sync();
    list(agent)
}

pub fn unset(agent: &AgentId, a: UnrouteArgs) -> Result<reply::Routes, ErrorBody> {
    with_state(|s| s.routes.remove(agent, a.pattern.as_deref()));
    sync();
    list(agent)
}

pub fn release(agent: &AgentId) {
    with_state(|s| s.routes.remove(agent, None));
    sync();
}

fn list(agent: &AgentId) -> Result<reply::Routes, ErrorBody> {
    Ok(reply::Routes {
        routes: with_state(|s| s.routes.list(agent)),
    })
}

/// Answers a request of a listened tab as [`request_intercept::intercept`] says.
fn on_request(d: JsValue) -> JsValue {
    let Ok(d) = serde_wasm_bindgen::from_value::<Request>(d) else {
        return JsValue::UNDEFINED;
    };
    let intercepted = with_state(|s| request_intercept::intercept(s, &d, web::now_ms));
    if let Some(tab) = intercepted.read_body {
        capture_if_asked(tab, &d);
    }
    match intercepted.answer {
        Answer::Go => JsValue::UNDEFINED,
        Answer::Notify { agent, notice } => {
            outbox::notify(&agent, notice);
            JsValue::UNDEFINED
        }
        Answer::Cancel => web::to_js(&Cancel { cancel: true }),
        Answer::Delay(ms) => wasm_bindgen_futures::future_to_promise(async move {
            web::sleep(ms).await;
            Ok(js_sys::Object::new().into())
        })
        .into(),
        Answer::Fulfil { body, headers } => {
            if let Some(body) = body {
                replace_body(&d.request_id, body.into_bytes());
            }
            HEADERS.with_borrow_mut(|h| h.hold(d.request_id, headers));
            JsValue::UNDEFINED
        }
    }
}

/// The response's body becomes `body`: written when the response starts, then the stream ends
/// (what the server sends is never passed on).
fn replace_body(request_id: &str, body: Vec<u8>) {
    let Ok(filter) = web::filter_response_data(request_id) else {
        return;
    };
    let writer: web::StreamFilter = filter.clone().unchecked_into();
    let start = Closure::once_into_js(move |_event: JsValue| {
        writer.write(&js_sys::Uint8Array::from(&body[..]));
        writer.close();
    });
    filter
        .unchecked_ref::<web::StreamFilter>()
        .set_onstart(&start);
}

/// Sets a fulfilled response's headers ([`request_intercept::headers`]).
fn on_headers(r: JsValue) -> JsValue {
    let Ok(r) = serde_wasm_bindgen::from_value::<Response>(r) else {
        return JsValue::UNDEFINED;
    };
    HEADERS
        .with_borrow_mut(|h| request_intercept::headers(h, r))
        .map_or(JsValue::UNDEFINED, |set| web::to_js(&set))
}

/// The closures of each body being read, dropped once it ends.
type Handlers = (Closure<dyn FnMut(JsValue)>, Closure<dyn FnMut(JsValue)>);

thread_local! {
    static READING: std::cell::RefCell<HashMap<String, Handlers>> =
        std::cell::RefCell::new(HashMap::new());
}

/// Reads the response of a request of a tab whose agent asked for bodies
/// ([`request_log::reads_body`]), passing every byte on unchanged.
fn capture_if_asked(tab: TabId, d: &Request) {
    let of_tab = || with_state(|s| (s.body_tabs.contains(&tab), s.pool.is_attached(tab)));
    let reading = READING.with(|m| m.borrow().len());
    if !request_log::reads_body(&d.url, of_tab, reading) {
        return;
    }
    let Ok(filter) = web::filter_response_data(&d.request_id) else {
        return;
    };
    let stream: web::StreamFilter = filter.unchecked_into();
    let reading = std::rc::Rc::new(std::cell::RefCell::new(Reading::default()));
    let on_data = {
        let (stream, reading) = (stream.clone(), reading.clone());
        Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
            let Ok(data) = js_sys::Reflect::get(&event, &"data".into()) else {
                return;
            };
            let chunk = js_sys::Uint8Array::new(&data);
            let mut r = reading.borrow_mut();
            let room = r.chunk(chunk.length() as usize);
            if !room.is_empty() {
                chunk.subarray(0, room.len() as u32).copy_to(room);
            }
            stream.write(&chunk);
        })
    };
    let on_end = {
        let (stream, id) = (stream.clone(), d.request_id.clone());
        Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
            let stopped = js_sys::Reflect::get(&event, &"type".into())
                .ok()
                .and_then(|t| t.as_string())
                .is_some_and(|t| t == "stop");
            if stopped {
                stream.close();
                let r = reading.borrow();
                with_state(|s| s.requests.body(tab, &id, r.kept(), r.total()));
            }
            // Dropped after this call returns, not while it runs.
            let id = id.clone();
            wasm_bindgen_futures::spawn_local(async move {
                READING.with(|m| m.borrow_mut().remove(&id));
            });
        })
    };
    stream.set_ondata(on_data.as_ref());
    stream.set_onstop(on_end.as_ref());
    stream.set_onerror(on_end.as_ref());
    READING.with(|m| {
        m.borrow_mut()
            .insert(d.request_id.clone(), (on_data, on_end))
    });
}

/// Keeps the blocking listeners on the agent tabs that need them, and only there
/// ([`request_routes::listened`]). Called as routes, body reading or the pool's tabs change.
pub fn sync() {
    let wanted = with_state(|s| request_routes::listened(&s.pool, &s.routes, &s.body_tabs));
    LISTENERS.with_borrow_mut(|l| l.follow(&wanted, register, unregister));
}

/// Do some tab's requests wait on us now?
pub fn active() -> bool {
    LISTENERS.with_borrow(|l| !l.is_empty())
}

fn register(tab: TabId) -> Listeners {
    let filter = web::to_js(&TabUrls::of(tab));
    let request = Closure::<dyn FnMut(JsValue) -> JsValue>::new(on_request);
    let blocking = web::to_js(&["blocking"]);
    web::WEB_REQUEST_ON_BEFORE_REQUEST
        .with(|e| e.add_listener_with_extra(request.as_ref().unchecked_ref(), &filter, &blocking));
    let headers = Closure::<dyn FnMut(JsValue) -> JsValue>::new(on_headers);
    let with_headers = web::to_js(&["blocking", "responseHeaders"]);
    web::WEB_REQUEST_ON_HEADERS_RECEIVED.with(|e| {
        e.add_listener_with_extra(headers.as_ref().unchecked_ref(), &filter, &with_headers)
    });
    Listeners { request, headers }
}

fn unregister(l: &Listeners) {
    web::WEB_REQUEST_ON_BEFORE_REQUEST
        .with(|e| e.remove_listener(l.request.as_ref().unchecked_ref()));
    web::WEB_REQUEST_ON_HEADERS_RECEIVED
        .with(|e| e.remove_listener(l.headers.as_ref().unchecked_ref()));
}
