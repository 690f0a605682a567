//! Navigating a tab and waiting for the page it asked for: the network's word on each load, a
//! load that failed or moved on by itself, the URL waits.

use claudezilla_protocol::args::NavAction;
use claudezilla_protocol::reply;
use claudezilla_protocol::reply::LoadState;
use claudezilla_protocol::{ErrorBody, ErrorCode, TabId};
use futures_channel::oneshot;
use serde::Serialize;

use crate::arrival;
use crate::background::with_state;
use crate::load::{LoadWatch, Reached};
use crate::pool::AuthorizedTab;
use crate::retry_plan;
use crate::web::{self, Tab};

use super::*;

/// Loads `url` in `tab`, or goes back, forward or reloads, and waits for the page.
pub async fn navigate(
    tab: AuthorizedTab,
    url: Option<&str>,
    action: Option<NavAction>,
    budget_ms: u32,
) -> Loaded {
    let load = LoadWatch::navigation();
    let trip = Trip {
        tab: tab.id(),
        url,
        action,
        load,
        started: web::now_ms(),
        budget_ms,
    };
    go_and_wait(trip).await
}

/// One navigation as asked: the tab, where to (or which way through its history), what ends
/// the wait, and when the call started with how long it may take.
#[derive(Clone, Copy)]
pub(super) struct Trip<'a> {
    pub tab: TabId,
    pub url: Option<&'a str>,
    pub action: Option<NavAction>,
    pub load: LoadWatch,
    pub started: f64,
    pub budget_ms: u32,
}

impl Trip<'_> {
    /// What is left of the call's budget (ms): every wait ends within it.
    fn left_ms(&self) -> f64 {
        (f64::from(self.budget_ms) - (web::now_ms() - self.started)).max(0.0)
    }
}

/// Starts the navigation, then waits until `load` is satisfied or the allowlist refuses it.
pub(super) async fn go_and_wait(trip: Trip<'_>) -> Loaded {
    let Trip { tab, url, .. } = trip;
    let mut tries = 0;
    loop {
        let (mark, loaded) = go_once(trip).await?;
        // The page's own navigation cancelled or replaced ours: ask again (twice at most, and
        // only while there is time).
        let replaced = matches!(&loaded, Ok(r)
        if matches!(
            with_state(|s| s.main_frames.reached(tab, mark, url, &r.url)),
            Reached::Superseded | Reached::Elsewhere
        ));
        tries += 1;
        if !retry_plan::navigate_again(replaced, url.is_some(), tries, trip.left_ms()) {
            return arrived(trip, mark, loaded).await;
        }
    }
}

/// One navigation and the wait for it: the mark its loads are counted from, and the outcome.
pub(super) async fn go_once(trip: Trip<'_>) -> Result<(u64, Loaded), ErrorBody> {
    let Trip {
        tab,
        url,
        action,
        load,
        started,
        budget_ms,
    } = trip;
    with_state(|s| s.blocked.remove(&tab));
    let mark = with_state(|s| s.main_frames.mark());
    let done = watch(tab, load);
    let asked_at = web::precise_ms();
    let go = match (url, action) {
        (Some(url), _) => web::call(web::tabs_update(tab.0, &web::to_js(&SetUrl { url })))
            .await
            .map_err(|e| arrival::refine_url_error(e, url)),
        (None, Some(NavAction::Back)) => web::call(web::tabs_go_back(tab.0))
            .await
            .map_err(|e| arrival::no_history(e, "back")),
        (None, Some(NavAction::Forward)) => web::call(web::tabs_go_forward(tab.0))
            .await
            .map_err(|e| arrival::no_history(e, "forward")),
        (None, Some(NavAction::Reload)) => web::call(web::tabs_reload(tab.0)).await,
        (None, None) => Err(ErrorBody::new(
            ErrorCode::InvalidArgument,
            "give a url or an action",
        )),
    };
    go?;
    let mut loaded = finish_wait(tab, done, started, asked_at, budget_ms).await;
    // A page that navigates by itself may finish a load of its own before ours: wait on for
    // ours (a bounded number of times, within the budget).
    for _ in 0..MAX_LOADS_PASSED {
        if !still_coming(tab, mark, url, &loaded) {
            break;
        }
        let done = watch(tab, LoadWatch::NextComplete);
        // Ours may have finished while the last report was made: then there is no next one.
        loaded = report(tab, started, LoadState::Complete).await;
        if !still_coming(tab, mark, url, &loaded) {
            break;
        }
        loaded = finish_wait(tab, done, started, asked_at, budget_ms).await;
    }
    Ok((mark, loaded))
}

