//! Runs one command for one agent. Every command that touches a tab is authorized by the pool
//! first (ownership), including those that name no tab.

use claudezilla_protocol::args::WaitForArgs;
use claudezilla_protocol::envelope::PageOp;
use claudezilla_protocol::{
    AgentId, Command, ErrorBody, ErrorCode, Outcome, Reply, Request, TabId, VERSION,
};

use super::{
    attach, capture, config, containers, content, devtools, downloads, intercept, now, storage,
    tabs, window_size, with_state,
};
use crate::pool::AuthorizedTab;
use crate::route::{Action, Wait, page_route};
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
    // Waits inside the page end early enough to report "not found" within the budget.
    let until = now() + u64::from(budget.saturating_sub(1_000));
    let element_until = now() + u64::from(ELEMENT_WAIT_MS.min(budget.saturating_sub(1_000)));
    if let Some(route) = page_route(&command)? {
        let tab = authorize(&agent, route.tab, route.action)?;
        // A file the page makes next is this agent's (see `crate::downloads`).
        with_state(|s| s.downloads.acted(tab.id(), web::now_ms()));
        let until = match route.wait {
            Wait::Budget => until,
            Wait::Element => element_until,
        };
        return match route.op {
            op @ PageOp::Snapshot { .. } => content::snapshot(tab, until, op, budget).await,
            op @ PageOp::GetContent { .. } => content::page_content(tab, until, op, budget).await,
            op => content::send(tab, route.frame, until, op, budget).await,
        };
    }
    match command {
        Command::CreateWindow(a) => {
            let opened = tabs::create(&agent, &a.url, a.container.as_ref(), budget).await;
            if a.keep_container {
                containers::keep(&agent);
            }
            opened
        }
        Command::Navigate(a) => {
            let tab = authorize(&agent, a.tab_id, Action::Navigate)?;
            if let Some(url) = &a.url {
                config::check(&agent, url)?;
            }
            tabs::navigate(tab, a.url.as_deref(), a.action, budget).await
        }
        Command::GetConsole(a) => {
            let tab = authorize(&agent, a.tab_id, Action::ReadTheConsoleOf)?;
            devtools::console(tab, a, until, budget).await
        }
        Command::GetNetwork(a) => {
            let tab = authorize(&agent, a.tab_id, Action::ReadTheNetworkLogOf)?;
            devtools::network(tab, &a).await
        }
        Command::Evaluate(a) => {
            let tab = authorize(&agent, a.tab_id, Action::RunJavaScriptIn)?;
            with_state(|s| s.downloads.acted(tab.id(), web::now_ms()));
            devtools::evaluate(tab, a, until, budget).await
        }
        Command::Route(a) => intercept::set(&agent, a),
        Command::Unroute(a) => intercept::unset(&agent, a),
        Command::Cookies(a) => {
            let tab = authorize(&agent, a.tab_id, Action::UseTheCookiesOf)?;
            storage::cookies(tab, a).await
        }
        Command::StorageState(a) => storage::state(&agent, a, until, budget).await,
        Command::Downloads(a) => downloads::list(&agent, a, until).await,
        Command::GetActivity(a) => Ok(Reply::Activity {
            entries: with_state(|s| s.activity.of(&agent, a.limit as usize)),
        }),
        Command::Storage(a) => {
            let tab = authorize(&agent, a.tab_id, Action::UseTheStorageOf)?;
            storage::storage(tab, a, until, budget).await
        }
        Command::SetConfig(a) => config::set(&agent, a),
        Command::SetViewport(a) => {
            let size = a.size().map_err(ErrorBody::from)?;
            let tab = authorize(&agent, a.tab_id, Action::Resize)?;
            window_size::set_viewport(&agent, tab, size).await
        }
        Command::ResizeWindow(a) => {
            let tab = authorize(&agent, None, Action::ResizeTheWindowOf)?;
            window_size::resize(tab, a.width, a.height).await
        }
        Command::SetPrivateMode(a) => window_size::set_private(a.enabled).await,
        Command::ListAllTabs => attach::list_all(&agent).await,
        Command::AttachTab(a) => attach::attach(&agent, a.tab_id, budget).await,
        Command::DetachTab(a) => attach::detach(&agent, a.tab_id),
        Command::StartLoop(a) => with_state(|s| s.loops.start(&agent, a, now())).map(Reply::Loop),
        Command::StopLoop => with_state(|s| s.loops.stop(&agent, now())).map(Reply::Loop),
        Command::LoopStatus => Ok(Reply::Loop(with_state(|s| s.loops.status(&agent, now())))),
        Command::LoopCheck(a) => {
            let reason = with_state(|s| s.loops.check(&a.ancestors, &a.last_message, now()));
            Ok(Reply::LoopDecision {
                block: reason.is_some(),
                reason: reason.unwrap_or_default(),
            })
        }
        Command::WaitFor(WaitForArgs {
            url: Some(glob),
            tab_id,
            ..
        }) => {
            let tab = authorize(&agent, tab_id, Action::WaitIn)?;
            tabs::wait_for_url(tab, &glob, until).await
        }
        Command::Screenshot(a) => {
            let tab = authorize(&agent, a.tab_id, Action::Screenshot)?;
            capture::screenshot(&agent, tab, a, budget).await
        }
        Command::GetTabs => Ok(Reply::Tabs {
            tabs: with_state(|s| s.pool.entries(&agent)),
        }),
        Command::CloseTab(a) => {
            let tab = authorize(&agent, Some(a.tab_id), Action::Close)?;
            let closed = tabs::close(tab).await;
            containers::release(&agent, false).await;
            closed
        }
        Command::Ping => Ok(Reply::Pong {
            version: VERSION.into(),
        }),
        Command::Diagnose => {
            let mut d = with_state(|s| s.pool.diagnosis(&agent, VERSION));
            let windows: Vec<web::Window> =
                web::call_as(web::windows_get_all(&wasm_bindgen::JsValue::UNDEFINED)).await?;
            d.browser_windows = windows.len() as u32;
            d.intercepting = super::intercept::active();
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
        // Carried out by a content script (routed above; `page_route` is exhaustive).
        Command::GetContent(_)
        | Command::Click(_)
        | Command::Type(_)
        | Command::PressKey(_)
        | Command::Scroll(_)
        | Command::Hover(_)
        | Command::SelectOption(_)
        | Command::FillForm(_)
        | Command::UploadFile(_)
        | Command::Drag(_)
        | Command::HandleDialog(_)
        | Command::GetElement(_)
        | Command::WaitFor(_)
        | Command::GetPageState(_)
        | Command::Snapshot(_)
        | Command::AccessibilitySnapshot(_)
        | Command::HandleConsent(_) => Err(ErrorBody::new(
            ErrorCode::Internal,
            format!("{} has no page route", command.name()),
        )),
    }
}

fn authorize(
    agent: &AgentId,
    tab: Option<TabId>,
    action: Action,
) -> Result<AuthorizedTab, ErrorBody> {
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
    config::release(agent);
    let released = with_state(|s| {
        s.loops.release(agent);
        s.pool.release(agent)
    });
    released.given_back.into_iter().for_each(attach::forget);
    tabs::remove_all(&released.closed).await;
    containers::release(agent, true).await;
    intercept::release(agent);
    downloads::release(agent);
    released.closed.len() as u32
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
            crate::web::log(&format!(
                "released {closed} tab(s) of idle agent {}",
                agent.short()
            ));
        }
    }
}
