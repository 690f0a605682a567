//! Text for answers: cutting page text, naming elements.

/// Cuts `text` to at most `max` characters (never inside a character). Returns the kept text,
/// the whole text's length in characters, and whether anything was cut.
pub fn truncate_chars(text: &str, max: usize) -> (&str, usize, bool) {
    match text.char_indices().nth(max) {
        None => (text, text.chars().count(), false),
        Some((cut, _)) => (&text[..cut], text.chars().count(), true),
    }
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
    let mut out = tag.to_ascii_lowercase();
    if !id.is_empty() {
        out.push('#');
        out.push_str(id);
    }
    for class in classes.split_whitespace().take(3) {
        out.push('.');
        out.push_str(class);
    }
    let label = label.split_whitespace().collect::<Vec<_>>().join(" ");
    if !label.is_empty() {
        let (short, _, cut) = truncate_chars(&label, 40);
        out.push_str(&format!(" \"{short}{}\"", if cut { "…" } else { "" }));
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
