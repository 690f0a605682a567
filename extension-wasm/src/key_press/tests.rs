use std::cell::RefCell;
use std::collections::HashMap;

use claudezilla_protocol::keys::parse;

use super::*;

/// A page of named elements that logs what the press does to it.
#[derive(Default)]
struct Fake {
    has_focus: RefCell<Option<&'static str>>,
    text_fields: Vec<&'static str>,
    editors: Vec<&'static str>,
    buttons: Vec<&'static str>,
    forms: HashMap<&'static str, &'static str>,
    textareas: Vec<&'static str>,
    /// The events a handler cancels ("keydown a").
    cancelled: Vec<&'static str>,
    /// The editing commands the browser runs.
    runs: Vec<&'static str>,
    default_button: Option<&'static str>,
    disabled: Vec<&'static str>,
    submit_refused: Option<&'static str>,
    tab_order: Option<Vec<&'static str>>,
    log: RefCell<Vec<String>>,
}

impl Fake {
    fn did(&self, what: String) {
        self.log.borrow_mut().push(what);
    }

    fn log(&self) -> Vec<String> {
        self.log.borrow().clone()
    }
}

impl Keyboard for Fake {
    type Element = &'static str;

    fn holds_focus(&self, el: &&'static str) -> bool {
        *self.has_focus.borrow() == Some(*el)
    }

    fn focus(&self, el: &&'static str, keyboard: bool) {
        *self.has_focus.borrow_mut() = Some(*el);
        self.did(format!("focus {el} keyboard={keyboard}"));
    }

    /// Logged with the modifiers it holds ("keydown a on field +ctrl").
    fn key_event(&self, el: &&'static str, kind: KeyKind, key: &Key, m: Modifiers) -> bool {
        let event = format!("{} {}", kind.name(), key.key);
        let cancelled = self.cancelled.contains(&event.as_str());
        let held = [
            (m.ctrl, "ctrl"),
            (m.shift, "shift"),
            (m.alt, "alt"),
            (m.meta, "meta"),
        ];
        let held: String = held
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, n)| format!(" +{n}"))
            .collect();
        self.did(format!("{event} on {el}{held}"));
        !cancelled
    }

    fn takes_text(&self, el: &&'static str) -> bool {
        self.text_fields.contains(el)
    }

    fn editable(&self, el: &&'static str) -> bool {
        self.editors.contains(el)
    }

    fn activation(&self, el: &&'static str) -> Activation {
        match self.buttons.contains(el) {
            true => Activation::EnterAndSpace,
            false => Activation::None,
        }
    }

    fn form(&self, el: &&'static str) -> Option<&'static str> {
        self.forms.get(el).copied()
    }

    fn is_textarea(&self, el: &&'static str) -> bool {
        self.textareas.contains(el)
    }

    fn select_all_text(&self, el: &&'static str) {
        self.did(format!("select all of {el}"));
    }

    fn edit(&self, command: &str, value: &str) -> bool {
        self.did(format!("edit {command} {value:?}"));
        self.runs.contains(&command)
    }

    fn commit(&self) {
        self.did("commit".into());
    }

    fn append_by_script(&self, el: &&'static str, text: &str) {
        self.did(format!("append {text:?} to {el}"));
    }

    fn activate(&self, el: &&'static str) {
        self.did(format!("activate {el}"));
    }

    fn type_text(&self, el: &&'static str, text: &str) -> Result<(), ErrorBody> {
        self.did(format!("type {text:?} into {el}"));
        Ok(())
    }

    fn first_in(&self, _: &&'static str, selector: &str) -> Option<&'static str> {
        // Buttons with no type submit too; image inputs do.
        let submitters =
            "button:not([type]), button[type=submit], input[type=submit], input[type=image]";
        assert_eq!(
            selector, submitters,
            "only a form's default button is asked for"
        );
        self.default_button
    }

    fn disabled(&self, el: &&'static str) -> bool {
        self.disabled.contains(el)
    }

    fn request_submit(&self, form: &&'static str) -> Result<(), String> {
        self.did(format!("requestSubmit {form}"));
        self.submit_refused.map_or(Ok(()), |e| Err(e.into()))
    }

    fn tab_order(&self) -> Option<Vec<&'static str>> {
        self.tab_order.clone()
    }

    fn describe(&self, el: &&'static str) -> String {
        format!("<{el}>")
    }
}

