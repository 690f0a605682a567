//! Key presses: keyboard events as real keystrokes carry them, and what the browser does for
//! a real press that synthetic events do not trigger (Enter submits, Tab moves focus, …).

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::keys::{Chord, Key, Modifiers};
use wasm_bindgen::JsCast;
use web_sys::{
    Element, HtmlElement, HtmlFormElement, HtmlInputElement, HtmlTextAreaElement, KeyboardEvent,
    KeyboardEventInit,
};

use crate::content::dom::document;
use crate::content::find::describe;
use crate::input_plan::{self, Focused, KeyAction, KeyKind};

use super::*;

/// A keyboard event as a real keystroke has it, legacy `keyCode`/`charCode`/`which` included
/// (`which` must be defined on the page's view of the event: the constructor leaves it 0).
pub(super) fn key_event(element: &Element, kind: KeyKind, key: &Key, m: Modifiers) -> bool {
    let (key_code, char_code, which) = input_plan::codes(kind, key);
    let init = KeyboardEventInit::new();
    init.set_key(&key.key);
    init.set_code(&key.code);
    init.set_key_code(key_code);
    init.set_char_code(char_code);
    init.set_which(which);
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_composed(true);
    init.set_ctrl_key(m.ctrl);
    init.set_shift_key(m.shift);
    init.set_alt_key(m.alt);
    init.set_meta_key(m.meta);
    if let Some(view) = web_sys::window() {
        init.set_view(Some(&view));
    }
    let Ok(event) = KeyboardEvent::new_with_keyboard_event_init_dict(kind.name(), &init) else {
        return true;
    };
    if let Ok(page_view) = js_sys::Reflect::get(&event, &"wrappedJSObject".into()) {
        let descriptor = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&descriptor, &"value".into(), &which.into());
        let page_view: &js_sys::Object = page_view.unchecked_ref();
        let _ = js_sys::Reflect::define_property(page_view, &"which".into(), &descriptor);
    }
    element.dispatch_event(&event).unwrap_or(true)
}

pub fn press_key(target: Option<Element>, chord: &Chord) -> Result<reply::Acted, ErrorBody> {
    let doc = document()?;
    let element = target
        .or_else(crate::content::focus::active)
        .or_else(|| doc.body().map(Element::from));
    let Some(element) = element else {
        return Err(page_error("nothing to press the key on".into()));
    };
    if !holds_focus(&element) {
        crate::content::focus::focus(&element, false);
    }
    let (key, m) = (&chord.key, chord.modifiers);
    let plan = input_plan::key_plan(chord);
    for (modifier, held) in &plan.modifiers_down {
        key_event(&element, KeyKind::Down, modifier, *held);
    }
    let down = key_event(&element, KeyKind::Down, key, m);
    let pressed = down && (!plan.keypress || key_event(&element, KeyKind::Press, key, m));
    let effect = match pressed {
        true => default_action(&element, key, m)?,
        false => "the page handled it".to_owned(),
    };
    key_event(&element, KeyKind::Up, key, m);
    for (modifier, held) in &plan.modifiers_up {
        key_event(&element, KeyKind::Up, modifier, *held);
    }
    let name = input_plan::chord_name(chord);
    acted(format!(
        "Pressed {name} on {}: {effect}.",
        describe(&element)
    ))
}

