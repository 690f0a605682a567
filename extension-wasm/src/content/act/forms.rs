//! Form controls: choosing options of a select, filling fields by kind, attaching files.

use claudezilla_protocol::envelope::{FieldEntry, Typing};
use claudezilla_protocol::{ErrorBody, ErrorCode, Outcome};
use wasm_bindgen::JsCast;
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
