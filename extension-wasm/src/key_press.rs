//! One key press carried out on an element as a keystroke reaches it: focus moved there
//! first, the modifiers held ([`input_plan::key_plan`]), `keydown`, `keypress` for a key that
//! types, what the browser does for a press no handler cancelled
//! ([`input_plan::key_action`]) and the words that say it, `keyup`, the modifiers let go;
//! with a form's implicit submission (its default button, else `requestSubmit()`) and Tab's
//! move through the tab order. Over [`Keyboard`], which `content/act/keyboard.rs`
//! implements; tested on a page of the tests' own.

use claudezilla_protocol::keys::{Chord, Key, Modifiers};
use claudezilla_protocol::{ErrorBody, ErrorCode};

use crate::input_plan::{self, Activation, Focused, KeyAction, KeyKind};

/// What a key press asks of the page.
pub trait Keyboard {
    type Element: PartialEq;

    /// Whether focus is on the element, or (an editor) inside it.
    fn holds_focus(&self, el: &Self::Element) -> bool;
    /// Moves focus to it, as a press of the pointer does or (`keyboard`) as Tab does.
    fn focus(&self, el: &Self::Element, keyboard: bool);
    /// Dispatches a keyboard event; false when a handler cancelled it.
    fn key_event(&self, el: &Self::Element, kind: KeyKind, key: &Key, m: Modifiers) -> bool;
    /// A field that takes text, or any element inside an editor.
    fn takes_text(&self, el: &Self::Element) -> bool;
    /// Inside an editor (`isContentEditable`).
    fn editable(&self, el: &Self::Element) -> bool;
    /// Which keys activate it ([`activation`]).
    fn activation(&self, el: &Self::Element) -> Activation;
    /// The form an input belongs to.
    fn form(&self, el: &Self::Element) -> Option<Self::Element>;
    fn is_textarea(&self, el: &Self::Element) -> bool;
    /// Selects all of a field's text.
    fn select_all_text(&self, el: &Self::Element);
    /// Runs an editing command on the focused field; false when the browser would not.
    fn edit(&self, command: &str, value: &str) -> bool;
    /// Commits the edit in progress (its `change`, as the browser fires it).
    fn commit(&self);
    /// Appends text by setting the value (where the editor takes no command).
    fn append_by_script(&self, el: &Self::Element, text: &str);
    /// Its own `click()`: the activation behaviour, without the pointer.
    fn activate(&self, el: &Self::Element);
    /// Types text at the caret, as the editor takes it.
    fn type_text(&self, el: &Self::Element, text: &str) -> Result<(), ErrorBody>;
    /// The first HTML element inside `within` that matches `selector`.
    fn first_in(&self, within: &Self::Element, selector: &str) -> Option<Self::Element>;
    fn disabled(&self, el: &Self::Element) -> bool;
    /// The form's `requestSubmit()`; the error's message when it throws.
    fn request_submit(&self, form: &Self::Element) -> Result<(), String>;
    /// What Tab reaches, in document order; none when the page cannot be asked.
    fn tab_order(&self) -> Option<Vec<Self::Element>>;
    fn describe(&self, el: &Self::Element) -> String;
}

/// Presses `chord` on `element` (the target, else the focused element, else the body); the
/// answer's words.
pub fn press_key<K: Keyboard>(
    page: &K,
    element: Option<K::Element>,
    chord: &Chord,
) -> Result<String, ErrorBody> {
    let Some(element) = element else {
        return Err(ErrorBody::new(
            ErrorCode::PageError,
            "nothing to press the key on",
        ));
    };
    if !page.holds_focus(&element) {
        page.focus(&element, false);
    }
    let (key, m) = (&chord.key, chord.modifiers);
    let plan = input_plan::key_plan(chord);
    for (modifier, held) in &plan.modifiers_down {
        page.key_event(&element, KeyKind::Down, modifier, *held);
    }
    let down = page.key_event(&element, KeyKind::Down, key, m);
    let pressed = down && (!plan.keypress || page.key_event(&element, KeyKind::Press, key, m));
    let effect = match pressed {
        true => default_action(page, &element, key, m)?,
        false => "the page handled it".to_owned(),
    };
    page.key_event(&element, KeyKind::Up, key, m);
    for (modifier, held) in &plan.modifiers_up {
        page.key_event(&element, KeyKind::Up, modifier, *held);
    }
    let name = input_plan::chord_name(chord);
    Ok(format!(
        "Pressed {name} on {}: {effect}.",
        page.describe(&element)
    ))
}

