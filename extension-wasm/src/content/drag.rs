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
use crate::web;

/// Where a drag ends.
pub enum Landing {
    On(Element, DropPosition),
    At(Point),
}

/// Steps of the pointer's travel, a frame apart.
const STEPS: u32 = 10;
const FRAME_MS: f64 = 16.0;
/// How long the pointer rests at the drop point at most, still moving a little, for the page
/// to put the dragged element where it was asked (a library may ignore moves for a while after
/// each change it made: SortableJS for 30 ms, which a background tab's timers make a second).
const REST_MS: f64 = 1_500.0;
/// The wait for a library that starts its drag on the tick after `dragstart` (a timer of the
/// page's: up to a second in a background tab, which ours waits out too).
const START_MS: u32 = 32;

/// The point to drop at for `position` on `target`: its centre, or inside its first or last
/// quarter along the way its list runs (down a column, or along a row).
fn drop_point(target: &Element, position: DropPosition) -> (i32, i32) {
    let r = target.get_bounding_client_rect();
    let along_row = [
        target.previous_element_sibling(),
        target.next_element_sibling(),
    ]
    .into_iter()
    .flatten()
    .any(|s| (s.get_bounding_client_rect().top() - r.top()).abs() < r.height() / 2.0);
    let share = match position {
        DropPosition::Before => 0.25,
        DropPosition::After => 0.75,
        DropPosition::Onto => 0.5,
    };
    let (x, y) = match along_row {
        true => (r.left() + r.width() * share, r.top() + r.height() / 2.0),
        false => (r.left() + r.width() / 2.0, r.top() + r.height() * share),
    };
    (x as i32, y as i32)
}

/// Has the page put `dragged` where it was asked to go?
fn placed(dragged: &Element, target: &Element, position: DropPosition) -> bool {
    match position {
        DropPosition::Before => dragged.next_element_sibling().as_ref() == Some(target),
        DropPosition::After => target.next_element_sibling().as_ref() == Some(dragged),
        DropPosition::Onto => false,
    }
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
    for d in [2, 5] {
        let at = (start.0 + d, start.1 + d);
        pointer_then_mouse(from, "move", held(at));
        web::tick().await;
    }
    let html5 = drag_event(from, "dragstart", start, &transfer);
    // SortableJS begins its drag on the tick after dragstart.
    web::sleep(START_MS).await;
    let mut over = from.clone();
    let mut at = start;
    let mut stopped_early = false;
    let mut resting_since = None;
    // The travel, then the rest at the drop point: a hand resting there still sends dragover
    // (the browser repeats it), and moves a pixel now and then.
    for step in 1.. {
        at = match step.cmp(&STEPS) {
            std::cmp::Ordering::Greater => (end.0, end.1 + (step % 2) as i32),
            _ => (
                start.0 + (end.0 - start.0) * step as i32 / STEPS as i32,
                start.1 + (end.1 - start.1) * step as i32 / STEPS as i32,
            ),
        };
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
        pause(FRAME_MS).await;
        let Some((target, position)) = aim else {
            if step >= STEPS {
                break;
            }
            continue;
        };
        if placed(from, target, position) {
            stopped_early = true;
            break;
        }
        if step < STEPS {
            continue;
        }
        let rested = web::precise_ms() - *resting_since.get_or_insert_with(web::precise_ms);
        if position == DropPosition::Onto || rested > REST_MS {
            break;
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
    let answer = match aim {
        Some((target, DropPosition::Onto)) => format!("Dragged {what} onto {}.", describe(target)),
        Some((target, position)) => {
            let way = if position == DropPosition::Before {
                "before"
            } else {
                "after"
            };
            let here = stopped_early || placed(from, target, position);
            let note = if here {
                String::new()
            } else {
                " The page did not put it there: check the order (firefox_snapshot), or drop onto the item next to it.".to_owned()
            };
            format!("Dragged {what} {way} {}.{note}", describe(target))
        }
        None => format!(
            "Dragged {what} to the point {}, {} ({}).",
            end.0,
            end.1,
            describe(&last)
        ),
    };
    acted(answer)
}
