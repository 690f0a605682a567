//! Whose download is it? Firefox's `DownloadItem` names no tab, so a download belongs to an
//! agent when one of its tabs requested the download's address as a page or frame in the last
//! minute — and no tab of the user's did (the user's own downloads are never taken). A file a page made itself (`blob:`, `data:`) has no request, and Firefox gives it no
//! referrer: it belongs to the one agent that acted in the last seconds on a tab of the page it
//! came from (for a `blob:` address, any page of its origin), else to the agent whose tabs alone
//! show that page. When two agents could have made it, it is no agent's: a file never goes to
//! the wrong one. Anything unclaimed is the user's, and no agent ever sees it.

use std::collections::{BTreeMap, VecDeque};

use claudezilla_protocol::args::MAX_DOWNLOADS;
use claudezilla_protocol::reply::{DownloadInfo, DownloadState};
use claudezilla_protocol::{AgentId, TabId};
use serde::Deserialize;

use crate::allowlist;
use crate::redact::shown_url;
use crate::text::{MAX_URL_CHARS, cap};

/// A `DownloadItem` as far as we read it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DownloadItem {
    pub id: u32,
    #[serde(default)]
    pub url: String,
    #[serde(default)]
    pub referrer: Option<String>,
    #[serde(default)]
    pub filename: String,
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
    pub cookie_store_id: Option<String>,
}

impl DownloadItem {
    /// As `firefox_downloads` lists it (`moved_to`: where the MCP server put the file).
    pub fn info(self, moved_to: Option<String>) -> DownloadInfo {
        let state = match self.state.as_str() {
            "complete" => DownloadState::Complete,
            "interrupted" => DownloadState::Interrupted,
            _ => DownloadState::InProgress,
        };
        DownloadInfo {
            id: self.id,
            url: shown_url(&self.url, MAX_URL_CHARS),
            mime: cap(self.mime.as_deref().unwrap_or(""), 200),
            state,
            error: self.error.map(|e| cap(&e, 200)),
            // A finished file's size on disk (what the MCP server checks); else bytes so far.
            bytes: match state {
                DownloadState::Complete if self.file_size > 0.0 => self.file_size as u64,
                _ => self.bytes_received.max(0.0) as u64,
            },
            total: (self.total_bytes > 0.0).then_some(self.total_bytes as u64),
            file: cap(&self.filename, 4_000),
            moved_to,
        }
    }

    /// The file's name, without its folder.
    pub fn file_name(&self) -> String {
        let path = &self.filename;
        cap(path.rsplit(['/', '\\']).next().unwrap_or(path), 200)
    }

    /// The address the allowlists judge the download by, if any: a file the page made
    /// (`blob:`) comes from the page's origin; a `data:` one from the page that made it, which
    /// the lists let load already.
    pub fn source(&self) -> Option<&str> {
        let source = self.url.strip_prefix("blob:").unwrap_or(&self.url);
        (!source.starts_with("data:")).then_some(source)
    }

    /// A file the page made itself: no request fetched it.
    pub fn page_made(&self) -> bool {
        self.url.starts_with("blob:") || self.url.starts_with("data:")
    }
}

/// Whether a wait for downloads goes on: none listed yet, or one still in progress.
pub fn busy(downloads: &[DownloadInfo]) -> bool {
    downloads.is_empty()
        || downloads
            .iter()
            .any(|d| d.state == DownloadState::InProgress)
}

/// Document requests remembered (every tab's: the user's as a fingerprint of the address
/// only), and for how long.
const REMEMBERED: usize = 256;
const FRESH_MS: f64 = 60_000.0;
/// How recent an agent's action on a page must be to make the page's file its.
const ACTED_MS: f64 = 10_000.0;
/// Tabs whose last action is remembered.
const ACTED_KEPT: usize = 16;

/// The agents' downloads (browser id → agent, where the file went) and the recent document
/// addresses of agent tabs.
#[derive(Debug, Default)]
pub struct Downloads {
    /// A fingerprint of each address, the agent tab that asked (None: a tab of the user's),
    /// and when.
    requested: VecDeque<(u64, Option<TabId>, f64)>,
    /// When agent tabs were last acted on (newest last).
    acted: VecDeque<(TabId, f64)>,
    owned: BTreeMap<u32, Owned>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owned {
    pub agent: AgentId,
    /// Where the MCP server moved the file (the browser's copy is deleted then).
    pub moved_to: Option<String>,
}

/// A tab's page, for matching a page-made file to where it was made.
pub struct OpenPage<'a> {
    pub url: &'a str,
    /// None: the user's tab.
    pub agent: Option<&'a AgentId>,
    /// When its agent last acted on it.
    pub acted: Option<f64>,
}

