//! The network log of each agent tab (`firefox_get_network`): request metadata from
//! webRequest in a 200-entry ring, never bodies, with credentials redacted on the way in.

use std::collections::{HashMap, VecDeque};

use claudezilla_protocol::TabId;
use claudezilla_protocol::reply::NetworkEntry;

use crate::redact::{redact_body, redact_header, shown_url};

/// Entries kept per tab; the oldest go first.
pub const RING: usize = 200;
/// A tab's first requests start before it joins the pool (the browser loads while we register
/// it): every tab's newest few are held briefly, and kept only if it becomes an agent tab.
const UNCLAIMED_RING: usize = 50;
const UNCLAIMED_MS: f64 = 10_000.0;
/// Headers kept per request.
const MAX_HEADERS: usize = 40;
/// Which headers: those the browser sent, or those it received.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Request,
    Response,
}

/// Most characters of one response body kept.
pub const MAX_BODY_CHARS: usize = 16_000;
/// Most body characters kept per tab (the oldest bodies go first).
const MAX_TAB_BODY_CHARS: usize = 400_000;

#[derive(Debug, Default)]
struct TabLog {
    pending: HashMap<String, NetworkEntry>,
    /// Finished requests, by request id.
    done: VecDeque<(String, NetworkEntry)>,
    /// Response bodies (text, redacted; or what a binary one was), by request id, oldest
    /// first.
    bodies: VecDeque<(String, String)>,
    body_chars: usize,
    /// An agent tab: its log is kept whole until the tab goes.
    claimed: bool,
    touched: f64,
}

impl TabLog {
    fn ring(&self) -> usize {
        if self.claimed { RING } else { UNCLAIMED_RING }
    }

    fn drop_body(&mut self, id: &str) {
        if let Some(at) = self.bodies.iter().position(|(b, _)| b == id) {
            let (_, body) = self.bodies.remove(at).unwrap_or_default();
            self.body_chars -= body.chars().count();
        }
    }
}

/// What a query keeps.
#[derive(Debug, Default, Clone)]
pub struct Filter<'a> {
    pub kind: Option<&'a str>,
    /// "404", "4xx" or "failed".
    pub status: Option<&'a str>,
    pub limit: usize,
    pub include_headers: bool,
    pub include_body: bool,
}

#[derive(Debug, Default)]
pub struct RequestLog {
    tabs: HashMap<TabId, TabLog>,
}

impl RequestLog {
    /// A tab became an agent tab: keep its log.
    pub fn claim(&mut self, tab: TabId) {
        self.tabs.entry(tab).or_default().claimed = true;
    }

    pub fn started(&mut self, tab: TabId, id: &str, method: &str, url: &str, kind: &str, now: f64) {
        // Other tabs' requests are forgotten soon.
        self.tabs
            .retain(|t, log| log.claimed || *t == tab || now - log.touched < UNCLAIMED_MS);
        let entry = NetworkEntry {
            method: method.to_owned(),
            url: shown_url(url, crate::text::MAX_URL_CHARS),
            kind: kind.to_owned(),
            status: None,
            error: None,
            started: now,
            ms: 0,
            bytes: 0,
            request_headers: Some(Vec::new()),
            response_headers: Some(Vec::new()),
            body: None,
        };
        let log = self.tabs.entry(tab).or_default();
        log.touched = now;
        // A request that never ends must not grow the map without bound.
        if log.pending.len() >= log.ring() {
            log.pending.clear();
        }
        log.pending.insert(id.to_owned(), entry);
    }

    /// Request or response headers of a request in flight (`MAX_HEADERS` in all).
    pub fn headers(&mut self, tab: TabId, id: &str, side: Side, headers: &[(String, String)]) {
        let Some(entry) = self.tabs.get_mut(&tab).and_then(|t| t.pending.get_mut(id)) else {
            return;
        };
        let count = |h: &Option<Vec<_>>| h.as_ref().map_or(0, Vec::len);
        let room = MAX_HEADERS
            .saturating_sub(count(&entry.request_headers) + count(&entry.response_headers));
        let kept = match side {
            Side::Request => &mut entry.request_headers,
            Side::Response => &mut entry.response_headers,
        }
        .get_or_insert_with(Vec::new);
        for (name, value) in headers.iter().take(room) {
            kept.push((crate::text::cap(name, 100), redact_header(name, value)));
        }
    }

