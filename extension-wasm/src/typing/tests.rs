use std::cell::{Cell, RefCell};

use super::*;
use crate::at_once::run;

/// One field: its value, whether it has focus and takes it, which editing commands its
/// editor runs, the most characters it keeps, and a late value an editor applies in its own
/// update (after `late_ms`).
struct Fake {
    value: RefCell<String>,
    focused: Cell<bool>,
    takes_focus: bool,
    commands: Vec<&'static str>,
    max: Option<usize>,
    late: Option<(f64, &'static str)>,
    editable: bool,
    /// How many times it was named.
    named: Cell<u32>,
    clock: Cell<f64>,
    log: RefCell<Vec<String>>,
}

impl Default for Fake {
    fn default() -> Self {
        Self {
            value: RefCell::new("ab".into()),
            focused: Cell::new(false),
            takes_focus: true,
            commands: vec!["insertText", "delete"],
            max: None,
            late: None,
            editable: true,
            named: Cell::new(0),
            clock: Cell::new(0.0),
            log: RefCell::default(),
        }
    }
}

impl Fake {
    fn did(&self, what: String) {
        self.log.borrow_mut().push(what);
    }

    fn log(&self) -> Vec<String> {
        self.log.borrow().clone()
    }

    fn keep(&self, value: String) {
        let kept = match self.max {
            Some(max) => value.chars().take(max).collect(),
            None => value,
        };
        *self.value.borrow_mut() = kept;
    }
}

impl Editor for Fake {
    type Element = ();

    fn field(&self, _: &()) -> Field {
        let kind = match self.editable {
            true => "text",
            false => "checkbox",
        };
        Field::Input {
            kind: kind.into(),
            disabled: false,
            read_only: false,
            autocomplete: None,
        }
    }

    fn holds_focus(&self, _: &()) -> bool {
        self.focused.get()
    }

    fn focus(&self, _: &()) {
        self.did("focus".into());
        self.focused.set(self.takes_focus);
    }

    fn value(&self, _: &()) -> Option<String> {
        if let Some((at, late)) = self.late
            && self.clock.get() >= at
        {
            return Some(late.into());
        }
        Some(self.value.borrow().clone())
    }

    fn editing(&self, _: &(), before: String) {
        self.did(format!("editing, before {before:?}"));
    }

    fn place_caret(&self, _: &(), select_all: bool) {
        self.did(format!("caret, select all {select_all}"));
    }

    fn edit(&self, command: &str, value: &str) -> bool {
        self.did(format!("{command} {value:?}"));
        if !self.commands.contains(&command) {
            return false;
        }
        match command {
            "insertText" => self.keep(format!("{}{value}", self.value.borrow())),
            _ => self.keep(String::new()),
        }
        true
    }

    fn set_by_script(&self, _: &(), text: &str, clear: bool) -> usize {
        self.did(format!("script {text:?} clear {clear}"));
        let old = if clear {
            String::new()
        } else {
            self.value.borrow().clone()
        };
        *self.value.borrow_mut() = old + text;
        self.value.borrow().chars().count()
    }

    fn now(&self) -> f64 {
        self.clock.get()
    }

    async fn sleep(&self, ms: u32) {
        self.clock.set(self.clock.get() + f64::from(ms));
    }

    fn max_length(&self, _: &()) -> Option<String> {
        self.max.map(|m| m.to_string())
    }

