//! Talking to the content scripts in an agent's tab (one per frame), injecting them where
//! missing, and reading every frame of a tab for one snapshot or page text ([`stitch`]).

use claudezilla_protocol::args::FilledSecret;
use claudezilla_protocol::envelope::{
    ContentReply, ContentRequest, Locatable, PageOp, SnapshotPart,
};
use claudezilla_protocol::reply::{Audit, Found, Locator, PageContent, Pick, Snapshot};
use claudezilla_protocol::{Answer, ErrorBody, ErrorCode, Reply, TabId};
use serde::Serialize;
use serde::de::DeserializeOwned;
use wasm_bindgen::JsValue;

use super::with_state;
use crate::exchange;
use crate::pool::AuthorizedTab;
use crate::refusal::Refusal;
use crate::retry_plan;
use crate::stitch;
use crate::web;

/// The content bundle: the wasm glue and the shim in one block (built by `cargo xtask build`).
const CONTENT_BUNDLE: &str = "/wasm/content-bundle.js";

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InFrame {
    frame_id: u64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Inject {
    file: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    frame_id: Option<u64>,
    all_frames: bool,
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
    let reply: Reply = round_trip(authorized, alias, until, op, budget_ms).await?;
    A::from_reply(reply).map_err(|other| internal_msg(format!("unexpected answer {other:?}")))
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
    let frame = frame_id(tab, alias)?;
    let console = alias == 0 && with_state(|s| s.console_tabs.contains(&tab));
    let hide = typed_secrets(tab, &op);
    let request = ContentRequest {
        console,
        frame: alias,
        until,
        op,
        hide,
    };
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
        if !reply.notes.is_empty() {
            with_state(|s| {
                let notes = s.page_notes.entry(tab).or_default();
                notes.extend(reply.notes);
                notes.truncate(20);
            });
        }
        reply.outcome
    };
    web::with_deadline(budget_ms, talk)
        .await
        .unwrap_or_else(|| Err(retry_plan::no_answer(tab, budget_ms)))
}

/// Remembers the secrets `op` types for the tab's agent (and hides them in what the
/// background shows itself: titles, addresses); every secret that agent has typed so far,
/// for the frame to hide.
fn typed_secrets(tab: TabId, op: &PageOp) -> Vec<FilledSecret> {
    let typing = op.secrets();
    with_state(|s| {
        let Some(agent) = s.pool.owner(tab).cloned() else {
            return Vec::new();
        };
        if typing.is_empty() {
            return s
                .typed
                .get(&agent)
                .map(|t| t.secrets().to_vec())
                .unwrap_or_default();
        }
        crate::hidden::learn(typing.iter().copied());
        let typed = s.typed.entry(agent).or_default();
        typed.add(typing);
        typed.secrets().to_vec()
    })
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
    let details = web::to_js(&Inject {
        file: CONTENT_BUNDLE,
        frame_id: frame,
        all_frames: frame.is_none(),
    });
    web::call(web::tabs_execute_script(tab.0, &details)).await?;
    Ok(())
}

/// The tab goes back to the user: every frame takes its hooks out (dialogs, console). Best
/// effort: a frame without our script has nothing to take out.
pub async fn release(tab: TabId) {
    let request = ContentRequest {
        console: false,
        frame: 0,
        until: super::now() + 2_000,
        op: PageOp::Release,
        hide: Vec::new(),
    };
    let every_frame = JsValue::UNDEFINED;
    let asked = web::call(web::tabs_send_message(
        tab.0,
        &to_content(&request),
        &every_frame,
    ));
    let _ = web::with_deadline(2_000, asked).await;
}

/// After a page load: start the content script in every frame, so dialogs and errors are
/// captured from the start and the first command needs no injection. Failures (privileged
/// pages) are fine: commands report them when they need the page.
pub async fn preload(tab: AuthorizedTab) {
    let _ = inject(tab.id(), None).await;
}

fn alias_for(tab: TabId, frame: u64) -> u32 {
    with_state(|s| s.frames.alias(tab, frame))
}

fn frame_id(tab: TabId, alias: u32) -> Result<u64, ErrorBody> {
    with_state(|s| s.frames.frame(tab, alias))
}

