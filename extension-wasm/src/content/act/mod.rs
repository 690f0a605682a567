//! Acting on the page as a user would: click, type, keys, scroll, hover, select, fill, upload
//! (dragging is `super::drag`). Synthetic events are untrusted, so where the browser would do
//! something on a real user's action (submit a form on Enter, follow a link), we do it
//! ourselves and say so.

use claudezilla_protocol::reply;
use claudezilla_protocol::{ErrorBody, ErrorCode};
use web_sys::{
    Element, Event, EventInit, InputEvent, InputEventInit, ScrollBehavior, ScrollIntoViewOptions,
    ScrollLogicalPosition,
};

use crate::drag_plan::Rect;

mod forms;
mod keyboard;
mod links;
mod pointer;
mod refused;
mod scroll;
mod typing;

pub use forms::*;
pub use keyboard::*;
pub use pointer::*;
pub use scroll::*;
pub use typing::*;

pub(in crate::content) fn page_error(message: String) -> ErrorBody {
    ErrorBody::new(ErrorCode::PageError, message)
}

pub(in crate::content) fn acted(what: String) -> Result<reply::Acted, ErrorBody> {
    Ok(reply::Acted { what })
}

/// Scrolls `element` to the viewport's centre, smoothly or at once.
pub(in crate::content) fn scroll_into_view(element: &Element, smooth: bool) {
    let options = ScrollIntoViewOptions::new();
    options.set_block(ScrollLogicalPosition::Center);
    options.set_behavior(behavior(smooth));
    element.scroll_into_view_with_scroll_into_view_options(&options);
}

/// A scroll's behaviour: smooth, or at once.
pub(super) fn behavior(smooth: bool) -> ScrollBehavior {
    match smooth {
        true => ScrollBehavior::Smooth,
        false => ScrollBehavior::Instant,
    }
}

/// The element's box in the viewport.
pub(in crate::content) fn rect(element: &Element) -> Rect {
    let r = element.get_bounding_client_rect();
    Rect {
        left: r.left(),
        top: r.top(),
        width: r.width(),
        height: r.height(),
    }
}

/// The centre of the element's box, in whole pixels ([`Rect::centre`]).
pub(in crate::content) fn centre(element: &Element) -> (i32, i32) {
    rect(element).centre()
}

pub(super) fn event(element: &Element, kind: &str) {
    let init = EventInit::new();
    init.set_bubbles(true);
    init.set_composed(true);
    if let Ok(e) = Event::new_with_event_init_dict(kind, &init) {
        let _ = element.dispatch_event(&e);
    }
}

pub(super) fn input_event(element: &Element, data: Option<&str>) {
    let init = InputEventInit::new();
    init.set_bubbles(true);
    init.set_composed(true);
    init.set_input_type("insertText");
    init.set_data(data);
    if let Ok(e) = InputEvent::new_with_event_init_dict("input", &init) {
        let _ = element.dispatch_event(&e);
    }
}
