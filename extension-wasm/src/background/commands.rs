//! Runs one command for one agent. Every command that touches a tab is authorized by the pool
//! first (ownership), including those that name no tab.

// Dispatch: every command and operation is named, so a new one is placed by the compiler.
#![deny(clippy::wildcard_enum_match_arm)]

use claudezilla_protocol::envelope::PageOp;
use claudezilla_protocol::reply::{self, Answer, ExtensionDiagnosis};
use claudezilla_protocol::{AgentId, Asking, ErrorBody, Outcome, Request, VERSION, asks};

use super::tabs::InBrowser;
use super::{
    attach, capture, config, containers, content, devtools, downloads, intercept, now, performance,
    storage, tabs, window_size, with_state,
};
use crate::pool::AuthorizedTab;
use crate::retry_plan::Budget;
use crate::route::{AgentWork, Placed, TabWork, Wait, place};
use crate::web;
use crate::{agents_window, tab_frames};

pub async fn handle(request: Request) -> Outcome {
    let outcome = carry_out(request).await;
    // Whatever the command did to the pool, the per-tab listeners follow it.
    super::tabs_changed();
    outcome
}

async fn carry_out(request: Request) -> Outcome {
    // A busy browser may have kept the request queued: only what is left of the wait is ours.
    let at = now();
    let budget = Budget::of(at, request.time_left(at));
    let Request {
        agent_id: agent,
        command,
        ..
    } = request;
    // Checked as it was parsed here: nothing that crossed a boundary is trusted.
    let _in_flight = InFlight::begin(&agent);
    match place(command)? {
        Placed::OnTab { tab, action, work } => {
            let tab = with_state(|s| s.pool.authorize(&agent, tab, action))?;
            on_tab(&agent, tab, work, budget).await
        }
        Placed::Agent(work) => for_agent(&agent, work, budget).await,
    }
}

/// A call from an agent, from its start until it is answered or dropped: the agent is heard
/// all the while, so idle release never takes the tabs of an agent waiting on a slow page.
struct InFlight(AgentId);

impl InFlight {
    fn begin(agent: &AgentId) -> Self {
        with_state(|s| s.pool.call_began(agent, now()));
        Self(agent.clone())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        with_state(|s| s.pool.call_ended(&self.0, now()));
    }
}

