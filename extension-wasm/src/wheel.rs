//! Scrolling as the browser does it where the page does not: the box a wheel turn the page left
//! alone moves (the nearest that scrolls on its own in the direction turned, else the page), and
//! what the answers of a scroll and of a wheel turn say; and the flows of a scroll (`scroll`:
//! the page's position read before and after) and of a wheel turn (`turn`: the element under the
//! turn named before the page sees it, moved for it only when the page left the turn alone).
//! Over [`Wheel`], which `content/act/scroll.rs` implements.

use claudezilla_protocol::ErrorBody;

/// The page's boxes as a wheel turn sees them.
pub trait Boxes {
    type Element: Clone;

    fn parent(&self, el: &Self::Element) -> Option<Self::Element>;
    /// The document's root element: the page's own scrolling, not a box's.
    fn is_root(&self, el: &Self::Element) -> bool;
    /// The size of its content and of its box on `axis` (`scrollWidth`, `clientWidth`).
    fn extent(&self, el: &Self::Element, axis: Axis) -> (i32, i32);
    /// Its computed `overflow` on `axis` (`overflow-x`, `overflow-y`), where it can be read.
    fn overflow(&self, el: &Self::Element, axis: Axis) -> Option<String>;
    /// Where the box (`None`: the page) is scrolled to, left and top.
    fn position(&self, el: Option<&Self::Element>) -> (f64, f64);
    fn scroll_by(&self, el: Option<&Self::Element>, dx: f64, dy: f64);
    /// The element as the answer names it.
    fn describe(&self, el: &Self::Element) -> String;
}

/// The page as a scroll or a wheel turn acts on it, beyond its boxes.
pub trait Wheel: Boxes {
    /// Scrolls `el` to the viewport's centre, smoothly or at once.
    fn scroll_into_view(&self, el: &Self::Element, smooth: bool);
    /// Scrolls the page to (`left`, `top`), smoothly or at once.
    fn scroll_to(&self, left: i32, top: i32, smooth: bool);
    /// The viewport's width and height (CSS pixels).
    fn viewport(&self) -> (f64, f64);
    /// The centre of the element's box in the viewport.
    fn centre(&self, el: &Self::Element) -> (i32, i32);
    /// The innermost element at a viewport point.
    fn element_at(&self, x: f64, y: f64) -> Result<Self::Element, ErrorBody>;
    /// Dispatches a `wheel` event by (`dx`, `dy`) at `at` on `el`; true when the page took it
    /// (cancelled it).
    fn wheel_event(&self, el: &Self::Element, at: (i32, i32), dx: f64, dy: f64) -> bool;
}

/// Scrolls `target` into view, else the page to (`x`, `y`) (a coordinate not given stays
/// where the page is, to its nearest pixel); the answer's words.
pub fn scroll<W: Wheel>(
    page: &W,
    target: Option<&W::Element>,
    x: Option<i32>,
    y: Option<i32>,
    smooth: bool,
) -> String {
    let before = page.position(None);
    let what = match target {
        Some(el) => {
            page.scroll_into_view(el, smooth);
            page.describe(el)
        }
        None => {
            // Rounded as a point given to a click, a hover or a wheel turn is.
            let kept = |v: f64| v.round() as i32;
            let (left, top) = (x.unwrap_or(kept(before.0)), y.unwrap_or(kept(before.1)));
            page.scroll_to(left, top, smooth);
            point_named(x, y)
        }
    };
    scrolled(&what, before, page.position(None), smooth)
}

