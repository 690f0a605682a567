//! The devtools: console, network log, and running JavaScript in the page.

use claudezilla_protocol::args::{ConsoleArgs, EvaluateArgs, NetworkArgs};
use claudezilla_protocol::reply::{ConsoleEntry, NetworkEntry};
use claudezilla_protocol::{Command, Reply};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{tool, tool_router};

use super::args::Args;
use super::{respond, text};
use crate::server::Claudezilla;

#[tool_router(router = devtools_router, vis = "pub(crate)")]
impl Claudezilla {
    #[tool(
        name = "firefox_get_console",
        description = "The page's console messages and uncaught errors, oldest first. Capture starts on the first call for a tab and continues across its page loads (500 kept)."
    )]
    async fn get_console(&self, Parameters(a): Parameters<Args<ConsoleArgs>>) -> CallToolResult {
        respond(
            self.run(Command::GetConsole(a.args), a.timeout).await,
            |reply| match reply {
                Reply::Console { entries, total } => Ok(text(render_console(&entries, total))),
                other => Err(other),
            },
        )
    }

    #[tool(
        name = "firefox_get_network",
        description = "Requests of your tab, oldest first: method, URL, type, status, ms, bytes (no bodies; credentials redacted). 200 kept."
    )]
    async fn get_network(&self, Parameters(a): Parameters<Args<NetworkArgs>>) -> CallToolResult {
        respond(
            self.run(Command::GetNetwork(a.args), a.timeout).await,
            |reply| match reply {
                Reply::Network { entries, total } => Ok(text(render_network(&entries, total))),
                other => Err(other),
            },
        )
    }

    #[tool(
        name = "firefox_evaluate",
        description = "Run JavaScript in your tab's page (its own globals) and get the result as JSON; promises are awaited. Off unless the user switched it on in the Claudezilla popup: a capability the user grants, not a sandbox."
    )]
    async fn evaluate(&self, Parameters(a): Parameters<Args<EvaluateArgs>>) -> CallToolResult {
        respond(
            self.run(Command::Evaluate(a.args), a.timeout).await,
            |reply| match reply {
                Reply::Evaluated { value, js_type } => Ok(text(format!("({js_type}) {value}"))),
                other => Err(other),
            },
        )
    }
}

fn render_console(entries: &[ConsoleEntry], total: u32) -> String {
    if entries.is_empty() {
        return "No console messages yet (capture is on for this tab from now on).".into();
    }
    let mut out = format!("{} of {total} message(s):\n", entries.len());
    for e in entries {
        out.push_str(&format!("[{}] {}\n", e.level, e.message));
    }
    out
}

fn render_network(entries: &[NetworkEntry], total: u32) -> String {
    if entries.is_empty() {
        return "No requests recorded for this tab yet.".into();
    }
    let mut out = format!("{} of {total} request(s):\n", entries.len());
    for e in entries {
        let status = match (&e.status, &e.error) {
            (Some(s), _) => s.to_string(),
            (None, Some(err)) => format!("failed ({err})"),
            (None, None) => "?".into(),
        };
        out.push_str(&format!(
            "{} {} {status} {} {} ms {} B\n",
            e.method, e.url, e.kind, e.ms, e.bytes
        ));
        for (name, value) in e.headers.iter().flatten() {
            out.push_str(&format!("    {name}: {value}\n"));
        }
    }
    out
}
