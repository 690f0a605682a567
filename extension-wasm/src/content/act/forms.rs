//! Form controls: choosing options of a select, filling fields by kind, attaching files.

use claudezilla_protocol::envelope::{FieldEntry, Typing};
use claudezilla_protocol::{ErrorBody, ErrorCode, Outcome};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;
use web_sys::{DataTransfer, Element, HtmlInputElement, HtmlSelectElement};

use crate::content::find::describe;
use crate::content::secrets;

use super::*;

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
pub fn fill(element: &Element, value: &FieldEntry) -> Result<String, ErrorBody> {
    let name = describe(element);
    let kind = element
        .dyn_ref::<HtmlInputElement>()
        .map(|i| i.type_().to_ascii_lowercase());
    match (kind.as_deref(), value) {
        (Some("checkbox" | "radio"), v) => {
            let want = match v {
                FieldEntry::Checked(b) => *b,
                FieldEntry::Typed(Typing::Text(t)) => matches!(
                    t.to_ascii_lowercase().as_str(),
                    "true" | "on" | "yes" | "1" | "checked"
                ),
                FieldEntry::Typed(Typing::Secret(s)) => {
                    return Err(page_error(format!(
                        "{name} is a check box, not for secret {}",
                        s.name
                    )));
                }
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
        (_, FieldEntry::Typed(Typing::Text(t)))
            if element.dyn_ref::<HtmlSelectElement>().is_some() =>
        {
            select_option(element, std::slice::from_ref(t)).map(|_| format!("{name} = {t:?}"))
        }
        (_, FieldEntry::Typed(Typing::Text(t))) => {
            set_text(element, t, true).map(|_| format!("{name} = {t:?}"))
        }
        (_, FieldEntry::Typed(Typing::Secret(s))) => {
            secrets::check(s, element)?;
            secrets::remember(s, element);
            set_text(element, &s.value, true).map(|_| format!("{name} = {}", s.name.placeholder()))
        }
        (_, FieldEntry::Checked(b)) => Err(page_error(format!("{name} takes text, got {b}"))),
    }
}

pub fn upload(element: &Element, name: &str, mime: &str, bytes: &[u8]) -> Outcome {
    let described = describe(element);
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
    let size = bytes.len();
    let Some((input, way)) = file_field(element) else {
        return no_field(element, &format!("{name} ({size} bytes)"));
    };
    input.set_files(transfer.files().as_ref());
    input_event(input.as_ref(), None);
    event(input.as_ref(), "change");
    acted(format!(
        "Attached {name} ({size} bytes) to {described}{way}."
    ))
}

/// The file field an upload to `element` goes through, as a person's pick would: the element
/// itself, the field its label names, one inside it, or the one its click opens the file
/// chooser of (a drop zone's button clicking a hidden field); with how it was found.
fn file_field(element: &Element) -> Option<(HtmlInputElement, &'static str)> {
    let file = |e: &Element| {
        e.dyn_ref::<HtmlInputElement>()
            .filter(|i| i.type_().eq_ignore_ascii_case("file"))
            .cloned()
    };
    if let Some(input) = file(element) {
        return Some((input, ""));
    }
    if let Some(input) = element
        .dyn_ref::<web_sys::HtmlLabelElement>()
        .and_then(web_sys::HtmlLabelElement::control)
        .and_then(|c| file(&c))
    {
        return Some((input, ", through the file field its label names"));
    }
    if let Some(input) = element
        .query_selector("input[type=file]")
        .ok()
        .flatten()
        .and_then(|c| file(&c))
    {
        return Some((input, ", through the file field inside it"));
    }
    chooser_of(element).map(|input| (input, ", through the file field its click opens the file chooser of (the chooser itself was not opened)"))
}

/// Clicks `element` as a person would to pick a file, and catches the file field whose
/// chooser that click opens (its `click()` on the field, heard on the way down), stopping the
/// chooser itself.
fn chooser_of(element: &Element) -> Option<HtmlInputElement> {
    let window = web_sys::window()?;
    let caught: std::rc::Rc<std::cell::RefCell<Option<HtmlInputElement>>> = Default::default();
    let keep = caught.clone();
    let listener = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
        let Some(input) = e
            .target()
            .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
            .filter(|i| i.type_().eq_ignore_ascii_case("file"))
        else {
            return;
        };
        e.prevent_default();
        *keep.borrow_mut() = Some(input);
    });
    let callback = listener.as_ref().unchecked_ref();
    window
        .add_event_listener_with_callback_and_bool(CLICK, callback, true)
        .ok()?;
    let clicked = click(element);
    let _ = window.remove_event_listener_with_callback_and_bool(CLICK, callback, true);
    clicked.ok()?;
    caught.take()
}

const CLICK: &str = "click";

/// No file field to set: a zone that only takes drops cannot get the file from us. Firefox
/// shows a page none of the files an extension puts in a drop's `DataTransfer` (measured:
/// `dataTransfer.files` is empty to the page, though `types` says "Files"), so nothing is
/// dropped and the answer says why.
fn no_field(element: &Element, what: &str) -> Outcome {
    Err(page_error(format!(
        "{} is no file field, holds none, and its click opened no file chooser: {what} was not attached. \
         A zone that only takes dropped files cannot get one from an extension: Firefox hides such a file from the page",
        describe(element)
    ))
    .with_hint("upload to the zone's <input type=file> (firefox_snapshot lists it as file) or to the button that opens its file chooser"))
}
