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
use crate::retry_plan::Budget;
use crate::saved_state::BrowserCookie;
use crate::site_data::{self, CookieQuery, Page, SiteData};
use crate::web::{self, Tab};

/// The browser's cookies, the agents' pages and containers, the state's switch and pool.
struct Browser;

impl SiteData for Browser {
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
        b: Budget,
    ) -> Result<StorageAnswer, ErrorBody> {
        content::answer(tab, 0, b.until, op, b.ms).await
    }

    async fn put_in_page(
        &self,
        tab: AuthorizedTab,
        op: PageOp,
        b: Budget,
    ) -> Result<(), ErrorBody> {
        content::round_trip::<Reply>(tab, 0, b.until, op, b.ms)
            .await
            .map(|_| ())
    }

    fn tabs(&self, agent: &AgentId) -> Vec<AuthorizedTab> {
        with_state(|s| {
            s.pool
                .owned_by(agent)
                .into_iter()
                .filter_map(|t| s.pool.pool_tab(t))
                .collect()
        })
    }

    async fn jar(&self, agent: &AgentId) -> Result<Option<Jar>, ErrorBody> {
        containers::jar_for(agent, None).await
    }

    fn allows(&self, agent: &AgentId, url: &str) -> bool {
        super::config::check(agent, url).is_ok()
    }

    fn now_s(&self) -> f64 {
        web::now_ms() / 1_000.0
    }
}

pub async fn cookies(tab: AuthorizedTab, a: CookiesArgs) -> Result<CookiesAnswer, ErrorBody> {
    site_data::cookies(&Browser, tab, a).await
}

pub async fn storage(
    tab: AuthorizedTab,
    a: StorageArgs,
    b: Budget,
) -> Result<StorageAnswer, ErrorBody> {
    site_data::storage(&Browser, tab, a, b).await
}

pub async fn save_state(agent: &AgentId, b: Budget) -> Result<SavedState, ErrorBody> {
    site_data::save_state(&Browser, agent, b).await
}

pub async fn load_state(
    agent: &AgentId,
    state: SavedState,
    b: Budget,
) -> Result<reply::Acted, ErrorBody> {
    site_data::load_state(&Browser, agent, state, b).await
}
