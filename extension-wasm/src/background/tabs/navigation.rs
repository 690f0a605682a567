//! Navigating a tab and waiting for the page it asked for: the browser's side of
//! [`crate::trip`] (the network's word on each load, the tab's waits, the page asked whether it
//! takes a script), and the URL waits.

use std::cell::Cell;

use claudezilla_protocol::args::NavAction;
use claudezilla_protocol::reply;
use claudezilla_protocol::reply::LoadState;
use claudezilla_protocol::{ErrorBody, TabId};
use futures_channel::oneshot;
use serde::Serialize;

use crate::background::with_state;
use crate::load::{LoadWatch, Reached};
use crate::pool::AuthorizedTab;
use crate::tab_wait::{self, Budget, Heard, TabWatch};
use crate::trip::{self, Go, Tabs};
use crate::web;

use super::*;

/// Loads `url` in `tab`, or goes back, forward or reloads, and waits for the page.
pub async fn navigate(
    tab: AuthorizedTab,
    url: Option<&str>,
    action: Option<NavAction>,
    budget_ms: u32,
) -> Loaded {
    let go = Go::of(url, action)?;
    let tabs = TabTrip::new(tab.id(), web::now_ms(), budget_ms);
    trip::go_and_wait(&tabs, go, LoadWatch::navigation()).await
}

/// The browser's side of one navigation of one tab, within one call's budget (`started`,
/// `budget_ms`).
pub(super) struct TabTrip {
    one: OneTab,
    budget: Budget,
    /// When the browser was last asked to go (`web::precise_ms`), for the trace.
    asked_at: Cell<f64>,
}

impl TabTrip {
    pub(super) fn new(tab: TabId, started: f64, budget_ms: u32) -> Self {
        Self {
            one: OneTab::new(tab),
            budget: Budget {
                started,
                ms: budget_ms,
            },
            asked_at: Cell::new(web::precise_ms()),
        }
    }
}

impl Tabs for TabTrip {
    type Waiter = oneshot::Receiver<Heard>;

    fn tab(&self) -> TabId {
        self.one.tab()
    }

    fn mark(&self) -> u64 {
        with_state(|s| {
            s.blocked.remove(&self.tab());
            s.main_frames.mark()
        })
    }

    fn watch(&self, load: LoadWatch) -> Self::Waiter {
        watch(self.tab(), load)
    }

    async fn go(&self, go: Go<'_>) -> Result<(), ErrorBody> {
        self.asked_at.set(web::precise_ms());
        let tab = self.tab().0;
        let asked = match go {
            Go::To(url) => web::tabs_update(tab, &web::to_js(&SetUrl { url })),
            Go::Back => web::tabs_go_back(tab),
            Go::Forward => web::tabs_go_forward(tab),
            Go::Reload => web::tabs_reload(tab),
        };
        web::call(asked).await.map(drop)
    }

    async fn finish(&self, waiter: Self::Waiter) -> Loaded {
        tab_wait::finish(&self.one, waiter, self.asked_at.get(), self.budget).await
    }

    async fn report(&self) -> Loaded {
        tab_wait::report(&self.one, LoadState::Complete, None, self.budget.started).await
    }

    fn reached(&self, mark: u64, asked: Option<&str>, url: &str) -> Reached {
        with_state(|s| s.main_frames.reached(self.tab(), mark, asked, url))
    }

    async fn news(&self, ms: u32) -> bool {
        web::with_deadline(ms, main_frame_news(self.tab()))
            .await
            .is_some()
    }

    async fn scriptable(&self, ms: u32) -> Option<bool> {
        web::with_deadline(ms, scriptable(self.tab())).await
    }

    fn left_ms(&self) -> f64 {
        self.budget.left_at(web::now_ms())
    }

    fn now_ms(&self) -> f64 {
        web::now_ms()
    }
}

/// Waits, `ms` at most, until the network has told how `tab`'s newest main-frame load
/// ended.
pub async fn main_frame_settled(tab: TabId, ms: f64) {
    let tabs = TabTrip::new(tab, web::now_ms(), ms as u32);
    trip::while_unheard(&tabs, ms, || !with_state(|s| s.main_frames.settled(tab))).await;
}

/// Completes at the next word from the network on `tab`'s main-frame loads (or when the tab
/// goes).
pub(super) fn main_frame_news(tab: TabId) -> oneshot::Receiver<()> {
    with_state(|s| s.main_frame_news(tab))
}

/// The network spoke of a main-frame load of `tab` (it answered, failed or became a download):
/// wakes whoever waits for that word.
pub fn main_frame_heard(tab: TabId) {
    with_state(|s| s.main_frame_heard(tab));
}

#[derive(Serialize)]
pub(super) struct Probe {
    pub code: &'static str,
}

/// Does the tab's page take a content script (every web page does; an error page does not)?
pub(super) async fn scriptable(tab: TabId) -> bool {
    let probe = web::to_js(&Probe { code: "0" });
    web::call(web::tabs_execute_script(tab.0, &probe))
        .await
        .is_ok()
}

/// Waits until the tab's URL matches `glob`, or `until` (ms since the epoch)
/// ([`tab_wait::url_matches`]).
pub async fn wait_for_url(
    tab: AuthorizedTab,
    glob: &str,
    until: u64,
) -> Result<reply::Waited, ErrorBody> {
    tab_wait::url_matches(&OneTab::new(tab.id()), glob, until).await
}
