//! Acting on the page as a user would: click, type, keys, scroll, hover, select, fill, upload,
//! drag. Synthetic events are untrusted, so where the browser would do something on a real
//! user's action (submit a form on Enter, follow a link), we do it ourselves and say so.

use claudezilla_protocol::args::FieldValue;
use claudezilla_protocol::envelope::Modifiers;
use claudezilla_protocol::{ErrorBody, ErrorCode, Outcome, Reply};
use wasm_bindgen::JsCast;
use web_sys::{
    DataTransfer, DragEvent, DragEventInit, Element, Event, EventInit, HtmlElement,
    HtmlFormElement, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement, InputEvent,
    InputEventInit, KeyboardEvent, KeyboardEventInit, MouseEvent, MouseEventInit, ScrollBehavior,
    ScrollIntoViewOptions, ScrollLogicalPosition, ScrollToOptions,
};

use super::find::{describe, document};

fn page_error(message: String) -> ErrorBody {
    ErrorBody::new(ErrorCode::PageError, message)
}

fn acted(what: String) -> Outcome {
    Ok(Reply::Acted { what })
}

fn scroll_into_view(element: &Element) {
    let options = ScrollIntoViewOptions::new();
    options.set_block(ScrollLogicalPosition::Center);
    options.set_behavior(ScrollBehavior::Instant);
    element.scroll_into_view_with_scroll_into_view_options(&options);
}

fn centre(element: &Element) -> (i32, i32) {
    let r = element.get_bounding_client_rect();
    (
        (r.left() + r.width() / 2.0) as i32,
        (r.top() + r.height() / 2.0) as i32,
    )
}

fn mouse(element: &Element, kind: &str, (x, y): (i32, i32), buttons: u16) {
    let init = MouseEventInit::new();
    init.set_bubbles(!matches!(kind, "mouseenter" | "mouseleave"));
    init.set_cancelable(true);
    init.set_composed(true);
    init.set_client_x(x);
    init.set_client_y(y);
    init.set_buttons(buttons);
    if let Ok(event) = MouseEvent::new_with_mouse_event_init_dict(kind, &init) {
        let _ = element.dispatch_event(&event);
    }
}

fn event(element: &Element, kind: &str) {
    let init = EventInit::new();
    init.set_bubbles(true);
    init.set_composed(true);
    if let Ok(e) = Event::new_with_event_init_dict(kind, &init) {
        let _ = element.dispatch_event(&e);
    }
}

fn input_event(element: &Element, data: Option<&str>) {
    let init = InputEventInit::new();
    init.set_bubbles(true);
    init.set_composed(true);
    init.set_input_type("insertText");
    init.set_data(data);
    if let Ok(e) = InputEvent::new_with_event_init_dict("input", &init) {
        let _ = element.dispatch_event(&e);
    }
}

pub fn click(element: &Element) -> Outcome {
    let name = describe(element);
    if element.matches(":disabled").unwrap_or(false) {
        return Err(page_error(format!("{name} is disabled"))
            .with_hint("wait for the page to enable it (fill required fields first)"));
    }
    scroll_into_view(element);
    let at = centre(element);
    // Pages listen for the whole press sequence, not only `click`.
    mouse(element, "mouseover", at, 0);
    mouse(element, "mousedown", at, 1);
    mouse(element, "mouseup", at, 0);
    match element.dyn_ref::<HtmlElement>() {
        Some(html) => {
            let _ = html.focus();
            // click() runs the default action too (follow a link, toggle a checkbox, submit).
            html.click();
        }
        None => mouse(element, "click", at, 0),
    }
    Ok(Reply::Clicked { element: name })
}

pub fn hover(element: &Element) -> Outcome {
    scroll_into_view(element);
    let at = centre(element);
    for kind in ["mouseover", "mouseenter", "mousemove"] {
        mouse(element, kind, at, 0);
    }
    acted(format!("Hovered over {}.", describe(element)))
}

/// Input types that take typed text.
const TEXT_INPUTS: &[&str] = &[
    "text",
    "search",
    "email",
    "url",
    "tel",
    "password",
    "number",
    "date",
    "time",
    "datetime-local",
    "month",
    "week",
    "",
];

