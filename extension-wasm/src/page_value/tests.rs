use std::collections::HashMap;

use super::*;

/// A value as a page could make it: one kind of primitive, or an object with properties,
/// JSON and a `toString` of its own (or none, where they throw).
#[derive(Clone, Default)]
struct Fake {
    text: Option<String>,
    number: Option<f64>,
    boolean: Option<bool>,
    null: bool,
    object: bool,
    type_of: &'static str,
    props: HashMap<&'static str, Fake>,
    json: Option<String>,
    own_text: Option<String>,
}

fn undefined() -> Fake {
    Fake {
        type_of: "undefined",
        ..Fake::default()
    }
}

fn text(s: &str) -> Fake {
    Fake {
        text: Some(s.into()),
        type_of: "string",
        json: Some(format!("{s:?}")),
        ..Fake::default()
    }
}

fn number(n: f64) -> Fake {
    Fake {
        number: Some(n),
        type_of: "number",
        ..Fake::default()
    }
}

fn object(json: Option<&str>, own_text: Option<&str>) -> Fake {
    Fake {
        object: true,
        type_of: "object",
        json: json.map(Into::into),
        own_text: own_text.map(Into::into),
        ..Fake::default()
    }
}

fn error(name: &str, message: &str) -> Fake {
    let mut e = object(Some("{}"), Some("toString"));
    e.props.insert("name", text(name));
    e.props.insert("message", text(message));
    e
}

impl Value for Fake {
    fn as_text(&self) -> Option<String> {
        self.text.clone()
    }
    fn as_number(&self) -> Option<f64> {
        self.number
    }
    fn as_bool(&self) -> Option<bool> {
        self.boolean
    }
    fn is_null(&self) -> bool {
        self.null
    }
    fn is_undefined(&self) -> bool {
        self.type_of == "undefined"
    }
    fn is_object(&self) -> bool {
        self.object
    }
    fn type_of(&self) -> String {
        self.type_of.into()
    }
    fn text_at(&self, key: &str) -> Option<String> {
        self.props.get(key)?.text.clone()
    }
    fn property(&self, key: &str) -> Self {
        self.props.get(key).cloned().unwrap_or_else(undefined)
    }
    fn json(&self) -> Option<String> {
        self.json.clone()
    }
    fn own_text(&self) -> Option<String> {
        self.own_text.clone()
    }
}

#[test]
fn primitives_read_as_the_page_writes_them() {
    assert_eq!(describe(&text("hi")), "hi");
    assert_eq!(describe(&number(1.5)), "1.5");
    assert_eq!(describe(&number(f64::INFINITY)), "Infinity");
    assert_eq!(describe(&number(f64::NEG_INFINITY)), "-Infinity");
    let yes = Fake {
        boolean: Some(true),
        type_of: "boolean",
        ..Fake::default()
    };
    assert_eq!(describe(&yes), "true");
    let null = Fake {
        null: true,
        object: true,
        type_of: "object",
        ..Fake::default()
    };
    assert_eq!(describe(&null), "null");
    assert_eq!(describe(&undefined()), "undefined");
    let big = Fake {
        type_of: "bigint",
        own_text: Some("12".into()),
        ..Fake::default()
    };
    assert_eq!(describe(&big), "12");
}

#[test]
fn objects_read_as_errors_else_json_else_their_own_text() {
    assert_eq!(
        describe(&error("TypeError", "x is null")),
        "TypeError: x is null"
    );
    assert_eq!(describe(&object(Some("{\"a\":1}"), None)), "{\"a\":1}");
    // An object whose JSON says nothing (a Map), or that has none: its own words.
    assert_eq!(
        describe(&object(Some("{}"), Some("[object Map]"))),
        "[object Map]"
    );
    assert_eq!(describe(&object(None, None)), "[object]");
}

#[test]
fn a_refused_eval_says_the_policy_forbids_it() {
    let e = threw(&error("EvalError", "call to eval() blocked by CSP"));
    assert_eq!(e.code, ErrorCode::PageError);
    assert_eq!(
        e.message,
        "the expression threw EvalError: call to eval() blocked by CSP (this page's Content Security Policy forbids eval)"
    );
    let e = threw(&text("oops"));
    assert_eq!(e.message, "the expression threw oops");
}

#[test]
fn a_result_is_written_by_its_type() {
    let none = || None;
    assert_eq!(evaluated(&undefined(), none, none).value, "undefined");
    let mut f = Fake {
        type_of: "function",
        object: true,
        ..Fake::default()
    };
    f.props.insert("name", text("go"));
    let shown = evaluated(&f, none, none);
    assert_eq!(
        (shown.value.as_str(), shown.js_type.as_str()),
        ("[function go]", "function")
    );
    let el = evaluated(&object(None, None), || Some("button#ok".into()), none);
    assert_eq!(el.value, "[element button#ok]");
    let json = evaluated(&number(2.0), none, || Some("2".into()));
    assert_eq!(
        (json.value.as_str(), json.js_type.as_str()),
        ("2", "number")
    );
    let cyclic = evaluated(&object(None, Some("[object Object]")), none, none);
    assert_eq!(cyclic.value, "[not JSON: [object Object]]");
}

#[test]
fn a_long_result_is_cut_with_a_note() {
    let long = "x".repeat(MAX_RESULT + 10);
    let shown = evaluated(&text(&long), || None, || Some(long.clone()));
    assert!(
        shown
            .value
            .ends_with("\n… (cut at 50000 of 50010 characters)")
    );
    assert_eq!(
        shown.value.chars().filter(|c| *c == 'x').count(),
        MAX_RESULT
    );
}

#[test]
fn a_prompts_default_is_a_primitive_as_text_and_never_an_objects() {
    assert_eq!(prompt_default(&text("5")).as_deref(), Some("5"));
    assert_eq!(prompt_default(&number(5.0)).as_deref(), Some("5"));
    let no = Fake {
        boolean: Some(false),
        type_of: "boolean",
        ..Fake::default()
    };
    assert_eq!(prompt_default(&no).as_deref(), Some("false"));
    let null = Fake {
        null: true,
        object: true,
        type_of: "object",
        ..Fake::default()
    };
    assert_eq!(prompt_default(&null).as_deref(), Some("null"));
    assert_eq!(prompt_default(&undefined()), None);
    assert_eq!(prompt_default(&object(Some("{}"), Some("page code"))), None);
}

#[test]
fn a_promise_waits_what_is_left_of_the_call_and_says_when_it_ran_out() {
    assert_eq!(settle_ms(5_000, 1_500.4), 3_499);
    assert_eq!(settle_ms(5_000, 6_000.0), 0, "none left: no wait");
    let late = unsettled();
    assert_eq!(late.code, ErrorCode::Timeout);
    assert_eq!(late.message, "the returned promise did not settle in time");
    assert_eq!(
        late.hint.as_deref(),
        Some("pass a larger timeout, or return a value instead of a promise")
    );
    let (eval, world) = (no_eval(), no_world());
    assert_eq!(
        (eval.code, eval.message.as_str()),
        (ErrorCode::PageError, "the page has no eval")
    );
    let reach = "cannot reach the page's world";
    assert_eq!(
        (world.code, world.message.as_str()),
        (ErrorCode::PageError, reach)
    );
}
