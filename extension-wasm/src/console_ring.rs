//! A page's console as `firefox_get_console` reads it: a ring of the newest entries, kept only
//! while capture is on, each message hidden of the agent's secrets and cut when it is kept and
//! again, shorter, when it is shown.

use std::collections::VecDeque;

use claudezilla_protocol::reply::{Console, ConsoleEntry, ConsoleLevel};
use claudezilla_protocol::{ErrorBody, ErrorCode};

/// Entries kept; the oldest go first.
const RING: usize = 500;
/// Characters of one message in an answer.
const MAX_MESSAGE: usize = 2_000;
/// Characters of one message kept: more than an answer shows, so that a secret the frame
/// learns of only later (this document never had it typed) is hidden before the answer cuts.
const MAX_KEPT: usize = 2 * MAX_MESSAGE;

#[derive(Debug, Default)]
pub struct ConsoleRing {
    on: bool,
    entries: VecDeque<ConsoleEntry>,
}

impl ConsoleRing {
    pub fn is_on(&self) -> bool {
        self.on
    }

    /// Capture starts, with what the page logged before it (kept while the page loaded).
    pub fn start(&mut self, early: impl IntoIterator<Item = ConsoleEntry>) {
        if self.on {
            return;
        }
        self.on = true;
        for entry in early {
            self.push(entry);
        }
    }

    /// A call of one of the page's console methods: `level` as the shim names it (it hooks
    /// exactly the five levels), the arguments described.
    pub fn called(&mut self, level: String, args: &[String], time: f64) {
        let level = ConsoleLevel::try_from(level).unwrap_or(ConsoleLevel::Log);
        self.record(level, &args.join(" "), time);
    }

    /// An uncaught error or an unhandled rejection.
    pub fn uncaught(&mut self, message: &str, time: f64) {
        self.record(ConsoleLevel::Error, &format!("Uncaught {message}"), time);
    }

    /// Keeps one message, if capture is on.
    pub fn record(&mut self, level: ConsoleLevel, message: &str, time: f64) {
        if !self.on {
            return;
        }
        self.push(ConsoleEntry {
            level,
            message: hidden_cut(message, MAX_KEPT),
            time,
        });
    }

    fn push(&mut self, entry: ConsoleEntry) {
        if self.entries.len() == RING {
            self.entries.pop_front();
        }
        self.entries.push_back(entry);
    }

    /// The newest `limit` entries (of one level, if given), with how many passed the filter;
    /// `clear` empties the ring after.
    pub fn read(&mut self, level: Option<ConsoleLevel>, clear: bool, limit: u32) -> Console {
        let passing: Vec<&ConsoleEntry> = self
            .entries
            .iter()
            .filter(|e| level.is_none_or(|l| e.level == l))
            .collect();
        let total = passing.len() as u32;
        let skip = passing.len().saturating_sub(limit as usize);
        let entries = passing[skip..]
            .iter()
            .map(|e| ConsoleEntry {
                message: hidden_cut(&e.message, MAX_MESSAGE),
                ..(*e).clone()
            })
            .collect();
        if clear {
            self.entries.clear();
        }
        Console { entries, total }
    }
}

/// `text` with the agent's typed secrets hidden, then at most `max` characters of it.
fn hidden_cut(text: &str, max: usize) -> String {
    crate::text::truncate_chars(&crate::hidden::hide(text), max)
        .0
        .to_owned()
}

/// An unhandled rejection as the console and the page state tell it; `reason` is the
/// rejection's reason as `page_value::describe` wrote it.
pub fn rejection(reason: &str) -> String {
    format!("(in promise) {reason}")
}

/// The content shim gave no console hook.
pub fn no_hook() -> ErrorBody {
    ErrorBody::new(ErrorCode::Internal, "the console hook is missing")
}