/// A snapshot of the whole tab: every frame's part spliced in where its iframe is, its refs
/// prefixed with its frame's alias, under the one size limit ([`stitch::snapshot`]).
pub async fn snapshot(
    tab: AuthorizedTab,
    until: u64,
    op: PageOp,
    max_chars: u32,
    budget_ms: u32,
) -> Result<Snapshot, ErrorBody> {
    let top: SnapshotPart = round_trip(tab, 0, until, op.clone(), budget_ms).await?;
    let frames = TabFrames::new(tab, until, op, budget_ms);
    Ok(stitch::snapshot(&frames, top, max_chars as usize).await)
}

/// A page's content with each frame's spliced in where its iframe is, all within the one
/// `maxLength` ([`stitch::content`]).
pub async fn page_content(
    tab: AuthorizedTab,
    until: u64,
    op: PageOp,
    max_length: u32,
    budget_ms: u32,
) -> Result<PageContent, ErrorBody> {
    let frames = TabFrames::new(tab, until, op, budget_ms);
    let top = frames.top().await?;
    Ok(stitch::content(&frames, top, max_length as usize).await)
}

/// Every frame's matches of a search ([`stitch::find`]).
pub async fn find(
    tab: AuthorizedTab,
    until: u64,
    op: PageOp,
    limit: u32,
    budget_ms: u32,
) -> Result<Found, ErrorBody> {
    let frames = TabFrames::new(tab, until, op, budget_ms);
    let top = frames.top().await?;
    Ok(stitch::find(&frames, top, limit as usize).await)
}