impl Downloads {
    /// A tab asked for `url` as a page or frame: `agent_tab` when it is an agent's (else it
    /// is the user's, and only a fingerprint of the address is kept).
    pub fn requested(&mut self, tab: TabId, agent_tab: bool, url: &str, now: f64) {
        if self.requested.len() == REMEMBERED {
            self.requested.pop_front();
        }
        self.requested
            .push_back((fingerprint(url), agent_tab.then_some(tab), now));
    }

    /// An agent acted on its tab (a page operation or script).
    pub fn acted(&mut self, tab: TabId, now: f64) {
        self.acted.retain(|(t, _)| *t != tab);
        if self.acted.len() == ACTED_KEPT {
            self.acted.pop_front();
        }
        self.acted.push_back((tab, now));
    }

    pub fn acted_at(&self, tab: TabId) -> Option<f64> {
        self.acted
            .iter()
            .find(|(t, _)| *t == tab)
            .map(|(_, at)| *at)
    }

    /// The agent tab that most recently asked for `url` within the last minute — none when a
    /// tab of the user's asked for it too: then the download is the user's.
    pub fn tab_that_requested(&self, url: &str, now: f64) -> Option<TabId> {
        let key = fingerprint(url);
        let mut asked = self
            .requested
            .iter()
            .rev()
            .take_while(|(_, _, at)| now - at <= FRESH_MS)
            .filter(|(k, _, _)| *k == key)
            .map(|(_, tab, _)| *tab);
        let newest = asked.next()??;
        asked.all(|tab| tab.is_some()).then_some(newest)
    }

    /// Records `id` as `agent`'s; past [`MAX_DOWNLOADS`], its oldest is forgotten.
    pub fn own(&mut self, id: u32, agent: &AgentId) {
        self.owned.insert(
            id,
            Owned {
                agent: agent.clone(),
                moved_to: None,
            },
        );
        let mine = self.of(agent);
        if let Some(excess) = mine.len().checked_sub(MAX_DOWNLOADS) {
            for id in &mine[mine.len() - excess..] {
                self.owned.remove(id);
            }
        }
    }

    /// `agent`'s downloads, newest first.
    pub fn of(&self, agent: &AgentId) -> Vec<u32> {
        self.owned
            .iter()
            .rev()
            .filter(|(_, o)| &o.agent == agent)
            .map(|(id, _)| *id)
            .collect()
    }

    pub fn get(&self, id: u32) -> Option<&Owned> {
        self.owned.get(&id)
    }

    /// The file of `agent`'s download `id` now lives at `path`; false when it is not theirs.
    pub fn moved(&mut self, agent: &AgentId, id: u32, path: &str) -> bool {
        match self.owned.get_mut(&id) {
            Some(o) if &o.agent == agent => {
                o.moved_to = Some(path.to_owned());
                true
            }
            _ => false,
        }
    }

    /// The agent left: its downloads are no longer listed (files stay where they are).
    pub fn release(&mut self, agent: &AgentId) {
        self.owned.retain(|_, o| &o.agent != agent);
    }
}

/// An address as remembered: equal addresses, equal fingerprints; the address itself is not
/// kept.
fn fingerprint(url: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    url.hash(&mut h);
    h.finish()
}

/// The agent a page-made file (`blob:`, `data:`) belongs to. The page it came from is the
/// referrer, else the origin inside a `blob:` address. If agents acted on tabs showing it in
/// the last seconds, it is theirs when they are one agent (two: no one's); if none did, it is an
/// agent's only when that page is open in its tabs and in no tab of anyone else.
pub fn page_made_owner<'a>(
    url: &str,
    referrer: Option<&str>,
    pages: &[OpenPage<'a>],
    now: f64,
) -> Option<&'a AgentId> {
    if !(url.starts_with("blob:") || url.starts_with("data:")) {
        return None;
    }
    let referrer = referrer.filter(|r| !r.is_empty());
    let blob_origin = url.strip_prefix("blob:").map(allowlist::origin);
    let from_page = |page: &str| match (referrer, &blob_origin) {
        (Some(r), _) => page == r,
        (None, Some(origin)) => allowlist::origin(page) == *origin,
        (None, None) => false,
    };
    let there: Vec<&OpenPage> = pages.iter().filter(|p| from_page(p.url)).collect();
    let mut actors = there
        .iter()
        .filter(|p| p.acted.is_some_and(|at| now - at <= ACTED_MS))
        .filter_map(|p| p.agent);
    if let Some(first) = actors.next() {
        return actors.all(|a| a == first).then_some(first);
    }
    let mut owners = there.iter().map(|p| p.agent);
    let first = owners.next()??;
    owners.all(|a| a == Some(first)).then_some(first)
}