/// The page refused the hook (`why`: its error).
pub fn not_watched(why: &str) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::PageError,
        format!("cannot watch this page's console: {why}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(level: ConsoleLevel, message: &str) -> ConsoleEntry {
        ConsoleEntry {
            level,
            message: message.into(),
            time: 1.0,
        }
    }

    #[test]
    fn nothing_is_kept_before_capture_starts() {
        let mut ring = ConsoleRing::default();
        ring.record(ConsoleLevel::Log, "before", 1.0);
        ring.start([entry(ConsoleLevel::Warn, "early")]);
        ring.record(ConsoleLevel::Log, "after", 2.0);
        let read = ring.read(None, false, 10);
        let messages: Vec<_> = read.entries.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(messages, ["early", "after"]);
        // A second start adds the early messages no second time.
        ring.start([entry(ConsoleLevel::Warn, "early")]);
        assert_eq!(ring.read(None, false, 10).total, 2);
    }

    #[test]
    fn the_ring_keeps_the_newest() {
        let mut ring = ConsoleRing::default();
        ring.start([]);
        for i in 0..RING + 5 {
            ring.record(ConsoleLevel::Log, &format!("m{i}"), i as f64);
        }
        let read = ring.read(None, false, 3);
        assert_eq!(read.total as usize, RING);
        let messages: Vec<_> = read.entries.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(messages, ["m502", "m503", "m504"]);
    }

    #[test]
    fn a_level_filters_and_clear_empties() {
        let mut ring = ConsoleRing::default();
        ring.start([]);
        ring.record(ConsoleLevel::Log, "a", 1.0);
        ring.record(ConsoleLevel::Error, "b", 2.0);
        ring.record(ConsoleLevel::Error, "c", 3.0);
        let errors = ring.read(Some(ConsoleLevel::Error), true, 1);
        assert_eq!(errors.total, 2);
        assert_eq!(errors.entries[0].message, "c");
        assert_eq!(ring.read(None, false, 10).total, 0);
    }

    #[test]
    fn messages_are_cut_when_kept_and_shorter_when_shown() {
        let mut ring = ConsoleRing::default();
        ring.start([]);
        ring.record(ConsoleLevel::Log, &"x".repeat(3 * MAX_MESSAGE), 1.0);
        assert_eq!(ring.entries[0].message.chars().count(), MAX_KEPT);
        let shown = ring.read(None, false, 1);
        assert_eq!(shown.entries[0].message.chars().count(), MAX_MESSAGE);
    }

    #[test]
    fn a_typed_secret_never_shows_in_what_is_kept_or_read() {
        let secret: claudezilla_protocol::args::FilledSecret = serde_json::from_value(
            serde_json::json!({"name": "PW", "value": "correct horse battery"}),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let mut ring = ConsoleRing::default();
        ring.start([]);
        // Logged before this frame learnt of the secret: kept as it was…
        ring.record(ConsoleLevel::Log, "before: correct horse battery", 1.0);
        crate::hidden::learn([&secret]);
        // …and hidden as it is kept from then on.
        ring.record(ConsoleLevel::Log, "after: correct horse battery", 2.0);
        assert!(ring.entries[0].message.contains("correct horse"));
        assert!(
            !ring.entries[1].message.contains("correct horse"),
            "hidden when kept"
        );
        // Both are hidden when read.
        for e in &ring.read(None, false, 10).entries {
            assert!(!e.message.contains("correct horse"), "{}", e.message);
            assert!(e.message.contains("<secret:PW>"), "{}", e.message);
        }
    }

    #[test]
    fn console_calls_and_uncaught_errors_are_kept_as_the_console_shows_them() {
        let mut ring = ConsoleRing::default();
        ring.start([]);
        ring.called("warn".into(), &["a".into(), "{\"b\":1}".into()], 1.0);
        ring.called("trace".into(), &[], 2.0);
        ring.uncaught("TypeError: x is undefined", 3.0);
        ring.uncaught(&rejection("Error: offline"), 4.0);
        let kept: Vec<_> = ring
            .entries
            .iter()
            .map(|e| (e.level, e.message.as_str()))
            .collect();
        assert_eq!(
            kept,
            [
                (ConsoleLevel::Warn, "a {\"b\":1}"),
                (ConsoleLevel::Log, ""),
                (ConsoleLevel::Error, "Uncaught TypeError: x is undefined"),
                (ConsoleLevel::Error, "Uncaught (in promise) Error: offline"),
            ]
        );
        let missing = no_hook();
        assert_eq!(missing.code, ErrorCode::Internal);
        assert_eq!(missing.message, "the console hook is missing");
        let refused = not_watched("denied");
        assert_eq!(refused.code, ErrorCode::PageError);
        assert_eq!(refused.message, "cannot watch this page's console: denied");
    }
}
