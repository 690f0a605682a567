//! The devtools: console, network log, and running JavaScript in the page.

use super::text;
use claudezilla_protocol::args::{
    ConsoleArgs, EvaluateArgs, NetworkArgs, RouteAction, RouteArgs, UnrouteArgs,
};
use claudezilla_protocol::asks;
use claudezilla_protocol::reply;
use claudezilla_protocol::reply::{ConsoleEntry, NetworkEntry, RouteInfo};

browser_tools! { devtools_router;
    get_console "firefox_get_console" (ConsoleArgs) => whole asks::GetConsole, "The page's console messages and uncaught errors, oldest first. Capture starts on the first call for a tab and continues across its page loads (500 kept).";
        reply::Console { entries, total } => text(render_console(&entries, total));
    get_network "firefox_get_network" (NetworkArgs) => whole asks::GetNetwork, "Requests of your tab, oldest first: method, URL, type, status, ms, bytes; with includeBody, response bodies from then on (credentials redacted). 200 kept. outputFile x.har writes HAR 1.2.";
        reply::Network { entries, total } => text(render_network(&entries, total));
    route "firefox_route" (RouteArgs) => asks::Route, "Mock, block or slow your tabs' requests matching a URL glob: fulfill (your body and headers; the server's status stays), abort or delay. Yours alone. No pattern: lists your routes.";
        reply::Routes { routes } => text(render_routes(&routes));
    unroute "firefox_unroute" (UnrouteArgs) => asks::Unroute, "Removes your route with this pattern, or all of them."; reply::Routes { routes } => text(render_routes(&routes));
    evaluate "firefox_evaluate" (EvaluateArgs) => asks::Evaluate, "Run JavaScript in your tab's page (its own globals) and get the result as JSON; promises are awaited. Off unless the user switched it on in the Claudezilla popup: a capability the user grants, not a sandbox.";
        reply::Evaluated { value, js_type } => text(format!("({js_type}) {value}"));
}

fn render_routes(routes: &[RouteInfo]) -> String {
    if routes.is_empty() {
        return "You have no routes.".into();
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
    format!("Your routes, newest first (it wins):\n{}", lines.join("\n"))
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
            (None, None) => "pending (no answer yet)".into(),
        };
        out.push_str(&format!(
            "{} {} {status} {} {} ms {} B\n",
            e.method, e.url, e.kind, e.ms, e.bytes
        ));
        let headers = e.request_headers.iter().chain(&e.response_headers);
        for (name, value) in headers.flatten() {
            out.push_str(&format!("    {name}: {value}\n"));
        }
        if let Some(body) = &e.body {
            out.push_str(&format!("    body: {}\n", body.replace('\n', "\n    ")));
        }
    }
    out
}
