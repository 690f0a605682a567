//! The pool survives a restart of the background (extension reload or update) without
//! opening a second window: the agents' window and each agent tab carry a mark, stored by the
//! browser on the window and tab themselves (`sessions` values), which outlives our state and
//! dies with the tab. At start the marked window is found and its marked tabs re-adopted.

use claudezilla_protocol::AgentId;
use serde::Serialize;

use super::{now, with_state};
use crate::tab_mark::{self, AGENTS_WINDOW, Marks};
use crate::web::{self, Window};

const WINDOW_KEY: &str = "claudezilla-window";
const OWNER_KEY: &str = "claudezilla-owner";

#[derive(Serialize)]
struct Populate {
    populate: bool,
}

pub async fn mark_window(window: u32) {
    let mark = web::sessions_set_window_value(window, WINDOW_KEY, AGENTS_WINDOW);
    web::call_logged(|| format!("mark window {window} as the agents'"), mark).await;
}

/// Marks a tab with its owner's fingerprint (the id itself is a secret and the session store
/// is written to disk).
pub async fn mark_tab(tab: u32, owner: &AgentId) {
    let mark = crate::tab_mark::of(owner);
    let marked = web::sessions_set_tab_value(tab, OWNER_KEY, &mark);
    web::call_logged(|| format!("mark tab {tab} with its owner"), marked).await;
}

/// Finds the marked window and re-adopts its marked tabs with their owners
/// ([`tab_mark::restore`]).
pub async fn restore() {
    let populate = web::to_js(&Populate { populate: true });
    let windows: Vec<Window> = web::call_as(web::windows_get_all(&populate))
        .await
        .unwrap_or_default();
    let Some(restored) = tab_mark::restore(&Session, windows).await else {
        return;
    };
    let said = restored.said();
    with_state(|s| s.pool = restored.pool);
    super::tabs_changed();
    crate::web::log(&said);
}

/// The browser's session store.
struct Session;

impl Marks for Session {
    async fn window_mark(&self, window: u32) -> Option<String> {
        let mark = web::call(web::sessions_get_window_value(window, WINDOW_KEY)).await;
        mark.ok()?.as_string()
    }

    async fn tab_mark(&self, tab: u32) -> Option<String> {
        let mark = web::call(web::sessions_get_tab_value(tab, OWNER_KEY)).await;
        mark.ok()?.as_string()
    }

    fn now(&self) -> u64 {
        now()
    }
}
