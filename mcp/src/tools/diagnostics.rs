//! `firefox_diagnose`: every link of the chain, each problem with its fix.

use claudezilla_protocol::asks;
use claudezilla_protocol::reply;
use std::fmt::Write;
use std::time::Instant;

use claudezilla_protocol::args::ActivityArgs;
use claudezilla_protocol::reply::{ActivityEntry, ExtensionDiagnosis};
use claudezilla_protocol::{VERSION, validate};
use rmcp::model::CallToolResult;

use super::args::NoArgs;
use super::{Context, Given, failed, text};
use crate::session::Claudezilla;

browser_tools! { diagnostics_router;
    get_activity "firefox_get_activity" (ActivityArgs) => asks::GetActivity, "Your own recent actions in the browser, newest first (time, tab, command, target, outcome), as the user sees them in the popup.";
        reply::Activity { entries } => text(render_activity(&entries));
    diagnose "firefox_diagnose" (NoArgs) => with check_the_chain, "Check the connection to Firefox (socket, token, host, extension, latency, tab pool) and say how to fix what is wrong.";
}

impl Claudezilla {
    /// Each link of the chain is reported, failing or not.
    async fn check_the_chain(&self, a: Given<NoArgs>, _: Context) -> CallToolResult {
        let timeout = match validate::timeout(a.timeout) {
            Ok(t) => Some(u64::from(t.min(10_000))),
            Err(e) => return failed(e.into()),
        };
        let mut report = Report::default();
        let link = &self.link;
        report.ok(format!("MCP server {VERSION}, agent {}", link.agent()));

        let started = Instant::now();
        let ping = self.ask::<asks::Ping>((), timeout).await;
        let rtt = started.elapsed().as_secs_f64() * 1e3;
        let info = link.info().await;
        let dir = info.runtime_dir.display();
        match info.host_version {
            Some(v) if v == VERSION => report.ok(format!("host {v} connected through {dir}")),
            Some(v) => report.bad(
                format!("host {v} differs from this MCP server {VERSION}"),
                "rebuild and run `claudezilla-host install`, then restart Firefox",
            ),
            None => report.bad(
                format!("no host reachable in {dir}"),
                crate::link::START_HINT,
            ),
        }
        match ping {
            Ok(reply::Pong { version }) if version == VERSION => {
                report.ok(format!("extension {version} answered ping in {rtt:.1} ms"))
            }
            Ok(reply::Pong { version }) => report.bad(
                format!("extension {version} differs from {VERSION}"),
                "reload the extension (about:debugging) or restart Firefox after rebuilding",
            ),
            Err(e) => report.bad(
                format!("ping failed: {}", e.message),
                e.hint.as_deref().unwrap_or(crate::link::START_HINT),
            ),
        }
        if info.connected {
            match self.ask::<asks::Diagnose>((), timeout).await {
                Ok(d) => {
                    report.ok(render_pool(&d));
                    report.ok(match d.intercepting {
                        true => "requests of the agent tabs with routes or body capture wait on Claudezilla (never tabs outside the pool)".into(),
                        false => "no request waits on Claudezilla's routes or body capture now".into(),
                    });
                }
                Err(e) => report.bad(
                    format!("extension diagnosis failed: {e}"),
                    "restart Firefox",
                ),
            }
        }
        text(report.finish())
    }
}

fn render_pool(d: &ExtensionDiagnosis) -> String {
    let window = d
        .window_id
        .map_or("not open".to_owned(), |w| format!("window {w}"));
    format!(
        "tab pool: {} of {} tabs in use by {} agent(s), {} yours {:?}; agent window {window} ({} browser window(s) open)",
        d.tabs_in_pool,
        d.pool_limit,
        d.agents,
        d.your_tabs.len(),
        d.your_tabs.iter().map(|t| t.0).collect::<Vec<_>>(),
        d.browser_windows
    )
}

#[derive(Default)]
struct Report {
    lines: String,
    problems: usize,
}

impl Report {
    fn ok(&mut self, what: String) {
        let _ = writeln!(self.lines, "ok   {what}");
    }

    fn bad(&mut self, what: String, fix: &str) {
        self.problems += 1;
        let _ = writeln!(self.lines, "FAIL {what}\n     fix: {fix}");
    }

    fn finish(self) -> String {
        let verdict = match self.problems {
            0 => "Everything works.".to_owned(),
            n => format!("{n} problem(s) found."),
        };
        format!("{}{verdict}", self.lines)
    }
}

fn render_activity(entries: &[ActivityEntry]) -> String {
    if entries.is_empty() {
        return "No actions of yours recorded yet.".into();
    }
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1e3);
    let mut out = format!("Your last {} actions, newest first:", entries.len());
    for e in entries {
        let ago = ((now_ms - e.at_ms) / 1e3).max(0.0);
        let tab = e.tab.map(|t| format!(" tab {t}")).unwrap_or_default();
        let target = if e.target.is_empty() {
            String::new()
        } else {
            format!(" {}", e.target)
        };
        let _ = write!(
            out,
            "\n{ago:.0} s ago{tab}: {}{target} → {}",
            e.tool, e.outcome
        );
    }
    out
}
