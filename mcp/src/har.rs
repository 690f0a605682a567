//! A tab's network log as HAR 1.2 (`firefox_get_network {outputFile: "x.har"}`), the format
//! Firefox's and Chrome's network panels import. It holds what the log holds, redacted as the
//! answers are: headers with credentials replaced, bodies where they were captured. What the
//! log does not know (the HTTP version, header sizes, the phases of a request's time) is written
//! as HAR says an unknown is: an empty string, -1, or the whole time as `wait`.

use chrono::{DateTime, SecondsFormat};
use claudezilla_protocol::reply::NetworkEntry;
use serde_json::{Value, json};

/// The HAR document for `entries` (the log's order: as each ended), sorted by when each
/// started, as HAR prefers.
pub fn document(entries: &[NetworkEntry]) -> Value {
    let mut entries: Vec<&NetworkEntry> = entries.iter().collect();
    entries.sort_by(|a, b| a.started.total_cmp(&b.started));
    json!({
        "log": {
            "version": "1.2",
            "creator": {"name": "Claudezilla", "version": claudezilla_protocol::VERSION},
            "pages": [],
            "entries": entries.into_iter().map(entry).collect::<Vec<_>>(),
        }
    })
}

fn entry(e: &NetworkEntry) -> Value {
    let mut out = json!({
        "startedDateTime": started(e.started),
        "time": e.ms,
        "request": request(e),
        "response": response(e),
        "cache": {},
        "timings": {"send": 0, "wait": e.ms, "receive": 0},
        "_resourceType": e.kind,
    });
    match (&e.error, e.status) {
        (Some(error), _) => out["_error"] = json!(error),
        (None, None) => out["comment"] = json!("no answer yet when the log was read"),
        (None, Some(_)) => {}
    }
    out
}

/// ISO 8601 with milliseconds, as HAR asks (`2026-11-28T18:00:00.123Z`).
fn started(ms: f64) -> String {
    DateTime::from_timestamp_millis(ms as i64)
        .unwrap_or_default()
        .to_rfc3339_opts(SecondsFormat::Millis, true)
}

fn request(e: &NetworkEntry) -> Value {
    json!({
        "method": e.method,
        "url": e.url,
        "httpVersion": "",
        "cookies": [],
        "headers": headers(e.request_headers.as_deref()),
        "queryString": query(&e.url),
        "headersSize": -1,
        "bodySize": -1,
    })
}

fn response(e: &NetworkEntry) -> Value {
    let said = |name: &str| {
        e.response_headers
            .iter()
            .flatten()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    };
    let mut content = json!({
        "size": e.bytes,
        "mimeType": said("content-type").unwrap_or_default(),
    });
    if let Some(body) = &e.body {
        content["text"] = json!(body);
    }
    json!({
        // A failed request has no status: HAR's 0.
        "status": e.status.unwrap_or(0),
        "statusText": "",
        "httpVersion": "",
        "cookies": [],
        "headers": headers(e.response_headers.as_deref()),
        "content": content,
        "redirectURL": said("location").unwrap_or_default(),
        "headersSize": -1,
        "bodySize": if e.status.is_some() { json!(e.bytes) } else { json!(-1) },
    })
}

fn headers(pairs: Option<&[(String, String)]>) -> Vec<Value> {
    pairs
        .unwrap_or_default()
        .iter()
        .map(|(name, value)| json!({"name": name, "value": value}))
        .collect()
}

/// The URL's query as name/value pairs (decoded, as HAR viewers show them).
fn query(url: &str) -> Vec<Value> {
    let Ok(url) = url::Url::parse(url) else {
        return Vec::new();
    };
    url.query_pairs()
        .map(|(name, value)| json!({"name": name, "value": value}))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(status: Option<u16>) -> NetworkEntry {
        NetworkEntry {
            method: "GET".into(),
            url: "http://h/api?q=a%20b&page=2".into(),
            kind: "xmlhttprequest".into(),
            status,
            error: status.is_none().then(|| "NS_ERROR_NET_RESET".into()),
            started: 1_796_000_000_123.0,
            ms: 42,
            bytes: 17,
            request_headers: Some(vec![("Cookie".into(), "[redacted]".into())]),
            response_headers: Some(vec![
                ("Content-Type".into(), "application/json".into()),
                ("Location".into(), "/next".into()),
            ]),
            body: Some("{\"ok\":true}".into()),
        }
    }

    #[test]
    fn an_entry_says_what_the_log_knows() {
        let har = document(&[entry(Some(200))]);
        let e = &har["log"]["entries"][0];
        assert_eq!(har["log"]["version"], "1.2");
        assert_eq!(e["startedDateTime"], "2026-11-30T00:53:20.123Z");
        assert_eq!(e["time"], 42);
        assert_eq!(e["request"]["headers"][0]["value"], "[redacted]");
        assert_eq!(
            e["request"]["queryString"],
            json!([{"name": "q", "value": "a b"}, {"name": "page", "value": "2"}])
        );
        assert_eq!(e["response"]["content"]["mimeType"], "application/json");
        assert_eq!(e["response"]["content"]["text"], "{\"ok\":true}");
        assert_eq!(e["response"]["redirectURL"], "/next");
        assert_eq!(e["response"]["bodySize"], 17);
    }

    #[test]
    fn entries_go_by_when_they_started() {
        let mut late = entry(Some(200));
        late.started += 500.0;
        late.url = "http://h/late".into();
        // The log holds them as they ended: the late-started one first.
        let har = document(&[late, entry(Some(200))]);
        let urls: Vec<&str> = har["log"]["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["request"]["url"].as_str().unwrap())
            .collect();
        assert_eq!(urls, ["http://h/api?q=a%20b&page=2", "http://h/late"]);
    }

    #[test]
    fn a_failed_request_has_status_zero_and_its_error() {
        let har = document(&[entry(None)]);
        let e = &har["log"]["entries"][0];
        assert_eq!(e["response"]["status"], 0);
        assert_eq!(e["response"]["bodySize"], -1);
        assert_eq!(e["_error"], "NS_ERROR_NET_RESET");
        assert!(e.get("comment").is_none());
    }

    #[test]
    fn a_request_in_flight_says_it_had_no_answer_yet() {
        let har = document(&[NetworkEntry {
            error: None,
            ..entry(None)
        }]);
        let e = &har["log"]["entries"][0];
        assert_eq!(e["response"]["status"], 0);
        assert_eq!(e["comment"], "no answer yet when the log was read");
        assert!(e.get("_error").is_none());
    }
}
