//! What the early script (`extension-shell/early.js`) kept while an agent tab's page loaded —
//! the dialogs it answered and the console messages — as the content module takes it over
//! (`content/mod.rs` reads the script's record): a field missing reads as empty, a console
//! level not known as `log`.

use claudezilla_protocol::reply::{ConsoleEntry, ConsoleLevel};
use serde::Deserialize;

/// The early script's record; what else it holds is not read.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Kept {
    pub dialogs: Vec<Dialog>,
    console: Vec<Message>,
}

/// A dialog the script answered with the default policy.
#[derive(Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(default)]
pub struct Dialog {
    /// `alert`, `confirm` or `prompt`.
    pub kind: String,
    pub message: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Message {
    level: String,
    message: String,
    time: f64,
}

impl Kept {
    /// The console messages, in the order they came.
    pub fn console(&mut self) -> Vec<ConsoleEntry> {
        std::mem::take(&mut self.console)
            .into_iter()
            .map(|m| ConsoleEntry {
                level: ConsoleLevel::try_from(m.level).unwrap_or(ConsoleLevel::Log),
                message: m.message,
                time: m.time,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
