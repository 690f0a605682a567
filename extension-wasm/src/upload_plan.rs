//! `firefox_upload_file` carried out (`upload`, over [`Uploads`]): the file put where a
//! person's pick would put it — the element itself when it is a file field, the file field its
//! label names, one inside it, or the one its click opens the chooser of (a drop zone's button
//! clicking a hidden field), with the words that say which (`field`, over [`Picker`]) — else
//! dropped on the element as a drag from the desktop brings it, when the zone says it takes a
//! drop by cancelling `dragover`, or the error saying nothing took it; and the answers' words.
//! `content/act/forms.rs` implements both; tested on a page of the tests' own.

use claudezilla_protocol::{ErrorBody, ErrorCode};

/// The file fields an upload to an element may go through.
pub trait Picker {
    type Element;
    type Field;

    /// The element itself, when it is a file field.
    fn itself(&self, el: &Self::Element) -> Option<Self::Field>;
    /// The file field a label names.
    fn labelled(&self, el: &Self::Element) -> Option<Self::Field>;
    /// A file field inside the element.
    fn inside(&self, el: &Self::Element) -> Option<Self::Field>;
    /// Clicks the element as a person picking a file would, and catches the file field whose
    /// chooser the click opens (the chooser itself stopped).
    fn chooser_of(&self, el: &Self::Element) -> Option<Self::Field>;
}

/// The file field an upload to `el` goes through, in the order a person's pick finds it
/// (the click, which acts on the page, last); with the words for how it was found.
pub fn field<P: Picker>(page: &P, el: &P::Element) -> Option<(P::Field, &'static str)> {
    if let Some(field) = page.itself(el) {
        return Some((field, ""));
    }
    if let Some(field) = page.labelled(el) {
        return Some((field, ", through the file field its label names"));
    }
    if let Some(field) = page.inside(el) {
        return Some((field, ", through the file field inside it"));
    }
    page.chooser_of(el).map(|field| (field, ", through the file field its click opens the file chooser of (the chooser itself was not opened)"))
}

/// A file the agent uploads.
pub struct Upload<'a> {
    pub name: &'a str,
    pub mime: &'a str,
    pub bytes: &'a [u8],
}

/// The page a file is put in: its file fields ([`Picker`]), the file made for it and how it
/// is handed over.
pub trait Uploads: Picker {
    /// The file as the page holds it.
    type File;
    /// A `DataTransfer` holding the file.
    type Transfer;

    fn describe(&self, el: &Self::Element) -> String;
    /// The file made by the content script, for a field; the browser's words when it fails.
    fn make_file(&self, file: &Upload) -> Result<Self::File, String>;
    /// A transfer holding `file` alone; the browser's words when it fails.
    fn holding(&self, file: &Self::File) -> Result<Self::Transfer, String>;
    /// Sets the field's files to the transfer's.
    fn set_files(&self, field: &Self::Field, transfer: &Self::Transfer);
    /// Fires `input` at the field.
    fn input(&self, field: &Self::Field);
    /// Fires `change` at the field.
    fn change(&self, field: &Self::Field);
    /// A transfer holding the file, made and filled by the page's own constructors (a page
    /// sees only the files its own principal put in one), for a drop; the words when it fails.
    fn page_holding(&self, file: &Upload) -> Result<Self::Transfer, String>;
    fn scroll_into_view(&self, el: &Self::Element);
    /// The centre of the element's box.
    fn centre(&self, el: &Self::Element) -> (i32, i32);
    /// An HTML5 drag event at `at`, carrying `transfer`; false when a handler cancelled it.
    fn drag_event(
        &self,
        el: &Self::Element,
        kind: &'static str,
        at: (i32, i32),
        transfer: &Self::Transfer,
    ) -> bool;
}

/// Puts `file` in the file field an upload to `el` goes through ([`field`]): the field's
/// files set, then `input` and `change`; with no field, the file is dropped on `el`. The
/// answer; nothing in the page is touched when the file cannot be made.
pub fn upload<P: Uploads>(page: &P, el: &P::Element, file: &Upload) -> Result<String, ErrorBody> {
    let described = page.describe(el);
    let what = file_named(file.name, file.bytes.len());
    let Some((field, way)) = field(page, el) else {
        return drop_file(page, el, &what, file);
    };
    let made = page
        .make_file(file)
        .map_err(|e| refused(format!("cannot make the file: {e}")))?;
    let transfer = page.holding(&made).map_err(refused)?;
    page.set_files(&field, &transfer);
    page.input(&field);
    page.change(&field);
    Ok(attached(&what, &described, way))
}

/// A file as the answers name it: its name and size.
fn file_named(name: &str, size: usize) -> String {
    format!("{name} ({size} bytes)")
}

/// The answer to `file` attached to the field found for `to` (`way`: how, from [`field`]).
fn attached(file: &str, to: &str, way: &str) -> String {
    format!("Attached {file} to {to}{way}.")
}

/// No file field to set: the file (`what`: its name and size) is dropped on `el` as a drag
/// from the desktop drops it, at its centre once scrolled into view, for a zone that only
/// takes drops; the transfer made first, so a failure leaves the page untouched.
fn drop_file<P: Uploads>(
    page: &P,
    el: &P::Element,
    what: &str,
    file: &Upload,
) -> Result<String, ErrorBody> {
    let transfer = page.page_holding(file).map_err(|e| {
        refused(format!(
            "cannot make the dropped file {what} in the page: {e}"
        ))
    })?;
    page.scroll_into_view(el);
    let at = page.centre(el);
    drop_on(page, el, what, at, &transfer)
}

/// Drops the file (`what`) on `el` at `at`: `dragenter`, `dragover`, and `drop` only where the
/// zone cancelled `dragover` (else `dragleave`, and the error).
fn drop_on<P: Uploads>(
    page: &P,
    el: &P::Element,
    what: &str,
    at: (i32, i32),
    transfer: &P::Transfer,
) -> Result<String, ErrorBody> {
    let event = |kind| page.drag_event(el, kind, at, transfer);
    event("dragenter");
    if event("dragover") {
        event("dragleave");
        return Err(no_field(&page.describe(el), what));
    }
    event("drop");
    Ok(format!(
        "Dropped {what} on {}: it has no file field, so the file came as a drag from the desktop brings it (dragenter, dragover, drop), and the zone took the drop.",
        page.describe(el)
    ))
}

fn refused(message: String) -> ErrorBody {
    ErrorBody::new(ErrorCode::PageError, message)
}

/// Nowhere to put the file: no file field, and no drop zone either.
fn no_field(name: &str, what: &str) -> ErrorBody {
    refused(format!(
        "{name} is no file field, holds none, its click opened no file chooser and it takes no drop (it did not accept dragover): {what} was not attached"
    ))
    .with_hint("upload to the page's <input type=file> (firefox_snapshot lists it as file), to the button that opens its file chooser, or to the zone where it takes dropped files")
}

#[cfg(test)]
mod tests;
