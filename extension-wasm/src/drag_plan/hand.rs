//! The drag carried out as a hand makes it, over [`Hand`] (the content script's page, or the
//! tests' own): the press, a few pixels of movement, HTML5 `dragstart`, the travel in steps
//! with mouse, pointer and drag events at each (leaving and entering only where what is under
//! the pointer changes), the rest at the drop point, then the drop and the release. The plan's
//! pieces are [`super`]'s.

use claudezilla_protocol::args::DropPosition;

use super::{Dropped, Next};

/// What a drag does to the page.
pub trait Hand {
    type Element: Clone + PartialEq;

    /// What the pointer is over at `at` (the point's element, else `fallback`).
    fn under(&self, at: (i32, i32), fallback: &Self::Element) -> Self::Element;
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
    /// Lets `ms` of real time pass, the page's work running meanwhile.
    fn pause(&self, ms: f64) -> impl Future<Output = ()>;
    fn now(&self) -> f64;
    /// Whether the page has put `dragged` at `position` next to `target`.
    fn placed(
        &self,
        dragged: &Self::Element,
        target: &Self::Element,
        position: DropPosition,
    ) -> bool;
    fn describe(&self, el: &Self::Element) -> String;
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
        let now = hand.under(at, &over);
        hand.pointer_then_mouse(&now, "move", at, HELD);
        if html5 {
            if now != over {
                hand.drag_event(&over, "dragleave", at);
                hand.drag_event(&now, "dragenter", at);
            }
            hand.drag_event(&now, "dragover", at);
        }
        over = now;
        hand.pause(super::FRAME_MS).await;
        let placed_now = aim.is_some_and(|(target, position)| hand.placed(from, target, position));
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
    let last = hand.under(at, &over);
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
            placed: stopped_early || hand.placed(from, target, position),
        },
    };
    super::answer(&what, dropped)
}

#[cfg(test)]
mod tests;