/// Work on a tab the pool has authorized.
async fn on_tab(agent: &AgentId, tab: AuthorizedTab, work: TabWork, b: Budget) -> Outcome {
    match work {
        TabWork::Page { frame, op, wait } => {
            // A file the page makes next is this agent's (see `crate::downloads`).
            with_state(|s| s.downloads.acted(tab.id(), web::now_ms()));
            let until = match wait {
                Wait::Budget => b.until,
                Wait::Element => b.element_until,
            };
            let frames = || content::Frames::new(tab, until, b.ms);
            // Reads that span frames are stitched from each; a click may open a tab.
            match op {
                op @ PageOp::Snapshot { max_chars, .. } => {
                    answered::<asks::Snapshot>(tab_frames::snapshot(frames(), op, max_chars).await)
                }
                op @ PageOp::GetContent { max_length, .. } => answered::<asks::GetContent>(
                    tab_frames::content(frames(), op, max_length).await,
                ),
                op @ PageOp::Find { limit, .. } => {
                    answered::<asks::Find>(tab_frames::find(frames(), op, limit).await)
                }
                op @ PageOp::Audit { per_rule, .. } => {
                    answered::<asks::Audit>(tab_frames::audit(frames(), op, per_rule).await)
                }
                op @ PageOp::Locate { .. } => {
                    answered::<asks::Locate>(tab_frames::locate(frames(), frame, op).await)
                }
                op @ (PageOp::Click { .. } | PageOp::ClickAt { .. }) => {
                    answered::<asks::Click>(tabs::click(agent, tab, frame, until, op, b.ms).await)
                }
                op @ (PageOp::Type { .. }
                | PageOp::PressKey { .. }
                | PageOp::Scroll { .. }
                | PageOp::Storage { .. }
                | PageOp::Wheel { .. }
                | PageOp::Hover { .. }
                | PageOp::HoverAt { .. }
                | PageOp::SelectOption { .. }
                | PageOp::FillForm { .. }
                | PageOp::Upload { .. }
                | PageOp::Drag { .. }
                | PageOp::GetElement { .. }
                | PageOp::WaitFor { .. }
                | PageOp::PageState { .. }
                | PageOp::Performance
                | PageOp::Dialogs { .. }
                | PageOp::Console { .. }
                | PageOp::Evaluate { .. }
                | PageOp::Consent
                | PageOp::Settle { .. }
                | PageOp::Metrics { .. }
                | PageOp::Release) => content::round_trip(tab, frame, until, op, b.ms).await,
            }
        }
        TabWork::Navigate { url, action } => {
            if let Some(url) = &url {
                config::check(agent, url)?;
            }
            answered::<asks::Navigate>(tabs::navigate(tab, url.as_deref(), action, b.ms).await)
        }
        TabWork::Console(a) => {
            answered::<asks::GetConsole>(devtools::console(tab, a, b.until, b.ms).await)
        }
        TabWork::Network(a) => answered::<asks::GetNetwork>(devtools::network(tab, &a).await),
        TabWork::Evaluate(a) => {
            with_state(|s| s.downloads.acted(tab.id(), web::now_ms()));
            answered::<asks::Evaluate>(devtools::evaluate(tab, a, b.until, b.ms).await)
        }
        TabWork::Cookies(a) => answered::<asks::Cookies>(storage::cookies(tab, a).await),
        TabWork::Storage(a) => answered::<asks::Storage>(storage::storage(tab, a, b).await),
        TabWork::Viewport(size) => {
            answered::<asks::SetViewport>(window_size::set_viewport(agent, tab, size).await)
        }
        TabWork::ResizeWindow { width, height } => {
            answered::<asks::ResizeWindow>(window_size::resize(tab, width, height).await)
        }
        TabWork::WaitForUrl(glob) => {
            answered::<asks::WaitFor>(tabs::wait_for_url(tab, &glob, b.until).await)
        }
        TabWork::Screenshot(a) => {
            answered::<asks::Screenshot>(capture::screenshot(agent, tab, a, b.ms).await)
        }
        TabWork::Performance { reload } => {
            answered::<asks::Performance>(performance::measure(tab, reload, b.until, b.ms).await)
        }
        TabWork::Close => {
            let closed = agents_window::close(&InBrowser, tab).await;
            containers::release(agent, false).await;
            answered::<asks::CloseTab>(closed)
        }
    }
}

