use std::cell::RefCell;

use super::*;

/// Which ways find a file field (each its own field's name), what was asked, and whether
/// the zone cancels `dragover`.
#[derive(Default)]
struct Fake {
    itself: Option<&'static str>,
    labelled: Option<&'static str>,
    inside: Option<&'static str>,
    chooser: Option<&'static str>,
    takes_drops: bool,
    asked: RefCell<Vec<&'static str>>,
}

impl Fake {
    fn ask(&self, what: &'static str, found: Option<&'static str>) -> Option<&'static str> {
        self.asked.borrow_mut().push(what);
        found
    }
}

impl Picker for Fake {
    type Element = ();
    type Field = &'static str;

    fn itself(&self, _: &()) -> Option<&'static str> {
        self.ask("itself", self.itself)
    }

    fn labelled(&self, _: &()) -> Option<&'static str> {
        self.ask("labelled", self.labelled)
    }

    fn inside(&self, _: &()) -> Option<&'static str> {
        self.ask("inside", self.inside)
    }

    fn chooser_of(&self, _: &()) -> Option<&'static str> {
        self.ask("click", self.chooser)
    }
}

impl DropZone for Fake {
    type Element = ();

    fn drag_event(&self, _: &(), kind: &'static str) -> bool {
        self.asked.borrow_mut().push(kind);
        !(kind == "dragover" && self.takes_drops)
    }

    fn describe(&self, _: &()) -> String {
        "region \"Drop files\"".into()
    }
}

#[test]
fn the_element_itself_goes_first_and_nothing_else_is_asked() {
    let page = Fake {
        itself: Some("field"),
        inside: Some("other"),
        ..Fake::default()
    };
    assert_eq!(field(&page, &()), Some(("field", "")));
    assert_eq!(*page.asked.borrow(), ["itself"]);
}

#[test]
fn a_label_then_a_field_inside_then_the_click_are_tried_in_turn() {
    let labelled = Fake {
        labelled: Some("named"),
        inside: Some("inner"),
        ..Fake::default()
    };
    assert_eq!(
        field(&labelled, &()),
        Some(("named", ", through the file field its label names"))
    );
    let inside = Fake {
        inside: Some("inner"),
        chooser: Some("hidden"),
        ..Fake::default()
    };
    assert_eq!(
        field(&inside, &()),
        Some(("inner", ", through the file field inside it"))
    );
    // The click, which acts on the page, only when nothing else found a field.
    assert!(!inside.asked.borrow().contains(&"click"));
    let chooser = Fake {
        chooser: Some("hidden"),
        ..Fake::default()
    };
    assert_eq!(
        field(&chooser, &()),
        Some((
            "hidden",
            ", through the file field its click opens the file chooser of (the chooser itself was not opened)"
        ))
    );
    assert_eq!(
        *chooser.asked.borrow(),
        ["itself", "labelled", "inside", "click"]
    );
    assert_eq!(field(&Fake::default(), &()), None);
}

#[test]
fn a_zone_that_takes_the_drop_gets_it() {
    let page = Fake {
        takes_drops: true,
        ..Fake::default()
    };
    assert_eq!(
        drop_on(&page, &(), "a.png (3 bytes)"),
        Ok("Dropped a.png (3 bytes) on region \"Drop files\": it has no file field, so the file came as a drag \
            from the desktop brings it (dragenter, dragover, drop), and the zone took the drop."
            .into())
    );
    assert_eq!(*page.asked.borrow(), ["dragenter", "dragover", "drop"]);
}

#[test]
fn a_zone_that_does_not_accept_dragover_is_left_and_said() {
    let page = Fake::default();
    let error = drop_on(&page, &(), "a.png (3 bytes)").unwrap_err();
    assert_eq!(*page.asked.borrow(), ["dragenter", "dragover", "dragleave"]);
    assert_eq!(error.code, ErrorCode::PageError);
    assert_eq!(
        error.message,
        "region \"Drop files\" is no file field, holds none, its click opened no file chooser and it takes no drop \
         (it did not accept dragover): a.png (3 bytes) was not attached"
    );
    assert!(
        error
            .hint
            .unwrap()
            .starts_with("upload to the page's <input type=file>")
    );
}

#[test]
fn an_attached_file_is_named_with_its_size_and_how_its_field_was_found() {
    let file = file_named("a.png", 3);
    assert_eq!(file, "a.png (3 bytes)");
    assert_eq!(
        attached(
            &file,
            "button \"Add\"",
            ", through the file field inside it"
        ),
        "Attached a.png (3 bytes) to button \"Add\", through the file field inside it."
    );
}
