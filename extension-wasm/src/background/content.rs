//! Talking to the content scripts in an agent's tab (one per frame), injecting them where
//! missing; and [`Frames`], the browser's side of the reads that span a tab's frames
//! ([`tab_frames`]).

use claudezilla_protocol::envelope::{ContentReply, ContentRequest, PageOp};
use claudezilla_protocol::{Answer, ErrorBody, ErrorCode, TabId};
use serde::Serialize;
use serde::de::DeserializeOwned;
use wasm_bindgen::JsValue;

use super::with_state;
use crate::background_state;
use crate::exchange;
use crate::pool::AuthorizedTab;
use crate::retry_plan;
use crate::tab_frames::{self, FrameAsk, Inject, Probe};
use crate::web;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InFrame {
    frame_id: u64,
}

/// What goes to a content script: an object (no text between two parts of one program) with a
/// `content` key, which is how the shim tells our messages from any other.
#[derive(Serialize)]
struct ToContent<'a> {
    content: &'a ContentRequest,
}

fn to_content(request: &ContentRequest) -> JsValue {
    web::to_js(&ToContent { content: request })
}

/// `op`'s answer from one frame, as the kind it answers: a reply of another kind is a bug,
/// said here.
pub async fn answer<A: Answer>(
    authorized: AuthorizedTab,
    alias: u32,
    until: u64,
    op: PageOp,
    budget_ms: u32,
) -> Result<A, ErrorBody> {
    tab_frames::answer(&Frames::new(authorized, until, budget_ms), alias, op).await
}

/// Sends one operation to one frame (by its alias, 0 for the top frame) and reads its answer
/// as the kind `op` answers (`T`: a `Reply`, the page's `PageMetrics` or a `SnapshotPart`),
/// bounded by `budget_ms`; retried once across a navigation.
pub async fn round_trip<T: DeserializeOwned>(
    authorized: AuthorizedTab,
    alias: u32,
    until: u64,
    op: PageOp,
    budget_ms: u32,
) -> Result<T, ErrorBody> {
    let tab = authorized.id();
    let (frame, request) = with_state(|s| s.content_request(tab, alias, until, op))?;
    let message = to_content(&request);
    let started = web::precise_ms();
    let talk = async {
        let frame = TabFrame {
            tab,
            frame,
            message: &message,
            mark: with_state(|s| s.main_frames.mark()),
        };
        // A message to a document that is going away may never be answered: a try lasts as
        // long as the page's own wait, and a little more.
        let try_ms = retry_plan::try_ms(until, super::now(), budget_ms);
        let answer = exchange::carry(&frame, try_ms).await?;
        let reply: ContentReply<T> = serde_wasm_bindgen::from_value(answer)
            .map_err(|e| internal_msg(format!("content script answer: {e}")))?;
        crate::hop_trace::record(|t| {
            t.content_us += ((web::precise_ms() - started) * 1e3) as u64;
            t.page_us += reply.page_us;
            t.startup_us = t.startup_us.max(reply.startup_us);
        });
        with_state(|s| s.keep_notes(tab, reply.notes));
        reply.outcome
    };
    web::with_deadline(budget_ms, talk)
        .await
        .unwrap_or_else(|| Err(retry_plan::no_answer(tab, budget_ms)))
}

/// One frame of an agent's tab, as the exchange with its content script asks it.
struct TabFrame<'a> {
    tab: TabId,
    frame: u64,
    message: &'a JsValue,
    /// The tab's loads seen when the exchange began.
    mark: u64,
}

impl exchange::Frame for TabFrame<'_> {
    type Answer = JsValue;

    fn tab(&self) -> TabId {
        self.tab
    }

    async fn ask(&self) -> Result<Option<JsValue>, ErrorBody> {
        let options = web::to_js(&InFrame {
            frame_id: self.frame,
        });
        let answer = web::call(web::tabs_send_message(self.tab.0, self.message, &options)).await?;
        Ok(answer.is_object().then_some(answer))
    }

    async fn inject(&self) -> Result<(), ErrorBody> {
        inject(self.tab, Some(self.frame)).await
    }

    async fn pause(&self, ms: u32) {
        web::sleep(ms).await
    }

    async fn within<T>(&self, ms: u32, work: impl Future<Output = T>) -> Option<T> {
        web::with_deadline(ms, work).await
    }

    fn navigated(&self) -> bool {
        with_state(|s| s.main_frames.started_since(self.tab, self.mark))
    }
}

