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
use std::collections::{HashMap, HashSet};

use claudezilla_protocol::envelope::Tuning;
use claudezilla_protocol::{AgentId, TabId};
use futures_channel::oneshot;
use wasm_bindgen::prelude::*;

use crate::capture_lock::{CaptureLock, Ticket};
use crate::load::LoadWatch;
use crate::pool::Pool;
use crate::tab_wait::{Heard, Shown};
use crate::web;

/// Someone waiting for a tab to finish loading.
struct LoadWaiter {
    watch: LoadWatch,
    done: oneshot::Sender<Heard>,
}

/// A load waiter's word, heard now (`web::precise_ms`).
impl Heard {
    fn now(page: Option<Shown>) -> Self {
        Self {
            at: web::precise_ms(),
            page,
        }
    }
}

#[derive(Default)]
struct State {
    pool: Pool,
    waiters: HashMap<TabId, Vec<LoadWaiter>>,
    capture: CaptureLock,
    /// Critical requests in flight per agent tab (readiness before screenshots).
    network: crate::network::Network,
    /// Per tab, the browser frame ids behind the frame aliases of refs.
    frames: crate::frame_alias::FrameAliases,
    /// Wakes a queued screenshot when its ticket is granted.
    capture_wakers: HashMap<Ticket, oneshot::Sender<()>>,
    tuning: Tuning,
    /// Each agent tab's network log.
    requests: crate::request_log::RequestLog,
    /// Tabs whose console is captured (restarted in each page they load).
    console_tabs: HashSet<TabId>,
    /// Each agent's allowlist and consent setting.
    configs: HashMap<AgentId, crate::agent_config::AgentConfig>,
    /// The user's allowlist from the popup (kept in the extension's storage); the
    /// environment's (`CLAUDEZILLA_ALLOWED_DOMAINS`, in `tuning`) stands before it.
    user_domains: Vec<String>,
    /// The popup's switch for `firefox_evaluate` (until Firefox restarts).
    evaluate_switch: bool,
    /// The popup's switch for `firefox_cookies` and `firefox_storage` (until Firefox restarts).
    storage_switch: bool,
    /// Agent tabs whose response bodies are captured (their agent asked: `includeBody`).
    body_tabs: HashSet<TabId>,
    /// Each agent's routes over its tabs' requests.
    routes: crate::request_routes::RouteTable,
    /// What agents did (the popup, `firefox_get_activity`).
    activity: crate::activity::Activity,
    /// The agents' downloads, and their tabs' recent page addresses (to tell whose a new one is).
    downloads: crate::downloads::Downloads,
    /// Each agent's own container, once it asked for one.
    containers: HashMap<AgentId, crate::jars::Jar>,
    /// Open the agents' window as a private window.
    private_windows: bool,
    /// A tab's load cancelled by its agent's allowlist, for the navigation waiting on it.
    blocked: HashMap<TabId, claudezilla_protocol::ErrorBody>,
    /// The frames of a tab's page kept from loading (the user's allowlist, the agent's own
    /// route), by frame id, with why: a read of that frame says so.
    refused_frames: HashMap<TabId, Vec<(u64, String)>>,
    loops: crate::focus_loop::Loops,
    /// Every tab's recent main-frame loads: did a navigation reach what was asked for?
    main_frames: crate::load::MainFrames,
    /// Who waits for the network's word on a tab's main-frame load (`tabs::arrived`).
    main_frame_waiters: HashMap<TabId, Vec<oneshot::Sender<()>>>,
    /// Waiting for a tab's title: Firefox may report a load complete before the page's title
    /// reached the tab, and tell of the title in a later update.
    title_waiters: HashMap<TabId, Vec<oneshot::Sender<String>>>,
    /// `firefox_downloads` calls waiting for a download to start or end.
    download_waiters: Vec<oneshot::Sender<()>>,
    /// Agents asking for the user's tabs, and who waits for each answer.
    approvals: crate::approvals::Approvals,
    approval_wakers: HashMap<u32, oneshot::Sender<bool>>,
    /// The user lets agents ask for tabs of private windows (popup switch).
    private_attach: bool,
    /// Tabs being clicked: where what became of the tabs their pages open meanwhile goes, to
    /// the click waiting for it (`tabs::click`).
    clicking: HashMap<TabId, futures_channel::mpsc::UnboundedSender<crate::trip::adopt::Adopted>>,
    /// What pages did during an operation (dialogs), for the answer of that operation.
    page_notes: HashMap<TabId, Vec<String>>,
    /// The secrets each agent has typed, which every frame of its tabs hides.
    typed: HashMap<AgentId, crate::hidden::Typed>,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
}

/// Frames refused per tab that a read can name (more are refused, not named).
const MAX_REFUSED_FRAMES: usize = 16;

impl State {
    /// Ends the waits for a load of `tab` that will bring no new page (it became a download,
    /// or was refused): Firefox may not report the tab's load as finished then.
    fn settle_loads(&mut self, tab: TabId) {
        for waiter in self.waiters.remove(&tab).unwrap_or_default() {
            let _ = waiter.done.send(Heard::now(None));
        }
    }

    /// Keeps why `frame` of `tab` was not loaded, for a read of that frame to say.
    fn refuse_frame(&mut self, tab: TabId, frame: u64, why: String) {
        let refused = self.refused_frames.entry(tab).or_default();
        if refused.len() < MAX_REFUSED_FRAMES {
            refused.push((frame, why));
        }
    }

    /// The user's evaluate switch is on (popup or environment): agents may run code in their
    /// pages, by `firefox_evaluate` or by fulfilling what the browser runs.
    fn code_allowed(&self) -> bool {
        self.evaluate_switch || self.tuning.allow_evaluate
    }

    /// The notes of `agent`'s tabs' pages, taken.
    fn take_page_notes(&mut self, agent: &AgentId) -> Vec<String> {
        let tabs: Vec<TabId> = self
            .page_notes
            .keys()
            .filter(|t| self.pool.owner(**t) == Some(agent))
            .copied()
            .collect();
        tabs.into_iter()
            .flat_map(|t| self.page_notes.remove(&t).unwrap_or_default())
            .collect()
    }
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
