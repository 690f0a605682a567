//! How a drag moves, decided apart from the page: where the drop point is on its target, the
//! pointer's path to it, when the travel ends, and what the answer says; [`hand`] carries
//! the whole sequence out over the page. The content script (`content/drag.rs`) reads the
//! boxes and sends the events.

use claudezilla_protocol::args::DropPosition;

/// Steps of the pointer's travel, a frame apart.
pub const STEPS: u32 = 10;
/// A frame, in ms: the pause after each step, for the page's queued work to run.
pub const FRAME_MS: f64 = 16.0;
/// How long the pointer rests at the drop point at most, still moving a little, for the page
/// to put the dragged element where it was asked (a library may ignore moves for a while after
/// each change it made: SortableJS for 30 ms, which a background tab's timers make a second).
pub const REST_MS: f64 = 1_500.0;
/// The wait for a library that starts its drag on the tick after `dragstart` (a timer of the
/// page's: up to a second in a background tab, which ours waits out too).
pub const START_MS: u32 = 32;
/// The first moves after the press, in pixels down and right: libraries start dragging only
/// once the pointer has moved.
pub const NUDGES: [i32; 2] = [2, 5];

/// A box in viewport pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
}

impl Rect {
    /// Its centre, in whole pixels.
    pub fn centre(&self) -> (i32, i32) {
        (
            (self.left + self.width / 2.0) as i32,
            (self.top + self.height / 2.0) as i32,
        )
    }
}

/// The point to drop at for `position` on `target`: its centre, or inside its first or last
/// quarter along the way its list runs — along a row when a sibling (`sibling_tops`) stands
/// level with it, else down a column.
pub fn drop_point(
    target: Rect,
    sibling_tops: impl IntoIterator<Item = f64>,
    position: DropPosition,
) -> (i32, i32) {
    let along_row = sibling_tops
        .into_iter()
        .any(|top| (top - target.top).abs() < target.height / 2.0);
    let share = match position {
        DropPosition::Before => 0.25,
        DropPosition::After => 0.75,
        DropPosition::Onto => 0.5,
    };
    let (x, y) = match along_row {
        true => (
            target.left + target.width * share,
            target.top + target.height / 2.0,
        ),
        false => (
            target.left + target.width / 2.0,
            target.top + target.height * share,
        ),
    };
    (x as i32, y as i32)
}

/// Where the pointer is at `step` (from 1): on the straight line from `start` to `end` until
/// [`STEPS`], then resting at `end`, a pixel up and down as a resting hand moves.
pub fn travel(start: (i32, i32), end: (i32, i32), step: u32) -> (i32, i32) {
    if step > STEPS {
        return (end.0, end.1 + (step % 2) as i32);
    }
    let (step, steps) = (step as i32, STEPS as i32);
    (
        start.0 + (end.0 - start.0) * step / steps,
        start.1 + (end.1 - start.1) * step / steps,
    )
}

/// After a step: go on, or drop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    Move,
    /// The page has put the element where it was asked: drop now.
    Placed,
    Drop,
}

/// What follows `step`. `aim`: the position on an element (none: a point); `placed`: whether
/// the page has put the element there; `rested_ms`: how long the pointer has been at the
/// drop point.
pub fn next(step: u32, aim: Option<DropPosition>, placed: bool, rested_ms: f64) -> Next {
    let Some(position) = aim else {
        return match step >= STEPS {
            true => Next::Drop,
            false => Next::Move,
        };
    };
    if placed {
        return Next::Placed;
    }
    if step < STEPS {
        return Next::Move;
    }
    match position == DropPosition::Onto || rested_ms > REST_MS {
        true => Next::Drop,
        false => Next::Move,
    }
}

/// Whether the page has put the dragged element at `position` next to the target, from the
/// two elements' siblings (`dragged_next`: whether the dragged one's next sibling is the
/// target; `target_next`: whether the target's next sibling is the dragged one).
pub fn placed(position: DropPosition, dragged_next: bool, target_next: bool) -> bool {
    match position {
        DropPosition::Before => dragged_next,
        DropPosition::After => target_next,
        DropPosition::Onto => false,
    }
}

/// Where a drag ended, as its answer says it.
pub enum Dropped<'a> {
    Onto(&'a str),
    Beside {
        target: &'a str,
        position: DropPosition,
        placed: bool,
    },
    At {
        point: (i32, i32),
        over: &'a str,
    },
}

