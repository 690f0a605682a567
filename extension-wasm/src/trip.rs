//! One navigation carried to its page: started, waited for past the loads the page makes of
//! its own, asked again where the page's own navigation replaced it or the browser broke it
//! ([`retry_plan`] decides), and judged against what was asked — a failed load is an error, a
//! page that moved on or a wait that ran out is said so. Written over [`Tabs`], so the flow is tested natively;
//! `background/tabs/navigation.rs` is the browser's side.

use claudezilla_protocol::args::NavAction;
use claudezilla_protocol::reply::{LoadState, TabReport};
use claudezilla_protocol::{ErrorBody, ErrorCode, TabId};

use crate::arrival;
use crate::load::{LoadWatch, Reached};
use crate::retry_plan;

/// A tab's page as a navigation or a new tab answers it.
pub use crate::tab_wait::Loaded;

/// Where a navigation goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Go<'a> {
    To(&'a str),
    Back,
    Forward,
    Reload,
}

impl<'a> Go<'a> {
    /// An address wins over an action; one of the two is needed.
    pub fn of(url: Option<&'a str>, action: Option<NavAction>) -> Result<Self, ErrorBody> {
        match (url, action) {
            (Some(url), _) => Ok(Self::To(url)),
            (None, Some(NavAction::Back)) => Ok(Self::Back),
            (None, Some(NavAction::Forward)) => Ok(Self::Forward),
            (None, Some(NavAction::Reload)) => Ok(Self::Reload),
            (None, None) => Err(ErrorBody::new(
                ErrorCode::InvalidArgument,
                "give a url or an action",
            )),
        }
    }

    /// The address asked for, if one was.
    pub fn address(self) -> Option<&'a str> {
        match self {
            Self::To(url) => Some(url),
            Self::Back | Self::Forward | Self::Reload => None,
        }
    }

    /// The browser's refusal to go, in the agent's terms.
    fn refused(self, e: ErrorBody) -> ErrorBody {
        match self {
            Self::To(url) => arrival::refine_url_error(e, url),
            Self::Back => arrival::no_history(e, "back"),
            Self::Forward => arrival::no_history(e, "forward"),
            Self::Reload => e,
        }
    }
}

/// What the flow asks of the browser for one tab, within one call's budget.
pub trait Tabs {
    /// A load waiter, registered before the load is asked for so its end is not missed.
    type Waiter;

