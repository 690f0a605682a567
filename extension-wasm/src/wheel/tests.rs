use std::cell::RefCell;

use super::*;

/// A chain of boxes, each the parent of the one after it; the first is the document's root.
/// Each box's content overflows it on the axes it is given; it scrolls there, up to its end,
/// where its style (`overflow`, auto unless given) lets it.
struct Fake {
    boxes: Vec<FakeBox>,
    /// Where each box, and the page (last), is scrolled to.
    at: RefCell<Vec<(f64, f64)>>,
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
        self.at.borrow()[self.slot(el)]
    }
    fn scroll_by(&self, el: Option<&usize>, dx: f64, dy: f64) {
        let slot = self.slot(el);
        let mut at = self.at.borrow_mut();
        let (x, y) = at[slot];
        at[slot] = ((x + dx).clamp(0.0, END), (y + dy).clamp(0.0, END));
    }
    fn describe(&self, el: &usize) -> String {
        self.boxes[*el].name.into()
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
