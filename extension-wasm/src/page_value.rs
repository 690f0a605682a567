//! A page's JavaScript values as answers write them: a console message's parts and an
//! uncaught rejection's reason (`describe`: strings as they are, errors as `Name: message`,
//! other objects as JSON where they have one), `firefox_evaluate`'s result (`evaluated`: by
//! its type, cut with a note) and what its expression threw (`threw`: with the reason where
//! the page's policy forbids `eval`), and a `prompt`'s default answer as the page gave it
//! (`prompt_default`). Over [`Value`], which `content/console.rs` implements.

use claudezilla_protocol::reply::Evaluated;
use claudezilla_protocol::{ErrorBody, ErrorCode};

/// Characters of an evaluated result sent back; more is cut with a note.
const MAX_RESULT: usize = 50_000;

/// What describing asks of a value. A page's object may throw or lie: each read is caught.
pub trait Value {
    fn as_text(&self) -> Option<String>;
    fn as_number(&self) -> Option<f64>;
    fn as_bool(&self) -> Option<bool>;
    fn is_null(&self) -> bool;
    fn is_undefined(&self) -> bool;
    fn is_object(&self) -> bool;
    /// What `typeof` says of it.
    fn type_of(&self) -> String;
    /// Its property `key`, when that is text.
    fn text_at(&self, key: &str) -> Option<String>;
    /// Its property `key`.
    fn property(&self, key: &str) -> Self;
    /// `JSON.stringify` of it, when that gives text.
    fn json(&self) -> Option<String>;
    /// Its own `toString()`, when that gives text.
    fn own_text(&self) -> Option<String>;
}

/// A page's default answer as `prompt` takes it (`prompt(message, 5)` defaults to "5"); none
/// when left out. An object's own `toString` is not run (page code, which may throw): it
/// counts as no default.
pub fn prompt_default<V: Value>(value: &V) -> Option<String> {
    if let Some(text) = value.as_text() {
        return Some(text);
    }
    if value.is_null() {
        return Some("null".into());
    }
    if value.as_number().is_some() || value.as_bool().is_some() {
        return Some(describe(value));
    }
    None
}

/// A page value as text: strings as they are, errors as `Name: message`, other objects as
/// JSON where they have one.
pub fn describe<V: Value>(value: &V) -> String {
    if let Some(s) = value.as_text() {
        return s;
    }
    if let Some(n) = value.as_number() {
        return match n {
            f64::INFINITY => "Infinity".into(),
            f64::NEG_INFINITY => "-Infinity".into(),
            n => n.to_string(),
        };
    }
    if let Some(b) = value.as_bool() {
        return b.to_string();
    }
    if value.is_null() {
        return "null".into();
    }
    if value.is_undefined() {
        return "undefined".into();
    }
    if !value.is_object() {
        // bigint and symbol.
        return own_text(value);
    }
    if let (Some(name), Some(message)) = (value.text_at("name"), value.text_at("message")) {
        return format!("{name}: {message}");
    }
    match value.json() {
        Some(json) if json != "{}" => json,
        _ => own_text(value),
    }
}

/// Its `toString()`, else its type in brackets.
fn own_text<V: Value>(value: &V) -> String {
    value
        .own_text()
        .unwrap_or_else(|| format!("[{}]", value.type_of()))
}

/// What `firefox_evaluate`'s expression threw.
pub fn threw<V: Value>(e: &V) -> ErrorBody {
    let mut what = describe(e);
    // Firefox refuses eval under a policy without 'unsafe-eval' with an `EvalError`, the type
    // the language keeps for that (the page's own code has no reason to throw one).
    if e.text_at("name").as_deref() == Some("EvalError") {
        what.push_str(" (this page's Content Security Policy forbids eval)");
    }
    ErrorBody::new(ErrorCode::PageError, format!("the expression threw {what}"))
}

/// The page's own world could not be reached.
pub fn no_world() -> ErrorBody {
    ErrorBody::new(ErrorCode::PageError, "cannot reach the page's world")
}

/// The page's world has no `eval` to run the expression with.
pub fn no_eval() -> ErrorBody {
    ErrorBody::new(ErrorCode::PageError, "the page has no eval")
}

/// How long a returned promise is waited for: what is left of the call until `until`.
pub fn settle_ms(until: u64, now: f64) -> u32 {
    (until as f64 - now).max(0.0) as u32
}

/// A returned promise that did not settle in the time left.
pub fn unsettled() -> ErrorBody {
    ErrorBody::new(
        ErrorCode::Timeout,
        "the returned promise did not settle in time",
    )
    .with_hint("pass a larger timeout, or return a value instead of a promise")
}

/// `firefox_evaluate`'s answer for `value`: by its type — an element as the agent knows it
/// (`element`), an object as the page's own JSON (`json`) or a description where it has none
/// — cut at `MAX_RESULT` characters with a note.
pub fn evaluated<V: Value>(
    value: &V,
    element: impl FnOnce() -> Option<String>,
    json: impl FnOnce() -> Option<String>,
) -> Evaluated {
    let js_type = value.type_of();
    let text = match js_type.as_str() {
        "undefined" => "undefined".to_owned(),
        "function" => format!("[function {}]", describe(&value.property("name"))),
        "symbol" | "bigint" => describe(value),
        _ => match element() {
            Some(el) => format!("[element {el}]"),
            None => json().unwrap_or_else(|| format!("[not JSON: {}]", describe(value))),
        },
    };
    let (cut, total, truncated) = crate::text::truncate_chars(&text, MAX_RESULT);
    let value = match truncated {
        true => format!("{cut}\n… (cut at {MAX_RESULT} of {total} characters)"),
        false => text,
    };
    Evaluated { value, js_type }
}

#[cfg(test)]
mod tests;
