//! Cookies and web storage of an agent's tab (`firefox_cookies`, `firefox_storage`). They hold
//! login secrets, so both are off until the user switches them on in the popup (or Firefox was
//! started with `CLAUDEZILLA_ALLOW_STORAGE=1`), checked here on every call.

use claudezilla_protocol::args::{CookieAction, CookiesArgs, MAX_STORED_VALUE, StorageArgs};
use claudezilla_protocol::envelope::PageOp;
use claudezilla_protocol::reply::CookieInfo;
use claudezilla_protocol::{ErrorBody, ErrorCode, Outcome, Reply};
use serde::{Deserialize, Serialize};

use super::{content, with_state};
use crate::pool::AuthorizedTab;
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

/// A `cookies.Cookie`, the fields we show.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Cookie {
    name: String,
    value: String,
    domain: String,
    path: String,
    secure: bool,
    http_only: bool,
    expiration_date: Option<f64>,
}

pub async fn cookies(tab: AuthorizedTab, a: CookiesArgs) -> Outcome {
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
            let all: Vec<Cookie> = web::call_as(web::cookies_get_all(&web::to_js(&query))).await?;
            let cookies = all
                .into_iter()
                .take(MAX_COOKIES)
                .map(|c| CookieInfo {
                    value: crate::text::cap(&c.value, MAX_STORED_VALUE),
                    name: crate::text::cap(&c.name, 256),
                    domain: c.domain,
                    path: c.path,
                    secure: c.secure,
                    http_only: c.http_only,
                    expires: c.expiration_date,
                })
                .collect();
            Ok(Reply::Cookies { url: site, cookies })
        }
        CookieAction::Set => {
            web::call(web::cookies_set(&web::to_js(&query))).await?;
            Ok(Reply::Acted {
                what: format!("Set cookie {:?} for {site}.", a.name.unwrap_or_default()),
            })
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
            Ok(Reply::Acted { what })
        }
    }
}

pub async fn storage(tab: AuthorizedTab, a: StorageArgs, until: u64, budget_ms: u32) -> Outcome {
    allowed()?;
    page_of(tab).await?;
    let op = PageOp::Storage {
        action: a.action,
        area: a.area,
        key: a.key,
        value: a.value,
    };
    content::send(tab, 0, until, op, budget_ms).await
}
