//! Scrolling an element into view or the page to a point, and turning the wheel: the flows,
//! what moves where the page does not take a turn, and the answers' words are
//! [`crate::wheel`]'s, over the page as [`Page`] reaches it.

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::args::Point;
use wasm_bindgen::JsCast;
use web_sys::{Element, ScrollToOptions, WheelEvent, WheelEventInit, Window};

use crate::content::dom::document;
use crate::content::find::describe;
use crate::wheel::{self, Axis, Boxes, Wheel};

use super::*;

pub fn scroll(
    target: Option<Element>,
    x: Option<i32>,
    y: Option<i32>,
    smooth: bool,
) -> Result<reply::Acted, ErrorBody> {
    acted(wheel::scroll(&page()?, target.as_ref(), x, y, smooth))
}

/// Turns the wheel over an element or a viewport point ([`wheel::turn`]).
pub fn wheel(
    target: Option<Element>,
    point: Option<Point>,
    dx: f64,
    dy: f64,
) -> Result<reply::Acted, ErrorBody> {
    let point = point.map(|p| (p.x(), p.y()));
    acted(wheel::turn(&page()?, target, point, dx, dy)?)
}

/// The page's window; its boxes, read and scrolled ([`wheel::Wheel`]).
struct Page(Window);

fn page() -> Result<Page, ErrorBody> {
    web_sys::window()
        .map(Page)
        .ok_or_else(|| page_error("no window".into()))
}

impl Wheel for Page {
    fn scroll_into_view(&self, el: &Element, smooth: bool) {
        scroll_into_view(el, smooth);
    }

    fn scroll_to(&self, left: i32, top: i32, smooth: bool) {
        let options = ScrollToOptions::new();
        options.set_left(f64::from(left));
        options.set_top(f64::from(top));
        options.set_behavior(behavior(smooth));
        self.0.scroll_to_with_scroll_to_options(&options);
    }

    fn viewport(&self) -> (f64, f64) {
        viewport()
    }

    fn centre(&self, el: &Element) -> (i32, i32) {
        centre(el)
    }

    fn element_at(&self, x: f64, y: f64) -> Result<Element, ErrorBody> {
        element_at(x, y)
    }

    fn wheel_event(&self, el: &Element, at: (i32, i32), dx: f64, dy: f64) -> bool {
        let init = WheelEventInit::new();
        let press = Press {
            at,
            ..Press::default()
        };
        mouse_init(init.unchecked_ref(), "wheel", press);
        init.set_delta_x(dx);
        init.set_delta_y(dy);
        init.set_delta_mode(0);
        WheelEvent::new_with_event_init_dict("wheel", &init)
            .map(|e| !el.dispatch_event(&e).unwrap_or(true))
            .unwrap_or(false)
    }
}

impl Boxes for Page {
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
        let style = self.0.get_computed_style(el).ok()??;
        style.get_property_value(property).ok()
    }

    fn position(&self, el: Option<&Element>) -> (f64, f64) {
        match el {
            Some(b) => (f64::from(b.scroll_left()), f64::from(b.scroll_top())),
            None => (
                self.0.scroll_x().unwrap_or(0.0),
                self.0.scroll_y().unwrap_or(0.0),
            ),
        }
    }

    fn scroll_by(&self, el: Option<&Element>, dx: f64, dy: f64) {
        match el {
            Some(b) => b.scroll_by_with_x_and_y(dx, dy),
            None => self.0.scroll_by_with_x_and_y(dx, dy),
        }
    }

    fn describe(&self, el: &Element) -> String {
        describe(el)
    }
}
