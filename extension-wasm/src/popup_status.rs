//! What the toolbar popup is told (`status`): the pool's tabs as the user sees them, the
//! agents waiting for a slot or holding one reserved (the popup is nobody's agent), the
//! screenshot lock, the loops, the requests for the user's tabs, the switches (and which the
//! environment set, so the popup cannot change them) and the newest activity. Over plain
//! data: the parts of the background's state (`Parts`), which `background/popup.rs` lends.

use claudezilla_protocol::AgentId;
use claudezilla_protocol::envelope::{CaptureState, PopupActivity, PopupStatus, PopupTab, Tuning};

use crate::activity::Activity;
use crate::allowlist::users;
use crate::approvals::Approvals;
use crate::capture_lock::CaptureLock;
use crate::focus_loop::Loops;
use crate::pool::Pool;

/// Activity entries the popup shows (newest first, grouped by agent there).
const POPUP_ACTIVITY: usize = 60;

/// What the popup's answer is made of.
pub struct Parts<'a> {
    /// The host has welcomed the current port.
    pub connected: bool,
    pub pool: &'a mut Pool,
    pub capture: &'a CaptureLock,
    pub loops: &'a Loops,
    pub approvals: &'a Approvals,
    pub activity: &'a Activity,
    pub tuning: &'a Tuning,
    /// Agents may run code in their pages (the popup's switch or the environment's).
    pub evaluate: bool,
    /// The popup's own switches.
    pub storage_switch: bool,
    pub private_attach: bool,
    /// The allowlist the user set in the popup (the environment's, if any, stands over it).
    pub popup_domains: &'a [String],
}

/// The popup's status at `now`.
pub fn status(p: Parts<'_>, now: u64) -> PopupStatus {
    // The popup is nobody's agent: no slot request is its own.
    let nobody = AgentId::new([0; 16], 0);
    let requests = p.pool.slot_requests(&nobody, now);
    PopupStatus {
        connected: p.connected,
        pool_limit: requests.pool_limit,
        tabs: p
            .pool
            .entries_for_user()
            .into_iter()
            .map(|t| PopupTab {
                tab_id: t.tab_id,
                title: t.title,
                owner: t.owner,
                attached: t.attached,
            })
            .collect(),
        waiting: requests.waiting.into_iter().map(|w| w.agent).collect(),
        reserved: requests.reserved.into_iter().map(|w| w.agent).collect(),
        capture: p.capture.holder().map(|h| CaptureState {
            holder: h.agent.short().to_owned(),
            held_ms: now.saturating_sub(h.since),
            waiting: p.capture.waiting() as u32,
        }),
        evaluate: p.evaluate,
        evaluate_by_environment: p.tuning.allow_evaluate,
        loops: p.loops.summary(now),
        approvals: p.approvals.pending().to_vec(),
        private_attach: p.private_attach,
        storage: p.storage_switch || p.tuning.allow_storage,
        storage_by_environment: p.tuning.allow_storage,
        allowed_domains: users(&p.tuning.allowed_domains, p.popup_domains).to_vec(),
        allowed_domains_by_environment: !p.tuning.allowed_domains.is_empty(),
        activity: p
            .activity
            .newest(POPUP_ACTIVITY)
            .map(|e| PopupActivity {
                agent: e.agent.short().to_owned(),
                entry: e.entry.clone(),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests;