/// Where an element is, as a Playwright locator names it: the frame that holds it names the
/// element, then each frame above names the iframe of the one below ([`stitch::frames_around`]).
pub async fn locate(
    tab: AuthorizedTab,
    alias: u32,
    until: u64,
    op: PageOp,
    budget_ms: u32,
) -> Result<Box<Locator>, ErrorBody> {
    let frames = TabFrames::new(tab, until, op.clone(), budget_ms);
    let element: Box<Locator> = frames.answer(alias, op).await?;
    let frame = frame_id(tab.id(), alias)?;
    Ok(Box::new(Locator {
        frames: stitch::frames_around(&frames, frame).await?,
        element: element.element,
    }))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FrameOfTab {
    tab_id: u32,
    frame_id: u64,
}

/// The frame that holds `frame`'s iframe.
async fn parent_frame(tab: TabId, frame: u64) -> Result<u64, ErrorBody> {
    let details = web::to_js(&FrameOfTab {
        tab_id: tab.0,
        frame_id: frame,
    });
    let found = web::call(web::web_navigation_get_frame(&details)).await?;
    let parent = web::get(&found, "parentFrameId").as_f64().unwrap_or(-1.0);
    if parent < 0.0 {
        return Err(ErrorBody::new(
            ErrorCode::ElementNotFound,
            format!("tab {tab}: the frame is gone"),
        )
        .with_hint("call firefox_snapshot again"));
    }
    Ok(parent as u64)
}

/// axe-core as npm ships it (pinned; `cargo xtask build` copies it into the extension). It
/// goes into a frame only when an audit asks, so no page runs it otherwise.
const AXE: &str = "/wasm/axe.min.js";

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Probe {
    code: &'static str,
    frame_id: u64,
}

/// An accessibility audit of every frame the agent may read ([`stitch::audit`]), each frame
/// given axe-core first.
pub async fn audit(
    tab: AuthorizedTab,
    until: u64,
    op: PageOp,
    per_rule: u32,
    budget_ms: u32,
) -> Result<Box<Audit>, ErrorBody> {
    with_axe(tab.id(), 0, until).await?;
    let frames = TabFrames::new(tab, until, op, budget_ms);
    let top: Box<Audit> = frames.top().await?;
    Ok(Box::new(
        stitch::audit(&frames, *top, per_rule as usize).await,
    ))
}

/// Puts axe-core into one frame of the tab (into the content scripts' world, never the
/// page's), unless an earlier audit did; by `until`, as a frame that never finishes loading
/// would hold `executeScript` forever.
async fn with_axe(tab: TabId, frame: u64, until: u64) -> Result<(), ErrorBody> {
    let left = until.saturating_sub(super::now()) as u32;
    web::with_deadline(left, inject_axe(tab, frame))
        .await
        .unwrap_or_else(|| Err(retry_plan::no_answer(tab, left)))
}

async fn inject_axe(tab: TabId, frame: u64) -> Result<(), ErrorBody> {
    let refused = |e: ErrorBody| Refusal::of(&e.message).on_page(tab, e);
    let probe = web::to_js(&Probe {
        // A page's own `axe` (a frame named so) has no `run` this world can see.
        code: "typeof axe === 'object' && typeof axe.run === 'function'",
        frame_id: frame,
    });
    let loaded = web::call(web::tabs_execute_script(tab.0, &probe))
        .await
        .map_err(refused)?;
    if js_sys::Array::from(&loaded).get(0).as_bool() == Some(true) {
        return Ok(());
    }

    let details = web::to_js(&Inject {
        file: AXE,
        frame_id: Some(frame),
        all_frames: false,
    });
    web::call(web::tabs_execute_script(tab.0, &details))
        .await
        .map_err(refused)?;
    Ok(())
}

/// The frames of one tab, read for one snapshot, page text or search: the same request with
/// the size limit the stitcher gives each frame.
struct TabFrames {
    tab: AuthorizedTab,
    until: u64,
    op: PageOp,
    budget_ms: u32,
}

impl TabFrames {
    fn new(tab: AuthorizedTab, until: u64, op: PageOp, budget_ms: u32) -> Self {
        Self {
            tab,
            until,
            op,
            budget_ms,
        }
    }

    /// The request for one frame: the same, within the limit the stitcher gives that frame
    /// (never more than the agent asked for).
    fn within(&self, limit: usize) -> PageOp {
        let mut op = self.op.clone();
        if let Some(asked) = op.frame_limit_mut() {
            *asked = limit.min(*asked as usize) as u32;
        }
        op
    }

    /// The top frame's answer, asked as the agent asked.
    async fn top<A: Answer>(&self) -> Result<A, ErrorBody> {
        self.answer(0, self.op.clone()).await
    }

    /// One frame's answer, within the limit the stitcher gives it.
    async fn ask<A: Answer>(&self, frame: u64, limit: usize) -> Result<A, String> {
        let alias = alias_for(self.tab.id(), frame);
        self.answer(alias, self.within(limit))
            .await
            .map_err(|e| e.message)
    }

    /// `op`'s answer from the frame `alias`: a reply of another kind is a bug, said here.
    async fn answer<A: Answer>(&self, alias: u32, op: PageOp) -> Result<A, ErrorBody> {
        answer(self.tab, alias, self.until, op, self.budget_ms).await
    }
}

impl stitch::FrameReader for TabFrames {
    async fn snapshot_part(&self, frame: u64, limit: usize) -> Result<SnapshotPart, String> {
        let alias = alias_for(self.tab.id(), frame);
        round_trip(
            self.tab,
            alias,
            self.until,
            self.within(limit),
            self.budget_ms,
        )
        .await
        .map_err(|e| e.message)
    }

    async fn found(&self, frame: u64, limit: usize) -> Result<Found, String> {
        self.ask(frame, limit).await
    }

    async fn content(&self, frame: u64, limit: usize) -> Result<PageContent, String> {
        self.ask(frame, limit).await
    }

    /// The audit's request carries its `perRule`, the same for every frame.
    /// Not asked of a refused frame ([`stitch`] checks first), so axe never goes into one.
    async fn audited(&self, frame: u64, _per_rule: usize) -> Result<Audit, String> {
        with_axe(self.tab.id(), frame, self.until)
            .await
            .map_err(|e| e.message)?;
        let alias = alias_for(self.tab.id(), frame);
        self.answer::<Box<Audit>>(alias, self.op.clone())
            .await
            .map(|a| *a)
            .map_err(|e| e.message)
    }

    fn refused(&self, frame: u64) -> Option<String> {
        with_state(|s| {
            let refused = s.refused_frames.get(&self.tab.id())?;
            refused
                .iter()
                .find(|(f, _)| *f == frame)
                .map(|(_, why)| why.clone())
        })
    }
}

impl stitch::FrameTree for TabFrames {
    type Pick = Pick;

    async fn parent(&self, frame: u64) -> Result<u64, ErrorBody> {
        parent_frame(self.tab.id(), frame).await
    }

    async fn iframe(&self, holder: u64, frame: u64) -> Result<Pick, ErrorBody> {
        let op = PageOp::Locate {
            target: Locatable::Frame(frame),
        };
        let alias = match holder {
            0 => 0,
            holder => alias_for(self.tab.id(), holder),
        };
        let iframe: Box<Locator> = self.answer(alias, op).await?;
        Ok(iframe.element)
    }
}

fn internal_msg(message: String) -> ErrorBody {
    ErrorBody::new(ErrorCode::Internal, message)
}
