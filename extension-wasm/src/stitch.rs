//! One answer from every frame of a tab: each frame's snapshot part (or page text) spliced in
//! where its iframe is, all under the one size limit the agent gave; or every frame's matches
//! of a search, under its one limit. Frames are read in page order, each given what the
//! frames before it left, so the limit goes to the first ones.
//!
//! The reading itself is the caller's ([`FrameReader`]); what is asked, what is kept and what
//! the agent is told is decided here, and tested natively. So is the chain of iframes around
//! an element a locator names ([`frames_around`]).

use std::future::Future;
use std::pin::Pin;

use claudezilla_protocol::envelope::{FramePlace, SnapshotPart};
use claudezilla_protocol::reply::{
    Audit, Finding, Found, PageContent, Searched, Snapshot, frame_marker,
};
use claudezilla_protocol::{ErrorBody, ErrorCode};

/// Frames get no part when less than this is left of the size limit.
pub const MIN_FRAME_CHARS: usize = 200;
/// Frames inside frames are read this deep, no deeper (a page can nest them endlessly).
pub const MAX_NESTING: u32 = 5;

/// Reads one frame of the tab (by the browser's frame id). Errors are the words to show.
pub trait FrameReader {
    /// The frame's snapshot part, asked to stay within `limit` characters.
    fn snapshot_part(
        &self,
        frame: u64,
        limit: usize,
    ) -> impl Future<Output = Result<SnapshotPart, String>>;
    /// The frame's page text, asked to stay within `max_length` characters.
    fn content(
        &self,
        frame: u64,
        max_length: usize,
    ) -> impl Future<Output = Result<PageContent, String>>;
    /// The frame's matches of the search, at most `limit` listed.
    fn found(&self, frame: u64, limit: usize) -> impl Future<Output = Result<Found, String>>;
    /// The frame's accessibility audit, at most `per_rule` elements listed per rule.
    fn audited(&self, frame: u64, per_rule: usize) -> impl Future<Output = Result<Audit, String>>;
    /// Why the frame was kept from loading (an allowlist, a route), if it was.
    fn refused(&self, frame: u64) -> Option<String>;
}

/// A frame kept from loading is not asked (whatever document is left in it is not the page
/// named): why it was kept is its answer, in every read.
async fn unless_refused<T, F: Future<Output = Result<T, String>>>(
    reader: &impl FrameReader,
    frame: u64,
    read: impl FnOnce() -> F,
) -> Result<T, String> {
    match reader.refused(frame) {
        Some(why) => Err(why),
        None => read().await,
    }
}

/// The whole tab's snapshot, from the top frame's part (asked within `max_chars`).
pub async fn snapshot(reader: &impl FrameReader, top: SnapshotPart, max_chars: usize) -> Snapshot {
    let mut splice = Splice {
        reader,
        left: max_chars.saturating_sub(top.text.len()),
    };
    let (text, refs, cut) = splice.frames_of(top, 0).await;
    Snapshot { text, refs, cut }
}

/// A snapshot's text, its ref count and where it was cut, if it was.
type Stitched = (String, u32, Option<String>);

struct Splice<'a, R> {
    reader: &'a R,
    /// What is left of the size limit, in bytes of text.
    left: usize,
}

impl<R: FrameReader> Splice<'_, R> {
    /// Fills the child frames of `part`: reads them in page order, then inserts each one's
    /// lines, indented, at its place.
    fn frames_of(
        &mut self,
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
                let (child, counted) = if self.left < MIN_FRAME_CHARS {
                    cut =
                        cut.or_else(|| Some("the size limit was reached before this frame".into()));
                    (
                        "(frame not read: the snapshot's size limit is reached)\n".to_owned(),
                        0,
                    )
                } else {
                    match self.frame(frame, nesting).await {
                        Ok((child, child_refs, child_cut)) => {
                            refs = refs.saturating_add(child_refs);
                            cut = cut.or(child_cut);
                            let len = child.len();
                            (child, len)
                        }
                        Err(message) => (format!("(this frame could not be read: {message})\n"), 0),
                    }
                };
                let indented = indent_lines(&child, indent);
                self.left = self
                    .left
                    .saturating_sub(indented.len().saturating_sub(counted));
                children.push((offset, indented));
            }
            // From the last insertion point backwards, so earlier offsets stay valid.
            for (offset, indented) in children.into_iter().rev() {
                text.insert_str(floor_boundary(&text, offset), &indented);
            }
            (text, refs, cut)
        })
    }

    async fn frame(&mut self, frame: u64, nesting: u32) -> Result<Stitched, String> {
        if nesting >= MAX_NESTING {
            return Ok(("(frames nested too deep)\n".into(), 0, None));
        }
        let (reader, left) = (self.reader, self.left);
        let child = unless_refused(reader, frame, || reader.snapshot_part(frame, left)).await?;
        // The child's own text; its frames are counted as the nested splice reads them.
        self.left = self.left.saturating_sub(child.text.len());
        Ok(self.frames_of(child, nesting + 1).await)
    }
}

