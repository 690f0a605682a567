use std::cell::{Cell, RefCell};

use claudezilla_protocol::ErrorCode;

use super::*;
use crate::at_once::run;
use crate::drag_plan::{REST_MS, STEPS};

/// A page laid out along x: the dragged item left of 50, a gap to 150, the target beyond,
/// nothing from 1000 (nor, with a `hole`, from 100 to 120); each box 20 high and 100 wide
/// from where it starts, the gap before the target and, with a `tail`, one more after it,
/// level with it. The page puts the item in place at the `placed_at`-th look at the item's
/// next sibling (never: none): from then on, the item is the target's next and the target the
/// item's. Pauses and sleeps move the clock; every event and read of the page but its names
/// and clock is logged.
struct Page {
    placed_at: Option<u32>,
    looks: Cell<u32>,
    hole: bool,
    tail: bool,
    /// Whether a handler cancels `dragstart` (the page does not take an HTML5 drag).
    cancels_start: bool,
    clock: Cell<f64>,
    log: RefCell<Vec<String>>,
}

fn page() -> Page {
    Page {
        placed_at: None,
        looks: Cell::new(0),
        hole: false,
        tail: false,
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

    fn scroll_into_view(&self, el: &&'static str) {
        self.said(format!("into view {el}"));
    }

    fn leave(&self) {
        self.said("leave".into());
    }

    fn rect(&self, el: &&'static str) -> Rect {
        self.said(format!("box of {el}"));
        let left = match *el {
            "item" => 0.0,
            "gap" => 50.0,
            _ => 150.0,
        };
        Rect {
            left,
            top: 0.0,
            width: 100.0,
            height: 20.0,
        }
    }

    fn previous(&self, el: &&'static str) -> Option<&'static str> {
        self.said(format!("before {el}"));
        (*el == "target").then_some("gap")
    }

    fn next(&self, el: &&'static str) -> Option<&'static str> {
        self.said(format!("after {el}"));
        if *el == "item" {
            self.looks.set(self.looks.get() + 1);
        }
        let placed = self.placed_at.is_some_and(|n| self.looks.get() >= n);
        match (*el, placed) {
            ("item", true) => Some("target"),
            ("target", true) => Some("item"),
            ("target", false) if self.tail => Some("tail"),
            _ => None,
        }
    }

    fn element_at(&self, x: f64, y: f64) -> Result<&'static str, ErrorBody> {
        self.said(format!("what is at ({x}, {y})"));
        match x {
            100.0..120.0 if self.hole => Err(ErrorBody::new(ErrorCode::PageError, "a hole")),
            ..50.0 => Ok("item"),
            50.0..150.0 => Ok("gap"),
            150.0..1000.0 => Ok("target"),
            _ => Err(ErrorBody::new(ErrorCode::PageError, "nothing there")),
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

    async fn tick(&self) {
        self.clock.set(self.clock.get() + TICK_MS);
    }

    async fn sleep(&self, ms: u32) {
        self.clock.set(self.clock.get() + f64::from(ms));
    }

    fn now(&self) -> f64 {
        self.clock.get()
    }

    fn describe(&self, el: &&'static str) -> String {
        format!("«{el}»")
    }
}

/// A tick of the page's work, on the fake's clock: a frame is four.
const TICK_MS: f64 = 4.0;
/// The ticks of a drag outside its travel: after the press, after each nudge, after the
/// release.
const OTHER_TICKS_MS: f64 = 4.0 * TICK_MS;

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
        f64::from(super::super::START_MS) + 16.0 * f64::from(STEPS) + OTHER_TICKS_MS
    );
}

/// The drag's leaving and entering, in order.
fn crossings(page: &Page) -> Vec<String> {
    page.log()
        .into_iter()
        .filter(|l| l.starts_with("dragleave") || l.starts_with("dragenter"))
        .collect()
}

const CROSSINGS: [&str; 4] = [
    "dragleave item",
    "dragenter gap",
    "dragleave gap",
    "dragenter target",
];

#[test]
fn leaving_and_entering_are_sent_only_where_what_is_under_changes() {
    let page = page();
    drag_on(&page, None);
    assert_eq!(crossings(&page), CROSSINGS);
    assert_eq!(
        page.count("dragover"),
        STEPS as usize + 1,
        "each step, and before the drop"
    );
}

#[test]
fn where_nothing_is_found_the_pointer_stays_over_what_it_was_over() {
    let mut page = page();
    page.hole = true;
    drag_on(&page, None);
    let log = page.log();
    assert!(log.iter().any(|l| l == "move gap (105, 10) 1"), "{log:?}");
    assert_eq!(crossings(&page), CROSSINGS, "none at the hole");
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
    let rested =
        page.now() - f64::from(super::super::START_MS) - 16.0 * f64::from(STEPS) - OTHER_TICKS_MS;
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

/// Drags the item to `to` by the whole flow, the ends found first.
fn drag_landing(page: &Page, to: Landing<&'static str>) -> Result<String, ErrorBody> {
    run(drag_to(page, &"item", &to))
}

#[test]
fn a_drag_to_a_point_rounds_it_as_a_click_does() {
    let page = page();
    let point = Point::new(199.4, 10.5).unwrap();
    let said = drag_landing(&page, Landing::At(point)).unwrap();
    assert_eq!(said, "Dragged «item» to the point 199, 11 («target»).");
    let log = page.log();
    assert_eq!(
        log[..5],
        [
            "into view item",
            "leave",
            "box of item",
            "what is at (199.4, 10.5)",
            "pointerover item (50, 10) 1"
        ]
    );
    assert_eq!(log.last().unwrap(), "up target (199, 11) 0");
}

#[test]
fn a_drag_to_a_point_where_nothing_is_refuses_before_any_event() {
    let page = page();
    let point = Point::new(1500.0, 10.0).unwrap();
    let refused = drag_landing(&page, Landing::At(point)).unwrap_err();
    assert_eq!(refused.message, "nothing there");
    let looked = [
        "into view item",
        "leave",
        "box of item",
        "what is at (1500, 10)",
    ];
    assert_eq!(page.log(), looked);
}

#[test]
fn a_drop_on_a_target_aims_inside_it_reading_its_siblings_first() {
    let page = page();
    let said = drag_landing(&page, Landing::On("target", DropPosition::Before)).unwrap();
    assert!(
        said.starts_with("Dragged «item» before «target»."),
        "{said}"
    );
    let log = page.log();
    // The gap before the target stands level with it: a row, the first quarter of its width.
    assert_eq!(
        log[..8],
        [
            "into view item",
            "leave",
            "box of item",
            "before target",
            "after target",
            "box of target",
            "box of gap",
            "pointerover item (50, 10) 1",
        ]
    );
    assert!(
        log.iter().any(|l| l == "move target (175, 10) 1"),
        "{log:?}"
    );
}

#[test]
fn a_siblings_box_is_read_only_while_none_before_it_stood_level() {
    let mut page = page();
    page.tail = true;
    drag_landing(&page, Landing::On("target", DropPosition::After)).unwrap();
    let log = page.log();
    let boxes: Vec<_> = log.iter().filter(|l| l.starts_with("box of")).collect();
    assert_eq!(boxes, ["box of item", "box of target", "box of gap"]);
}

#[test]
fn a_pause_lasts_its_time_at_least_in_whole_ticks() {
    let page = page();
    run(pause(&page, 10.0));
    assert_eq!(page.now(), 12.0);
    run(pause(&page, 0.0));
    assert_eq!(page.now(), 12.0, "no time, no tick");
}
