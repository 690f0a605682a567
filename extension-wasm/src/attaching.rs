//! `firefox_attach_tab`: an agent drives one of the user's tabs once the user allows it in the
//! toolbar popup (`attach`). Its order: the tab found, the allowlists asked, a private tab
//! refused unless the user allows asking for one, the pool asked before the user is (asking
//! is pointless when the tab could not be taken), the user asked and waited for (two minutes
//! at most, within the call's budget), the tab looked at again — it must still show the site
//! the user allowed — and only then taken. Over [`Attacher`], which `background/attach.rs`
//! implements.

use claudezilla_protocol::reply::{LoadState, TabReport};
use claudezilla_protocol::{ErrorBody, ErrorCode, TabId};

use crate::allowlist::origin;
use crate::approvals::still_the_site;
use crate::browser_tab::Tab;

/// The longest an agent waits for the user's answer.
const APPROVAL_WAIT_MS: u32 = 120_000;

/// A tab of the user's as the browser shows it now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserTab {
    pub url: String,
    pub title: String,
    /// Its load has completed.
    pub complete: bool,
    /// It is in a private window.
    pub private: bool,
}

impl From<Tab> for UserTab {
    fn from(t: Tab) -> Self {
        Self {
            url: t.url,
            title: t.title,
            complete: t.status == "complete",
            private: t.incognito,
        }
    }
}

/// What attaching asks of the pool, the popup and the browser, for one agent.
pub trait Attacher {
    fn look(&self, tab: TabId) -> impl Future<Output = Result<UserTab, ErrorBody>>;
    /// Refuses an address outside the user's or the agent's allowlist.
    fn allowed(&self, url: &str) -> Result<(), ErrorBody>;
    /// The user lets agents ask for tabs of private windows.
    fn private_allowed(&self) -> bool;
    /// Refuses the tab where the pool could not give it to the agent (its share, an owner).
    fn may_take(&self, tab: TabId) -> Result<(), ErrorBody>;
    /// Puts the request before the user; none when the tab is asked for already or too many
    /// wait.
    fn ask(&self, tab: TabId, title: &str, origin: &str, private: bool) -> Option<u32>;
    /// The user's answer to `request` within `ms`: none when there was none. Listens from the
    /// call on, so an answer given before the returned future is awaited is not lost.
    fn answer(&self, request: u32, ms: u32) -> impl Future<Output = Option<bool>>;
    /// The request leaves the popup, answered or not.
    fn settle(&self, request: u32);
    /// The toolbar button says how many requests wait.
    fn show_badge(&self) -> impl Future<Output = ()>;
    /// Gives the tab at `url` to the agent (the pool asked again: time passed).
    fn take(&self, tab: TabId, url: &str) -> Result<(), ErrorBody>;
    /// The pool changed.
    fn changed(&self);
    /// The pool shows the tab's title, and the content script starts in its page.
    fn start(&self, tab: TabId, title: &str) -> impl Future<Output = ()>;
}

/// Drives `tab` for the agent, once the user has allowed it within `budget_ms`.
pub async fn attach<A: Attacher>(
    a: &A,
    tab: TabId,
    budget_ms: u32,
) -> Result<TabReport, ErrorBody> {
    let asked = a.look(tab).await.map_err(|e| {
        ErrorBody::new(
            ErrorCode::NoSuchTab,
            format!("tab {tab} does not exist ({})", e.message),
        )
        .with_hint("firefox_list_all_tabs lists the browser's tabs")
    })?;
    a.allowed(&asked.url)?;
    if asked.private && !a.private_allowed() {
        return Err(ErrorBody::new(
            ErrorCode::Denied,
            format!("tab {tab} is in a private window, which agents may not ask for"),
        )
        .with_hint("the user can allow asking for private tabs in the Claudezilla toolbar popup"));
    }
    a.may_take(tab)?;
    ask_the_user(a, tab, &asked, APPROVAL_WAIT_MS.min(budget_ms)).await?;
    let now = still_the_site_allowed(a, tab, &asked).await?;
    a.take(tab, &now.url)?;
    a.changed();
    a.start(tab, &now.title).await;
    Ok(TabReport {
        tab_id: tab,
        url: crate::text::cap(&now.url, crate::text::MAX_URL_CHARS),
        title: now.title,
        load_state: match now.complete {
            true => LoadState::Complete,
            false => LoadState::Loading,
        },
        waited_ms: 0,
        note: None,
        container: None,
    })
}

/// The tab as it is now, if it still shows the site (origin) the user was asked about: if it
/// went elsewhere meanwhile, that is not what they allowed.
async fn still_the_site_allowed<A: Attacher>(
    a: &A,
    tab: TabId,
    asked: &UserTab,
) -> Result<UserTab, ErrorBody> {
    let now = a.look(tab).await.map_err(|e| {
        ErrorBody::new(
            ErrorCode::NoSuchTab,
            format!(
                "tab {tab} was closed while the user decided ({})",
                e.message
            ),
        )
    })?;
    still_the_site(tab, &asked.url, &now.url)?;
    Ok(now)
}

/// Waits up to `wait` ms for the user's answer in the popup (the toolbar button shows how
/// many wait meanwhile).
async fn ask_the_user<A: Attacher>(
    a: &A,
    tab: TabId,
    shown: &UserTab,
    wait: u32,
) -> Result<(), ErrorBody> {
    let Some(request) = a.ask(tab, &shown.title, &origin(&shown.url), shown.private) else {
        return Err(ErrorBody::new(
            ErrorCode::Busy,
            format!("tab {tab} is asked for already, or too many requests wait for the user"),
        )
        .with_hint("wait for the user to answer the requests in the Claudezilla popup"));
    };
    let answer = a.answer(request, wait);
    a.show_badge().await;
    let decision = answer.await;
    a.settle(request);
    a.show_badge().await;
    match decision {
        Some(true) => Ok(()),
        Some(false) => Err(ErrorBody::new(
            ErrorCode::Denied,
            format!("the user refused to let you drive tab {tab}"),
        )
        .with_hint("do not ask again unless the user tells you to")),
        None => Err(ErrorBody::new(
            ErrorCode::Denied,
            format!("the user did not answer within {} s", wait / 1_000),
        )
        .with_hint("ask the user to click the Claudezilla toolbar button (it shows a badge) and allow it, then call firefox_attach_tab again")),
    }
}

#[cfg(test)]
mod tests;
