//! Key presses: keyboard events as real keystrokes carry them, and what the browser does for
//! a real press that synthetic events do not trigger (Enter submits, Tab moves focus, …), as
//! [`key_press`] decides over the page as [`Keys`] reaches it.

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::keys::{Chord, Key, Modifiers};
use wasm_bindgen::JsCast;
use web_sys::{
    Element, HtmlElement, HtmlFormElement, HtmlInputElement, HtmlTextAreaElement, KeyboardEvent,
    KeyboardEventInit,
};

use crate::content::dom::document;
use crate::content::find::describe;
use crate::input_plan::{self, Activation, KeyKind};
use crate::key_press::{self, Keyboard};
use crate::typing::Editor;

use super::*;

pub fn press_key(target: Option<Element>, chord: &Chord) -> Result<reply::Acted, ErrorBody> {
    let doc = document()?;
    let element = target
        .or_else(crate::content::focus::active)
        .or_else(|| doc.body().map(Element::from));
    acted(key_press::press_key(&Keys, element, chord)?)
}

/// A field that takes text, or any element inside an editor (`isContentEditable` is
/// inherited: a checkbox in a contenteditable host counts, as the editor handles its keys).
pub(super) fn is_text_field(element: &Element) -> bool {
    crate::content::dom::field_of(element).takes_text()
        || element
            .dyn_ref::<HtmlElement>()
            .is_some_and(HtmlElement::is_content_editable)
}

/// What Tab reaches ([`input_plan::tab_focusable`]).
static TAB_FOCUSABLE: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(input_plan::tab_focusable);

/// The page as a key press reaches it ([`key_press::Keyboard`]).
struct Keys;

impl Keyboard for Keys {
    type Element = Element;

    fn holds_focus(&self, el: &Element) -> bool {
        TextFields.holds_focus(el)
    }

    fn focus(&self, el: &Element, keyboard: bool) {
        crate::content::focus::focus(el, keyboard);
    }

    /// A keyboard event as a real keystroke has it, legacy `keyCode`/`charCode`/`which` included
    /// (`which` must be defined on the page's view of the event: the constructor leaves it 0).
    fn key_event(&self, element: &Element, kind: KeyKind, key: &Key, m: Modifiers) -> bool {
        let (key_code, char_code, which) = input_plan::codes(kind, key);
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
        let Ok(event) = KeyboardEvent::new_with_keyboard_event_init_dict(kind.name(), &init) else {
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

    fn takes_text(&self, el: &Element) -> bool {
        is_text_field(el)
    }

    fn editable(&self, el: &Element) -> bool {
        el.dyn_ref::<HtmlElement>()
            .is_some_and(HtmlElement::is_content_editable)
    }

    fn activation(&self, el: &Element) -> Activation {
        let input = el.dyn_ref::<HtmlInputElement>();
        key_press::activation(
            &el.local_name(),
            input.map(HtmlInputElement::type_).as_deref(),
            el.matches(":any-link").unwrap_or(false),
            el.get_attribute("role").as_deref() == Some("button"),
        )
    }

    fn form(&self, el: &Element) -> Option<Element> {
        let input = el.dyn_ref::<HtmlInputElement>()?;
        input.form().map(Element::from)
    }

    fn is_textarea(&self, el: &Element) -> bool {
        el.dyn_ref::<HtmlTextAreaElement>().is_some()
    }

    fn select_all_text(&self, el: &Element) {
        TextFields.place_caret(el, true);
    }

    fn edit(&self, command: &str, value: &str) -> bool {
        TextFields.edit(command, value)
    }

    fn commit(&self) {
        commit(None);
    }

    fn append_by_script(&self, el: &Element, text: &str) {
        TextFields.set_by_script(el, text, false);
    }

    fn activate(&self, el: &Element) {
        if let Some(html) = el.dyn_ref::<HtmlElement>() {
            html.click();
        }
    }

    fn type_text(&self, el: &Element, text: &str) -> Result<(), ErrorBody> {
        set_text(el, text, false).map(drop)
    }

    fn first_in(&self, within: &Element, selector: &str) -> Option<Element> {
        let first = within.query_selector(selector).ok().flatten();
        first.filter(|b| b.dyn_ref::<HtmlElement>().is_some())
    }

    fn disabled(&self, el: &Element) -> bool {
        el.matches(":disabled").unwrap_or(false)
    }

    fn request_submit(&self, form: &Element) -> Result<(), String> {
        let form: &HtmlFormElement = form.unchecked_ref();
        form.request_submit()
            .map_err(|e| crate::web::js_error_message(&e))
    }

    fn tab_order(&self) -> Option<Vec<Element>> {
        let all = document().ok()?.query_selector_all(&TAB_FOCUSABLE).ok()?;
        Some(
            (0..all.length())
                .filter_map(|i| all.item(i)?.dyn_into().ok())
                .collect(),
        )
    }

    fn describe(&self, el: &Element) -> String {
        describe(el)
    }
}
