//! The load waiters: registered per tab, fed every change of the tab's status and address
//! (and the page's own word that it loaded), ended when their watch is satisfied.

use claudezilla_protocol::reply::{LoadState, TabReport};
use claudezilla_protocol::{ErrorBody, ErrorCode, TabId};
use futures_channel::oneshot;

use crate::background::{Heard, LoadWaiter, Shown, with_state};
use crate::load::LoadWatch;
use crate::page_title::{self, Titles};
use crate::web::{self, Tab};

use super::*;

/// Registers a waiter for `tab`; its receiver completes when the watch is satisfied.
pub(super) fn watch(tab: TabId, watch: LoadWatch) -> oneshot::Receiver<Heard> {
    let (done, rx) = oneshot::channel();
    with_state(|s| {
        s.waiters
            .entry(tab)
            .or_default()
            .push(LoadWaiter { watch, done })
    });
    rx
}

pub(super) async fn wait_loaded(
    tab: TabId,
    load: LoadWatch,
    started: f64,
    budget_ms: u32,
) -> Loaded {
    let done = watch(tab, load);
    let asked_at = web::precise_ms();
    // The load may have finished before the waiter existed.
    let now: Tab = web::call_as(web::tabs_get(tab.0))
        .await
        .map_err(|e| gone(tab, e))?;
    if load.satisfied_by(&now.status) {
        return report(tab, started, LoadState::Complete).await;
    }
    finish_wait(tab, done, started, asked_at, budget_ms).await
}

/// Waits for `done` within what is left of the budget and reports the tab; `asked_at`
/// (`web::precise_ms`) is when the browser was asked for the load, for the trace.
pub(super) async fn finish_wait(
    tab: TabId,
    done: oneshot::Receiver<Heard>,
    started: f64,
    asked_at: f64,
    budget_ms: u32,
) -> Loaded {
    let left = left_ms(started, budget_ms) as u32;
    let waited = web::with_deadline(left, done).await;
    if let Some(refused) = with_state(|s| s.blocked.remove(&tab)) {
        return Err(refused);
    }
    match waited {
        Some(Ok(heard)) => {
            crate::hop_trace::record(|t| {
                t.load_us = ((heard.at - asked_at).max(0.0) * 1e3) as u64;
            });
            report_seen(tab, started, LoadState::Complete, heard.page).await
        }
        Some(Err(_)) => Err(ErrorBody::new(
            ErrorCode::NoSuchTab,
            format!("tab {tab} was closed while loading"),
        )),
        None => report(tab, started, LoadState::Loading).await,
    }
}

/// What is left of a budget of `budget_ms` from `started` (`web::now_ms`).
pub(super) fn left_ms(started: f64, budget_ms: u32) -> f64 {
    (f64::from(budget_ms) - (web::now_ms() - started)).max(0.0)
}

pub(super) async fn report(tab: TabId, started: f64, load_state: LoadState) -> Loaded {
    report_seen(tab, started, load_state, None).await
}

/// Reports the tab as `seen` by the event that ended the wait, or as the browser says now.
pub(super) async fn report_seen(
    tab: TabId,
    started: f64,
    load_state: LoadState,
    seen: Option<Shown>,
) -> Loaded {
    let mut now = match seen {
        Some(seen) => seen,
        None => shown_now(tab).await?,
    };
    // Firefox may say "complete" before the page's title has reached the tab (a cold start,
    // or a busy browser), whichever way the load's end was heard: the page itself is asked,
    // once.
    if load_state == LoadState::Complete
        && crate::load::placeholder_title(&now.title, &now.url)
        && let Some(title) = page_title::real_title(&TabTitles(tab)).await
    {
        now.title = title;
    }
    with_state(|s| {
        s.pool
            .update_page(tab, Some(now.url.clone()), Some(now.title.clone()))
    });
    Ok(TabReport {
        tab_id: tab,
        // Whole until `arrived` has judged it.
        url: now.url,
        title: now.title,
        load_state,
        waited_ms: (web::now_ms() - started) as u32,
        note: None,
        container: None,
    })
}

