//! Text for answers: cutting page text, naming elements.

/// Cuts `text` to at most `max` characters (never inside a character). Returns the kept text,
/// the whole text's length in characters, and whether anything was cut.
pub fn truncate_chars(text: &str, max: usize) -> (&str, usize, bool) {
    match text.char_indices().nth(max) {
        None => (text, text.chars().count(), false),
        Some((cut, _)) => (&text[..cut], text.chars().count(), true),
    }
}

/// At most `max` characters of `text`, with an ellipsis when cut (URLs, titles: whatever a
/// page controls and an answer repeats); typed secrets are hidden first.
pub fn cap(text: &str, max: usize) -> String {
    let text = crate::hidden::hide(text);
    match truncate_chars(&text, max) {
        (kept, _, true) => format!("{kept}…"),
        (kept, _, false) => kept.to_owned(),
    }
}

/// Longest URL repeated in an answer (page state, network log, tab lists).
pub const MAX_URL_CHARS: usize = 2_000;
/// Longest title repeated in an answer.
pub const MAX_TITLE_CHARS: usize = 300;

/// A CSS rule's text with the pseudo-classes of `states` in its selector turned into attribute
/// selectors (`(hover, attr)`: `:hover` → `[attr]`; the rule then applies where we set the
/// attribute); `None` when the selector has none of them. A longer name is never taken for a
/// shorter one (`:focus-visible` is not `:focus`), and pseudo-elements (`::before`) stay.
pub fn mirror_states(css_text: &str, states: &[(&str, &str)]) -> Option<String> {
    let (selector, body) = css_text.split_at(css_text.find('{')?);
    let mut out = String::with_capacity(selector.len() + 32);
    let mut found = false;
    let mut rest = selector;
    while let Some(at) = rest.find(':') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if let Some(element) = after.strip_prefix(':') {
            out.push_str("::");
            rest = element;
            continue;
        }
        let len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .unwrap_or(after.len());
        match states.iter().find(|(name, _)| *name == &after[..len]) {
            Some((_, attr)) => {
                found = true;
                out.push_str(&format!("[{attr}]"));
            }
            None => {
                out.push(':');
                out.push_str(&after[..len]);
            }
        }
        rest = &after[len..];
    }
    out.push_str(rest);
    found.then(|| format!("{out}{body}"))
}

/// Squeezes runs of blank lines and trailing spaces, which innerText produces in quantity.
pub fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank_run = 0;
    for line in text.lines() {
        let line = line.trim_end();
        if line.is_empty() {
            blank_run += 1;
            if blank_run > 1 {
                continue;
            }
        } else {
            blank_run = 0;
        }
        out.push_str(line);
        out.push('\n');
    }
    out.trim().to_owned()
}

/// Names an element the way a developer would recognise it: `button#save.primary "Save"`.
pub fn describe_element(tag: &str, id: &str, classes: &str, label: &str) -> String {
    let mut out = cap(&tag.to_ascii_lowercase(), 40);
    if !id.is_empty() {
        out.push('#');
        out.push_str(&cap(id, 60));
    }
    for class in classes.split_whitespace().take(3) {
        out.push('.');
        out.push_str(&cap(class, 40));
    }
    let label = crate::a11y::clean(label, 40);
    if !label.is_empty() {
        out.push_str(&format!(" \"{label}\""));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncation_counts_characters_not_bytes() {
        assert_eq!(truncate_chars("héllo", 2), ("hé", 5, true));
        assert_eq!(truncate_chars("héllo", 5), ("héllo", 5, false));
        assert_eq!(truncate_chars("", 3), ("", 0, false));
        assert_eq!(truncate_chars("日本語", 0), ("", 3, true));
    }

    #[test]
    fn names_stay_short_whatever_the_page_puts_in_them() {
        let long = "x".repeat(100_000);
        let name = describe_element("button", &long, &format!("{long} {long}"), &long);
        assert!(name.chars().count() < 250, "{}", name.len());
        assert_eq!(cap("abcdef", 3), "abc…");
        assert_eq!(cap("abc", 3), "abc");
    }

    #[test]
    fn state_rules_are_mirrored_onto_attributes() {
        let hover = [("hover", "data-h")];
        assert_eq!(
            mirror_states(".todo li:hover .destroy { display: block; }", &hover).as_deref(),
            Some(".todo li[data-h] .destroy { display: block; }")
        );
        assert_eq!(
            mirror_states(
                "a:hover, b:focus:hover { color: red; content: \":hover\"; }",
                &hover
            )
            .as_deref(),
            Some("a[data-h], b:focus[data-h] { color: red; content: \":hover\"; }"),
            "only the selector is rewritten"
        );
        assert_eq!(mirror_states("a:focus { color: red; }", &hover), None);
        assert_eq!(mirror_states("garbage", &hover), None);
        let all = [
            ("hover", "h"),
            ("focus", "f"),
            ("focus-visible", "fv"),
            ("focus-within", "fw"),
        ];
        assert_eq!(
            mirror_states(
                "form:focus-within input:focus-visible::after, :not(:focus):hover, a:focused { x: y }",
                &all
            )
            .as_deref(),
            Some("form[fw] input[fv]::after, :not([f])[h], a:focused { x: y }")
        );
        assert_eq!(
            mirror_states("a::hover-like:first-child { x: y }", &all),
            None
        );
    }

    #[test]
    fn tidy_squeezes_blank_lines() {
        assert_eq!(tidy("  a  \n\n\n\nb\n \n c\n\n"), "a\n\nb\n\n c");
    }

    #[test]
    fn elements_are_named_by_tag_id_classes_and_label() {
        assert_eq!(
            describe_element("BUTTON", "go", "primary big", "  Go\n now "),
            "button#go.primary.big \"Go now\""
        );
        assert_eq!(describe_element("INPUT", "", "", ""), "input");
        let long = describe_element("A", "", "", &"x".repeat(50));
        assert!(long.ends_with("…\""), "{long}");
    }
}
