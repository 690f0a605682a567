//! Scrolling an element into view or the page to a point, and turning the wheel; what moves
//! where the page does not take a turn, and the answers' words, are [`crate::wheel`]'s.

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::args::Point;
use wasm_bindgen::JsCast;
use web_sys::{
    Element, ScrollBehavior, ScrollIntoViewOptions, ScrollLogicalPosition, ScrollToOptions,
    WheelEvent, WheelEventInit,
};

use crate::content::dom::document;
use crate::content::find::describe;
use crate::wheel::{self, Axis, Boxes};

use super::*;

pub fn scroll(
    target: Option<Element>,
    x: Option<i32>,
    y: Option<i32>,
    smooth: bool,
) -> Result<reply::Acted, ErrorBody> {
    let window = web_sys::window().ok_or_else(|| page_error("no window".into()))?;
    let before = Page.position(None);
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
            wheel::point_named(x, y)
        }
    };
    acted(wheel::scrolled(&what, before, Page.position(None), smooth))
}

/// Turns the wheel over an element (its centre) or a viewport point (default: the viewport's
/// centre). The page sees the `wheel` event first, as maps and canvases expect; when it does
/// not take the turn (no `preventDefault`), the box the browser would move moves
/// ([`wheel::scroll_in_place`]).
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
    // Named before the page sees the turn, which may change it.
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
    let moved = (!taken).then(|| wheel::scroll_in_place(&Page, &element, dx, dy));
    acted(wheel::turned(dx, dy, &name, at, moved.as_deref()))
}

/// The page's boxes, read and scrolled ([`wheel::Boxes`]).
struct Page;

impl wheel::Boxes for Page {
    type Element = Element;

    fn parent(&self, el: &Element) -> Option<Element> {
        el.parent_element()
    }

    fn is_root(&self, el: &Element) -> bool {
        document().ok().and_then(|d| d.document_element()).as_ref() == Some(el)
    }

    fn extent(&self, el: &Element, axis: Axis) -> (i32, i32) {
        match axis {
            Axis::X => (el.scroll_width(), el.client_width()),
            Axis::Y => (el.scroll_height(), el.client_height()),
        }
    }

    fn overflow(&self, el: &Element, axis: Axis) -> Option<String> {
        let property = match axis {
            Axis::X => "overflow-x",
            Axis::Y => "overflow-y",
        };
        let style = web_sys::window()?.get_computed_style(el).ok()??;
        style.get_property_value(property).ok()
    }

    fn position(&self, el: Option<&Element>) -> (f64, f64) {
        match (el, web_sys::window()) {
            (Some(b), _) => (f64::from(b.scroll_left()), f64::from(b.scroll_top())),
            (None, Some(w)) => (w.scroll_x().unwrap_or(0.0), w.scroll_y().unwrap_or(0.0)),
            (None, None) => (0.0, 0.0),
        }
    }

    fn scroll_by(&self, el: Option<&Element>, dx: f64, dy: f64) {
        match (el, web_sys::window()) {
            (Some(b), _) => b.scroll_by_with_x_and_y(dx, dy),
            (None, Some(w)) => w.scroll_by_with_x_and_y(dx, dy),
            (None, None) => {}
        }
    }

    fn describe(&self, el: &Element) -> String {
        describe(el)
    }
}