    fn tab(&self) -> TabId;
    /// Forgets an earlier refusal of this tab's loads and marks the point from which the
    /// network's main-frame loads count as this navigation's candidates.
    fn mark(&self) -> u64;
    fn watch(&self, load: LoadWatch) -> Self::Waiter;
    fn go(&self, go: Go<'_>) -> impl Future<Output = Result<(), ErrorBody>>;
    /// Waits for `waiter` within what is left of the budget and reports the tab (loading,
    /// when the budget ran out).
    fn finish(&self, waiter: Self::Waiter) -> impl Future<Output = Loaded>;
    /// The tab as it is now, reported as loaded.
    fn report(&self) -> impl Future<Output = Loaded>;
    /// Where the tab's loads since `mark` leave the one asked for (`asked`: its address),
    /// the tab now at `url`.
    fn reached(&self, mark: u64, asked: Option<&str>, url: &str) -> Reached;
    /// Completes at the network's next word on the tab's main-frame loads: false when none
    /// came within `ms`.
    fn news(&self, ms: u32) -> impl Future<Output = bool>;
    /// Whether the tab's page takes a script (an error page does not); none when it did not
    /// say within `ms`.
    fn scriptable(&self, ms: u32) -> impl Future<Output = Option<bool>>;
    /// What is left of the call's budget (ms).
    fn left_ms(&self) -> f64;
    fn now_ms(&self) -> f64;
}

/// Loads of other pages a navigation waits past for its own.
pub const MAX_LOADS_PASSED: usize = 20;
/// How long a finished load waits for the network's word on it.
pub const ARRIVING_MS: f64 = 1_000.0;
/// How long a finished load of which no request was seen waits for one.
pub const UNREQUESTED_MS: f64 = 250.0;

/// Goes, waits until `load` is satisfied, asks again where the page's own navigation replaced
/// ours or the browser broke it (an address only, while time is left), and judges where the
/// tab arrived.
pub async fn go_and_wait<T: Tabs>(tabs: &T, go: Go<'_>, load: LoadWatch) -> Loaded {
    let asked = go.address();
    let mut tries = 0;
    loop {
        let (mark, loaded) = go_once(tabs, go, load).await?;
        // Only an address is asked again: back, forward and reload are judged once, after.
        let again = match (&loaded, asked) {
            (Ok(r), Some(_)) => heard_of(tabs, mark, asked, r).await.asks_again(),
            _ => false,
        };
        tries += 1;
        if !retry_plan::navigate_again(again, asked.is_some(), tries, tabs.left_ms()) {
            return arrived(tabs, asked, mark, loaded).await;
        }
    }
}

/// Where the tab, as `report`ed, stands against the asked load; for a finished load, once the
/// network's word on it has come (an event, not a poll; a second at most): the tab's
/// "complete" may come first, and a load the browser broke is only known by that word.
async fn heard_of<T: Tabs>(
    tabs: &T,
    mark: u64,
    asked: Option<&str>,
    report: &TabReport,
) -> Reached {
    let reached = || tabs.reached(mark, asked, &report.url);
    if report.load_state == LoadState::Complete {
        while_unheard(tabs, ARRIVING_MS.min(tabs.left_ms()), || {
            reached() == Reached::Arriving
        })
        .await;
    }
    reached()
}

/// One navigation and the wait for it: the mark its loads are counted from, and the outcome.
async fn go_once<T: Tabs>(
    tabs: &T,
    go: Go<'_>,
    load: LoadWatch,
) -> Result<(u64, Loaded), ErrorBody> {
    let asked = go.address();
    let mark = tabs.mark();
    let done = tabs.watch(load);
    tabs.go(go).await.map_err(|e| go.refused(e))?;
    let mut loaded = tabs.finish(done).await;
    // A page that navigates by itself may finish a load of its own before ours: wait on for
    // ours (a bounded number of times, within the budget).
    for _ in 0..MAX_LOADS_PASSED {
        if !still_coming(tabs, mark, asked, &loaded) {
            break;
        }
        let done = tabs.watch(LoadWatch::NextComplete);
        // Ours may have finished while the last report was made: then there is no next one.
        loaded = tabs.report().await;
        if !still_coming(tabs, mark, asked, &loaded) {
            break;
        }
        loaded = tabs.finish(done).await;
    }
    Ok((mark, loaded))
}

fn still_coming<T: Tabs>(tabs: &T, mark: u64, asked: Option<&str>, loaded: &Loaded) -> bool {
    match loaded {
        Ok(r) if r.load_state == LoadState::Complete => {
            tabs.reached(mark, asked, &r.url) == Reached::Pending
        }
        _ => false,
    }
}

/// Waits while `pending` holds, `ms` at most, looking again at each word from the network on
/// the tab's main-frame loads.
pub async fn while_unheard<T: Tabs>(tabs: &T, ms: f64, pending: impl Fn() -> bool) {
    let until = tabs.now_ms() + ms;
    while pending() {
        let left = (until - tabs.now_ms()).max(0.0) as u32;
        if left == 0 || !tabs.news(left).await {
            return;
        }
    }
}

/// Checks a finished load against what was asked (`asked`: the address, none for back,
/// forward or reload): a failed load (connection refused, unknown host) is an error, not
/// Firefox's error page reported as loaded; a page that moved on by itself is said so, with
/// where the tab is now; a wait that ran out says what it waited for.
pub async fn arrived<T: Tabs>(tabs: &T, asked: Option<&str>, mark: u64, loaded: Loaded) -> Loaded {
    let mut report = loaded?;
    // Judged by the tab's whole URL (a capped one is another page); answered capped.
    let full = std::mem::take(&mut report.url);
    report.url = crate::text::cap(&full, crate::text::MAX_URL_CHARS);
    let asked_text = asked.map_or("the page".into(), |a| {
        crate::text::cap(a, crate::text::MAX_URL_CHARS)
    });
    let reached = || tabs.reached(mark, asked, &full);
    if report.load_state != LoadState::Complete {
        report.note = Some(arrival::waited_for(&asked_text, &reached(), &report.url));
        return Ok(report);
    }
    // The tab's "complete" may come before the network's word on the load: woken by that
    // word (an event, not a poll), for a second at most.
    while_unheard(tabs, ARRIVING_MS.min(tabs.left_ms()), || {
        reached() == Reached::Arriving
    })
    .await;
    // No request seen yet: Firefox may tell of it a moment late, or never (an address it
    // refuses itself); a short wait for that word before asking the page.
    while_unheard(tabs, UNREQUESTED_MS.min(tabs.left_ms()), || {
        reached() == Reached::Unrequested
    })
    .await;
    let mut reached = reached();
    // No request was seen: a page that takes our script is there (a same-document move);
    // Firefox's error page does not. A page too busy to say stays unknown.
    if reached == Reached::Unrequested {
        reached = match tabs.scriptable(tabs.left_ms() as u32).await {
            Some(true) => Reached::Asked,
            Some(false) => Reached::Failed(crate::load::unrequested_error()),
            None => Reached::Unrequested,
        };
    }
    if let Some(note) = arrival::verdict(&reached, tabs.tab(), &asked_text, &report.url)? {
        report.note = Some(note);
    }
    Ok(report)
}

pub mod adopt;
pub mod clicked;
pub mod open;

#[cfg(test)]
mod tests;
