//! `firefox_trace`: what this agent did, recorded action by action while a trace is on, and
//! written as one self-contained HTML page (no script, images inline, a policy that loads
//! nothing else) and the same as JSON. Typed text and secrets never enter its words: arguments
//! are kept only where they name a place (tab, element, URL, key), other text as its length,
//! and what was typed is replaced in every answer recorded after (pictures show the page).
//! On request its pictures also make one animated PNG (`movie`), and its actions one
//! Playwright test (`playwright`), each element named before the action ([`replay`]).

use std::collections::HashSet;
use std::fmt::Write as _;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde::Serialize;

use crate::text::{cap, html_escape};
use serde_json::{Map, Value};

/// Most actions one trace keeps.
pub const MAX_ENTRIES: usize = 300;
/// Most bytes of answers and pictures one trace keeps.
pub const MAX_BYTES: usize = 20 * 1024 * 1024;
/// Characters of one answer kept.
const ANSWER_CHARS: usize = 2_000;
/// Console errors kept per action.
const ERRORS: usize = 10;

/// Arguments shown as given: they name where an action happened, not what was typed.
const PLACES: &[&str] = &[
    "tabId",
    "selector",
    "ref",
    "url",
    "action",
    "key",
    "x",
    "y",
    "deltaX",
    "deltaY",
    "button",
    "from",
    "to",
    "position",
    "format",
    "level",
    "limit",
    "path",
    "outputFile",
    "secret",
    "pattern",
    "reload",
    "clear",
    "width",
    "height",
    "clickCount",
    "role",
];

/// Tools that change the page, after which a picture is taken.
const ACTING: &[&str] = &[
    "firefox_create_window",
    "firefox_navigate",
    "firefox_click",
    "firefox_type",
    "firefox_press_key",
    "firefox_scroll",
    "firefox_hover",
    "firefox_select_option",
    "firefox_fill_form",
    "firefox_upload_file",
    "firefox_drag",
    "firefox_handle_dialog",
    "firefox_handle_consent",
    "firefox_evaluate",
    "firefox_set_viewport",
    "firefox_resize_window",
    "firefox_performance",
];

/// Whether a picture is taken after this action: it changed the page, and typed no secret (a
/// picture cannot be redacted).
pub fn pictured(tool: &str, args: &Map<String, Value>) -> bool {
    let secret = args.contains_key("secret")
        || args
            .get("fields")
            .and_then(Value::as_array)
            .is_some_and(|fields| fields.iter().any(|f| f["value"].get("secret").is_some()));
    ACTING.contains(&tool) && !secret
}

/// One action.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    /// ms since the trace started.
    pub at_ms: u64,
    pub tool: String,
    pub target: String,
    pub answer: String,
    pub failed: bool,
    pub url: String,
    pub title: String,
    /// Console errors first seen after this action.
    pub errors: Vec<String>,
    /// A small JPEG after an action that changes the page, base64.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub picture: Option<String>,
    /// What a test does for it. Not in the trace's data: it holds what was typed.
    #[serde(skip)]
    pub replay: Option<Replay>,
}

/// A trace being recorded.
#[derive(Debug)]
pub struct Trace {
    started: Instant,
    /// Seconds since the epoch at the start.
    started_at: u64,
    entries: Vec<Entry>,
    bytes: usize,
    /// Actions left out once the trace was full.
    dropped: u32,
    seen_errors: HashSet<String>,
    /// Texts the agent typed while recording, kept out of every answer recorded after.
    typed: Vec<String>,
}

/// Typed texts shorter than this are common words; they stay in answers.
const MIN_TYPED: usize = 4;
/// Typed texts remembered.
const MAX_TYPED: usize = 200;

impl Default for Trace {
    fn default() -> Self {
        Self {
            started: Instant::now(),
            started_at: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            entries: Vec::new(),
            bytes: 0,
            dropped: 0,
            seen_errors: HashSet::new(),
            typed: Vec::new(),
        }
    }
}

/// What an action left, before it is an [`Entry`].
pub struct Action<'a> {
    pub tool: &'a str,
    pub args: &'a Map<String, Value>,
    pub answer: &'a str,
    pub failed: bool,
    pub url: String,
    pub title: String,
    pub errors: Vec<String>,
    pub picture: Option<String>,
    pub replay: Option<Replay>,
}

impl Trace {
    pub fn elapsed_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// Whether another action fits (a full trace still counts what it leaves out).
    pub fn full(&self) -> bool {
        self.entries.len() >= MAX_ENTRIES || self.bytes >= MAX_BYTES
    }

    pub fn record(&mut self, action: Action<'_>) {
        self.remember_typed(action.tool, action.args);
        if self.full() {
            self.dropped += 1;
            return;
        }
        let new: Vec<String> = action
            .errors
            .into_iter()
            .filter(|e| self.seen_errors.insert(e.clone()))
            .take(ERRORS)
            .collect();
        let errors = new.iter().map(|e| cap(&self.untyped(e), 300)).collect();
        let answer = cap(&self.untyped(action.answer), ANSWER_CHARS);
        // A picture that would pass the limit is left out; the action is still kept.
        let picture = action
            .picture
            .filter(|p| self.bytes + answer.len() + p.len() <= MAX_BYTES);
        self.bytes += answer.len() + picture.as_ref().map_or(0, String::len);
        self.entries.push(Entry {
            at_ms: self.elapsed_ms(),
            tool: action.tool.to_owned(),
            target: target_of(action.args),
            answer,
            failed: action.failed,
            url: cap(&self.untyped(&action.url), 500),
            title: cap(&self.untyped(&action.title), 200),
            errors,
            picture,
            replay: action.replay,
        });
    }

