//! The native-messaging port to the host: connect, reconnect with backoff, health checks.

use std::cell::RefCell;

use claudezilla_protocol::{FromExtension, NATIVE_HOST_NAME, Request, ToExtension, VERSION};
use wasm_bindgen::prelude::*;

use super::{commands, outbox, with_state};
use crate::native_link::{Health, Link, bounded, unreadable};
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
    let Some(text) = js_sys::JSON::stringify(&value)
        .ok()
        .and_then(|s| s.as_string())
    else {
        return web::log("unreadable message from the host");
    };
    let msg = match serde_json::from_str::<ToExtension>(&text) {
        Ok(msg) => msg,
        Err(e) => return refuse_unreadable(&text, &e),
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

/// A request this extension cannot read is answered, not dropped ([`unreadable`]).
fn refuse_unreadable(text: &str, error: &serde_json::Error) {
    web::log(&format!("unreadable message from the host: {error}"));
    if let Some(answer) = unreadable(text, error) {
        outbox::post(&answer);
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
