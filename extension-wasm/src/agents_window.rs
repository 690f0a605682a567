//! The agents' window in the browser: a tab opened in it (in a new window where there is none,
//! or where it went meanwhile), the tab group that holds agents' tabs, an agent tab closed (an
//! attached one is the user's, refused), the window closed (refused while others work in it),
//! and released tabs closed in a turn at the window, each wait bounded. Written over
//! [`Windows`], whose methods are single browser calls; `background/tabs/mod.rs` is the
//! browser's side. The requests are the browser's own words, so they are written here.

use claudezilla_protocol::reply::{Closed, WindowClosed};
use claudezilla_protocol::{AgentId, ErrorBody, ErrorCode, TabId};
use serde::Serialize;

use crate::pool::{AuthorizedTab, Pool};
use crate::refusal::Refusal;

/// `tabs.create`'s properties for a tab in the agents' window.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateTab<'a> {
    window_id: u32,
    url: &'a str,
    active: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    cookie_store_id: Option<&'a str>,
}

/// `windows.create`'s properties for a new agents' window, in the schema's camelCase: Firefox
/// refuses a key it does not know (`cookie_store_id`), and with it the window.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateWindow<'a> {
    url: &'a str,
    incognito: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    cookie_store_id: Option<&'a str>,
}

/// A window the browser made, and its first tab.
#[derive(Debug, Clone, PartialEq)]
pub struct NewWindow {
    pub id: u32,
    pub first_tab: Option<TabId>,
}

/// `tabs.group`'s options: into the known group, else a new one in the window.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GroupTabs {
    tab_ids: [u32; 1],
    #[serde(skip_serializing_if = "Option::is_none")]
    group_id: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    create_properties: Option<InWindow>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InWindow {
    window_id: u32,
}

/// How the agents' tab group shows (`tabGroups.update`).
#[derive(Debug, Serialize)]
pub struct GroupLook {
    title: &'static str,
    color: &'static str,
}

const LOOK: GroupLook = GroupLook {
    title: "Claudezilla",
    color: "orange",
};

/// What the agents' window asks of the browser and of the pool.
pub trait Windows {
    /// A turn at the agents' window (the one tabs are opened in).
    type Turn;

