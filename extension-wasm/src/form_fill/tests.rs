use claudezilla_protocol::ErrorCode;

use super::*;

/// Sets a field named by its text; one named `bad` fails. Every try is logged.
fn set(log: &mut Vec<&'static str>) -> impl FnMut(&&'static str) -> Result<String, ErrorBody> {
    move |field| {
        log.push(field);
        match *field {
            "bad" => Err(
                ErrorBody::new(ErrorCode::ElementNotFound, "no element matches \"bad\"")
                    .with_hint("check the selector"),
            ),
            name => Ok(format!("{name} set")),
        }
    }
}

#[test]
fn every_field_is_set_in_order_and_listed() {
    let mut log = Vec::new();
    let acted = fill_all(&["email", "name"], set(&mut log)).unwrap();
    assert_eq!(acted.what, "Filled 2 field(s): email set; name set.");
    assert_eq!(log, ["email", "name"]);
}

#[test]
fn a_failure_stops_the_fill_and_says_what_was_set() {
    let mut log = Vec::new();
    let e = fill_all(&["email", "name", "bad", "after"], set(&mut log)).unwrap_err();
    assert_eq!(log, ["email", "name", "bad"]);
    assert_eq!(e.code, ErrorCode::ElementNotFound);
    assert_eq!(
        e.message,
        "no element matches \"bad\" (after setting: email set; name set)"
    );
    assert_eq!(e.hint.as_deref(), Some("check the selector"));
}

#[test]
fn a_failure_at_the_first_field_is_the_fields_own_error() {
    let e = fill_all(&["bad"], set(&mut Vec::new())).unwrap_err();
    assert_eq!(e.message, "no element matches \"bad\"");
}
