use std::cell::{Cell, RefCell};

use claudezilla_protocol::ErrorCode;

use super::*;
use crate::steps::Steps;

/// A chain of boxes, each the parent of the one after it; the first is the document's root.
/// Each box's content overflows it on the axes it is given; it scrolls there, up to its end,
/// where its style (`overflow`, auto unless given) lets it.
struct Fake {
    boxes: Vec<FakeBox>,
    /// Where each box, and the page (last), is scrolled to.
    at: RefCell<Vec<(f64, f64)>>,
    steps: Steps,
    /// The page cancels `wheel` events.
    takes_turns: Cell<bool>,
}

struct FakeBox {
    name: &'static str,
    x: bool,
    y: bool,
    overflow: &'static str,
}

fn fake(boxes: &[(&'static str, bool, bool)]) -> Fake {
    styled(
        &boxes
            .iter()
            .map(|&(n, x, y)| (n, x, y, "auto"))
            .collect::<Vec<_>>(),
    )
}

fn styled(boxes: &[(&'static str, bool, bool, &'static str)]) -> Fake {
    Fake {
        boxes: boxes
            .iter()
            .map(|&(name, x, y, overflow)| FakeBox {
                name,
                x,
                y,
                overflow,
            })
            .collect(),
        at: RefCell::new(vec![(0.0, 0.0); boxes.len() + 1]),
        steps: Steps::default(),
        takes_turns: Cell::new(false),
    }
}

const END: f64 = 100.0;

impl Fake {
    fn slot(&self, el: Option<&usize>) -> usize {
        el.copied().unwrap_or(self.boxes.len())
    }
}

impl Boxes for Fake {
    type Element = usize;

    fn parent(&self, el: &usize) -> Option<usize> {
        el.checked_sub(1)
    }
    fn is_root(&self, el: &usize) -> bool {
        *el == 0
    }
    fn extent(&self, el: &usize, axis: Axis) -> (i32, i32) {
        let b = &self.boxes[*el];
        let overflows = match axis {
            Axis::X => b.x,
            Axis::Y => b.y,
        };
        (if overflows { 300 } else { 200 }, 200)
    }
    fn overflow(&self, el: &usize, axis: Axis) -> Option<String> {
        let style = self.boxes[*el].overflow;
        let (content, size) = self.extent(el, axis);
        assert!(content > size, "the style of a box that fits is not read");
        (!style.is_empty()).then(|| style.into())
    }
    fn position(&self, el: Option<&usize>) -> (f64, f64) {
        let of = el.map_or("page", |e| self.boxes[*e].name);
        self.steps.say(format!("position {of}"));
        self.at.borrow()[self.slot(el)]
    }
    fn scroll_by(&self, el: Option<&usize>, dx: f64, dy: f64) {
        let slot = self.slot(el);
        let mut at = self.at.borrow_mut();
        let (x, y) = at[slot];
        at[slot] = ((x + dx).clamp(0.0, END), (y + dy).clamp(0.0, END));
    }
    fn describe(&self, el: &usize) -> String {
        self.steps.say(format!("name {}", self.boxes[*el].name));
        self.boxes[*el].name.into()
    }
}

/// The viewport is 800 by 600, every box's centre at (7, 9); the last box is at every point
/// inside the viewport, nothing outside it. Box `n` is in view with the page at (0, 50 n).
impl Wheel for Fake {
    fn scroll_into_view(&self, el: &usize, smooth: bool) {
        let name = self.boxes[*el].name;
        self.steps.say(format!("{name} into view, smooth {smooth}"));
        let page = self.boxes.len();
        self.at.borrow_mut()[page] = (0.0, 50.0 * *el as f64);
    }
    fn scroll_to(&self, left: i32, top: i32, smooth: bool) {
        self.steps
            .say(format!("page to {left}, {top}, smooth {smooth}"));
        let page = self.boxes.len();
        self.at.borrow_mut()[page] = (f64::from(left), f64::from(top));
    }
    fn viewport(&self) -> (f64, f64) {
        (800.0, 600.0)
    }
    fn centre(&self, _: &usize) -> (i32, i32) {
        (7, 9)
    }
    fn element_at(&self, x: f64, y: f64) -> Result<usize, ErrorBody> {
        self.steps.say(format!("what is at {x}, {y}"));
        match (0.0..800.0).contains(&x) && (0.0..600.0).contains(&y) {
            true => Ok(self.boxes.len() - 1),
            false => Err(ErrorBody::new(ErrorCode::PageError, "outside")),
        }
    }
    fn wheel_event(&self, el: &usize, at: (i32, i32), dx: f64, dy: f64) -> bool {
        let name = self.boxes[*el].name;
        self.steps
            .say(format!("wheel on {name} at {at:?} by {dx}, {dy}"));
        self.takes_turns.get()
    }
}

#[test]
fn the_nearest_box_scrolling_the_way_turned_moves() {
    // root ▸ list (scrolls down) ▸ strip (scrolls across) ▸ card
    let page = fake(&[
        ("html", true, true),
        ("div#list", false, true),
        ("div#strip", true, false),
        ("div.card", false, false),
    ]);
    assert_eq!(scroll_box(&page, &3, 0.0, 40.0), Some(1));
    assert_eq!(scroll_box(&page, &3, 40.0, 0.0), Some(2));
    assert_eq!(scroll_box(&page, &3, 40.0, 40.0), Some(2));
    assert_eq!(
        scroll_in_place(&page, &3, 0.0, 40.0),
        "div#list scrolled to 0, 40"
    );
    assert_eq!(page.position(None), (0.0, 0.0), "the page stays");
}

#[test]
fn with_no_box_the_page_scrolls_and_the_root_is_never_a_box() {
    let page = fake(&[("html", true, true), ("p", false, false)]);
    assert_eq!(scroll_box(&page, &1, 0.0, 30.0), None);
    assert_eq!(
        scroll_in_place(&page, &1, 0.0, 30.0),
        "the page scrolled to 0, 30"
    );
    assert_eq!(page.position(Some(&0)), (0.0, 0.0));
}

#[test]
fn a_turn_at_the_end_says_nothing_moved() {
    let page = fake(&[("html", true, true), ("div#list", false, true)]);
    page.scroll_by(Some(&1), 0.0, END);
    assert_eq!(
        scroll_in_place(&page, &1, 0.0, 10.0),
        "nothing moved (already at the end)"
    );
}

#[test]
fn answers_say_what_moved() {
    assert_eq!(
        turned(0.0, 120.0, "canvas#map", (50, 60), None),
        "Turned the wheel by (0, 120) over canvas#map at (50, 60): the page handled it (zoom, or its own scrolling)."
    );
    assert_eq!(
        turned(0.0, -5.5, "p", (1, 2), Some("the page scrolled to 0, 10")),
        "Turned the wheel by (0, -5.5) over p at (1, 2): the page scrolled to 0, 10."
    );
    assert_eq!(
        scrolled("x=-, y=300", (0.0, 0.0), (0.0, 300.0), false),
        "Scrolled to x=-, y=300; the page is now at 0, 300."
    );
    assert!(scrolled("button", (0.0, 5.0), (0.0, 5.0), false).contains("nothing moved"));
    assert!(!scrolled("button", (0.0, 5.0), (0.0, 5.0), true).contains("nothing moved"));
    assert_eq!(point_named(None, Some(300)), "x=-, y=300");
    assert_eq!(point_named(Some(-4), None), "x=-4, y=-");
}

#[test]
fn a_box_scrolls_where_its_content_overflows_and_its_style_lets_it() {
    // root ▸ box ▸ card: the box's content overflows it downward, its style alone decides.
    let boxed = |overflow| {
        styled(&[
            ("html", true, true, "auto"),
            ("div#box", false, true, overflow),
            ("div.card", false, false, "auto"),
        ])
    };
    for style in ["auto", "scroll", "overlay"] {
        assert_eq!(scroll_box(&boxed(style), &2, 0.0, 40.0), Some(1), "{style}");
    }
    for style in ["hidden", "visible", "clip", ""] {
        assert_eq!(scroll_box(&boxed(style), &2, 0.0, 40.0), None, "{style:?}");
    }
    // Styled to scroll but fitting its content across: a turn across passes it.
    assert_eq!(scroll_box(&boxed("auto"), &2, 40.0, 0.0), None);
}

#[test]
fn a_scroll_to_a_point_keeps_the_coordinate_not_given() {
    let page = fake(&[("html", true, true)]);
    page.at.borrow_mut()[1] = (30.0, 40.0);
    assert_eq!(
        scroll(&page, None, None, Some(300), false),
        "Scrolled to x=-, y=300; the page is now at 30, 300."
    );
    let steps = [
        "position page",
        "page to 30, 300, smooth false",
        "position page",
    ];
    assert_eq!(page.steps.all(), steps);
    let page = fake(&[("html", true, true)]);
    page.at.borrow_mut()[1] = (30.0, 40.0);
    scroll(&page, None, Some(5), None, true);
    assert_eq!(page.steps.all()[1], "page to 5, 40, smooth true");
}

/// A page scrolled to a fraction of a pixel (a zoomed page, a smooth scroll stopped midway)
/// keeps its nearest pixel, as a point given to a click, a hover or a wheel turn is rounded.
#[test]
fn a_kept_coordinate_rounds_to_the_nearest_pixel() {
    // The scroll asked of a page scrolled to `at`.
    let kept = |at, x, y| {
        let page = fake(&[("html", true, true)]);
        page.at.borrow_mut()[1] = at;
        scroll(&page, None, x, y, false);
        page.steps.all()[1].clone()
    };
    let to = |x, y| format!("page to {x}, {y}, smooth false");
    assert_eq!(kept((30.6, 40.4), None, Some(300)), to(31, 300));
    assert_eq!(kept((30.4, 40.4), None, Some(300)), to(30, 300));
    assert_eq!(kept((30.4, 40.4), Some(5), None), to(5, 40));
    assert_eq!(kept((30.6, 40.5), Some(5), None), to(5, 41));
}

#[test]
fn a_scroll_to_an_element_names_it_after_scrolling_as_asked() {
    let page = fake(&[("html", true, true), ("h2", false, false)]);
    let words = scroll(&page, Some(&1), Some(5), None, false);
    let steps = [
        "position page",
        "h2 into view, smooth false",
        "name h2",
        "position page",
    ];
    assert_eq!(page.steps.all(), steps);
    assert_eq!(words, "Scrolled to h2; the page is now at 0, 50.");
    let page = fake(&[("html", true, true), ("h2", false, false)]);
    page.at.borrow_mut()[2] = (0.0, 50.0);
    let words = scroll(&page, Some(&1), None, None, true);
    assert_eq!(page.steps.all()[1], "h2 into view, smooth true");
    // A smooth scroll has only begun: not said to have gone nowhere.
    assert_eq!(words, "Scrolled to h2; the page is now at 0, 50.");
}

#[test]
fn a_turn_over_an_element_aims_at_its_centre_and_names_it_before_the_page_sees_it() {
    let page = fake(&[("html", true, true), ("div#list", false, true)]);
    let words = turn(&page, Some(1), None, 0.0, 40.0).unwrap();
    assert_eq!(
        page.steps.all(),
        [
            "div#list into view, smooth false",
            "name div#list",
            "wheel on div#list at (7, 9) by 0, 40",
            "position div#list",
            "position div#list",
            "name div#list",
        ]
    );
    assert_eq!(
        words,
        "Turned the wheel by (0, 40) over div#list at (7, 9): div#list scrolled to 0, 40."
    );
}

#[test]
fn a_turn_the_page_takes_moves_nothing_of_ours() {
    let page = fake(&[("html", true, true), ("canvas", false, false)]);
    page.takes_turns.set(true);
    let words = turn(&page, None, Some((10.4, 20.6)), 0.0, 40.0).unwrap();
    assert_eq!(
        page.steps.all(),
        [
            "what is at 10.4, 20.6",
            "name canvas",
            "wheel on canvas at (10, 21) by 0, 40"
        ]
    );
    assert!(words.ends_with("the page handled it (zoom, or its own scrolling)."));
    assert_eq!(page.position(None), (0.0, 0.0));
}

#[test]
fn a_turn_with_no_target_goes_to_the_viewports_centre_and_nowhere_outside() {
    let page = fake(&[("html", true, true), ("p", false, false)]);
    let words = turn(&page, None, None, 0.0, 30.0).unwrap();
    assert_eq!(page.steps.all()[0], "what is at 400, 300");
    assert_eq!(
        words,
        "Turned the wheel by (0, 30) over p at (400, 300): the page scrolled to 0, 30."
    );
    let page = fake(&[("html", true, true)]);
    let refused = turn(&page, None, Some((-1.0, 5.0)), 0.0, 30.0).unwrap_err();
    assert_eq!(refused.message, "outside");
    assert_eq!(page.steps.all(), ["what is at -1, 5"], "no event outside");
}
