//! What the cookie and storage tools do with an agent's sites: `firefox_cookies` (get, set,
//! delete on the tab's page, in its own jar), `firefox_storage` (handed to the page), and
//! `firefox_storage_state` (saved from every web page the agent has open; loaded only where
//! [`crate::saved_state`] admits it). All are refused until the user's switch is on, and only
//! web pages have cookies. Over [`SiteData`], which `background/storage.rs` implements with
//! `cookies.*`, the tab's page and the agent's containers.

use claudezilla_protocol::args::{
    CookieAction, CookiesArgs, SavedState, StorageAction, StorageArea, StorageArgs,
};
use claudezilla_protocol::envelope::PageOp;
use claudezilla_protocol::reply::{self, CookiesAnswer, StorageAnswer};
use claudezilla_protocol::{AgentId, ErrorBody, ErrorCode, TabId};
use serde::Serialize;

use crate::allowlist::{host, origin};
use crate::jars::Jar;
use crate::retry_plan::Budget;
use crate::saved_state::{BrowserCookie, LoadReport, admit, save_cookies, save_origin};

/// Most cookies one answer lists.
const MAX_COOKIES: usize = 200;

/// Which cookies a `cookies.*` call means.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CookieQuery<'a> {
    pub url: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub store_id: Option<&'a str>,
}

/// A saved cookie as `cookies.set` takes it back.
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

/// A tab's page as the browser shows it now: its address and cookie jar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    pub url: String,
    pub store: Option<String>,
}

/// What the tools ask of one agent's call: the user's switch, the browser's cookies, the
/// agent's tabs and their pages, its jar and its allowlists.
pub trait SiteData {
    /// A tab the pool authorized.
    type Tab: Copy;
    fn id(&self, tab: Self::Tab) -> TabId;
    /// The user's switch for cookies and storage is on (popup or environment).
    fn switched_on(&self) -> bool;
    fn page(&self, tab: Self::Tab) -> impl Future<Output = Result<Page, ErrorBody>>;
    fn cookies(
        &self,
        query: &CookieQuery<'_>,
    ) -> impl Future<Output = Result<Vec<BrowserCookie>, ErrorBody>>;
    fn set_cookie(&self, details: &impl Serialize) -> impl Future<Output = Result<(), ErrorBody>>;
    /// True when the browser removed a cookie.
    fn remove_cookie(
        &self,
        query: &CookieQuery<'_>,
    ) -> impl Future<Output = Result<bool, ErrorBody>>;
    /// The page's own answer to a storage operation, within the call's budget.
    fn page_storage(
        &self,
        tab: Self::Tab,
        op: PageOp,
        b: Budget,
    ) -> impl Future<Output = Result<StorageAnswer, ErrorBody>>;
    /// Hands the page a storage operation, whatever it answers, within the call's budget.
    fn put_in_page(
        &self,
        tab: Self::Tab,
        op: PageOp,
        b: Budget,
    ) -> impl Future<Output = Result<(), ErrorBody>>;
    /// The agent's tabs.
    fn tabs(&self, agent: &AgentId) -> Vec<Self::Tab>;
    /// The jar the agent's tabs open in (None: the user's session).
    fn jar(&self, agent: &AgentId) -> impl Future<Output = Result<Option<Jar>, ErrorBody>>;
    /// The user's and the agent's allowlists let the agent's tabs load `url`.
    fn allows(&self, agent: &AgentId, url: &str) -> bool;
    /// Seconds since the epoch.
    fn now_s(&self) -> f64;
}

