//! Cookies and web storage of an agent's tab (`firefox_cookies`, `firefox_storage`). They hold
//! login secrets, so both are off until the user switches them on in the popup (or Firefox was
//! started with `CLAUDEZILLA_ALLOW_STORAGE=1`), checked here on every call.

use claudezilla_protocol::args::{
    CookieAction, CookiesArgs, SavedState, StorageAction, StorageArea, StorageArgs,
};
use claudezilla_protocol::envelope::PageOp;
use claudezilla_protocol::reply;
use claudezilla_protocol::reply::{CookiesAnswer, StorageAnswer};
use claudezilla_protocol::{AgentId, ErrorBody, ErrorCode, Reply};
use serde::Serialize;

use super::{content, with_state};
use crate::allowlist::origin;
use crate::pool::AuthorizedTab;
use crate::saved_state::{BrowserCookie, LoadReport, admit, save_cookies, save_origin};
use crate::web::{self, Tab};

/// Most cookies one answer lists.
const MAX_COOKIES: usize = 200;

fn allowed() -> Result<(), ErrorBody> {
    if with_state(|s| s.storage_switch || s.tuning.allow_storage) {
        return Ok(());
    }
    Err(ErrorBody::new(
        ErrorCode::Disabled,
        "cookies and storage are switched off: they hold the user's logins",
    )
    .with_hint(
        "the user can switch them on in the Claudezilla toolbar popup (\"Allow cookies and storage\")",
    ))
}

/// The page's URL and cookie jar; only web pages have cookies.
async fn page_of(tab: AuthorizedTab) -> Result<(String, Option<String>), ErrorBody> {
    let now: Tab = web::call_as(web::tabs_get(tab.id().0)).await?;
    if !(now.url.starts_with("http://") || now.url.starts_with("https://")) {
        return Err(ErrorBody::new(
            ErrorCode::PageError,
            format!(
                "tab {} shows {}, which has no cookies",
                tab.id(),
                crate::text::cap(&now.url, 200)
            ),
        )
        .with_hint("navigate the tab to the site first"));
    }
    Ok((now.url, now.cookie_store_id))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CookieQuery<'a> {
    url: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    store_id: Option<&'a str>,
}

pub async fn cookies(tab: AuthorizedTab, a: CookiesArgs) -> Result<CookiesAnswer, ErrorBody> {
    allowed()?;
    let (url, store) = page_of(tab).await?;
    let query = CookieQuery {
        url: &url,
        name: a.name.as_deref(),
        value: a.value.as_deref(),
        store_id: store.as_deref(),
    };
    let site = crate::text::cap(&url, 200);
    match a.action {
        CookieAction::Get => {
            let all: Vec<BrowserCookie> =
                web::call_as(web::cookies_get_all(&web::to_js(&query))).await?;
            let cookies = all
                .into_iter()
                .take(MAX_COOKIES)
                .map(BrowserCookie::shown)
                .collect();
            Ok(CookiesAnswer::Cookies(reply::Cookies {
                url: site,
                cookies,
            }))
        }
        CookieAction::Set => {
            web::call(web::cookies_set(&web::to_js(&query))).await?;
            Ok(CookiesAnswer::Acted(reply::Acted {
                what: format!("Set cookie {:?} for {site}.", a.name.unwrap_or_default()),
            }))
        }
        CookieAction::Delete => {
            let query = CookieQuery {
                value: None,
                ..query
            };
            let removed = web::call(web::cookies_remove(&web::to_js(&query))).await?;
            let what = if removed.is_null() || removed.is_undefined() {
                format!(
                    "No cookie {:?} for {site}: nothing deleted.",
                    a.name.unwrap_or_default()
                )
            } else {
                format!(
                    "Deleted cookie {:?} for {site}.",
                    a.name.unwrap_or_default()
                )
            };
            Ok(CookiesAnswer::Acted(reply::Acted { what }))
        }
    }
}

pub async fn storage(
    tab: AuthorizedTab,
    a: StorageArgs,
    until: u64,
    budget_ms: u32,
) -> Result<StorageAnswer, ErrorBody> {
    allowed()?;
    page_of(tab).await?;
    let op = PageOp::Storage {
        action: a.action,
        area: a.area,
        key: a.key,
        value: a.value,
    };
    content::answer(tab, 0, until, op, budget_ms).await
}

