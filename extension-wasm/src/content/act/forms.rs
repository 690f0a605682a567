//! Form controls: choosing options of a select, filling fields by kind, attaching files.

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::args::FieldEntry;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{DataTransfer, Element, HtmlInputElement, HtmlOptionElement, HtmlSelectElement};

use crate::content::find::describe;
use crate::content::secrets;
use crate::field_kind::{self, Fill, Select};

use super::*;

pub fn select_option(element: &Element, values: &[String]) -> Result<reply::Acted, ErrorBody> {
    let name = describe(element);
    let select = element
        .dyn_ref::<HtmlSelectElement>()
        .ok_or_else(|| page_error(format!("{name} is not a <select>")))?;
    let options: Vec<HtmlOptionElement> = {
        let all = select.options();
        (0..all.length())
            .filter_map(|i| all.get_with_index(i)?.dyn_into().ok())
            .collect()
    };
    let read: Vec<(String, String)> = options
        .iter()
        .map(|o| (o.value(), o.text().trim().to_owned()))
        .collect();
    let picked = Select {
        name: &name,
        disabled: select.disabled(),
        multiple: select.multiple(),
        options: &read,
    }
    .pick(values)?;
    for (option, wanted) in options.iter().zip(&picked.selected) {
        // A single select's chosen option unselects the others itself (unselecting them one
        // by one would reset it to its first option).
        if select.multiple() || *wanted {
            option.set_selected(*wanted);
        }
    }
    input_event(element, None);
    event(element, "change");
    acted(format!("Selected {} in {name}.", picked.labels.join(", ")))
}

/// Sets one form field by its kind ([`field_kind::fill`]); returns what it did.
pub fn fill(element: &Element, value: &FieldEntry) -> Result<String, ErrorBody> {
    let name = describe(element);
    let input = element.dyn_ref::<HtmlInputElement>();
    let kind = input.map(|i| i.type_().to_ascii_lowercase());
    let select = element.dyn_ref::<HtmlSelectElement>().is_some();
    match field_kind::fill(&name, kind.as_deref(), select, value)? {
        Fill::Check(want) => {
            let input = input.expect("a check box is an input");
            if input.checked() != want {
                click(element)?;
            }
            let now = if input.checked() {
                "checked"
            } else {
                "unchecked"
            };
            Ok(format!("{name} {now}"))
        }
        Fill::Choose(t) => {
            select_option(element, &[t.to_owned()]).map(|_| format!("{name} = {t:?}"))
        }
        Fill::Type(t) => set_text(element, t, true).map(|_| format!("{name} = {t:?}")),
        Fill::TypeSecret(s) => {
            secrets::admit(s, element)?;
            set_text(element, &s.value, true).map(|_| format!("{name} = {}", s.name.placeholder()))
        }
    }
}

pub fn upload(
    element: &Element,
    name: &str,
    mime: &str,
    bytes: &[u8],
) -> Result<reply::Acted, ErrorBody> {
    let described = describe(element);
    let size = bytes.len();
    let Some((input, way)) = file_field(element) else {
        return drop_file(element, name, mime, bytes);
    };
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
    input_event(input.as_ref(), None);
    event(input.as_ref(), "change");
    acted(format!(
        "Attached {name} ({size} bytes) to {described}{way}."
    ))
}

/// No file field to set: the file is dropped on `element` as a drag from the desktop drops it
/// (`dragenter`, `dragover`, `drop` at its centre with a `DataTransfer` holding the file), for
/// a zone that only takes drops. A zone says it takes a drop by cancelling `dragover`; one
/// that does not is told, and nothing is dropped.
fn drop_file(
    element: &Element,
    name: &str,
    mime: &str,
    bytes: &[u8],
) -> Result<reply::Acted, ErrorBody> {
    let what = format!("{name} ({} bytes)", bytes.len());
    let transfer = page_transfer(name, mime, bytes).map_err(|e| {
        page_error(format!(
            "cannot make the dropped file {what} in the page: {}",
            crate::web::js_error_message(&e)
        ))
    })?;
    scroll_into_view(element);
    let at = centre(element);
    drag_event(element, "dragenter", at, &transfer);
    if drag_event(element, "dragover", at, &transfer) {
        drag_event(element, "dragleave", at, &transfer);
        return no_field(element, &what);
    }
    drag_event(element, "drop", at, &transfer);
    acted(format!(
        "Dropped {what} on {}: it has no file field, so the file came as a drag from the desktop brings it (dragenter, dragover, drop), and the zone took the drop.",
        describe(element)
    ))
}

/// A `DataTransfer` holding the file, made by the page's own constructors and filled by its
/// own `items.add`: Firefox shows a page only the files its own principal put in a transfer
/// (measured: a file an extension adds reads as `files.length` 0 to the page's drop handler).
fn page_transfer(name: &str, mime: &str, bytes: &[u8]) -> Result<DataTransfer, JsValue> {
    use crate::content::page_world;
    let page = page_world::global().ok_or_else(|| JsValue::from_str("no page world"))?;
    let parts = page_world::copy(&js_sys::Array::of1(&js_sys::Uint8Array::from(bytes)), &page)?;
    let options = js_sys::Object::new();
    js_sys::Reflect::set(&options, &"type".into(), &mime.into())?;
    let options = page_world::copy(&options, &page)?;
    let file = js_sys::Reflect::construct(
        &page_world::function(&page, &["File"])?,
        &js_sys::Array::of3(&parts, &name.into(), &options),
    )?;
    let transfer = js_sys::Reflect::construct(
        &page_world::function(&page, &["DataTransfer"])?,
        &js_sys::Array::new(),
    )?;
    let items = js_sys::Reflect::get(&transfer, &"items".into())?;
    page_world::function(&page, &["DataTransferItemList", "prototype", "add"])?
        .call1(&items, &file)?;
    Ok(transfer.unchecked_into())
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

/// Nowhere to put the file: no file field, and no drop zone either.
fn no_field(element: &Element, what: &str) -> Result<reply::Acted, ErrorBody> {
    Err(page_error(format!(
        "{} is no file field, holds none, its click opened no file chooser and it takes no drop (it did not accept dragover): {what} was not attached",
        describe(element)
    ))
    .with_hint("upload to the page's <input type=file> (firefox_snapshot lists it as file), to the button that opens its file chooser, or to the zone where it takes dropped files"))
}
