//! Typing carried out on a field, with [`typed`]'s decisions: a field that takes no typed text
//! refused ([`Field::check_typing`]), the field focused first where
//! focus is elsewhere (the caret then at its end), the edit remembered for its `change`, the
//! text put in by the editor's own command, else by script; then the value read again until
//! an editor that applies input in its own update has settled, and the answer. Over
//! [`Editor`], which `content/act/typing.rs` implements; tested on a field of the tests' own.

use claudezilla_protocol::{ErrorBody, reply};

use crate::field_kind::Field;
use crate::typed::{self, Edit, Entry, Settle};

/// What typing asks of the page.
pub trait Editor {
    type Element;

    /// What kind of field it is, as typing sees it.
    fn field(&self, el: &Self::Element) -> Field;
    /// Whether focus is on the field, or (an editor) inside it.
    fn holds_focus(&self, el: &Self::Element) -> bool;
    /// Moves focus to it, as a press of the pointer does.
    fn focus(&self, el: &Self::Element);
    /// A text field's value, or an editor's text as the page reads it.
    fn value(&self, el: &Self::Element) -> Option<String>;
    /// Remembers the edit of the field (its value `before`) until it is committed.
    fn editing(&self, el: &Self::Element, before: String);
    /// Puts the caret at the end of the field, or selects all of it.
    fn place_caret(&self, el: &Self::Element, select_all: bool);
    /// Runs an editing command on the focused field; false when the browser would not.
    fn edit(&self, command: &str, value: &str) -> bool;
    /// Sets the value by script, then sends `input` and `change`; the new length.
    fn set_by_script(&self, el: &Self::Element, text: &str, clear: bool) -> usize;
    fn now(&self) -> f64;
    fn sleep(&self, ms: u32) -> impl Future<Output = ()>;
    fn max_length(&self, el: &Self::Element) -> Option<String>;
    fn describe(&self, el: &Self::Element) -> String;
}

/// The value's length in characters (none: no value).
fn length<E: Editor>(page: &E, el: &E::Element) -> usize {
    page.value(el).unwrap_or_default().chars().count()
}

/// Types `text` into a field (at the caret, or over the selection; in place of everything
/// with `clear`) as the editor does; by script only where the editor will not. Returns the
/// new length, and how the text went in.
pub fn set_text<E: Editor>(
    page: &E,
    el: &E::Element,
    text: &str,
    clear: bool,
) -> Result<(usize, Entry), ErrorBody> {
    // Named only to refuse it: the answer names it once, after typing.
    page.field(el).check_typing(|| page.describe(el))?;
    // Typed where the caret is (or over the selection) when the field has focus already, as a
    // person types; otherwise the field is focused with the caret at its end.
    let had_focus = page.holds_focus(el);
    if !had_focus {
        page.focus(el);
    }
    if page.holds_focus(el) {
        page.editing(el, page.value(el).unwrap_or_default());
        if clear || !had_focus {
            page.place_caret(el, clear);
        }
        let done = match typed::edit_for(text, clear) {
            Edit::Delete => page.edit("delete", ""),
            Edit::Nothing => true,
            Edit::Insert => page.edit("insertText", text),
        };
        if done {
            return Ok((length(page, el), Entry::Editor));
        }
    }
    Ok((page.set_by_script(el, text, clear), Entry::Script))
}

/// Types `text` and says what the field kept.
pub async fn type_into<E: Editor>(
    page: &E,
    el: &E::Element,
    text: &str,
    clear: bool,
) -> Result<reply::Typed, ErrorBody> {
    let before = length(page, el);
    let (mut length, entry) = set_text(page, el, text, clear)?;
    let wanted = typed::wanted(text, before, clear);
    if length != wanted {
        length = settled_length(page, el, length).await;
    }
    let whole = page.value(el).is_some_and(|v| v.contains(text));
    Ok(reply::Typed {
        element: page.describe(el),
        value_length: length as u32,
        note: typed::note(entry, length, wanted, whole, || page.max_length(el)),
    })
}

/// The value's length once the field has settled ([`Settle`]).
async fn settled_length<E: Editor>(page: &E, el: &E::Element, length: usize) -> usize {
    let mut settle = Settle::new(page.now(), length);
    while settle.in_time(page.now()) {
        page.sleep(typed::SETTLE_READ_MS).await;
        let now = self::length(page, el);
        if settle.read(page.now(), now) {
            break;
        }
    }
    settle.length()
}

#[cfg(test)]
mod tests;
