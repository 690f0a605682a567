//! Focus loops: keep a Claude Code session working on one prompt until it is done. The
//! session's Stop hook (`claudezilla-host stop-hook`) asks the extension whether to go on.

use claudezilla_protocol::args::LoopArgs;
use claudezilla_protocol::asks;
use claudezilla_protocol::reply::LoopState;
use rmcp::model::CallToolResult;

use super::args::NoArgs;
use super::{Context, Given, respond, text};
use crate::session::Claudezilla;

browser_tools! { loops_router;
    start_loop "firefox_start_loop" (LoopArgs) => with start, "Start a focus loop: each time this session tries to stop, it is given the prompt again, until your reply contains <promise>completionPromise</promise>, maxIterations rounds or an hour. Needs the Stop hook (`claudezilla-host stop-hook`) in Claude Code's settings.";
    stop_loop "firefox_stop_loop" (NoArgs) => asks::StopLoop, "End your focus loop now."; s => text(describe(&s));
    loop_status "firefox_loop_status" (NoArgs) => asks::LoopStatus, "Your focus loop: round, limit, time, and why it ended."; s => text(describe(&s));
}

impl Claudezilla {
    async fn start(&self, a: Given<LoopArgs>, _: Context) -> CallToolResult {
        let mut args = a.args;
        // The session is the process that started this server (Claude Code); its Stop hook
        // finds the loop by that pid among its own ancestors.
        args.session_pid = claudezilla_protocol::process::parent_id();
        respond(self.ask::<asks::StartLoop>(args, a.timeout).await, |s| {
            text(describe(&s))
        })
    }
}

fn describe(s: &LoopState) -> String {
    if s.max_iterations == 0 {
        return "No focus loop has run in this session.".into();
    }
    let promise = s
        .completion_promise
        .as_deref()
        .map(|p| format!(", ends on <promise>{p}</promise>"))
        .unwrap_or_default();
    let state = match (&s.ended, s.active) {
        (Some(why), _) => format!("ended: {why}"),
        (None, true) => "running".to_owned(),
        (None, false) => "not running".to_owned(),
    };
    format!(
        "Focus loop {state}; round {} of {}{promise}; {} s so far. Prompt: {}",
        s.iteration,
        s.max_iterations,
        s.running_ms / 1000,
        s.prompt
    )
}
