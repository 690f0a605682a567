//! The typed secrets this part of the extension knows of, hidden in every text it cuts,
//! collapses, joins or matches: the content script learns its agent's with each request
//! (a page that shows the value after a navigation is still hidden), the background learns
//! them as commands carry them (tab titles and addresses). [`crate::text::cap`] and
//! [`crate::a11y::clean`] hide first, so no cut can leave a value's first part; texts
//! searched or cut whole (page text, `firefox_find`) are hidden here before.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;

use claudezilla_protocol::AgentId;
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

/// What a frame of `owner`'s tab is told to hide as an operation typing `typing` goes to it:
/// the secrets typed now are kept for that agent (in `typed`) and learnt here (hidden from
/// then on in what the background shows itself: titles, addresses); every secret that agent
/// has typed so far. Nothing for a tab no agent owns.
pub fn to_hide(
    typed: &mut HashMap<AgentId, Typed>,
    owner: Option<&AgentId>,
    typing: &[&FilledSecret],
) -> Vec<FilledSecret> {
    let Some(agent) = owner else {
        return Vec::new();
    };
    if typing.is_empty() {
        return typed
            .get(agent)
            .map(|t| t.secrets().to_vec())
            .unwrap_or_default();
    }
    learn(typing.iter().copied());
    let typed = typed.entry(agent.clone()).or_default();
    typed.add(typing.iter().copied());
    typed.secrets().to_vec()
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

    fn agent(n: u8) -> AgentId {
        AgentId::new([n; 16], 100)
    }

    #[test]
    fn a_frame_hides_what_its_tabs_agent_typed() {
        let mut typed = HashMap::new();
        let pw = secret("PW", "hunter2-long");
        assert_eq!(to_hide(&mut typed, Some(&agent(1)), &[]), []);
        assert_eq!(
            to_hide(&mut typed, Some(&agent(1)), &[&pw]),
            std::slice::from_ref(&pw)
        );
        // Hidden in the background's own texts from now on.
        assert_eq!(hide("is hunter2-long"), "is <secret:PW>");
        let pin = secret("PIN", "8812-0937");
        assert_eq!(
            to_hide(&mut typed, Some(&agent(1)), &[&pin, &pw]),
            [pw.clone(), pin.clone()]
        );
        // Every later operation of that agent's tabs hides them; another agent's hides its own.
        assert_eq!(to_hide(&mut typed, Some(&agent(1)), &[]), [pw, pin]);
        assert_eq!(to_hide(&mut typed, Some(&agent(2)), &[]), []);
        assert!(!typed.contains_key(&agent(2)), "a read keeps nothing");
    }

    #[test]
    fn a_tab_no_agent_owns_is_told_nothing_and_teaches_nothing() {
        let mut typed = HashMap::new();
        let pw = secret("PW", "hunter2-long");
        assert_eq!(to_hide(&mut typed, None, &[&pw]), []);
        assert!(typed.is_empty());
        assert_eq!(hide("hunter2-long"), "hunter2-long");
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