    /// A request ended: with a status and size, or with an error.
    pub fn finished(&mut self, tab: TabId, id: &str, status: Result<(u16, u64), String>, now: f64) {
        let Some(log) = self.tabs.get_mut(&tab) else {
            return;
        };
        let Some(mut entry) = log.pending.remove(id) else {
            return;
        };
        entry.ms = (now - entry.started).max(0.0) as u32;
        match status {
            Ok((code, bytes)) => {
                entry.status = Some(code);
                entry.bytes = bytes;
            }
            Err(e) => entry.error = Some(e),
        }
        while log.done.len() >= log.ring() {
            if let Some((gone, _)) = log.done.pop_front() {
                log.drop_body(&gone);
            }
        }
        log.done.push_back((id.to_owned(), entry));
    }

    /// A response's body, as captured (`bytes`, cut at the capture's cap; `total` its whole
    /// size): text is kept redacted and cut, anything else as its size.
    pub fn body(&mut self, tab: TabId, id: &str, bytes: &[u8], total: u64) {
        let Some(log) = self.tabs.get_mut(&tab) else {
            return;
        };
        let kept = match body_text(bytes) {
            Some(text) => {
                // Redacted before it is cut: a value across the cut is still a credential.
                let redacted = redact_body(text);
                let (cut, _, was_cut) = crate::text::truncate_chars(&redacted, MAX_BODY_CHARS);
                let mut kept = cut.to_owned();
                if was_cut || (bytes.len() as u64) < total {
                    kept.push_str(&format!(" … [{total} bytes in all]"));
                }
                kept
            }
            None => format!("[binary, {total} bytes]"),
        };
        log.drop_body(id);
        log.body_chars += kept.chars().count();
        log.bodies.push_back((id.to_owned(), kept));
        while log.body_chars > MAX_TAB_BODY_CHARS {
            let Some((_, old)) = log.bodies.pop_front() else {
                break;
            };
            log.body_chars -= old.chars().count();
        }
    }

    /// The newest entries that pass `filter`, oldest first, and how many passed: those that
    /// ended, then those still in flight at `now` (no status and no error; their time so far).
    /// A page may hold its answer before the browser reports the request's end, so a log read
    /// at once still lists it.
    pub fn query(&self, tab: TabId, filter: &Filter, now: f64) -> (Vec<NetworkEntry>, u32) {
        let Some(log) = self.tabs.get(&tab) else {
            return (Vec::new(), 0);
        };
        let mut in_flight: Vec<(&String, &NetworkEntry)> = log.pending.iter().collect();
        in_flight.sort_by(|a, b| a.1.started.total_cmp(&b.1.started));
        let passing: Vec<(&String, &NetworkEntry)> = log
            .done
            .iter()
            .map(|(id, e)| (id, e))
            .chain(in_flight)
            .filter(|(_, e)| keeps(filter, e))
            .collect();
        let skip = passing.len().saturating_sub(filter.limit);
        let entries = passing[skip..]
            .iter()
            .map(|&(id, e)| NetworkEntry {
                request_headers: e.request_headers.clone().filter(|_| filter.include_headers),
                response_headers: e
                    .response_headers
                    .clone()
                    .filter(|_| filter.include_headers),
                body: filter
                    .include_body
                    .then(|| log.bodies.iter().find(|(b, _)| b == id))
                    .flatten()
                    .map(|(_, body)| body.clone()),
                ms: match e.status.is_none() && e.error.is_none() {
                    true => (now - e.started).max(0.0) as u32,
                    false => e.ms,
                },
                ..e.clone()
            })
            .collect();
        (entries, passing.len() as u32)
    }

    pub fn forget(&mut self, tab: TabId) {
        self.tabs.remove(&tab);
    }
}

fn keeps(filter: &Filter, e: &NetworkEntry) -> bool {
    if filter.kind.is_some_and(|k| k != e.kind) {
        return false;
    }
    match (filter.status, e.status) {
        (None, _) => true,
        (Some("failed"), _) => e.error.is_some(),
        (Some(_), None) => false,
        (Some(s), Some(code)) => match s.strip_suffix("xx") {
            Some(class) => class.parse::<u16>().is_ok_and(|c| code / 100 == c),
            None => s.parse::<u16>().is_ok_and(|c| c == code),
        },
    }
}

