use std::cell::{Cell, RefCell};

use super::*;
use crate::at_once::run;
use crate::drag_plan::{REST_MS, STEPS};

/// A page laid out along x: the dragged item left of 50, a gap to 150, the target beyond.
/// The page puts the item in place at the `placed_at`-th look (never: none). Pauses and
/// sleeps move the clock; every event is logged.
struct Page {
    placed_at: Option<u32>,
    looks: Cell<u32>,
    /// Whether a handler cancels `dragstart` (the page does not take an HTML5 drag).
    cancels_start: bool,
    clock: Cell<f64>,
    log: RefCell<Vec<String>>,
}

fn page() -> Page {
    Page {
        placed_at: None,
        looks: Cell::new(0),
        cancels_start: false,
        clock: Cell::new(0.0),
        log: RefCell::default(),
    }
}

impl Page {
    fn said(&self, what: String) {
        self.log.borrow_mut().push(what);
    }

    fn log(&self) -> Vec<String> {
        self.log.borrow().clone()
    }

    fn count(&self, prefix: &str) -> usize {
        self.log().iter().filter(|l| l.starts_with(prefix)).count()
    }
}

impl Hand for Page {
    type Element = &'static str;

    fn under(&self, at: (i32, i32), _fallback: &&'static str) -> &'static str {
        match at.0 {
            ..50 => "item",
            50..150 => "gap",
            _ => "target",
        }
    }

    fn pointer(&self, el: &&'static str, kind: &'static str, at: (i32, i32), buttons: u16) {
        self.said(format!("{kind} {el} {at:?} {buttons}"));
    }

    fn pointer_then_mouse(
        &self,
        el: &&'static str,
        action: &'static str,
        at: (i32, i32),
        buttons: u16,
    ) {
        self.said(format!("{action} {el} {at:?} {buttons}"));
    }

    fn drag_event(&self, el: &&'static str, kind: &'static str, _at: (i32, i32)) -> bool {
        self.said(format!("{kind} {el}"));
        !(kind == "dragstart" && self.cancels_start)
    }

    async fn tick(&self) {}

    async fn sleep(&self, ms: u32) {
        self.clock.set(self.clock.get() + f64::from(ms));
    }

    async fn pause(&self, ms: f64) {
        self.clock.set(self.clock.get() + ms);
    }

    fn now(&self) -> f64 {
        self.clock.get()
    }

    fn placed(&self, _dragged: &&'static str, _target: &&'static str, _at: DropPosition) -> bool {
        self.looks.set(self.looks.get() + 1);
        self.placed_at.is_some_and(|n| self.looks.get() >= n)
    }

    fn describe(&self, el: &&'static str) -> String {
        format!("«{el}»")
    }
}

const START: (i32, i32) = (10, 10);
const END: (i32, i32) = (200, 10);

/// Drags the item from its centre to the target's point, onto or beside the target (none:
/// to the point alone).
fn drag_on(page: &Page, position: Option<DropPosition>) -> String {
    run(drag(
        page,
        &"item",
        START,
        END,
        position.map(|p| (&"target", p)),
    ))
}

#[test]
fn a_drag_presses_nudges_starts_travels_then_drops_and_lets_go() {
    let page = page();
    let said = drag_on(&page, None);
    assert_eq!(said, "Dragged «item» to the point 200, 10 («target»).");
    let log = page.log();
    assert_eq!(
        log[..5],
        [
            "pointerover item (10, 10) 1",
            "down item (10, 10) 1",
            "move item (12, 12) 1",
            "move item (15, 15) 1",
            "dragstart item",
        ]
    );
    assert_eq!(
        log[log.len() - 4..],
        [
            "dragover target",
            "drop target",
            "dragend item",
            "up target (200, 10) 0",
        ]
    );
    // To a point: the travel's steps, no rest.
    assert_eq!(page.count("move"), 2 + STEPS as usize);
    assert_eq!(
        page.now(),
        f64::from(super::super::START_MS) + 16.0 * f64::from(STEPS)
    );
}

#[test]
fn leaving_and_entering_are_sent_only_where_what_is_under_changes() {
    let page = page();
    drag_on(&page, None);
    let crossings: Vec<_> = page
        .log()
        .into_iter()
        .filter(|l| l.starts_with("dragleave") || l.starts_with("dragenter"))
        .collect();
    assert_eq!(
        crossings,
        [
            "dragleave item",
            "dragenter gap",
            "dragleave gap",
            "dragenter target"
        ]
    );
    assert_eq!(
        page.count("dragover"),
        STEPS as usize + 1,
        "each step, and before the drop"
    );
}

#[test]
fn a_page_that_cancels_dragstart_gets_the_pointer_alone() {
    let mut page = page();
    page.cancels_start = true;
    drag_on(&page, None);
    assert_eq!(page.count("drag"), 1, "dragstart only: {:?}", page.log());
    assert_eq!(page.count("drop"), 0);
    assert_eq!(page.log().last().unwrap(), "up target (200, 10) 0");
}

#[test]
fn a_drop_beside_stops_travelling_once_the_page_has_placed_it() {
    let mut page = page();
    page.placed_at = Some(3);
    let said = drag_on(&page, Some(DropPosition::Before));
    assert_eq!(said, "Dragged «item» before «target».");
    assert_eq!(page.count("move"), 2 + 3, "the nudges and three steps");
    assert_eq!(
        page.looks.get(),
        3,
        "placed, so not asked again for the answer"
    );
}

#[test]
fn a_drop_beside_the_page_never_makes_rests_at_the_point_then_says_so() {
    let page = page();
    let said = drag_on(&page, Some(DropPosition::After));
    assert!(said.starts_with("Dragged «item» after «target». The page did not put it there"));
    let rested = page.now() - f64::from(super::super::START_MS) - 16.0 * f64::from(STEPS);
    assert!(
        (REST_MS..REST_MS + 40.0).contains(&rested),
        "rested {rested} ms"
    );
    // Resting, the hand moves a pixel up and down.
    assert!(page.log().iter().any(|l| l == "move target (200, 11) 1"));
}

#[test]
fn a_drop_onto_an_element_drops_at_the_end_of_the_travel() {
    let page = page();
    let said = drag_on(&page, Some(DropPosition::Onto));
    assert_eq!(said, "Dragged «item» onto «target».");
    assert_eq!(page.count("move"), 2 + STEPS as usize);
}
