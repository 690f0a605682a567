//! The drag carried out as a hand makes it, over [`Hand`] (the content script's page, or the
//! tests' own): the press, a few pixels of movement, HTML5 `dragstart`, the travel in steps
//! with mouse, pointer and drag events at each (leaving and entering only where what is under
//! the pointer changes), the rest at the drop point, then the drop and the release; before it
//! (`drag_to`), the dragged element scrolled into view and the ends of the drag found: its
//! centre, and the drop point on the target or the point given (rounded, as a click's is,
//! once something is found there). The plan's pieces are [`super`]'s.

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::args::{DropPosition, Point};

use super::{Dropped, Next, Rect};

/// Where a drag ends.
pub enum Landing<E> {
    On(E, DropPosition),
    At(Point),
}

/// What a drag does to the page.
pub trait Hand {
    type Element: Clone + PartialEq;

    /// Scrolls `el` to the viewport's centre, at once.
    fn scroll_into_view(&self, el: &Self::Element);
    /// The pointer leaves what it was over (the `:hover` styles forced there go).
    fn leave(&self);
    /// Its box in the viewport.
    fn rect(&self, el: &Self::Element) -> Rect;
    /// Its element siblings, before and after it.
    fn previous(&self, el: &Self::Element) -> Option<Self::Element>;
    fn next(&self, el: &Self::Element) -> Option<Self::Element>;
    /// The innermost element at a viewport point.
    fn element_at(&self, x: f64, y: f64) -> Result<Self::Element, ErrorBody>;
    /// A pointer event alone (`buttons`: those held).
    fn pointer(&self, el: &Self::Element, kind: &'static str, at: (i32, i32), buttons: u16);
    /// A pointer event, then the mouse event it stands for (`action`: down, move, up).
    fn pointer_then_mouse(
        &self,
        el: &Self::Element,
        action: &'static str,
        at: (i32, i32),
        buttons: u16,
    );
    /// An HTML5 drag event carrying the drag's data; false when a handler cancelled it.
    fn drag_event(&self, el: &Self::Element, kind: &'static str, at: (i32, i32)) -> bool;
    /// One task of the page's queued work runs.
    fn tick(&self) -> impl Future<Output = ()>;
    fn sleep(&self, ms: u32) -> impl Future<Output = ()>;
    /// The clock, precise (`performance.now()`).
    fn now(&self) -> f64;
    fn describe(&self, el: &Self::Element) -> String;
}

/// Drags `from` to `to`: scrolled into view, the hover left, from its centre to the drop
/// point on the target or to the point (refused when nothing is there); the answer says what
/// went where.
pub async fn drag_to<H: Hand>(
    hand: &H,
    from: &H::Element,
    to: &Landing<H::Element>,
) -> Result<String, ErrorBody> {
    hand.scroll_into_view(from);
    hand.leave();
    let start = hand.rect(from).centre();
    let (end, aim) = match to {
        Landing::On(target, position) => (
            drop_point(hand, target, *position),
            Some((target, *position)),
        ),
        Landing::At(point) => {
            let (x, y) = (point.x(), point.y());
            hand.element_at(x, y)?;
            ((x.round() as i32, y.round() as i32), None)
        }
    };
    Ok(drag(hand, from, start, end, aim).await)
}

/// The drop point for `position` on `target` ([`super::drop_point`]); a sibling's box is read
/// only while none before it stood level with the target.
fn drop_point<H: Hand>(hand: &H, target: &H::Element, position: DropPosition) -> (i32, i32) {
    let siblings = [hand.previous(target), hand.next(target)];
    let tops = siblings.into_iter().flatten().map(|s| hand.rect(&s).top);
    super::drop_point(hand.rect(target), tops, position)
}

/// Lets `ms` of real time pass in ticks, the page's work running meanwhile (a timer would
/// wait a second in a background tab).
async fn pause<H: Hand>(hand: &H, ms: f64) {
    let from = hand.now();
    while hand.now() - from < ms {
        hand.tick().await;
    }
}

/// What the pointer is over at `at`: the point's element, else `fallback`.
fn under<H: Hand>(hand: &H, at: (i32, i32), fallback: &H::Element) -> H::Element {
    hand.element_at(f64::from(at.0), f64::from(at.1))
        .unwrap_or_else(|_| fallback.clone())
}

/// Whether the page has put `dragged` at `position` next to `target` ([`super::placed`]).
fn placed<H: Hand>(
    hand: &H,
    dragged: &H::Element,
    target: &H::Element,
    position: DropPosition,
) -> bool {
    super::placed(
        position,
        hand.next(dragged).as_ref() == Some(target),
        hand.next(target).as_ref() == Some(dragged),
    )
}

/// Drags `from` (its centre at `start`) to `end`, on `aim` (an element and where on it; none:
/// a point); the answer says what went where.
pub async fn drag<H: Hand>(
    hand: &H,
    from: &H::Element,
    start: (i32, i32),
    end: (i32, i32),
    aim: Option<(&H::Element, DropPosition)>,
) -> String {
    const HELD: u16 = 1;
    hand.pointer(from, "pointerover", start, HELD);
    hand.pointer_then_mouse(from, "down", start, HELD);
    hand.tick().await;
    // A few pixels first: libraries start dragging only once the pointer has moved.
    for d in super::NUDGES {
        hand.pointer_then_mouse(from, "move", (start.0 + d, start.1 + d), HELD);
        hand.tick().await;
    }
    let html5 = hand.drag_event(from, "dragstart", start);
    // SortableJS begins its drag on the tick after dragstart.
    hand.sleep(super::START_MS).await;
    let mut over = from.clone();
    let mut at = start;
    let mut stopped_early = false;
    let mut resting_since = None;
    // The travel, then the rest at the drop point: a hand resting there still sends dragover
    // (the browser repeats it), and moves a pixel now and then.
    for step in 1.. {
        at = super::travel(start, end, step);
        let now = under(hand, at, &over);
        hand.pointer_then_mouse(&now, "move", at, HELD);
        if html5 {
            if now != over {
                hand.drag_event(&over, "dragleave", at);
                hand.drag_event(&now, "dragenter", at);
            }
            hand.drag_event(&now, "dragover", at);
        }
        over = now;
        pause(hand, super::FRAME_MS).await;
        let placed_now = aim.is_some_and(|(target, position)| placed(hand, from, target, position));
        let rested = match step >= super::STEPS {
            true => hand.now() - *resting_since.get_or_insert_with(|| hand.now()),
            false => 0.0,
        };
        match super::next(step, aim.map(|(_, p)| p), placed_now, rested) {
            Next::Move => continue,
            Next::Placed => {
                stopped_early = true;
                break;
            }
            Next::Drop => break,
        }
    }
    let last = under(hand, at, &over);
    if html5 {
        hand.drag_event(&last, "dragover", at);
        hand.drag_event(&last, "drop", at);
        hand.drag_event(from, "dragend", at);
    }
    hand.pointer_then_mouse(&last, "up", at, 0);
    hand.tick().await;
    let what = hand.describe(from);
    let Some((target, position)) = aim else {
        let over = hand.describe(&last);
        return super::answer(
            &what,
            Dropped::At {
                point: end,
                over: &over,
            },
        );
    };
    let name = hand.describe(target);
    let dropped = match position {
        DropPosition::Onto => Dropped::Onto(&name),
        DropPosition::Before | DropPosition::After => Dropped::Beside {
            target: &name,
            position,
            placed: stopped_early || placed(hand, from, target, position),
        },
    };
    super::answer(&what, dropped)
}

#[cfg(test)]
mod tests;
