//! Dragging as a hand drags. Libraries start a drag only after the pointer is pressed and has
//! moved, some on the tick after `dragstart` (SortableJS), and they move their items while the
//! pointer travels; all events in one burst moved nothing. So: the press, a few pixels of
//! movement, HTML5 `dragstart` with a `DataTransfer`, then the pointer travels to the drop
//! point in steps (the page's queued work runs between two) with mouse, pointer and drag
//! events at each, and the drop. For a
//! drop before or after an element the travel stops as soon as the page has put the dragged
//! element there (as a person stops when they see it in place).

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::args::{DropPosition, Point};
use claudezilla_protocol::reply::Acted;
use web_sys::{DataTransfer, Element};

use super::act::{
    Press, acted, centre, drag_event, element_at, page_error, pointer, pointer_then_mouse,
    scroll_into_view,
};
use super::find::describe;
use crate::drag_plan;
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

/// Has the page put `dragged` where it was asked to go?
fn placed(dragged: &Element, target: &Element, position: DropPosition) -> bool {
    drag_plan::placed(
        position,
        dragged.next_element_sibling().as_ref() == Some(target),
        target.next_element_sibling().as_ref() == Some(dragged),
    )
}

/// Lets `ms` of real time pass, the page's queued work running meanwhile (a timer would wait
/// a second in a background tab).
async fn pause(ms: f64) {
    let from = web::precise_ms();
    while web::precise_ms() - from < ms {
        web::tick().await;
    }
}

/// What the pointer is over at `at` (the point's element, else the last one it was over).
fn under(at: (i32, i32), fallback: &Element) -> Element {
    element_at(f64::from(at.0), f64::from(at.1)).unwrap_or_else(|_| fallback.clone())
}

pub async fn drag(from: &Element, to: Landing) -> Result<Acted, ErrorBody> {
    scroll_into_view(from);
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
    let held = |at| Press {
        at,
        buttons: 1,
        ..Press::default()
    };
    pointer(from, "pointerover", held(start));
    pointer_then_mouse(from, "down", held(start));
    web::tick().await;
    // A few pixels first: libraries start dragging only once the pointer has moved.
    for d in drag_plan::NUDGES {
        let at = (start.0 + d, start.1 + d);
        pointer_then_mouse(from, "move", held(at));
        web::tick().await;
    }
    let html5 = drag_event(from, "dragstart", start, &transfer);
    // SortableJS begins its drag on the tick after dragstart.
    web::sleep(drag_plan::START_MS).await;
    let mut over = from.clone();
    let mut at = start;
    let mut stopped_early = false;
    let mut resting_since = None;
    // The travel, then the rest at the drop point: a hand resting there still sends dragover
    // (the browser repeats it), and moves a pixel now and then.
    for step in 1.. {
        at = drag_plan::travel(start, end, step);
        let now = under(at, &over);
        pointer_then_mouse(&now, "move", held(at));
        if html5 {
            if now != over {
                drag_event(&over, "dragleave", at, &transfer);
                drag_event(&now, "dragenter", at, &transfer);
            }
            drag_event(&now, "dragover", at, &transfer);
        }
        over = now;
        pause(drag_plan::FRAME_MS).await;
        let placed_now = aim.is_some_and(|(target, position)| placed(from, target, position));
        let rested = match step >= drag_plan::STEPS {
            true => web::precise_ms() - *resting_since.get_or_insert_with(web::precise_ms),
            false => 0.0,
        };
        match drag_plan::next(step, aim.map(|(_, p)| p), placed_now, rested) {
            drag_plan::Next::Move => continue,
            drag_plan::Next::Placed => {
                stopped_early = true;
                break;
            }
            drag_plan::Next::Drop => break,
        }
    }
    let last = under(at, &over);
    if html5 {
        drag_event(&last, "dragover", at, &transfer);
        drag_event(&last, "drop", at, &transfer);
        drag_event(from, "dragend", at, &transfer);
    }
    pointer_then_mouse(
        &last,
        "up",
        Press {
            at,
            ..Press::default()
        },
    );
    web::tick().await;
    let what = describe(from);
    let Some((t, position)) = aim else {
        let over = describe(&last);
        return acted(drag_plan::answer(
            &what,
            drag_plan::Dropped::At {
                point: end,
                over: &over,
            },
        ));
    };
    let target = describe(t);
    let dropped = match position {
        DropPosition::Onto => drag_plan::Dropped::Onto(&target),
        DropPosition::Before | DropPosition::After => drag_plan::Dropped::Beside {
            target: &target,
            position,
            placed: stopped_early || placed(from, t, position),
        },
    };
    acted(drag_plan::answer(&what, dropped))
}