/// Injects the content script into one frame, or every frame.
async fn inject(tab: TabId, frame: Option<u64>) -> Result<(), ErrorBody> {
    let details = web::to_js(&Inject::content(frame));
    web::call(web::tabs_execute_script(tab.0, &details)).await?;
    Ok(())
}

/// The tab goes back to the user: every frame takes its hooks out (dialogs, console). Best
/// effort: a frame without our script has nothing to take out.
pub async fn release(tab: TabId) {
    let request = background_state::release_request(super::now());
    let every_frame = JsValue::UNDEFINED;
    let asked = web::call(web::tabs_send_message(
        tab.0,
        &to_content(&request),
        &every_frame,
    ));
    // Silent: a frame without our script answers with an error, and so does a tab that went.
    let _ = web::with_deadline(background_state::RELEASE_MS, asked).await;
}

/// After a page load: start the content script in every frame, so dialogs and errors are
/// captured from the start and the first command needs no injection. Failures (privileged
/// pages) are fine: commands report them when they need the page.
pub async fn preload(tab: AuthorizedTab) {
    // Silent for that reason: every load of a privileged page would log.
    let _ = inject(tab.id(), None).await;
}

/// The frames of one tab, as one read of them asks ([`tab_frames`]).
pub struct Frames {
    tab: AuthorizedTab,
    until: u64,
    budget_ms: u32,
}

impl Frames {
    pub fn new(tab: AuthorizedTab, until: u64, budget_ms: u32) -> Self {
        Self {
            tab,
            until,
            budget_ms,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FrameOfTab {
    tab_id: u32,
    frame_id: u64,
}

impl FrameAsk for Frames {
    fn tab(&self) -> TabId {
        self.tab.id()
    }

    fn until(&self) -> u64 {
        self.until
    }

    fn now(&self) -> u64 {
        super::now()
    }

    async fn ask<T: DeserializeOwned>(&self, alias: u32, op: PageOp) -> Result<T, ErrorBody> {
        round_trip(self.tab, alias, self.until, op, self.budget_ms).await
    }

    fn alias(&self, frame: u64) -> u32 {
        with_state(|s| s.frames.alias(self.tab.id(), frame))
    }

    fn frame_id(&self, alias: u32) -> Result<u64, ErrorBody> {
        frame_id(self.tab.id(), alias)
    }

    fn refused(&self, frame: u64) -> Option<String> {
        with_state(|s| s.refused_frame(self.tab.id(), frame))
    }

    async fn parent_id(&self, frame: u64) -> Result<f64, ErrorBody> {
        let details = web::to_js(&FrameOfTab {
            tab_id: self.tab.id().0,
            frame_id: frame,
        });
        let found = web::call(web::web_navigation_get_frame(&details)).await?;
        Ok(web::get(&found, "parentFrameId").as_f64().unwrap_or(-1.0))
    }

    async fn probe(&self, probe: &Probe) -> Result<bool, ErrorBody> {
        let script = web::tabs_execute_script(self.tab.id().0, &web::to_js(probe));
        let results = web::call(script).await?;
        Ok(js_sys::Array::from(&results).get(0).as_bool() == Some(true))
    }

    async fn inject(&self, inject: &Inject) -> Result<(), ErrorBody> {
        let script = web::tabs_execute_script(self.tab.id().0, &web::to_js(inject));
        web::call(script).await?;
        Ok(())
    }

    async fn within<T>(&self, ms: u32, work: impl Future<Output = T>) -> Option<T> {
        web::with_deadline(ms, work).await
    }
}

fn frame_id(tab: TabId, alias: u32) -> Result<u64, ErrorBody> {
    with_state(|s| s.frames.frame(tab, alias))
}

fn internal_msg(message: String) -> ErrorBody {
    ErrorBody::new(ErrorCode::Internal, message)
}
