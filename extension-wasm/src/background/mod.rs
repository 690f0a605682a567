//! The background page: owns the tab pool, talks to the host over the native port, and runs
//! each command. Single-threaded: state lives in a thread-local and is never borrowed across an
//! `.await`.

mod capture;
mod commands;
mod content;
mod native;
mod tabs;

use std::cell::RefCell;
use std::collections::HashMap;

use claudezilla_protocol::TabId;
use futures_channel::oneshot;
use wasm_bindgen::prelude::*;

use crate::load::LoadWatch;
use crate::pool::Pool;

/// Someone waiting for a tab to finish loading.
struct LoadWaiter {
    watch: LoadWatch,
    done: oneshot::Sender<()>,
}

#[derive(Default)]
struct State {
    pool: Pool,
    waiters: HashMap<TabId, Vec<LoadWaiter>>,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
}

/// Runs `f` on the background state (never across an await).
fn with_state<R>(f: impl FnOnce(&mut State) -> R) -> R {
    STATE.with(|s| f(&mut s.borrow_mut()))
}

/// Entry point, called once by `background.js` after the wasm has loaded.
#[wasm_bindgen]
pub fn start_background() {
    tabs::listen();
    native::connect();
    wasm_bindgen_futures::spawn_local(native::health_checks());
}
