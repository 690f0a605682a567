//! The background page: owns the tab pool, talks to the host over the native port, and runs
//! each command. Single-threaded: state lives in a thread-local and is never borrowed across an
//! `.await`.

mod attach;
mod capture;
mod commands;
mod config;
mod containers;
mod content;
mod devtools;
mod downloads;
mod early;
mod intercept;
mod native;
mod outbox;
mod page_load;
mod performance;
mod persist;
mod popup;
mod requests;
mod storage;
mod tabs;
mod window_size;

use std::cell::RefCell;

use wasm_bindgen::prelude::*;

use crate::background_state::State;
use crate::web;

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
}

/// The pool gained or lost a tab: the listeners kept per agent tab follow it (its documents
/// marked, its routes applied), so that no tab outside the pool waits on them.
fn tabs_changed() {
    early::sync();
    intercept::sync();
}

/// Runs `f` on the background state (never across an await).
fn with_state<R>(f: impl FnOnce(&mut State) -> R) -> R {
    STATE.with(|s| f(&mut s.borrow_mut()))
}

/// Milliseconds since the epoch, the pool's clock.
fn now() -> u64 {
    web::now_ms() as u64
}

/// Entry point, called once by `background.js` after the wasm has loaded.
#[wasm_bindgen]
pub fn start_background() {
    tabs::listen();
    page_load::listen();
    requests::listen();
    downloads::listen();
    config::listen();
    popup::listen();
    early::listen();
    wasm_bindgen_futures::spawn_local(async {
        // Re-adopt the window and tabs of a previous run before taking any command, so a
        // restarted background never opens a second agent window.
        persist::restore().await;
        config::restore_user_list().await;
        native::connect();
        wasm_bindgen_futures::spawn_local(native::health_checks());
        commands::release_idle_agents_forever().await;
    });
}
