//! The user's own tabs: listing every tab, and letting an agent drive one (attach) until it
//! gives it back (detach, goodbye, or the user's "give back" in the popup). An attached tab is
//! owned like any agent tab but never closed by us.

use claudezilla_protocol::reply::{BrowserTab, LoadState, TabReport};
use claudezilla_protocol::{AgentId, ErrorBody, ErrorCode, Outcome, Reply, TabId};
use serde::Serialize;

use super::{config, content, now, with_state};
use crate::web::{self, Tab};

#[derive(Serialize)]
struct AnyTab {}

pub async fn list_all(agent: &AgentId) -> Outcome {
    let tabs: Vec<Tab> = web::call_as(web::tabs_query(&web::to_js(&AnyTab {}))).await?;
    let tabs = with_state(|s| {
        tabs.into_iter()
            .map(|t| {
                let id = TabId(t.id);
                let owner = s.pool.owner(id);
                let mine = owner == Some(agent);
                // The agent's own tabs in full; the user's by title and origin (enough to pick
                // one to attach); another agent's by origin only.
                let (title, url) = match owner {
                    _ if mine => (t.title, crate::text::cap(&crate::request_log::redact_url(&t.url), crate::text::MAX_URL_CHARS)),
                    None => (t.title, crate::allowlist::origin(&t.url)),
                    Some(_) => (String::new(), crate::allowlist::origin(&t.url)),
                };
                BrowserTab {
                    tab_id: id,
                    window_id: t.window_id,
                    title,
                    url,
                    agent: owner.map(|o| o.short().to_owned()),
                    mine,
                    attached: s.pool.is_attached(id),
                }
            })
            .collect()
    });
    Ok(Reply::AllTabs { tabs })
}

pub async fn attach(agent: &AgentId, tab: TabId) -> Outcome {
    let now_tab: Tab = web::call_as(web::tabs_get(tab.0)).await.map_err(|e| {
        ErrorBody::new(
            ErrorCode::NoSuchTab,
            format!("tab {tab} does not exist ({})", e.message),
        )
        .with_hint("firefox_list_all_tabs lists the browser's tabs")
    })?;
    config::check(agent, &now_tab.url)?;
    with_state(|s| {
        s.pool.admit(agent, now())?;
        s.pool.attach(tab, agent, now_tab.url.clone())?;
        // The log starts at the attachment: what the user browsed before is not the agent's.
        s.requests.forget(tab);
        s.requests.claim(tab);
        Ok::<_, ErrorBody>(())
    })?;
    with_state(|s| s.pool.update_page(tab, None, Some(now_tab.title.clone())));
    content::preload(tab).await;
    Ok(Reply::Tab(TabReport {
        tab_id: tab,
        url: crate::text::cap(&now_tab.url, crate::text::MAX_URL_CHARS),
        title: now_tab.title,
        load_state: match now_tab.status.as_str() {
            "complete" => LoadState::Complete,
            _ => LoadState::Loading,
        },
        waited_ms: 0,
    }))
}

pub fn detach(agent: &AgentId, tab: TabId) -> Outcome {
    with_state(|s| s.pool.detach(agent, tab))?;
    forget(tab);
    Ok(Reply::Acted {
        what: format!("Gave tab {tab} back to the user; it stays open."),
    })
}

/// The popup's "give back": the user ends an attachment.
pub fn give_back(tab: TabId) {
    if with_state(|s| s.pool.is_attached(tab)) {
        with_state(|s| s.pool.remove(tab));
        forget(tab);
    }
}

/// Stops logging a tab given back to the user.
pub fn forget(tab: TabId) {
    with_state(|s| {
        s.console_tabs.remove(&tab);
        s.requests.forget(tab);
    });
}
