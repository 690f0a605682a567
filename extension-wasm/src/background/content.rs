//! Talking to the content scripts in an agent's tab (one per frame), injecting them where
//! missing, and stitching a snapshot together from every frame's part.

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;

use claudezilla_protocol::envelope::{
    ContentReply, ContentRequest, FramePlace, PageOp, PageReply, SnapshotPart,
};
use claudezilla_protocol::reply::PageMetrics;
use claudezilla_protocol::reply::Snapshot;
use claudezilla_protocol::{ErrorBody, ErrorCode, Outcome, Reply, TabId};
use serde::Serialize;
use wasm_bindgen::JsValue;

use super::with_state;
use crate::pool::AuthorizedTab;
use crate::refusal::Refusal;
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

/// Sends one operation to one frame (by its alias, 0 for the top frame) and returns the
/// agent's reply, bounded by `budget_ms`.
pub async fn send(
    authorized: AuthorizedTab,
    alias: u32,
    until: u64,
    op: PageOp,
    budget_ms: u32,
) -> Outcome {
    match exchange_page(authorized, alias, until, op, budget_ms).await? {
        PageReply::Done(reply) => Ok(reply),
        other => Err(internal_msg(format!("unexpected page answer {other:?}"))),
    }
}

/// The page geometry a capture needs, from the top frame.
pub async fn metrics(
    authorized: AuthorizedTab,
    until: u64,
    op: PageOp,
    budget_ms: u32,
) -> Result<PageMetrics, ErrorBody> {
    match exchange_page(authorized, 0, until, op, budget_ms).await? {
        PageReply::Metrics(m) => Ok(m),
        other => Err(internal_msg(format!("unexpected metrics {other:?}"))),
    }
}

