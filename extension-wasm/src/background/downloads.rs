//! `firefox_downloads`: files the agents' pages download. Each new download is matched to an
//! agent (`crate::downloads`); the agent hears of it in its next answer, and the tool lists its
//! downloads, waits for them to finish, and — once the MCP server has copied a finished file
//! into the allowed folders — deletes the browser's copy, so it lands nowhere else.

use claudezilla_protocol::args::{MAX_DOWNLOADS, ResolvedDownloads};
use claudezilla_protocol::reply;
use claudezilla_protocol::reply::{DownloadInfo, DownloadState};
use claudezilla_protocol::{AgentId, ErrorBody, TabId};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use super::{now, outbox, tabs, with_state};
use crate::downloads::{OpenPage, page_made_owner};
use crate::redact::redact_url;
use crate::text::{MAX_URL_CHARS, cap};
use crate::web::{self, Tab};

/// How often a waiting call looks again.
const POLL_MS: u32 = 200;

/// A `DownloadItem` as far as we read it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Item {
    id: u32,
    #[serde(default)]
    url: String,
    #[serde(default)]
    referrer: Option<String>,
    #[serde(default)]
    filename: String,
    #[serde(default)]
    mime: Option<String>,
    #[serde(default)]
    state: String,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    bytes_received: f64,
    #[serde(default)]
    total_bytes: f64,
    #[serde(default)]
    file_size: f64,
    #[serde(default)]
    cookie_store_id: Option<String>,
}

#[derive(Serialize)]
struct ById {
    id: u32,
}

#[derive(Serialize)]
struct AnyTab {}

/// Watches new downloads for the agents'.
pub fn listen() {
    let created = Closure::<dyn FnMut(JsValue)>::new(|item: JsValue| {
        if let Ok(item) = serde_wasm_bindgen::from_value::<Item>(item) {
            wasm_bindgen_futures::spawn_local(claim(item));
        }
    });
    web::DOWNLOADS_ON_CREATED.with(|e| e.add_listener(created.as_ref().unchecked_ref()));
    created.forget();
}

async fn claim(item: Item) {
    let Some((agent, tab)) = owner(&item).await else {
        return;
    };
    if let Some(refused) = outside_allowlist(&agent, &item) {
        // Not the agent's to have: the file never lands, in the project or anywhere.
        let _ = web::call(web::downloads_cancel(item.id)).await;
        outbox::notify(&agent, refused);
        return;
    }
    with_state(|s| s.downloads.own(item.id, &agent));
    // A navigation that became this download is over: the page stays where it was.
    if let Some(tab) = tab
        && with_state(|s| s.main_frames.downloaded(tab, &item.url))
    {
        tabs::main_frame_heard(tab);
        tabs::settle(tab);
    }
    outbox::notify(
        &agent,
        format!(
            "Your page started a download ({}): firefox_downloads waits for it and moves it into your project.",
            file_name(&item.filename)
        ),
    );
}

/// Why `agent` may not have this download: it comes from outside the user's or the agent's
/// allowlist. A file the page made (`blob:`) comes from the page's origin; a `data:` one from
/// the page that made it, which the lists let load.
fn outside_allowlist(agent: &AgentId, item: &Item) -> Option<String> {
    let source = item.url.strip_prefix("blob:").unwrap_or(&item.url);
    if source.starts_with("data:") {
        return None;
    }
    let refused = super::config::check(agent, source).err()?;
    Some(format!(
        "A download was cancelled ({}): {}",
        file_name(&item.filename),
        refused.message
    ))
}

