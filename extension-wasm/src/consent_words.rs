//! Which button of a consent banner to press: a plain "accept", never a reject or settings
//! button. Pure, so the wording rules are tested natively.

/// Accept wordings, best first (several languages).
const ACCEPT: &[&str] = &[
    "accept all",
    "allow all",
    "agree to all",
    "alle akzeptieren",
    "tout accepter",
    "aceptar todo",
    "accetta tutti",
    "accept",
    "allow",
    "agree",
    "i agree",
    "got it",
    "akzeptieren",
    "zustimmen",
    "accepter",
    "aceptar",
    "accetta",
    "ok",
];

/// Never pressed, whatever else the label says.
const REJECT: &[&str] = &[
    "reject",
    "decline",
    "deny",
    "refuse",
    "disagree",
    "necessary",
    "essential",
    "manage",
    "setting",
    "preference",
    "custom",
    "option",
    "more",
    "ablehnen",
    "refuser",
    "rechazar",
    "rifiuta",
    "nur ",
    "only",
];

/// Words that make a dialog a consent banner (any other dialog's "OK" is left alone).
const TOPIC: &[&str] = &[
    "cookie",
    "consent",
    "gdpr",
    "privacy",
    "tracking",
    "datenschutz",
    "rgpd",
    "personal data",
];

/// Whether a container's text, id and classes (lower-case) say it is about consent.
pub fn about_consent(text: &str) -> bool {
    TOPIC.iter().any(|t| text.contains(t))
}

/// The rank of a button label (lower-case, single-spaced) as an accept button, lower is
/// better; `None` for anything that is not a plain accept.
pub fn rank(label: &str) -> Option<usize> {
    if label.is_empty() || label.len() > 40 || REJECT.iter().any(|r| label.contains(r)) {
        return None;
    }
    ACCEPT.iter().position(|a| {
        label == *a || label.starts_with(&format!("{a} ")) || (a.len() > 3 && label.contains(a))
    })
}

#[cfg(test)]
mod tests {
    use super::{about_consent, rank};

    #[test]
    fn only_dialogs_about_consent_count() {
        assert!(about_consent("we use cookies to improve your experience"));
        assert!(about_consent("cmp-banner privacy settings"));
        assert!(!about_consent("delete this file? this cannot be undone"));
        assert!(!about_consent("allow notifications from this site"));
    }

    #[test]
    fn accept_all_beats_accept_and_rejects_are_never_chosen() {
        assert_eq!(rank("accept all"), Some(0));
        assert_eq!(rank("accept all cookies"), Some(0));
        assert!(rank("accept") > rank("accept all"));
        assert!(rank("yes, i accept").is_some());
        assert!(rank("ok").is_some());
        for never in [
            "reject all",
            "accept only necessary",
            "manage settings",
            "decline",
            "alle ablehnen",
            "okay, show me more options",
            "",
            "broken link",
        ] {
            assert_eq!(rank(never), None, "{never}");
        }
    }
}
