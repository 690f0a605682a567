//! Form controls: choosing options of a select, filling fields by kind, attaching files (an
//! upload's order of steps, where the file goes and the words are [`upload_plan`]'s, over the
//! page as [`FileFields`] reaches it).

use std::cell::RefCell;
use std::rc::Rc;

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::args::FieldEntry;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{
    DataTransfer, Element, Event, EventTarget, HtmlInputElement, HtmlOptionElement,
    HtmlSelectElement,
};

use crate::backstop::Armed;
use crate::content::find::describe;
use crate::content::secrets;
use crate::field_kind::{self, Fill, Select};
use crate::upload_plan::{self, Picker, Upload, Uploads};

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
    let (disabled, multiple) = (select.disabled(), select.multiple());
    let picked = Select {
        name: &name,
        disabled,
        multiple,
        options: &read,
    }
    .pick(values)?;
    for (option, wanted) in options.iter().zip(picked.settings(multiple)) {
        if let Some(wanted) = wanted {
            option.set_selected(wanted);
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
            field_kind::check(&name, want, || input.checked(), || click(element).map(drop))
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

/// Attaches a file to a file field, or drops it on a zone ([`upload_plan::upload`]).
pub fn upload(
    element: &Element,
    name: &str,
    mime: &str,
    bytes: &[u8],
) -> Result<reply::Acted, ErrorBody> {
    let file = Upload { name, mime, bytes };
    acted(upload_plan::upload(&FileFields, element, &file)?)
}

/// A `DataTransfer` holding the file, made by the page's own constructors and filled by its
/// own `items.add`: Firefox shows a page only the files its own principal put in a transfer
/// (measured: a file an extension adds reads as `files.length` 0 to the page's drop handler).
fn page_transfer(&Upload { name, mime, bytes }: &Upload) -> Result<DataTransfer, JsValue> {
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

/// The page's file fields as an upload finds them ([`upload_plan::Picker`]).
struct FileFields;

impl Picker for FileFields {
    type Element = Element;
    type Field = HtmlInputElement;

    fn itself(&self, el: &Element) -> Option<HtmlInputElement> {
        file_field(el).cloned()
    }

    fn labelled(&self, el: &Element) -> Option<HtmlInputElement> {
        let control = el.dyn_ref::<web_sys::HtmlLabelElement>()?.control()?;
        self.itself(&control)
    }

    fn inside(&self, el: &Element) -> Option<HtmlInputElement> {
        let inner = el.query_selector("input[type=file]").ok()??;
        self.itself(&inner)
    }

    /// Clicks `element` as a person would to pick a file, and catches the file field whose
    /// chooser that click opens (its `click()` on the field, heard on the way down), stopping the
    /// chooser itself.
    fn chooser_of(&self, element: &Element) -> Option<HtmlInputElement> {
        let caught: Rc<RefCell<Option<HtmlInputElement>>> = Default::default();
        let keep = caught.clone();
        let listening = file_field_clicks(move |e, field| {
            e.prevent_default();
            *keep.borrow_mut() = Some(field.clone());
        })?;
        let clicked = click(element);
        drop(listening);
        clicked.ok()?;
        caught.take()
    }
}

/// The file and its handing over ([`upload_plan::Uploads`]).
impl Uploads for FileFields {
    type File = web_sys::File;
    type Transfer = DataTransfer;

    fn describe(&self, el: &Element) -> String {
        describe(el)
    }

    fn make_file(&self, &Upload { name, mime, bytes }: &Upload) -> Result<web_sys::File, String> {
        let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
        let options = web_sys::FilePropertyBag::new();
        options.set_type(mime);
        web_sys::File::new_with_u8_array_sequence_and_options(&parts, name, &options)
            .map_err(|e| crate::web::js_error_message(&e))
    }

    fn holding(&self, file: &web_sys::File) -> Result<DataTransfer, String> {
        let transfer = DataTransfer::new().map_err(|e| crate::web::js_error_message(&e))?;
        let added = transfer.items().add_with_file(file);
        added.map_err(|e| crate::web::js_error_message(&e))?;
        Ok(transfer)
    }

    fn set_files(&self, field: &HtmlInputElement, transfer: &DataTransfer) {
        field.set_files(transfer.files().as_ref());
    }

    fn input(&self, field: &HtmlInputElement) {
        input_event(field, None);
    }

    fn change(&self, field: &HtmlInputElement) {
        event(field, "change");
    }

    fn page_holding(&self, file: &Upload) -> Result<DataTransfer, String> {
        page_transfer(file).map_err(|e| crate::web::js_error_message(&e))
    }

    fn scroll_into_view(&self, el: &Element) {
        scroll_into_view(el, false);
    }

    fn centre(&self, el: &Element) -> (i32, i32) {
        centre(el)
    }

    fn drag_event(
        &self,
        el: &Element,
        kind: &'static str,
        at: (i32, i32),
        transfer: &DataTransfer,
    ) -> bool {
        drag_event(el, kind, at, transfer)
    }
}

/// `target` when it is a file field.
fn file_field(target: &impl JsCast) -> Option<&HtmlInputElement> {
    target
        .dyn_ref::<HtmlInputElement>()
        .filter(|i| i.type_().eq_ignore_ascii_case("file"))
}

const CLICK: &str = "click";

/// Hears, until dropped, each click on a file field of the page on its way down (before the
/// page's own handlers): `heard` is given the click and the field.
pub(super) fn file_field_clicks(
    mut heard: impl FnMut(&Event, &HtmlInputElement) + 'static,
) -> Option<Armed> {
    let window: EventTarget = web_sys::window()?.into();
    let listener = Closure::<dyn FnMut(Event)>::new(move |e: Event| {
        // A person's own click meanwhile is theirs: their chooser opens.
        if e.is_trusted() {
            return;
        }
        if let Some(field) = e.target().as_ref().and_then(file_field) {
            heard(&e, field);
        }
    });
    window
        .add_event_listener_with_callback_and_bool(CLICK, listener.as_ref().unchecked_ref(), true)
        .ok()?;
    Some(Armed::new(move || {
        let callback = listener.as_ref().unchecked_ref();
        let _ = window.remove_event_listener_with_callback_and_bool(CLICK, callback, true);
    }))
}
