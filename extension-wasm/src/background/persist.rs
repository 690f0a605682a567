//! The pool survives a restart of the background (extension reload or update) without
//! opening a second window: the agents' window and each agent tab carry a mark, stored by the
//! browser on the window and tab themselves (`sessions` values), which outlives our state and
//! dies with the tab. At start the marked window is found and its marked tabs re-adopted.

use claudezilla_protocol::{AgentId, TabId};
use serde::Serialize;

use super::{now, with_state};
use crate::pool::Pool;
use crate::web::{self, Tab};

const WINDOW_KEY: &str = "claudezilla-window";
const OWNER_KEY: &str = "claudezilla-owner";

#[derive(Serialize)]
struct Populate {
    populate: bool,
}

#[derive(serde::Deserialize)]
struct WindowWithTabs {
    id: u32,
    #[serde(default)]
    tabs: Vec<Tab>,
}

pub async fn mark_window(window: u32) {
    let _ = web::call(web::sessions_set_window_value(window, WINDOW_KEY, "agents")).await;
}

/// Marks a tab with its owner's fingerprint (the id itself is a secret and the session store
/// is written to disk).
pub async fn mark_tab(tab: u32, owner: &AgentId) {
    let mark = crate::tab_mark::of(owner);
    let _ = web::call(web::sessions_set_tab_value(tab, OWNER_KEY, &mark)).await;
}

/// Finds the marked window and re-adopts its marked tabs with their owners.
pub async fn restore() {
    let windows: Vec<WindowWithTabs> = web::call_as(web::windows_get_all(&web::to_js(&Populate {
        populate: true,
    })))
    .await
    .unwrap_or_default();
    for window in windows {
        let mark = web::call(web::sessions_get_window_value(window.id, WINDOW_KEY)).await;
        if mark.ok().and_then(|m| m.as_string()).as_deref() != Some("agents") {
            continue;
        }
        let mut tabs = Vec::new();
        let mut titles = Vec::new();
        let mut group = None;
        for tab in window.tabs {
            let owner = web::call(web::sessions_get_tab_value(tab.id, OWNER_KEY))
                .await
                .ok()
                .and_then(|v| v.as_string());
            let Some(owner) = owner.as_deref().and_then(crate::tab_mark::parse) else {
                continue;
            };
            group = group.or(tab.group_id.filter(|g| *g >= 0).map(|g| g as u32));
            titles.push((TabId(tab.id), tab.title));
            tabs.push((TabId(tab.id), owner, tab.url));
        }
        let count = tabs.len();
        let mut pool = Pool::adopted(window.id, group, tabs, now());
        for (tab, title) in titles {
            pool.update_page(tab, None, Some(title));
        }
        with_state(|s| s.pool = pool);
        super::tabs_changed();
        crate::web::log(&format!(
            "re-adopted window {} with {count} agent tab(s)",
            window.id
        ));
        return;
    }
}
