//! `firefox_downloads`: files the agents' pages download. Each new download is matched to an
//! agent (`crate::downloads`); the agent hears of it in its next answer, and the tool lists its
//! downloads, waits for them to finish, and — once the MCP server has copied a finished file
//! into the allowed folders — deletes the browser's copy, so it lands nowhere else.

use claudezilla_protocol::args::{MAX_DOWNLOADS, ResolvedDownloads};
use claudezilla_protocol::reply;
use claudezilla_protocol::reply::DownloadInfo;
use claudezilla_protocol::{AgentId, ErrorBody, TabId};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::{now, outbox, tabs, with_state};
use crate::downloads::{DownloadItem, OpenPage, busy, page_made_owner};
use crate::web::{self, Tab};

/// Least time between two reads of a waiting call's list: a page that starts downloads in a
/// stream (each a change) makes a wait read at most ten times a second, as the poll did five.
const READ_GAP_MS: u64 = 100;

#[derive(Serialize)]
struct ById {
    id: u32,
}

#[derive(Serialize)]
struct AnyTab {}

/// Watches new downloads for the agents'.
pub fn listen() {
    let created = Closure::<dyn FnMut(JsValue)>::new(|item: JsValue| {
        if let Ok(item) = serde_wasm_bindgen::from_value::<DownloadItem>(item) {
            wasm_bindgen_futures::spawn_local(claim(item));
        }
    });
    web::DOWNLOADS_ON_CREATED.with(|e| e.add_listener(created.as_ref().unchecked_ref()));
    created.forget();
    // Any download's state, the user's too, or one erased from the list (the one in
    // progress, say): a waiting call reads its agent's list again.
    let changed = Closure::<dyn FnMut(JsValue)>::new(|_: JsValue| changed());
    web::DOWNLOADS_ON_CHANGED.with(|e| e.add_listener(changed.as_ref().unchecked_ref()));
    web::DOWNLOADS_ON_ERASED.with(|e| e.add_listener(changed.as_ref().unchecked_ref()));
    changed.forget();
}

/// Wakes the calls waiting on downloads.
fn changed() {
    for waiter in with_state(|s| std::mem::take(&mut s.download_waiters)) {
        let _ = waiter.send(());
    }
}

/// Ends at the next change of a download (made the agents', started, ended), for a call that
/// reads the list after asking.
fn next_change() -> futures_channel::oneshot::Receiver<()> {
    let (waiter, change) = futures_channel::oneshot::channel();
    with_state(|s| {
        // Those of calls that ended without a change go, so a quiet browser keeps none.
        s.download_waiters.retain(|w| !w.is_canceled());
        s.download_waiters.push(waiter);
    });
    change
}

async fn claim(item: DownloadItem) {
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
    changed();
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
            item.file_name()
        ),
    );
}

/// Why `agent` may not have this download: it comes from outside the user's or the agent's
/// allowlist ([`DownloadItem::source`]).
fn outside_allowlist(agent: &AgentId, item: &DownloadItem) -> Option<String> {
    let refused = super::config::check(agent, item.source()?).err()?;
    Some(format!(
        "A download was cancelled ({}): {}",
        item.file_name(),
        refused.message
    ))
}

/// The agent whose tab fetched the file (and that tab), whose own container it was downloaded
/// in, or whose page made it.
async fn owner(item: &DownloadItem) -> Option<(AgentId, Option<TabId>)> {
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
    if !item.page_made() {
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
/// lists the agent's downloads (waiting, when asked, until one has started and none is in
/// progress: the list is read again at each change the browser tells of).
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
    if !a.args.wait {
        let downloads = current(agent).await;
        return Ok(reply::Downloads { downloads });
    }
    loop {
        // Asked before the read, so a change during it is not missed.
        let change = next_change();
        let read_at = now();
        let downloads = current(agent).await;
        let left = until.saturating_sub(now());
        if !busy(&downloads) || left == 0 {
            return Ok(reply::Downloads { downloads });
        }
        let changed = async {
            let _ = change.await;
            let gap = (read_at + READ_GAP_MS).saturating_sub(now());
            web::sleep(u32::try_from(gap).unwrap_or(0)).await;
        };
        if web::with_deadline(u32::try_from(left).unwrap_or(u32::MAX), changed)
            .await
            .is_none()
        {
            // Time is up: the list as it is now (a file's bytes change without telling). Read
            // after `until`, within the margin the background keeps to answer.
            let downloads = current(agent).await;
            return Ok(reply::Downloads { downloads });
        }
    }
}

/// The agent's downloads as the browser sees them now, newest first.
async fn current(agent: &AgentId) -> Vec<DownloadInfo> {
    let ids = with_state(|s| s.downloads.of(agent));
    let mut out = Vec::with_capacity(ids.len().min(MAX_DOWNLOADS));
    for id in ids.into_iter().take(MAX_DOWNLOADS) {
        let moved_to = with_state(|s| s.downloads.get(id).and_then(|o| o.moved_to.clone()));
        let found: Vec<DownloadItem> =
            web::call_as(web::downloads_search(&web::to_js(&ById { id })))
                .await
                .unwrap_or_default();
        // None: the user removed it from the browser's list.
        if let Some(item) = found.into_iter().next() {
            out.push(item.info(moved_to));
        }
    }
    out
}

/// The agent left: its downloads are no longer listed (the files stay where they are).
pub fn release(agent: &AgentId) {
    with_state(|s| s.downloads.release(agent));
}
