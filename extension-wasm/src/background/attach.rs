//! The user's own tabs: listing every tab, and letting an agent drive one (attach) until it
//! gives it back (detach, goodbye, or the user's "give back" in the popup). An attached tab is
//! owned like any agent tab but never closed by us.

use claudezilla_protocol::reply;
use claudezilla_protocol::reply::TabReport;
use claudezilla_protocol::{AgentId, ErrorBody, TabId};
use serde::Serialize;

use super::{config, content, now, with_state};
use crate::approvals;
use crate::attaching::{self, Attacher, UserTab};
use crate::web::{self, Tab};

#[derive(Serialize)]
struct AnyTab {}

pub async fn list_all(agent: &AgentId) -> Result<reply::AllTabs, ErrorBody> {
    let tabs: Vec<Tab> = web::call_as(web::tabs_query(&web::to_js(&AnyTab {}))).await?;
    let tabs = tabs.into_iter().map(approvals::ListedTab::from).collect();
    let tabs = with_state(|s| approvals::listing(&s.pool, agent, tabs));
    Ok(reply::AllTabs { tabs })
}

/// One agent's request for one of the user's tabs.
struct Browser<'a> {
    agent: &'a AgentId,
}

impl Attacher for Browser<'_> {
    async fn look(&self, tab: TabId) -> Result<UserTab, ErrorBody> {
        let t: Tab = web::call_as(web::tabs_get(tab.0)).await?;
        Ok(UserTab::from(t))
    }

    fn allowed(&self, url: &str) -> Result<(), ErrorBody> {
        config::check(self.agent, url)
    }

    fn private_allowed(&self) -> bool {
        with_state(|s| s.private_attach)
    }

    fn may_take(&self, tab: TabId) -> Result<(), ErrorBody> {
        with_state(|s| {
            s.pool.admit(self.agent, now())?;
            s.pool.can_attach(tab, self.agent)
        })
    }

    fn ask(&self, tab: TabId, title: &str, origin: &str, private: bool) -> Option<u32> {
        with_state(|s| {
            s.approvals
                .ask(self.agent.short(), tab, title, origin, private)
        })
    }

    fn answer(&self, request: u32, ms: u32) -> impl Future<Output = Option<bool>> {
        let (answer, answered) = futures_channel::oneshot::channel();
        with_state(|s| s.approval_wakers.insert(request, answer));
        async move { web::with_deadline(ms, answered).await?.ok() }
    }

    fn settle(&self, request: u32) {
        with_state(|s| {
            s.approvals.settle(request);
            s.approval_wakers.remove(&request);
        });
    }

    async fn show_badge(&self) {
        show_badge().await;
    }

    fn take(&self, tab: TabId, url: &str) -> Result<(), ErrorBody> {
        with_state(|s| s.attach_tab(self.agent, tab, url, now()))
    }

    fn changed(&self) {
        super::tabs_changed();
    }

    async fn start(&self, tab: TabId, title: &str) {
        if let Some(attached) = with_state(|s| {
            s.pool.update_page(tab, None, Some(title.to_owned()));
            s.pool.pool_tab(tab)
        }) {
            content::preload(attached).await;
        }
    }
}

/// Drives one of the user's tabs — once the user has allowed it in the toolbar popup. A tab
/// of a private window is not even asked for unless the user allowed that in the popup
/// ([`attaching::attach`]).
pub async fn attach(agent: &AgentId, tab: TabId, budget_ms: u32) -> Result<TabReport, ErrorBody> {
    attaching::attach(&Browser { agent }, tab, budget_ms).await
}

/// The toolbar button says how many requests wait for the user.
async fn show_badge() {
    let badge = with_state(|s| s.approvals.badge());
    let color = web::to_js(&approvals::BADGE_COLOR);
    let colored = web::browser_action_set_badge_background_color(&color);
    web::call_logged(|| "colour the toolbar badge".into(), colored).await;
    let shown = web::browser_action_set_badge_text(&web::to_js(&badge));
    web::call_logged(|| "show the toolbar badge".into(), shown).await;
}

/// The user's answer from the popup.
pub fn decide(request: u32, allow: bool) {
    if let Some(waiter) = with_state(|s| s.approval_wakers.remove(&request)) {
        let _ = waiter.send(allow);
    }
}

pub fn detach(agent: &AgentId, tab: TabId) -> Result<reply::Acted, ErrorBody> {
    let acted = with_state(|s| s.detach(agent, tab))?;
    forget(tab);
    Ok(acted)
}

/// The popup's "give back": the user ends an attachment.
pub fn give_back(tab: TabId) {
    if with_state(|s| s.user_takes_back(tab)) {
        forget(tab);
    }
}

/// Stops logging a tab given back to the user, and takes our hooks out of its page.
pub fn forget(tab: TabId) {
    with_state(|s| s.stop_logging(tab));
    super::tabs_changed();
    wasm_bindgen_futures::spawn_local(content::release(tab));
}
