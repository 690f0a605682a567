use std::collections::HashMap;

use super::*;
use crate::steps::Steps;

/// Fields by name with their values; the browser's `change` on a field is heard where the
/// test says so.
#[derive(Default)]
struct Fake {
    steps: Steps,
    values: RefCell<HashMap<&'static str, String>>,
    heard: RefCell<HashMap<&'static str, Rc<Cell<bool>>>>,
}

impl Fake {
    fn set(&self, el: &'static str, value: &str) {
        self.values.borrow_mut().insert(el, value.into());
    }
    /// The browser fires `change` on `el` itself.
    fn browser_changes(&self, el: &'static str) {
        self.heard.borrow()[el].set(true);
    }
}

impl Commits for Fake {
    type Element = &'static str;

    fn value(&self, el: &&'static str) -> Option<String> {
        self.steps.say(format!("read {el}"));
        self.values.borrow().get(el).cloned()
    }
    fn hear_change(&self, el: &&'static str) -> Rc<Cell<bool>> {
        self.steps.say(format!("listen on {el}"));
        let flag = Rc::new(Cell::new(false));
        self.heard.borrow_mut().insert(el, flag.clone());
        flag
    }
    fn change(&self, el: &&'static str) {
        self.steps.say(format!("change on {el}"));
    }
}

#[test]
fn an_edit_changed_is_committed_with_change_when_focus_moves_on() {
    let (page, current) = (Fake::default(), Current::default());
    page.set("name", "Ann");
    begin(&page, &current, &"name", "Ann".into());
    page.set("name", "Anna");
    commit(&page, &current, Some(&"button"));
    assert_eq!(
        page.steps.all(),
        ["listen on name", "read name", "change on name"]
    );
    // Committed once: nothing is left to commit.
    commit(&page, &current, None);
    assert_eq!(page.steps.all().len(), 3);
}

#[test]
fn no_change_where_the_value_is_as_before_or_the_browser_fired_it() {
    let (page, current) = (Fake::default(), Current::default());
    begin(&page, &current, &"name", "Ann".into());
    page.set("name", "Ann");
    commit(&page, &current, None);
    begin(&page, &current, &"city", "".into());
    page.set("city", "Oslo");
    page.browser_changes("city");
    commit(&page, &current, None);
    // The value is read even where the browser fired `change`, as it always was.
    let steps = ["listen on name", "read name", "listen on city", "read city"];
    assert_eq!(page.steps.all(), steps);
}

#[test]
fn acting_on_the_field_edited_commits_nothing_and_keeps_its_start() {
    let (page, current) = (Fake::default(), Current::default());
    begin(&page, &current, &"name", "Ann".into());
    page.set("name", "Anna");
    commit(&page, &current, Some(&"name"));
    // Typing into it again keeps the value it began with.
    begin(&page, &current, &"name", "Anna".into());
    assert_eq!(page.steps.all(), ["listen on name"]);
    commit(&page, &current, None);
    assert_eq!(page.steps.all()[1..], ["read name", "change on name"]);
}

#[test]
fn editing_another_field_commits_the_first_before_listening_on_the_next() {
    let (page, current) = (Fake::default(), Current::default());
    begin(&page, &current, &"name", "".into());
    page.set("name", "Ann");
    begin(&page, &current, &"city", "".into());
    assert_eq!(
        page.steps.all(),
        [
            "listen on name",
            "read name",
            "change on name",
            "listen on city"
        ]
    );
}
