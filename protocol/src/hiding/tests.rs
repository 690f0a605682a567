use proptest::prelude::*;

use super::*;

fn name(n: &str) -> SecretName {
    SecretName::try_from(n.to_owned()).unwrap()
}

fn mark(n: &SecretName) -> String {
    format!("<{n}>")
}

fn hider(secrets: &[(&str, &str)]) -> Hider {
    let names: Vec<(SecretName, &str)> = secrets.iter().map(|(n, v)| (name(n), *v)).collect();
    Hider::new(names.iter().map(|(n, v)| (n, *v)))
}

#[test]
fn every_serialised_form_a_browser_writes_is_found() {
    // `encodeURIComponent`, then the URL parser's `'` → `%27`: a mixture no one list holds.
    let value = "O'Brien & <co> \"x\"";
    let h = hider(&[("PW", value)]);
    for shown in [
        // As is, and the way outerHTML writes text (never `'`) and attributes.
        "O'Brien & <co> \"x\"",
        "O'Brien &amp; &lt;co&gt; \"x\"",
        "O'Brien &amp; <co> &quot;x&quot;",
        "O'Brien &amp; &lt;co&gt; &quot;x&quot;",
        // Our own HTML escaping, a JSON string.
        "O&#39;Brien &amp; &lt;co&gt; &quot;x&quot;",
        r#"O'Brien & <co> \"x\""#,
        // URLs: form body, encodeURIComponent, query (special or not), path, fragment.
        "O%27Brien+%26+%3Cco%3E+%22x%22",
        "O'Brien%20%26%20%3Cco%3E%20%22x%22",
        "O%27Brien%20&%20%3Cco%3E%20%22x%22",
        "O'Brien%20&%20%3Cco%3E%20%22x%22",
        "O%27Brien%20%26%20%3Cco%3E%20%22x%22",
        // Go's JSON, for HTML.
        "O\\u0027Brien \\u0026 \\u003cco\\u003e \\\"x\\\"",
        // text-transform, lower-case hex, and white space collapsed or folded.
        "O'BRIEN & <CO> \"X\"",
        "o%27brien%20&%20%3cco%3e%20%22x%22",
        "O'Brien   &\n<co>\u{a0}\"x\"",
    ] {
        let text = format!("before {shown} after");
        assert_eq!(h.hide(&text, mark), "before <PW> after", "{shown}");
    }
}

#[test]
fn overlapping_values_hide_as_one_span_naming_both() {
    let h = hider(&[("A", "abcd1234"), ("B", "1234efgh")]);
    assert_eq!(h.hide("x abcd1234efgh y", mark), "x <A><B> y");
    assert_eq!(h.first_in("..1234EFGH.."), Some(&name("B")));
    assert_eq!(h.first_in("nothing here"), None);
    let h = hider(&[("SHORT", "hunter2"), ("LONG", "hunter2-and-more")]);
    assert_eq!(
        h.hide("v=hunter2-and-more;w=hunter2", mark),
        "v=<LONG>;w=<SHORT>"
    );
}

#[test]
fn text_without_a_value_is_borrowed_and_an_empty_hider_finds_nothing() {
    let h = hider(&[("A", "hunter2-long")]);
    assert!(matches!(h.hide("plain text", mark), Cow::Borrowed(_)));
    assert!(Hider::default().is_empty());
    assert_eq!(Hider::default().hide("hunter2-long", mark), "hunter2-long");
}

#[test]
fn a_value_is_not_found_in_parts() {
    let h = hider(&[("A", "hunter2-long")]);
    assert_eq!(h.hide("hunter2-lon g", mark), "hunter2-lon g");
    assert_eq!(h.hide("hunter2 -long", mark), "hunter2 -long");
    // Words of a value with spaces need space between them.
    let h = hider(&[("B", "correct horse")]);
    assert_eq!(h.hide("correcthorse", mark), "correcthorse");
    assert_eq!(h.hide("correct\thorse", mark), "<B>");
}

