//! What kind of field an element is, as typing sees it: which take typed text, and why one
//! refuses it (its type, disabled, read-only).

use claudezilla_protocol::{ErrorBody, ErrorCode};

/// Input types that take typed text.
const TEXT_INPUTS: &[&str] = &[
    "text",
    "search",
    "email",
    "url",
    "tel",
    "password",
    "number",
    "date",
    "time",
    "datetime-local",
    "month",
    "week",
    "",
];

/// An element as typing sees it, read by the glue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Field {
    /// An `<input>` with its `type` as the DOM reports it.
    Input {
        kind: String,
        disabled: bool,
        read_only: bool,
    },
    TextArea {
        disabled: bool,
        read_only: bool,
    },
    /// An element the page made editable (`contenteditable`, inherited or its own).
    ContentEditable,
    Other,
}

impl Field {
    /// Whether text typed into it goes in as text (whether or not it is disabled).
    pub fn takes_text(&self) -> bool {
        match self {
            Field::Input { kind, .. } => is_text_input(kind),
            Field::TextArea { .. } | Field::ContentEditable => true,
            Field::Other => false,
        }
    }

    /// Whether typing into it can go ahead; `name` (its description) says which it is if not.
    pub fn check_typing(&self, name: &str) -> Result<(), ErrorBody> {
        let refused = |message: String| ErrorBody::new(ErrorCode::PageError, message);
        let (disabled, read_only) = match self {
            Field::Input { kind, .. } if !is_text_input(kind) => {
                let kind = kind.to_ascii_lowercase();
                return Err(refused(format!(
                    "{name} is an input of type {kind:?}, which takes no typed text"
                ))
                .with_hint("use firefox_click for checkboxes, radios and buttons, firefox_upload_file for files"));
            }
            Field::Input {
                disabled,
                read_only,
                ..
            }
            | Field::TextArea {
                disabled,
                read_only,
            } => (*disabled, *read_only),
            Field::ContentEditable => return Ok(()),
            Field::Other => {
                return Err(refused(format!("{name} is not editable"))
                    .with_hint("select an input, a textarea or a contenteditable element"));
            }
        };
        match (disabled, read_only) {
            (true, _) => Err(refused(format!("{name} is disabled"))),
            (false, true) => Err(refused(format!("{name} is read-only"))),
            (false, false) => Ok(()),
        }
    }
}

fn is_text_input(kind: &str) -> bool {
    TEXT_INPUTS.contains(&kind.to_ascii_lowercase().as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(kind: &str) -> Field {
        Field::Input {
            kind: kind.into(),
            disabled: false,
            read_only: false,
        }
    }

    #[test]
    fn text_inputs_textareas_and_editors_take_text() {
        for kind in ["", "text", "EMAIL", "number", "datetime-local", "password"] {
            assert!(input(kind).takes_text(), "{kind}");
            assert!(input(kind).check_typing("x").is_ok(), "{kind}");
        }
        for kind in [
            "checkbox", "radio", "file", "submit", "color", "range", "hidden",
        ] {
            assert!(!input(kind).takes_text(), "{kind}");
            let e = input(kind).check_typing("the box").unwrap_err();
            assert!(
                e.message.contains("which takes no typed text"),
                "{}",
                e.message
            );
        }
        assert!(Field::ContentEditable.check_typing("x").is_ok());
        assert!(!Field::Other.takes_text());
        assert_eq!(
            Field::Other.check_typing("the div").unwrap_err().message,
            "the div is not editable"
        );
    }

    #[test]
    fn disabled_then_read_only_refuse_typing_but_stay_text_fields() {
        let area = |disabled, read_only| Field::TextArea {
            disabled,
            read_only,
        };
        assert_eq!(
            area(true, true)
                .check_typing("the note")
                .unwrap_err()
                .message,
            "the note is disabled"
        );
        assert_eq!(
            area(false, true)
                .check_typing("the note")
                .unwrap_err()
                .message,
            "the note is read-only"
        );
        assert!(area(true, false).takes_text());
        let locked = Field::Input {
            kind: "text".into(),
            disabled: false,
            read_only: true,
        };
        assert_eq!(
            locked.check_typing("q").unwrap_err().code,
            ErrorCode::PageError
        );
    }
}
