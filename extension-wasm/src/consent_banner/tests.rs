use std::cell::RefCell;
use std::collections::HashMap;

use super::*;

/// A page of numbered elements: what selectors match, containers with their buttons, and
/// each element's facts; it keeps what was clicked.
#[derive(Default)]
struct Fake {
    by_selector: HashMap<&'static str, usize>,
    containers: Vec<(usize, Vec<usize>)>,
    hidden: Vec<usize>,
    disabled: Vec<usize>,
    id: HashMap<usize, &'static str>,
    text: HashMap<usize, &'static str>,
    value: HashMap<usize, &'static str>,
    aria_label: HashMap<usize, &'static str>,
    clicked: RefCell<Vec<usize>>,
}

impl Banners for Fake {
    type Element = usize;

    fn query(&self, selector: &str) -> Option<usize> {
        self.by_selector.get(selector).copied()
    }

    fn containers(&self) -> Vec<usize> {
        self.containers.iter().map(|(c, _)| *c).collect()
    }

    fn buttons(&self, container: &usize) -> Vec<usize> {
        let found = self.containers.iter().find(|(c, _)| c == container);
        found.map(|(_, b)| b.clone()).unwrap_or_default()
    }

    fn visible(&self, el: &usize) -> bool {
        !self.hidden.contains(el)
    }

    fn disabled(&self, el: &usize) -> bool {
        self.disabled.contains(el)
    }

    /// Its text content is its own text, then its buttons'.
    fn about(&self, el: &usize) -> [String; 3] {
        let id = self.id.get(el).copied().unwrap_or_default();
        let inside = std::iter::once(*el).chain(self.buttons(el));
        let text: String = inside.filter_map(|e| self.text.get(&e).copied()).collect();
        [id.into(), String::new(), text]
    }

    fn shown_text(&self, el: &usize) -> String {
        self.text.get(el).copied().unwrap_or_default().into()
    }

    fn attribute(&self, el: &usize, name: &str) -> Option<String> {
        let attributes = match name {
            "value" => &self.value,
            "aria-label" => &self.aria_label,
            _ => return None,
        };
        attributes.get(el).map(|v| (*v).to_owned())
    }

    fn click(&self, el: &usize) {
        self.clicked.borrow_mut().push(*el);
    }

    fn describe(&self, el: &usize) -> String {
        format!("button#{el}")
    }
}

/// A cookie banner (1) with a settings button (2), a reject button (3) and an accept
/// button (4).
fn banner() -> Fake {
    Fake {
        containers: vec![(1, vec![2, 3, 4])],
        id: HashMap::from([(1, "cookie-notice")]),
        text: HashMap::from([
            (2, "Cookie settings"),
            (3, "Reject all"),
            (4, "  Accept\n all "),
        ]),
        ..Fake::default()
    }
}

#[test]
fn a_known_managers_button_is_pressed_first() {
    let mut page = banner();
    page.by_selector.insert("#didomi-notice-agree-button", 9);
    assert_eq!(
        dismiss(&page),
        "Dismissed the consent banner: clicked Didomi's accept button button#9."
    );
    assert_eq!(*page.clicked.borrow(), [9]);
}

#[test]
fn a_known_button_hidden_or_disabled_is_passed_over() {
    let mut page = banner();
    page.by_selector.insert("#onetrust-accept-btn-handler", 8);
    page.by_selector.insert(".cc-allow", 9);
    page.hidden.push(8);
    page.disabled.push(9);
    assert_eq!(
        dismiss(&page),
        "Dismissed the consent banner: clicked the banner's accept button button#4."
    );
    assert_eq!(*page.clicked.borrow(), [4]);
}

#[test]
fn the_best_accept_button_of_a_banner_is_pressed_never_a_reject() {
    let mut page = banner();
    page.containers[0].1.push(5);
    page.text.insert(5, "OK");
    // "accept all" ranks above "ok", whatever their order in the banner.
    page.containers[0].1.reverse();
    dismiss(&page);
    assert_eq!(*page.clicked.borrow(), [4]);
}

#[test]
fn a_button_without_words_is_read_by_its_value_then_its_label() {
    let mut page = banner();
    page.containers[0].1 = vec![6, 7];
    page.value.insert(6, "Reject");
    page.text.insert(7, " ");
    page.aria_label.insert(7, "Accept cookies");
    dismiss(&page);
    assert_eq!(*page.clicked.borrow(), [7]);
}

#[test]
fn only_visible_containers_about_consent_count() {
    // A newsletter's popup, with an "OK" that would rank as an accept.
    let other = Fake {
        containers: vec![(1, vec![2, 3])],
        id: HashMap::from([(1, "newsletter")]),
        text: HashMap::from([(1, "Get our weekly news"), (2, "No thanks"), (3, "OK")]),
        ..Fake::default()
    };
    let mut hidden = banner();
    hidden.hidden.push(1);
    for page in [other, hidden] {
        assert_eq!(
            dismiss(&page),
            "No consent banner with an accept button was found."
        );
        assert!(page.clicked.borrow().is_empty());
    }
}

#[test]
fn a_disabled_accept_button_is_not_pressed() {
    let mut page = banner();
    page.disabled.push(4);
    assert_eq!(
        dismiss(&page),
        "No consent banner with an accept button was found."
    );
}

#[test]
fn a_container_is_about_consent_by_its_buttons_words_too() {
    let page = Fake {
        containers: vec![(1, vec![2])],
        text: HashMap::from([(2, "Accept cookies")]),
        ..Fake::default()
    };
    dismiss(&page);
    assert_eq!(*page.clicked.borrow(), [2]);
}
