//! The user's secrets in this frame: checked against the frame's own site before a key goes
//! in, and hidden wherever a field's value is shown once typed.

use std::cell::RefCell;

use claudezilla_protocol::args::FilledSecret;
use claudezilla_protocol::{ErrorBody, ErrorCode};
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlInputElement, HtmlTextAreaElement};

use crate::redact::TypedSecrets;

thread_local! {
    static TYPED: RefCell<TypedSecrets> = RefCell::default();
}

/// May `secret` go into `element` here? Only a text field (a page's text holds no secret
/// whole), in a frame whose own site the secret is bound to.
pub fn check(secret: &FilledSecret, element: &Element) -> Result<(), ErrorBody> {
    let field = element
        .dyn_ref::<HtmlInputElement>()
        .is_some_and(|i| !matches!(i.type_().as_str(), "checkbox" | "radio" | "file" | "hidden"))
        || element.has_type::<HtmlTextAreaElement>();
    if !field {
        return Err(ErrorBody::new(
            ErrorCode::InvalidArgument,
            format!(
                "secret {} is typed only into inputs and textareas",
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

pub fn remember(secret: &FilledSecret) {
    TYPED.with(|t| t.borrow_mut().remember(&secret.name, &secret.value));
}

/// `text` with every secret typed here replaced by `<secret:NAME>`.
pub fn hide(text: &str) -> String {
    TYPED.with(|t| t.borrow().hide(text).into_owned())
}
