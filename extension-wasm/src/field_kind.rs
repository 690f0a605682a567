//! What kind of field an element is, as typing and secrets see it (one reading of the element,
//! `content/dom.rs` `field_of`): which take typed text, and why one refuses it (its type,
//! disabled, read-only); which options of a `<select>` a choice picks; what a form fill does
//! with each entry, and a box filled (`check`: clicked only where its state differs).

use claudezilla_protocol::args::{FieldEntry, FilledSecret, Typing};
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

/// An element as typing sees it, read by the glue; `autocomplete` is the field's attribute
/// (what a login form's fields are marked with, [`crate::secret_fields`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Field {
    /// An `<input>` with its `type` as the DOM reports it.
    Input {
        kind: String,
        disabled: bool,
        read_only: bool,
        autocomplete: Option<String>,
    },
    TextArea {
        disabled: bool,
        read_only: bool,
        autocomplete: Option<String>,
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

    /// Whether typing into it can go ahead; `name` (its description, made only then) says
    /// which it is if not.
    pub fn check_typing(&self, name: impl FnOnce() -> String) -> Result<(), ErrorBody> {
        let refused =
            |why: String| ErrorBody::new(ErrorCode::PageError, format!("{} {why}", name()));
        let (disabled, read_only) = match self {
            Field::Input { kind, .. } if !is_text_input(kind) => {
                let kind = kind.to_ascii_lowercase();
                return Err(refused(format!(
                    "is an input of type {kind:?}, which takes no typed text"
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
                ..
            } => (*disabled, *read_only),
            Field::ContentEditable => return Ok(()),
            Field::Other => {
                return Err(refused("is not editable".into())
                    .with_hint("select an input, a textarea or a contenteditable element"));
            }
        };
        match (disabled, read_only) {
            (true, _) => Err(refused("is disabled".into())),
            (false, true) => Err(refused("is read-only".into())),
            (false, false) => Ok(()),
        }
    }
}

fn is_text_input(kind: &str) -> bool {
    TEXT_INPUTS.contains(&kind.to_ascii_lowercase().as_str())
}

/// A `<select>` as `firefox_select_option` reads it: each option's value and label.
pub struct Select<'a> {
    pub name: &'a str,
    pub disabled: bool,
    pub multiple: bool,
    pub options: &'a [(String, String)],
}

/// What a choice picks: for each option, whether it is to be selected (a single select: only
/// the first match), and the labels picked.
#[derive(Debug, PartialEq, Eq)]
pub struct Picked {
    pub selected: Vec<bool>,
    pub labels: Vec<String>,
}

impl Picked {
    /// What is set on each option, in order: its state wanted, or nothing where a single
    /// select's chosen option unselects it itself (unselecting the others one by one would
    /// reset it to its first option).
    pub fn settings(&self, multiple: bool) -> impl Iterator<Item = Option<bool>> + '_ {
        self.selected
            .iter()
            .map(move |&wanted| (multiple || wanted).then_some(wanted))
    }
}

/// A check box or radio button named `name` filled to `want`: clicked (as a user toggles it)
/// only when its state differs; what it says is its state read after, which a radio button
/// clicked while checked, or a page's handler, may leave otherwise.
pub fn check<E>(
    name: &str,
    want: bool,
    checked: impl Fn() -> bool,
    click: impl FnOnce() -> Result<(), E>,
) -> Result<String, E> {
    if checked() != want {
        click()?;
    }
    let now = if checked() { "checked" } else { "unchecked" };
    Ok(format!("{name} {now}"))
}

impl Select<'_> {
    /// The options `values` (each a value or a label) pick, or why none is: the page changes
    /// only when every value names an option.
    pub fn pick(&self, values: &[String]) -> Result<Picked, ErrorBody> {
        let name = self.name;
        let refused = |message: String| ErrorBody::new(ErrorCode::PageError, message);
        if self.disabled {
            return Err(refused(format!("{name} is disabled")));
        }
        if values.len() > 1 && !self.multiple {
            return Err(refused(format!(
                "{name} takes one option, got {}",
                values.len()
            )));
        }
        let mut picked = Picked {
            selected: Vec::with_capacity(self.options.len()),
            labels: Vec::new(),
        };
        for (value, label) in self.options {
            let wanted = values.iter().any(|v| v == value || v == label);
            // A single select takes the first match only.
            let select = wanted && (self.multiple || picked.labels.is_empty());
            picked.selected.push(select);
            if select {
                picked.labels.push(label.clone());
            }
        }
        let names_one = |v: &String| {
            self.options
                .iter()
                .any(|(value, label)| v == value || v == label)
        };
        let missing: Vec<&String> = values.iter().filter(|v| !names_one(v)).collect();
        if !missing.is_empty() {
            let all: Vec<&str> = self.options.iter().map(|(_, l)| l.as_str()).collect();
            return Err(ErrorBody::new(
                ErrorCode::ElementNotFound,
                format!("{name} has no option {missing:?}"),
            )
            .with_hint(format!("its options: {}", all.join(", "))));
        }
        Ok(picked)
    }
}

