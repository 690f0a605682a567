use std::cell::RefCell;
use std::collections::HashMap;

use super::*;

/// Elements by name, each as the browser would answer of it alone; every question asked is
/// logged (`seen p`, `visibility row`).
#[derive(Default)]
struct Page {
    elements: HashMap<&'static str, Element>,
    asked: RefCell<Vec<String>>,
}

#[derive(Clone, Copy)]
struct Element {
    seen: bool,
    rendered: bool,
    /// `content-visibility: hidden`.
    skips: bool,
    box_less: Option<bool>,
    parent: Option<&'static str>,
}

const SEEN: Element = Element {
    seen: true,
    rendered: true,
    skips: false,
    box_less: None,
    parent: None,
};
const INVISIBLE: Element = Element {
    seen: false,
    ..SEEN
};
const NOT_RENDERED: Element = Element {
    seen: false,
    rendered: false,
    ..SEEN
};
/// `display: contents`, its own text visible.
const CONTENTS: Element = Element {
    box_less: Some(true),
    ..NOT_RENDERED
};

impl Page {
    fn with(mut self, name: &'static str, el: Element, parent: Option<&'static str>) -> Self {
        self.elements.insert(name, Element { parent, ..el });
        self
    }

    fn ask(&self, question: &str, el: &str) {
        self.asked.borrow_mut().push(format!("{question} {el}"));
    }

    fn asked(&self) -> Vec<String> {
        self.asked.take()
    }
}

impl Probe for Page {
    type Element = &'static str;
    /// The element whose style it is.
    type Style = &'static str;

    fn seen(&self, el: &&'static str) -> bool {
        self.ask("seen", el);
        self.elements[el].seen
    }
    fn rendered(&self, el: &&'static str) -> bool {
        self.ask("rendered", el);
        self.elements[el].rendered
    }
    fn content_shown(&self, el: &&'static str) -> bool {
        self.ask("content", el);
        !self.elements[el].skips
    }
    fn box_less(&self, el: &&'static str) -> Option<&'static str> {
        self.ask("display", el);
        self.elements[el].box_less.map(|_| *el)
    }
    fn text_visible(&self, el: &&'static str) -> bool {
        self.ask("visibility", el);
        self.elements[el].box_less == Some(true)
    }
    fn parent(&self, el: &&'static str) -> Option<&'static str> {
        self.elements[el].parent
    }
}

#[test]
fn the_browser_tells_rendered_and_invisible_elements_alone() {
    let page = Page::default()
        .with("p", SEEN, None)
        .with("span", INVISIBLE, Some("p"))
        .with("none", NOT_RENDERED, Some("p"));
    assert_eq!(showing(&page, &"p"), Showing::Rendered);
    assert_eq!(showing(&page, &"span"), Showing::Invisible);
    assert_eq!(showing(&page, &"none"), Showing::NotRendered);
}

#[test]
fn a_box_less_element_shows_as_its_nearest_boxed_ancestor_does() {
    let hidden_text = Element {
        box_less: Some(false),
        ..CONTENTS
    };
    let page = Page::default()
        .with("main", SEEN, None)
        .with("row", CONTENTS, Some("main"))
        .with("cells", hidden_text, Some("row"))
        .with("gone", NOT_RENDERED, Some("main"))
        .with("inside", CONTENTS, Some("gone"))
        .with("top", CONTENTS, None);
    assert_eq!(showing(&page, &"row"), Showing::BoxLess { seen: true });
    // Through another box-less element, up to the rendered one.
    assert_eq!(showing(&page, &"cells"), Showing::BoxLess { seen: false });
    // Inside an element not rendered, nothing shows, whatever it says of itself.
    assert_eq!(showing(&page, &"inside"), Showing::NotRendered);
    // With no ancestor at all (a detached part), it is taken as shown.
    assert_eq!(showing(&page, &"top"), Showing::BoxLess { seen: true });
}

#[test]
fn a_box_less_element_inside_skipped_content_shows_nothing() {
    // `<div style="content-visibility: hidden"><span style="display: contents">`: the div
    // is seen (an empty box), and `checkVisibility` says nothing of the span's words.
    let skipping = Element {
        skips: true,
        ..SEEN
    };
    let page = Page::default()
        .with("div", skipping, None)
        .with("span", CONTENTS, Some("div"));
    assert_eq!(showing(&page, &"span"), Showing::NotRendered);
}

#[test]
fn the_walk_asks_ancestors_only_how_they_display_and_the_element_its_visibility_last() {
    let page = Page::default()
        .with("main", SEEN, None)
        .with("row", CONTENTS, Some("main"))
        .with("cells", CONTENTS, Some("row"))
        .with("gone", NOT_RENDERED, Some("main"))
        .with("inside", CONTENTS, Some("gone"));
    assert_eq!(showing(&page, &"cells"), Showing::BoxLess { seen: true });
    assert_eq!(
        page.asked(),
        [
            "seen cells",
            "rendered cells",
            "display cells",
            "rendered row",
            "display row",
            "rendered main",
            "content main",
            "visibility cells",
        ]
    );
    // Inside an element not rendered, its own visibility is never asked.
    assert_eq!(showing(&page, &"inside"), Showing::NotRendered);
    assert_eq!(
        page.asked(),
        [
            "seen inside",
            "rendered inside",
            "display inside",
            "rendered gone",
            "display gone",
        ]
    );
    // A rendered element is asked one question.
    assert_eq!(showing(&page, &"main"), Showing::Rendered);
    assert_eq!(page.asked(), ["seen main"]);
}
