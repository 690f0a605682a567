//! The page's side of a screenshot's measures (`metrics`, in the order they are read): the
//! viewport, the scroll, the page's size, the box of an element captured (`captured`: refused
//! when it has none to see), and which elements an annotated screenshot marks with badges
//! (`marks`: controls with a box, in view or anywhere when an element is captured, visible,
//! 30 at most). `content/capture.rs` reads the page.

use claudezilla_protocol::args::FrameTarget;
use claudezilla_protocol::reply::PageMetrics;
use claudezilla_protocol::{ErrorBody, ErrorCode};

/// Most badges an annotated screenshot carries.
const MAX_MARKS: usize = 30;
/// The elements a badge may mark: what an agent acts on.
pub const INTERACTIVE: &str = "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=checkbox], [role=tab], [role=menuitem], [contenteditable], [tabindex]:not([tabindex='-1'])";

/// A box: left, top, width, height.
pub type Rect = [f64; 4];

/// Whether `b` reaches into `view` (both in the same coordinates).
pub fn overlaps(b: Rect, view: Rect) -> bool {
    b[1] + b[3] > view[1]
        && b[1] < view[1] + view[3]
        && b[0] + b[2] > view[0]
        && b[0] < view[0] + view[2]
}

/// The box of an element a screenshot captures, unless it has none to see (less than a pixel
/// wide or high); `describe` names it in the error.
pub fn captured(b: Rect, describe: impl FnOnce() -> String) -> Result<Rect, ErrorBody> {
    if b[2] < 1.0 || b[3] < 1.0 {
        return Err(ErrorBody::new(
            ErrorCode::PageError,
            format!("{} has no visible box to capture", describe()),
        ));
    }
    Ok(b)
}

/// `b`, a box in the viewport's coordinates, in the page's, `view` being the viewport's box in
/// the page.
fn in_page(b: Rect, view: Rect) -> Rect {
    [b[0] + view[0], b[1] + view[1], b[2], b[3]]
}

/// What marking asks of the page's elements.
pub trait Marked {
    type Element;
    /// Its box in the viewport's coordinates (`getBoundingClientRect`).
    fn rect(&self, el: &Self::Element) -> Rect;
    fn visible(&self, el: &Self::Element) -> bool;
    /// Its badge's words (its ref and description: read only for an element marked).
    fn label(&self, el: &Self::Element) -> String;
}

/// The badges for `candidates` (the [`INTERACTIVE`] elements, in document order): those with a
/// box, in `view` (the viewport's box in the page; or anywhere, where an element is captured),
/// visible; `MAX_MARKS` at most. Their boxes are in the page's coordinates.
pub fn marks<M: Marked>(
    page: &M,
    mut candidates: impl Iterator<Item = M::Element>,
    view: Rect,
    anywhere: bool,
) -> Vec<(String, Rect)> {
    let mut found = Vec::new();
    // Full before the next candidate is read of the page.
    while found.len() < MAX_MARKS {
        let Some(el) = candidates.next() else {
            break;
        };
        let b = in_page(page.rect(&el), view);
        if b[2] > 0.0 && b[3] > 0.0 && (overlaps(b, view) || anywhere) && page.visible(&el) {
            found.push((page.label(&el), b));
        }
    }
    found
}

/// What a screenshot measures of a frame, beyond its elements' boxes.
pub trait Measured: Marked {
    /// `scrollX`, `scrollY`.
    fn scroll(&self) -> [f64; 2];
    /// `innerWidth`, `innerHeight`.
    fn viewport(&self) -> [f64; 2];
    fn document_element(&self) -> Option<Self::Element>;
    fn body(&self) -> Option<Self::Element>;
    fn scroll_width(&self, el: &Self::Element) -> i32;
    fn scroll_height(&self, el: &Self::Element) -> i32;
    /// The element a screenshot captures, now (no waiting).
    fn resolve(&self, target: &FrameTarget) -> Result<Self::Element, ErrorBody>;
    /// The element as an answer names it.
    fn describe(&self, el: &Self::Element) -> String;
    /// The [`INTERACTIVE`] elements, in document order, read as they are taken; the browser's
    /// words where it refuses the selector.
    fn interactive(&self) -> Result<impl Iterator<Item = Self::Element>, String>;
}

/// The frame's measures, in CSS pixels: viewport, scroll, the page's size (the larger of the
/// root's and the body's), the box of `target` (in the page's coordinates), and, where
/// `marked`, the badges.
pub fn metrics<P: Measured>(
    page: &P,
    target: Option<&FrameTarget>,
    marked: bool,
) -> Result<PageMetrics, ErrorBody> {
    let scroll = page.scroll();
    let viewport = page.viewport();
    let view = [scroll[0], scroll[1], viewport[0], viewport[1]];
    let root = page.document_element();
    let size = |f: fn(&P, &P::Element) -> i32| {
        let root = root.as_ref().map_or(0, |r| f(page, r));
        root.max(page.body().map_or(0, |b| f(page, &b))) as f64
    };
    let size = [size(P::scroll_width), size(P::scroll_height)];
    let element = match target {
        Some(t) => {
            let el = page.resolve(t)?;
            let b = in_page(page.rect(&el), view);
            Some(captured(b, || page.describe(&el))?)
        }
        None => None,
    };
    let mut found = Vec::new();
    if marked {
        let candidates = page
            .interactive()
            .map_err(|e| ErrorBody::new(ErrorCode::Internal, e))?;
        found = marks(page, candidates, view, element.is_some());
    }
    Ok(PageMetrics {
        viewport,
        scroll,
        page: size,
        element,
        marks: found,
    })
}

#[cfg(test)]
mod tests;
