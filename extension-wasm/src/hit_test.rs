//! Where the pointer lands, as the browser's hit-testing decides: the innermost element at a
//! viewport point (through open shadow roots; none outside the viewport), what a click aimed
//! at an element's centre lands on (the element, a part of it or of its label; else what
//! covers it, said instead of clicked through), and what a press of the pointer focuses.
//! Over [`PointerPage`], which `content/act/pointer.rs` implements; tested on a page of the
//! tests' own.

use claudezilla_protocol::{ErrorBody, ErrorCode};

/// What hit-testing asks of the page.
pub trait PointerPage {
    type Element: Clone + PartialEq;

    /// The viewport's width and height, CSS pixels.
    fn viewport(&self) -> (f64, f64);
    /// The document's topmost element at a viewport point (`elementFromPoint`).
    fn top_at(&self, x: f64, y: f64) -> Option<Self::Element>;
    /// The topmost element at a point inside `host`'s open shadow root, if it has one.
    fn shadow_at(&self, host: &Self::Element, x: f64, y: f64) -> Option<Self::Element>;
    /// The element's parent, a shadow root's host for its top elements.
    fn composed_parent(&self, el: &Self::Element) -> Option<Self::Element>;
    /// An `<input>`'s labels (none for any other element).
    fn labels(&self, el: &Self::Element) -> Vec<Self::Element>;
    /// The width and height of the element's box.
    fn size(&self, el: &Self::Element) -> (f64, f64);
    /// Drawn with no opacity of its own (`opacity: 0`).
    fn transparent(&self, el: &Self::Element) -> bool;
    /// Whether a press of the pointer can focus it (`input_plan::click_focusable`).
    fn click_focusable(&self, el: &Self::Element) -> bool;
    fn describe(&self, el: &Self::Element) -> String;
}

/// Below this width or height (CSS pixels) a control is drawn over by its own styling.
const DRAWN_OVER: f64 = 4.0;

fn page_error(message: String) -> ErrorBody {
    ErrorBody::new(ErrorCode::PageError, message)
}

/// The innermost element at a viewport point, through open shadow roots.
pub fn element_at<P: PointerPage>(page: &P, x: f64, y: f64) -> Result<P::Element, ErrorBody> {
    let (w, h) = page.viewport();
    let outside = || {
        page_error(format!(
            "({x}, {y}) is outside the viewport ({w} × {h} CSS pixels)"
        ))
        .with_hint("points are viewport CSS pixels: a screenshot's pixel divided by its scale")
    };
    if x < 0.0 || y < 0.0 || x >= w || y >= h {
        return Err(outside());
    }
    let mut element = page.top_at(x, y).ok_or_else(outside)?;
    // A shadow root may answer with its own host (the point retargeted): the descent ends.
    while let Some(inner) = page
        .shadow_at(&element, x, y)
        .filter(|inner| inner != &element)
    {
        element = inner;
    }
    Ok(element)
}

/// What a click on `element` lands on, as a real click is dispatched (hit-testing): the
/// innermost element at `at` when that is the element or inside it, or inside one of its
/// labels. Something else there (an overlay, a banner, a sticky header) is said instead of
/// clicked through. A point outside the viewport, a covering ancestor (the element lets the
/// pointer through) and a control drawn over by its own styling (a few pixels, or a hidden
/// native input) keep the element itself.
pub fn landing<P: PointerPage>(
    page: &P,
    element: &P::Element,
    at: (i32, i32),
) -> Result<P::Element, ErrorBody> {
    let Ok(hit) = element_at(page, f64::from(at.0), f64::from(at.1)) else {
        return Ok(element.clone());
    };
    if within(page, &hit, element) || labelled_by(page, element, &hit) {
        return Ok(hit);
    }
    let (width, height) = page.size(element);
    let drawn_over = width < DRAWN_OVER || height < DRAWN_OVER || page.transparent(element);
    if within(page, element, &hit) || drawn_over {
        return Ok(element.clone());
    }
    Err(page_error(format!(
        "{} is covered at its centre ({}, {}) by {}: a person's click would land there, so nothing was clicked",
        page.describe(element),
        at.0,
        at.1,
        page.describe(&hit)
    ))
    .with_hint("close or dismiss what covers it (a banner, dialog or overlay) or scroll it clear, then click again; firefox_click {x, y} clicks whatever is at a point"))
}

/// Is `node` `ancestor` or inside it, through shadow roots?
fn within<P: PointerPage>(page: &P, node: &P::Element, ancestor: &P::Element) -> bool {
    let mut at = Some(node.clone());
    while let Some(el) = at {
        if &el == ancestor {
            return true;
        }
        at = page.composed_parent(&el);
    }
    false
}

/// Is `hit` inside a label of the field `element` (a styled checkbox's visible box)?
fn labelled_by<P: PointerPage>(page: &P, element: &P::Element, hit: &P::Element) -> bool {
    page.labels(element)
        .iter()
        .any(|label| within(page, hit, label))
}

/// What a press of the pointer on `element` focuses: the element or its nearest focusable
/// ancestor (through shadow hosts); none when there is none (whatever had focus loses it).
pub fn press_focuses<P: PointerPage>(page: &P, element: &P::Element) -> Option<P::Element> {
    let mut target = Some(element.clone());
    while let Some(el) = target {
        if page.click_focusable(&el) {
            return Some(el);
        }
        target = page.composed_parent(&el);
    }
    None
}

#[cfg(test)]
mod tests;