/// What the browser does for a real key press, which synthetic events do not trigger
/// ([`input_plan::key_action`] decides; this does it); the words for it.
fn default_action<K: Keyboard>(
    page: &K,
    element: &K::Element,
    key: &Key,
    m: Modifiers,
) -> Result<String, ErrorBody> {
    let form = page.form(element);
    let on = Focused {
        text_field: page.takes_text(element),
        multiline: page.is_textarea(element) || page.editable(element),
        activation: page.activation(element),
        in_form: form.is_some(),
    };
    // An implicit submission (and a focus move) commits the field first, as the browser does.
    Ok(match input_plan::key_action(key, m, on) {
        KeyAction::SelectAllText => {
            page.select_all_text(element);
            "selected all of its text".into()
        }
        KeyAction::SelectAllPage => {
            page.edit("selectAll", "");
            "selected all of the page".into()
        }
        KeyAction::Edit(command) => match page.edit(command, "") {
            true => format!("{command} the last edit"),
            false => format!("nothing to {command}"),
        },
        KeyAction::NoShortcutDefault => "no default action for this shortcut".into(),
        KeyAction::NewLine => {
            if !page.is_textarea(element) {
                page.commit();
            }
            if !page.edit("insertParagraph", "") && !page.edit("insertText", "\n") {
                page.append_by_script(element, "\n");
            }
            "inserted a newline".into()
        }
        KeyAction::Activate => {
            page.commit();
            page.activate(element);
            "activated it".into()
        }
        KeyAction::FollowedLink => "Firefox clicked the link (a link takes Enter itself)".into(),
        KeyAction::PageButton => {
            page.commit();
            "dispatched the key events: a role=button element acts only by its page's own key handlers; if nothing changed, click it".into()
        }
        KeyAction::Submit => {
            page.commit();
            form.map_or_else(String::new, |form| submit(page, &form))
        }
        KeyAction::NotInAForm => {
            page.commit();
            "dispatched the key events (not in a form)".into()
        }
        KeyAction::MoveFocus { backwards } => {
            page.commit();
            move_focus(page, element, backwards)
        }
        KeyAction::Delete(command) => match page.edit(command, "") {
            true => "deleted a character".into(),
            false => "nothing to delete".into(),
        },
        KeyAction::Type(text) => {
            page.type_text(element, &text)?;
            format!("typed {text:?}")
        }
        KeyAction::Nothing => "dispatched the key events".into(),
    })
}

/// Submits `form` as Enter in its field does: its default button activated, unless it is
/// disabled or missing, then `requestSubmit()`.
fn submit<K: Keyboard>(page: &K, form: &K::Element) -> String {
    let name = page.describe(form);
    match page.first_in(form, DEFAULT_BUTTON) {
        Some(button) if !page.disabled(&button) => {
            page.activate(&button);
            format!(
                "submitted {name} by activating its default button {}",
                page.describe(&button)
            )
        }
        _ => match page.request_submit(form) {
            Ok(()) => format!("submitted {name} with requestSubmit()"),
            Err(e) => format!("could not submit {name}: {e}"),
        },
    }
}

/// A form's default button: its first submit button, by selector (a `<button>` without a type
/// is one, and submit and image inputs are).
const DEFAULT_BUTTON: &str =
    "button:not([type]), button[type=submit], input[type=submit], input[type=image]";

/// Tab from `from`: focus moves to the next element of the tab order (the previous one
/// `backwards`), as the keyboard moves it.
fn move_focus<K: Keyboard>(page: &K, from: &K::Element, backwards: bool) -> String {
    let Some(list) = page.tab_order() else {
        return "could not move focus".into();
    };
    let here = list.iter().position(|e| e == from);
    let next = input_plan::next_focus(list.len(), here, backwards).and_then(|i| list.get(i));
    match next {
        Some(next) => {
            page.focus(next, true);
            format!("moved focus to {}", page.describe(next))
        }
        None => "nothing focusable".into(),
    }
}

/// Which keys activate an element (`local_name`, an input's `type`, whether it is a link —
/// `:any-link`, an SVG `xlink:href` too —, whether its `role` is `button`): Space a checkbox
/// or radio, both a button or summary; a link Firefox activates; a page's own button its
/// page.
pub fn activation(
    local_name: &str,
    input_type: Option<&str>,
    link: bool,
    role_button: bool,
) -> Activation {
    match (local_name, input_type) {
        ("button" | "summary", _) => Activation::EnterAndSpace,
        ("input", Some("button" | "submit" | "reset" | "image")) => Activation::EnterAndSpace,
        ("input", Some("checkbox" | "radio")) => Activation::Space,
        _ if link => Activation::Link,
        (_, None) if role_button => Activation::PageButton,
        _ => Activation::None,
    }
}

#[cfg(test)]
mod tests;
