//! Typing text into fields and editors as the editor would take it ([`crate::typing`] decides,
//! over the page as [`TextFields`] reaches it), and the `change` a committed edit fires
//! ([`edit_commit`] decides, over [`Changes`]).

use std::cell::Cell;
use std::rc::Rc;

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::reply;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, HtmlInputElement, HtmlTextAreaElement, Node};

use claudezilla_protocol::args::Typing;

use crate::caret;
use crate::composed::Kind;
use crate::content::dom::{document, field_of};
use crate::content::find::describe;
use crate::content::secrets;
use crate::edit_commit::{self, Commits, Current};
use crate::field_kind::Field;
use crate::typed::Entry;
use crate::typing::{self, Editor};

use super::*;

/// An editor's nodes, as the walk to the end of its text reads them ([`caret::Nodes`]).
struct Lines;

impl caret::Nodes for Lines {
    type Node = Node;

    fn last_child(&self, node: &Node) -> Option<Node> {
        node.last_child()
    }

    fn previous_sibling(&self, node: &Node) -> Option<Node> {
        node.previous_sibling()
    }

    fn kind(&self, node: &Node) -> Kind {
        match node.node_type() {
            Node::TEXT_NODE => Kind::Text(node.text_content().unwrap_or_default()),
            Node::ELEMENT_NODE => Kind::Element(node.node_name()),
            _ => Kind::Other,
        }
    }
}

thread_local! {
    /// The field being edited ([`edit_commit`]).
    static EDITING: Current<Element> = const { std::cell::RefCell::new(None) };
}

/// The edit is committed (focus moves on, Enter): `change` where the browser would
/// ([`edit_commit::commit`]). Not when acting on the field being edited (`next`).
pub fn commit(next: Option<&Element>) {
    EDITING.with(|e| edit_commit::commit(&Changes, e, next));
}

/// The page's fields as an edit's commit reaches them ([`edit_commit::Commits`]).
struct Changes;

impl Commits for Changes {
    type Element = Element;

    /// What typing reads ([`TextFields`]'s `value`).
    fn value(&self, element: &Element) -> Option<String> {
        Editor::value(&TextFields, element)
    }

    fn hear_change(&self, el: &Element) -> Rc<Cell<bool>> {
        let changed = Rc::new(Cell::new(false));
        let seen = changed.clone();
        let on_change = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(move || seen.set(true));
        let options = web_sys::AddEventListenerOptions::new();
        options.set_once(true);
        let _ = el.add_event_listener_with_callback_and_add_event_listener_options(
            "change",
            on_change.as_ref().unchecked_ref(),
            &options,
        );
        on_change.forget();
        changed
    }

    fn change(&self, el: &Element) {
        event(el, "change");
    }
}

/// Types `text` into a field ([`typing::set_text`]); returns the new length, and how.
pub(super) fn set_text(
    element: &Element,
    text: &str,
    clear: bool,
) -> Result<(usize, Entry), ErrorBody> {
    typing::set_text(&TextFields, element, text, clear)
}

/// Types text, or a secret once its site is checked (remembered so that answers show its name).
pub async fn type_typing(
    element: &Element,
    typing: &Typing,
    clear: bool,
) -> Result<reply::Typed, ErrorBody> {
    match typing {
        Typing::Text(text) => typing::type_into(&TextFields, element, text, clear).await,
        Typing::Secret(secret) => {
            secrets::admit(secret, element)?;
            typing::type_into(&TextFields, element, &secret.value, clear).await
        }
    }
}

/// The page's text fields and editors as typing reaches them ([`typing::Editor`]).
pub(super) struct TextFields;

impl Editor for TextFields {
    type Element = Element;

    fn field(&self, el: &Element) -> Field {
        field_of(el)
    }