/// A captured body as text: UTF-8 without NUL bytes, where the capture's cut may have split
/// the last character.
fn body_text(bytes: &[u8]) -> Option<&str> {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) if e.error_len().is_none() => std::str::from_utf8(&bytes[..e.valid_up_to()]).ok()?,
        Err(_) => return None,
    };
    (!text.contains('\0')).then_some(text)
}

/// Most bytes of one response read for its agent.
const MAX_CAPTURE: usize = 64 * 1024;
/// Most responses read at once (past it, a response is passed on unread), so the bytes held
/// while reading stay under `MAX_READING * MAX_CAPTURE` (2 MiB).
const MAX_READING: usize = 32;

/// Is a request's response read for its agent: an http(s) response of a tab whose agent asked
/// for bodies, never one of a tab attached from the user (`of_tab`: asked, attached; read only
/// for an http(s) response), while fewer than `MAX_READING` others are being read (`reading`)?
pub fn reads_body(url: &str, of_tab: impl FnOnce() -> (bool, bool), reading: usize) -> bool {
    url.starts_with("http")
        && {
            let (asked, attached) = of_tab();
            asked && !attached
        }
        && reading < MAX_READING
}

/// A body being read: what was kept (its first `MAX_CAPTURE` bytes), and the whole size.
#[derive(Debug, Default)]
pub struct Reading {
    kept: Vec<u8>,
    total: u64,
}

impl Reading {
    /// A chunk of `len` bytes arrives: counted, and the room its first bytes are copied into
    /// (empty once the cap is kept).
    pub fn chunk(&mut self, len: usize) -> &mut [u8] {
        self.total += len as u64;
        let take = MAX_CAPTURE.saturating_sub(self.kept.len()).min(len);
        let start = self.kept.len();
        self.kept.resize(start + take, 0);
        &mut self.kept[start..]
    }

    pub fn kept(&self) -> &[u8] {
        &self.kept
    }

