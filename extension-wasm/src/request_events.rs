//! What each webRequest event tells the background's watchers: the critical requests in
//! flight (for "the network is quiet"), each tab's main-frame loads, the requests a download
//! may come from, and the agent tabs' network log. `background/requests.rs` listens and
//! hands each event here.

use claudezilla_protocol::TabId;
use serde::Deserialize;

use crate::downloads::Downloads;
use crate::load::MainFrames;
use crate::network::Network;
use crate::pool::Pool;
use crate::request_log::{RequestLog, Side};
use crate::request_routes::Header;

/// The request types a screenshot waits for (counted in flight for every tab: a page starts
/// requesting before its tab joins the pool; only counts are kept, no URLs).
const CRITICAL: [&str; 3] = ["script", "stylesheet", "xmlhttprequest"];

pub const MAIN_FRAME: &str = "main_frame";
/// Requests whose answer may become a download (a link with `download` is "other").
const DOCUMENTS: [&str; 3] = [MAIN_FRAME, "sub_frame", "other"];

/// The webRequest events listened to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// `onBeforeRequest`.
    Started,
    /// `onSendHeaders`, with the request's headers.
    Sent,
    /// `onCompleted`, with the response's headers.
    Completed,
    /// `onErrorOccurred`.
    Failed,
    /// `onBeforeRedirect` (main frames only).
    Redirected,
    /// `onResponseStarted` (main frames only).
    Responded,
}

/// A request as webRequest reports it.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Request {
    pub request_id: String,
    /// -1 for the browser's own requests.
    pub tab_id: i64,
    #[serde(default)]
    pub incognito: bool,
    #[serde(default)]
    pub method: String,
    #[serde(default)]
    pub url: String,
    #[serde(default, rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub status_code: u16,
    #[serde(default)]
    pub response_size: u64,
    #[serde(default)]
    pub error: Option<String>,
    #[serde(default)]
    pub redirect_url: Option<String>,
    #[serde(default)]
    pub request_headers: Option<Vec<Header>>,
    #[serde(default)]
    pub response_headers: Option<Vec<Header>>,
}

impl Request {
    /// The tab it is for; none for the browser's own requests.
    pub fn tab(&self) -> Option<TabId> {
        u32::try_from(self.tab_id).ok().map(TabId)
    }
}

/// The watchers an event feeds, and the pool that says which tabs are the agents'.
pub struct Watchers<'a> {
    pub network: &'a mut Network,
    pub main_frames: &'a mut MainFrames,
    pub downloads: &'a mut Downloads,
    pub requests: &'a mut RequestLog,
    pub pool: &'a Pool,
}

impl Watchers<'_> {
    /// Tells each watcher what `event` of request `r` says, at `now` (ms). True when it is
    /// word from a tab's main frame, which the load waiters of `tab` are to hear.
    pub fn hear(&mut self, event: Event, tab: TabId, r: Request, now: f64) -> bool {
        match event {
            Event::Started => self.started(tab, &r, now),
            Event::Sent => {
                let headers = pairs(r.request_headers);
                self.requests
                    .headers(tab, &r.request_id, Side::Request, &headers);
            }
            Event::Completed => {
                let headers = pairs(r.response_headers);
                if r.kind == MAIN_FRAME {
                    self.main_frames.completed(tab, &r.request_id, &headers);
                }
                self.network.finished(tab, &r.request_id, now);
                self.requests
                    .headers(tab, &r.request_id, Side::Response, &headers);
                let status = Ok((r.status_code, r.response_size));
                self.requests.finished(tab, &r.request_id, status, now);
            }
            Event::Failed => {
                let error = r.error.unwrap_or_else(|| "failed".into());
                if r.kind == MAIN_FRAME {
                    self.main_frames.failed(tab, &r.request_id, &error);
                }
                self.network.finished(tab, &r.request_id, now);
                self.requests.finished(tab, &r.request_id, Err(error), now);
            }
            Event::Redirected => {
                let Some(to) = &r.redirect_url else {
                    return false;
                };
                self.main_frames.redirected(tab, &r.request_id, to);
                let agent_tab = self.pool.contains(tab);
                self.downloads.requested(tab, agent_tab, to, now);
                return false;
            }
            // Firefox may report a main frame's onCompleted well after the tab's load is
            // complete (measured: up to 90 ms later); its first response byte is word enough
            // that it did not fail.
            Event::Responded => {
                self.main_frames
                    .responded(tab, &r.request_id, r.status_code);
                return true;
            }
        }
        matches!(event, Event::Completed | Event::Failed) && r.kind == MAIN_FRAME
    }

    fn started(&mut self, tab: TabId, r: &Request, now: f64) {
        if CRITICAL.contains(&r.kind.as_str()) {
            self.network.started(tab, &r.request_id, now);
        }
        if r.kind == MAIN_FRAME && !r.incognito {
            self.main_frames.started(tab, &r.request_id, &r.url);
        }
        let agent_tab = self.pool.contains(tab);
        if DOCUMENTS.contains(&r.kind.as_str()) {
            // A download has no tab of its own: this is how it is traced to one (and one the
            // user's tab asked for is the user's).
            self.downloads.requested(tab, agent_tab, &r.url, now);
        }
        if agent_tab {
            self.requests.claim(tab);
        } else if r.incognito {
            // Private browsing is never held, not even briefly.
            return;
        }
        self.requests
            .started(tab, &r.request_id, &r.method, &r.url, &r.kind, now);
    }
}

fn pairs(headers: Option<Vec<Header>>) -> Vec<(String, String)> {
    headers
        .unwrap_or_default()
        .into_iter()
        .map(|h| (h.name, h.value.unwrap_or_default()))
        .collect()
}

#[cfg(test)]
mod tests;