    /// The texts of a `firefox_type` or `firefox_fill_form`, remembered to keep them out.
    fn remember_typed(&mut self, tool: &str, args: &Map<String, Value>) {
        if !matches!(tool, "firefox_type" | "firefox_fill_form") {
            return;
        }
        let fields = args.get("fields").and_then(Value::as_array);
        let values = fields
            .into_iter()
            .flatten()
            .filter_map(|f| f.get("value"))
            .chain(args.get("text"));
        for value in values.filter_map(Value::as_str) {
            if value.chars().count() >= MIN_TYPED && !self.typed.iter().any(|t| t == value) {
                if self.typed.len() == MAX_TYPED {
                    self.typed.remove(0);
                }
                self.typed.push(value.to_owned());
                self.typed.sort_by_key(|t| std::cmp::Reverse(t.len()));
            }
        }
    }

    /// `text` with what the agent typed replaced by its length.
    fn untyped(&self, text: &str) -> String {
        self.typed.iter().fold(text.to_owned(), |out, typed| {
            out.replace(
                typed.as_str(),
                &format!("<typed: {} chars>", typed.chars().count()),
            )
        })
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// What the stop answer says about the limits, when one was reached.
    pub fn limits_reached(&self) -> Option<String> {
        (self.dropped > 0 || self.full()).then(|| {
            format!(
                "the trace reached its limit ({MAX_ENTRIES} actions or {} MB): {} later action(s) were not recorded",
                MAX_BYTES / (1024 * 1024),
                self.dropped
            )
        })
    }

    /// What was recorded, in order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    pub fn json(&self) -> String {
        let doc = serde_json::json!({
            "startedAt": self.started_at,
            "actions": self.entries,
            "notRecorded": self.dropped,
        });
        serde_json::to_string_pretty(&doc).unwrap_or_default()
    }

    /// The page the user opens: every action in order, each linked to the next.
    pub fn html(&self) -> String {
        let mut out = String::from(
            "<!doctype html><html lang=en><head><meta charset=utf-8>\
             <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'\">\
             <title>Claudezilla trace</title><style>\
             body{font:15px/1.4 system-ui,sans-serif;margin:2em auto;max-width:70em;padding:0 1em}\
             li{border-top:1px solid #ccc;padding:.6em 0}h2{font-size:1.05em;margin:0}\
             .failed h2{color:#b00}.page{color:#555}pre{white-space:pre-wrap;background:#f4f4f4;padding:.5em;max-height:20em;overflow:auto}\
             .errors{color:#b00}img{max-width:100%;border:1px solid #999}nav a{margin-right:1em}\
             </style></head><body>",
        );
        let _ = write!(
            out,
            "<h1>What the agent did</h1><p>{} action(s), started at {} (seconds since 1970, UTC).{}</p><ol>",
            self.entries.len(),
            self.started_at,
            self.limits_reached()
                .map(|l| format!(" Note: {}.", html_escape(&l)))
                .unwrap_or_default()
        );
        for (i, e) in self.entries.iter().enumerate() {
            let n = i + 1;
            let class = if e.failed { " class=failed" } else { "" };
            let _ = write!(
                out,
                "<li id=a{n}{class}><h2>{n}. {} {} <small>at {:.1} s{}</small></h2>\
                 <p class=page>{} — {}</p><pre>{}</pre>",
                html_escape(&e.tool),
                html_escape(&e.target),
                e.at_ms as f64 / 1000.0,
                if e.failed { ", failed" } else { "" },
                html_escape(&e.title),
                html_escape(&e.url),
                html_escape(&e.answer),
            );
            for error in &e.errors {
                let _ = write!(
                    out,
                    "<p class=errors>console error: {}</p>",
                    html_escape(error)
                );
            }
            if let Some(picture) = &e.picture {
                let _ = write!(
                    out,
                    "<img alt=\"the page after action {n}\" src=\"data:image/jpeg;base64,{}\">",
                    html_escape(picture)
                );
            }
            let _ = write!(out, "<nav>");
            if n > 1 {
                let _ = write!(out, "<a href=#a{}>previous</a>", n - 1);
            }
            if n < self.entries.len() {
                let _ = write!(out, "<a href=#a{}>next</a>", n + 1);
            }
            let _ = write!(out, "</nav></li>");
        }
        out.push_str("</ol></body></html>\n");
        out
    }
}

/// An action's arguments as the trace shows them: places as given, other text as its length.
pub fn target_of(args: &Map<String, Value>) -> String {
    let shown: Vec<String> = args
        .iter()
        .filter(|(k, _)| k.as_str() != "timeout")
        .map(|(k, v)| {
            let value = match v {
                Value::String(s) if PLACES.contains(&k.as_str()) => format!("{:?}", cap(s, 200)),
                Value::String(s) => format!("<{} chars>", s.chars().count()),
                Value::Array(items) => format!("[{} item(s)]", items.len()),
                Value::Object(_) => "{…}".to_owned(),
                other => other.to_string(),
            };
            format!("{k}={value}")
        })
        .collect();
    shown.join(" ")
}

mod glyphs;
mod movie;
mod playwright;
pub mod replay;

pub use playwright::spec;
use replay::Replay;

/// A trace's pictures as one animated PNG (`movie`), with its frames and how long it plays
/// once; None when no picture decoded.
pub fn movie_of(entries: &[Entry]) -> Result<Option<(Vec<u8>, usize, u64)>, png::EncodingError> {
    let frames = movie::frames(entries);
    if frames.is_empty() {
        return Ok(None);
    }
    let ms = frames.iter().map(|f| f.show_ms).sum();
    Ok(Some((movie::apng(&frames)?, frames.len(), ms)))
}

#[cfg(test)]
mod tests;
