//! The user's secrets in this frame: checked against the frame's own site and the field's
//! kind before a key goes in; once typed, the field is marked and its value shown only as
//! `<secret:NAME>` (whatever the page did to it: cut by `maxlength`, reformatted). The value
//! is hidden wherever else this frame shows text ([`crate::hidden`]).

use claudezilla_protocol::args::{Fields, FilledSecret};
use claudezilla_protocol::{ErrorBody, ErrorCode};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlInputElement, HtmlTextAreaElement};

thread_local! {
    /// Fields a secret was typed into → the placeholder they show.
    static HOLDERS: js_sys::WeakMap = js_sys::WeakMap::new();
}

/// Input types a secret may be typed into with the user's `:any-field` (text a person types
/// and nothing shows as a label).
const TEXT_TYPES: &[&str] = &["", "text", "password", "email", "tel", "url", "search"];

/// `autocomplete` tokens of the fields a login form takes a secret in.
const LOGIN_TOKENS: &[&str] = &[
    "username",
    "current-password",
    "new-password",
    "one-time-code",
];

/// May `secret` go into `element` here? Only in a frame whose own site the secret is bound
/// to, and only into a login form's fields unless the user let it into any text field there.
pub fn check(secret: &FilledSecret, element: &Element) -> Result<(), ErrorBody> {
    let location = web_sys::window().map(|w| w.location());
    let scheme = location.as_ref().and_then(|l| l.protocol().ok());
    let host = location.as_ref().and_then(|l| l.hostname().ok());
    let fields = secret
        .may_go_to(
            scheme.as_deref().unwrap_or(""),
            host.as_deref().unwrap_or(""),
        )
        .map_err(|why| {
            ErrorBody::new(ErrorCode::NotAllowed, why).with_hint(
                "a secret goes only to the sites the user bound it to in the secrets file",
            )
        })?;
    let input = element.dyn_ref::<HtmlInputElement>();
    let kind = input.map(|i| i.type_().to_ascii_lowercase());
    let text_field = kind.as_deref().is_some_and(|k| TEXT_TYPES.contains(&k))
        || element.has_type::<HtmlTextAreaElement>();
    if !text_field {
        return Err(ErrorBody::new(
            ErrorCode::InvalidArgument,
            format!(
                "secret {} is typed only into text, password, email, tel, url or search inputs and textareas",
                secret.name
            ),
        ));
    }
    let login = kind.as_deref() == Some("password") || marked_for_login(element);
    match (fields, login) {
        (Fields::Any, _) | (Fields::Login, true) => Ok(()),
        (Fields::Login, false) => Err(ErrorBody::new(
            ErrorCode::NotAllowed,
            format!(
                "secret {} goes only into password fields and fields marked autocomplete=username, current-password, new-password or one-time-code; this field is none of them (its text could be published)",
                secret.name
            ),
        )
        .with_hint(
            "if the user wants it typed into any field of this site, they bind it as @site:any-field in the secrets file",
        )),
    }
}

/// Whether the page marked `element` as a login form's field (`autocomplete="username"`,
/// with any section or hint tokens before it).
fn marked_for_login(element: &Element) -> bool {
    element.get_attribute("autocomplete").is_some_and(|tokens| {
        tokens
            .split_ascii_whitespace()
            .any(|t| LOGIN_TOKENS.iter().any(|l| t.eq_ignore_ascii_case(l)))
    })
}

/// Remembers a secret typed into `field`.
pub fn remember(secret: &FilledSecret, field: &Element) {
    crate::hidden::learn([secret]);
    let placeholder = JsValue::from(secret.name.placeholder());
    HOLDERS.with(|h| h.set(field.unchecked_ref(), &placeholder));
}

/// What a field that holds a secret shows instead of its value.
pub fn held(field: &Element) -> Option<String> {
    HOLDERS.with(|h| h.get(field.unchecked_ref()).as_string())
}

/// A field's value as answers show it: its secret's name, else the value (which the cut it
/// goes through hides, [`crate::hidden`]).
pub fn shown_value(field: &Element, value: &str) -> String {
    held(field).unwrap_or_else(|| value.to_owned())
}
