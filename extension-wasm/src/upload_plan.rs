//! Where `firefox_upload_file` puts a file, as a person's pick would: the element itself when
//! it is a file field, the file field its label names, one inside it, or the one its click
//! opens the chooser of (a drop zone's button clicking a hidden field), with the words that
//! say which (`field`, over [`Picker`]); else the file dropped on the element as a drag from
//! the desktop brings it, when the zone says it takes a drop by cancelling `dragover`, or the
//! error saying nothing took it (`drop_on`, over [`DropZone`]); and the answers' words.
//! `content/act/forms.rs`
//! implements both; tested on a page of the tests' own.

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

/// A file as the answers name it: its name and size.
pub fn file_named(name: &str, size: usize) -> String {
    format!("{name} ({size} bytes)")
}

/// The answer to `file` attached to the field found for `to` (`way`: how, from [`field`]).
pub fn attached(file: &str, to: &str, way: &str) -> String {
    format!("Attached {file} to {to}{way}.")
}

/// A zone a file is dropped on.
pub trait DropZone {
    type Element;

    /// An HTML5 drag event at the drop point, carrying the file; false when a handler
    /// cancelled it.
    fn drag_event(&self, el: &Self::Element, kind: &'static str) -> bool;
    fn describe(&self, el: &Self::Element) -> String;
}

/// Drops the file (`what`: its name and size) on `el`: `dragenter`, `dragover`, and `drop`
/// only where the zone cancelled `dragover` (else `dragleave`, and the error).
pub fn drop_on<D: DropZone>(page: &D, el: &D::Element, what: &str) -> Result<String, ErrorBody> {
    page.drag_event(el, "dragenter");
    if page.drag_event(el, "dragover") {
        page.drag_event(el, "dragleave");
        return Err(no_field(&page.describe(el), what));
    }
    page.drag_event(el, "drop");
    Ok(format!(
        "Dropped {what} on {}: it has no file field, so the file came as a drag from the desktop brings it (dragenter, dragover, drop), and the zone took the drop.",
        page.describe(el)
    ))
}

/// Nowhere to put the file: no file field, and no drop zone either.
fn no_field(name: &str, what: &str) -> ErrorBody {
    ErrorBody::new(ErrorCode::PageError, format!(
        "{name} is no file field, holds none, its click opened no file chooser and it takes no drop (it did not accept dragover): {what} was not attached"
    ))
    .with_hint("upload to the page's <input type=file> (firefox_snapshot lists it as file), to the button that opens its file chooser, or to the zone where it takes dropped files")
}

#[cfg(test)]
mod tests;