fn press(page: &Fake, on: &'static str, chord: &str) -> Result<String, ErrorBody> {
    press_key(page, Some(on), &parse(chord).unwrap())
}

/// A form's text field `field`, focused, with a submit button.
fn form() -> Fake {
    Fake {
        has_focus: RefCell::new(Some("field")),
        text_fields: vec!["field"],
        forms: HashMap::from([("field", "form")]),
        default_button: Some("submit"),
        ..Fake::default()
    }
}

#[test]
fn nothing_to_press_on_is_an_error() {
    let error = press_key(&Fake::default(), None, &parse("a").unwrap()).unwrap_err();
    assert_eq!(error.code, ErrorCode::PageError);
    assert_eq!(error.message, "nothing to press the key on");
}

#[test]
fn the_element_is_focused_then_the_modifiers_held_around_the_key() {
    let page = Fake {
        text_fields: vec!["field"],
        ..Fake::default()
    };
    assert_eq!(
        press(&page, "field", "Control+Alt+a"),
        Ok("Pressed Control+Alt+a on <field>: selected all of its text.".into())
    );
    // Each modifier goes down holding those before it; the key is sent with all of them; each
    // comes up no longer held itself.
    assert_eq!(
        page.log(),
        [
            "focus field keyboard=false",
            "keydown Control on field +ctrl",
            "keydown Alt on field +ctrl +alt",
            "keydown a on field +ctrl +alt",
            "select all of field",
            "keyup a on field +ctrl +alt",
            "keyup Alt on field +ctrl",
            "keyup Control on field",
        ]
    );
}

#[test]
fn a_key_that_types_has_its_keypress_and_is_typed() {
    let page = form();
    assert_eq!(
        press(&page, "field", "x"),
        Ok("Pressed x on <field>: typed \"x\".".into())
    );
    assert_eq!(
        page.log(),
        [
            "keydown x on field",
            "keypress x on field",
            "type \"x\" into field",
            "keyup x on field",
        ]
    );
}

#[test]
fn a_cancelled_keydown_or_keypress_leaves_the_default_to_the_page() {
    let keydown = ["keydown x on field", "keyup x on field"];
    let keypress = [
        "keydown x on field",
        "keypress x on field",
        "keyup x on field",
    ];
    // A cancelled keydown has no keypress; neither types.
    for (cancelled, log) in [("keydown x", &keydown[..]), ("keypress x", &keypress[..])] {
        let mut page = form();
        page.cancelled.push(cancelled);
        assert_eq!(
            press(&page, "field", "x"),
            Ok("Pressed x on <field>: the page handled it.".into())
        );
        assert_eq!(page.log(), log);
    }
}

#[test]
fn enter_in_a_forms_field_commits_it_then_activates_the_default_button() {
    let page = form();
    assert_eq!(
        press(&page, "field", "Enter"),
        Ok(
            "Pressed Enter on <field>: submitted <form> by activating its default button <submit>."
                .into()
        )
    );
    let log = page.log();
    assert_eq!(log[2..4], ["commit", "activate submit"]);
}

#[test]
fn a_disabled_or_missing_default_button_leaves_request_submit() {
    let mut disabled = form();
    disabled.disabled.push("submit");
    assert_eq!(
        submit(&disabled, &"form"),
        "submitted <form> with requestSubmit()"
    );
    let mut refused = form();
    refused.default_button = None;
    refused.submit_refused = Some("the form is not connected");
    assert_eq!(
        submit(&refused, &"form"),
        "could not submit <form>: the form is not connected"
    );
}

#[test]
fn enter_in_a_field_outside_a_form_only_commits() {
    let mut page = form();
    page.forms.clear();
    assert_eq!(
        default_action(
            &page,
            &"field",
            &parse("Enter").unwrap().key,
            Modifiers::default()
        ),
        Ok("dispatched the key events (not in a form)".into())
    );
    assert_eq!(page.log(), ["commit"]);
}

