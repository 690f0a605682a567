//! `firefox_downloads`'s flows: a new download claimed (`claim`: whose it is — the agent tab
//! that asked for its address, the agent whose own container it came in, else for a file the
//! page made the agent that just acted on that page —, cancelled where the allowlists refuse
//! its source, a navigation that became it ended, the agent told), and the agent's list read
//! (`list`: the files the MCP server moved deleted first; a wait read again at each change the
//! browser tells of, at most every [`READ_GAP_MS`], until one has started and none is in
//! progress). Written over [`Downloader`]; `background/downloads.rs` is the browser's side.

use claudezilla_protocol::args::ResolvedDownloads;
use claudezilla_protocol::reply::{self, DownloadInfo};
use claudezilla_protocol::{AgentId, ErrorBody, TabId};

use super::{DownloadItem, OpenPage, busy, page_made_owner};

/// Least time between two reads of a waiting call's list: a page that starts downloads in a
/// stream (each a change) makes a wait read at most ten times a second, as the poll did five.
pub const READ_GAP_MS: u64 = 100;

/// One open tab's page, as the owner of a file a page made is looked for among them.
#[derive(Debug, Clone, PartialEq)]
pub struct TabPage {
    pub url: String,
    /// None: the user's tab.
    pub agent: Option<AgentId>,
    /// When its agent last acted on it.
    pub acted: Option<f64>,
}

/// What claiming and listing downloads ask of the state and the browser.
pub trait Downloader {
    /// The next change of a download, asked for before a read.
    type Change;

    /// No agent has a tab: the user's own downloads cost nothing more.
    fn no_agent_tabs(&self) -> bool;
    /// The agent tab that just asked for `url`, with its agent.
    fn requested_by(&self, url: &str) -> Option<(AgentId, TabId)>;
    /// The agent whose own container the cookie store `jar` is.
    fn container_of(&self, jar: &str) -> Option<AgentId>;
    /// Every open tab's page; none when the browser did not list them.
    fn pages(&self) -> impl Future<Output = Option<Vec<TabPage>>>;
    /// The allowlists' refusal of `url` for `agent`.
    fn check(&self, agent: &AgentId, url: &str) -> Result<(), ErrorBody>;
    /// Whether the browser cancelled download `id`: it refuses one already complete.
    fn cancel(&self, id: u32) -> impl Future<Output = bool>;
    fn notify(&self, agent: &AgentId, text: String);
    /// Makes download `id` `agent`'s, and wakes the calls waiting on downloads.
    fn own(&self, id: u32, agent: &AgentId);
    /// Whether `tab`'s navigation to `url` became this download.
    fn downloaded(&self, tab: TabId, url: &str) -> bool;
    /// Ends the waits for `tab`'s load, which became a download: the page stays.
    fn settle(&self, tab: TabId);
    /// Whether the MCP server's copy of `agent`'s download `id` at `path` is taken note of.
    fn moved(&self, agent: &AgentId, id: u32, path: &str) -> bool;
    /// Deletes the browser's copy of download `id` (its entry stays in the Library); whether
    /// the browser did (it refuses for a download not complete).
    fn remove_file(&self, id: u32) -> impl Future<Output = bool>;
    fn next_change(&self) -> Self::Change;
    fn change(&self, change: Self::Change) -> impl Future<Output = ()>;
    /// `agent`'s downloads as the browser sees them now, newest first.
    fn current(&self, agent: &AgentId) -> impl Future<Output = Vec<DownloadInfo>>;
    fn sleep(&self, ms: u32) -> impl Future<Output = ()>;
    /// `work`, or none when `ms` pass first.
    fn within<T>(&self, ms: u32, work: impl Future<Output = T>) -> impl Future<Output = Option<T>>;
    /// Ms since the epoch.
    fn now(&self) -> u64;
}

