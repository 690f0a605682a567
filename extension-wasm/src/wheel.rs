//! Scrolling as the browser does it where the page does not: the box a wheel turn the page left
//! alone moves (the nearest that scrolls on its own in the direction turned, else the page), and
//! what the answers of a scroll and of a wheel turn say. `content/act/scroll.rs` reads the boxes
//! and moves them.

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
