//! The typed secrets this part of the extension knows of, hidden in every text it cuts,
//! collapses, joins or matches: the content script learns its agent's with each request
//! (a page that shows the value after a navigation is still hidden), the background learns
//! them as commands carry them (tab titles and addresses). [`crate::text::cap`] and
//! [`crate::a11y::clean`] hide first, so no cut can leave a value's first part; texts
//! searched or cut whole (page text, `firefox_find`) are hidden here before.

use std::borrow::Cow;
use std::cell::RefCell;

use claudezilla_protocol::args::{FilledSecret, SecretName};
use claudezilla_protocol::hiding::{Hider, Shifts};

/// Most values remembered (an agent types a few; the oldest goes first).
pub const MAX_KNOWN: usize = 64;

/// Typed secrets, each value once, at most [`MAX_KNOWN`] (the oldest goes first): what this
/// instance hides, and what the background keeps for each agent.
#[derive(Debug, Default, Clone)]
pub struct Typed(Vec<FilledSecret>);

impl Typed {
    /// Adds these secrets; whether any was new.
    pub fn add<'a>(&mut self, secrets: impl IntoIterator<Item = &'a FilledSecret>) -> bool {
        let mut changed = false;
        for secret in secrets {
            if self.0.iter().any(|t| t.value == secret.value) {
                continue;
            }
            if self.0.len() == MAX_KNOWN {
                self.0.remove(0);
            }
            self.0.push(secret.clone());
            changed = true;
        }
        changed
    }

    pub fn secrets(&self) -> &[FilledSecret] {
        &self.0
    }
}

#[derive(Default)]
struct Known {
    typed: Typed,
    hider: Hider,
}

thread_local! {
    static KNOWN: RefCell<Known> = RefCell::default();
}

/// Remembers these secrets' values, to hide from now on.
pub fn learn<'a>(secrets: impl IntoIterator<Item = &'a FilledSecret>) {
    KNOWN.with(|known| {
        let known = &mut *known.borrow_mut();
        if known.typed.add(secrets) {
            let values = known.typed.secrets().iter();
            known.hider = Hider::new(values.map(|s| (&s.name, s.value.as_str())));
        }
    });
}

/// `text` with every known value replaced by `<secret:NAME>`.
pub fn hide(text: &str) -> Cow<'_, str> {
    KNOWN.with(|known| known.borrow().hider.hide(text, SecretName::placeholder))
}

/// `text` hidden, and where each position of the hidden text was in `text`.
pub fn hide_mapped(text: &str) -> (Cow<'_, str>, Shifts) {
    KNOWN.with(|known| {
        known
            .borrow()
            .hider
            .hide_mapped(text, SecretName::placeholder)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secret(name: &str, value: &str) -> FilledSecret {
        FilledSecret {
            name: SecretName::try_from(name.to_owned()).unwrap(),
            value: value.to_owned(),
            sites: Vec::new(),
        }
    }

    #[test]
    fn learned_values_are_hidden_before_any_cut() {
        assert_eq!(crate::text::cap("pw hunter2-long!", 8), "pw hunte…");
        learn([&secret("PW", "hunter2-long")]);
        // Cut inside the value: the placeholder is cut, never the value's first part.
        assert_eq!(crate::text::cap("pw hunter2-long!", 8), "pw <secr…");
        assert_eq!(
            crate::a11y::clean("you typed  HUNTER2-LONG  here", 80),
            "you typed <secret:PW> here"
        );
        for n in 0..MAX_KNOWN {
            learn([&secret("MANY", &format!("value-{n:04}"))]);
        }
        KNOWN.with(|k| assert_eq!(k.borrow().typed.secrets().len(), MAX_KNOWN));
        assert_eq!(
            hide("hunter2-long"),
            "hunter2-long",
            "the oldest is forgotten"
        );
        assert_eq!(hide("value-0031"), "<secret:MANY>");
    }
}
