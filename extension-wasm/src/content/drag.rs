//! Dragging as a hand drags, on the page: boxes and what is at a point read from the page, the
//! events dispatched. The sequence — the ends found, the press, nudges, `dragstart`, the travel
//! in steps, the rest and the drop — is [`drag_plan::hand`]'s.

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::reply::Acted;
use web_sys::{DataTransfer, Element};

use super::act::{
    Press, acted, drag_event, element_at, page_error, pointer, pointer_then_mouse, rect,
    scroll_into_view,
};
use super::find::describe;
use crate::drag_plan::{self, hand::Hand};
use crate::web;

/// Where a drag ends ([`drag_plan::hand::Landing`]).
pub type Landing = drag_plan::hand::Landing<Element>;

/// The content script's page, as a dragging hand acts on it ([`drag_plan::hand`]).
struct PageHand {
    transfer: DataTransfer,
}

impl Hand for PageHand {
    type Element = Element;

    fn scroll_into_view(&self, el: &Element) {
        scroll_into_view(el, false);
    }

    fn leave(&self) {
        super::states::leave();
    }

    fn rect(&self, el: &Element) -> drag_plan::Rect {
        rect(el)
    }

    fn previous(&self, el: &Element) -> Option<Element> {
        el.previous_element_sibling()
    }

    fn next(&self, el: &Element) -> Option<Element> {
        el.next_element_sibling()
    }

    fn element_at(&self, x: f64, y: f64) -> Result<Element, ErrorBody> {
        element_at(x, y)
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

    fn now(&self) -> f64 {
        web::precise_ms()
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
    // The drag's data, made first: nothing of the page is read for it.
    let transfer = DataTransfer::new().map_err(|e| page_error(web::js_error_message(&e)))?;
    acted(drag_plan::hand::drag_to(&PageHand { transfer }, from, &to).await?)
}