#[test]
fn enter_in_an_editor_inserts_a_newline_by_the_first_way_the_editor_takes() {
    let page = Fake {
        text_fields: vec!["editor"],
        editors: vec!["editor"],
        ..Fake::default()
    };
    let enter = parse("Enter").unwrap().key;
    assert_eq!(
        default_action(&page, &"editor", &enter, Modifiers::default()),
        Ok("inserted a newline".into())
    );
    // Not a textarea: the edit is committed; no command taken: the value is set.
    assert_eq!(
        page.log(),
        [
            "commit",
            "edit insertParagraph \"\"",
            "edit insertText \"\\n\"",
            "append \"\\n\" to editor",
        ]
    );
    let area = Fake {
        text_fields: vec!["area"],
        textareas: vec!["area"],
        runs: vec!["insertParagraph"],
        ..Fake::default()
    };
    default_action(&area, &"area", &enter, Modifiers::default()).unwrap();
    assert_eq!(area.log(), ["edit insertParagraph \"\""]);
}

#[test]
fn tab_moves_focus_along_the_tab_order_by_the_keyboard() {
    let mut page = Fake {
        tab_order: Some(vec!["a", "b", "c"]),
        ..Fake::default()
    };
    let tab = parse("Tab").unwrap();
    let shift_tab = parse("Shift+Tab").unwrap();
    let on = |page: &Fake, chord: &Chord| {
        default_action(page, &"b", &chord.key, chord.modifiers).unwrap()
    };
    assert_eq!(on(&page, &tab), "moved focus to <c>");
    assert_eq!(on(&page, &shift_tab), "moved focus to <a>");
    assert!(page.log().contains(&"focus c keyboard=true".to_owned()));
    page.tab_order = Some(Vec::new());
    assert_eq!(on(&page, &tab), "nothing focusable");
    page.tab_order = None;
    assert_eq!(on(&page, &tab), "could not move focus");
}

#[test]
fn undo_says_whether_there_was_an_edit() {
    let mut page = Fake {
        text_fields: vec!["field"],
        ..Fake::default()
    };
    let undo = parse("Control+z").unwrap();
    let on = |page: &Fake| default_action(page, &"field", &undo.key, undo.modifiers).unwrap();
    assert_eq!(on(&page), "nothing to undo");
    page.runs.push("undo");
    assert_eq!(on(&page), "undo the last edit");
}

#[test]
fn space_on_a_button_activates_it_as_a_keyboard_does() {
    let page = Fake {
        buttons: vec!["button"],
        ..Fake::default()
    };
    assert_eq!(
        press(&page, "button", "Space"),
        Ok("Pressed Space on <button>: activated it.".into())
    );
    assert!(page.log().contains(&"activate button".to_owned()));
}

#[test]
fn firefox_follows_links_space_toggles_boxes_and_both_keys_press_buttons() {
    use Activation as A;
    assert_eq!(activation("button", None, false, false), A::EnterAndSpace);
    assert_eq!(activation("summary", None, false, true), A::EnterAndSpace);
    for t in ["button", "submit", "reset", "image"] {
        assert_eq!(activation("input", Some(t), false, false), A::EnterAndSpace);
    }
    for t in ["checkbox", "radio"] {
        assert_eq!(activation("input", Some(t), false, false), A::Space);
    }
    assert_eq!(activation("a", None, true, false), A::Link);
    assert_eq!(activation("area", None, true, false), A::Link);
    assert_eq!(
        activation("a", None, true, true),
        A::Link,
        "Firefox clicks it"
    );
    // No href: no link, and nothing a key activates.
    assert_eq!(activation("a", None, false, false), A::None);
    assert_eq!(activation("input", Some("text"), false, false), A::None);
    assert_eq!(activation("input", Some("text"), false, true), A::None);
    // A page's own button (`role=button`) answers its keys itself.
    assert_eq!(activation("div", None, false, true), A::PageButton);
    assert_eq!(activation("div", None, false, false), A::None);
}
