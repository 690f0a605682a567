//! Which fields a secret may be typed into: only in a frame whose own site the secret is bound
//! to, only into text a person types, and only into a login form's fields unless the user let
//! it into any text field of that site (`@site:any-field`).

use claudezilla_protocol::args::{Fields, FilledSecret};
use claudezilla_protocol::{ErrorBody, ErrorCode};

use crate::field_kind::Field;
use crate::page_names::is_password;

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

/// May `secret` go into `field` in a frame at `scheme`//`host`?
pub fn check(
    secret: &FilledSecret,
    scheme: &str,
    host: &str,
    field: &Field,
) -> Result<(), ErrorBody> {
    let fields = secret.may_go_to(scheme, host).map_err(|why| {
        ErrorBody::new(ErrorCode::NotAllowed, why)
            .with_hint("a secret goes only to the sites the user bound it to in the secrets file")
    })?;
    let (password, autocomplete) = match field {
        Field::Input {
            kind, autocomplete, ..
        } if TEXT_TYPES.contains(&kind.to_ascii_lowercase().as_str()) => {
            (is_password(kind), autocomplete)
        }
        Field::TextArea { autocomplete, .. } => (false, autocomplete),
        Field::Input { .. } | Field::ContentEditable | Field::Other => {
            return Err(ErrorBody::new(
                ErrorCode::InvalidArgument,
                format!(
                    "secret {} is typed only into text, password, email, tel, url or search inputs and textareas",
                    secret.name
                ),
            ));
        }
    };
    let login = password || autocomplete.as_deref().is_some_and(marks_login);
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

/// Whether an `autocomplete` attribute marks a login form's field (with any section or hint
/// tokens before it).
fn marks_login(tokens: &str) -> bool {
    tokens
        .split_ascii_whitespace()
        .any(|t| LOGIN_TOKENS.iter().any(|l| t.eq_ignore_ascii_case(l)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secret(site: &str) -> FilledSecret {
        serde_json::from_value(serde_json::json!({
            "name": "S",
            "value": "a long enough value",
            "sites": [site],
        }))
        .unwrap_or_else(|e| panic!("{e}"))
    }

    fn input(kind: &str, autocomplete: Option<&str>) -> Field {
        Field::Input {
            kind: kind.into(),
            disabled: false,
            read_only: false,
            autocomplete: autocomplete.map(Into::into),
        }
    }

    fn area(autocomplete: Option<&str>) -> Field {
        Field::TextArea {
            disabled: false,
            read_only: false,
            autocomplete: autocomplete.map(Into::into),
        }
    }

    #[test]
    fn a_login_field_of_a_bound_site_takes_it() {
        let s = secret("shop.example");
        assert!(check(&s, "https:", "shop.example", &input("password", None)).is_ok());
        assert!(check(&s, "https:", "www.shop.example", &input("PASSWORD", None)).is_ok());
        let marked = input("email", Some("section-a shipping username webauthn"));
        assert!(check(&s, "https:", "shop.example", &marked).is_ok());
        let area = area(Some("one-time-code"));
        assert!(check(&s, "https:", "shop.example", &area).is_ok());
    }

    #[test]
    fn another_site_or_plain_http_is_refused() {
        let s = secret("shop.example");
        let e = check(&s, "https:", "evil.example", &input("password", None)).unwrap_err();
        assert_eq!(e.code, ErrorCode::NotAllowed);
        let e = check(&s, "http:", "shop.example", &input("password", None)).unwrap_err();
        assert_eq!(e.code, ErrorCode::NotAllowed);
    }

    #[test]
    fn a_field_that_could_publish_it_is_refused_unless_any_field() {
        let s = secret("shop.example");
        let e = check(&s, "https:", "shop.example", &input("text", Some("off"))).unwrap_err();
        assert_eq!(e.code, ErrorCode::NotAllowed);
        assert!(e.message.contains("could be published"), "{}", e.message);
        let any = secret("shop.example:any-field");
        assert!(check(&any, "https:", "shop.example", &input("search", None)).is_ok());
        assert!(check(&any, "https:", "shop.example", &area(None)).is_ok());
    }

    #[test]
    fn only_text_a_person_types() {
        let any = secret("shop.example:any-field");
        for kind in ["hidden", "checkbox", "submit", "date", "file"] {
            let e = check(&any, "https:", "shop.example", &input(kind, None)).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidArgument, "{kind}");
        }
        let e = check(&any, "https:", "shop.example", &Field::ContentEditable).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        let e = check(&any, "https:", "shop.example", &Field::Other).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument);
    }
}
