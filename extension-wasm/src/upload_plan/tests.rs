use std::cell::RefCell;

use super::*;

/// Which ways find a file field (each its own field's name), whether the zone cancels
/// `dragover`, which making of the file fails (`unmade`), and everything asked of the page,
/// in order.
#[derive(Default)]
struct Fake {
    itself: Option<&'static str>,
    labelled: Option<&'static str>,
    inside: Option<&'static str>,
    chooser: Option<&'static str>,
    takes_drops: bool,
    unmade: Option<&'static str>,
    asked: RefCell<Vec<String>>,
}

impl Fake {
    fn ask(&self, what: &'static str, found: Option<&'static str>) -> Option<&'static str> {
        self.say(what.into());
        found
    }

    fn say(&self, what: String) {
        self.asked.borrow_mut().push(what);
    }

    /// `made`, unless making `what` fails.
    fn make<T>(&self, what: &str, made: T) -> Result<T, String> {
        self.say(format!("make {what}"));
        match self.unmade == Some(what) {
            true => Err(format!("no {what} today")),
            false => Ok(made),
        }
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

impl Uploads for Fake {
    type File = String;
    type Transfer = String;

    fn describe(&self, _: &()) -> String {
        self.say("describe".into());
        "region \"Drop files\"".into()
    }

    fn make_file(&self, file: &Upload) -> Result<String, String> {
        let made = format!("{} ({}, {} bytes)", file.name, file.mime, file.bytes.len());
        self.make("file", made)
    }

    fn holding(&self, file: &String) -> Result<String, String> {
        self.make("transfer", format!("transfer of {file}"))
    }

    fn set_files(&self, field: &&'static str, transfer: &String) {
        self.say(format!("{field}'s files from {transfer}"));
    }

    fn input(&self, field: &&'static str) {
        self.say(format!("input at {field}"));
    }

    fn change(&self, field: &&'static str) {
        self.say(format!("change at {field}"));
    }

    fn page_holding(&self, file: &Upload) -> Result<String, String> {
        self.make("page transfer", format!("page's transfer of {}", file.name))
    }

    fn scroll_into_view(&self, _: &()) {
        self.say("scroll into view".into());
    }

    fn centre(&self, _: &()) -> (i32, i32) {
        self.say("centre".into());
        (5, 6)
    }

    fn drag_event(&self, _: &(), kind: &'static str, at: (i32, i32), transfer: &String) -> bool {
        self.say(format!("{kind} at {at:?} with {transfer}"));
        !(kind == "dragover" && self.takes_drops)
    }
}

const PNG: Upload = Upload {
    name: "a.png",
    mime: "image/png",
    bytes: &[1, 2, 3],
};

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
    assert!(!inside.asked.borrow().iter().any(|s| s == "click"));
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
fn a_file_field_gets_the_file_then_its_input_and_change() {
    let page = Fake {
        inside: Some("field"),
        ..Fake::default()
    };
    assert_eq!(
        upload(&page, &(), &PNG).unwrap(),
        "Attached a.png (3 bytes) to region \"Drop files\", through the file field inside it."
    );
    // Named before the search for a field, whose click may change the page.
    assert_eq!(
        *page.asked.borrow(),
        [
            "describe",
            "itself",
            "labelled",
            "inside",
            "make file",
            "make transfer",
            "field's files from transfer of a.png (image/png, 3 bytes)",
            "input at field",
            "change at field",
        ]
    );
}

#[test]
fn a_file_that_cannot_be_made_leaves_the_field_untouched() {
    let no_file = Fake {
        itself: Some("field"),
        unmade: Some("file"),
        ..Fake::default()
    };
    let error = upload(&no_file, &(), &PNG).unwrap_err();
    assert_eq!(error.code, ErrorCode::PageError);
    assert_eq!(error.message, "cannot make the file: no file today");
    assert_eq!(no_file.asked.borrow().last().unwrap(), "make file");
    let no_transfer = Fake {
        itself: Some("field"),
        unmade: Some("transfer"),
        ..Fake::default()
    };
    let error = upload(&no_transfer, &(), &PNG).unwrap_err();
    assert_eq!(error.message, "no transfer today");
    assert_eq!(no_transfer.asked.borrow().last().unwrap(), "make transfer");
}

#[test]
fn a_zone_that_takes_the_drop_gets_it() {
    let page = Fake {
        takes_drops: true,
        ..Fake::default()
    };
    assert_eq!(
        upload(&page, &(), &PNG),
        Ok("Dropped a.png (3 bytes) on region \"Drop files\": it has no file field, so the file came as a drag \
            from the desktop brings it (dragenter, dragover, drop), and the zone took the drop."
            .into())
    );
    // The page's transfer made before the page is scrolled; the drop at the zone's centre.
    let with = "at (5, 6) with page's transfer of a.png";
    assert_eq!(
        page.asked.borrow()[5..],
        [
            "make page transfer".to_owned(),
            "scroll into view".into(),
            "centre".into(),
            format!("dragenter {with}"),
            format!("dragover {with}"),
            format!("drop {with}"),
            "describe".into(),
        ]
    );
}

#[test]
fn a_zone_that_does_not_accept_dragover_is_left_and_said() {
    let page = Fake::default();
    let error = upload(&page, &(), &PNG).unwrap_err();
    let kinds: Vec<String> = page.asked.borrow()[8..]
        .iter()
        .map(|s| s.split(' ').next().unwrap().to_owned())
        .collect();
    assert_eq!(kinds, ["dragenter", "dragover", "dragleave", "describe"]);
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
fn a_dropped_file_the_page_cannot_make_leaves_the_page_unscrolled() {
    let page = Fake {
        takes_drops: true,
        unmade: Some("page transfer"),
        ..Fake::default()
    };
    let error = upload(&page, &(), &PNG).unwrap_err();
    assert_eq!(error.code, ErrorCode::PageError);
    assert_eq!(
        error.message,
        "cannot make the dropped file a.png (3 bytes) in the page: no page transfer today"
    );
    assert_eq!(page.asked.borrow().last().unwrap(), "make page transfer");
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