/// Sets the text of an input, textarea or contenteditable; returns the new length.
fn set_text(element: &Element, text: &str, clear: bool) -> Result<usize, ErrorBody> {
    let name = describe(element);
    let length = if let Some(input) = element.dyn_ref::<HtmlInputElement>() {
        let kind = input.type_().to_ascii_lowercase();
        if !TEXT_INPUTS.contains(&kind.as_str()) {
            return Err(page_error(format!("{name} is an input of type {kind:?}, which takes no typed text"))
                .with_hint("use firefox_click for checkboxes, radios and buttons, firefox_upload_file for files"));
        }
        editable(input.disabled(), input.read_only(), &name)?;
        let _ = input.focus();
        let value = if clear {
            text.to_owned()
        } else {
            input.value() + text
        };
        // The element's own setter, seen through the content script's wrapper, is the native
        // one: frameworks that track `value` (React) notice the change on the input event.
        input.set_value(&value);
        input.value().chars().count()
    } else if let Some(area) = element.dyn_ref::<HtmlTextAreaElement>() {
        editable(area.disabled(), area.read_only(), &name)?;
        let _ = area.focus();
        let value = if clear {
            text.to_owned()
        } else {
            area.value() + text
        };
        area.set_value(&value);
        area.value().chars().count()
    } else if let Some(html) = element
        .dyn_ref::<HtmlElement>()
        .filter(|h| h.is_content_editable())
    {
        let _ = html.focus();
        let value = if clear {
            text.to_owned()
        } else {
            html.text_content().unwrap_or_default() + text
        };
        html.set_text_content(Some(&value));
        value.chars().count()
    } else {
        return Err(page_error(format!("{name} is not editable"))
            .with_hint("select an input, a textarea or a contenteditable element"));
    };
    input_event(element, Some(text));
    event(element, "change");
    Ok(length)
}

fn editable(disabled: bool, read_only: bool, name: &str) -> Result<(), ErrorBody> {
    if disabled || read_only {
        let why = if disabled { "disabled" } else { "read-only" };
        return Err(page_error(format!("{name} is {why}")));
    }
    Ok(())
}

pub fn type_into(element: &Element, text: &str, clear: bool) -> Outcome {
    let value_length = set_text(element, text, clear)? as u32;
    Ok(Reply::Typed {
        element: describe(element),
        value_length,
    })
}

pub fn press_key(target: Option<Element>, key: &str, m: Modifiers) -> Outcome {
    let doc = document()?;
    let element = target
        .or_else(|| doc.active_element())
        .or_else(|| doc.body().map(Element::from));
    let Some(element) = element else {
        return Err(page_error("nothing to press the key on".into()));
    };
    if let Some(html) = element.dyn_ref::<HtmlElement>() {
        let _ = html.focus();
    }
    let init = KeyboardEventInit::new();
    init.set_key(key);
    init.set_code(&code_for(key));
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_composed(true);
    init.set_ctrl_key(m.ctrl);
    init.set_shift_key(m.shift);
    init.set_alt_key(m.alt);
    init.set_meta_key(m.meta);
    let down = KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init)
        .map(|e| element.dispatch_event(&e));
    // A handler that called preventDefault() asked for nothing else to happen.
    let prevented = matches!(down, Ok(Ok(false)));
    if let Ok(press) = KeyboardEvent::new_with_keyboard_event_init_dict("keypress", &init) {
        let _ = element.dispatch_event(&press);
    }
    let effect = if prevented {
        "the page handled it".to_owned()
    } else {
        default_action(&element, key, m)?
    };
    if let Ok(up) = KeyboardEvent::new_with_keyboard_event_init_dict("keyup", &init) {
        let _ = element.dispatch_event(&up);
    }
    acted(format!(
        "Pressed {key} on {}: {effect}.",
        describe(&element)
    ))
}

fn code_for(key: &str) -> String {
    match key.chars().count() {
        1 if key.chars().all(|c| c.is_ascii_alphabetic()) => {
            format!("Key{}", key.to_ascii_uppercase())
        }
        1 if key.chars().all(|c| c.is_ascii_digit()) => format!("Digit{key}"),
        _ => key.to_owned(),
    }
}