fn switched_on<D: SiteData>(d: &D) -> Result<(), ErrorBody> {
    if d.switched_on() {
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

/// The tab's page; only web pages have cookies.
async fn web_page<D: SiteData>(d: &D, tab: D::Tab) -> Result<Page, ErrorBody> {
    let page = d.page(tab).await?;
    if !(page.url.starts_with("http://") || page.url.starts_with("https://")) {
        return Err(ErrorBody::new(
            ErrorCode::PageError,
            format!(
                "tab {} shows {}, which has no cookies",
                d.id(tab),
                crate::text::cap(&page.url, 200)
            ),
        )
        .with_hint("navigate the tab to the site first"));
    }
    Ok(page)
}

/// `firefox_cookies` on the tab's page, in the tab's jar.
pub async fn cookies<D: SiteData>(
    d: &D,
    tab: D::Tab,
    a: CookiesArgs,
) -> Result<CookiesAnswer, ErrorBody> {
    switched_on(d)?;
    let page = web_page(d, tab).await?;
    let query = CookieQuery {
        url: &page.url,
        name: a.name.as_deref(),
        value: a.value.as_deref(),
        store_id: page.store.as_deref(),
    };
    let site = crate::text::cap(&page.url, 200);
    let name = a.name.as_deref().unwrap_or_default();
    let what = match a.action {
        CookieAction::Get => {
            let all = d.cookies(&query).await?;
            let cookies = all
                .into_iter()
                .take(MAX_COOKIES)
                .map(BrowserCookie::shown)
                .collect();
            return Ok(CookiesAnswer::Cookies(reply::Cookies {
                url: site,
                cookies,
            }));
        }
        CookieAction::Set => {
            d.set_cookie(&query).await?;
            format!("Set cookie {name:?} for {site}.")
        }
        CookieAction::Delete => {
            let query = CookieQuery {
                value: None,
                ..query
            };
            match d.remove_cookie(&query).await? {
                true => format!("Deleted cookie {name:?} for {site}."),
                false => format!("No cookie {name:?} for {site}: nothing deleted."),
            }
        }
    };
    Ok(CookiesAnswer::Acted(reply::Acted { what }))
}

/// `firefox_storage`: the page's own storage, once it is a web page.
pub async fn storage<D: SiteData>(
    d: &D,
    tab: D::Tab,
    a: StorageArgs,
    b: Budget,
) -> Result<StorageAnswer, ErrorBody> {
    switched_on(d)?;
    web_page(d, tab).await?;
    let op = PageOp::Storage {
        action: a.action,
        area: a.area,
        key: a.key,
        value: a.value,
    };
    d.page_storage(tab, op, b).await
}

/// The agent's tabs showing web pages.
async fn web_pages<D: SiteData>(d: &D, agent: &AgentId) -> Vec<(D::Tab, Page)> {
    let mut pages = Vec::new();
    for tab in d.tabs(agent) {
        if let Ok(page) = web_page(d, tab).await {
            pages.push((tab, page));
        }
    }
    pages
}

/// `firefox_storage_state` save: the cookies and local storage of the agent's open sites —
/// only those the allowlists allow (`crate::saved_state`).
pub async fn save_state<D: SiteData>(
    d: &D,
    agent: &AgentId,
    b: Budget,
) -> Result<SavedState, ErrorBody> {
    switched_on(d)?;
    let mut state = SavedState::default();
    for (tab, page) in web_pages(d, agent).await {
        let query = CookieQuery {
            url: &page.url,
            name: None,
            value: None,
            store_id: page.store.as_deref(),
        };
        save_cookies(&mut state, &origin(&page.url), d.cookies(&query).await?);
        let op = PageOp::Storage {
            action: StorageAction::Get,
            area: StorageArea::Local,
            key: None,
            value: None,
        };
        if let Ok(StorageAnswer::Stored(reply::Stored {
            origin, entries, ..
        })) = d.page_storage(tab, op, b).await
        {
            save_origin(&mut state, origin, entries);
        }
    }
    Ok(state)
}

/// `firefox_storage_state` load: a saved state put back into the agent's session (its own
/// container's jar, or the user's), for the sites it has open and the allowlists allow.
pub async fn load_state<D: SiteData>(
    d: &D,
    agent: &AgentId,
    state: SavedState,
    b: Budget,
) -> Result<reply::Acted, ErrorBody> {
    switched_on(d)?;
    let jar = d.jar(agent).await?;
    let store = jar.as_ref().map(|j| j.cookie_store_id.as_str());
    let pages = web_pages(d, agent).await;
    let open_hosts: Vec<String> = pages.iter().filter_map(|(_, p)| host(&p.url)).collect();
    let now_s = d.now_s();
    let mut report = LoadReport::default();
    for c in &state.cookies {
        if let Err(why) = admit(c, &open_hosts, |url| d.allows(agent, url), now_s) {
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
        if d.set_cookie(&details).await.is_ok() {
            report.set += 1;
        }
    }
    for o in &state.origins {
        let Some((tab, _)) = pages.iter().find(|(_, p)| origin(&p.url) == o.origin) else {
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
            d.put_in_page(*tab, op, b).await?;
        }
        report.origin(&o.origin, true);
    }
    let jar = jar.map_or("the user's session".to_owned(), |j| {
        format!("your container {}", j.name)
    });
    Ok(reply::Acted {
        what: report.words(state.cookies.len(), &jar),
    })
}

#[cfg(test)]
mod tests;