/// One round trip with a frame's content script, retried once across a navigation.
async fn exchange_page(
    authorized: AuthorizedTab,
    alias: u32,
    until: u64,
    op: PageOp,
    budget_ms: u32,
) -> Result<PageReply, ErrorBody> {
    let tab = authorized.id();
    let frame = frame_id(tab, alias)?;
    let console = alias == 0 && with_state(|s| s.console_tabs.contains(&tab));
    let request = ContentRequest {
        console,
        frame: alias,
        until,
        op,
    };
    let message = to_content(&request);
    let started = web::precise_ms();
    let exchange = async {
        let mark = with_state(|s| s.main_frames.mark());
        // A message to a document that is going away may never be answered: a try lasts as
        // long as the page's own wait, and a little more.
        let try_ms =
            (until.saturating_sub(super::now()) + TRY_SLACK_MS).min(u64::from(budget_ms)) as u32;
        let first = web::with_deadline(try_ms, exchange(tab, frame, &message)).await;
        let navigated = || with_state(|s| s.main_frames.started_since(tab, mark));
        let answer = match first {
            // The document went away under us (the page navigated; between two documents the
            // tab is not even scriptable): once more, in the new one.
            Some(Err(f)) if f.interrupted() || navigated() => {
                retry(tab, frame, &message, navigated()).await?
            }
            None if navigated() => retry(tab, frame, &message, true).await?,
            Some(other) => other.map_err(|f| f.error)?,
            None => return Err(no_answer(tab, try_ms)),
        };
        let reply: ContentReply = serde_wasm_bindgen::from_value(answer)
            .map_err(|e| internal_msg(format!("content script answer: {e}")))?;
        with_state(|s| {
            if let Some(t) = &mut s.trace {
                t.content_us += ((web::precise_ms() - started) * 1e3) as u64;
                t.page_us += reply.page_us;
            }
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
    web::with_deadline(budget_ms, exchange)
        .await
        .unwrap_or_else(|| Err(no_answer(tab, budget_ms)))
}

/// How much longer than the page's own wait one try may take.
const TRY_SLACK_MS: u64 = 3_000;

fn no_answer(tab: TabId, ms: u32) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::Timeout,
        format!("the page in tab {tab} did not answer within {ms} ms"),
    )
    .with_hint("the page may be frozen; take a screenshot, or retry with a larger timeout")
}

/// The second and last try, in the document that replaced the first one (`navigated`: the
/// tab is known to have started another load since the first try).
async fn retry(
    tab: TabId,
    frame: u64,
    message: &JsValue,
    navigated: bool,
) -> Result<JsValue, ErrorBody> {
    web::sleep(100).await;
    exchange(tab, frame, message)
        .await
        .map_err(|e| navigated_away(tab, e, navigated))
}

/// One try: ask; where nothing listens yet (a new document), inject the script and ask again.
async fn exchange(tab: TabId, frame: u64, message: &JsValue) -> Result<JsValue, Failed> {
    match ask(tab, frame, message).await? {
        Some(answer) => Ok(answer),
        None => inject_and_ask(tab, frame, message).await,
    }
}

/// Why one exchange with a frame's content script failed: the error to report, and what the
/// browser's refusal says of the document (gone: a try in the next one may do).
struct Failed {
    error: ErrorBody,
    refusal: Refusal,
}

impl Failed {
    /// A browser call of the exchange was refused.
    fn refused(tab: TabId, e: ErrorBody) -> Self {
        let refusal = Refusal::of(&e.message);
        Self {
            error: page_error(tab, e, refusal),
            refusal,
        }
    }

    /// The page's document was replaced while we talked to it.
    fn interrupted(&self) -> bool {
        self.refusal == Refusal::DocumentGone
    }
}

fn navigated_away(tab: TabId, f: Failed, navigated: bool) -> ErrorBody {
    // Unscriptable while the tab navigates is a page between documents, not about:blank.
    let between = navigated && f.refusal == Refusal::NotScriptable;
    if !f.interrupted() && !between {
        return f.error;
    }
    ErrorBody::new(
        ErrorCode::PageError,
        format!(
            "the page in tab {tab} navigated away twice while we acted on it ({})",
            f.error.message
        ),
    )
    .with_hint("the page keeps navigating by itself; firefox_get_tabs shows where it is, firefox_wait_for {url} waits for it to settle")
}

/// Injects the content script, then asks again; once more after a moment if the frame was
/// between documents (a navigation committing) and nothing listened yet.
async fn inject_and_ask(tab: TabId, frame: u64, message: &JsValue) -> Result<JsValue, Failed> {
    for attempt in 0..2 {
        if attempt > 0 {
            web::sleep(150).await;
        }
        inject(tab, Some(frame))
            .await
            .map_err(|e| Failed::refused(tab, e))?;
        if let Some(answer) = ask(tab, frame, message).await? {
            return Ok(answer);
        }
    }
    // Nothing listened after two injections: the document went before the script started.
    Err(Failed {
        error: ErrorBody::new(
            ErrorCode::PageError,
            "the content script did not start in this page",
        )
        .with_hint("the page may be navigating; retry, or take a screenshot to see it"),
        refusal: Refusal::DocumentGone,
    })
}

/// One round trip; `Ok(None)` when nothing in the frame listens.
async fn ask(tab: TabId, frame: u64, message: &JsValue) -> Result<Option<JsValue>, Failed> {
    let options = web::to_js(&InFrame { frame_id: frame });
    match web::call(web::tabs_send_message(tab.0, message, &options)).await {
        Ok(answer) => Ok((answer.is_object()).then_some(answer)),
        Err(e) => match Failed::refused(tab, e) {
            Failed {
                refusal: Refusal::NobodyListens,
                ..
            } => Ok(None),
            failed => Err(failed),
        },
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

/// Frame ids are large numbers; refs name frames by a short per-tab alias instead (`f1e3`).
fn alias_for(tab: TabId, frame: u64) -> u32 {
    with_state(|s| {
        let known = s.frames.entry(tab).or_default();
        let at = known.iter().position(|f| *f == frame).unwrap_or_else(|| {
            known.push(frame);
            known.len() - 1
        });
        at as u32 + 1
    })
}

fn frame_id(tab: TabId, alias: u32) -> Result<u64, ErrorBody> {
    if alias == 0 {
        return Ok(0);
    }
    with_state(|s| {
        s.frames
            .get(&tab)
            .and_then(|f| f.get(alias as usize - 1))
            .copied()
    })
    .ok_or_else(|| {
        ErrorBody::new(
            ErrorCode::ElementNotFound,
            format!("frame f{alias} is unknown in tab {tab}"),
        )
        .with_hint("call firefox_snapshot again and use the new refs")
    })
}

/// A snapshot of the whole tab: the top frame's part with each child frame's part spliced in
/// where its iframe is, its refs prefixed with its frame's alias. The size limit is for the
/// whole answer: each frame gets what the frames before it (in page order) left.
pub async fn snapshot(tab: AuthorizedTab, until: u64, op: PageOp, budget_ms: u32) -> Outcome {
    let part = part(tab, 0, until, op.clone(), budget_ms).await?;
    let total_refs = part.refs;
    let left = Cell::new(max_chars(&op).saturating_sub(part.text.len()));
    let context = Splice {
        tab,
        until,
        op,
        budget_ms,
        left: &left,
    };
    let (text, refs, cut) = context.splice(part, 0).await;
    Ok(Reply::Snapshot(Snapshot {
        text,
        refs: refs.max(total_refs),
        cut,
    }))
}

/// A page's content with each frame's spliced in where its iframe is (marked, and marked as
/// another site's when it is), all within the one `maxLength`. Frames inside frames are named,
/// not read.
pub async fn page_content(tab: AuthorizedTab, until: u64, op: PageOp, budget_ms: u32) -> Outcome {
    let max = match &op {
        PageOp::GetContent { max_length, .. } => *max_length as usize,
        _ => 0,
    };
    let Reply::Content(mut top) = send(tab, 0, until, op.clone(), budget_ms).await? else {
        return Err(internal_msg("unexpected content answer".into()));
    };
    let frames = std::mem::take(&mut top.frames);
    if frames.is_empty() {
        return Ok(Reply::Content(top));
    }
    let site = crate::allowlist::origin(&top.url);
    let mut left = max.saturating_sub(top.text.chars().count());
    let mut total = top.total_length as usize;
    for (n, frame) in frames.into_iter().enumerate() {
        let marker = claudezilla_protocol::reply::frame_marker(n);
        if !top.text.contains(&marker) {
            continue;
        }
        let piece = if left < MIN_FRAME_CHARS {
            top.truncated = true;
            "[a frame, not read: the size limit is reached]".to_owned()
        } else {
            let mut child_op = op.clone();
            if let PageOp::GetContent { max_length, .. } = &mut child_op {
                *max_length = left as u32;
            }
            match send(tab, alias_for(tab.id(), frame), until, child_op, budget_ms).await {
                Ok(Reply::Content(c)) => {
                    total += c.total_length as usize;
                    top.truncated |= c.truncated;
                    let whose = if crate::allowlist::origin(&c.url) == site {
                        "frame"
                    } else {
                        "frame from another origin"
                    };
                    let inner = strip_markers(&c.text, c.frames.len());
                    format!(
                        "[{whose}: {}]\n{inner}\n[end of frame]",
                        crate::text::cap(&c.url, 200)
                    )
                }
                Ok(_) => "[a frame that could not be read]".to_owned(),
                Err(e) => format!("[a frame that could not be read: {}]", e.message),
            }
        };
        left = left.saturating_sub(piece.chars().count());
        top.text = top.text.replacen(&marker, &piece, 1);
    }
    let (kept, _, cut) = crate::text::truncate_chars(&top.text, max);
    if cut {
        top.text = kept.to_owned();
        top.truncated = true;
    }
    top.total_length = total as u32;
    Ok(Reply::Content(top))
}

/// A frame's own frames, named instead of read.
fn strip_markers(text: &str, count: usize) -> String {
    (0..count).fold(text.to_owned(), |t, n| {
        t.replace(
            &claudezilla_protocol::reply::frame_marker(n),
            "[a frame inside this frame]",
        )
    })
}

/// Frames get no part when less than this is left of the size limit.
const MIN_FRAME_CHARS: usize = 200;

fn max_chars(op: &PageOp) -> usize {
    match op {
        PageOp::Snapshot { max_chars, .. } => *max_chars as usize,
        _ => 0,
    }
}

/// The same snapshot request with a smaller size limit.
fn limited(op: &PageOp, chars: usize) -> PageOp {
    let mut op = op.clone();
    if let PageOp::Snapshot { max_chars, .. } = &mut op {
        *max_chars = chars.min(*max_chars as usize) as u32;
    }
    op
}

async fn part(
    tab: AuthorizedTab,
    frame: u32,
    until: u64,
    op: PageOp,
    budget_ms: u32,
) -> Result<SnapshotPart, ErrorBody> {
    match exchange_page(tab, frame, until, op, budget_ms).await? {
        PageReply::SnapshotPart(p) => Ok(p),
        other => Err(internal_msg(format!(
            "unexpected snapshot answer {other:?}"
        ))),
    }
}

/// A snapshot's text, its ref count and where it was cut, if it was.
type Stitched = (String, u32, Option<String>);

/// What every frame of one snapshot shares, the size left above all.
struct Splice<'a> {
    tab: AuthorizedTab,
    until: u64,
    op: PageOp,
    budget_ms: u32,
    left: &'a Cell<usize>,
}

impl Splice<'_> {
    /// Fills the child frames of `part` (depth-limited: frames nest rarely, never endlessly),
    /// reading them in page order so the size limit goes to the first ones.
    fn splice(
        &self,
        part: SnapshotPart,
        nesting: u32,
    ) -> Pin<Box<dyn Future<Output = Stitched> + '_>> {
        Box::pin(async move {
            let SnapshotPart {
                mut text,
                mut refs,
                mut cut,
                frames,
            } = part;
            let mut children = Vec::with_capacity(frames.len());
            for FramePlace {
                frame,
                offset,
                indent,
            } in frames
            {
                // What a frame reads is counted as it is read; notes and indents here.
                let (child, counted) = if self.left.get() < MIN_FRAME_CHARS {
                    cut =
                        cut.or_else(|| Some("the size limit was reached before this frame".into()));
                    let note = "(frame not read: the snapshot's size limit is reached)\n";
                    (note.to_owned(), 0)
                } else {
                    match self.part_of(alias_for(self.tab.id(), frame), nesting).await {
                        Ok((child, child_refs, child_cut)) => {
                            refs += child_refs;
                            cut = cut.or(child_cut);
                            let len = child.len();
                            (child, len)
                        }
                        Err(e) => (
                            format!("(this frame could not be read: {})\n", e.message),
                            0,
                        ),
                    }
                };
                let pad = " ".repeat(indent);
                let indented: String = child.lines().map(|l| format!("{pad}{l}\n")).collect();
                let extra = indented.len().saturating_sub(counted);
                self.left.set(self.left.get().saturating_sub(extra));
                children.push((offset, indented));
            }
            // From the last insertion point backwards, so earlier offsets stay valid.
            for (offset, indented) in children.into_iter().rev() {
                text.insert_str(floor_boundary(&text, offset), &indented);
            }
            (text, refs, cut)
        })
    }

    async fn part_of(&self, frame: u32, nesting: u32) -> Result<Stitched, ErrorBody> {
        if nesting >= 5 {
            return Ok(("(frames nested too deep)\n".into(), 0, None));
        }
        let op = limited(&self.op, self.left.get());
        let child = part(self.tab, frame, self.until, op, self.budget_ms).await?;
        // The child's own text; its frames are counted as the nested splice reads them.
        self.left
            .set(self.left.get().saturating_sub(child.text.len()));
        Ok(self.splice(child, nesting + 1).await)
    }
}

