//! Waiting on one tab within one call's budget: for a load (`loaded`, `finish`), a look first
//! where it may have ended before its waiter existed; the tab reported as the event that ended
//! the wait showed it, with the page's own title where the tab shows a placeholder (`report`);
//! for its address to match a glob (`url_matches`), looked at again at each change; and the
//! words of a tab that went meanwhile. Written over [`TabWatch`] (with [`Titles`], which finds
//! a placeholder's real title); `background/tabs/waits.rs` is the browser's side.

use claudezilla_protocol::reply::{self, LoadState, TabReport};
use claudezilla_protocol::{ErrorBody, ErrorCode, TabId};

use crate::load::{LoadWatch, placeholder_title};
use crate::page_title::{self, Titles};

/// A tab's address and title as an event showed them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    pub url: String,
    pub title: String,
}

/// A tab's page as a load's wait answers it.
pub type Loaded = Result<TabReport, ErrorBody>;

/// What a load waiter is told: when (the precise clock) the background heard of the load's
/// end, and the page the event showed (none when the wait ended otherwise: a refusal, a
/// download), which spares asking the browser again.
#[derive(Debug, Clone, PartialEq)]
pub struct Heard {
    pub at: f64,
    pub page: Option<Shown>,
}

/// The tab as the browser shows it now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Look {
    pub shown: Shown,
    /// "loading" or "complete".
    pub status: String,
}

/// How a wait on a waiter ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Waited {
    Heard(Heard),
    /// The tab went (its waiters were dropped).
    Closed,
    /// The time given ran out.
    Out,
}

/// A call's budget: `ms` from `started` (`now_ms`'s clock).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    pub started: f64,
    pub ms: u32,
}

impl Budget {
    /// What is left of it at `now` (ms).
    pub fn left_at(self, now: f64) -> f64 {
        left(self.ms, self.started, now)
    }
}

/// What waiting on one tab asks of the browser.
pub trait TabWatch: Titles {
    /// A waiter registered for a change of the tab, before the tab is looked at.
    type Waiter;

    fn tab(&self) -> TabId;
    fn watch(&self, load: LoadWatch) -> Self::Waiter;
    /// The tab now; the browser's error when it has no such tab.
    fn look(&self) -> impl Future<Output = Result<Look, ErrorBody>>;
    /// Waits for `waiter`, `ms` at most.
    fn wait(&self, waiter: Self::Waiter, ms: u32) -> impl Future<Output = Waited>;
    /// The allowlist's refusal of a load of the tab, taken (said once).
    fn refused(&self) -> Option<ErrorBody>;
    /// The pool keeps the tab's page as it was reported.
    fn seen(&self, page: &Shown);
}

/// What is left at `now` of a budget of `budget_ms` from `started`.
pub fn left(budget_ms: u32, started: f64, now: f64) -> f64 {
    (f64::from(budget_ms) - (now - started)).max(0.0)
}

/// Waits for `load` (asked of the browser at `asked_at`, the precise clock) within `budget`;
/// one that finished before the waiter existed is seen by a look at the tab.
pub async fn loaded<T: TabWatch>(t: &T, load: LoadWatch, asked_at: f64, budget: Budget) -> Loaded {
    let done = t.watch(load);
    let now = t.look().await.map_err(|e| gone(t.tab(), e))?;
    if load.satisfied_by(&now.status) {
        return report(t, LoadState::Complete, None, budget.started).await;
    }
    finish(t, done, asked_at, budget).await
}

/// Waits for `done` within what is left of `budget` and reports the tab: a refusal of its
/// load heard meanwhile wins; the budget run out, it is reported loading. `asked_at` (the
/// precise clock) is when the browser was asked for the load, for the trace.
pub async fn finish<T: TabWatch>(t: &T, done: T::Waiter, asked_at: f64, budget: Budget) -> Loaded {
    let waited = t.wait(done, budget.left_at(t.now_ms()) as u32).await;
    if let Some(refused) = t.refused() {
        return Err(refused);
    }
    match waited {
        Waited::Heard(heard) => {
            crate::hop_trace::record(|trace| {
                trace.load_us = ((heard.at - asked_at).max(0.0) * 1e3) as u64;
            });
            report(t, LoadState::Complete, heard.page, budget.started).await
        }
        Waited::Closed => Err(ErrorBody::new(
            ErrorCode::NoSuchTab,
            format!("tab {} was closed while loading", t.tab()),
        )),
        Waited::Out => report(t, LoadState::Loading, None, budget.started).await,
    }
}

/// Reports the tab as `seen` by the event that ended the wait, or as the browser says now; the
/// wait began at `started` (`now_ms`'s clock).
pub async fn report<T: TabWatch>(
    t: &T,
    load_state: LoadState,
    seen: Option<Shown>,
    started: f64,
) -> Loaded {
    let mut now = match seen {
        Some(seen) => seen,
        None => t.look().await.map_err(|e| gone(t.tab(), e))?.shown,
    };
    // Firefox may say "complete" before the page's title has reached the tab (a cold start,
    // or a busy browser), whichever way the load's end was heard: the page itself is asked,
    // once.
    if load_state == LoadState::Complete
        && placeholder_title(&now.title, &now.url)
        && let Some(title) = page_title::real_title(t).await
    {
        now.title = title;
    }
    t.seen(&now);
    Ok(TabReport {
        tab_id: t.tab(),
        // Whole until `arrived` has judged it.
        url: now.url,
        title: now.title,
        load_state,
        waited_ms: (t.now_ms() - started) as u32,
        note: None,
        container: None,
    })
}

/// Waits until the tab's URL matches `glob`, or `until` (ms since the epoch): looked at again
/// at each change of the tab's address, not polled.
pub async fn url_matches<T: TabWatch>(
    t: &T,
    glob: &str,
    until: u64,
) -> Result<reply::Waited, ErrorBody> {
    let started = t.now_ms();
    loop {
        // Watched before the look, so a change between the two is not missed.
        let changed = t.watch(LoadWatch::UrlChange);
        let now = t.look().await.map_err(|e| gone(t.tab(), e))?.shown;
        let waited = (t.now_ms() - started) as u32;
        if crate::glob::matches(glob, &now.url) {
            return Ok(reply::Waited {
                what: format!("the URL {} matches {glob:?}", now.url),
                waited_ms: waited,
            });
        }
        if t.now_ms() >= until as f64 {
            return Err(ErrorBody::new(ErrorCode::Timeout, format!("the URL is still {} after {waited} ms, not {glob:?}", now.url))
                .with_hint("* matches within one path part, ** anything; pass a larger timeout if the page is slow"));
        }
        let left = (until as f64 - t.now_ms()).max(0.0) as u32;
        if t.wait(changed, left).await == Waited::Closed {
            return Err(ErrorBody::new(
                ErrorCode::NoSuchTab,
                format!("tab {} was closed while waiting for its URL", t.tab()),
            ));
        }
    }
}

/// A tab the browser no longer has, with the browser's words (`e`).
pub fn gone(tab: TabId, e: ErrorBody) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::NoSuchTab,
        format!("tab {tab} is gone ({})", e.message),
    )
    .with_hint("firefox_get_tabs lists your open tabs")
}

#[cfg(test)]
mod tests;
