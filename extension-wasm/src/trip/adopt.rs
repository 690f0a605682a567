//! A tab an agent's page opened (`window.open`, a `target=_blank` link) becomes that agent's:
//! it counts against the pool (over the agent's share it is closed), it joins the agents'
//! window and group, and the agent hears of it — in the answer of the click that opened it
//! when one waits, else in a note with its next answer. One opened from a user's tab an agent
//! attached stays the user's (`pool::Opened`); the agent hears of that too. A tab is known
//! for a page's by its opener as it is made ([`created`]), or, for a popup window Firefox
//! gives no opener, by the navigation it was made for ([`navigation_target`]). Written over
//! [`Adopter`]; `background/tabs/mod.rs` is the browser's side.

use claudezilla_protocol::{AgentId, ErrorBody, TabId};
use serde::{Deserialize, Serialize};

use crate::browser_tab::Tab;
use crate::pool::Opened;

/// What became of a tab opened from a tab being clicked: the agent's tab, or closed and why.
pub type Adopted = Result<TabId, String>;

/// The tab a page opened, as the browser reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenedTab {
    pub id: TabId,
    pub url: String,
    pub window: u32,
}

impl OpenedTab {
    pub fn of(tab: Tab) -> Self {
        Self {
            id: TabId(tab.id),
            url: tab.url,
            window: tab.window_id,
        }
    }
}

/// `webNavigation.onCreatedNavigationTarget`: a tab or window made for a page's navigation.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NavigationTarget {
    source_tab_id: u32,
    tab_id: u32,
}

/// Where a tab moves: the end of the agents' window's tabs.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MoveTo {
    window_id: u32,
    index: i32,
}

impl MoveTo {
    pub fn end_of(window_id: u32) -> Self {
        Self {
            window_id,
            index: -1,
        }
    }
}

/// What taking an opened tab in asks of the pool and the browser.
pub trait Adopter {
    /// Whose a tab `opener`'s page opened is; none when `tab` is in the pool already or
    /// `opener` is no tab of the pool's.
    fn opened_from(&self, tab: TabId, opener: TabId) -> Option<Opened>;
    /// The tab as the browser has it now; none once it went.
    fn look(&self, tab: TabId) -> impl Future<Output = Option<Tab>>;
    /// Refuses a tab past `owner`'s share of the pool.
    fn admit(&self, owner: &AgentId) -> Result<(), ErrorBody>;
    fn close(&self, tab: TabId) -> impl Future<Output = ()>;
    /// Takes the tab into `owner`'s pool, its requests counted as the agent's.
    fn take(&self, tab: &OpenedTab, owner: &AgentId);
    /// Tells the click being answered on `opener`, if any, what became of a tab it opened;
    /// false when none waits.
    fn tell_click(&self, opener: TabId, adopted: &Adopted) -> bool;
    /// The pool changed (the popup and the badge show it).
    fn changed(&self);
    /// Marks the tab in the browser as `owner`'s, for a restart.
    fn mark(&self, tab: TabId, owner: &AgentId) -> impl Future<Output = ()>;
    /// The agents' window, once there is one.
    fn window(&self) -> Option<u32>;
    fn move_to(&self, tab: TabId, window: u32) -> impl Future<Output = ()>;
    /// Puts the tab with the agents' others (the tab group) in `window`.
    fn group(&self, tab: TabId, window: u32) -> impl Future<Output = ()>;
    fn notify(&self, agent: &AgentId, text: String);
}

/// The tab a page opened, of a tab the browser made: one with an opener, and that opener.
pub fn created(tab: Tab) -> Option<(OpenedTab, TabId)> {
    let opener = TabId(tab.opener_tab_id?);
    Some((OpenedTab::of(tab), opener))
}

/// A tab made for a page's navigation: a popup window the page opened (`window.open` with
/// window features), whose tab Firefox gives no opener, so only the navigation's source says
/// whose page opened it. One gone already, or with an opener ([`created`] took it), is left
/// alone.
pub async fn navigation_target<A: Adopter>(a: &A, target: NavigationTarget) {
    let Some(tab) = a.look(TabId(target.tab_id)).await else {
        return;
    };
    if tab.opener_tab_id.is_none() {
        adopt(a, OpenedTab::of(tab), TabId(target.source_tab_id)).await;
    }
}

/// Takes in `tab`, which `opener`'s page opened.
pub async fn adopt<A: Adopter>(a: &A, tab: OpenedTab, opener: TabId) {
    let Some(opened) = a.opened_from(tab.id, opener) else {
        return;
    };
    let owner = match opened {
        Opened::Agents(owner) => owner,
        Opened::Users { attached_by } => {
            return a.notify(&attached_by, users_tab(opener, tab.id));
        }
    };
    if let Err(full) = a.admit(&owner) {
        a.close(tab.id).await;
        let closed = Err(full.message);
        if !a.tell_click(opener, &closed) {
            a.notify(&owner, note(opener, &closed));
        }
        return;
    }
    a.take(&tab, &owner);
    let clicking = a.tell_click(opener, &Ok(tab.id));
    a.changed();
    a.mark(tab.id, &owner).await;
    // Into the agents' window with the agent's other tabs (a popup window included).
    let window = a.window();
    if let Some(window) = window.filter(|w| *w != tab.window) {
        a.move_to(tab.id, window).await;
    }
    if let Some(window) = window {
        a.group(tab.id, window).await;
    }
    // A click being answered names the tab itself.
    if !clicking {
        a.notify(&owner, note(opener, &Ok(tab.id)));
    }
}

/// What the agent hears of a tab its page opened that no answer names.
pub fn note(opener: TabId, adopted: &Adopted) -> String {
    match adopted {
        Ok(id) => format!(
            "your page in tab {opener} opened tab {id}; it is yours (firefox_get_tabs lists it, firefox_close_tab closes it)"
        ),
        Err(why) => format!("your page in tab {opener} opened a tab, which was closed: {why}"),
    }
}

/// What the agent driving a user's tab hears of a tab opened from it.
fn users_tab(opener: TabId, id: TabId) -> String {
    format!(
        "tab {opener} (the user's, attached to you) opened tab {id}: it is the user's, not yours — \
         the user may have opened it there (a middle-click, a sign-in popup), and the browser does not say who did; \
         firefox_attach_tab asks the user for it"
    )
}

#[cfg(test)]
mod tests;
