//! The reads that span a tab's frames, carried out over [`FrameAsk`] (one frame asked at a
//! time; `background/content.rs` is the browser's side): the top frame asked as the agent
//! asked, then each frame [`stitch`] reaches asked by its alias within the limit the stitcher
//! gives it (never more than the agent asked for); an audit's frame given axe-core first (by
//! the call's deadline; never a frame the allowlist refused, which [`stitch`] checks first);
//! a locator's frames named from the element's frame up, through each frame's parent.

use claudezilla_protocol::envelope::{Locatable, PageOp, SnapshotPart};
use claudezilla_protocol::reply::{Audit, Found, Locator, PageContent, Pick, Snapshot};
use claudezilla_protocol::{Answer, ErrorBody, ErrorCode, Reply, TabId};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::refusal::Refusal;
use crate::retry_plan;
use crate::stitch::{self, FrameReader, FrameTree};

/// The content bundle: the wasm glue and the shim in one block (built by `cargo xtask build`).
const CONTENT_BUNDLE: &str = "/wasm/content-bundle.js";

/// axe-core as npm ships it (pinned; `cargo xtask build` copies it into the extension). It
/// goes into a frame only when an audit asks, so no page runs it otherwise.
const AXE: &str = "/wasm/axe.min.js";

/// `tabs.executeScript`'s details for a file: into one frame, or every frame.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Inject {
    file: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    frame_id: Option<u64>,
    all_frames: bool,
}

impl Inject {
    /// The content script, into `frame` (None: every frame).
    pub fn content(frame: Option<u64>) -> Self {
        Self {
            file: CONTENT_BUNDLE,
            frame_id: frame,
            all_frames: frame.is_none(),
        }
    }

    fn axe(frame: u64) -> Self {
        Self {
            file: AXE,
            frame_id: Some(frame),
            all_frames: false,
        }
    }
}

/// `tabs.executeScript`'s details for a line of code in one frame.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Probe {
    code: &'static str,
    frame_id: u64,
}

/// What reading a tab's frames asks of the browser, for one call.
pub trait FrameAsk {
    fn tab(&self) -> TabId;
    /// The call's deadline for the page's own waits, and the clock it is on (ms).
    fn until(&self) -> u64;
    fn now(&self) -> u64;
    /// `op`'s answer from the frame `alias` (0: the top frame), read as `T`.
    fn ask<T: DeserializeOwned>(
        &self,
        alias: u32,
        op: PageOp,
    ) -> impl Future<Output = Result<T, ErrorBody>>;
    /// The alias refs give `frame`.
    fn alias(&self, frame: u64) -> u32;
    /// The frame `alias` names, or the refusal of an alias the tab has no frame for.
    fn frame_id(&self, alias: u32) -> Result<u64, ErrorBody>;
    /// Why the allowlist kept `frame` from loading, if it did.
    fn refused(&self, frame: u64) -> Option<String>;
    /// `webNavigation.getFrame`'s `parentFrameId` (negative where it has none: the frame is
    /// gone).
    fn parent_id(&self, frame: u64) -> impl Future<Output = Result<f64, ErrorBody>>;
    /// `tabs.executeScript` of `probe`: whether its first result is `true`.
    fn probe(&self, probe: &Probe) -> impl Future<Output = Result<bool, ErrorBody>>;
    /// `tabs.executeScript` of a file.
    fn inject(&self, inject: &Inject) -> impl Future<Output = Result<(), ErrorBody>>;
    /// `work`, or None once `ms` have passed.
    fn within<T>(&self, ms: u32, work: impl Future<Output = T>) -> impl Future<Output = Option<T>>;
}

/// `op`'s answer from the frame `alias`, as the kind it answers: a reply of another kind is a
/// bug, said here.
pub async fn answer<A: Answer>(f: &impl FrameAsk, alias: u32, op: PageOp) -> Result<A, ErrorBody> {
    let reply: Reply = f.ask(alias, op).await?;
    A::from_reply(reply).map_err(|other| {
        ErrorBody::new(ErrorCode::Internal, format!("unexpected answer {other:?}"))
    })
}

/// A snapshot of the whole tab: every frame's part spliced in where its iframe is, its refs
/// prefixed with its frame's alias, under the one size limit ([`stitch::snapshot`]).
pub async fn snapshot<F: FrameAsk>(
    f: F,
    op: PageOp,
    max_chars: u32,
) -> Result<Snapshot, ErrorBody> {
    let top: SnapshotPart = f.ask(0, op.clone()).await?;
    let frames = TabFrames { f, op };
    Ok(stitch::snapshot(&frames, top, max_chars as usize).await)
}

/// A page's content with each frame's spliced in where its iframe is, all within the one
/// `maxLength` ([`stitch::content`]).
pub async fn content<F: FrameAsk>(
    f: F,
    op: PageOp,
    max_length: u32,
) -> Result<PageContent, ErrorBody> {
    let frames = TabFrames { f, op };
    let top = frames.top().await?;
    Ok(stitch::content(&frames, top, max_length as usize).await)
}