#[test]
fn positions_map_back_to_the_text_searched() {
    let h = hider(&[("PW", "secret-value")]);
    let text = "ab secret-value cd SECRET-VALUE ef";
    let (hidden, shifts) = h.hide_mapped(text, mark);
    assert_eq!(hidden, "ab <PW> cd <PW> ef");
    for (in_hidden, in_text) in [(0, 0), (3, 3), (5, 3), (7, 15), (8, 16), (11, 19), (15, 31)] {
        assert_eq!(shifts.original(in_hidden), in_text, "{in_hidden}");
    }
}

/// `value` percent-encoded, every byte but ASCII letters, digits and `keep`.
fn percent(value: &str, keep: &str) -> String {
    value
        .bytes()
        .map(
            |b| match b.is_ascii_alphanumeric() || keep.as_bytes().contains(&b) {
                true => (b as char).to_string(),
                false => format!("%{b:02X}"),
            },
        )
        .collect()
}

/// The forms pages and libraries write a value in, made here without the code under test.
fn forms(value: &str) -> Vec<String> {
    let json = serde_json::to_string(value).unwrap();
    let html = |escapes: &[(char, &str)]| -> String {
        value
            .chars()
            .map(|c| match escapes.iter().find(|(from, _)| *from == c) {
                Some((_, entity)) => entity.to_string(),
                None => c.to_string(),
            })
            .collect()
    };
    vec![
        value.to_owned(),
        value.to_ascii_uppercase(),
        json[1..json.len() - 1].to_owned(),
        html(&[('&', "&amp;"), ('<', "&lt;"), ('>', "&gt;")]),
        html(&[('&', "&amp;"), ('"', "&quot;")]),
        html(&[
            ('&', "&amp;"),
            ('<', "&lt;"),
            ('>', "&gt;"),
            ('"', "&quot;"),
            ('\'', "&#39;"),
        ]),
        // encodeURIComponent, then the same as the URL parser leaves it ('); a form body.
        percent(value, "-_.!~*'()"),
        percent(value, "-_.!~*()"),
        percent(value, "*-._ ").replace(' ', "+"),
        // The URL standard's query and path sets: little encoded.
        percent(value, "!$%&'()*+,-./:;=?@[\\]^_`{|}~"),
        percent(value, "!$%&'()*+,-./:;=@[\\]_|~").to_lowercase(),
    ]
}

proptest! {
    /// Wherever a value stands in any text, in any form, no part of it is left: what remains
    /// holds the value in none of its forms, and the text around it is kept.
    #[test]
    fn no_value_survives_hiding(
        before in "[ -~\u{e9}\u{a0}]{0,20}",
        value in "[!-~\u{e9}][ -~\u{e9}]{2,14}[!-~\u{e9}]",
        after in "[ -~\u{e9}]{0,20}",
        form in 0usize..11,
    ) {
        let h = hider(&[("S", &value)]);
        let forms = forms(&value);
        let shown = &forms[form];
        let text = format!("{before}{shown}{after}");
        let hidden = h.hide(&text, mark);
        prop_assert!(hidden.contains("<S>"), "{text:?} → {hidden:?}");
        // What is left around the placeholders (a placeholder's own `<` or `>` may meet the
        // page's text and spell the value again: that is not the value the page showed).
        let left = hidden.replace("<S>", "\u{1}");
        prop_assert!(h.first_in(&left).is_none(), "{text:?} → {hidden:?}");
        for form in &forms {
            prop_assert!(!left.contains(form.as_str()), "{form:?} left in {hidden:?}");
        }
    }

    /// Hiding any text never panics, and positions map into the original text.
    #[test]
    fn any_text_hides_and_maps(text in "\\PC{0,80}", value in "\\PC{1,12}") {
        let h = hider(&[("S", &value)]);
        let (hidden, shifts) = h.hide_mapped(&text, mark);
        for at in 0..=hidden.len() {
            prop_assert!(shifts.original(at) <= text.len());
        }
    }

    /// A value found in text percent-encoded byte by byte, whatever its characters.
    #[test]
    fn any_value_is_found_encoded(value in "\\PC{1,12}") {
        prop_assume!(!value.trim().is_empty());
        let h = hider(&[("S", &value)]);
        let encoded = percent(value.trim(), "");
        prop_assert_eq!(h.hide(&encoded, mark), "<S>");
    }
}