/// Work for the agent (or the browser) that needs no tab of its own.
async fn for_agent(agent: &AgentId, work: AgentWork, b: Budget) -> Outcome {
    match work {
        AgentWork::CreateWindow(a) => {
            let opened = tabs::create(agent, &a.url, a.container.as_ref(), b.ms).await;
            if a.keep_container {
                containers::keep(agent);
            }
            answered::<asks::CreateWindow>(opened)
        }
        AgentWork::Route(a) => answered::<asks::Route>(intercept::set(agent, a)),
        AgentWork::Unroute(a) => answered::<asks::Unroute>(intercept::unset(agent, a)),
        AgentWork::SaveState => answered::<asks::SaveState>(storage::save_state(agent, b).await),
        AgentWork::LoadState(state) => {
            answered::<asks::LoadState>(storage::load_state(agent, state, b).await)
        }
        AgentWork::Downloads(a) => {
            answered::<asks::Downloads>(downloads::list(agent, a, b.until).await)
        }
        AgentWork::GetActivity(a) => answered::<asks::GetActivity>(Ok(reply::Activity {
            entries: with_state(|s| s.activity.of(agent, a.limit as usize)),
        })),
        AgentWork::SetConfig(a) => answered::<asks::SetConfig>(config::set(agent, a)),
        AgentWork::SetPrivateMode(a) => {
            answered::<asks::SetPrivateMode>(window_size::set_private(a.enabled).await)
        }
        AgentWork::ListAllTabs => answered::<asks::ListAllTabs>(attach::list_all(agent).await),
        AgentWork::AttachTab(a) => {
            answered::<asks::AttachTab>(attach::attach(agent, a.tab_id, b.ms).await)
        }
        AgentWork::DetachTab(a) => answered::<asks::DetachTab>(attach::detach(agent, a.tab_id)),
        AgentWork::StartLoop(a) => {
            answered::<asks::StartLoop>(with_state(|s| s.loops.start(agent, a, now())))
        }
        AgentWork::StopLoop => {
            answered::<asks::StopLoop>(with_state(|s| s.loops.stop(agent, now())))
        }
        AgentWork::LoopStatus => {
            answered::<asks::LoopStatus>(Ok(with_state(|s| s.loops.status(agent, now()))))
        }
        AgentWork::LoopCheck(a) => {
            let reason = with_state(|s| s.loops.check(&a.ancestors, &a.last_message, now()));
            answered::<asks::LoopCheck>(Ok(reply::LoopDecision {
                block: reason.is_some(),
                reason: reason.unwrap_or_default(),
            }))
        }
        AgentWork::GetTabs => answered::<asks::GetTabs>(Ok(reply::Tabs {
            tabs: with_state(|s| s.pool.entries(agent)),
        })),
        AgentWork::Ping => answered::<asks::Ping>(Ok(reply::Pong {
            version: VERSION.into(),
        })),
        AgentWork::Diagnose => answered::<asks::Diagnose>(diagnose(agent).await),
        AgentWork::Goodbye => answered::<asks::Goodbye>(Ok(reply::Bye {
            tabs_closed: release_agent(agent).await,
        })),
        AgentWork::RequestTabSpace => {
            answered::<asks::RequestTabSpace>(Ok(with_state(|s| s.pool.ask_space(agent, now()))))
        }
        AgentWork::GrantTabSpace => answered::<asks::GrantTabSpace>(grant(agent).await),
        AgentWork::GetSlotRequests => answered::<asks::GetSlotRequests>(Ok(with_state(|s| {
            s.pool.slot_requests(agent, now())
        }))),
        AgentWork::CloseWindow => {
            answered::<asks::CloseWindow>(agents_window::close_window(&InBrowser, agent).await)
        }
        AgentWork::Heartbeat => answered::<asks::Heartbeat>(Ok(())),
        AgentWork::ReloadExtension => {
            // Answer first; the reload tears down this page.
            wasm_bindgen_futures::spawn_local(async {
                web::sleep(100).await;
                web::runtime_reload();
            });
            answered::<asks::ReloadExtension>(Ok(()))
        }
    }
}

/// A handler's answer as the reply it travels in. The command names its answer type
/// (`asks::X::Answer`), so a handler that answers another kind does not compile.
fn answered<A: Asking>(answer: Result<A::Answer, ErrorBody>) -> Outcome {
    answer.map(Answer::into_reply)
}

async fn diagnose(agent: &AgentId) -> Result<ExtensionDiagnosis, ErrorBody> {
    let mut d = with_state(|s| s.pool.diagnosis(agent, VERSION));
    let windows: Vec<web::Window> =
        web::call_as(web::windows_get_all(&wasm_bindgen::JsValue::UNDEFINED)).await?;
    d.browser_windows = windows.len() as u32;
    d.intercepting = super::intercept::active();
    Ok(d)
}

async fn grant(agent: &AgentId) -> Result<reply::Granted, ErrorBody> {
    let (released, granted) = with_state(|s| s.grant(agent, now()))?;
    agents_window::remove_all(&InBrowser, &[released]).await;
    Ok(granted)
}

/// Closes and forgets every tab of an agent that said goodbye, whose connection dropped, or
/// that went silent.
pub async fn release_agent(agent: &AgentId) -> u32 {
    let released = with_state(|s| s.agent_leaves(agent));
    released.given_back.into_iter().for_each(attach::forget);
    agents_window::remove_all(&InBrowser, &released.closed).await;
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
        web::sleep(crate::pool::idle_round_ms(idle_ms)).await;
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