/// Takes in a download the browser began: an agent's, or left alone.
pub async fn claim<D: Downloader>(d: &D, item: DownloadItem) {
    let Some((agent, tab)) = owner(d, &item).await else {
        return;
    };
    if let Some(why) = outside_allowlist(d, &agent, &item) {
        // Not the agent's to have: the file never lands, in the project or anywhere. A small
        // file can be whole before the cancel: then its file is deleted.
        let stopped = d.cancel(item.id).await || d.remove_file(item.id).await;
        let name = item.file_name();
        d.notify(
            &agent,
            match stopped {
                true => format!("A download was cancelled ({name}): {why}"),
                false => format!(
                    "A download was refused ({name}): {why}; Firefox would neither cancel it nor \
                     delete its file: it may be in the browser's downloads folder."
                ),
            },
        );
        return;
    }
    d.own(item.id, &agent);
    // A navigation that became this download is over: the page stays where it was.
    if let Some(tab) = tab
        && d.downloaded(tab, &item.url)
    {
        d.settle(tab);
    }
    d.notify(
        &agent,
        format!(
            "Your page started a download ({}): firefox_downloads waits for it and moves it into your project.",
            item.file_name()
        ),
    );
}

/// Why `agent` may not have this download: it comes from outside the user's or the agent's
/// allowlist ([`DownloadItem::source`]).
fn outside_allowlist<D: Downloader>(d: &D, agent: &AgentId, item: &DownloadItem) -> Option<String> {
    Some(d.check(agent, item.source()?).err()?.message)
}

/// The agent whose tab fetched the file (and that tab), whose own container it was downloaded
/// in, or whose page made it.
async fn owner<D: Downloader>(d: &D, item: &DownloadItem) -> Option<(AgentId, Option<TabId>)> {
    if d.no_agent_tabs() {
        return None;
    }
    if let Some((agent, tab)) = d.requested_by(&item.url) {
        return Some((agent, Some(tab)));
    }
    if let Some(agent) = item
        .cookie_store_id
        .as_deref()
        .and_then(|jar| d.container_of(jar))
    {
        return Some((agent, None));
    }
    if !item.page_made() {
        return None;
    }
    let tabs = d.pages().await?;
    let pages: Vec<OpenPage> = tabs
        .iter()
        .map(|t| OpenPage {
            url: &t.url,
            agent: t.agent.as_ref(),
            acted: t.acted,
        })
        .collect();
    page_made_owner(&item.url, item.referrer.as_deref(), &pages, d.now() as f64)
        .map(|agent| (agent.clone(), None))
}

/// Deletes the browser's copies of the files the MCP server moved, then lists the agent's
/// downloads (waiting, when asked, until one has started and none is in progress, or until
/// `until`: the list is read again at each change the browser tells of).
pub async fn list<D: Downloader>(
    d: &D,
    agent: &AgentId,
    a: ResolvedDownloads,
    until: u64,
) -> Result<reply::Downloads, ErrorBody> {
    for m in &a.moved {
        if d.moved(agent, m.id, &m.path) {
            // The file was copied out: the browser's copy goes (its entry stays in the
            // Library, so the user sees what agents downloaded).
            let _ = d.remove_file(m.id).await;
        }
    }
    if !a.args.wait {
        let downloads = d.current(agent).await;
        return Ok(reply::Downloads { downloads });
    }
    loop {
        // Asked before the read, so a change during it is not missed.
        let change = d.next_change();
        let read_at = d.now();
        let downloads = d.current(agent).await;
        let left = until.saturating_sub(d.now());
        if !busy(&downloads) || left == 0 {
            return Ok(reply::Downloads { downloads });
        }
        let changed = async {
            d.change(change).await;
            let gap = (read_at + READ_GAP_MS).saturating_sub(d.now());
            d.sleep(u32::try_from(gap).unwrap_or(0)).await;
        };
        if d.within(u32::try_from(left).unwrap_or(u32::MAX), changed)
            .await
            .is_none()
        {
            // Time is up: the list as it is now (a file's bytes change without telling). Read
            // after `until`, within the margin the background keeps to answer.
            let downloads = d.current(agent).await;
            return Ok(reply::Downloads { downloads });
        }
    }
}

#[cfg(test)]
mod tests;