    /// The pool, lent for one step (never across a wait).
    fn pool<R>(&self, f: impl FnOnce(&mut Pool) -> R) -> R;
    /// The pool's tabs changed: the listeners follow.
    fn changed(&self);
    /// Whether new windows are private (the user's switch).
    fn private(&self) -> bool;
    /// Whether the browser still has `window` (`windows.get`).
    fn window_alive(&self, window: u32) -> impl Future<Output = bool>;
    fn create_tab(&self, props: &CreateTab<'_>) -> impl Future<Output = Result<TabId, ErrorBody>>;
    fn create_window(
        &self,
        props: &CreateWindow<'_>,
    ) -> impl Future<Output = Result<NewWindow, ErrorBody>>;
    /// Marks the window in the browser's session store, for a restart.
    fn mark_window(&self, window: u32) -> impl Future<Output = ()>;
    /// `tabs.group`: the group the tab is in; None where the browser has no tab groups or
    /// grouping failed.
    fn group(&self, request: &GroupTabs) -> impl Future<Output = Option<u32>>;
    /// `tabGroups.update`, its failure ignored.
    fn style_group(&self, group: u32, look: &GroupLook) -> impl Future<Output = ()>;
    /// `tabs.remove` of one tab.
    fn remove_tab(&self, tab: TabId) -> impl Future<Output = Result<(), ErrorBody>>;
    /// `tabs.remove` of several tabs, its failure ignored.
    fn remove_tabs(&self, tabs: &[TabId]) -> impl Future<Output = ()>;
    /// `windows.remove`, its failure ignored.
    fn remove_window(&self, window: u32) -> impl Future<Output = ()>;
    fn turn(&self) -> impl Future<Output = Self::Turn>;
    /// `work`, or None once `ms` have passed.
    fn within<T>(&self, ms: u32, work: impl Future<Output = T>) -> impl Future<Output = Option<T>>;
}

/// Opens a background tab on `url` in cookie store `jar` (None: the user's) in the agents'
/// window, or in a new one where the pool knows none, the browser has it no more, or it closed
/// as the tab was asked for (another agent's last tabs went).
pub async fn open_tab<W: Windows>(w: &W, url: &str, jar: Option<&str>) -> Result<TabId, ErrorBody> {
    if let Some(window_id) = w.pool(|p| p.window)
        && w.window_alive(window_id).await
    {
        // Not activated: the active tab changes only for screenshots, under their lock.
        let props = CreateTab {
            window_id,
            url,
            active: false,
            cookie_store_id: jar,
        };
        match w.create_tab(&props).await {
            Err(e) if Refusal::of(&e.message) == Refusal::WindowGone => {}
            created => return created,
        }
    }
    let props = CreateWindow {
        url,
        incognito: w.private(),
        cookie_store_id: jar,
    };
    let window = w.create_window(&props).await?;
    w.pool(|p| p.window_opened(window.id));
    w.mark_window(window.id).await;
    window
        .first_tab
        .ok_or_else(|| ErrorBody::new(ErrorCode::Browser, "the new window has no tab"))
}

/// Puts the tab in the "Claudezilla" tab group of `window_id` where the browser has tab
/// groups; elsewhere (or if grouping fails) the dedicated window alone keeps agents' tabs
/// together. A group new to the pool is named and coloured.
pub async fn group<W: Windows>(w: &W, tab: TabId, window_id: u32) {
    let known = w.pool(|p| p.group);
    let request = GroupTabs {
        tab_ids: [tab.0],
        group_id: known,
        create_properties: known.is_none().then_some(InWindow { window_id }),
    };
    let Some(group) = w.group(&request).await else {
        return;
    };
    if known != Some(group) {
        w.pool(|p| p.group = Some(group));
        w.style_group(group, &LOOK).await;
    }
}

/// Closes an agent tab, out of the pool first; an attached tab is the user's and is refused.
pub async fn close<W: Windows>(w: &W, tab: AuthorizedTab) -> Result<Closed, ErrorBody> {
    let tab = tab.id();
    if w.pool(|p| p.is_attached(tab)) {
        return Err(ErrorBody::new(
            ErrorCode::Ownership,
            format!("Cannot close tab {tab}: it is the user's tab, attached"),
        )
        .with_hint("give it back with firefox_detach_tab; it stays open"));
    }
    w.pool(|p| p.remove(tab));
    w.remove_tab(tab)
        .await
        .map_err(|e| crate::tab_wait::gone(tab, e))?;
    Ok(Closed { tab_id: tab })
}

/// Closes the agents' window, if only `agent`'s tabs are in it; its tabs leave the pool first.
pub async fn close_window<W: Windows>(w: &W, agent: &AgentId) -> Result<WindowClosed, ErrorBody> {
    let (window, others) = w.pool(|p| (p.window, p.others_tabs(agent)));
    if others > 0 {
        return Err(window_in_use(others));
    }
    let Some(window) = window else {
        return Ok(WindowClosed { tabs_closed: 0 });
    };
    let closed = w.pool(|p| p.window_closed(window)).len() as u32;
    w.changed();
    w.remove_window(window).await;
    Ok(WindowClosed {
        tabs_closed: closed,
    })
}

/// The refusal for closing the window while others work in it.
fn window_in_use(others: usize) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::Ownership,
        format!("Cannot close the agent window: {others} tab(s) in it belong to other agents"),
    )
    .with_hint("close your own tabs with firefox_close_tab instead")
}

/// Closes tabs that were already taken out of the pool; tabs already gone are fine.
pub async fn remove_all<W: Windows>(w: &W, tabs: &[TabId]) {
    if tabs.is_empty() {
        return;
    }
    // Under the window's turn: a tab being opened meanwhile must not land in a window that
    // closes with these tabs. A holder may keep the turn for its whole call (up to minutes):
    // past a while these close without it, rather than hold up idle release, which runs this.
    let turn = w.within(REMOVE_TURN_MS, w.turn()).await;
    let _ = w.within(REMOVE_MS, w.remove_tabs(tabs)).await;
    drop(turn);
    // A window whose last agent tabs went closes: forget it now.
    w.pool(Pool::forget_window_if_empty);
}

/// Longest [`remove_all`] waits for the window's turn, then for the browser to close the tabs.
const REMOVE_TURN_MS: u32 = 15_000;
const REMOVE_MS: u32 = 10_000;

#[cfg(test)]
mod tests;
