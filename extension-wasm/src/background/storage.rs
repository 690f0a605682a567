//! Cookies and web storage of an agent's tab (`firefox_cookies`, `firefox_storage`,
//! `firefox_storage_state`): the browser's side of [`crate::site_data`], which decides. They
//! hold login secrets, so both are off until the user switches them on in the popup (or
//! Firefox was started with `CLAUDEZILLA_ALLOW_STORAGE=1`), checked there on every call.

use claudezilla_protocol::args::{CookiesArgs, SavedState, StorageArgs};
use claudezilla_protocol::envelope::PageOp;
use claudezilla_protocol::reply;
use claudezilla_protocol::reply::{CookiesAnswer, StorageAnswer};
use claudezilla_protocol::{AgentId, ErrorBody, Reply, TabId};
use serde::Serialize;

use super::{containers, content, with_state};
use crate::jars::Jar;
use crate::pool::AuthorizedTab;
use crate::saved_state::BrowserCookie;
use crate::site_data::{self, CookieQuery, Page, SiteData};
use crate::web::{self, Tab};

/// One agent's call, with its time.
struct Browser<'a> {
    agent: &'a AgentId,
    until: u64,
    budget_ms: u32,
}

impl<'a> Browser<'a> {
    fn of(agent: &'a AgentId, until: u64, budget_ms: u32) -> Self {
        Self {
            agent,
            until,
            budget_ms,
        }
    }
}

impl SiteData for Browser<'_> {
    type Tab = AuthorizedTab;

    fn id(&self, tab: AuthorizedTab) -> TabId {
        tab.id()
    }

    fn switched_on(&self) -> bool {
        with_state(|s| s.storage_switch || s.tuning.allow_storage)
    }

    async fn page(&self, tab: AuthorizedTab) -> Result<Page, ErrorBody> {
        let now: Tab = web::call_as(web::tabs_get(tab.id().0)).await?;
        Ok(Page {
            url: now.url,
            store: now.cookie_store_id,
        })
    }

    async fn cookies(&self, query: &CookieQuery<'_>) -> Result<Vec<BrowserCookie>, ErrorBody> {
        web::call_as(web::cookies_get_all(&web::to_js(query))).await
    }

    async fn set_cookie(&self, details: &impl Serialize) -> Result<(), ErrorBody> {
        web::call(web::cookies_set(&web::to_js(details)))
            .await
            .map(|_| ())
    }

    async fn remove_cookie(&self, query: &CookieQuery<'_>) -> Result<bool, ErrorBody> {
        let removed = web::call(web::cookies_remove(&web::to_js(query))).await?;
        Ok(!(removed.is_null() || removed.is_undefined()))
    }

    async fn page_storage(
        &self,
        tab: AuthorizedTab,
        op: PageOp,
    ) -> Result<StorageAnswer, ErrorBody> {
        content::answer(tab, 0, self.until, op, self.budget_ms).await
    }

    async fn put_in_page(&self, tab: AuthorizedTab, op: PageOp) -> Result<(), ErrorBody> {
        content::round_trip::<Reply>(tab, 0, self.until, op, self.budget_ms)
            .await
            .map(|_| ())
    }

    fn tabs(&self) -> Vec<AuthorizedTab> {
        with_state(|s| {
            s.pool
                .owned_by(self.agent)
                .into_iter()
                .filter_map(|t| s.pool.pool_tab(t))
                .collect()
        })
    }

    async fn jar(&self) -> Result<Option<Jar>, ErrorBody> {
        containers::jar_for(self.agent, None).await
    }

    fn allows(&self, url: &str) -> bool {
        super::config::check(self.agent, url).is_ok()
    }

    fn now_s(&self) -> f64 {
        web::now_ms() / 1_000.0
    }
}

pub async fn cookies(
    agent: &AgentId,
    tab: AuthorizedTab,
    a: CookiesArgs,
    until: u64,
    budget_ms: u32,
) -> Result<CookiesAnswer, ErrorBody> {
    site_data::cookies(&Browser::of(agent, until, budget_ms), tab, a).await
}

pub async fn storage(
    agent: &AgentId,
    tab: AuthorizedTab,
    a: StorageArgs,
    until: u64,
    budget_ms: u32,
) -> Result<StorageAnswer, ErrorBody> {
    site_data::storage(&Browser::of(agent, until, budget_ms), tab, a).await
}

pub async fn save_state(
    agent: &AgentId,
    until: u64,
    budget_ms: u32,
) -> Result<SavedState, ErrorBody> {
    site_data::save_state(&Browser::of(agent, until, budget_ms)).await
}

pub async fn load_state(
    agent: &AgentId,
    state: SavedState,
    until: u64,
    budget_ms: u32,
) -> Result<reply::Acted, ErrorBody> {
    site_data::load_state(&Browser::of(agent, until, budget_ms), state).await
}
