//! The page's side of a screenshot's measures: the box of an element captured (`captured`:
//! refused when it has none to see), and which elements an annotated screenshot marks with
//! badges (`marks`: controls with a box, in view or anywhere when an element is captured,
//! visible, 30 at most). `content/capture.rs` reads the boxes.

use claudezilla_protocol::{ErrorBody, ErrorCode};

/// Most badges an annotated screenshot carries.
const MAX_MARKS: usize = 30;
/// The elements a badge may mark: what an agent acts on.
pub const INTERACTIVE: &str = "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=checkbox], [role=tab], [role=menuitem], [contenteditable], [tabindex]:not([tabindex='-1'])";

/// A box: left, top, width, height.
pub type Rect = [f64; 4];

/// Whether `b` reaches into `view` (both in the same coordinates).
fn overlaps(b: Rect, view: Rect) -> bool {
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

/// What marking asks of the page's elements.
pub trait Marked {
    type Element;
    /// Its box in the page's coordinates.
    fn rect(&self, el: &Self::Element) -> Rect;
    fn visible(&self, el: &Self::Element) -> bool;
    /// Its badge's words (its ref and description: read only for an element marked).
    fn label(&self, el: &Self::Element) -> String;
}

/// The badges for `candidates` (the [`INTERACTIVE`] elements, in document order): those with a
/// box, in `view` (or anywhere, where an element is captured), visible; `MAX_MARKS` at most.
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
        let b = page.rect(&el);
        if b[2] > 0.0 && b[3] > 0.0 && (overlaps(b, view) || anywhere) && page.visible(&el) {
            found.push((page.label(&el), b));
        }
    }
    found
}

#[cfg(test)]
mod tests;
