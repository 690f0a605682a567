//! How an agent tab's documents are told apart from the user's by the early script
//! (`extension-shell/early.js`): the script registered for every http(s) frame at document
//! start, after a line handing it this run's secret (`registration`); the responses of an
//! agent tab's documents (`documents_of`) marked with a `Server-Timing` entry carrying the
//! secret (`marked`); and which of the script's words of a load count (`Sender::top_load`: a
//! top document's). Over plain data; `background/early.rs` registers the script and the
//! listeners.

use claudezilla_protocol::TabId;
use serde::{Deserialize, Serialize};

/// The Server-Timing metric name the script looks for.
const METRIC: &str = "claudezilla";

/// The run's secret as the script compares it.
pub fn secret_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The script line registered before the early script: the secret, as a JS string.
fn prelude(secret: &str) -> String {
    format!("var claudezillaEarlySecret = {secret:?};")
}

/// The early script as `contentScripts.register` takes it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Registration {
    matches: [&'static str; 2],
    js: [Code; 2],
    run_at: &'static str,
    all_frames: bool,
}

#[derive(Debug, Serialize)]
#[serde(untagged)]
enum Code {
    Code { code: String },
    File { file: &'static str },
}

/// The early script, in every http(s) frame as its document starts, after the line handing
/// it `secret` ([`prelude`]).
pub fn registration(secret: &str) -> Registration {
    Registration {
        matches: ["http://*/*", "https://*/*"],
        js: [
            Code::Code {
                code: prelude(secret),
            },
            Code::File { file: "/early.js" },
        ],
        run_at: "document_start",
        all_frames: true,
    }
}

/// The requests whose responses are marked: `tab`'s documents, its frames' too.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Documents {
    urls: [&'static str; 1],
    types: [&'static str; 2],
    tab_id: u32,
}

pub fn documents_of(tab: TabId) -> Documents {
    Documents {
        urls: ["<all_urls>"],
        types: ["main_frame", "sub_frame"],
        tab_id: tab.0,
    }
}

/// A response's headers (webRequest's `HttpHeaders`), as `onHeadersReceived` tells of them
/// and as its listener answers.
#[derive(Debug, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Headers {
    #[serde(default)]
    response_headers: Vec<serde_json::Value>,
}

/// `headers` with the mark added after the server's.
pub fn marked(mut headers: Headers, secret: &str) -> Headers {
    let value = format!("{METRIC};desc={secret}");
    headers
        .response_headers
        .push(serde_json::json!({"name": "Server-Timing", "value": value}));
    headers
}

/// What the script says when its top document has loaded.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Loaded {
    pub claudezilla_loaded: String,
    #[serde(default)]
    pub title: String,
}

/// Who sent the script's word (`runtime.onMessage`'s `MessageSender`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Sender {
    tab: Option<SenderTab>,
    frame_id: Option<i64>,
}

#[derive(Debug, Deserialize)]
struct SenderTab {
    id: u32,
}

impl Sender {
    /// The tab whose top document the script says loaded (its frame 0); none for a frame's
    /// document or a sender without a tab.
    pub fn top_load(&self) -> Option<TabId> {
        match (&self.tab, self.frame_id) {
            (Some(tab), Some(0)) => Some(TabId(tab.id)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests;