/// `firefox_storage_state` save: the cookies and local storage of the agent's open sites —
/// only those the allowlists allow (`crate::saved_state`).
pub async fn save_state(
    agent: &AgentId,
    until: u64,
    budget_ms: u32,
) -> Result<SavedState, ErrorBody> {
    allowed()?;
    save(agent, until, budget_ms).await
}

/// `firefox_storage_state` load: a saved state put back into the agent's session (its own
/// container's jar, or the user's), for the sites it has open and the allowlists allow.
pub async fn load_state(
    agent: &AgentId,
    state: SavedState,
    until: u64,
    budget_ms: u32,
) -> Result<reply::Acted, ErrorBody> {
    allowed()?;
    load(agent, state, until, budget_ms).await
}

/// The agent's tabs showing web pages: each with its URL and cookie jar.
async fn agent_pages(agent: &AgentId) -> Vec<(AuthorizedTab, String, Option<String>)> {
    let tabs: Vec<AuthorizedTab> = with_state(|s| {
        s.pool
            .owned_by(agent)
            .into_iter()
            .filter_map(|t| s.pool.pool_tab(t))
            .collect()
    });
    let mut pages = Vec::new();
    for tab in tabs {
        if let Ok((url, store)) = page_of(tab).await {
            pages.push((tab, url, store));
        }
    }
    pages
}

async fn save(agent: &AgentId, until: u64, budget_ms: u32) -> Result<SavedState, ErrorBody> {
    let mut state = SavedState::default();
    for (tab, url, store) in agent_pages(agent).await {
        let query = CookieQuery {
            url: &url,
            name: None,
            value: None,
            store_id: store.as_deref(),
        };
        let all: Vec<BrowserCookie> =
            web::call_as(web::cookies_get_all(&web::to_js(&query))).await?;
        save_cookies(&mut state, &origin(&url), all);
        let op = PageOp::Storage {
            action: StorageAction::Get,
            area: StorageArea::Local,
            key: None,
            value: None,
        };
        if let Ok(StorageAnswer::Stored(reply::Stored {
            origin, entries, ..
        })) = content::answer(tab, 0, until, op, budget_ms).await
        {
            save_origin(&mut state, origin, entries);
        }
    }
    Ok(state)
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SetCookie<'a> {
    url: &'a str,
    name: &'a str,
    value: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    domain: Option<&'a str>,
    path: &'a str,
    secure: bool,
    http_only: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    expiration_date: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    store_id: Option<&'a str>,
}

async fn load(
    agent: &AgentId,
    state: SavedState,
    until: u64,
    budget_ms: u32,
) -> Result<reply::Acted, ErrorBody> {
    let jar = super::containers::jar_for(agent, None).await?;
    let store = jar.as_ref().map(|j| j.cookie_store_id.as_str());
    let pages = agent_pages(agent).await;
    let open_hosts: Vec<String> = pages
        .iter()
        .filter_map(|(_, url, _)| crate::allowlist::host(url))
        .collect();
    let now_s = web::now_ms() / 1_000.0;
    let allowed = |url: &str| super::config::check(agent, url).is_ok();
    let mut report = LoadReport::default();
    for c in &state.cookies {
        if let Err(why) = admit(c, &open_hosts, allowed, now_s) {
            report.skip(why, c);
            continue;
        }
        let details = SetCookie {
            url: &c.url,
            name: &c.name,
            value: &c.value,
            domain: (!c.host_only).then_some(c.domain.as_str()),
            path: &c.path,
            secure: c.secure,
            http_only: c.http_only,
            expiration_date: c.expires,
            store_id: store,
        };
        if web::call(web::cookies_set(&web::to_js(&details)))
            .await
            .is_ok()
        {
            report.set += 1;
        }
    }
    for o in &state.origins {
        let Some((tab, ..)) = pages.iter().find(|(_, url, _)| origin(url) == o.origin) else {
            report.origin(&o.origin, false);
            continue;
        };
        for (key, value) in &o.local_storage {
            let op = PageOp::Storage {
                action: StorageAction::Set,
                area: StorageArea::Local,
                key: Some(key.clone()),
                value: Some(value.clone()),
            };
            content::round_trip::<Reply>(*tab, 0, until, op, budget_ms).await?;
        }
        report.origin(&o.origin, true);
    }
    let jar = jar.map_or("the user's session".to_owned(), |j| {
        format!("your container {}", j.name)
    });
    let what = report.words(state.cookies.len(), &jar);
    Ok(reply::Acted { what })
}
