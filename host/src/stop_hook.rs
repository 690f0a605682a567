//! `claudezilla-host stop-hook`: the Claude Code Stop hook that makes focus loops work. Claude
//! Code runs it when the session is about to stop, with JSON on stdin naming the transcript;
//! it asks the extension (authenticated with the host's token, like any client) whether a loop
//! holds this session, and if so prints `{"decision":"block","reason":…}` to keep it working.
//!
//! The session is found by process ancestry: the MCP server registers its parent (Claude
//! Code) when the loop starts, and that pid is among the hook's own ancestors.

// Reads the transcript Claude Code names: one of the host's named file I/O modules.
#![allow(clippy::disallowed_methods)]

use claudezilla_protocol::reply;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use claudezilla_protocol::args::LoopCheckArgs;
use claudezilla_protocol::paths::RuntimeDir;
use claudezilla_protocol::{asks, process};
use serde::{Deserialize, Serialize};

use crate::client;

/// The end of the transcript that is read: the last reply is there.
const TRANSCRIPT_TAIL: u64 = 4 * 1024 * 1024;

#[derive(Deserialize)]
struct HookInput {
    /// The reply that ends the turn, as Claude Code gives it to the hook (the transcript file
    /// may not hold it yet when the hook runs).
    #[serde(default)]
    last_assistant_message: Option<String>,
    #[serde(default)]
    transcript_path: Option<String>,
}

#[derive(Serialize)]
struct Block {
    decision: &'static str,
    reason: String,
}

/// Runs the hook on its stdin: `Ok(Some(json))` to print when the session must go on.
/// Problems (no Firefox, no loop) let the session stop: a hook must never trap a user.
pub fn run(stdin: &str, runtime: &RuntimeDir) -> Result<Option<String>, String> {
    let input: HookInput =
        serde_json::from_str(stdin).map_err(|e| format!("hook input is not JSON: {e}"))?;
    let last_message = match input.last_assistant_message {
        Some(message) => message,
        None => input
            .transcript_path
            .map(|p| read_tail(Path::new(&p)))
            .transpose()?
            .map(|t| last_assistant_text(&t))
            .unwrap_or_default(),
    };
    let check = LoopCheckArgs {
        ancestors: process::ancestors(std::process::id()),
        last_message,
    };
    let (_, answer) = client::ask::<asks::LoopCheck>(runtime, "claudezilla-host stop-hook", check)
        .map_err(|e| e.to_string())?;
    match answer.map_err(|e| e.to_string())? {
        reply::LoopDecision { block: false, .. } => Ok(None),
        reply::LoopDecision {
            block: true,
            reason,
        } => {
            let block = Block {
                decision: "block",
                reason,
            };
            serde_json::to_string(&block)
                .map(Some)
                .map_err(|e| e.to_string())
        }
    }
}

fn read_tail(path: &Path) -> Result<String, String> {
    let mut file =
        std::fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let _ = file.seek(SeekFrom::Start(len.saturating_sub(TRANSCRIPT_TAIL)));
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The text of the last assistant message in a Claude Code transcript (JSON lines).
pub fn last_assistant_text(transcript: &str) -> String {
    transcript
        .lines()
        .rev()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .find(|v| v["type"] == "assistant")
        .map(|v| {
            let content = &v["message"]["content"];
            match content.as_array() {
                Some(blocks) => blocks
                    .iter()
                    .filter(|b| b["type"] == "text")
                    .filter_map(|b| b["text"].as_str())
                    .collect::<Vec<_>>()
                    .join("\n"),
                None => content.as_str().unwrap_or_default().to_owned(),
            }
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_assistant_reply_is_read_from_the_transcript() {
        let transcript = r#"{"type":"user","message":{"role":"user","content":"go"}}
{"type":"assistant","message":{"content":[{"type":"text","text":"first"}]}}
{"type":"assistant","message":{"content":[{"type":"tool_use","name":"x"},{"type":"text","text":"all done <promise>DONE</promise>"}]}}
{"type":"user","message":{"content":[{"type":"tool_result"}]}}
not json"#;
        assert_eq!(
            last_assistant_text(transcript),
            "all done <promise>DONE</promise>"
        );
        assert_eq!(last_assistant_text(""), "");
    }
}