/// The tab's page as the browser shows it now.
async fn shown_now(tab: TabId) -> Result<Shown, ErrorBody> {
    let now: Tab = web::call_as(web::tabs_get(tab.0))
        .await
        .map_err(|e| gone(tab, e))?;
    Ok(Shown {
        url: now.url,
        title: now.title,
    })
}

pub(super) fn gone(tab: TabId, e: ErrorBody) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::NoSuchTab,
        format!("tab {tab} is gone ({})", e.message),
    )
    .with_hint("firefox_get_tabs lists your open tabs")
}

/// Ends the waits for a load of `tab` that became a download (`State::settle_loads`).
pub fn settle(tab: TabId) {
    with_state(|s| s.settle_loads(tab));
}

/// An agent tab's top document loaded, in its own word (`early.js`): a real response, heard
/// before the tab's "complete" and the network's events. The waits for its load end now.
pub fn page_loaded(tab: TabId, url: String, title: &str) {
    with_state(|s| s.main_frames.shown(tab, &url));
    main_frame_heard(tab);
    let shown = Shown {
        title: crate::a11y::clean(title, crate::text::MAX_TITLE_CHARS),
        url: url.clone(),
    };
    wake(tab, Some("complete"), None, "complete", shown);
}

/// Feeds a change of `tab` (`changed_*`; `status` after it) to its load waiters,
/// ending those it satisfies; `seen` is the page as the event showed it.
pub(super) fn wake(
    tab: TabId,
    changed_status: Option<&str>,
    changed_url: Option<&str>,
    status: &str,
    seen: Shown,
) {
    with_state(|s| {
        let Some(waiters) = s.waiters.remove(&tab) else {
            return;
        };
        let mut pending = Vec::new();
        for mut w in waiters {
            if w.watch.on_update(changed_status, changed_url, status) {
                let _ = w.done.send(Heard::now(Some(seen.clone())));
            } else if !w.done.is_canceled() {
                pending.push(w);
            }
        }
        if !pending.is_empty() {
            s.waiters.insert(tab, pending);
        }
    });
}

/// The browser's side of finding one tab's own title ([`page_title`]).
struct TabTitles(TabId);

impl Titles for TabTitles {
    type Update = oneshot::Receiver<String>;

    fn update(&self) -> Self::Update {
        title_update(self.0)
    }

    async fn shown(&self) -> Option<(String, String)> {
        let shown = shown_now(self.0).await.ok()?;
        Some((shown.title, shown.url))
    }

    async fn ask_page(&self, ms: u32) -> Option<String> {
        let script = web::to_js(&Probe {
            code: "document.title",
        });
        let asked = web::call(web::tabs_execute_script(self.0.0, &script));
        let results = web::with_deadline(ms, asked).await?.ok()?;
        Some(
            js_sys::Array::from(&results)
                .get(0)
                .as_string()
                .unwrap_or_default(),
        )
    }

    async fn next(&self, update: Self::Update, ms: u32) -> Option<String> {
        web::with_deadline(ms, update).await?.ok()
    }

    fn now_ms(&self) -> f64 {
        web::now_ms()
    }
}

/// Completes at `tab`'s next title that is not a placeholder (or when the tab goes).
fn title_update(tab: TabId) -> oneshot::Receiver<String> {
    let (told, update) = oneshot::channel();
    with_state(|s| {
        let waiting = s.title_waiters.entry(tab).or_default();
        // Those whose wait ended another way go.
        waiting.retain(|w| !w.is_canceled());
        waiting.push(told);
    });
    update
}

/// Firefox updated `tab`'s title (at `url`): a real one ends the waits for it.
pub(super) fn titled(tab: TabId, title: &str, url: &str) {
    if crate::load::placeholder_title(title, url) {
        return;
    }
    for told in with_state(|s| s.title_waiters.remove(&tab)).unwrap_or_default() {
        let _ = told.send(title.to_owned());
    }
}