/// What the browser does for a real key press, which synthetic events do not trigger.
fn default_action(element: &Element, key: &str, m: Modifiers) -> Result<String, ErrorBody> {
    if m.ctrl || m.alt || m.meta {
        return Ok("no default action for a shortcut".into());
    }
    match key {
        "Enter" => Ok(enter(element)),
        "Tab" => Ok(move_focus(element, m.shift)),
        " " if is_button_like(element) => {
            click(element)?;
            Ok("activated it".into())
        }
        k if k.chars().count() == 1 && is_text_field(element) => {
            set_text(element, k, false)?;
            Ok(format!("typed {k:?}"))
        }
        _ => Ok("dispatched the key events".into()),
    }
}

fn is_text_field(element: &Element) -> bool {
    element
        .dyn_ref::<HtmlInputElement>()
        .is_some_and(|i| TEXT_INPUTS.contains(&i.type_().to_ascii_lowercase().as_str()))
        || element.dyn_ref::<HtmlTextAreaElement>().is_some()
        || element
            .dyn_ref::<HtmlElement>()
            .is_some_and(HtmlElement::is_content_editable)
}

fn is_button_like(element: &Element) -> bool {
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
fn enter(element: &Element) -> String {
    if let Some(area) = element.dyn_ref::<HtmlTextAreaElement>() {
        area.set_value(&(area.value() + "\n"));
        input_event(element, Some("\n"));
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

fn submit(form: &HtmlFormElement) -> String {
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

const FOCUSABLE: &str = "a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex='-1']), [contenteditable]";

fn move_focus(from: &Element, backwards: bool) -> String {
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
    match next.and_then(|e| e.dyn_ref::<HtmlElement>()) {
        Some(next) => {
            let _ = next.focus();
            format!("moved focus to {}", describe(next))
        }
        None => "nothing focusable".into(),
    }
}

pub fn scroll(target: Option<Element>, x: Option<i32>, y: Option<i32>, smooth: bool) -> Outcome {
    let window = web_sys::window().ok_or_else(|| page_error("no window".into()))?;
    let before = (
        window.scroll_x().unwrap_or(0.0),
        window.scroll_y().unwrap_or(0.0),
    );
    let behavior = if smooth {
        ScrollBehavior::Smooth
    } else {
        ScrollBehavior::Instant
    };
    let what = match &target {
        Some(element) => {
            let options = ScrollIntoViewOptions::new();
            options.set_block(ScrollLogicalPosition::Center);
            options.set_behavior(behavior);
            element.scroll_into_view_with_scroll_into_view_options(&options);
            describe(element)
        }
        None => {
            let options = ScrollToOptions::new();
            options.set_left(f64::from(x.unwrap_or(before.0 as i32)));
            options.set_top(f64::from(y.unwrap_or(before.1 as i32)));
            options.set_behavior(behavior);
            window.scroll_to_with_scroll_to_options(&options);
            format!(
                "x={}, y={}",
                x.map_or("-".into(), |v| v.to_string()),
                y.map_or("-".into(), |v| v.to_string())
            )
        }
    };
    let after = (
        window.scroll_x().unwrap_or(0.0),
        window.scroll_y().unwrap_or(0.0),
    );
    if after == before && !smooth {
        return acted(format!(
            "Scrolled to {what}: nothing moved (already there, or the page cannot scroll further); position {}, {}.",
            after.0, after.1
        ));
    }
    acted(format!(
        "Scrolled to {what}; the page is now at {}, {}.",
        after.0, after.1
    ))
}

pub fn select_option(element: &Element, values: &[String]) -> Outcome {
    let name = describe(element);
    let select = element
        .dyn_ref::<HtmlSelectElement>()
        .ok_or_else(|| page_error(format!("{name} is not a <select>")))?;
    if select.disabled() {
        return Err(page_error(format!("{name} is disabled")));
    }
    if values.len() > 1 && !select.multiple() {
        return Err(page_error(format!(
            "{name} takes one option, got {}",
            values.len()
        )));
    }
    let options = select.options();
    let mut picked = Vec::new();
    let mut all = Vec::new();
    for i in 0..options.length() {
        let Some(option) = options
            .get_with_index(i)
            .and_then(|o| o.dyn_into::<web_sys::HtmlOptionElement>().ok())
        else {
            continue;
        };
        let (value, label) = (option.value(), option.text().trim().to_owned());
        let wanted = values.iter().any(|v| *v == value || *v == label);
        if select.multiple() {
            option.set_selected(wanted);
        } else if wanted && picked.is_empty() {
            // Unselecting the others one by one would reset a single select to its first option.
            select.set_selected_index(i as i32);
        }
        if wanted {
            picked.push(label.clone());
        }
        all.push(label);
    }
    if picked.len() < values.len() {
        return Err(ErrorBody::new(
            ErrorCode::ElementNotFound,
            format!("{name} has no option {values:?}"),
        )
        .with_hint(format!("its options: {}", all.join(", "))));
    }
    input_event(element, None);
    event(element, "change");
    acted(format!("Selected {} in {name}.", picked.join(", ")))
}

/// Sets one form field by its kind; returns what it did.
pub fn fill(element: &Element, value: &FieldValue) -> Result<String, ErrorBody> {
    let name = describe(element);
    let kind = element
        .dyn_ref::<HtmlInputElement>()
        .map(|i| i.type_().to_ascii_lowercase());
    match (kind.as_deref(), value) {
        (Some("checkbox" | "radio"), v) => {
            let want = match v {
                FieldValue::Checked(b) => *b,
                FieldValue::Text(t) => matches!(
                    t.to_ascii_lowercase().as_str(),
                    "true" | "on" | "yes" | "1" | "checked"
                ),
            };
            let input = element.dyn_ref::<HtmlInputElement>().expect("an input");
            if input.checked() != want {
                click(element)?;
            }
            Ok(format!(
                "{name} {}",
                if input.checked() {
                    "checked"
                } else {
                    "unchecked"
                }
            ))
        }
        (_, FieldValue::Text(t)) if element.dyn_ref::<HtmlSelectElement>().is_some() => {
            select_option(element, std::slice::from_ref(t)).map(|_| format!("{name} = {t:?}"))
        }
        (_, FieldValue::Text(t)) => set_text(element, t, true).map(|_| format!("{name} = {t:?}")),
        (_, FieldValue::Checked(b)) => Err(page_error(format!("{name} takes text, got {b}"))),
    }
}

pub fn upload(element: &Element, name: &str, mime: &str, bytes: &[u8]) -> Outcome {
    let described = describe(element);
    let input = element
        .dyn_ref::<HtmlInputElement>()
        .filter(|i| i.type_().eq_ignore_ascii_case("file"))
        .ok_or_else(|| page_error(format!("{described} is not an <input type=file>")))?;
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let options = web_sys::FilePropertyBag::new();
    options.set_type(mime);
    let file = web_sys::File::new_with_u8_array_sequence_and_options(&parts, name, &options)
        .map_err(|e| {
            page_error(format!(
                "cannot make the file: {}",
                crate::web::js_error_message(&e)
            ))
        })?;
    let transfer = DataTransfer::new().map_err(|e| page_error(crate::web::js_error_message(&e)))?;
    transfer
        .items()
        .add_with_file(&file)
        .map_err(|e| page_error(crate::web::js_error_message(&e)))?;
    input.set_files(transfer.files().as_ref());
    input_event(element, None);
    event(element, "change");
    acted(format!(
        "Attached {name} ({} bytes) to {described}.",
        bytes.len()
    ))
}

pub fn drag(from: &Element, to: &Element) -> Outcome {
    scroll_into_view(from);
    let start = centre(from);
    let transfer = DataTransfer::new().ok();
    let drag_event = |target: &Element, kind: &str, at: (i32, i32)| {
        let init = DragEventInit::new();
        init.set_bubbles(true);
        init.set_cancelable(true);
        init.set_composed(true);
        init.set_client_x(at.0);
        init.set_client_y(at.1);
        init.set_data_transfer(transfer.as_ref());
        if let Ok(e) = DragEvent::new_with_event_init_dict(kind, &init) {
            let _ = target.dispatch_event(&e);
        }
    };
    // Both the mouse sequence (for libraries that track the pointer) and HTML5 drag and drop.
    mouse(from, "mousedown", start, 1);
    drag_event(from, "dragstart", start);
    let end = centre(to);
    mouse(to, "mousemove", end, 1);
    drag_event(to, "dragenter", end);
    drag_event(to, "dragover", end);
    drag_event(to, "drop", end);
    drag_event(from, "dragend", end);
    mouse(to, "mouseup", end, 0);
    acted(format!("Dragged {} onto {}.", describe(from), describe(to)))
}
