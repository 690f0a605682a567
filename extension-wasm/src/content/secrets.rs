//! The user's secrets in this frame: checked against the frame's own site before a key goes
//! in; once typed, the field is marked and its value shown only as `<secret:NAME>` (whatever
//! the page did to it: cut by `maxlength`, reformatted), and the value is hidden wherever else
//! this frame shows text.

use std::cell::RefCell;

use claudezilla_protocol::args::FilledSecret;
use claudezilla_protocol::{ErrorBody, ErrorCode};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlInputElement, HtmlTextAreaElement};

use crate::redact::TypedSecrets;

thread_local! {
    static TYPED: RefCell<TypedSecrets> = RefCell::default();
    /// Fields a secret was typed into → the placeholder they show.
    static HOLDERS: js_sys::WeakMap = js_sys::WeakMap::new();
}

/// Input types a secret may be typed into (text a person types and nothing shows as a label).
const TEXT_TYPES: &[&str] = &["", "text", "password", "email", "tel", "url", "search"];

/// May `secret` go into `element` here? Only a text field, in a frame whose own site the
/// secret is bound to.
pub fn check(secret: &FilledSecret, element: &Element) -> Result<(), ErrorBody> {
    let field = element
        .dyn_ref::<HtmlInputElement>()
        .is_some_and(|i| TEXT_TYPES.contains(&i.type_().to_ascii_lowercase().as_str()))
        || element.has_type::<HtmlTextAreaElement>();
    if !field {
        return Err(ErrorBody::new(
            ErrorCode::InvalidArgument,
            format!(
                "secret {} is typed only into text, password, email, tel, url or search inputs and textareas",
                secret.name
            ),
        ));
    }
    let location = web_sys::window().map(|w| w.location());
    let scheme = location.as_ref().and_then(|l| l.protocol().ok());
    let host = location.as_ref().and_then(|l| l.hostname().ok());
    secret
        .may_go_to(
            scheme.as_deref().unwrap_or(""),
            host.as_deref().unwrap_or(""),
        )
        .map_err(|why| {
            ErrorBody::new(ErrorCode::NotAllowed, why).with_hint(
                "a secret goes only to the sites the user bound it to in the secrets file",
            )
        })
}

/// Remembers a secret typed into `field`.
pub fn remember(secret: &FilledSecret, field: &Element) {
    TYPED.with(|t| t.borrow_mut().remember(&secret.name, &secret.value));
    let placeholder = JsValue::from(secret.name.placeholder());
    HOLDERS.with(|h| h.set(field.unchecked_ref(), &placeholder));
}

/// What a field that holds a secret shows instead of its value.
pub fn held(field: &Element) -> Option<String> {
    HOLDERS.with(|h| h.get(field.unchecked_ref()).as_string())
}

/// A field's value as answers show it: its secret's name, else the value with every secret
/// typed here hidden.
pub fn shown_value(field: &Element, value: &str) -> String {
    held(field).unwrap_or_else(|| hide(value))
}

/// `text` with every secret typed here replaced by `<secret:NAME>`.
pub fn hide(text: &str) -> String {
    TYPED.with(|t| t.borrow().hide(text).into_owned())
}
