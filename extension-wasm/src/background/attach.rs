//! The user's own tabs: listing every tab, and letting an agent drive one (attach) until it
//! gives it back (detach, goodbye, or the user's "give back" in the popup). An attached tab is
//! owned like any agent tab but never closed by us.

use claudezilla_protocol::reply;
use claudezilla_protocol::reply::{BrowserTab, LoadState, TabReport};
use claudezilla_protocol::{AgentId, ErrorBody, ErrorCode, TabId};
use serde::Serialize;

use super::{config, content, now, with_state};
use crate::web::{self, Tab};

#[derive(Serialize)]
struct AnyTab {}

pub async fn list_all(agent: &AgentId) -> Result<reply::AllTabs, ErrorBody> {
    let tabs: Vec<Tab> = web::call_as(web::tabs_query(&web::to_js(&AnyTab {}))).await?;
    let tabs = with_state(|s| {
        tabs.into_iter()
            .map(|t| {
                let id = TabId(t.id);
                let owner = s.pool.owner(id);
                let mine = owner == Some(agent);
                let (title, url) = crate::approvals::seen_by(agent, owner, t.title, &t.url);
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
    Ok(reply::AllTabs { tabs })
}

/// The longest an agent waits for the user's answer.
const APPROVAL_WAIT_MS: u32 = 120_000;

/// Drives one of the user's tabs — once the user has allowed it in the toolbar popup. A tab
/// of a private window is not even asked for unless the user allowed that in the popup.
pub async fn attach(agent: &AgentId, tab: TabId, budget_ms: u32) -> Result<TabReport, ErrorBody> {
    let now_tab: Tab = web::call_as(web::tabs_get(tab.0)).await.map_err(|e| {
        ErrorBody::new(
            ErrorCode::NoSuchTab,
            format!("tab {tab} does not exist ({})", e.message),
        )
        .with_hint("firefox_list_all_tabs lists the browser's tabs")
    })?;
    config::check(agent, &now_tab.url)?;
    if now_tab.incognito && !with_state(|s| s.private_attach) {
        return Err(ErrorBody::new(
            ErrorCode::Denied,
            format!("tab {tab} is in a private window, which agents may not ask for"),
        )
        .with_hint("the user can allow asking for private tabs in the Claudezilla toolbar popup"));
    }
    // Asking the user is pointless when the tab could not be taken anyway.
    with_state(|s| {
        s.pool.admit(agent, now())?;
        s.pool.can_attach(tab, agent)
    })?;
    ask_the_user(agent, &now_tab, budget_ms).await?;
    // The user allowed the site they were shown: if the tab went elsewhere meanwhile, that
    // is not what they allowed.
    let now_tab = still_the_site_allowed(tab, &now_tab).await?;
    with_state(|s| {
        s.pool.admit(agent, now())?;
        s.pool.attach(tab, agent, now_tab.url.clone())?;
        // The log starts at the attachment: what the user browsed before is not the agent's.
        s.requests.forget(tab);
        s.requests.claim(tab);
        Ok::<_, ErrorBody>(())
    })?;
    super::tabs_changed();
    if let Some(attached) = with_state(|s| {
        s.pool.update_page(tab, None, Some(now_tab.title.clone()));
        s.pool.pool_tab(tab)
    }) {
        content::preload(attached).await;
    }
    Ok(TabReport {
        tab_id: tab,
        url: crate::text::cap(&now_tab.url, crate::text::MAX_URL_CHARS),
        title: now_tab.title,
        load_state: match now_tab.status.as_str() {
            "complete" => LoadState::Complete,
            _ => LoadState::Loading,
        },
        waited_ms: 0,
        note: None,
        container: None,
    })
}

/// The tab as it is now, if it still shows the site (origin) the user was asked about.
async fn still_the_site_allowed(tab: TabId, asked: &Tab) -> Result<Tab, ErrorBody> {
    let now: Tab = web::call_as(web::tabs_get(tab.0)).await.map_err(|e| {
        ErrorBody::new(
            ErrorCode::NoSuchTab,
            format!(
                "tab {tab} was closed while the user decided ({})",
                e.message
            ),
        )
    })?;
    crate::approvals::still_the_site(tab, &asked.url, &now.url)?;
    Ok(now)
}

/// Waits for the user's answer in the popup (the toolbar button shows how many wait).
async fn ask_the_user(agent: &AgentId, tab: &Tab, budget_ms: u32) -> Result<(), ErrorBody> {
    let id = TabId(tab.id);
    let origin = crate::allowlist::origin(&tab.url);
    let asked = with_state(|s| {
        s.approvals
            .ask(agent.short(), id, &tab.title, &origin, tab.incognito)
    });
    let Some(request) = asked else {
        return Err(ErrorBody::new(
            ErrorCode::Busy,
            format!("tab {id} is asked for already, or too many requests wait for the user"),
        )
        .with_hint("wait for the user to answer the requests in the Claudezilla popup"));
    };
    let (answer, answered) = futures_channel::oneshot::channel();
    with_state(|s| s.approval_wakers.insert(request, answer));
    show_badge().await;
    let wait = APPROVAL_WAIT_MS.min(budget_ms);
    let decision = web::with_deadline(wait, answered).await;
    with_state(|s| {
        s.approvals.settle(request);
        s.approval_wakers.remove(&request);
    });
    show_badge().await;
    match decision {
        Some(Ok(true)) => Ok(()),
        Some(Ok(false)) => Err(ErrorBody::new(
            ErrorCode::Denied,
            format!("the user refused to let you drive tab {id}"),
        )
        .with_hint("do not ask again unless the user tells you to")),
        _ => Err(ErrorBody::new(
            ErrorCode::Denied,
            format!("the user did not answer within {} s", wait / 1_000),
        )
        .with_hint("ask the user to click the Claudezilla toolbar button (it shows a badge) and allow it, then call firefox_attach_tab again")),
    }
}

#[derive(Serialize)]
struct Badge<'a> {
    text: &'a str,
}

#[derive(Serialize)]
struct BadgeColor {
    color: &'static str,
}

/// The toolbar button says how many requests wait for the user.
async fn show_badge() {
    let text = with_state(|s| s.approvals.badge());
    let _ = web::call(web::browser_action_set_badge_background_color(&web::to_js(
        &BadgeColor { color: "#d93025" },
    )))
    .await;
    let _ = web::call(web::browser_action_set_badge_text(&web::to_js(&Badge {
        text: &text,
    })))
    .await;
}

/// The user's answer from the popup.
pub fn decide(request: u32, allow: bool) {
    if let Some(waiter) = with_state(|s| s.approval_wakers.remove(&request)) {
        let _ = waiter.send(allow);
    }
}

pub fn detach(agent: &AgentId, tab: TabId) -> Result<reply::Acted, ErrorBody> {
    with_state(|s| s.pool.detach(agent, tab))?;
    forget(tab);
    Ok(reply::Acted {
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

/// Stops logging a tab given back to the user, and takes our hooks out of its page.
pub fn forget(tab: TabId) {
    with_state(|s| {
        s.console_tabs.remove(&tab);
        s.body_tabs.remove(&tab);
        s.requests.forget(tab);
    });
    super::tabs_changed();
    wasm_bindgen_futures::spawn_local(content::release(tab));
}