/// Every frame's matches of a search ([`stitch::find`]).
pub async fn find<F: FrameAsk>(f: F, op: PageOp, limit: u32) -> Result<Found, ErrorBody> {
    let frames = TabFrames { f, op };
    let top = frames.top().await?;
    Ok(stitch::find(&frames, top, limit as usize).await)
}

/// An accessibility audit of every frame the agent may read ([`stitch::audit`]), each frame
/// given axe-core first.
pub async fn audit<F: FrameAsk>(f: F, op: PageOp, per_rule: u32) -> Result<Box<Audit>, ErrorBody> {
    with_axe(&f, 0).await?;
    let frames = TabFrames { f, op };
    let top: Box<Audit> = frames.top().await?;
    Ok(Box::new(
        stitch::audit(&frames, *top, per_rule as usize).await,
    ))
}

/// Where an element is, as a Playwright locator names it: the frame `alias` that holds it
/// names the element, then each frame above names the iframe of the one below
/// ([`stitch::frames_around`]).
pub async fn locate<F: FrameAsk>(f: F, alias: u32, op: PageOp) -> Result<Box<Locator>, ErrorBody> {
    let frames = TabFrames { f, op: op.clone() };
    let element: Box<Locator> = answer(&frames.f, alias, op).await?;
    let frame = frames.f.frame_id(alias)?;
    Ok(Box::new(Locator {
        frames: stitch::frames_around(&frames, frame).await?,
        element: element.element,
    }))
}

/// Puts axe-core into one frame of the tab (into the content scripts' world, never the
/// page's), unless an earlier audit did; by the call's deadline, as a frame that never
/// finishes loading would hold `executeScript` forever.
async fn with_axe(f: &impl FrameAsk, frame: u64) -> Result<(), ErrorBody> {
    let left = f.until().saturating_sub(f.now()) as u32;
    f.within(left, inject_axe(f, frame))
        .await
        .unwrap_or_else(|| Err(retry_plan::no_answer(f.tab(), left)))
}

async fn inject_axe(f: &impl FrameAsk, frame: u64) -> Result<(), ErrorBody> {
    let refused = |e: ErrorBody| Refusal::of(&e.message).on_page(f.tab(), e);
    let probe = Probe {
        // A page's own `axe` (a frame named so) has no `run` this world can see.
        code: "typeof axe === 'object' && typeof axe.run === 'function'",
        frame_id: frame,
    };
    if f.probe(&probe).await.map_err(refused)? {
        return Ok(());
    }
    f.inject(&Inject::axe(frame)).await.map_err(refused)
}

/// The frames of one tab, read for one snapshot, page text, search, audit or locator: the
/// same request, with the size limit the stitcher gives each frame.
struct TabFrames<F> {
    f: F,
    op: PageOp,
}

impl<F: FrameAsk> TabFrames<F> {
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
        answer(&self.f, 0, self.op.clone()).await
    }

    /// One frame's answer, within the limit the stitcher gives it.
    async fn ask<A: Answer>(&self, frame: u64, limit: usize) -> Result<A, String> {
        let alias = self.f.alias(frame);
        answer(&self.f, alias, self.within(limit))
            .await
            .map_err(|e| e.message)
    }
}

impl<F: FrameAsk> FrameReader for TabFrames<F> {
    async fn snapshot_part(&self, frame: u64, limit: usize) -> Result<SnapshotPart, String> {
        let alias = self.f.alias(frame);
        self.f
            .ask(alias, self.within(limit))
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
    async fn audited(&self, frame: u64, _per_rule: usize) -> Result<Audit, String> {
        with_axe(&self.f, frame).await.map_err(|e| e.message)?;
        let alias = self.f.alias(frame);
        answer::<Box<Audit>>(&self.f, alias, self.op.clone())
            .await
            .map(|a| *a)
            .map_err(|e| e.message)
    }

    fn refused(&self, frame: u64) -> Option<String> {
        self.f.refused(frame)
    }
}

impl<F: FrameAsk> FrameTree for TabFrames<F> {
    type Pick = Pick;

    async fn parent(&self, frame: u64) -> Result<u64, ErrorBody> {
        let parent = self.f.parent_id(frame).await?;
        if parent < 0.0 {
            return Err(ErrorBody::new(
                ErrorCode::ElementNotFound,
                format!("tab {}: the frame is gone", self.f.tab()),
            )
            .with_hint("call firefox_snapshot again"));
        }
        Ok(parent as u64)
    }

    /// The iframe is named by the frame that holds it (the top frame by its own alias, 0).
    async fn iframe(&self, holder: u64, frame: u64) -> Result<Pick, ErrorBody> {
        let op = PageOp::Locate {
            target: Locatable::Frame(frame),
        };
        let alias = match holder {
            0 => 0,
            holder => self.f.alias(holder),
        };
        let iframe: Box<Locator> = answer(&self.f, alias, op).await?;
        Ok(iframe.element)
    }
}

#[cfg(test)]
mod tests;
