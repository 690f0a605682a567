//! The native-messaging port to the host: connect, reconnect with backoff, health checks.

use std::cell::RefCell;

use claudezilla_protocol::{
    ErrorBody, ErrorCode, FromExtension, NATIVE_HOST_NAME, Request, RequestId, ToExtension, VERSION,
};
use wasm_bindgen::prelude::*;

use super::{commands, outbox, with_state};
use crate::native_link::{Health, Link, bounded};
use crate::web::{self, Port};

const HEALTH_INTERVAL_MS: u32 = 30_000;

thread_local! {
    /// The link's state; the port itself is the outbox's (`super::outbox`), which every part
    /// sends through.
    static LINK: RefCell<Link> = RefCell::new(Link::default());
}

/// Opens the port (Firefox starts the host) and says hello.
pub fn connect() {
    let port = web::connect_native(NATIVE_HOST_NAME);
    let on_message = Closure::<dyn FnMut(JsValue)>::new(on_message);
    port.on_message()
        .add_listener(on_message.as_ref().unchecked_ref());
    on_message.forget();
    let on_disconnect = Closure::<dyn FnMut(Port)>::new(on_disconnect);
    port.on_disconnect()
        .add_listener(on_disconnect.as_ref().unchecked_ref());
    on_disconnect.forget();
    outbox::open(port);
    LINK.with(|l| l.borrow_mut().opened());
    outbox::send(&FromExtension::Hello {
        version: VERSION.into(),
    });
}

/// True once the host has welcomed the current port.
pub fn is_connected() -> bool {
    LINK.with(|l| l.borrow().is_welcomed())
}

fn on_message(value: JsValue) {
    let parsed = js_sys::JSON::stringify(&value)
        .ok()
        .and_then(|s| s.as_string())
        .map(|s| serde_json::from_str::<ToExtension>(&s));
    let msg = match parsed {
        Some(Ok(msg)) => msg,
        Some(Err(e)) => return refuse_unreadable(&value, &e),
        None => return web::log("unreadable message from the host"),
    };
    match msg {
        ToExtension::Welcome {
            host_version,
            tuning,
        } => {
            with_state(|s| s.tuning = tuning);
            super::config::sync_frames();
            LINK.with(|l| l.borrow_mut().welcome());
            if host_version != VERSION {
                web::log(&format!(
                    "host {host_version} differs from extension {VERSION}"
                ));
            }
        }
        ToExtension::Pong { seq } => LINK.with(|l| l.borrow_mut().pong(seq)),
        ToExtension::Request(request) => wasm_bindgen_futures::spawn_local(answer(request)),
        ToExtension::AgentGone { agent_id } => wasm_bindgen_futures::spawn_local(async move {
            commands::release_agent(&agent_id).await;
        }),
    }
}

/// A request the host let through but this extension cannot read (its arguments fail a
/// check here, or the two were built from different versions) is answered, not dropped: the
/// agent learns why at once instead of waiting out its timeout.
fn refuse_unreadable(value: &JsValue, error: &serde_json::Error) {
    web::log(&format!("unreadable message from the host: {error}"));
    let id = js_sys::Reflect::get(value, &"id".into())
        .ok()
        .and_then(|id| id.as_f64())
        .filter(|id| id.fract() == 0.0 && *id >= 0.0);
    let is_request = js_sys::Reflect::get(value, &"type".into())
        .ok()
        .and_then(|t| t.as_string())
        .is_some_and(|t| t == "request");
    if let (Some(id), true) = (id, is_request) {
        let refused = ErrorBody::new(ErrorCode::InvalidArgument, error.to_string()).with_hint(
            "the host and the extension may be of different versions: run cargo xtask run",
        );
        outbox::post(&bounded(id as RequestId, Err(refused)));
    }
}

async fn answer(request: Request) {
    let id = request.id;
    let agent = request.agent_id.clone();
    let noted = crate::activity::note(&request.command);
    let traced = request.trace.then(web::precise_ms);
    let (outcome, times) =
        crate::hop_trace::traced(traced.is_some(), commands::handle(request)).await;
    if let Some(noted) = noted {
        with_state(|s| s.activity.record(&agent, noted, &outcome, web::now_ms()));
    }
    // What the agent's pages did meanwhile (dialogs) goes out first, to join this answer.
    for note in with_state(|s| s.take_page_notes(&agent)) {
        outbox::notify(&agent, note);
    }
    if let (Some(started), Some(mut times)) = (traced, times) {
        times.background_us = ((web::precise_ms() - started) * 1e3) as u64;
        outbox::send(&FromExtension::Trace { id, times });
    }
    outbox::post(&bounded(id, outcome));
}

fn on_disconnect(port: Port) {
    let error = port.error();
    let reason = if error.is_null() || error.is_undefined() {
        "the host exited".to_owned()
    } else {
        web::js_error_message(&error)
    };
    outbox::take();
    let delay = LINK.with(|l| l.borrow_mut().closed());
    web::log(&format!(
        "native port closed ({reason}); reconnecting in {delay} ms"
    ));
    wasm_bindgen_futures::spawn_local(async move {
        web::sleep(delay).await;
        connect();
    });
}

/// Every 30 s: ping the host; if the previous ping went unanswered, the host is stuck, so
/// drop the port and start a fresh one.
pub async fn health_checks() {
    loop {
        web::sleep(HEALTH_INTERVAL_MS).await;
        match LINK.with(|l| l.borrow_mut().health_check(outbox::is_open())) {
            Health::Ping(seq) => outbox::send(&FromExtension::Ping { seq }),
            Health::Stuck => {
                web::log("the host stopped answering pings; reconnecting");
                if let Some(port) = outbox::take() {
                    port.disconnect();
                    on_disconnect(port);
                }
            }
        }
    }
}
