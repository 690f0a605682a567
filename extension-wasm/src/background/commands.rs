//! Runs one command for one agent. Every command that touches a tab is authorized by the pool
//! first (ownership), including those that name no tab.

use claudezilla_protocol::envelope::ContentRequest;
use claudezilla_protocol::{
    AgentId, Command, ErrorBody, ErrorCode, Outcome, Reply, Request, TabId, VERSION,
};

use super::{capture, content, now, tabs, with_state};
use crate::web;

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
    with_state(|s| s.pool.touch(&agent, now()));
    let budget = timeout_ms.saturating_sub(ANSWER_MARGIN_MS).max(1_000);
    // Leave time to report "not found" before the budget runs out.
    let element_deadline = now() + u64::from(ELEMENT_WAIT_MS.min(budget.saturating_sub(500)));
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
                until: element_deadline,
            };
            content::send(tab, &req, budget).await
        }
        Command::Type(a) => {
            let tab = authorize(&agent, a.tab_id, "type into")?;
            let req = ContentRequest::Type {
                selector: a.selector,
                text: a.text,
                clear: a.clear,
                until: element_deadline,
            };
            content::send(tab, &req, budget).await
        }
        Command::Screenshot(a) => {
            let tab = authorize(&agent, a.tab_id, "screenshot")?;
            capture::screenshot(&agent, tab, budget).await
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
        Command::Diagnose => {
            let mut d = with_state(|s| s.pool.diagnosis(&agent, VERSION));
            let windows: Vec<web::Window> =
                web::call_as(web::windows_get_all(&wasm_bindgen::JsValue::UNDEFINED)).await?;
            d.browser_windows = windows.len() as u32;
            Ok(Reply::Diagnosis(d))
        }
        Command::Goodbye => Ok(Reply::Bye {
            tabs_closed: release_agent(&agent).await,
        }),
        Command::RequestTabSpace => Ok(request_space(&agent)),
        Command::GrantTabSpace => grant(&agent).await,
        Command::GetSlotRequests => Ok(Reply::SlotRequests(with_state(|s| {
            s.pool.slot_requests(&agent, now())
        }))),
        Command::CloseWindow => tabs::close_window(&agent).await,
        Command::Heartbeat => Ok(Reply::Ack),
        Command::ReloadExtension => {
            // Answer first; the reload tears down this page.
            wasm_bindgen_futures::spawn_local(async {
                web::sleep(100).await;
                web::runtime_reload();
            });
            Ok(Reply::Ack)
        }
    }
}

fn authorize(agent: &AgentId, tab: Option<TabId>, action: &str) -> Result<TabId, ErrorBody> {
    with_state(|s| s.pool.authorize(agent, tab, action))
}

fn request_space(agent: &AgentId) -> Reply {
    let (position, room) = with_state(|s| {
        let now = now();
        s.pool.expire(now);
        let room = s.pool.room_for(agent) > 0;
        let position = if room {
            0
        } else {
            s.pool.request_space(agent, now)
        };
        (position as u32, room)
    });
    Reply::SlotRequested {
        position,
        room_now: room,
    }
}

async fn grant(agent: &AgentId) -> Outcome {
    let (grant, reserved_ms) = with_state(|s| {
        let reserved = s.tuning.reservation_ms;
        s.pool.grant(agent, now(), reserved).map(|g| (g, reserved))
    })?;
    tabs::remove_all(&[grant.released]).await;
    Ok(Reply::Granted {
        released_tab: grant.released,
        to: grant.to.short().to_owned(),
        reserved_ms: reserved_ms.min(u64::from(u32::MAX)) as u32,
    })
}

/// Closes and forgets every tab of an agent that said goodbye, whose connection dropped, or
/// that went silent.
pub async fn release_agent(agent: &AgentId) -> u32 {
    let released = with_state(|s| s.pool.release(agent));
    let count = released.len() as u32;
    tabs::remove_all(&released).await;
    count
}

/// Every so often, releases the tabs of agents silent for longer than the idle limit
/// (a live MCP server sends heartbeats, so only dead or stuck agents lose their tabs).
pub async fn release_idle_agents_forever() {
    loop {
        let idle_ms = with_state(|s| s.tuning.idle_release_ms);
        // Re-read each round: the host's welcome may change the limit.
        web::sleep((idle_ms / 4).clamp(250, 5_000) as u32).await;
        let idle = with_state(|s| s.pool.idle_agents(now(), s.tuning.idle_release_ms));
        for agent in idle {
            let closed = release_agent(&agent).await;
            super::native::web_log(&format!(
                "released {closed} tab(s) of idle agent {}",
                agent.short()
            ));
        }
    }
}

/// The refusal for closing the window while others work in it.
pub fn window_in_use(others: usize) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::Ownership,
        format!("Cannot close the agent window: {others} tab(s) in it belong to other agents"),
    )
    .with_hint("close your own tabs with firefox_close_tab instead")
}