/// What `firefox_fill_form` does with one entry, by the field's kind.
#[derive(Debug, PartialEq)]
pub enum Fill<'a> {
    /// A check box or radio button, checked or not.
    Check(bool),
    /// A `<select>`'s option, by its value or words.
    Choose(&'a str),
    Type(&'a str),
    TypeSecret(&'a FilledSecret),
}

/// Words that check a box when an agent gives text for it.
const CHECKED_WORDS: &[&str] = &["true", "on", "yes", "1", "checked"];

/// The fill of `entry` into a field named `name`: `input_type` for an `<input>` (lower case),
/// `select` for a `<select>`; refused where the entry cannot go in the field.
pub fn fill<'a>(
    name: &str,
    input_type: Option<&str>,
    select: bool,
    entry: &'a FieldEntry,
) -> Result<Fill<'a>, ErrorBody> {
    let refused = |why: String| ErrorBody::new(ErrorCode::PageError, format!("{name} {why}"));
    match (input_type, entry) {
        (Some("checkbox" | "radio"), FieldEntry::Checked(b)) => Ok(Fill::Check(*b)),
        (Some("checkbox" | "radio"), FieldEntry::Typed(Typing::Text(t))) => Ok(Fill::Check(
            CHECKED_WORDS.contains(&t.to_ascii_lowercase().as_str()),
        )),
        (Some("checkbox" | "radio"), FieldEntry::Typed(Typing::Secret(s))) => Err(refused(
            format!("is a check box, not for secret {}", s.name),
        )),
        (_, FieldEntry::Typed(Typing::Text(t))) if select => Ok(Fill::Choose(t)),
        (_, FieldEntry::Typed(Typing::Text(t))) => Ok(Fill::Type(t)),
        (_, FieldEntry::Typed(Typing::Secret(s))) => Ok(Fill::TypeSecret(s)),
        (_, FieldEntry::Checked(b)) => Err(refused(format!("takes text, got {b}"))),
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    fn input(kind: &str) -> Field {
        Field::Input {
            kind: kind.into(),
            disabled: false,
            read_only: false,
            autocomplete: None,
        }
    }

    #[test]
    fn text_inputs_textareas_and_editors_take_text() {
        for kind in ["", "text", "EMAIL", "number", "datetime-local", "password"] {
            assert!(input(kind).takes_text(), "{kind}");
            assert!(input(kind).check_typing(|| "x".into()).is_ok(), "{kind}");
        }
        for kind in [
            "checkbox", "radio", "file", "submit", "color", "range", "hidden",
        ] {
            assert!(!input(kind).takes_text(), "{kind}");
            let e = input(kind).check_typing(|| "the box".into()).unwrap_err();
            assert!(
                e.message.contains("which takes no typed text"),
                "{}",
                e.message
            );
        }
        assert!(Field::ContentEditable.check_typing(|| "x".into()).is_ok());
        assert!(!Field::Other.takes_text());
        assert_eq!(
            Field::Other
                .check_typing(|| "the div".into())
                .unwrap_err()
                .message,
            "the div is not editable"
        );
    }

    #[test]
    fn disabled_then_read_only_refuse_typing_but_stay_text_fields() {
        let area = |disabled, read_only| Field::TextArea {
            disabled,
            read_only,
            autocomplete: None,
        };
        assert_eq!(
            area(true, true)
                .check_typing(|| "the note".into())
                .unwrap_err()
                .message,
            "the note is disabled"
        );
        assert_eq!(
            area(false, true)
                .check_typing(|| "the note".into())
                .unwrap_err()
                .message,
            "the note is read-only"
        );
        assert!(area(true, false).takes_text());
        let locked = Field::Input {
            kind: "text".into(),
            disabled: false,
            read_only: true,
            autocomplete: None,
        };
        assert_eq!(
            locked.check_typing(|| "q".into()).unwrap_err().code,
            ErrorCode::PageError
        );
    }

    fn options() -> Vec<(String, String)> {
        [("us", "United States"), ("fr", "France"), ("fr2", "France")]
            .iter()
            .map(|(v, l)| ((*v).into(), (*l).into()))
            .collect()
    }

    fn strings(values: &[&str]) -> Vec<String> {
        values.iter().map(|v| (*v).into()).collect()
    }

    #[test]
    fn a_choice_picks_by_value_or_label_and_a_single_select_the_first_match() {
        let options = options();
        let single = Select {
            name: "the country",
            disabled: false,
            multiple: false,
            options: &options,
        };
        let by_value = single.pick(&strings(&["us"])).unwrap();
        assert_eq!(by_value.selected, [true, false, false]);
        assert_eq!(by_value.labels, ["United States"]);
        let by_label = single.pick(&strings(&["France"])).unwrap();
        assert_eq!(by_label.selected, [false, true, false]);
        assert_eq!(by_label.labels, ["France"], "the one it selects");
        let e = single.pick(&strings(&["us", "fr"])).unwrap_err();
        assert_eq!(e.message, "the country takes one option, got 2");
        let multiple = Select {
            multiple: true,
            ..single
        };
        let both = multiple.pick(&strings(&["us", "fr2"])).unwrap();
        assert_eq!(both.selected, [true, false, true]);
    }

    #[test]
    fn an_unknown_option_changes_nothing_and_lists_the_options() {
        let options = options();
        let select = Select {
            name: "the country",
            disabled: false,
            multiple: true,
            options: &options,
        };
        let e = select.pick(&strings(&["us", "Spain"])).unwrap_err();
        assert_eq!(e.code, ErrorCode::ElementNotFound);
        assert_eq!(e.message, "the country has no option [\"Spain\"]");
        // One missing value is enough, even when another matched two options.
        assert!(select.pick(&strings(&["France", "Spain"])).is_err());
        // A value named twice is still a value that names an option.
        let twice = select.pick(&strings(&["us", "us"])).unwrap();
        assert_eq!(twice.selected, [true, false, false]);
        assert_eq!(
            e.hint.as_deref(),
            Some("its options: United States, France, France")
        );
        let disabled = Select {
            disabled: true,
            ..select
        };
        assert_eq!(
            disabled.pick(&strings(&["us"])).unwrap_err().message,
            "the country is disabled"
        );
    }

    #[test]
    fn a_fill_goes_by_the_fields_kind() {
        let text = |t: &str| FieldEntry::Typed(Typing::Text(t.into()));
        for (word, checked) in [
            ("Yes", true),
            ("on", true),
            ("1", true),
            ("no", false),
            ("", false),
        ] {
            assert_eq!(
                fill("box", Some("checkbox"), false, &text(word)),
                Ok(Fill::Check(checked))
            );
        }
        assert_eq!(
            fill("r", Some("radio"), false, &FieldEntry::Checked(true)),
            Ok(Fill::Check(true))
        );
        assert_eq!(fill("s", None, true, &text("Red")), Ok(Fill::Choose("Red")));
        assert_eq!(
            fill("t", Some("email"), false, &text("a@b.c")),
            Ok(Fill::Type("a@b.c"))
        );
        assert_eq!(fill("t", None, false, &text("hi")), Ok(Fill::Type("hi")));
        let refused = fill(
            "input#age",
            Some("number"),
            false,
            &FieldEntry::Checked(true),
        );
        assert_eq!(
            refused.unwrap_err().message,
            "input#age takes text, got true"
        );
    }

    #[test]
    fn a_secret_goes_into_text_never_into_a_check_box() {
        let secret: FilledSecret =
            serde_json::from_value(serde_json::json!({"name": "PIN", "value": "1234"})).unwrap();
        let entry = FieldEntry::Typed(Typing::Secret(secret.clone()));
        assert_eq!(
            fill("pin", Some("password"), false, &entry),
            Ok(Fill::TypeSecret(&secret))
        );
        let refused = fill("box", Some("checkbox"), false, &entry).unwrap_err();
        assert_eq!(refused.message, "box is a check box, not for secret PIN");
        // The value is never in the refusal.
        assert!(!refused.message.contains("1234"));
    }

    #[test]
    fn a_single_select_sets_only_its_choice_a_multiple_one_every_option() {
        let picked = Picked {
            selected: vec![false, true, false],
            labels: vec!["B".into()],
        };
        let single: Vec<_> = picked.settings(false).collect();
        assert_eq!(single, [None, Some(true), None]);
        let multiple: Vec<_> = picked.settings(true).collect();
        assert_eq!(multiple, [Some(false), Some(true), Some(false)]);
    }

    /// A box whose click sets it to `after`, checked at first where `before`; the clicks and
    /// the reads of its state.
    fn filled(before: bool, want: bool, after: bool) -> (Result<String, String>, u32, u32) {
        let (state, clicks, reads) = (Cell::new(before), Cell::new(0), Cell::new(0));
        let click = || {
            clicks.set(clicks.get() + 1);
            state.set(after);
            Ok(())
        };
        let checked = || {
            reads.set(reads.get() + 1);
            state.get()
        };
        let said = check("<input#terms>", want, checked, click);
        (said, clicks.get(), reads.get())
    }

    #[test]
    fn a_box_is_clicked_only_when_its_state_differs_and_says_its_state_after() {
        let checked = || Ok("<input#terms> checked".into());
        assert_eq!(filled(false, true, true), (checked(), 1, 2));
        assert_eq!(filled(true, true, false), (checked(), 0, 2));
        let unchecked = Ok("<input#terms> unchecked".into());
        assert_eq!(filled(true, false, false), (unchecked, 1, 2));
        // A page that keeps the box checked: the answer says so.
        assert_eq!(filled(true, false, true), (checked(), 1, 2));
        let reads = Cell::new(0);
        let checked = || {
            reads.set(reads.get() + 1);
            false
        };
        let refused = check("<input#x>", true, checked, || Err("disabled".to_owned()));
        assert_eq!((refused, reads.get()), (Err("disabled".into()), 1));
    }
}
