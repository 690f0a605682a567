//! What the blocking listeners of `firefox_route` do with one request of an agent tab, and
//! with its response's headers: whose routes the request meets and their verdict
//! ([`request_routes`]), the bookkeeping of its handling (a frame kept out named for later
//! reads, a replaced response in the activity log), and what is left to the browser — the
//! body read where its agent asked (only of a request that goes on to the server), the
//! request let go, cancelled, held, fulfilled, or let go with a word to its agent. Over the
//! background's `State` and plain data; `background/intercept.rs` carries it out.

use claudezilla_protocol::{AgentId, TabId};
use serde::{Deserialize, Serialize};

use crate::background_state::State;
use crate::request_routes::{self, Handling, Header, PendingHeaders, Verdict};

/// A request as webRequest's `onBeforeRequest` tells of it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Request {
    pub tab_id: i64,
    pub url: String,
    pub request_id: String,
    #[serde(default, rename = "type")]
    pub kind: String,
    /// For a frame's own load, the id that frame has.
    #[serde(default)]
    pub frame_id: u64,
}

/// What the browser does with a request.
#[derive(Debug, PartialEq, Eq)]
pub struct Intercepted {
    /// The tab whose agent may read the response's body (`request_log::reads_body` decides).
    pub read_body: Option<TabId>,
    pub answer: Answer,
}

/// The listener's answer to a request.
#[derive(Debug, PartialEq, Eq)]
pub enum Answer {
    /// Goes on as it would.
    Go,
    /// Goes on, and its agent hears why its route left it alone.
    Notify {
        agent: AgentId,
        notice: String,
    },
    Cancel,
    /// Held this long, then let go.
    Delay(u32),
    /// The body (where the route gives one) replaced, and the headers set as they arrive.
    Fulfil {
        body: Option<String>,
        headers: Vec<(String, String)>,
    },
}

/// Handles `request`: `now_ms` (the epoch clock) is read only for a fulfilled response.
pub fn intercept(s: &mut State, request: &Request, now_ms: impl FnOnce() -> f64) -> Intercepted {
    let tab = u32::try_from(request.tab_id).ok().map(TabId);
    let Some((agent, tab, verdict)) = tab.and_then(|tab| verdict(s, tab, request)) else {
        return Intercepted {
            read_body: tab,
            answer: Answer::Go,
        };
    };
    let handling = request_routes::handling(verdict, &request.kind, &request.url);
    let read_body = handling.goes_on().then_some(tab);
    let answer = match handling {
        Handling::Cancel { frame_note } => {
            if let Some(why) = frame_note {
                s.refuse_frame(tab, request.frame_id, why);
            }
            Answer::Cancel
        }
        Handling::Delay(ms) => Answer::Delay(ms),
        Handling::Fulfill { body, headers } => {
            s.activity.replaced(&agent, tab, &request.url, now_ms());
            Answer::Fulfil { body, headers }
        }
        Handling::Pass { notice } => {
            notice.map_or(Answer::Go, |notice| Answer::Notify { agent, notice })
        }
    };
    Intercepted { read_body, answer }
}

/// What a request of an agent's own tab meets, and whose routes it meets
/// ([`request_routes::routed_owner`]); none for any other tab's.
fn verdict(s: &mut State, tab: TabId, request: &Request) -> Option<(AgentId, TabId, Verdict)> {
    let owner = request_routes::routed_owner(&s.pool, tab, || s.user_allows(&request.url))?;
    let code_allowed = s.code_allowed();
    let verdict = s
        .routes
        .hit(&owner, &request.url, &request.kind, code_allowed);
    Some((owner, tab, verdict))
}

/// A response's headers as webRequest's `onHeadersReceived` tells of them.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Response {
    pub request_id: String,
    #[serde(default)]
    pub response_headers: Vec<Header>,
}

/// The headers a fulfilled response arrives with instead of the server's.
#[derive(Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NewHeaders {
    pub response_headers: Vec<Header>,
}

/// The headers of a response whose request was fulfilled ([`request_routes::fulfilled_headers`]:
/// its length is the route's body's now); none for any other response, and for that one's
/// next arrival.
pub fn headers(pending: &mut PendingHeaders, response: Response) -> Option<NewHeaders> {
    let set = pending.take(&response.request_id)?;
    Some(NewHeaders {
        response_headers: request_routes::fulfilled_headers(response.response_headers, set),
    })
}

#[cfg(test)]
mod tests;
