//! The user's secrets in this frame: checked against the frame's own site and the field's
//! kind before a key goes in; once typed, the field is marked and its value shown only as
//! `<secret:NAME>` (whatever the page did to it: cut by `maxlength`, reformatted). The value
//! is hidden wherever else this frame shows text ([`crate::hidden`]).

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::args::FilledSecret;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Element;

use crate::secret_fields;

thread_local! {
    /// Fields a secret was typed into → the placeholder they show.
    static HOLDERS: js_sys::WeakMap = js_sys::WeakMap::new();
}

/// Lets `secret` go into `element` if it may here ([`crate::secret_fields`] decides), and
/// remembers it there (answers show the field's value as the secret's name).
pub fn admit(secret: &FilledSecret, element: &Element) -> Result<(), ErrorBody> {
    check(secret, element)?;
    remember(secret, element);
    Ok(())
}

fn check(secret: &FilledSecret, element: &Element) -> Result<(), ErrorBody> {
    let location = web_sys::window().map(|w| w.location());
    let scheme = location.as_ref().and_then(|l| l.protocol().ok());
    let host = location.as_ref().and_then(|l| l.hostname().ok());
    secret_fields::check(
        secret,
        scheme.as_deref().unwrap_or(""),
        host.as_deref().unwrap_or(""),
        &super::dom::field_of(element),
    )
}

/// Remembers a secret typed into `field`.
fn remember(secret: &FilledSecret, field: &Element) {
    crate::hidden::learn([secret]);
    let placeholder = JsValue::from(secret.name.placeholder());
    HOLDERS.with(|h| h.set(field.unchecked_ref(), &placeholder));
}

/// What a field that holds a secret shows instead of its value.
pub fn held(field: &Element) -> Option<String> {
    HOLDERS.with(|h| h.get(field.unchecked_ref()).as_string())
}
