//! Sharing the 12-tab pool between agents.

use claudezilla_protocol::reply::{SlotRequests, WaitingAgent};
use claudezilla_protocol::{Command, GRANT_MINIMUM, Reply};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{tool, tool_router};

use super::args::{Args, NoArgs};
use super::{respond, text};
use crate::server::Claudezilla;

#[tool_router(router = pool_router, vis = "pub(crate)")]
impl Claudezilla {
    #[tool(
        name = "firefox_request_tab_space",
        description = "When the {POOL_LIMIT}-tab pool is full: queue for the next tab slot another agent grants. Says your place."
    )]
    async fn request_tab_space(&self, Parameters(a): Parameters<Args<NoArgs>>) -> CallToolResult {
        respond(
            self.run(Command::RequestTabSpace, a.timeout).await,
            |reply| match reply {
                Reply::SlotRequested { room_now: true, .. } => Ok(text(
                    "There is room now: open your tab with firefox_create_window.",
                )),
                Reply::SlotRequested { position, .. } => Ok(text(format!(
                    "Queued for a tab slot (place {position}). An agent holding more than {GRANT_MINIMUM} tabs can give you one \
                 with firefox_grant_tab_space; check with firefox_get_slot_requests."
                ))),
                other => Err(other),
            },
        )
    }

    #[tool(
        name = "firefox_grant_tab_space",
        description = "Give up your oldest tab so the longest-waiting agent gets its slot (reserved for it {RESERVATION_S} s by default). Only while you hold more than {GRANT_MINIMUM} tabs."
    )]
    async fn grant_tab_space(&self, Parameters(a): Parameters<Args<NoArgs>>) -> CallToolResult {
        respond(
            self.run(Command::GrantTabSpace, a.timeout).await,
            |reply| match reply {
                Reply::Granted {
                    released_tab,
                    to,
                    reserved_ms,
                } => Ok(text(format!(
                    "Closed your tab {released_tab}; its slot is reserved for {to} for {} s.",
                    reserved_ms / 1000
                ))),
                other => Err(other),
            },
        )
    }

    #[tool(
        name = "firefox_get_slot_requests",
        description = "List agents waiting for a tab slot and the slots reserved for them."
    )]
    async fn get_slot_requests(&self, Parameters(a): Parameters<Args<NoArgs>>) -> CallToolResult {
        respond(
            self.run(Command::GetSlotRequests, a.timeout).await,
            |reply| match reply {
                Reply::SlotRequests(r) => Ok(text(render_requests(&r))),
                other => Err(other),
            },
        )
    }

    #[tool(
        name = "firefox_close_window",
        description = "Close the agent window with your tabs in it. Refused while other agents have tabs there."
    )]
    async fn close_window(&self, Parameters(a): Parameters<Args<NoArgs>>) -> CallToolResult {
        respond(
            self.run(Command::CloseWindow, a.timeout).await,
            |reply| match reply {
                Reply::WindowClosed { tabs_closed: 0 } => Ok(text("No agent window was open.")),
                Reply::WindowClosed { tabs_closed } => Ok(text(format!(
                    "Closed the agent window and its {tabs_closed} tab(s)."
                ))),
                other => Err(other),
            },
        )
    }
}

fn render_requests(r: &SlotRequests) -> String {
    let who = |w: &WaitingAgent| {
        if w.mine {
            format!("{} (you)", w.agent)
        } else {
            w.agent.clone()
        }
    };
    let mut out = format!("{} of {} tabs in use.", r.tabs_in_pool, r.pool_limit);
    if r.waiting.is_empty() && r.reserved.is_empty() {
        out.push_str(" Nobody is waiting.");
    }
    for (i, w) in r.waiting.iter().enumerate() {
        out.push_str(&format!(
            "\nwaiting #{}: {} for {} s",
            i + 1,
            who(w),
            w.waited_ms / 1000
        ));
    }
    for w in &r.reserved {
        out.push_str(&format!(
            "\nreserved: 1 slot for {} ({} s left)",
            who(w),
            w.waited_ms.div_ceil(1000)
        ));
    }
    out
}