    fn describe(&self, _: &()) -> String {
        self.named.set(self.named.get() + 1);
        "textbox \"Name\"".into()
    }
}

#[test]
fn a_field_without_focus_is_focused_and_typed_into_at_its_end() {
    let page = Fake::default();
    assert_eq!(set_text(&page, &(), "cd", false), Ok((4, Entry::Editor)));
    assert_eq!(
        page.log(),
        [
            "focus",
            "editing, before \"ab\"",
            "caret, select all false",
            "insertText \"cd\""
        ]
    );
}

#[test]
fn a_focused_field_is_typed_into_at_its_caret() {
    let page = Fake::default();
    page.focused.set(true);
    set_text(&page, &(), "cd", false).unwrap();
    assert_eq!(page.log(), ["editing, before \"ab\"", "insertText \"cd\""]);
}

#[test]
fn clearing_selects_all_then_types_over_it_or_deletes_it() {
    let page = Fake::default();
    page.focused.set(true);
    assert_eq!(set_text(&page, &(), "", true), Ok((0, Entry::Editor)));
    assert_eq!(
        page.log(),
        [
            "editing, before \"ab\"",
            "caret, select all true",
            "delete \"\""
        ]
    );
    // Nothing typed at the caret: no command at all.
    let nothing = Fake::default();
    nothing.focused.set(true);
    assert_eq!(set_text(&nothing, &(), "", false), Ok((2, Entry::Editor)));
    assert_eq!(nothing.log(), ["editing, before \"ab\""]);
}

#[test]
fn a_field_that_refuses_the_command_or_focus_is_set_by_script() {
    let no_command = Fake {
        commands: Vec::new(),
        ..Fake::default()
    };
    assert_eq!(
        set_text(&no_command, &(), "cd", true),
        Ok((2, Entry::Script))
    );
    assert_eq!(no_command.log().last().unwrap(), "script \"cd\" clear true");
    let no_focus = Fake {
        takes_focus: false,
        ..Fake::default()
    };
    assert_eq!(
        set_text(&no_focus, &(), "cd", false),
        Ok((4, Entry::Script))
    );
    assert_eq!(no_focus.log(), ["focus", "script \"cd\" clear false"]);
}

#[test]
fn a_field_that_takes_no_text_is_refused_before_anything_happens() {
    let page = Fake {
        editable: false,
        ..Fake::default()
    };
    let error = run(type_into(&page, &(), "cd", false)).unwrap_err();
    assert_eq!(
        error.message,
        "textbox \"Name\" is an input of type \"checkbox\", which takes no typed text"
    );
    assert!(page.log().is_empty());
}

#[test]
fn a_field_is_named_once_for_the_answer_not_to_check_it() {
    let page = Fake::default();
    assert!(set_text(&page, &(), "cd", false).is_ok());
    assert_eq!(page.named.get(), 0, "set_text names nothing");
    let typed = run(type_into(&page, &(), "cd", false)).unwrap();
    assert_eq!(typed.element, "textbox \"Name\"");
    assert_eq!(page.named.get(), 1);
}

#[test]
fn the_answer_says_the_length_and_nothing_more_when_all_went_in() {
    let page = Fake::default();
    let typed = run(type_into(&page, &(), "cd", false)).unwrap();
    assert_eq!(typed.element, "textbox \"Name\"");
    assert_eq!(typed.value_length, 4);
    assert_eq!(typed.note, None);
    // No settling wait where the length is the one wanted.
    assert_eq!(page.clock.get(), 0.0);
}

#[test]
fn a_field_that_keeps_less_is_waited_for_then_said_with_its_maxlength() {
    let page = Fake {
        max: Some(3),
        ..Fake::default()
    };
    let typed = run(type_into(&page, &(), "cd", false)).unwrap();
    assert_eq!(typed.value_length, 3);
    assert_eq!(
        typed.note.as_deref(),
        Some("The field kept 3 of 4 characters (maxlength 3), as it would from a keyboard.")
    );
    // The settling wait ended once the length held still.
    assert!(page.clock.get() >= typed::QUIET_MS && page.clock.get() < typed::SETTLE_MS);
}

#[test]
fn an_editor_that_applies_the_input_late_is_read_once_it_settles() {
    let page = Fake {
        commands: vec!["insertText"],
        max: Some(2),
        late: Some((30.0, "abcd")),
        ..Fake::default()
    };
    let typed = run(type_into(&page, &(), "cd", false)).unwrap();
    assert_eq!(typed.value_length, 4);
    assert_eq!(typed.note, None);
}

#[test]
fn text_set_by_script_is_said() {
    let page = Fake {
        commands: Vec::new(),
        ..Fake::default()
    };
    let typed = run(type_into(&page, &(), "cd", true)).unwrap();
    assert_eq!(typed.value_length, 2);
    assert!(typed.note.unwrap().starts_with("(Set by script"));
}