/// The largest char boundary at or before `at` (an offset from a content script is not trusted).
fn floor_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// A refused call on a tab's page, for the agent: the tab or frame gone, a page that takes no
/// script, or the browser's words.
fn page_error(tab: TabId, e: ErrorBody, refusal: Refusal) -> ErrorBody {
    match refusal {
        Refusal::TabGone => ErrorBody::new(ErrorCode::NoSuchTab, format!("tab {tab} is gone")),
        Refusal::NotScriptable => ErrorBody::new(
            ErrorCode::PageError,
            format!("the page in tab {tab} cannot be scripted ({})", e.message),
        )
        .with_hint(
            "about:blank, about: and addons pages cannot be read; navigate to an http(s) page",
        ),
        Refusal::FrameGone => ErrorBody::new(
            ErrorCode::ElementNotFound,
            format!("tab {tab}: {}", e.message),
        )
        .with_hint("the frame is gone; call firefox_snapshot again"),
        Refusal::WindowGone
        | Refusal::NobodyListens
        | Refusal::DocumentGone
        | Refusal::UrlRefused
        | Refusal::Other => {
            ErrorBody::new(ErrorCode::PageError, format!("tab {tab}: {}", e.message))
        }
    }
}

fn internal_msg(message: String) -> ErrorBody {
    ErrorBody::new(ErrorCode::Internal, message)
}
