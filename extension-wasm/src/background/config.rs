//! Where agents' tabs may go. The user's allowlist (the popup, kept in the extension's storage,
//! or `CLAUDEZILLA_ALLOWED_DOMAINS` in Firefox's environment) holds for every agent: top-level
//! loads, frames, routes, downloads and storage-state loads. Each agent may narrow it for
//! itself (`firefox_set_config`), never widen it. Enforced on create and navigate (a clear
//! error) and in the browser (a blocking listener cancels a link, redirect, script or frame
//! that leaves the lists). Also each agent's consent-banner setting.

use claudezilla_protocol::args::SetConfigArgs;
use claudezilla_protocol::reply;
use claudezilla_protocol::{AgentId, ErrorBody, TabId};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::with_state;
use crate::agent_config;
use crate::background_state::{Load, State};
use crate::tab_listeners::WhileNeeded;
use crate::web;

/// Where the popup's allowlist is kept (`storage.local`), so it outlives a restart.
const STORED_KEY: &str = "userAllowedDomains";

pub fn set(agent: &AgentId, a: SetConfigArgs) -> Result<reply::Config, ErrorBody> {
    with_state(|s| {
        let user = s.user_list().to_vec();
        agent_config::set(&mut s.configs, agent, &user, a)
    })
}

/// Refuses a URL outside the user's or the agent's allowlist, saying whose.
pub fn check(agent: &AgentId, url: &str) -> Result<(), ErrorBody> {
    with_state(|s| match s.refusal(agent, url) {
        Some(e) => Err(e),
        None => Ok(()),
    })
}

pub fn handles_consent(tab: TabId) -> bool {
    with_state(|s| s.handles_consent(tab))
}

/// The user set the popup's allowlist: in force at once, and kept for the next start.
pub fn set_user_list(domains: Vec<String>) {
    with_state(|s| s.user_domains = domains.clone());
    sync_frames();
    let stored = js_sys::Object::new();
    let list: js_sys::Array = domains.iter().map(|d| JsValue::from_str(d)).collect();
    let _ = js_sys::Reflect::set(&stored, &STORED_KEY.into(), &list);
    wasm_bindgen_futures::spawn_local(async move {
        if let Err(e) = web::call(web::storage_local_set(&stored)).await {
            web::log(&format!("cannot keep the allowlist: {}", e.message));
        }
    });
}

/// Reads the popup's allowlist kept from an earlier run (before any command is taken).
pub async fn restore_user_list() {
    let Ok(stored) = web::call(web::storage_local_get(STORED_KEY)).await else {
        return;
    };
    let list = js_sys::Reflect::get(&stored, &STORED_KEY.into())
        .ok()
        .and_then(|v| serde_wasm_bindgen::from_value::<Vec<String>>(v).ok())
        .unwrap_or_default();
    with_state(|s| s.user_domains = list);
    sync_frames();
}

#[derive(Serialize)]
struct Filter {
    urls: [&'static str; 1],
    types: [&'static str; 1],
}

/// A blocking webRequest listener.
type Blocking = Closure<dyn FnMut(JsValue) -> JsValue>;

thread_local! {
    /// The frames' listener, registered only while the user has an allowlist.
    static FRAMES: std::cell::RefCell<WhileNeeded<Blocking>> =
        std::cell::RefCell::new(WhileNeeded::default());
}

/// A blocking listener's answer to a load: cancelled where `refuse` says why.
fn refused(d: JsValue, refuse: impl FnOnce(&mut State, &Load) -> Option<String>) -> JsValue {
    let Ok(load) = serde_wasm_bindgen::from_value::<Load>(d) else {
        return JsValue::UNDEFINED;
    };
    with_state(|s| refuse(s, &load)).map_or(JsValue::UNDEFINED, |m| cancel(&m))
}

fn cancel(message: &str) -> JsValue {
    web::log(message);
    web::to_js(&web::Cancel { cancel: true })
}

/// Cancels an agent tab's top-level load outside the user's or its agent's list, whatever
/// started it (a link, a redirect, a script).
pub fn listen() {
    let on_request =
        Blocking::new(|d: JsValue| refused(d, |s, load| s.refuse_top_load(load, web::precise_ms)));
    add_blocking(&on_request, "main_frame");
    on_request.forget();
}

fn add_blocking(listener: &Blocking, kind: &'static str) {
    let filter = web::to_js(&Filter {
        urls: ["<all_urls>"],
        types: [kind],
    });
    let extra = web::to_js(&["blocking"]);
    web::WEB_REQUEST_ON_BEFORE_REQUEST
        .with(|e| e.add_listener_with_extra(listener.as_ref().unchecked_ref(), &filter, &extra));
}

/// While the user has an allowlist, a frame of an agent tab outside it is not loaded (and
/// without one, no frame of any tab waits on us).
pub fn sync_frames() {
    let needed = with_state(|s| !s.user_list().is_empty());
    FRAMES.with_borrow_mut(|f| {
        f.follow(needed, frames_listener, |old| {
            web::WEB_REQUEST_ON_BEFORE_REQUEST
                .with(|e| e.remove_listener(old.as_ref().unchecked_ref()));
        })
    });
}

/// Cancels a frame's load of an agent tab outside the allowlists.
fn frames_listener() -> Blocking {
    let listener = Blocking::new(|d: JsValue| refused(d, State::refuse_frame_of));
    add_blocking(&listener, "sub_frame");
    listener
}