    /// Is focus on `element`, or (an editor) inside it?
    fn holds_focus(&self, element: &Element) -> bool {
        crate::content::focus::active().is_some_and(|a| {
            &a == element
                || (element
                    .dyn_ref::<HtmlElement>()
                    .is_some_and(HtmlElement::is_content_editable)
                    && element.contains(Some(&a)))
        })
    }

    fn focus(&self, el: &Element) {
        crate::content::focus::focus(el, false);
    }

    /// The value of a text field, or a contenteditable's text as the page reads it: its lines
    /// (block elements) separated by newlines, without the invisible characters editors keep in
    /// the DOM for the caret (`\u{feff}`, `\u{200b}`).
    fn value(&self, element: &Element) -> Option<String> {
        if let Some(input) = element.dyn_ref::<HtmlInputElement>() {
            return Some(input.value());
        }
        if let Some(area) = element.dyn_ref::<HtmlTextAreaElement>() {
            return Some(area.value());
        }
        element
            .dyn_ref::<HtmlElement>()
            .filter(|h| h.is_content_editable())
            .map(|h| h.inner_text().replace(['\u{feff}', '\u{200b}'], ""))
    }

    /// Remembered until committed ([`edit_commit::begin`]).
    fn editing(&self, el: &Element, before: String) {
        EDITING.with(|e| edit_commit::begin(&Changes, e, el, before));
    }

    /// Puts the caret at the end of the field, or selects all of it (to be replaced).
    fn place_caret(&self, element: &Element, select_all: bool) {
        if let Some(input) = element.dyn_ref::<HtmlInputElement>() {
            if select_all {
                input.select();
            } else {
                // Some input types (email, number) have no selection: typing appends there anyway.
                let end = input.value().encode_utf16().count() as u32;
                let _ = input.set_selection_range(end, end);
            }
        } else if let Some(area) = element.dyn_ref::<HtmlTextAreaElement>() {
            if select_all {
                area.select();
            } else {
                let end = area.value().encode_utf16().count() as u32;
                let _ = area.set_selection_range(end, end);
            }
        } else if let Some(selection) =
            web_sys::window().and_then(|w| w.get_selection().ok().flatten())
        {
            let _ = selection.select_all_children(element);
            if !select_all {
                // Inside the last line, not after it: an editor would make a new paragraph there.
                let (node, offset) = caret::end_of_text(&Lines, element);
                let _ = selection.collapse_with_offset(Some(&node), offset);
            }
        }
    }

    /// Runs an editing command on the focused field; false when the browser would not.
    fn edit(&self, command: &str, value: &str) -> bool {
        document()
            .ok()
            .and_then(|d| d.dyn_into::<web_sys::HtmlDocument>().ok())
            .and_then(|d| {
                d.exec_command_with_show_ui_and_value(command, false, value)
                    .ok()
            })
            .unwrap_or(false)
    }

    /// The fallback: the element's own value setter (seen through the content script's wrapper it
    /// is the native one, so React-style value tracking notices), then input and change events.
    fn set_by_script(&self, element: &Element, text: &str, clear: bool) -> usize {
        let joined = |old: String| if clear { text.to_owned() } else { old + text };
        let length = if let Some(input) = element.dyn_ref::<HtmlInputElement>() {
            input.set_value(&joined(input.value()));
            input.value().chars().count()
        } else if let Some(area) = element.dyn_ref::<HtmlTextAreaElement>() {
            area.set_value(&joined(area.value()));
            area.value().chars().count()
        } else {
            let value = joined(element.text_content().unwrap_or_default());
            element.set_text_content(Some(&value));
            value.chars().count()
        };
        input_event(element, Some(text));
        event(element, "change");
        length
    }

    fn now(&self) -> f64 {
        crate::web::now_ms()
    }

    fn sleep(&self, ms: u32) -> impl Future<Output = ()> {
        crate::web::sleep(ms)
    }

    fn max_length(&self, el: &Element) -> Option<String> {
        el.get_attribute("maxlength")
    }

    fn describe(&self, el: &Element) -> String {
        describe(el)
    }
}
