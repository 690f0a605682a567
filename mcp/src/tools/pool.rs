//! Sharing the 12-tab pool between agents.

use super::args::NoArgs;
use super::text;
use claudezilla_protocol::GRANT_MINIMUM;
use claudezilla_protocol::asks;
use claudezilla_protocol::reply;
use claudezilla_protocol::reply::{SlotRequests, WaitingAgent};

browser_tools! { pool_router;
    request_tab_space "firefox_request_tab_space" (NoArgs) => asks::RequestTabSpace, "When the {POOL_LIMIT}-tab pool is full: queue for the next tab slot another agent grants. Says your place.";
        reply::SlotRequested { room_now: true, .. } => text("There is room now: open your tab with firefox_create_window."),
        reply::SlotRequested { position, .. } => text(format!(
            "Queued for a tab slot (place {position}). An agent holding more than {GRANT_MINIMUM} tabs can give you one \
             with firefox_grant_tab_space; check with firefox_get_slot_requests."
        ));
    grant_tab_space "firefox_grant_tab_space" (NoArgs) => asks::GrantTabSpace, "Give up your oldest tab so the longest-waiting agent gets its slot (reserved for it {RESERVATION_S} s by default). Only while you hold more than {GRANT_MINIMUM} tabs.";
        reply::Granted { released_tab, to, reserved_ms } => text(format!("Closed your tab {released_tab}; its slot is reserved for {to} for {} s.", reserved_ms / 1000));
    get_slot_requests "firefox_get_slot_requests" (NoArgs) => asks::GetSlotRequests, "List agents waiting for a tab slot and the slots reserved for them."; r => text(render_requests(&r));
    close_window "firefox_close_window" (NoArgs) => asks::CloseWindow, "Close the agent window with your tabs in it. Refused while other agents have tabs there.";
        reply::WindowClosed { tabs_closed: 0 } => text("No agent window was open."),
        reply::WindowClosed { tabs_closed } => text(format!("Closed the agent window and its {tabs_closed} tab(s)."));
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
