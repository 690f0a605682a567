use std::cell::RefCell;

use super::*;

/// Elements by index: each one's box (in the page's coordinates, the page scrolled to
/// [`VIEW`]) and visibility; labels asked are logged.
struct Page {
    elements: Vec<(Rect, bool)>,
    labelled: RefCell<Vec<usize>>,
}

impl Marked for Page {
    type Element = usize;

    fn rect(&self, el: &usize) -> Rect {
        let [x, y, w, h] = self.elements[*el].0;
        [x - VIEW[0], y - VIEW[1], w, h]
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

/// The root element and the body of [`Frame`], by index.
const ROOT: usize = 100;
const BODY: usize = 101;

/// A frame measured: scrolled by `scroll`, its root's and body's sizes given; controls as
/// [`Page`]'s elements (boxes in the page's coordinates), `#n` finds element `n`. Each read
/// is logged.
struct Frame {
    page: Page,
    scroll: [f64; 2],
    root: Option<[i32; 2]>,
    body: Option<[i32; 2]>,
    refused: bool,
    log: RefCell<Vec<String>>,
}

impl Frame {
    fn new(elements: Vec<(Rect, bool)>) -> Self {
        Self {
            page: Page {
                elements,
                labelled: RefCell::default(),
            },
            scroll: [0.0, 100.0],
            root: Some([800, 2000]),
            body: Some([900, 1500]),
            refused: false,
            log: RefCell::default(),
        }
    }

    fn read(&self, what: String) {
        self.log.borrow_mut().push(what);
    }

    fn size(&self, el: usize) -> [i32; 2] {
        let size = if el == ROOT { self.root } else { self.body };
        size.expect("a size read of an element the frame has")
    }
}

impl Marked for Frame {
    type Element = usize;

    fn rect(&self, el: &usize) -> Rect {
        self.read(format!("rect {el}"));
        let [x, y, w, h] = self.page.elements[*el].0;
        [x - self.scroll[0], y - self.scroll[1], w, h]
    }
    fn visible(&self, el: &usize) -> bool {
        self.page.visible(el)
    }
    fn label(&self, el: &usize) -> String {
        self.page.label(el)
    }
}

impl Measured for Frame {
    fn scroll(&self) -> [f64; 2] {
        self.read("scroll".into());
        self.scroll
    }
    fn viewport(&self) -> [f64; 2] {
        self.read("viewport".into());
        [VIEW[2], VIEW[3]]
    }
    fn document_element(&self) -> Option<usize> {
        self.read("root".into());
        self.root.map(|_| ROOT)
    }
    fn body(&self) -> Option<usize> {
        self.read("body".into());
        self.body.map(|_| BODY)
    }
    fn scroll_width(&self, el: &usize) -> i32 {
        self.read(format!("width {el}"));
        self.size(*el)[0]
    }
    fn scroll_height(&self, el: &usize) -> i32 {
        self.read(format!("height {el}"));
        self.size(*el)[1]
    }
    fn resolve(&self, target: &FrameTarget) -> Result<usize, ErrorBody> {
        self.read("resolve".into());
        let FrameTarget::Selector(s) = target else {
            panic!("a ref asked")
        };
        let n = s.trim_start_matches('#').parse().expect("#n");
        Ok(n)
    }
    fn describe(&self, el: &usize) -> String {
        format!("div#{el}")
    }
    fn interactive(&self) -> Result<impl Iterator<Item = usize>, String> {
        self.read("interactive".into());
        match self.refused {
            true => Err("bad selector".into()),
            false => Ok(0..self.page.elements.len()),
        }
    }
}

fn selector(s: &str) -> FrameTarget {
    FrameTarget::Selector(s.into())
}

#[test]
fn a_frame_is_measured_in_order_its_size_the_larger_of_root_and_body() {
    let frame = Frame::new(vec![
        ([10.0, 150.0, 50.0, 20.0], true),
        ([10.0, 900.0, 50.0, 20.0], true),
    ]);
    let m = metrics(&frame, None, false).unwrap();
    assert_eq!((m.viewport, m.scroll), ([800.0, 600.0], [0.0, 100.0]));
    assert_eq!(m.page, [900.0, 2000.0]);
    assert_eq!((m.element, m.marks.len()), (None, 0));
    assert_eq!(
        *frame.log.borrow(),
        [
            "scroll",
            "viewport",
            "root",
            "width 100",
            "body",
            "width 101",
            "height 100",
            "body",
            "height 101"
        ],
        "no element and no control read unasked"
    );
}

#[test]
fn a_frame_with_no_root_or_body_measures_nothing_of_them() {
    let mut frame = Frame::new(Vec::new());
    frame.root = None;
    frame.body = None;
    assert_eq!(metrics(&frame, None, false).unwrap().page, [0.0, 0.0]);
}

#[test]
fn a_captured_element_and_the_marks_are_boxed_in_the_page() {
    let frame = Frame::new(vec![
        ([10.0, 150.0, 50.0, 20.0], true),
        ([10.0, 900.0, 50.0, 20.0], true),
    ]);
    let m = metrics(&frame, Some(&selector("#1")), true).unwrap();
    assert_eq!(m.element, Some([10.0, 900.0, 50.0, 20.0]));
    // An element captured: out of view marked too.
    let boxes: Vec<(&str, Rect)> = m.marks.iter().map(|(l, b)| (l.as_str(), *b)).collect();
    assert_eq!(
        boxes,
        [
            ("e0", [10.0, 150.0, 50.0, 20.0]),
            ("e1", [10.0, 900.0, 50.0, 20.0])
        ]
    );
    let log = frame.log.borrow();
    assert_eq!(
        log[9..],
        ["resolve", "rect 1", "interactive", "rect 0", "rect 1"]
    );
    let in_view = metrics(&Frame::new(frame.page.elements.clone()), None, true).unwrap();
    assert_eq!(in_view.marks.len(), 1, "without one, only those in view");
}

#[test]
fn a_captured_element_with_no_box_or_a_refused_selector_is_an_error() {
    let frame = Frame::new(vec![([10.0, 150.0, 0.0, 20.0], true)]);
    let e = metrics(&frame, Some(&selector("#0")), false).unwrap_err();
    assert_eq!(e.code, ErrorCode::PageError);
    assert_eq!(e.message, "div#0 has no visible box to capture");
    let mut frame = Frame::new(Vec::new());
    frame.refused = true;
    let e = metrics(&frame, None, true).unwrap_err();
    assert_eq!(
        (e.code, e.message.as_str()),
        (ErrorCode::Internal, "bad selector")
    );
}
