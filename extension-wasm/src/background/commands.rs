//! Runs one command for one agent. Every command that touches a tab is authorized by the pool
//! first (ownership), including those that name no tab.

use claudezilla_protocol::args::{ElementTarget, WaitForArgs};
use claudezilla_protocol::envelope::PageOp;
use claudezilla_protocol::{
    AgentId, Command, ErrorBody, ErrorCode, Outcome, Reply, Request, TabId, VERSION,
};

use super::{attach, capture, config, content, devtools, now, tabs, window_size, with_state};
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
    if let Some((tab, frame, op, wait)) = page_op(&agent, &command)? {
        let until = if wait { until } else { element_until };
        return match op {
            op @ PageOp::Snapshot { .. } => content::snapshot(tab, until, op, budget).await,
            op @ PageOp::GetContent { .. } => content::page_content(tab, until, op, budget).await,
            op => content::send(tab, frame, until, op, budget).await,
        };
    }
    match command {
        Command::CreateWindow(a) => tabs::create(&agent, &a.url, budget).await,
        Command::Navigate(a) => {
            let tab = authorize(&agent, a.tab_id, "navigate")?;
            if let Some(url) = &a.url {
                config::check(&agent, url)?;
            }
            tabs::navigate(tab, a.url.as_deref(), a.action, budget).await
        }
        Command::GetConsole(a) => {
            let tab = authorize(&agent, a.tab_id, "read the console of")?;
            devtools::console(tab, a, until, budget).await
        }
        Command::GetNetwork(a) => {
            let tab = authorize(&agent, a.tab_id, "read the network log of")?;
            devtools::network(tab, &a)
        }
        Command::Evaluate(a) => {
            let tab = authorize(&agent, a.tab_id, "run JavaScript in")?;
            devtools::evaluate(tab, a, until, budget).await
        }
        Command::SetConfig(a) => Ok(config::set(&agent, a)),
        Command::HandleConsent(a) => {
            let tab = authorize(&agent, a.tab_id, "handle consent in")?;
            content::send(tab, 0, element_until, PageOp::Consent, budget).await
        }
        Command::SetViewport(a) => {
            let size = a.size().map_err(ErrorBody::from)?;
            let tab = authorize(&agent, a.tab_id, "resize")?;
            window_size::set_viewport(&agent, tab, size).await
        }
        Command::ResizeWindow(a) => {
            let tab = authorize(&agent, None, "resize the window of")?;
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
            let tab = authorize(&agent, tab_id, "wait in")?;
            tabs::wait_for_url(tab, &glob, until).await
        }
        Command::Screenshot(a) => {
            let tab = authorize(&agent, a.tab_id, "screenshot")?;
            capture::screenshot(&agent, tab, a, budget).await
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
        other => Err(ErrorBody::new(
            ErrorCode::Internal,
            format!("{} is not run by the extension", other.name()),
        )),
    }
}

