//! Dragging as a hand drags, on the page: the drop point and what is under the pointer read
//! from the page, the events dispatched. The sequence — press, nudges, `dragstart`, the
//! travel in steps, the rest and the drop — is [`drag_plan::hand`]'s.

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::args::{DropPosition, Point};
use claudezilla_protocol::reply::Acted;
use web_sys::{DataTransfer, Element};

use super::act::{
    Press, acted, centre, drag_event, element_at, page_error, pointer, pointer_then_mouse,
    scroll_into_view,
};
use super::find::describe;
use crate::drag_plan::{self, hand::Hand};
use crate::web;

/// Where a drag ends.
pub enum Landing {
    On(Element, DropPosition),
    At(Point),
}

/// The drop point for `position` on `target` ([`drag_plan::drop_point`]).
fn drop_point(target: &Element, position: DropPosition) -> (i32, i32) {
    let sibling_tops = [
        target.previous_element_sibling(),
        target.next_element_sibling(),
    ]
    .into_iter()
    .flatten()
    .map(|s| s.get_bounding_client_rect().top());
    drag_plan::drop_point(rect(target), sibling_tops, position)
}

fn rect(el: &Element) -> drag_plan::Rect {
    let r = el.get_bounding_client_rect();
    drag_plan::Rect {
        left: r.left(),
        top: r.top(),
        width: r.width(),
        height: r.height(),
    }
}

/// The content script's page, as a dragging hand acts on it ([`drag_plan::hand`]).
struct PageHand {
    transfer: DataTransfer,
}

impl Hand for PageHand {
    type Element = Element;

    fn under(&self, at: (i32, i32), fallback: &Element) -> Element {
        element_at(f64::from(at.0), f64::from(at.1)).unwrap_or_else(|_| fallback.clone())
    }

    fn pointer(&self, el: &Element, kind: &'static str, at: (i32, i32), buttons: u16) {
        pointer(el, kind, press(at, buttons));
    }

    fn pointer_then_mouse(&self, el: &Element, action: &'static str, at: (i32, i32), buttons: u16) {
        pointer_then_mouse(el, action, press(at, buttons));
    }

    fn drag_event(&self, el: &Element, kind: &'static str, at: (i32, i32)) -> bool {
        drag_event(el, kind, at, &self.transfer)
    }

    fn tick(&self) -> impl Future<Output = ()> {
        web::tick()
    }

    fn sleep(&self, ms: u32) -> impl Future<Output = ()> {
        web::sleep(ms)
    }

    /// Real time passes in ticks (a timer would wait a second in a background tab).
    async fn pause(&self, ms: f64) {
        let from = web::precise_ms();
        while web::precise_ms() - from < ms {
            web::tick().await;
        }
    }

    fn now(&self) -> f64 {
        web::precise_ms()
    }

    fn placed(&self, dragged: &Element, target: &Element, position: DropPosition) -> bool {
        drag_plan::placed(
            position,
            dragged.next_element_sibling().as_ref() == Some(target),
            target.next_element_sibling().as_ref() == Some(dragged),
        )
    }

    fn describe(&self, el: &Element) -> String {
        describe(el)
    }
}

fn press(at: (i32, i32), buttons: u16) -> Press {
    Press {
        at,
        buttons,
        ..Press::default()
    }
}

pub async fn drag(from: &Element, to: Landing) -> Result<Acted, ErrorBody> {
    scroll_into_view(from, false);
    super::states::leave();
    let start = centre(from);
    let (end, aim) = match &to {
        Landing::On(target, position) => (drop_point(target, *position), Some((target, *position))),
        Landing::At(point) => {
            let (x, y) = (point.x(), point.y());
            element_at(x, y)?;
            ((x as i32, y as i32), None)
        }
    };
    let transfer = DataTransfer::new().map_err(|e| page_error(web::js_error_message(&e)))?;
    let hand = PageHand { transfer };
    acted(drag_plan::hand::drag(&hand, from, start, end, aim).await)
}
