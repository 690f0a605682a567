use std::cell::RefCell;

use super::*;

/// Elements by index: each one's box and visibility; labels asked are logged.
struct Page {
    elements: Vec<(Rect, bool)>,
    labelled: RefCell<Vec<usize>>,
}

impl Marked for Page {
    type Element = usize;

    fn rect(&self, el: &usize) -> Rect {
        self.elements[*el].0
    }
    fn visible(&self, el: &usize) -> bool {
        self.elements[*el].1
    }
    fn label(&self, el: &usize) -> String {
        self.labelled.borrow_mut().push(*el);
        format!("e{el}")
    }
}

const VIEW: Rect = [0.0, 100.0, 800.0, 600.0];

#[test]
fn a_box_is_in_view_where_it_reaches_into_it() {
    assert!(overlaps([10.0, 90.0, 20.0, 20.0], VIEW));
    assert!(
        !overlaps([10.0, 80.0, 20.0, 20.0], VIEW),
        "ends at the view's top"
    );
    assert!(
        !overlaps([800.0, 200.0, 20.0, 20.0], VIEW),
        "starts at its right"
    );
    assert!(overlaps([-5.0, 650.0, 10.0, 500.0], VIEW));
}

#[test]
fn marks_are_visible_controls_with_a_box_in_view() {
    let page = Page {
        elements: vec![
            ([10.0, 150.0, 50.0, 20.0], true),
            ([10.0, 150.0, 0.0, 20.0], true),
            ([10.0, 900.0, 50.0, 20.0], true),
            ([10.0, 200.0, 50.0, 20.0], false),
            ([10.0, 250.0, 50.0, 20.0], true),
        ],
        labelled: RefCell::default(),
    };
    let found = marks(&page, 0..5, VIEW, false);
    let names: Vec<&str> = found.iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(names, ["e0", "e4"]);
    assert_eq!(
        *page.labelled.borrow(),
        [0, 4],
        "only the marked are labelled"
    );
    let anywhere = marks(&page, 0..5, VIEW, true);
    assert_eq!(
        anywhere.len(),
        3,
        "out of view too, when an element is captured"
    );
}

#[test]
fn marks_stop_at_the_most_a_screenshot_carries() {
    let page = Page {
        elements: vec![([0.0, 100.0, 10.0, 10.0], true); 100],
        labelled: RefCell::default(),
    };
    let pulled = std::cell::Cell::new(0);
    let candidates = (0..100).inspect(|_| pulled.set(pulled.get() + 1));
    assert_eq!(marks(&page, candidates, VIEW, false).len(), MAX_MARKS);
    assert_eq!(page.labelled.borrow().len(), MAX_MARKS);
    assert_eq!(
        pulled.get(),
        MAX_MARKS,
        "no candidate read past the last mark"
    );
}

#[test]
fn an_element_with_no_box_is_not_captured() {
    assert_eq!(
        captured([1.0, 2.0, 3.0, 4.0], String::new).unwrap(),
        [1.0, 2.0, 3.0, 4.0]
    );
    let e = captured([1.0, 2.0, 0.5, 40.0], || "div#empty".into()).unwrap_err();
    assert_eq!(e.code, ErrorCode::PageError);
    assert_eq!(e.message, "div#empty has no visible box to capture");
}
