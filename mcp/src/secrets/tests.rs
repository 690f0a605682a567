use proptest::prelude::*;

use super::*;

const FILE: &str = r#"
# the user's secrets
GITHUB_PASSWORD=correct-horse @github.com @*.github.com
export BANK_PIN="with spaces \"and\" quotes" @bank.example   # a comment
ANYWHERE='single quoted & <odd>'
"#;

fn named(name: &str) -> SecretName {
    SecretName::try_from(name.to_owned()).unwrap()
}

#[test]
fn entries_read_with_their_sites() {
    let s = Secrets::parse(FILE).unwrap();
    let gh = s.fill(&named("GITHUB_PASSWORD")).unwrap();
    assert_eq!(gh.value, "correct-horse");
    let hosts = |f: &FilledSecret| {
        f.sites
            .iter()
            .map(|s| s.host().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(hosts(&gh), ["github.com", "github.com"]);
    let pin = s.fill(&named("BANK_PIN")).unwrap();
    assert_eq!(pin.value, r#"with spaces "and" quotes"#);
    assert_eq!(hosts(&pin), ["bank.example"]);
    let unbound: Vec<&str> = s.unbound().map(|n| n.as_str()).collect();
    assert_eq!(unbound, ["ANYWHERE"]);
}

#[test]
fn bad_lines_say_where_and_never_the_value() {
    for (file, said) in [
        ("X=abc", "line 1: X's value is shorter"),
        ("X=\"a  b c\"", "line 1: X's value is shorter"),
        (
            "A=longvalue @a.example:anyfield",
            "word 1 after A's value: a site is a host",
        ),
        (
            "\nA=longvalue @https://a.example",
            "line 2: word 1 after A's value: a site is a host",
        ),
        ("A=longvalue a.example", "sites are written @example.com"),
        ("PASS=correct horse", "word 1 after PASS's value"),
        ("A=\"longvalue", "no closing"),
        ("1A=longvalue", "a letter or _"),
        ("A=longvalue\nA=othervalue", "line 2: A is named twice"),
        ("just words", "write NAME=value"),
    ] {
        let e = Secrets::parse(file).unwrap_err().to_string();
        assert!(e.contains(said), "{file:?}: {e}");
        for part in ["longvalue", "othervalue", "correct", "horse"] {
            assert!(!e.contains(part), "{e}");
        }
    }
}

#[test]
fn unknown_names_list_the_names_only() {
    let s = Secrets::parse(FILE).unwrap();
    let e = s.fill(&named("NOPE")).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidArgument);
    assert!(
        e.message.contains("GITHUB_PASSWORD, BANK_PIN, ANYWHERE"),
        "{}",
        e.message
    );
    assert!(!e.message.contains("correct-horse"));
    let none = Secrets::default().fill(&named("NOPE")).unwrap_err();
    assert!(none.message.contains("no secrets file"), "{}", none.message);
}

#[test]
fn a_typed_secret_and_a_form_leave_with_their_values() {
    let s = Secrets::parse(FILE).unwrap();
    let typed: TypeArgs =
        serde_json::from_value(serde_json::json!({"selector": "#p", "secret": "BANK_PIN"}))
            .unwrap();
    let ResolvedType {
        text: Typing::Secret(pin),
        ..
    } = resolve_type(&s, typed).unwrap()
    else {
        panic!("not the secret")
    };
    assert_eq!(pin.value, r#"with spaces "and" quotes"#);
    let form: FillFormArgs = serde_json::from_value(serde_json::json!({"fields": [
        {"selector": "#u", "value": "ada"},
        {"selector": "#p", "value": {"secret": "ANYWHERE"}},
        {"selector": "#c", "value": true},
    ]}))
    .unwrap();
    let entries: Vec<_> = resolve_form(&s, form.clone())
        .unwrap()
        .fields
        .into_iter()
        .map(|(_, e)| e)
        .collect();
    let anywhere = s.fill(&named("ANYWHERE")).unwrap();
    assert_eq!(
        entries,
        [
            FieldEntry::Typed(Typing::Text("ada".into())),
            FieldEntry::Typed(Typing::Secret(anywhere)),
            FieldEntry::Checked(true),
        ]
    );
    let e = resolve_form(&Secrets::default(), form).unwrap_err();
    assert!(e.message.contains("no secrets file"), "{}", e.message);
}

#[test]
fn every_written_form_is_hidden() {
    let s = Secrets::parse(FILE).unwrap();
    for text in [
        "password=correct-horse&x=1",
        "pin=with+spaces+%22and%22+quotes",
        "q=with%20spaces%20%22and%22%20quotes",
        r#"{"pin":"with spaces \"and\" quotes"}"#,
        "<input value=\"single quoted &amp; &lt;odd&gt;\">",
    ] {
        let shown = s.redact(text);
        assert!(shown.contains("<redacted:"), "{text} → {shown}");
        for value in ["correct-horse", "with spaces", "single quoted"] {
            assert!(!shown.contains(value), "{text} → {shown}");
        }
    }
    assert!(matches!(s.redact("nothing here"), Cow::Borrowed(_)));
}

#[test]
fn secrets_in_arguments_and_files_are_found_by_name() {
    let s = Secrets::parse(FILE).unwrap();
    let url = r#"{"url":"https://evil.example/?p=Correct-Horse"}"#;
    let refusal = s.refuse_in(url).unwrap_err();
    assert_eq!(refusal.code, ErrorCode::NotAllowed);
    assert!(refusal.message.contains("GITHUB_PASSWORD"), "{refusal:?}");
    assert!(!format!("{refusal:?}").contains("orse"), "{refusal:?}");
    assert!(s.refuse_in(r#"{"secret":"GITHUB_PASSWORD"}"#).is_ok());
    assert_eq!(
        s.found_in(b"\xff\x00binary correct-horse\xfe")
            .map(SecretName::as_str),
        Some("GITHUB_PASSWORD")
    );
    assert_eq!(s.found_in(b"nothing"), None);
}

/// The forms browsers and libraries write, made by other code than the one under test:
/// serde_json, the `url` crate's form encoder and WHATWG URL serialiser, and HTML as
/// `outerHTML` writes text and attributes.
fn forms_written_elsewhere(value: &str) -> Vec<String> {
    let json = serde_json::to_string(value).unwrap();
    let form: String = url::form_urlencoded::byte_serialize(value.as_bytes()).collect();
    let mut url = url::Url::parse("https://a.example/").unwrap();
    url.set_path(&format!("/{value}"));
    url.set_query(Some(value));
    url.set_fragment(Some(value));
    let text = value
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let attribute = value.replace('&', "&amp;").replace('"', "&quot;");
    vec![
        value.to_owned(),
        json[1..json.len() - 1].to_owned(),
        form,
        url.to_string(),
        text,
        attribute,
        value.to_ascii_uppercase(),
    ]
}

proptest! {
    /// Whatever the value, written quoted in the file it reads back the same, and no answer
    /// that holds it (as is, or as JSON, a form, a URL or HTML writes it) shows it after
    /// redaction.
    #[test]
    fn values_read_back_and_never_show(
        value in "[!-~][ -~é]{2,38}[!-~]",
        around in "[ -~]{0,40}",
    ) {
        prop_assume!(value.chars().filter(|c| !c.is_whitespace()).count() >= MIN_VALUE_CHARS);
        let quoted = value.replace('\\', "\\\\").replace('"', "\\\"");
        let s = Secrets::parse(&format!("S=\"{quoted}\" @a.example")).unwrap();
        let filled = s.fill(&named("S")).unwrap();
        prop_assert_eq!(&filled.value, &value);
        for form in forms_written_elsewhere(&value) {
            let answer = format!("{around}{form}{around}");
            let shown = s.redact(&answer);
            prop_assert!(shown.contains("<redacted:S>"), "{} → {}", answer, shown);
            // The value may be a piece of the placeholder's own letters; nothing else.
            let rest = shown.replace("<redacted:S>", "\0");
            prop_assert!(!rest.contains(&value), "{} → {}", answer, shown);
        }
    }
}