/// The drag's answer: what went where, and when the page did not put it there, what to do.
pub fn answer(what: &str, dropped: Dropped<'_>) -> String {
    match dropped {
        Dropped::Onto(target) => format!("Dragged {what} onto {target}."),
        Dropped::Beside {
            target,
            position,
            placed,
        } => {
            let way = match position {
                DropPosition::Before => "before",
                DropPosition::After | DropPosition::Onto => "after",
            };
            let note = match placed {
                true => "",
                false => {
                    " The page did not put it there: check the order (firefox_snapshot), or drop onto the item next to it."
                }
            };
            format!("Dragged {what} {way} {target}.{note}")
        }
        Dropped::At { point, over } => {
            format!(
                "Dragged {what} to the point {}, {} ({over}).",
                point.0, point.1
            )
        }
    }
}

pub mod hand;

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const CARD: Rect = Rect {
        left: 100.0,
        top: 200.0,
        width: 80.0,
        height: 40.0,
    };

    #[test]
    fn a_column_drops_above_or_below_the_middle_and_a_row_left_or_right() {
        // Siblings above and below: a column.
        let column = [160.0, 240.0];
        assert_eq!(drop_point(CARD, column, DropPosition::Before), (140, 210));
        assert_eq!(drop_point(CARD, column, DropPosition::After), (140, 230));
        assert_eq!(drop_point(CARD, column, DropPosition::Onto), (140, 220));
        // A sibling level with it: a row.
        let row = [205.0];
        assert_eq!(drop_point(CARD, row, DropPosition::Before), (120, 220));
        assert_eq!(drop_point(CARD, row, DropPosition::After), (160, 220));
        // No sibling at all: a column of one.
        assert_eq!(drop_point(CARD, [], DropPosition::Before), (140, 210));
    }

    #[test]
    fn a_point_drops_after_the_travel_and_an_aim_waits_for_the_page() {
        assert_eq!(next(3, None, false, 0.0), Next::Move);
        assert_eq!(next(STEPS, None, false, 0.0), Next::Drop);
        // Seen in place at any step: drop at once.
        assert_eq!(next(2, Some(DropPosition::Before), true, 0.0), Next::Placed);
        // Onto an element: at the end of the travel.
        assert_eq!(
            next(STEPS, Some(DropPosition::Onto), false, 0.0),
            Next::Drop
        );
        // Before or after one: resting until the page moves it, or the rest runs out.
        let after = Some(DropPosition::After);
        assert_eq!(next(STEPS + 4, after, false, 900.0), Next::Move);
        assert_eq!(next(STEPS + 90, after, false, REST_MS + 1.0), Next::Drop);
    }

    #[test]
    fn placed_reads_the_siblings_and_onto_is_never_placed() {
        assert!(placed(DropPosition::Before, true, false));
        assert!(!placed(DropPosition::Before, false, true));
        assert!(placed(DropPosition::After, false, true));
        assert!(!placed(DropPosition::Onto, true, true));
    }

    #[test]
    fn the_answer_says_where_and_when_the_page_did_not_follow() {
        let onto = answer("li \"A\"", Dropped::Onto("div \"Bin\""));
        assert_eq!(onto, "Dragged li \"A\" onto div \"Bin\".");
        let kept = answer(
            "li \"A\"",
            Dropped::Beside {
                target: "li \"C\"",
                position: DropPosition::After,
                placed: false,
            },
        );
        assert!(kept.starts_with("Dragged li \"A\" after li \"C\". The page did not put it there"));
        let at = answer(
            "div \"Card\"",
            Dropped::At {
                point: (10, 20),
                over: "canvas",
            },
        );
        assert_eq!(at, "Dragged div \"Card\" to the point 10, 20 (canvas).");
    }

    proptest! {
        /// The travel starts one step from the start, reaches the end at the last step, never
        /// leaves the box the two points span, and then rests within a pixel of the end.
        #[test]
        fn the_travel_goes_straight_to_the_end_and_rests_there(
            start in (-500i32..3000, -500i32..3000),
            end in (-500i32..3000, -500i32..3000),
            rest in 1u32..200,
        ) {
            prop_assert_eq!(travel(start, end, STEPS), end);
            let (lo_x, hi_x) = (start.0.min(end.0), start.0.max(end.0));
            let (lo_y, hi_y) = (start.1.min(end.1), start.1.max(end.1));
            for step in 1..=STEPS {
                let (x, y) = travel(start, end, step);
                prop_assert!(lo_x <= x && x <= hi_x && lo_y <= y && y <= hi_y);
            }
            let (x, y) = travel(start, end, STEPS + rest);
            prop_assert!(x == end.0 && (y - end.1).abs() <= 1);
        }
    }
}