pub(super) fn still_coming(tab: TabId, mark: u64, url: Option<&str>, loaded: &Loaded) -> bool {
    match loaded {
        Ok(r) if r.load_state == LoadState::Complete => {
            with_state(|s| s.main_frames.reached(tab, mark, url, &r.url)) == Reached::Pending
        }
        _ => false,
    }
}

/// Loads of other pages a navigation waits past for its own.
pub(super) const MAX_LOADS_PASSED: usize = 20;
/// How long a finished load waits for the network's word on it.
pub(super) const ARRIVING_MS: f64 = 1_000.0;
/// How long a finished load of which no request was seen waits for one.
pub(super) const UNREQUESTED_MS: f64 = 250.0;

/// Waits while `pending` holds, `ms` at most, looking again at each word from the network on
/// `tab`'s main-frame loads.
pub(super) async fn while_unheard(tab: TabId, ms: f64, pending: impl Fn() -> bool) {
    let until = web::now_ms() + ms;
    while pending() {
        let news = main_frame_news(tab);
        let left = (until - web::now_ms()).max(0.0) as u32;
        if left == 0 || web::with_deadline(left, news).await.is_none() {
            return;
        }
    }
}

/// Checks a finished load against what was asked: a failed load (connection refused, unknown
/// host) is an error, not Firefox's error page reported as loaded; a page that moved on by
/// itself is said so, with where the tab is now; a wait that ran out says what it waited for.
pub(super) async fn arrived(trip: Trip<'_>, mark: u64, loaded: Loaded) -> Loaded {
    let Trip {
        tab, url: asked, ..
    } = trip;
    let mut report = loaded?;
    // Judged by the tab's whole URL (a capped one is another page); answered capped.
    let full = std::mem::take(&mut report.url);
    report.url = crate::text::cap(&full, crate::text::MAX_URL_CHARS);
    let asked_text = asked.map_or("the page".into(), |a| {
        crate::text::cap(a, crate::text::MAX_URL_CHARS)
    });
    let reached = || with_state(|s| s.main_frames.reached(tab, mark, asked, &full));
    if report.load_state != LoadState::Complete {
        report.note = Some(arrival::waited_for(&asked_text, &reached(), &report.url));
        return Ok(report);
    }
    // The tab's "complete" may come before the network's word on the load: woken by that
    // word (an event, not a poll), for a second at most.
    while_unheard(tab, ARRIVING_MS.min(trip.left_ms()), || {
        reached() == Reached::Arriving
    })
    .await;
    // No request seen yet: Firefox may tell of it a moment late, or never (an address it
    // refuses itself); a short wait for that word before asking the page.
    while_unheard(tab, UNREQUESTED_MS.min(trip.left_ms()), || {
        reached() == Reached::Unrequested
    })
    .await;
    let mut reached = reached();
    // No request was seen: a page that takes our script is there (a same-document move);
    // Firefox's error page does not. A page too busy to say stays unknown.
    if reached == Reached::Unrequested {
        reached = match web::with_deadline(trip.left_ms() as u32, scriptable(tab)).await {
            Some(true) => Reached::Asked,
            Some(false) => Reached::Failed(crate::load::unrequested_error()),
            None => Reached::Unrequested,
        };
    }
    if let Some(note) = arrival::verdict(&reached, tab, &asked_text, &report.url)? {
        report.note = Some(note);
    }
    Ok(report)
}

/// Waits, `ms` at most, until the network has told how `tab`'s newest main-frame load
/// ended.
pub async fn main_frame_settled(tab: TabId, ms: f64) {
    while_unheard(tab, ms, || !with_state(|s| s.main_frames.settled(tab))).await;
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
