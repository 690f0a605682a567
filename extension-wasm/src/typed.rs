//! Typing into a field, decided apart from the DOM: which editing command carries the text,
//! when an editor that applies input in its own update has settled, and what the answer says
//! of how the text went in. `content/act/typing.rs` carries it out.

/// How typed text went into a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// As the editor takes keystrokes (`execCommand("insertText")`): the browser enforces
    /// `maxlength`, keeps undo, fires trusted `input` events and `change` when the field loses
    /// focus — the way pages expect.
    Editor,
    /// Set by script (where the editor path is unavailable): `input` and `change` dispatched.
    Script,
}

/// The editing command that types a text (over the whole value with `clear`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    /// `delete`: an empty text clears the selected value.
    Delete,
    /// `insertText`, at the caret or over the selection.
    Insert,
    /// An empty text typed at the caret: nothing to do.
    Nothing,
}

pub fn edit_for(text: &str, clear: bool) -> Edit {
    match (text.is_empty(), clear) {
        (true, true) => Edit::Delete,
        (true, false) => Edit::Nothing,
        (false, _) => Edit::Insert,
    }
}

/// The value's length, in characters, once `text` is typed into a value of `before`.
pub fn wanted(text: &str, before: usize, clear: bool) -> usize {
    text.chars().count() + if clear { 0 } else { before }
}

/// Longest wait for an editor that applies input in its own update cycle to settle.
pub const SETTLE_MS: f64 = 400.0;
/// A value unchanged this long has settled.
pub const QUIET_MS: f64 = 40.0;
/// How often the value is read while it settles.
pub const SETTLE_READ_MS: u32 = 10;

/// The wait for a value's length to hold still (an editor such as React, ProseMirror or
/// Lexical may apply the input in its next update, after the events that carried it): read
/// again until it holds for [`QUIET_MS`], at most [`SETTLE_MS`].
#[derive(Debug)]
pub struct Settle {
    until: f64,
    still_since: f64,
    length: usize,
}

impl Settle {
    /// A wait begun at `now` (ms) on a value of `length` characters.
    pub fn new(now: f64, length: usize) -> Self {
        Self {
            until: now + SETTLE_MS,
            still_since: now,
            length,
        }
    }

    /// Whether the value is worth reading again at `now`.
    pub fn in_time(&self, now: f64) -> bool {
        now < self.until
    }

    /// The value's length read at `now`; true once it has held still long enough.
    pub fn read(&mut self, now: f64, length: usize) -> bool {
        if length != self.length {
            self.length = length;
            self.still_since = now;
            return false;
        }
        now - self.still_since >= QUIET_MS
    }

    /// The value's last length read.
    pub fn length(&self) -> usize {
        self.length
    }
}

/// What the answer adds to "typed": that the text was set by script, or that the field kept
/// less than it was given (`whole`: the text is in the value all the same, as where an empty
/// editor's placeholder line break counted before typing and not after); `maxlength` as the
/// field has it, read only when the note needs it.
pub fn note(
    entry: Entry,
    length: usize,
    wanted: usize,
    whole: bool,
    maxlength: impl FnOnce() -> Option<String>,
) -> Option<String> {
    let mut notes = Vec::new();
    if entry == Entry::Script {
        notes.push("(Set by script: this field does not take editor input; input and change events were sent.)".to_owned());
    }
    if entry == Entry::Editor && length < wanted && !whole {
        let limit = maxlength()
            .map(|m| format!(" (maxlength {m})"))
            .unwrap_or_default();
        notes.push(format!(
            "The field kept {length} of {wanted} characters{limit}, as it would from a keyboard."
        ));
    }
    (!notes.is_empty()).then(|| notes.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_follows_the_text_and_clear() {
        assert_eq!(edit_for("", true), Edit::Delete);
        assert_eq!(edit_for("", false), Edit::Nothing);
        assert_eq!(edit_for("a", true), Edit::Insert);
        assert_eq!(edit_for("a", false), Edit::Insert);
        assert_eq!(wanted("héllo", 3, false), 8);
        assert_eq!(wanted("héllo", 3, true), 5);
    }

    #[test]
    fn a_value_has_settled_once_it_holds_still_for_the_quiet_time() {
        let mut s = Settle::new(0.0, 2);
        assert!(!s.read(10.0, 2));
        // The editor applies the text late: the quiet time starts again.
        assert!(!s.read(20.0, 7));
        assert!(!s.read(50.0, 7));
        assert!(s.read(20.0 + QUIET_MS, 7));
        assert_eq!(s.length(), 7);
    }

    #[test]
    fn a_value_that_never_holds_still_is_read_until_the_time_is_up() {
        let mut s = Settle::new(100.0, 0);
        let mut now = 100.0;
        let mut length = 0;
        while s.in_time(now) {
            now += 10.0;
            length += 1;
            assert!(!s.read(now, length));
        }
        assert_eq!(now, 100.0 + SETTLE_MS);
        assert_eq!(s.length(), (SETTLE_MS / 10.0) as usize);
    }

    #[test]
    fn the_answer_says_how_the_text_went_in() {
        // The field's maxlength is read only for the note that says it.
        let unread = || -> Option<String> { unreachable!("maxlength read for no note") };
        assert_eq!(note(Entry::Editor, 5, 5, true, unread), None);
        let script = note(Entry::Script, 5, 5, true, unread).unwrap();
        assert!(script.starts_with("(Set by script"));
        assert_eq!(
            note(Entry::Editor, 3, 5, false, || Some("3".into())).unwrap(),
            "The field kept 3 of 5 characters (maxlength 3), as it would from a keyboard."
        );
        assert_eq!(
            note(Entry::Editor, 3, 5, false, || None).unwrap(),
            "The field kept 3 of 5 characters, as it would from a keyboard."
        );
        // Shorter but whole: an editor's placeholder line break went away.
        assert_eq!(note(Entry::Editor, 4, 5, true, unread), None);
        // A script's short value is the page's own doing: said only as set by script.
        assert_eq!(note(Entry::Script, 1, 5, false, unread), script.into());
    }
}
