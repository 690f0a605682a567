//! How an agent tab's documents are told apart from the user's by the early script
//! (`extension-shell/early.js`): the response is marked with a `Server-Timing` entry carrying
//! this run's secret (`marked`), the secret written as hex (`secret_hex`) and given to the
//! script in the line registered before it (`prelude`); and which of the script's words of a
//! load count (`top_load`: a top document's). Over plain data; `background/early.rs`
//! registers the script and the listeners.

use claudezilla_protocol::TabId;

/// The Server-Timing metric name the script looks for.
const METRIC: &str = "claudezilla";

/// The run's secret as the script compares it.
pub fn secret_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The script line registered before the early script: the secret, as a JS string.
pub fn prelude(secret: &str) -> String {
    format!("var claudezillaEarlySecret = {secret:?};")
}

/// A response's headers (webRequest's `HttpHeaders`) with the mark added after the server's.
pub fn marked(mut headers: Vec<serde_json::Value>, secret: &str) -> Vec<serde_json::Value> {
    let value = format!("{METRIC};desc={secret}");
    headers.push(serde_json::json!({"name": "Server-Timing", "value": value}));
    headers
}

/// The tab whose top document the script says loaded (its frame 0); none for a frame's
/// document or a sender without a tab.
pub fn top_load(tab: Option<u32>, frame_id: Option<i64>) -> Option<TabId> {
    match (tab, frame_id) {
        (Some(tab), Some(0)) => Some(TabId(tab)),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
