//! What the early script (`extension-shell/early.js`) kept while an agent tab's page loaded —
//! the dialogs it answered and the console messages — as the content module takes it over: read
//! field by field over [`Record`] (`content/mod.rs` reads the script's record), each field and
//! each list item on its own, so one of another type reads as its default (a list as empty, a
//! text as "", a time as 0) and spoils nothing else; a console level not known reads as `log`.

use claudezilla_protocol::reply::{ConsoleEntry, ConsoleLevel};

/// The script's record, one read per call: a field missing, of another type, or whose read
/// fails (a getter that throws, a list item that is no object) is `None`.
pub trait Record {
    type Value;
    /// An array's items.
    fn list(&self, of: &Self::Value, name: &str) -> Option<Vec<Self::Value>>;
    fn text(&self, of: &Self::Value, name: &str) -> Option<String>;
    fn number(&self, of: &Self::Value, name: &str) -> Option<f64>;
}

/// What the script kept; what else its record holds is not read.
#[derive(Debug, Default, PartialEq)]
pub struct Kept {
    pub dialogs: Vec<Dialog>,
    /// The console messages, in the order they came.
    pub console: Vec<ConsoleEntry>,
}

/// A dialog the script answered with the default policy.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Dialog {
    /// `alert`, `confirm` or `prompt`.
    pub kind: String,
    pub message: String,
}

/// Reads the record `early`: its dialogs, then its console messages, each item's fields in turn.
pub fn read<R: Record>(record: &R, early: &R::Value) -> Kept {
    let text = |of: &R::Value, name: &str| record.text(of, name).unwrap_or_default();
    let list = |name: &str| record.list(early, name).unwrap_or_default();
    let dialogs = list("dialogs")
        .iter()
        .map(|d| Dialog {
            kind: text(d, "kind"),
            message: text(d, "message"),
        })
        .collect();
    let console = list("console")
        .iter()
        .map(|c| ConsoleEntry {
            level: ConsoleLevel::try_from(text(c, "level")).unwrap_or(ConsoleLevel::Log),
            message: text(c, "message"),
            time: record.number(c, "time").unwrap_or_default(),
        })
        .collect();
    Kept { dialogs, console }
}

#[cfg(test)]
mod tests;
