//! Key presses: keyboard events as real keystrokes carry them, and what the browser does for
//! a real press that synthetic events do not trigger (Enter submits, Tab moves focus, …).

use claudezilla_protocol::keys::{Chord, Key, Modifier, Modifiers};
use claudezilla_protocol::{ErrorBody, Outcome};
use wasm_bindgen::JsCast;
use web_sys::{
    Element, HtmlElement, HtmlFormElement, HtmlInputElement, HtmlTextAreaElement, KeyboardEvent,
    KeyboardEventInit,
};

use crate::content::find::{describe, document};

use super::*;

/// A keyboard event as a real keystroke has it, legacy `keyCode`/`charCode`/`which` included
/// (`which` must be defined on the page's view of the event: the constructor leaves it 0).
pub(super) fn key_event(element: &Element, kind: &str, key: &Key, m: Modifiers) -> bool {
    let (key_code, char_code) = match kind {
        // Firefox gives keypress the character, and keyCode only to keys that type none.
        "keypress" if key.char_code != 0 && key.key != "Enter" => (0, key.char_code),
        "keypress" => (key.key_code, 0),
        _ => (key.key_code, 0),
    };
    let which = if char_code != 0 { char_code } else { key_code };
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
    let Ok(event) = KeyboardEvent::new_with_keyboard_event_init_dict(kind, &init) else {
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

pub fn press_key(target: Option<Element>, chord: &Chord) -> Outcome {
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
    let m = chord.modifiers;
    // The modifier keys go down first, one by one, and come up last.
    let held: Vec<Modifier> = m.held().collect();
    let mut so_far = Modifiers::default();
    for modifier in &held {
        so_far.set(*modifier, true);
        key_event(&element, "keydown", &modifier.key(), so_far);
    }
    let key = &chord.key;
    // A handler that cancels keydown asks for nothing else to happen (no keypress either).
    let down = key_event(&element, "keydown", key, m);
    let shortcut = m.ctrl || m.alt || m.meta;
    let effect = if !down {
        "the page handled it".to_owned()
    } else {
        let pressed = !key.types() || shortcut || key_event(&element, "keypress", key, m);
        if pressed {
            default_action(&element, key, m)?
        } else {
            "the page handled it".to_owned()
        }
    };
    key_event(&element, "keyup", key, m);
    for modifier in held.iter().rev() {
        key_event(&element, "keyup", &modifier.key(), so_far);
        so_far.set(*modifier, false);
    }
    let name = chord_name(chord);
    acted(format!(
        "Pressed {name} on {}: {effect}.",
        describe(&element)
    ))
}

/// "Control+Shift+a", as the agent would write it.
pub(super) fn chord_name(chord: &Chord) -> String {
    // Shift is implied by a capital or a shifted symbol.
    let implied = chord.key.key.chars().count() == 1 && chord.key.char_code != 0;
    let mut parts: Vec<&str> = chord
        .modifiers
        .held()
        .filter(|m| *m != Modifier::Shift)
        .map(Modifier::name)
        .collect();
    if chord.modifiers.shift && !implied {
        parts.push(Modifier::Shift.name());
    }
    let key = if chord.key.key == " " {
        "Space"
    } else {
        &chord.key.key
    };
    parts.push(key);
    parts.join("+")
}

/// What the browser does for a real key press, which synthetic events do not trigger.
pub(super) fn default_action(
    element: &Element,
    key: &Key,
    m: Modifiers,
) -> Result<String, ErrorBody> {
    let text_field = is_text_field(element);
    if (m.ctrl || m.meta) && key.key.eq_ignore_ascii_case("a") {
        if text_field {
            place_caret(element, true);
            return Ok("selected all of its text".into());
        }
        edit("selectAll", "");
        return Ok("selected all of the page".into());
    }
    let undo = key.key.eq_ignore_ascii_case("z") || key.key.eq_ignore_ascii_case("y");
    if (m.ctrl || m.meta) && undo && text_field {
        let command = if m.shift || key.key.eq_ignore_ascii_case("y") {
            "redo"
        } else {
            "undo"
        };
        return Ok(match edit(command, "") {
            true => format!("{command} the last edit"),
            false => format!("nothing to {command}"),
        });
    }
    if m.ctrl || m.alt || m.meta {
        return Ok("no default action for this shortcut".into());
    }
    match key.key.as_str() {
        "Enter" => {
            // An implicit submission commits the field first, as the browser does.
            if element.dyn_ref::<HtmlTextAreaElement>().is_none() {
                commit(None);
            }
            Ok(enter(element))
        }
        "Tab" => {
            commit(None);
            Ok(move_focus(element, m.shift))
        }
        " " if is_button_like(element) => {
            click(element)?;
            Ok("activated it".into())
        }
        "Backspace" | "Delete" if text_field => {
            let command = if key.key == "Backspace" {
                "delete"
            } else {
                "forwardDelete"
            };
            Ok(if edit(command, "") {
                "deleted a character".into()
            } else {
                "nothing to delete".into()
            })
        }
        k if key.types() && text_field => {
            set_text(element, k, false)?;
            Ok(format!("typed {k:?}"))
        }
        _ => Ok("dispatched the key events".into()),
    }
}

pub(super) fn is_text_field(element: &Element) -> bool {
    element
        .dyn_ref::<HtmlInputElement>()
        .is_some_and(|i| TEXT_INPUTS.contains(&i.type_().to_ascii_lowercase().as_str()))
        || element.dyn_ref::<HtmlTextAreaElement>().is_some()
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

/// Enter: a newline in a textarea; activation on buttons and links; in a form field, the form
/// is submitted the way the browser would (its default button, else requestSubmit()).
pub(super) fn enter(element: &Element) -> String {
    if element.dyn_ref::<HtmlTextAreaElement>().is_some()
        || element
            .dyn_ref::<HtmlElement>()
            .is_some_and(HtmlElement::is_content_editable)
    {
        if !edit("insertParagraph", "") && !edit("insertText", "\n") {
            let _ = set_by_script(element, "\n", false);
        }
        return "inserted a newline".into();
    }
    if is_button_like(element) {
        if let Some(html) = element.dyn_ref::<HtmlElement>() {
            html.click();
        }
        return "activated it".into();
    }
    let Some(form) = element
        .dyn_ref::<HtmlInputElement>()
        .and_then(HtmlInputElement::form)
    else {
        return "dispatched the key events (not in a form)".into();
    };
    submit(&form)
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

pub(super) const FOCUSABLE: &str = "a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex='-1']), [contenteditable]";

pub(super) fn move_focus(from: &Element, backwards: bool) -> String {
    let Ok(all) = document().and_then(|d| {
        d.query_selector_all(FOCUSABLE)
            .map_err(|_| page_error(String::new()))
    }) else {
        return "could not move focus".into();
    };
    let list: Vec<Element> = (0..all.length())
        .filter_map(|i| all.item(i)?.dyn_into().ok())
        .collect();
    let here = list.iter().position(|e| e == from);
    let next = match (here, backwards) {
        (Some(0), true) | (None, true) => list.last(),
        (Some(i), true) => list.get(i - 1),
        (Some(i), false) => list.get(i + 1).or(list.first()),
        (None, false) => list.first(),
    };
    match next {
        Some(next) => {
            crate::content::focus::focus(next, true);
            format!("moved focus to {}", describe(next))
        }
        None => "nothing focusable".into(),
    }
}
