//! Navigating a tab and waiting for the page it asked for: the browser's side of
//! [`crate::trip`] (the network's word on each load, the tab's waits, the page asked whether it
//! takes a script), and the URL waits.

use std::cell::Cell;

use claudezilla_protocol::args::NavAction;
use claudezilla_protocol::reply;
use claudezilla_protocol::reply::LoadState;
use claudezilla_protocol::{ErrorBody, ErrorCode, TabId};
use futures_channel::oneshot;
use serde::Serialize;

use crate::background::{Heard, with_state};
use crate::load::{LoadWatch, Reached};
use crate::pool::AuthorizedTab;
use crate::trip::{self, Go, Tabs};
use crate::web::{self, Tab};

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
    tab: TabId,
    started: f64,
    budget_ms: u32,
    /// When the browser was last asked to go (`web::precise_ms`), for the trace.
    asked_at: Cell<f64>,
}

impl TabTrip {
    pub(super) fn new(tab: TabId, started: f64, budget_ms: u32) -> Self {
        Self {
            tab,
            started,
            budget_ms,
            asked_at: Cell::new(web::precise_ms()),
        }
    }
}

impl Tabs for TabTrip {
    type Waiter = oneshot::Receiver<Heard>;

    fn tab(&self) -> TabId {
        self.tab
    }

    fn mark(&self) -> u64 {
        with_state(|s| {
            s.blocked.remove(&self.tab);
            s.main_frames.mark()
        })
    }

    fn watch(&self, load: LoadWatch) -> Self::Waiter {
        watch(self.tab, load)
    }

    async fn go(&self, go: Go<'_>) -> Result<(), ErrorBody> {
        self.asked_at.set(web::precise_ms());
        let tab = self.tab.0;
        let asked = match go {
            Go::To(url) => web::tabs_update(tab, &web::to_js(&SetUrl { url })),
            Go::Back => web::tabs_go_back(tab),
            Go::Forward => web::tabs_go_forward(tab),
            Go::Reload => web::tabs_reload(tab),
        };
        web::call(asked).await.map(drop)
    }

    async fn finish(&self, waiter: Self::Waiter) -> Loaded {
        let asked_at = self.asked_at.get();
        finish_wait(self.tab, waiter, self.started, asked_at, self.budget_ms).await
    }

    async fn report(&self) -> Loaded {
        report(self.tab, self.started, LoadState::Complete).await
    }

    fn reached(&self, mark: u64, asked: Option<&str>, url: &str) -> Reached {
        with_state(|s| s.main_frames.reached(self.tab, mark, asked, url))
    }

    async fn news(&self, ms: u32) -> bool {
        web::with_deadline(ms, main_frame_news(self.tab))
            .await
            .is_some()
    }

    async fn scriptable(&self, ms: u32) -> Option<bool> {
        web::with_deadline(ms, scriptable(self.tab)).await
    }

    fn left_ms(&self) -> f64 {
        left_ms(self.started, self.budget_ms)
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
    let (told, news) = oneshot::channel();
    with_state(|s| s.main_frame_waiters.entry(tab).or_default().push(told));
    news
}

/// The network spoke of a main-frame load of `tab` (it answered, failed or became a download):
/// wakes whoever waits for that word.
pub fn main_frame_heard(tab: TabId) {
    for told in with_state(|s| s.main_frame_waiters.remove(&tab)).unwrap_or_default() {
        let _ = told.send(());
    }
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

/// Waits until the tab's URL matches `glob`, or `until` (ms since the epoch): checked at each
/// change of the tab's address, not polled.
pub async fn wait_for_url(
    tab: AuthorizedTab,
    glob: &str,
    until: u64,
) -> Result<reply::Waited, ErrorBody> {
    let tab = tab.id();
    let started = web::now_ms();
    loop {
        // Watched before the look, so a change between the two is not missed.
        let changed = watch(tab, LoadWatch::UrlChange);
        let now: Tab = web::call_as(web::tabs_get(tab.0))
            .await
            .map_err(|e| gone(tab, e))?;
        let waited = (web::now_ms() - started) as u32;
        if crate::glob::matches(glob, &now.url) {
            return Ok(reply::Waited {
                what: format!("the URL {} matches {glob:?}", now.url),
                waited_ms: waited,
            });
        }
        if web::now_ms() >= until as f64 {
            return Err(ErrorBody::new(ErrorCode::Timeout, format!("the URL is still {} after {waited} ms, not {glob:?}", now.url))
                .with_hint("* matches within one path part, ** anything; pass a larger timeout if the page is slow"));
        }
        let left = (until as f64 - web::now_ms()).max(0.0) as u32;
        if let Some(Err(_)) = web::with_deadline(left, changed).await {
            return Err(ErrorBody::new(
                ErrorCode::NoSuchTab,
                format!("tab {tab} was closed while waiting for its URL"),
            ));
        }
    }
}