/// The agent whose tab fetched the file (and that tab), whose own container it was downloaded
/// in, or whose page made it.
async fn owner(item: &Item) -> Option<(AgentId, Option<TabId>)> {
    // No agent tab, no agent's download: the user's own downloads cost nothing more.
    if with_state(|s| s.pool.is_empty()) {
        return None;
    }
    let by_request = with_state(|s| {
        let tab = s.downloads.tab_that_requested(&item.url, web::now_ms())?;
        Some((s.pool.owner(tab)?.clone(), Some(tab)))
    });
    if by_request.is_some() {
        return by_request;
    }
    let by_container = with_state(|s| {
        let jar = item.cookie_store_id.as_deref()?;
        s.containers
            .iter()
            .find(|(_, c)| c.cookie_store_id == jar)
            .map(|(agent, _)| (agent.clone(), None))
    });
    if by_container.is_some() {
        return by_container;
    }
    if !(item.url.starts_with("blob:") || item.url.starts_with("data:")) {
        return None;
    }
    let tabs: Vec<Tab> = web::call_as(web::tabs_query(&web::to_js(&AnyTab {})))
        .await
        .ok()?;
    with_state(|s| {
        let pages: Vec<OpenPage> = tabs
            .iter()
            .map(|t| OpenPage {
                url: &t.url,
                agent: s.pool.owner(TabId(t.id)),
                acted: s.downloads.acted_at(TabId(t.id)),
            })
            .collect();
        page_made_owner(&item.url, item.referrer.as_deref(), &pages, web::now_ms())
            .map(|agent| (agent.clone(), None))
    })
}

/// `firefox_downloads`: deletes the browser's copies of the files the MCP server moved, then
/// lists the agent's downloads (waiting, when asked, until none is in progress).
pub async fn list(
    agent: &AgentId,
    a: ResolvedDownloads,
    until: u64,
) -> Result<reply::Downloads, ErrorBody> {
    for m in &a.moved {
        if with_state(|s| s.downloads.moved(agent, m.id, &m.path)) {
            // The file was copied out: the browser's copy goes (its entry stays in the
            // Library, so the user sees what agents downloaded).
            let _ = web::call(web::downloads_remove_file(m.id)).await;
        }
    }
    loop {
        let downloads = current(agent).await;
        let busy = downloads.is_empty()
            || downloads
                .iter()
                .any(|d| d.state == DownloadState::InProgress);
        if !a.args.wait || !busy || now() + u64::from(POLL_MS) >= until {
            return Ok(reply::Downloads { downloads });
        }
        web::sleep(POLL_MS).await;
    }
}

/// The agent's downloads as the browser sees them now, newest first.
async fn current(agent: &AgentId) -> Vec<DownloadInfo> {
    let ids = with_state(|s| s.downloads.of(agent));
    let mut out = Vec::with_capacity(ids.len().min(MAX_DOWNLOADS));
    for id in ids.into_iter().take(MAX_DOWNLOADS) {
        let moved_to = with_state(|s| s.downloads.get(id).and_then(|o| o.moved_to.clone()));
        let found: Vec<Item> = web::call_as(web::downloads_search(&web::to_js(&ById { id })))
            .await
            .unwrap_or_default();
        // None: the user removed it from the browser's list.
        if let Some(item) = found.into_iter().next() {
            out.push(info(item, moved_to));
        }
    }
    out
}

fn info(item: Item, moved_to: Option<String>) -> DownloadInfo {
    let state = match item.state.as_str() {
        "complete" => DownloadState::Complete,
        "interrupted" => DownloadState::Interrupted,
        _ => DownloadState::InProgress,
    };
    DownloadInfo {
        id: item.id,
        url: cap(&redact_url(&item.url), MAX_URL_CHARS),
        mime: cap(item.mime.as_deref().unwrap_or(""), 200),
        state,
        error: item.error.map(|e| cap(&e, 200)),
        // A finished file's size on disk (what the MCP server checks); else bytes so far.
        bytes: match state {
            DownloadState::Complete if item.file_size > 0.0 => item.file_size as u64,
            _ => item.bytes_received.max(0.0) as u64,
        },
        total: (item.total_bytes > 0.0).then_some(item.total_bytes as u64),
        file: cap(&item.filename, 4_000),
        moved_to,
    }
}

fn file_name(path: &str) -> String {
    cap(path.rsplit(['/', '\\']).next().unwrap_or(path), 200)
}

/// The agent left: its downloads are no longer listed (the files stay where they are).
pub fn release(agent: &AgentId) {
    with_state(|s| s.downloads.release(agent));
}
