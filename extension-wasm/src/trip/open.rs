//! A new agent tab carried to its first page: a turn at the agents' window (agents that start
//! together share one window), the tab created on about:blank and taken into the pool before
//! it loads anything, then sent to its address by [`go_and_wait`]. The wait for the turn and
//! the making of the tab are bounded by the call's budget, where others' work can hold them
//! up: a turn not had in time (or with too little time left to make a tab) opens nothing, and
//! a tab the browser makes too late is closed when it comes. The loads are bounded as every
//! navigation's are. Written over [`Opener`]; `background/tabs/mod.rs` is the browser's side.

use claudezilla_protocol::{ErrorBody, ErrorCode, TabId};
use futures_util::future::{Either, select};

use super::{Go, Loaded, Tabs, arrived, go_and_wait};
use crate::arrival;
use crate::load::{self, LoadWatch};

/// What opening a tab asks of the browser, within one call's budget.
pub trait Opener {
    /// A turn at the agents' window, held while a tab is created in it.
    type Turn;
    /// A tab being created on about:blank.
    type Creating: Future<Output = Result<TabId, ErrorBody>> + Unpin;
    type Tabs: Tabs;

    /// Marks the point from which the network's main-frame loads count as this tab's.
    fn mark(&self) -> u64;
    fn turn(&self) -> impl Future<Output = Self::Turn>;
    /// Refuses a tab past the agent's share of the pool.
    fn admit(&self) -> Result<(), ErrorBody>;
    fn create(&self) -> Self::Creating;
    /// Takes the new tab into the agent's pool, before its first load (at once, when first
    /// polled), then marks it in the browser for a restart ([`ADOPT_MS`] bounds that part).
    fn adopt(&self, tab: TabId) -> impl Future<Output = ()>;
    /// Gives up on a tab the browser has not made yet: closed when it comes, the turn held
    /// until then (a window it opens is the one the next tab joins), or for a bounded time.
    fn abandon(&self, creating: Self::Creating, turn: Self::Turn);
    /// Puts the tab with the agents' others (the tab group).
    fn group(&self, tab: TabId) -> impl Future<Output = ()>;
    /// Waits for the tab's load `watch` within what is left of the budget.
    fn loaded(&self, tab: TabId, watch: LoadWatch) -> impl Future<Output = Loaded>;
    fn tabs(&self, tab: TabId) -> Self::Tabs;
    fn close(&self, tab: TabId) -> impl Future<Output = ()>;
    /// Completes once `ms` have passed.
    fn timer(&self, ms: u32) -> impl Future<Output = ()>;
    /// What is left of the call's budget (ms).
    fn left_ms(&self) -> f64;
}

/// Opens a tab on `url` and waits for its page. A tab refused its address (a URL the browser
/// will not open, the allowlist) is closed: the caller never learns its id, so it must not
/// hold a slot. A failed load names its tab, which stays.
pub async fn open<W: Opener>(window: &W, url: &str) -> Loaded {
    let opening = load::opening(url);
    let mark = window.mark();
    let tab = create(window, url).await?;
    window.group(tab).await;
    let blank = window.loaded(tab, opening.blank).await;
    let tabs = window.tabs(tab);
    let Some(load) = opening.then else {
        return arrived(&tabs, Some(url), mark, blank).await;
    };
    blank?;
    let loaded = go_and_wait(&tabs, Go::To(url), load).await;
    if let Err(e) = &loaded
        && e.code != ErrorCode::LoadFailed
    {
        window.close(tab).await;
    }
    loaded
}

/// Creates the tab (for `url`) in a turn at the window, both within the budget.
async fn create<W: Opener>(window: &W, url: &str) -> Result<TabId, ErrorBody> {
    let turn = match select(
        std::pin::pin!(window.turn()),
        std::pin::pin!(window.timer(budget(window))),
    )
    .await
    {
        Either::Left((turn, _)) => turn,
        Either::Right(_) => return Err(window_busy()),
    };
    if budget(window) < MIN_CREATE_MS {
        // A tab asked for now would come after the answer: none is.
        return Err(window_busy());
    }
    window.admit()?;
    let timer = std::pin::pin!(window.timer(budget(window)));
    let tab = match select(window.create(), timer).await {
        Either::Left((created, _)) => created.map_err(|e| arrival::refine_url_error(e, url))?,
        Either::Right((_, creating)) => {
            window.abandon(creating, turn);
            return Err(created_late());
        }
    };
    // The browser's part of adopting must not keep the turn from every other agent: past a
    // moment, the tab is the agent's without its mark (a restart would not find it).
    let _ = select(
        std::pin::pin!(window.adopt(tab)),
        std::pin::pin!(window.timer(ADOPT_MS)),
    )
    .await;
    drop(turn);
    Ok(tab)
}

/// Longest the turn waits on the browser to mark a new tab.
pub const ADOPT_MS: u32 = 2_000;

/// Least time left, after the turn, for a tab to be made.
pub const MIN_CREATE_MS: u32 = 250;

fn budget<W: Opener>(window: &W) -> u32 {
    window.left_ms() as u32
}

fn window_busy() -> ErrorBody {
    ErrorBody::new(
        ErrorCode::Timeout,
        "no tab was opened: other agents' tabs were being opened or closed in the agents' window \
         for the whole of this call's time",
    )
    .with_hint("retry, or pass a larger `timeout`")
}

fn created_late() -> ErrorBody {
    ErrorBody::new(
        ErrorCode::Timeout,
        "the browser did not make the tab within this call's time; it is closed when it comes",
    )
    .with_hint("the browser may be busy; retry, or pass a larger `timeout`")
}

#[cfg(test)]
mod tests;