/// Every line of `text`, indented by `indent` spaces (a frame's lines under its iframe's).
fn indent_lines(text: &str, indent: usize) -> String {
    let pad = " ".repeat(indent);
    text.lines().map(|l| format!("{pad}{l}\n")).collect()
}

/// The largest char boundary at or before `at` (an offset from a content script is not trusted).
fn floor_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The tab's page text: the top frame's (asked within `max` characters) with each frame's put
/// where its marker is, marked, and marked as another site's when it is. Frames inside frames
/// are named, not read. The answer stays within `max` characters.
pub async fn content(reader: &impl FrameReader, mut top: PageContent, max: usize) -> PageContent {
    let frames = std::mem::take(&mut top.frames);
    if frames.is_empty() {
        return top;
    }
    let site = crate::allowlist::origin(&top.url);
    let mut left = max.saturating_sub(top.text.chars().count());
    let mut total = top.total_length;
    for (n, frame) in frames.into_iter().enumerate() {
        let marker = frame_marker(n);
        if !top.text.contains(&marker) {
            continue;
        }
        let piece = if left < MIN_FRAME_CHARS {
            top.truncated = true;
            "[a frame, not read: the size limit is reached]".to_owned()
        } else {
            match unless_refused(reader, frame, || reader.content(frame, left)).await {
                Ok(child) => {
                    total = total.saturating_add(child.total_length);
                    top.truncated |= child.truncated;
                    framed(&child, crate::allowlist::origin(&child.url) == site)
                }
                Err(message) => format!("[a frame that could not be read: {message}]"),
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
    top.total_length = total;
    top
}

/// A frame's text between its marks, its own frames named instead of read.
fn framed(child: &PageContent, same_site: bool) -> String {
    let whose = if same_site {
        "frame"
    } else {
        "frame from another origin"
    };
    let inner = (0..child.frames.len()).fold(child.text.clone(), |t, n| {
        t.replace(&frame_marker(n), "[a frame inside this frame]")
    });
    format!(
        "[{whose}: {}]\n{inner}\n[end of frame]",
        crate::text::cap(&child.url, 200)
    )
}

/// Frames searched for one `firefox_find`, at most.
pub const MAX_FIND_FRAMES: usize = 100;

/// The frames below the top one for a search or an audit, breadth first (each after the page
/// that holds it), as deep as [`MAX_NESTING`] and as many as [`MAX_FIND_FRAMES`]; the frames
/// left out are counted by why.
struct FrameWalk {
    queue: std::collections::VecDeque<(u64, u32)>,
    asked: usize,
    /// What the bounds are said to allow ("searched", "audited").
    done: &'static str,
    left_out: Vec<(String, u32)>,
}

impl FrameWalk {
    fn new(top_frames: Vec<u64>, done: &'static str) -> Self {
        Self {
            queue: top_frames.into_iter().map(|f| (f, 1)).collect(),
            asked: 0,
            done,
            left_out: Vec::new(),
        }
    }

    /// The next frame to read and how deep it is, `stop` (the caller's own bound: its time)
    /// or the walk's bounds counting the frames they leave out.
    fn next(&mut self, stop: impl Fn() -> Option<String>) -> Option<(u64, u32)> {
        while let Some((frame, nesting)) = self.queue.pop_front() {
            let why = if nesting > MAX_NESTING {
                format!("nested more than {MAX_NESTING} deep")
            } else if self.asked == MAX_FIND_FRAMES {
                format!("only the first {MAX_FIND_FRAMES} frames are {}", self.done)
            } else if let Some(why) = stop() {
                why
            } else {
                self.asked += 1;
                return Some((frame, nesting));
            };
            self.left_out(why);
        }
        None
    }

    /// A frame read at `nesting` holds these.
    fn holds(&mut self, frames: Vec<u64>, nesting: u32) {
        self.queue
            .extend(frames.into_iter().map(|f| (f, nesting + 1)));
    }

    fn left_out(&mut self, why: String) {
        match self.left_out.iter_mut().find(|(w, _)| *w == why) {
            Some((_, n)) => *n += 1,
            None => self.left_out.push((why, 1)),
        }
    }
}

/// Every frame's matches of a search: the top frame's first, then its frames' (each after the
/// page that holds it), listed up to `limit` and all counted, with what was searched. A frame
/// that cannot be read is left out; frames past the bounds (how many, how deep, how long all
/// searches together took) are counted as not searched.
pub async fn find(reader: &impl FrameReader, mut top: Found, limit: usize) -> Found {
    let mut walk = FrameWalk::new(std::mem::take(&mut top.frames), "searched");
    loop {
        let spent = top.searched.ms;
        let Some((frame, nesting)) = walk.next(|| out_of_time(spent)) else {
            break;
        };
        let left = limit.saturating_sub(top.matches.len());
        let Ok(child) = unless_refused(reader, frame, || reader.found(frame, left)).await else {
            continue;
        };
        top.total = top.total.saturating_add(child.total);
        top.matches.extend(child.matches.into_iter().take(left));
        walk.holds(child.frames, nesting);
        add_searched(&mut top.searched, child.searched);
    }
    for (why, n) in walk.left_out {
        also_stopped(
            &mut top.searched,
            format!("{n} frame(s) not searched: {why}"),
        );
    }
    top
}

/// Why no more frames are searched once all searches together took `spent_ms`, if so.
fn out_of_time(spent_ms: u32) -> Option<String> {
    (f64::from(spent_ms) >= crate::search::SEARCH_MS).then(|| {
        format!(
            "the search's time ({} ms for all frames) was used up",
            crate::search::SEARCH_MS
        )
    })
}

fn add_searched(to: &mut Searched, frame: Searched) {
    to.chars = to.chars.saturating_add(frame.chars);
    to.frames = to.frames.saturating_add(frame.frames);
    to.ms = to.ms.saturating_add(frame.ms);
    if let Some(why) = frame.stopped {
        also_stopped(to, why);
    }
}

/// Adds a reason the search stopped early, once (every frame may give the same one).
fn also_stopped(searched: &mut Searched, why: String) {
    searched.stopped = Some(match searched.stopped.take() {
        Some(before) if before.contains(&why) => before,
        Some(before) => format!("{before}; {why}"),
        None => why,
    });
}

/// Most reasons one audit gives for frames it did not audit.
const MAX_NOT_AUDITED: usize = 10;

/// The whole tab's audit: the top frame's, then its frames' (each after the page that holds
/// it, as deep and as many as a search goes), each rule's elements together (the top page's
/// first, then each frame's) and listed up to `per_rule`, most harmful rules first. Frames not audited are counted by why.
pub async fn audit(reader: &impl FrameReader, mut top: Audit, per_rule: usize) -> Audit {
    let mut walk = FrameWalk::new(std::mem::take(&mut top.frames), "audited");
    // An audit has the call's whole time: no bound of its own.
    while let Some((frame, nesting)) = walk.next(|| None) {
        let child = match unless_refused(reader, frame, || reader.audited(frame, per_rule)).await {
            Ok(child) => child,
            Err(why) => {
                walk.left_out(why);
                continue;
            }
        };
        top.frames_audited = top.frames_audited.saturating_add(child.frames_audited);
        top.ms = top.ms.saturating_add(child.ms);
        merge(&mut top.violations, child.violations, per_rule);
        merge(&mut top.review, child.review, per_rule);
        walk.holds(child.frames, nesting);
    }
    let not_audited = walk.left_out;
    let more = not_audited.len().saturating_sub(MAX_NOT_AUDITED);
    top.not_audited.extend(
        not_audited
            .into_iter()
            .take(MAX_NOT_AUDITED)
            .map(|(why, n)| format!("{n} frame(s): {why}")),
    );
    if more > 0 {
        top.not_audited
            .push(format!("frames for {more} other reason(s)"));
    }
    for findings in [&mut top.violations, &mut top.review] {
        // Most harmful first, then the most widespread; unrated last.
        findings.sort_by_key(|f| (f.impact.is_none(), f.impact, std::cmp::Reverse(f.total)));
    }
    top
}

/// Adds a frame's findings to the tab's: a rule already found gets the frame's elements after
/// its own (up to `per_rule`) and its count; a new rule is added.
fn merge(into: &mut Vec<Finding>, frame: Vec<Finding>, per_rule: usize) {
    for mut finding in frame {
        finding.elements.truncate(per_rule);
        match into.iter_mut().find(|f| f.rule == finding.rule) {
            Some(known) => {
                known.total = known.total.saturating_add(finding.total);
                let room = per_rule.saturating_sub(known.elements.len());
                known
                    .elements
                    .extend(finding.elements.into_iter().take(room));
            }
            None => into.push(finding),
        }
    }
}

/// Most frames nested around an element that a locator names (deeper ones are a page's trap).
pub const MAX_FRAME_DEPTH: usize = 10;

/// The frames above an element, as a locator climbs them.
pub trait FrameTree {
    /// How an element is picked within its frame.
    type Pick;
    /// The frame that holds `frame`'s iframe (0: the top).
    fn parent(&self, frame: u64) -> impl Future<Output = Result<u64, ErrorBody>>;
    /// How the frame `holder` picks the iframe that shows `frame`.
    fn iframe(
        &self,
        holder: u64,
        frame: u64,
    ) -> impl Future<Output = Result<Self::Pick, ErrorBody>>;
}

/// The iframes around an element in `frame`, outermost first: each frame above names the
/// iframe of the one below, up to the top.
pub async fn frames_around<T: FrameTree>(tree: &T, frame: u64) -> Result<Vec<T::Pick>, ErrorBody> {
    let mut chain = Vec::new();
    let mut child = frame;
    while child != 0 {
        if chain.len() == MAX_FRAME_DEPTH {
            return Err(ErrorBody::new(
                ErrorCode::PageError,
                format!("the element is inside more than {MAX_FRAME_DEPTH} nested frames"),
            ));
        }
        let parent = tree.parent(child).await?;
        chain.push(tree.iframe(parent, child).await?);
        child = parent;
    }
    chain.reverse();
    Ok(chain)
}

#[cfg(test)]
mod tests;
