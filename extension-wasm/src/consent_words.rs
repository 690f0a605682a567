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
    use super::rank;

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