/// What the browser does for a real key press, which synthetic events do not trigger
/// ([`input_plan::key_action`] decides; this does it).
pub(super) fn default_action(
    element: &Element,
    key: &Key,
    m: Modifiers,
) -> Result<String, ErrorBody> {
    let multiline = element.dyn_ref::<HtmlTextAreaElement>().is_some()
        || element
            .dyn_ref::<HtmlElement>()
            .is_some_and(HtmlElement::is_content_editable);
    let form = element
        .dyn_ref::<HtmlInputElement>()
        .and_then(HtmlInputElement::form);
    let on = Focused {
        text_field: is_text_field(element),
        multiline,
        button_like: is_button_like(element),
        in_form: form.is_some(),
    };
    // An implicit submission (and a focus move) commits the field first, as the browser does.
    Ok(match input_plan::key_action(key, m, on) {
        KeyAction::SelectAllText => {
            place_caret(element, true);
            "selected all of its text".into()
        }
        KeyAction::SelectAllPage => {
            edit("selectAll", "");
            "selected all of the page".into()
        }
        KeyAction::Edit(command) => match edit(command, "") {
            true => format!("{command} the last edit"),
            false => format!("nothing to {command}"),
        },
        KeyAction::NoShortcutDefault => "no default action for this shortcut".into(),
        KeyAction::NewLine => {
            if element.dyn_ref::<HtmlTextAreaElement>().is_none() {
                commit(None);
            }
            if !edit("insertParagraph", "") && !edit("insertText", "\n") {
                let _ = set_by_script(element, "\n", false);
            }
            "inserted a newline".into()
        }
        KeyAction::Activate => {
            commit(None);
            if let Some(html) = element.dyn_ref::<HtmlElement>() {
                html.click();
            }
            "activated it".into()
        }
        KeyAction::Submit => {
            commit(None);
            form.map_or_else(String::new, |form| submit(&form))
        }
        KeyAction::NotInAForm => {
            commit(None);
            "dispatched the key events (not in a form)".into()
        }
        KeyAction::MoveFocus { backwards } => {
            commit(None);
            move_focus(element, backwards)
        }
        KeyAction::Click => {
            click(element)?;
            "activated it".into()
        }
        KeyAction::Delete(command) => match edit(command, "") {
            true => "deleted a character".into(),
            false => "nothing to delete".into(),
        },
        KeyAction::Type(text) => {
            set_text(element, &text, false)?;
            format!("typed {text:?}")
        }
        KeyAction::Nothing => "dispatched the key events".into(),
    })
}

/// A field that takes text, or any element inside an editor (`isContentEditable` is
/// inherited: a checkbox in a contenteditable host counts, as the editor handles its keys).
pub(super) fn is_text_field(element: &Element) -> bool {
    crate::content::dom::field_of(element).takes_text()
        || element
            .dyn_ref::<HtmlElement>()
            .is_some_and(HtmlElement::is_content_editable)
}

pub(super) fn is_button_like(element: &Element) -> bool {
    matches!(element.local_name().as_str(), "button" | "a" | "summary")
        || element.get_attribute("role").as_deref() == Some("button")
        || element.dyn_ref::<HtmlInputElement>().is_some_and(|i| {
            matches!(
                i.type_().as_str(),
                "button" | "submit" | "checkbox" | "radio"
            )
        })
}

pub(super) fn submit(form: &HtmlFormElement) -> String {
    let name = describe(form);
    let default_button = form
        .query_selector(
            "button:not([type]), button[type=submit], input[type=submit], input[type=image]",
        )
        .ok()
        .flatten();
    match default_button
        .as_ref()
        .and_then(|b| b.dyn_ref::<HtmlElement>())
    {
        Some(button) if !button.matches(":disabled").unwrap_or(false) => {
            button.click();
            format!(
                "submitted {name} by activating its default button {}",
                describe(button)
            )
        }
        _ => match form.request_submit() {
            Ok(()) => format!("submitted {name} with requestSubmit()"),
            Err(e) => format!(
                "could not submit {name}: {}",
                crate::web::js_error_message(&e)
            ),
        },
    }
}

/// What Tab reaches ([`input_plan::tab_focusable`]).
static TAB_FOCUSABLE: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(input_plan::tab_focusable);

pub(super) fn move_focus(from: &Element, backwards: bool) -> String {
    let Ok(all) = document().and_then(|d| {
        d.query_selector_all(&TAB_FOCUSABLE)
            .map_err(|_| page_error(String::new()))
    }) else {
        return "could not move focus".into();
    };
    let list: Vec<Element> = (0..all.length())
        .filter_map(|i| all.item(i)?.dyn_into().ok())
        .collect();
    let here = list.iter().position(|e| e == from);
    let next = input_plan::next_focus(list.len(), here, backwards).and_then(|i| list.get(i));
    match next {
        Some(next) => {
            crate::content::focus::focus(next, true);
            format!("moved focus to {}", describe(next))
        }
        None => "nothing focusable".into(),
    }
}
