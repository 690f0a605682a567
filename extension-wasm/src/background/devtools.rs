//! The devtools: the page's console, the tab's network log, and running JavaScript in the page.

use claudezilla_protocol::args::{ConsoleArgs, EvaluateArgs, NetworkArgs};
use claudezilla_protocol::envelope::PageOp;
use claudezilla_protocol::reply;
use claudezilla_protocol::{ErrorBody, Reply};

use super::{content, with_state};
use crate::pool::AuthorizedTab;
use crate::request_log::Filter;
use crate::web;

/// Starts (or keeps) console capture in `tab` and reads it.
pub async fn console(
    tab: AuthorizedTab,
    a: ConsoleArgs,
    until: u64,
    budget_ms: u32,
) -> Result<reply::Console, ErrorBody> {
    with_state(|s| s.console_tabs.insert(tab.id()));
    let op = PageOp::Console {
        level: a.level,
        clear: a.clear,
        limit: a.limit,
    };
    content::answer(tab, 0, until, op, budget_ms).await
}

/// Restarts capture in a page the tab just loaded, if its agent asked for the console before.
pub async fn restart_console(tab: AuthorizedTab, until: u64) {
    if !with_state(|s| s.console_tabs.contains(&tab.id())) {
        return;
    }
    let op = PageOp::Console {
        level: None,
        clear: false,
        limit: 0,
    };
    // Silent: it runs after every load of a tab whose console is read, where a page that went
    // on already or takes no script fails it routinely; the agent's next console read
    // restarts capture in the page.
    let _ = content::round_trip::<Reply>(tab, 0, until, op, 5_000).await;
}

/// How long a read of the network log waits for the word on the tab's newest page load.
const MAIN_FRAME_WAIT_MS: f64 = 1_000.0;

pub async fn network(tab: AuthorizedTab, a: &NetworkArgs) -> Result<reply::Network, ErrorBody> {
    // A navigation answers at the page's load, often before Firefox has told us of its main
    // request's end: the log waits for that word (a second at most) so it holds the page.
    super::tabs::main_frame_settled(tab.id(), MAIN_FRAME_WAIT_MS).await;
    let filter = Filter {
        kind: a.kind.as_deref(),
        status: a.status.as_deref(),
        limit: a.limit as usize,
        include_headers: a.include_headers,
        include_body: a.include_body,
    };
    if a.include_body && with_state(|s| s.read_bodies(tab.id())) {
        super::intercept::sync();
    }
    let (entries, total) = with_state(|s| s.requests.query(tab.id(), &filter, web::now_ms()));
    Ok(reply::Network { entries, total })
}

pub async fn evaluate(
    tab: AuthorizedTab,
    a: EvaluateArgs,
    until: u64,
    budget_ms: u32,
) -> Result<reply::Evaluated, ErrorBody> {
    with_state(|s| s.code_switch())?;
    let op = PageOp::Evaluate {
        expression: a.expression,
    };
    content::answer(tab, 0, until, op, budget_ms).await
}