/// Turns the wheel over `target` (its centre, scrolled into view) or over what is at `point`
/// (default: the viewport's centre). The page sees the `wheel` event first, as maps and
/// canvases expect; when it does not take the turn, what the browser would move moves
/// ([`scroll_in_place`]). The answer's words.
pub fn turn<W: Wheel>(
    page: &W,
    target: Option<W::Element>,
    point: Option<(f64, f64)>,
    dx: f64,
    dy: f64,
) -> Result<String, ErrorBody> {
    let (el, at) = match target {
        Some(el) => {
            page.scroll_into_view(&el, false);
            let at = page.centre(&el);
            (el, at)
        }
        None => {
            let (x, y) = point.unwrap_or_else(|| {
                let (width, height) = page.viewport();
                (width / 2.0, height / 2.0)
            });
            (page.element_at(x, y)?, (x.round() as i32, y.round() as i32))
        }
    };
    // Named before the page sees the turn, which may change it.
    let name = page.describe(&el);
    let taken = page.wheel_event(&el, at, dx, dy);
    let moved = (!taken).then(|| scroll_in_place(page, &el, dx, dy));
    Ok(turned(dx, dy, &name, at, moved.as_deref()))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    X,
    Y,
}

/// Does the box scroll on its own on `axis`: its content larger than its box there, and its
/// style letting it scroll (`overflow` auto, scroll or overlay; the style read only then)?
fn scrolls<B: Boxes>(boxes: &B, el: &B::Element, axis: Axis) -> bool {
    let (content, size) = boxes.extent(el, axis);
    content > size
        && boxes
            .overflow(el, axis)
            .is_some_and(|o| matches!(o.as_str(), "auto" | "scroll" | "overlay"))
}

/// The nearest box at or above `el` that scrolls on its own (not the page) in a direction the
/// turn (`dx`, `dy`) goes.
pub fn scroll_box<B: Boxes>(boxes: &B, el: &B::Element, dx: f64, dy: f64) -> Option<B::Element> {
    let mut at = Some(el.clone());
    while let Some(e) = at {
        if boxes.is_root(&e) {
            return None;
        }
        if (dy != 0.0 && scrolls(boxes, &e, Axis::Y)) || (dx != 0.0 && scrolls(boxes, &e, Axis::X))
        {
            return Some(e);
        }
        at = boxes.parent(&e);
    }
    None
}

/// Moves what the browser would for a wheel turn over `el` the page did not take, and says
/// what moved.
pub fn scroll_in_place<B: Boxes>(boxes: &B, el: &B::Element, dx: f64, dy: f64) -> String {
    let target = scroll_box(boxes, el, dx, dy);
    let before = boxes.position(target.as_ref());
    boxes.scroll_by(target.as_ref(), dx, dy);
    let (left, top) = boxes.position(target.as_ref());
    if before == (left, top) {
        return "nothing moved (already at the end)".into();
    }
    match target {
        Some(b) => format!("{} scrolled to {left}, {top}", boxes.describe(&b)),
        None => format!("the page scrolled to {left}, {top}"),
    }
}

/// The answer to a wheel turn by (`dx`, `dy`) over `over` at `at`: the page took it
/// (`handled`), or `moved` says what scrolled in its place.
pub fn turned(dx: f64, dy: f64, over: &str, at: (i32, i32), moved: Option<&str>) -> String {
    let place = format!("over {over} at ({}, {})", at.0, at.1);
    match moved {
        None => format!(
            "Turned the wheel by ({dx}, {dy}) {place}: the page handled it (zoom, or its own scrolling)."
        ),
        Some(moved) => format!("Turned the wheel by ({dx}, {dy}) {place}: {moved}."),
    }
}

/// The answer to a scroll to `what` that left the page at `after` (from `before`); a smooth
/// scroll has only begun, so it is not said to have gone nowhere.
pub fn scrolled(what: &str, before: (f64, f64), after: (f64, f64), smooth: bool) -> String {
    if after == before && !smooth {
        return format!(
            "Scrolled to {what}: nothing moved (already there, or the page cannot scroll further); position {}, {}.",
            after.0, after.1
        );
    }
    format!(
        "Scrolled to {what}; the page is now at {}, {}.",
        after.0, after.1
    )
}

/// What a scroll to a point names: each coordinate given, `-` for one left as it is.
pub fn point_named(x: Option<i32>, y: Option<i32>) -> String {
    let part = |v: Option<i32>| v.map_or("-".into(), |v| v.to_string());
    format!("x={}, y={}", part(x), part(y))
}

#[cfg(test)]
mod tests;