pub mod flows;

#[cfg(test)]
mod tests {
    use super::*;

    fn agent(n: u8) -> AgentId {
        AgentId::new([n; 16], u32::from(n) + 100)
    }

    fn open<'a>(url: &'a str, agent: Option<&'a AgentId>, acted: Option<f64>) -> OpenPage<'a> {
        OpenPage { url, agent, acted }
    }

    #[test]
    fn a_download_belongs_to_the_tab_that_recently_requested_it() {
        let mut d = Downloads::default();
        d.requested(TabId(1), true, "http://x/report.bin", 0.0);
        d.requested(TabId(2), true, "http://x/report.bin", 10.0);
        assert_eq!(
            d.tab_that_requested("http://x/report.bin", 20.0),
            Some(TabId(2))
        );
        assert_eq!(d.tab_that_requested("http://x/other", 20.0), None);
        assert_eq!(
            d.tab_that_requested("http://x/report.bin", FRESH_MS + 11.0),
            None,
            "a minute later it is no longer attributed"
        );
    }

    #[test]
    fn a_download_the_users_tab_asked_for_is_the_users() {
        let mut d = Downloads::default();
        // The agent's page loaded the address; then the user clicked the same link.
        d.requested(TabId(1), true, "http://x/report.bin", 0.0);
        d.requested(TabId(9), false, "http://x/report.bin", 5.0);
        assert_eq!(d.tab_that_requested("http://x/report.bin", 6.0), None);
        // Either order.
        d.requested(TabId(1), true, "http://x/report.bin", 7.0);
        assert_eq!(d.tab_that_requested("http://x/report.bin", 8.0), None);
        // Once the user's request is a minute old, the agent's new one counts again.
        d.requested(TabId(1), true, "http://x/report.bin", FRESH_MS + 6.0);
        assert_eq!(
            d.tab_that_requested("http://x/report.bin", FRESH_MS + 6.0),
            Some(TabId(1))
        );
        assert!(
            !format!("{d:?}").contains("report.bin"),
            "addresses are kept as fingerprints"
        );
    }

    #[test]
    fn requests_remembered_are_bounded() {
        let mut d = Downloads::default();
        for i in 0..1_000 {
            d.requested(TabId(i), true, &format!("http://x/{i}"), 0.0);
        }
        assert_eq!(d.requested.len(), REMEMBERED);
        assert_eq!(d.tab_that_requested("http://x/0", 0.0), None);
        assert_eq!(d.tab_that_requested("http://x/999", 0.0), Some(TabId(999)));
    }

    #[test]
    fn each_agent_sees_and_moves_only_its_own() {
        let (a, b) = (agent(1), agent(2));
        let mut d = Downloads::default();
        d.own(1, &a);
        d.own(2, &b);
        d.own(3, &a);
        assert_eq!(d.of(&a), [3, 1]);
        assert!(!d.moved(&b, 1, "/p/x"), "b cannot claim a's download");
        assert!(d.moved(&a, 1, "/p/x"));
        assert_eq!(d.get(1).unwrap().moved_to.as_deref(), Some("/p/x"));
        d.release(&a);
        assert!(d.of(&a).is_empty());
        assert_eq!(d.of(&b), [2]);
    }

    #[test]
    fn an_agent_keeps_its_newest_downloads() {
        let a = agent(1);
        let mut d = Downloads::default();
        for id in 0..(MAX_DOWNLOADS as u32 + 5) {
            d.own(id, &a);
        }
        let mine = d.of(&a);
        assert_eq!(mine.len(), MAX_DOWNLOADS);
        assert_eq!(mine[0], MAX_DOWNLOADS as u32 + 4);
        assert!(d.get(4).is_none() && d.get(5).is_some());
    }

