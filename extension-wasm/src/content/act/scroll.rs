//! Scrolling an element into view or the page to a point, and turning the wheel.

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::args::Point;
use wasm_bindgen::JsCast;
use web_sys::{
    Element, ScrollBehavior, ScrollIntoViewOptions, ScrollLogicalPosition, ScrollToOptions,
    WheelEvent, WheelEventInit,
};

use crate::content::dom::document;
use crate::content::find::describe;

use super::*;

pub fn scroll(
    target: Option<Element>,
    x: Option<i32>,
    y: Option<i32>,
    smooth: bool,
) -> Result<reply::Acted, ErrorBody> {
    let window = web_sys::window().ok_or_else(|| page_error("no window".into()))?;
    let before = (
        window.scroll_x().unwrap_or(0.0),
        window.scroll_y().unwrap_or(0.0),
    );
    let behavior = if smooth {
        ScrollBehavior::Smooth
    } else {
        ScrollBehavior::Instant
    };
    let what = match &target {
        Some(element) => {
            let options = ScrollIntoViewOptions::new();
            options.set_block(ScrollLogicalPosition::Center);
            options.set_behavior(behavior);
            element.scroll_into_view_with_scroll_into_view_options(&options);
            describe(element)
        }
        None => {
            let options = ScrollToOptions::new();
            options.set_left(f64::from(x.unwrap_or(before.0 as i32)));
            options.set_top(f64::from(y.unwrap_or(before.1 as i32)));
            options.set_behavior(behavior);
            window.scroll_to_with_scroll_to_options(&options);
            format!(
                "x={}, y={}",
                x.map_or("-".into(), |v| v.to_string()),
                y.map_or("-".into(), |v| v.to_string())
            )
        }
    };
    let after = (
        window.scroll_x().unwrap_or(0.0),
        window.scroll_y().unwrap_or(0.0),
    );
    if after == before && !smooth {
        return acted(format!(
            "Scrolled to {what}: nothing moved (already there, or the page cannot scroll further); position {}, {}.",
            after.0, after.1
        ));
    }
    acted(format!(
        "Scrolled to {what}; the page is now at {}, {}.",
        after.0, after.1
    ))
}

/// Turns the wheel over an element (its centre) or a viewport point (default: the viewport's
/// centre). The page sees the `wheel` event first, as maps and canvases expect; when it does
/// not take the turn (no `preventDefault`), the nearest scrollable box under the point moves,
/// as the browser would move it.
pub fn wheel(
    target: Option<Element>,
    point: Option<Point>,
    dx: f64,
    dy: f64,
) -> Result<reply::Acted, ErrorBody> {
    let window = web_sys::window().ok_or_else(|| page_error("no window".into()))?;
    let (element, at) = match target {
        Some(element) => {
            scroll_into_view(&element);
            let at = centre(&element);
            (element, at)
        }
        None => {
            let (x, y) = point.map(|p| (p.x(), p.y())).unwrap_or_else(|| {
                let size = |v: Result<wasm_bindgen::JsValue, _>| {
                    v.ok().and_then(|v| v.as_f64()).unwrap_or(0.0) / 2.0
                };
                (size(window.inner_width()), size(window.inner_height()))
            });
            (element_at(x, y)?, (x.round() as i32, y.round() as i32))
        }
    };
    let name = describe(&element);
    let init = WheelEventInit::new();
    mouse_init(
        init.unchecked_ref(),
        "wheel",
        Press {
            at,
            ..Press::default()
        },
    );
    init.set_delta_x(dx);
    init.set_delta_y(dy);
    init.set_delta_mode(0);
    let taken = WheelEvent::new_with_event_init_dict("wheel", &init)
        .map(|e| !element.dispatch_event(&e).unwrap_or(true))
        .unwrap_or(false);
    let place = format!("over {name} at ({}, {})", at.0, at.1);
    if taken {
        return acted(format!(
            "Turned the wheel by ({dx}, {dy}) {place}: the page handled it (zoom, or its own scrolling)."
        ));
    }
    let scrolled = match scroll_box(&element, dx != 0.0, dy != 0.0) {
        Some(b) => {
            let before = (b.scroll_left(), b.scroll_top());
            b.scroll_by_with_x_and_y(dx, dy);
            (before != (b.scroll_left(), b.scroll_top())).then(|| {
                format!(
                    "{} scrolled to {}, {}",
                    describe(&b),
                    b.scroll_left(),
                    b.scroll_top()
                )
            })
        }
        None => {
            let before = (
                window.scroll_x().unwrap_or(0.0),
                window.scroll_y().unwrap_or(0.0),
            );
            window.scroll_by_with_x_and_y(dx, dy);
            let after = (
                window.scroll_x().unwrap_or(0.0),
                window.scroll_y().unwrap_or(0.0),
            );
            (before != after).then(|| format!("the page scrolled to {}, {}", after.0, after.1))
        }
    };
    acted(format!(
        "Turned the wheel by ({dx}, {dy}) {place}: {}.",
        scrolled.unwrap_or_else(|| "nothing moved (already at the end)".into())
    ))
}

/// The nearest box at or above `element` that scrolls on its own (not the page itself) in a
/// direction the wheel turns.
pub(super) fn scroll_box(element: &Element, across: bool, down: bool) -> Option<Element> {
    let window = web_sys::window()?;
    let root = document().ok()?.document_element();
    let mut at = Some(element.clone());
    while let Some(e) = at {
        if Some(&e) == root.as_ref() {
            return None;
        }
        let style = window.get_computed_style(&e).ok().flatten();
        let scrolls = |axis: &str| {
            style
                .as_ref()
                .and_then(|s| s.get_property_value(axis).ok())
                .is_some_and(|o| matches!(o.as_str(), "auto" | "scroll" | "overlay"))
        };
        if (down && scrolls("overflow-y") && e.scroll_height() > e.client_height())
            || (across && scrolls("overflow-x") && e.scroll_width() > e.client_width())
        {
            return Some(e);
        }
        at = e.parent_element();
    }
    None
}
