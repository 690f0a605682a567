use std::collections::HashMap;

use super::*;

/// A page of named elements: each one's parent (a shadow root's host for its top elements),
/// the element at the tested point in the document and in each shadow root, labels, boxes.
#[derive(Default)]
struct Fake {
    parent: HashMap<&'static str, &'static str>,
    top: Option<&'static str>,
    shadow: HashMap<&'static str, &'static str>,
    labels: HashMap<&'static str, Vec<&'static str>>,
    small: Vec<&'static str>,
    transparent: Vec<&'static str>,
    focusable: Vec<&'static str>,
}

impl PointerPage for Fake {
    type Element = &'static str;

    fn viewport(&self) -> (f64, f64) {
        (800.0, 600.0)
    }

    fn top_at(&self, _: f64, _: f64) -> Option<&'static str> {
        self.top
    }

    fn shadow_at(&self, host: &&'static str, _: f64, _: f64) -> Option<&'static str> {
        self.shadow.get(host).copied()
    }

    fn composed_parent(&self, el: &&'static str) -> Option<&'static str> {
        self.parent.get(el).copied()
    }

    fn labels(&self, el: &&'static str) -> Vec<&'static str> {
        self.labels.get(el).cloned().unwrap_or_default()
    }

    fn size(&self, el: &&'static str) -> (f64, f64) {
        match self.small.contains(el) {
            true => (1.0, 1.0),
            false => (100.0, 30.0),
        }
    }

    fn transparent(&self, el: &&'static str) -> bool {
        self.transparent.contains(el)
    }

    fn click_focusable(&self, el: &&'static str) -> bool {
        self.focusable.contains(el)
    }

    fn describe(&self, el: &&'static str) -> String {
        format!("<{el}>")
    }
}

/// `body > form > button > span`, nothing in a shadow root.
fn page(top: &'static str) -> Fake {
    Fake {
        parent: HashMap::from([("form", "body"), ("button", "form"), ("span", "button")]),
        top: Some(top),
        ..Fake::default()
    }
}

#[test]
fn a_point_outside_the_viewport_is_refused_with_its_size() {
    let page = page("button");
    for (x, y) in [(-1.0, 10.0), (10.0, -0.5), (800.0, 10.0), (10.0, 600.0)] {
        let error = element_at(&page, x, y).unwrap_err();
        assert_eq!(error.code, ErrorCode::PageError);
        assert_eq!(
            error.message,
            format!("({x}, {y}) is outside the viewport (800 × 600 CSS pixels)")
        );
        assert_eq!(
            error.hint.as_deref(),
            Some("points are viewport CSS pixels: a screenshot's pixel divided by its scale")
        );
    }
    assert_eq!(element_at(&page, 799.5, 0.0), Ok("button"));
}

#[test]
fn nothing_at_a_point_inside_the_viewport_is_the_same_refusal() {
    let page = Fake::default();
    let error = element_at(&page, 5.0, 6.0).unwrap_err();
    assert_eq!(
        error.message,
        "(5, 6) is outside the viewport (800 × 600 CSS pixels)"
    );
}

#[test]
fn the_point_is_followed_into_nested_shadow_roots() {
    let mut page = page("host");
    page.shadow = HashMap::from([("host", "inner-host"), ("inner-host", "part")]);
    assert_eq!(element_at(&page, 1.0, 1.0), Ok("part"));
}

#[test]
fn a_shadow_root_answering_with_its_host_ends_the_descent() {
    let mut page = page("host");
    page.shadow = HashMap::from([("host", "host")]);
    assert_eq!(element_at(&page, 1.0, 1.0), Ok("host"));
}

#[test]
fn a_click_lands_on_the_innermost_part_of_the_element() {
    assert_eq!(landing(&page("span"), &"button", (5, 5)), Ok("span"));
    assert_eq!(landing(&page("button"), &"button", (5, 5)), Ok("button"));
}

#[test]
fn a_click_through_a_shadow_root_lands_inside_its_host() {
    let mut page = page("host");
    page.parent.insert("part", "host");
    page.shadow = HashMap::from([("host", "part")]);
    assert_eq!(landing(&page, &"host", (5, 5)), Ok("part"));
}

#[test]
fn a_click_on_a_fields_label_lands_on_the_label() {
    let mut page = page("box");
    page.parent.insert("box", "label");
    page.labels.insert("checkbox", vec!["other", "label"]);
    assert_eq!(landing(&page, &"checkbox", (5, 5)), Ok("box"));
}

#[test]
fn a_covering_ancestor_keeps_the_element() {
    // The button lets the pointer through to its form.
    assert_eq!(landing(&page("form"), &"button", (5, 5)), Ok("button"));
}

#[test]
fn a_control_drawn_over_by_its_own_styling_keeps_the_element() {
    let mut tiny = page("overlay");
    tiny.small.push("button");
    assert_eq!(landing(&tiny, &"button", (5, 5)), Ok("button"));
    let mut hidden = page("overlay");
    hidden.transparent.push("button");
    assert_eq!(landing(&hidden, &"button", (5, 5)), Ok("button"));
}

#[test]
fn a_point_outside_the_viewport_keeps_the_element() {
    assert_eq!(landing(&page("overlay"), &"button", (-3, 5)), Ok("button"));
}

#[test]
fn something_else_at_the_centre_is_said_not_clicked() {
    let error = landing(&page("banner"), &"button", (12, 34)).unwrap_err();
    assert_eq!(error.code, ErrorCode::PageError);
    assert_eq!(
        error.message,
        "<button> is covered at its centre (12, 34) by <banner>: a person's click would land there, so nothing was clicked"
    );
    assert!(
        error
            .hint
            .unwrap()
            .starts_with("close or dismiss what covers it")
    );
}

#[test]
fn a_press_focuses_the_nearest_focusable_ancestor() {
    let mut page = page("span");
    page.focusable = vec!["button", "form"];
    assert_eq!(press_focuses(&page, &"span"), Some("button"));
    assert_eq!(press_focuses(&page, &"form"), Some("form"));
    page.focusable.clear();
    assert_eq!(press_focuses(&page, &"span"), None);
}
