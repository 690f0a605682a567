//! Screenshots: activate the tab, capture the visible area as JPEG — one capture at a time, in
//! arrival order ([`CaptureLock`](crate::capture_lock::CaptureLock)). The lock is released on
//! every path out (a guard), errors, timeouts and closed tabs included.

use base64::Engine;
use claudezilla_protocol::reply::Screenshot;
use claudezilla_protocol::{AgentId, ErrorBody, ErrorCode, Outcome, Reply, TabId};
use futures_channel::oneshot;
use serde::Serialize;

use super::{now, with_state};
use crate::capture_lock::Ticket;
use crate::jpeg;
use crate::web::{self, Tab};

const QUALITY: u8 = 60;
const SCALE: f64 = 0.5;
const PREFIX: &str = "data:image/jpeg;base64,";
/// Another tab activated between our activation and the capture: try again this many times.
const ATTEMPTS: usize = 3;

#[derive(Serialize)]
struct Activate {
    active: bool,
}

#[derive(Serialize)]
struct ImageDetails {
    format: &'static str,
    quality: u8,
    scale: f64,
}

/// Holds a ticket; giving it back on drop wakes the next screenshot in line.
struct Turn(Ticket);

impl Drop for Turn {
    fn drop(&mut self) {
        let next = with_state(|s| {
            let next = s.capture.release(self.0, now());
            s.capture_wakers.remove(&self.0);
            next.and_then(|t| s.capture_wakers.remove(&t))
        });
        if let Some(wake) = next {
            let _ = wake.send(());
        }
    }
}

pub async fn screenshot(agent: &AgentId, tab: TabId, budget_ms: u32) -> Outcome {
    let started = now();
    let turn = Turn(with_state(|s| s.capture.request(agent, started)));
    wait_for_turn(&turn, started + u64::from(budget_ms)).await?;
    for _ in 0..ATTEMPTS {
        if let Some(shot) = capture(tab).await? {
            return Ok(Reply::Screenshot(shot));
        }
    }
    Err(ErrorBody::new(
        ErrorCode::Browser,
        format!("tab {tab} kept losing focus during the capture"),
    )
    .with_hint("someone is switching tabs in the agent window; retry"))
}

/// Waits until the ticket is granted; gives up with MUTEX_BUSY once the current holder has held
/// the lock longer than the busy limit, or with TIMEOUT at the deadline.
async fn wait_for_turn(turn: &Turn, deadline: u64) -> Result<(), ErrorBody> {
    loop {
        let (granted, holder, busy_ms) = with_state(|s| {
            let holder = s
                .capture
                .holder()
                .map(|h| (h.agent.short().to_owned(), now().saturating_sub(h.since)));
            (s.capture.is_granted(turn.0), holder, s.tuning.mutex_busy_ms)
        });
        if granted {
            return Ok(());
        }
        let now = now();
        let Some((holder, held)) = holder else {
            // Not granted yet no holder: cannot happen (a release grants the next in line).
            web::sleep(1).await;
            continue;
        };
        if held >= busy_ms {
            return Err(ErrorBody::new(
                ErrorCode::MutexBusy,
                format!("another screenshot ({holder}) has held the capture lock for {held} ms"),
            )
            .with_hint("retry in a second or two"));
        }
        if now >= deadline {
            return Err(ErrorBody::new(
                ErrorCode::Timeout,
                "waited too long for the capture lock",
            ));
        }
        let (wake, woken) = oneshot::channel();
        with_state(|s| s.capture_wakers.insert(turn.0, wake));
        let wait = (busy_ms - held).min(deadline - now).max(1);
        web::with_deadline(wait as u32, woken).await;
    }
}

/// One attempt: `None` when the tab was no longer the active one after the capture.
async fn capture(tab: TabId) -> Result<Option<Screenshot>, ErrorBody> {
    let shown: Tab = web::call_as(web::tabs_update(
        tab.0,
        &web::to_js(&Activate { active: true }),
    ))
    .await
    .map_err(|e| {
        ErrorBody::new(
            ErrorCode::NoSuchTab,
            format!("cannot show tab {tab}: {}", e.message),
        )
    })?;
    let details = ImageDetails {
        format: "jpeg",
        quality: QUALITY,
        scale: SCALE,
    };
    let url = web::call(web::tabs_capture_visible_tab(
        shown.window_id,
        &web::to_js(&details),
    ))
    .await?
    .as_string()
    .unwrap_or_default();
    let after: Tab = web::call_as(web::tabs_get(tab.0)).await.map_err(|e| {
        ErrorBody::new(
            ErrorCode::NoSuchTab,
            format!("tab {tab} closed during the capture ({})", e.message),
        )
    })?;
    if !after.active {
        return Ok(None);
    }
    let data = url
        .strip_prefix(PREFIX)
        .ok_or_else(|| ErrorBody::new(ErrorCode::Browser, "the capture is not a JPEG data URL"))?;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(|e| {
            ErrorBody::new(
                ErrorCode::Browser,
                format!("the capture is not valid base64: {e}"),
            )
        })?;
    let (width, height) = jpeg::dimensions(&bytes)
        .ok_or_else(|| ErrorBody::new(ErrorCode::Browser, "the capture is not a readable JPEG"))?;
    Ok(Some(Screenshot {
        tab_id: tab,
        mime: "image/jpeg".into(),
        data: data.to_owned(),
        width,
        height,
    }))
}
