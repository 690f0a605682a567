//! Runs one command for one agent. Every command that touches a tab is authorized by the pool
//! first (ownership), including those that name no tab.

use claudezilla_protocol::envelope::ContentRequest;
use claudezilla_protocol::{AgentId, Command, ErrorBody, Outcome, Reply, Request, TabId, VERSION};

use super::{capture, content, tabs, with_state};

/// Answer this long before the caller's own timeout, so a slow page yields a report, not a
/// timeout error.
const ANSWER_MARGIN_MS: u32 = 750;
/// Longest a click or type waits for its element to appear.
const ELEMENT_WAIT_MS: u32 = 5_000;

pub async fn handle(request: Request) -> Outcome {
    let Request {
        agent_id: agent,
        timeout_ms,
        command,
        ..
    } = request;
    // The MCP server validated already; nothing that crossed a boundary is trusted.
    command.validate().map_err(ErrorBody::from)?;
    let budget = timeout_ms.saturating_sub(ANSWER_MARGIN_MS).max(1_000);
    // Leave time to report "not found" before the budget runs out.
    let element_wait = ELEMENT_WAIT_MS.min(budget.saturating_sub(500));
    match command {
        Command::CreateWindow(a) => tabs::create(&agent, &a.url, budget).await,
        Command::Navigate(a) => {
            let tab = authorize(&agent, a.tab_id, "navigate")?;
            tabs::navigate(tab, &a.url, budget).await
        }
        Command::GetContent(a) => {
            let tab = authorize(&agent, a.tab_id, "read")?;
            let req = ContentRequest::GetContent {
                selector: a.selector,
                max_length: a.max_length,
            };
            content::send(tab, &req, budget).await
        }
        Command::Click(a) => {
            let tab = authorize(&agent, a.tab_id, "click in")?;
            let req = ContentRequest::Click {
                selector: a.selector,
                wait_ms: element_wait,
            };
            content::send(tab, &req, budget).await
        }
        Command::Type(a) => {
            let tab = authorize(&agent, a.tab_id, "type into")?;
            let req = ContentRequest::Type {
                selector: a.selector,
                text: a.text,
                clear: a.clear,
                wait_ms: element_wait,
            };
            content::send(tab, &req, budget).await
        }
        Command::Screenshot(a) => {
            let tab = authorize(&agent, a.tab_id, "screenshot")?;
            capture::screenshot(tab, budget).await
        }
        Command::GetTabs => Ok(Reply::Tabs {
            tabs: with_state(|s| s.pool.entries(&agent)),
        }),
        Command::CloseTab(a) => {
            let tab = authorize(&agent, Some(a.tab_id), "close")?;
            tabs::close(tab).await
        }
        Command::Ping => Ok(Reply::Pong {
            version: VERSION.into(),
        }),
        Command::Diagnose => Ok(Reply::Diagnosis(with_state(|s| {
            s.pool.diagnosis(&agent, VERSION)
        }))),
        Command::Goodbye => Ok(Reply::Bye {
            tabs_closed: release_agent(&agent).await,
        }),
    }
}

fn authorize(agent: &AgentId, tab: Option<TabId>, action: &str) -> Result<TabId, ErrorBody> {
    with_state(|s| s.pool.authorize(agent, tab, action))
}

/// Closes and forgets every tab of an agent that said goodbye or whose connection dropped.
pub async fn release_agent(agent: &AgentId) -> u32 {
    let released = with_state(|s| s.pool.release(agent));
    let count = released.len() as u32;
    tabs::remove_all(&released).await;
    count
}
