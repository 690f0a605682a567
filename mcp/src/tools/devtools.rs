//! The devtools: console, network log, and running JavaScript in the page.

use claudezilla_protocol::args::{
    ConsoleArgs, EvaluateArgs, NetworkArgs, RouteAction, RouteArgs, UnrouteArgs,
};
use claudezilla_protocol::reply::{ConsoleEntry, NetworkEntry, RouteInfo};
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
        description = "Requests of your tab, oldest first: method, URL, type, status, ms, bytes; with includeBody, response bodies from then on (credentials redacted). 200 kept."
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
        name = "firefox_route",
        description = "Mock, block or slow your tabs' requests matching a URL glob: fulfill (your body and headers; the server's status stays), abort or delay. Yours alone. No pattern: lists your routes."
    )]
    async fn route(&self, Parameters(a): Parameters<Args<RouteArgs>>) -> CallToolResult {
        respond(
            self.run(Command::Route(a.args), a.timeout).await,
            render_routes,
        )
    }

    #[tool(
        name = "firefox_unroute",
        description = "Removes your route with this pattern, or all of them."
    )]
    async fn unroute(&self, Parameters(a): Parameters<Args<UnrouteArgs>>) -> CallToolResult {
        respond(
            self.run(Command::Unroute(a.args), a.timeout).await,
            render_routes,
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

fn render_routes(reply: Reply) -> Result<CallToolResult, Reply> {
    let Reply::Routes { routes } = reply else {
        return Err(reply);
    };
    if routes.is_empty() {
        return Ok(text("You have no routes."));
    }
    let lines: Vec<String> = routes
        .iter()
        .map(
            |RouteInfo {
                 pattern,
                 action,
                 hits,
                 held,
             }| {
                let action = match action {
                    RouteAction::Fulfill => "fulfill",
                    RouteAction::Abort => "abort",
                    RouteAction::Delay => "delay",
                };
                let held = match held {
                    0 => String::new(),
                    n => format!(
                        "; {n} left alone: pages, frames, scripts and styles are fulfilled only with the user's evaluate switch"
                    ),
                };
                format!("{pattern} → {action} ({hits} requests so far{held})")
            },
        )
        .collect();
    Ok(text(format!(
        "Your routes, newest first (it wins):\n{}",
        lines.join("\n")
    )))
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
        if let Some(body) = &e.body {
            out.push_str(&format!("    body: {}\n", body.replace('\n', "\n    ")));
        }
    }
    out
}