    #[test]
    fn a_page_made_file_is_the_agents_only_when_its_page_is_only_theirs() {
        let (a, b) = (agent(1), agent(2));
        let page = "http://x:1/app.html";
        let blob = "blob:http://x:1/6b1c";
        let only_a = [
            open(page, Some(&a), None),
            open("http://y/", Some(&b), None),
        ];
        assert_eq!(page_made_owner(blob, Some(page), &only_a, 0.0), Some(&a));
        assert_eq!(
            page_made_owner(blob, None, &only_a, 0.0),
            Some(&a),
            "blob origin"
        );
        assert_eq!(
            page_made_owner("data:,hi", Some(page), &only_a, 0.0),
            Some(&a)
        );
        assert_eq!(page_made_owner("data:,hi", None, &only_a, 0.0), None);
        assert_eq!(
            page_made_owner("http://x:1/f", Some(page), &only_a, 0.0),
            None,
            "a fetched file is matched by its request, not its referrer"
        );
        let user_too = [open(page, Some(&a), None), open(page, None, None)];
        assert_eq!(page_made_owner(blob, Some(page), &user_too, 0.0), None);
        let both = [open(page, Some(&a), None), open(page, Some(&b), None)];
        assert_eq!(page_made_owner(blob, None, &both, 0.0), None);
        // The agent that just acted on the page made it, even with others on that page.
        let acted = [
            open(page, Some(&a), Some(1_000.0)),
            open(page, Some(&b), Some(5_000.0)),
            open(page, None, None),
        ];
        assert_eq!(
            page_made_owner(blob, None, &acted, 6_000.0),
            None,
            "two agents acted on that page: it goes to neither"
        );
        assert_eq!(page_made_owner(blob, None, &acted, 12_000.0), Some(&b));
        assert_eq!(
            page_made_owner(blob, None, &acted, 60_000.0),
            None,
            "long after, the shared page says nothing"
        );
    }

    #[test]
    fn recent_actions_are_bounded_and_refreshed() {
        let mut d = Downloads::default();
        for t in 0..100 {
            d.acted(TabId(t), f64::from(t));
        }
        assert_eq!(d.acted.len(), ACTED_KEPT);
        d.acted(TabId(99), 500.0);
        assert_eq!(d.acted.len(), ACTED_KEPT);
        assert_eq!(d.acted_at(TabId(99)), Some(500.0));
        assert_eq!(d.acted_at(TabId(0)), None);
    }

    fn item(json: serde_json::Value) -> DownloadItem {
        serde_json::from_value(json).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_download_is_listed_with_its_size_on_disk_once_complete() {
        let done = item(serde_json::json!({
            "id": 4, "url": "https://u:pw@a.test/r.pdf", "filename": "/home/u/Downloads/r.pdf",
            "mime": "application/pdf", "state": "complete", "bytesReceived": 10.0,
            "totalBytes": -1.0, "fileSize": 2048.0, "cookieStoreId": "firefox-container-2",
        }));
        assert_eq!(done.file_name(), "r.pdf");
        assert_eq!(done.cookie_store_id.as_deref(), Some("firefox-container-2"));
        let info = done.info(Some("out/r.pdf".into()));
        assert_eq!(info.state, DownloadState::Complete);
        assert_eq!(info.bytes, 2048);
        assert_eq!(info.total, None);
        assert!(!info.url.contains("pw"), "{}", info.url);
        assert_eq!(info.moved_to.as_deref(), Some("out/r.pdf"));
        let going = item(
            serde_json::json!({"id": 5, "state": "in_progress", "bytesReceived": 7.0, "totalBytes": 9.0}),
        );
        let going = going.info(None);
        assert_eq!(
            (going.state, going.bytes, going.total),
            (DownloadState::InProgress, 7, Some(9))
        );
        assert!(busy(&[going]));
        assert!(busy(&[]), "nothing listed yet: the wait goes on");
        let windows = item(
            serde_json::json!({"id": 6, "filename": "C:\\Users\\u\\a.zip", "state": "interrupted"}),
        );
        assert_eq!(windows.file_name(), "a.zip");
        assert!(!busy(&[windows.info(None)]));
    }

    #[test]
    fn a_page_made_file_is_judged_by_the_page_it_came_from() {
        let blob = item(serde_json::json!({"id": 1, "url": "blob:https://a.test/0f3c"}));
        assert!(blob.page_made());
        assert_eq!(blob.source(), Some("https://a.test/0f3c"));
        let data = item(serde_json::json!({"id": 2, "url": "data:text/csv,a,b"}));
        assert!(data.page_made());
        assert_eq!(data.source(), None);
        let fetched = item(serde_json::json!({"id": 3, "url": "https://b.test/f.zip"}));
        assert!(!fetched.page_made());
        assert_eq!(fetched.source(), Some("https://b.test/f.zip"));
    }
}
