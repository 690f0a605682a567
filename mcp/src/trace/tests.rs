use proptest::prelude::*;
use serde_json::json;

use super::*;

fn args(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

fn action<'a>(tool: &'a str, args: &'a Map<String, Value>, answer: &'a str) -> Action<'a> {
    Action {
        tool,
        args,
        answer,
        failed: false,
        url: "https://a.example/".into(),
        title: "A".into(),
        errors: vec![],
        picture: None,
        replay: None,
    }
}

#[test]
fn typed_text_shows_as_its_length_places_as_given() {
    let shown = target_of(&args(json!({
        "tabId": 4, "selector": "#q", "text": "my typed words", "secret": "GITHUB_PASSWORD",
        "fields": [{"selector": "#a", "value": "x"}], "expression": "document.cookie", "timeout": 9000
    })));
    assert!(
        shown.contains("tabId=4") && shown.contains("selector=\"#q\""),
        "{shown}"
    );
    assert!(
        shown.contains("text=<14 chars>") && !shown.contains("typed words"),
        "{shown}"
    );
    assert!(shown.contains("secret=\"GITHUB_PASSWORD\"") && shown.contains("fields=[1 item(s)]"));
    assert!(
        shown.contains("expression=<15 chars>") && !shown.contains("timeout"),
        "{shown}"
    );
}

#[test]
fn what_was_typed_stays_out_of_later_answers() {
    let mut t = Trace::default();
    let typed = args(json!({"selector": "#q", "text": "hunter2-typed"}));
    t.record(action("firefox_type", &typed, "Typed into textbox"));
    let form = args(
        json!({"fields": [{"selector": "#a", "value": "form-words"}, {"selector": "#b", "value": true}]}),
    );
    t.record(action("firefox_fill_form", &form, "Filled 2 field(s)"));
    let none = args(json!({}));
    t.record(action(
        "firefox_snapshot",
        &none,
        "textbox \"q\" value=hunter2-typed, form-words",
    ));
    let html = t.html();
    assert!(
        !html.contains("hunter2") && !html.contains("form-words"),
        "{html}"
    );
    assert!(html.contains("&lt;typed: 13 chars&gt;"), "{html}");
}

#[test]
fn pictures_follow_changes_but_never_a_secret() {
    assert!(pictured("firefox_click", &args(json!({"ref": "e1"}))));
    assert!(!pictured("firefox_snapshot", &args(json!({}))));
    assert!(!pictured(
        "firefox_type",
        &args(json!({"ref": "e1", "secret": "PW"}))
    ));
    let form = args(
        json!({"fields": [{"ref": "e1", "value": "x"}, {"ref": "e2", "value": {"secret": "PW"}}]}),
    );
    assert!(!pictured("firefox_fill_form", &form));
    // What another tool was given is not "typed".
    let mut t = Trace::default();
    let find = args(json!({"text": "pricing"}));
    t.record(action("firefox_find", &find, "1 of 1 match(es): «pricing»"));
    t.record(action(
        "firefox_snapshot",
        &args(json!({})),
        "link \"pricing\"",
    ));
    assert!(t.html().contains("link &quot;pricing&quot;"));
}

#[test]
fn new_console_errors_are_the_ones_not_seen_before() {
    let mut t = Trace::default();
    let a = args(json!({}));
    let mut first = action("firefox_click", &a, "ok");
    first.errors = vec!["boom".into()];
    t.record(first);
    let mut second = action("firefox_click", &a, "ok");
    second.errors = vec!["boom".into(), "bang".into()];
    t.record(second);
    assert_eq!(t.entries[0].errors, ["boom"]);
    assert_eq!(t.entries[1].errors, ["bang"]);
}

#[test]
fn a_full_trace_counts_what_it_leaves_out_and_says_so() {
    let mut t = Trace::default();
    let a = args(json!({}));
    assert_eq!(t.limits_reached(), None);
    for _ in 0..MAX_ENTRIES + 3 {
        t.record(action("firefox_click", &a, "ok"));
    }
    assert_eq!(t.len(), MAX_ENTRIES);
    let said = t.limits_reached().unwrap();
    assert!(said.contains("3 later action(s)"), "{said}");
    assert!(t.html().contains("3 later action(s)"));
    let mut big = Trace::default();
    let picture = "A".repeat(MAX_BYTES / 2 + 1);
    for _ in 0..3 {
        let mut shot = action("firefox_click", &a, "ok");
        shot.picture = Some(picture.clone());
        big.record(shot);
    }
    assert!(big.bytes <= MAX_BYTES, "{}", big.bytes);
    assert_eq!(
        big.entries.iter().filter(|e| e.picture.is_some()).count(),
        1
    );
}

#[test]
fn the_page_lists_every_action_with_its_picture_and_no_script() {
    let mut t = Trace::default();
    let a = args(json!({"ref": "e3"}));
    let mut shot = action("firefox_click", &a, "Clicked <b>button</b>.");
    shot.picture = Some("/9j/4AAQ".into());
    t.record(shot);
    t.record(action("firefox_snapshot", &a, "- button \"Go\" e3"));
    let html = t.html();
    assert!(
        html.contains("1. firefox_click ref=&quot;e3&quot;"),
        "{html}"
    );
    assert!(html.contains("2. firefox_snapshot"));
    assert!(html.contains("src=\"data:image/jpeg;base64,/9j/4AAQ\""));
    assert!(html.contains("Clicked &lt;b&gt;button&lt;/b&gt;."));
    assert!(!html.to_ascii_lowercase().contains("<script"));
    let json: Value = serde_json::from_str(&t.json()).unwrap();
    assert_eq!(json["actions"].as_array().map(Vec::len), Some(2));
}

proptest! {
    /// Whatever a page puts in a title, URL, answer or error, none of it becomes markup.
    #[test]
    fn nothing_a_page_writes_becomes_markup(
        title in ".{0,60}", url in ".{0,60}", answer in ".{0,200}", error in ".{0,60}"
    ) {
        let mut t = Trace::default();
        let a = args(json!({"selector": title.clone()}));
        let mut act = action("firefox_click", &a, &answer);
        act.url = url;
        act.title = title;
        act.errors = vec![error];
        t.record(act);
        let html = t.html();
        let body = &html[html.find("<ol>").unwrap()..];
        // Our own tags only: every '<' opens one of them.
        for (i, _) in body.match_indices('<') {
            let tag = &body[i + 1..];
            let ours = ["ol>", "/ol>", "li ", "/li>", "h2>", "/h2>", "small>", "/small>", "p ", "/p>", "pre>", "/pre>", "nav>", "/nav>", "a ", "/a>", "img ", "/body>", "/html>"];
            prop_assert!(ours.iter().any(|o| tag.starts_with(o)), "{}", &body[i..(i + 20).min(body.len())]);
        }
    }
}