    pub fn total(&self) -> u64 {
        self.total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::redact::REDACTED;

    const T: TabId = TabId(1);

    fn done(
        log: &mut RequestLog,
        id: &str,
        url: &str,
        kind: &str,
        status: Result<(u16, u64), String>,
    ) {
        log.claim(T);
        log.started(T, id, "GET", url, kind, 10.0);
        log.finished(T, id, status, 25.0);
    }

    #[test]
    fn filters_by_type_status_and_class_newest_last() {
        let mut log = RequestLog::default();
        done(&mut log, "1", "http://h/a", "xmlhttprequest", Ok((200, 5)));
        done(&mut log, "2", "http://h/b", "xmlhttprequest", Ok((404, 0)));
        done(&mut log, "3", "http://h/c.js", "script", Ok((200, 9)));
        done(
            &mut log,
            "4",
            "http://h/d",
            "xmlhttprequest",
            Err("NS_ERROR_NET_RESET".into()),
        );
        let all = |status, kind| Filter {
            status,
            kind,
            limit: 50,
            include_headers: false,
            include_body: false,
        };
        let (e, total) = log.query(T, &all(None, None), 100.0);
        assert_eq!((e.len(), total), (4, 4));
        assert_eq!(e[0].ms, 15);
        assert_eq!(
            (&e[0].request_headers, &e[0].response_headers),
            (&None, &None)
        );
        assert_eq!(
            log.query(T, &all(Some("404"), None), 100.0).0[0].url,
            "http://h/b"
        );
        assert_eq!(log.query(T, &all(Some("2xx"), None), 100.0).1, 2);
        assert_eq!(
            log.query(T, &all(Some("failed"), None), 100.0).0[0].url,
            "http://h/d"
        );
        assert_eq!(log.query(T, &all(None, Some("script")), 100.0).1, 1);
        let newest = log
            .query(
                T,
                &Filter {
                    limit: 1,
                    ..all(None, None)
                },
                100.0,
            )
            .0;
        assert_eq!(newest[0].url, "http://h/d");
    }

    #[test]
    fn the_ring_keeps_the_newest_200_and_headers_only_on_request() {
        let mut log = RequestLog::default();
        log.claim(T);
        for i in 0..250 {
            log.started(
                T,
                &i.to_string(),
                "GET",
                &format!("http://h/{i}"),
                "image",
                0.0,
            );
            log.headers(
                T,
                &i.to_string(),
                Side::Request,
                &[("Cookie".into(), "s=1".into())],
            );
            log.headers(
                T,
                &i.to_string(),
                Side::Response,
                &[("Set-Cookie".into(), "s=2".into())],
            );
            log.finished(T, &i.to_string(), Ok((200, 1)), 1.0);
        }
        let f = Filter {
            limit: 200,
            include_headers: true,
            ..Default::default()
        };
        let (e, total) = log.query(T, &f, 100.0);
        assert_eq!((e.len(), total), (RING, RING as u32));
        assert_eq!(e[0].url, "http://h/50");
        assert_eq!(
            e[0].request_headers,
            Some(vec![("Cookie".into(), REDACTED.into())])
        );
        assert_eq!(
            e[0].response_headers,
            Some(vec![("Set-Cookie".into(), REDACTED.into())])
        );
        log.forget(T);
        assert_eq!(log.query(T, &f, 100.0).1, 0);
    }

    #[test]
    fn bodies_are_kept_redacted_cut_and_bounded_per_tab() {
        let mut log = RequestLog::default();
        log.claim(T);
        let with_bodies = Filter {
            limit: 200,
            include_body: true,
            ..Default::default()
        };
        log.started(T, "1", "POST", "http://h/login", "xmlhttprequest", 0.0);
        log.body(
            T,
            "1",
            br#"{"user":"ann","password":"hunter2","nested":{"apiToken":7}}"#,
            59,
        );
        log.finished(T, "1", Ok((200, 59)), 1.0);
        log.started(T, "2", "GET", "http://h/pic", "image", 0.0);
        log.finished(T, "2", Ok((200, 4)), 1.0);
        // A body may end after the request's own end.
        log.body(T, "2", &[0x89, b'P', 0, 0xff], 4);
        log.started(T, "3", "POST", "http://h/form", "xmlhttprequest", 0.0);
        log.body(T, "3", b"name=ann&session=abc", 20);
        log.finished(T, "3", Ok((200, 20)), 1.0);
        let (e, _) = log.query(T, &with_bodies, 100.0);
        let body = |i: usize| e[i].body.clone().unwrap_or_default();
        assert_eq!(
            body(0),
            r#"{"user":"ann","password":"[redacted]","nested":{"apiToken":"[redacted]"}}"#
        );
        assert_eq!(body(1), "[binary, 4 bytes]");
        assert_eq!(body(2), "name=ann&session=[redacted]");
        // Without includeBody, none.
        assert!(
            log.query(
                T,
                &Filter {
                    limit: 200,
                    ..Default::default()
                },
                100.0,
            )
            .0[0]
                .body
                .is_none()
        );
        // Cut per body, and bounded per tab: the oldest bodies go.
        let big = "x".repeat(MAX_BODY_CHARS + 10);
        for i in 10..50 {
            let id = i.to_string();
            log.started(T, &id, "GET", "http://h/big", "xmlhttprequest", 0.0);
            log.body(T, &id, big.as_bytes(), 1_000_000);
            log.finished(T, &id, Ok((200, 1)), 1.0);
        }
        let (e, _) = log.query(T, &with_bodies, 100.0);
        let last = e.last().and_then(|e| e.body.clone()).unwrap_or_default();
        assert!(
            last.ends_with(" … [1000000 bytes in all]"),
            "{}",
            &last[last.len() - 40..]
        );
        let kept: usize = e
            .iter()
            .filter_map(|e| e.body.as_ref())
            .map(|b| b.chars().count())
            .sum();
        assert!(kept <= MAX_TAB_BODY_CHARS + MAX_BODY_CHARS, "{kept}");
        assert!(e[0].body.is_none(), "the oldest body went first");
    }

    #[test]
    fn a_long_body_is_redacted_before_it_is_cut() {
        let mut log = RequestLog::default();
        log.claim(T);
        // The token's value straddles the cut; a second one lies past it; the capture itself
        // ended inside a two-byte character.
        let pad = "p".repeat(MAX_BODY_CHARS - 30);
        let mut body = format!(
            "{{\"pad\":\"{pad}\",\"access_token\":\"AT-SECRET-1\",\"refresh_token\":\"RT-2\"}} é"
        )
        .into_bytes();
        body.pop();
        log.started(T, "1", "GET", "http://h/t", "xmlhttprequest", 0.0);
        log.body(T, "1", &body, 90_000);
        log.finished(T, "1", Ok((200, 1)), 1.0);
        let f = Filter {
            limit: 1,
            include_body: true,
            ..Default::default()
        };
        let kept = log.query(T, &f, 100.0).0[0]
            .body
            .clone()
            .unwrap_or_default();
        assert!(
            !kept.contains("AT-SECRET") && !kept.contains("RT-2"),
            "{kept}"
        );
        assert!(kept.starts_with("{\"pad\":\"ppp"), "text, not binary");
        assert!(kept.ends_with(" … [90000 bytes in all]"), "{kept}");
    }

    #[test]
    fn requests_in_flight_are_listed_after_those_that_ended_with_their_time_so_far() {
        let mut log = RequestLog::default();
        let all = |status| Filter {
            status,
            limit: 50,
            ..Default::default()
        };
        log.claim(T);
        log.started(T, "late", "GET", "http://h/late", "xmlhttprequest", 5.0);
        log.started(T, "slow", "GET", "http://h/slow", "xmlhttprequest", 1.0);
        log.headers(T, "slow", Side::Response, &[("Server".into(), "x".into())]);
        done(&mut log, "1", "http://h/a", "xmlhttprequest", Ok((200, 5)));
        let (e, total) = log.query(T, &all(None), 100.0);
        let listed: Vec<_> = e.iter().map(|e| (e.url.as_str(), e.status, e.ms)).collect();
        assert_eq!(
            listed,
            [
                ("http://h/a", Some(200), 15),
                ("http://h/slow", None, 99),
                ("http://h/late", None, 95),
            ]
        );
        assert_eq!(total, 3);
        assert!(e[1].error.is_none());
        // A status asked for is one they do not have yet.
        assert_eq!(log.query(T, &all(Some("2xx")), 100.0).1, 1);
        assert_eq!(log.query(T, &all(Some("failed")), 100.0).1, 0);
        // Once it ends it is listed with its own time, once.
        log.finished(T, "slow", Ok((200, 7)), 40.0);
        let (e, _) = log.query(T, &all(None), 100.0);
        let listed: Vec<_> = e.iter().map(|e| (e.url.as_str(), e.ms)).collect();
        assert_eq!(
            listed,
            [
                ("http://h/a", 15),
                ("http://h/slow", 39),
                ("http://h/late", 95)
            ]
        );
    }

    #[test]
    fn a_tabs_first_requests_are_kept_once_it_joins_others_are_dropped() {
        let mut log = RequestLog::default();
        let user = TabId(9);
        for i in 0..60 {
            log.started(T, &i.to_string(), "GET", "http://h/early", "script", 0.0);
            log.finished(T, &i.to_string(), Ok((200, 1)), 1.0);
        }
        log.started(user, "u", "GET", "http://h/user", "main_frame", 0.0);
        log.finished(user, "u", Ok((200, 1)), 1.0);
        log.claim(T);
        let all = Filter {
            limit: 200,
            ..Default::default()
        };
        assert_eq!(log.query(T, &all, 100.0).1, UNCLAIMED_RING as u32);
        // The unclaimed tab is forgotten once its requests are old.
        log.started(
            T,
            "late",
            "GET",
            "http://h/late",
            "image",
            UNCLAIMED_MS + 5.0,
        );
        assert_eq!(log.query(user, &all, 100.0).1, 0);
    }

    #[test]
    fn bodies_are_read_for_asking_agents_tabs_while_there_is_room() {
        let asked = || (true, false);
        assert!(reads_body("https://h/a", asked, 0));
        assert!(reads_body("http://h/a", asked, MAX_READING - 1));
        assert!(!reads_body("http://h/a", asked, MAX_READING));
        assert!(!reads_body("http://h/a", || (false, false), 0));
        assert!(
            !reads_body("http://h/a", || (true, true), 0),
            "attached from the user"
        );
        let unread = || -> (bool, bool) { panic!("the tab is read only for an http(s) response") };
        assert!(!reads_body("data:text/plain,a", unread, 0));
    }

    #[test]
    fn a_read_keeps_the_first_bytes_and_counts_them_all() {
        let mut r = Reading::default();
        let room = r.chunk(3);
        assert_eq!(room.len(), 3);
        room.copy_from_slice(b"abc");
        let big = MAX_CAPTURE;
        assert_eq!(r.chunk(big).len(), MAX_CAPTURE - 3);
        assert!(r.chunk(10).is_empty(), "the cap is kept");
        assert_eq!(r.kept().len(), MAX_CAPTURE);
        assert_eq!(&r.kept()[..3], b"abc");
        assert_eq!(r.total(), 3 + big as u64 + 10);
    }
}