/// The commands carried out by a content script: which tab (authorized), which frame, what to
/// do there, and whether it waits up to the whole budget (true) or the 5 s element wait.
fn page_op(
    agent: &AgentId,
    command: &Command,
) -> Result<Option<(TabId, u32, PageOp, bool)>, ErrorBody> {
    let on = |tab: Option<TabId>, action: &str| authorize(agent, tab, action);
    let target = |t: Result<ElementTarget, claudezilla_protocol::validate::Invalid>| {
        t.map_err(ErrorBody::from)
    };
    Ok(Some(match command {
        Command::GetContent(a) => {
            let op = PageOp::GetContent {
                selector: a.selector.clone(),
                max_length: a.max_length,
                format: a.effective_format(),
            };
            (on(a.tab_id, "read")?, 0, op, false)
        }
        Command::Click(a) => {
            let t = target(a.target())?;
            let op = PageOp::Click {
                target: t.clone(),
                clicks: a.clicks().map_err(ErrorBody::from)?,
                button: a.button,
                modifiers: a.held(),
            };
            (on(a.tab_id, "click in")?, t.frame(), op, false)
        }
        Command::Type(a) => {
            let t = target(a.target())?;
            (
                on(a.tab_id, "type into")?,
                t.frame(),
                PageOp::Type {
                    target: t,
                    text: a.text.clone(),
                    clear: a.clear,
                },
                false,
            )
        }
        Command::PressKey(a) => {
            let t = a.target().map_err(ErrorBody::from)?;
            let chord = a.chord().map_err(ErrorBody::from)?;
            let frame = t.as_ref().map_or(0, ElementTarget::frame);
            let op = PageOp::PressKey { target: t, chord };
            (on(a.tab_id, "press keys in")?, frame, op, false)
        }
        Command::Scroll(a) => {
            let t = a.target().map_err(ErrorBody::from)?;
            let frame = t.as_ref().map_or(0, ElementTarget::frame);
            let smooth = a.behavior.as_deref() == Some("smooth");
            (
                on(a.tab_id, "scroll")?,
                frame,
                PageOp::Scroll {
                    target: t,
                    x: a.x,
                    y: a.y,
                    smooth,
                },
                false,
            )
        }
        Command::Hover(a) => {
            let t = target(a.target())?;
            (
                on(a.tab_id, "hover in")?,
                t.frame(),
                PageOp::Hover { target: t },
                false,
            )
        }
        Command::GetElement(a) => {
            let t = target(a.target())?;
            (
                on(a.tab_id, "inspect")?,
                t.frame(),
                PageOp::GetElement { target: t },
                false,
            )
        }
        Command::SelectOption(a) => {
            let t = target(a.target())?;
            (
                on(a.tab_id, "select in")?,
                t.frame(),
                PageOp::SelectOption {
                    target: t,
                    values: a.values.clone(),
                },
                false,
            )
        }
        Command::FillForm(a) => {
            let fields: Vec<_> = a
                .fields
                .iter()
                .map(|f| f.target().map(|t| (t, f.value.clone())))
                .collect::<Result<_, _>>()?;
            let frame = fields[0].0.frame();
            if fields.iter().any(|(t, _)| t.frame() != frame) {
                return Err(ErrorBody::new(
                    ErrorCode::InvalidArgument,
                    "all fields of one fill must be in the same frame",
                ));
            }
            (
                on(a.tab_id, "fill a form in")?,
                frame,
                PageOp::FillForm { fields },
                false,
            )
        }
        Command::UploadFile(a) => {
            let t = target(a.target())?;
            let file = a.file.clone().ok_or_else(|| {
                ErrorBody::new(
                    ErrorCode::Internal,
                    "the host did not attach the file's bytes",
                )
                .with_hint("update claudezilla-host")
            })?;
            (
                on(a.tab_id, "upload into")?,
                t.frame(),
                PageOp::Upload { target: t, file },
                false,
            )
        }
        Command::Drag(a) => {
            let (from, to) = a.targets().map_err(ErrorBody::from)?;
            (
                on(a.tab_id, "drag in")?,
                from.frame(),
                PageOp::Drag { from, to },
                false,
            )
        }
        Command::HandleDialog(a) => {
            let op = PageOp::Dialogs {
                accept: a.accept,
                prompt_text: a.prompt_text.clone(),
            };
            (on(a.tab_id, "answer dialogs in")?, 0, op, false)
        }
        Command::WaitFor(a) if a.url.is_none() => {
            let op = PageOp::WaitFor {
                selector: a.selector.clone(),
                text: a.text.clone(),
            };
            (on(a.tab_id, "wait in")?, 0, op, true)
        }
        Command::GetPageState(a) => {
            let limits = [
                a.max_headings,
                a.max_links,
                a.max_buttons,
                a.max_inputs,
                a.max_images,
            ];
            (
                on(a.tab_id, "read")?,
                0,
                PageOp::PageState { limits },
                false,
            )
        }
        Command::Snapshot(a) => {
            let op = PageOp::Snapshot {
                selector: a.selector.clone(),
                interactive_only: a.interactive_only,
                max_chars: a.max_chars,
                max_depth: None,
                max_nodes: None,
            };
            (on(a.tab_id, "snapshot")?, 0, op, false)
        }
        Command::AccessibilitySnapshot(a) => {
            let op = PageOp::Snapshot {
                selector: a.selector.clone(),
                interactive_only: false,
                max_chars: claudezilla_protocol::args::MAX_MAX_LENGTH,
                max_depth: Some(a.max_depth),
                max_nodes: Some(a.max_nodes),
            };
            (on(a.tab_id, "snapshot")?, 0, op, false)
        }
        _ => return Ok(None),
    }))
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
    config::release(agent);
    let released = with_state(|s| {
        s.loops.release(agent);
        s.pool.release(agent)
    });
    released.given_back.into_iter().for_each(attach::forget);
    tabs::remove_all(&released.closed).await;
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
