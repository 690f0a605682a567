//! Screenshots, the browser's side of [`crate::shot`]: the page asked to settle and measured,
//! `tabs.captureTab` (no tab switch: the user's view and other agents' tabs stay as they are),
//! and the turns at the capture lock.
//!
//! Captures take turns ([`CaptureLock`](crate::capture_lock::CaptureLock)): they are heavy, and
//! MUTEX_BUSY tells an agent when another capture is hogging the browser. The turn is released
//! on every path out (a guard).

use claudezilla_protocol::args::ScreenshotArgs;
use claudezilla_protocol::envelope::PageOp;
use claudezilla_protocol::reply;
use claudezilla_protocol::reply::Screenshot;
use claudezilla_protocol::{AgentId, ErrorBody, TabId};
use futures_channel::oneshot;

use super::{content, now, with_state};
use crate::capture_lock::Ticket;
use crate::pool::AuthorizedTab;
use crate::shot::{self, Camera, CaptureOptions};
use crate::web;

/// Holds a ticket; giving it back on drop wakes the next screenshot in line.
struct Turn(Ticket);

impl Drop for Turn {
    fn drop(&mut self) {
        if let Some(wake) = with_state(|s| s.capture_done(self.0, now())) {
            let _ = wake.send(());
        }
    }
}

pub async fn screenshot(
    agent: &AgentId,
    authorized: AuthorizedTab,
    args: ScreenshotArgs,
    budget_ms: u32,
) -> Result<Screenshot, ErrorBody> {
    let camera = TabCamera { agent, authorized };
    shot::shoot(&camera, &args, budget_ms).await
}

/// The browser's side of one screenshot of one tab, for `agent`.
struct TabCamera<'a> {
    agent: &'a AgentId,
    authorized: AuthorizedTab,
}

impl Camera for TabCamera<'_> {
    type Turn = Turn;

    fn tab(&self) -> TabId {
        self.authorized.id()
    }

    fn now(&self) -> u64 {
        now()
    }

    fn sleep(&self, ms: u32) -> impl Future<Output = ()> {
        web::sleep(ms)
    }

    fn network_quiet(&self) -> bool {
        with_state(|s| s.network.quiet(self.tab(), web::now_ms()))
    }

    async fn settle_page(
        &self,
        op: PageOp,
        until: u64,
        budget_ms: u32,
    ) -> Result<reply::Waited, ErrorBody> {
        content::answer(self.authorized, 0, until, op, budget_ms).await
    }

    async fn measure(
        &self,
        op: PageOp,
        deadline: u64,
        budget_ms: u32,
    ) -> Result<reply::PageMetrics, ErrorBody> {
        content::round_trip(self.authorized, 0, deadline, op, budget_ms).await
    }

    async fn turn(&self, deadline: u64) -> Result<Turn, ErrorBody> {
        let turn = Turn(with_state(|s| s.capture.request(self.agent, now())));
        wait_for_turn(&turn, deadline).await?;
        Ok(turn)
    }

    async fn capture(
        &self,
        options: &CaptureOptions,
        ms: u32,
    ) -> Option<Result<String, ErrorBody>> {
        let shot = web::call(web::tabs_capture_tab(self.tab().0, &web::to_js(options)));
        let url = web::with_deadline(ms, shot).await?;
        Some(url.map(|u| u.as_string().unwrap_or_default()))
    }
}

/// Waits until the ticket is granted; gives up with MUTEX_BUSY once the current holder has held
/// the lock longer than the busy limit, or with TIMEOUT at the deadline.
async fn wait_for_turn(turn: &Turn, deadline: u64) -> Result<(), ErrorBody> {
    loop {
        let verdict = with_state(|s| {
            s.capture
                .verdict(turn.0, now(), s.tuning.mutex_busy_ms, deadline)
        });
        let Some(ms) = verdict.wait_ms()? else {
            return Ok(());
        };
        let (wake, woken) = oneshot::channel();
        with_state(|s| s.capture_wakers.insert(turn.0, wake));
        web::with_deadline(ms as u32, woken).await;
    }
}
