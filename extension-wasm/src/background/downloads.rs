//! `firefox_downloads`: files the agents' pages download. Each new download is matched to an
//! agent (`crate::downloads`); the agent hears of it in its next answer, and the tool lists its
//! downloads, waits for them to finish, and — once the MCP server has copied a finished file
//! into the allowed folders — deletes the browser's copy, so it lands nowhere else. The flows
//! are `crate::downloads::flows`'s; this is the browser's side.

use claudezilla_protocol::args::{MAX_DOWNLOADS, ResolvedDownloads};
use claudezilla_protocol::reply;
use claudezilla_protocol::reply::DownloadInfo;
use claudezilla_protocol::{AgentId, ErrorBody, TabId};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::{now, outbox, tabs, with_state};
use crate::downloads::DownloadItem;
use crate::downloads::flows::{self, Downloader, TabPage};
use crate::web::{self, Tab};

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
    with_state(|s| s.downloads_changed());
}

/// Ends at the next change of a download (made the agents', started, ended), for a call that
/// reads the list after asking.
fn next_change() -> futures_channel::oneshot::Receiver<()> {
    with_state(|s| s.next_download_change())
}

async fn claim(item: DownloadItem) {
    flows::claim(&Browser, item).await;
}

/// `firefox_downloads`: the agent's downloads, once the files the MCP server moved are
/// deleted from the browser ([`flows::list`]).
pub async fn list(
    agent: &AgentId,
    a: ResolvedDownloads,
    until: u64,
) -> Result<reply::Downloads, ErrorBody> {
    flows::list(&Browser, agent, a, until).await
}

/// The agents' downloads in the state and the browser, as claiming and listing ask them.
struct Browser;

impl Downloader for Browser {
    type Change = futures_channel::oneshot::Receiver<()>;

    fn no_agent_tabs(&self) -> bool {
        with_state(|s| s.pool.is_empty())
    }

    fn requested_by(&self, url: &str) -> Option<(AgentId, TabId)> {
        with_state(|s| s.requested_by(url, web::now_ms()))
    }

    fn container_of(&self, jar: &str) -> Option<AgentId> {
        with_state(|s| s.container_owner(jar))
    }

    async fn pages(&self) -> Option<Vec<TabPage>> {
        let tabs: Vec<Tab> = web::call_as(web::tabs_query(&web::to_js(&AnyTab {})))
            .await
            .ok()?;
        Some(with_state(|s| {
            tabs.into_iter()
                .map(|t| TabPage {
                    agent: s.pool.owner(TabId(t.id)).cloned(),
                    acted: s.downloads.acted_at(TabId(t.id)),
                    url: t.url,
                })
                .collect()
        }))
    }

    fn check(&self, agent: &AgentId, url: &str) -> Result<(), ErrorBody> {
        super::config::check(agent, url)
    }

    async fn cancel(&self, id: u32) -> bool {
        web::call(web::downloads_cancel(id)).await.is_ok()
    }

    fn notify(&self, agent: &AgentId, text: String) {
        outbox::notify(agent, text);
    }

    fn own(&self, id: u32, agent: &AgentId) {
        with_state(|s| s.downloads.own(id, agent));
        changed();
    }

    fn downloaded(&self, tab: TabId, url: &str) -> bool {
        with_state(|s| s.main_frames.downloaded(tab, url))
    }

    fn settle(&self, tab: TabId) {
        tabs::main_frame_heard(tab);
        tabs::settle(tab);
    }

    fn moved(&self, agent: &AgentId, id: u32, path: &str) -> bool {
        with_state(|s| s.downloads.moved(agent, id, path))
    }

    async fn remove_file(&self, id: u32) -> bool {
        let what = || format!("delete the browser's copy of download {id}");
        web::call_logged(what, web::downloads_remove_file(id)).await
    }

    fn next_change(&self) -> Self::Change {
        next_change()
    }

    async fn change(&self, change: Self::Change) {
        let _ = change.await;
    }

    async fn current(&self, agent: &AgentId) -> Vec<DownloadInfo> {
        current(agent).await
    }

    async fn sleep(&self, ms: u32) {
        web::sleep(ms).await;
    }

    async fn within<T>(&self, ms: u32, work: impl Future<Output = T>) -> Option<T> {
        web::with_deadline(ms, work).await
    }

    fn now(&self) -> u64 {
        now()
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
