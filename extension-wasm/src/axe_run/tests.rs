use std::cell::{Cell, RefCell};

use serde_json::{Value, json};

use super::*;
use crate::at_once::run;

/// A frame whose axe answers `outcome` after `takes` ms; its results are JSON, each flagged
/// node's `element` an object with the ref's index, its `tag`, an input's `type`, and
/// `holds_password` where a password field is under it.
/// What is read of the frame, of axe and of a flagged node is logged in `asked`.
struct Frame {
    loaded: bool,
    refuses: Option<&'static str>,
    outcome: Option<Result<Value, String>>,
    takes: f64,
    clock: Cell<f64>,
    asked_ms: Cell<Option<u32>>,
    asked: RefCell<Vec<String>>,
}

impl Frame {
    fn ask(&self, what: impl Into<String>) {
        self.asked.borrow_mut().push(what.into());
    }
}

fn frame(results: Value) -> Frame {
    Frame {
        loaded: true,
        refuses: None,
        outcome: Some(Ok(results)),
        takes: 30.0,
        clock: Cell::new(10_000.0),
        asked_ms: Cell::new(None),
        asked: RefCell::default(),
    }
}

impl Axe for Frame {
    type Value = Value;
    type List = Vec<Value>;
    type Running = ();
    type Page = ();
    type Element = serde_json::Map<String, Value>;

    fn now_ms(&self) -> f64 {
        self.clock.get()
    }

    fn loaded(&self) -> bool {
        self.ask("loaded");
        self.loaded
    }

    fn open(&self) -> Result<(), ErrorBody> {
        self.ask("open");
        Ok(())
    }

    fn start(&self, (): &(), _options: &Options) -> Result<(), String> {
        self.ask("start");
        self.refuses.map_or(Ok(()), |words| Err(words.to_owned()))
    }

    async fn results(&self, (): (), ms: u32) -> Option<Result<Value, String>> {
        self.asked_ms.set(Some(ms));
        self.clock.set(self.clock.get() + self.takes);
        self.outcome.clone()
    }

    fn text(&self, value: &Value, key: &str) -> String {
        if matches!(key, "html" | "failureSummary") {
            self.ask(key);
        }
        value[key].as_str().unwrap_or_default().to_owned()
    }

    fn as_text(&self, value: &Value) -> Option<String> {
        value.as_str().map(str::to_owned)
    }

    fn list(&self, value: &Value, key: &str) -> Vec<Value> {
        if matches!(key, "violations" | "incomplete") {
            self.ask(key);
        }
        value[key].as_array().cloned().unwrap_or_default()
    }

    fn len(&self, list: &Vec<Value>) -> u32 {
        list.len() as u32
    }

    fn item(&self, list: &Vec<Value>, index: u32) -> Value {
        list[index as usize].clone()
    }

    fn element(&self, node: &Value) -> Option<Self::Element> {
        self.ask("element");
        node["element"].as_object().cloned()
    }

    fn input_type(&self, el: &Self::Element) -> Option<String> {
        self.ask("input_type");
        el.get("type").and_then(Value::as_str).map(str::to_owned)
    }

    fn holds(&self, el: &Self::Element, selectors: &str) -> bool {
        self.ask("holds");
        assert_eq!(selectors, "input[type=password i]");
        el.get("holds_password") == Some(&Value::Bool(true))
    }

    fn tag(&self, el: &Self::Element) -> String {
        self.ask("tag");
        el["tag"].as_str().unwrap().to_owned()
    }

    fn ref_for(&self, el: &Self::Element) -> ElementRef {
        self.ask("ref");
        ElementRef {
            frame: 2,
            index: el["ref"].as_u64().unwrap() as u32,
        }
    }

    fn engine(&self) -> String {
        self.ask("engine");
        "4.10.0".into()
    }

    fn url(&self, (): &()) -> String {
        self.ask("url");
        "https://user:pass@example.com/form".into()
    }

    fn child_frames(&self, (): &()) -> Vec<u64> {
        self.ask("child_frames");
        vec![17]
    }
}

fn node(index: u64, html: &str) -> Value {
    json!({"element": {"ref": index}, "html": html, "failureSummary": "Fix  this:\n add alt"})
}

fn audited(frame: &Frame, per_rule: u32) -> Result<Box<Audit>, ErrorBody> {
    run(audit(frame, &[], per_rule, 12_000))
}

#[test]
fn options_name_the_sets_asked_and_keep_axe_out_of_frames() {
    let all = serde_json::to_value(options(&[])).unwrap();
    assert_eq!(
        all,
        json!({
            "resultTypes": ["violations", "incomplete"],
            "elementRef": true,
            "selectors": false,
            "iframes": false,
            "rules": {"frame-tested": {"enabled": false}},
        })
    );
    let some = serde_json::to_value(options(&[RuleSet::Wcag2a, RuleSet::BestPractice])).unwrap();
    assert_eq!(
        some["runOnly"],
        json!({"type": "tag", "values": ["wcag2a", "best-practice"]})
    );
}

#[test]
fn a_rule_keeps_its_wcag_tags_and_its_first_elements() {
    let tags: Vec<String> = ["cat.text-alternatives", "wcag2a", "wcag111", "section508"]
        .into_iter()
        .map(String::from)
        .chain((0..20).map(|i| format!("wcag{i}")))
        .collect();
    let results = json!({
        "violations": [{
            "id": "image-alt",
            "impact": "critical",
            "tags": tags,
            "help": "Images  must have\nalternate text",
            "helpUrl": "https://dequeuniversity.com/rules/axe/image-alt",
            "nodes": [node(4, "<img src=a>"), node(5, "<img src=b>"), node(6, "<img src=c>")],
        }],
        "incomplete": [{"id": "color-contrast", "impact": "odd", "nodes": [node(7, "<p>")]}],
    });
    let audit = audited(&frame(results), 2).unwrap();
    let rule = &audit.violations[0];
    assert_eq!(rule.rule, "image-alt");
    assert_eq!(rule.impact, Some(Impact::Critical));
    assert_eq!(rule.tags.len(), MAX_TAGS);
    assert_eq!(rule.tags[..3], ["wcag2a", "wcag111", "wcag0"]);
    assert_eq!(rule.help, "Images must have alternate text");
    assert_eq!(rule.total, 3);
    let listed: Vec<String> = rule
        .elements
        .iter()
        .map(|e| e.element_ref.to_string())
        .collect();
    assert_eq!(listed, ["f2e4", "f2e5"]);
    assert_eq!(rule.elements[0].html, "<img src=a>");
    assert_eq!(rule.elements[0].fix, "Fix this: add alt");
    assert_eq!(audit.review[0].impact, None);
    assert_eq!(audit.review[0].elements[0].element_ref.index, 7);
}

#[test]
fn a_password_fields_markup_is_never_shown() {
    let results = json!({"violations": [{"id": "label", "nodes": [
        {"element": {"ref": 1, "tag": "form", "holds_password": true}, "html": "<form><input value=hunter2>"},
    ]}]});
    let audit = audited(&frame(results), 10).unwrap();
    assert_eq!(
        audit.violations[0].elements[0].html,
        "<form> (holds a password field: markup not shown)"
    );
}

#[test]
fn a_password_input_is_known_by_the_names_rule_in_any_case_of_its_type() {
    let results = json!({"violations": [{"id": "label", "nodes": [
        {"element": {"ref": 1, "tag": "input", "type": "PassWord"}, "html": "<input value=hunter2>"},
        {"element": {"ref": 2, "tag": "input", "type": "text"}, "html": "<input value=ann>"},
    ]}]});
    let f = frame(results);
    let audit = audited(&f, 10).unwrap();
    let shown: Vec<_> = audit.violations[0]
        .elements
        .iter()
        .map(|e| &e.html)
        .collect();
    assert_eq!(
        shown,
        [
            "<input> (holds a password field: markup not shown)",
            "<input value=ann>"
        ]
    );
    // A password input is not searched under.
    let asked = f.asked.borrow();
    let first = &asked[asked.iter().position(|a| a == "element").unwrap()..][..4];
    assert_eq!(first, ["element", "input_type", "tag", "ref"]);
}

#[test]
fn a_node_that_is_no_element_is_counted_not_listed() {
    let results = json!({"violations": [{"id": "x", "nodes": [{"html": "<x>"}, node(2, "<y>")]}]});
    let rule = &audited(&frame(results), 10).unwrap().violations[0];
    assert_eq!(rule.elements.len(), 1);
    assert_eq!(rule.total, 2);
}

#[test]
fn at_most_two_hundred_rules_are_read() {
    let rules: Vec<Value> = (0..250).map(|i| json!({"id": format!("r{i}")})).collect();
    let audit = audited(&frame(json!({"violations": rules})), 1).unwrap();
    assert_eq!(audit.violations.len(), MAX_RULES as usize);
    assert!(audit.review.is_empty());
}

#[test]
fn the_audit_says_where_how_long_and_which_frames_are_next() {
    let audit = audited(&frame(json!({})), 1).unwrap();
    assert!(audit.url.ends_with("@example.com/form"), "{}", audit.url);
    assert!(
        !audit.url.contains("pass"),
        "credentials redacted: {}",
        audit.url
    );
    // What the frame's axe and the frame's children say reach the answer.
    assert_eq!(audit.engine, "4.10.0");
    assert_eq!(audit.frames, [17]);
    assert_eq!(audit.frames_audited, 1);
    assert_eq!(audit.ms, 30);
}

#[test]
fn axe_missing_is_a_page_error() {
    let mut f = frame(json!({}));
    f.loaded = false;
    let e = audited(&f, 1).unwrap_err();
    assert_eq!(e.code, ErrorCode::PageError);
    assert_eq!(e.message, "axe-core did not load in this frame");
    assert_eq!(*f.asked.borrow(), ["loaded"], "before the frame is opened");
    assert_eq!(f.asked_ms.get(), None);
}

#[test]
fn a_refusal_gives_axes_words_cut() {
    let mut f = frame(json!({}));
    f.refuses = Some("Axe is already running");
    let e = audited(&f, 1).unwrap_err();
    assert_eq!(e.code, ErrorCode::PageError);
    assert_eq!(
        e.message,
        "axe-core could not audit this frame: Axe is already running"
    );
    assert_eq!(
        e.hint.as_deref(),
        Some("if an audit is still running here, retry when it ends")
    );
    let long = "w".repeat(1_000);
    f.refuses = None;
    f.outcome = Some(Err(long));
    let e = audited(&f, 1).unwrap_err();
    assert!(e.message.chars().count() < 340, "{}", e.message);
}

#[test]
fn a_run_past_the_deadline_is_a_timeout_with_the_time_it_had() {
    let mut f = frame(json!({}));
    f.outcome = None;
    let e = audited(&f, 1).unwrap_err();
    assert_eq!(f.asked_ms.get(), Some(2_000));
    assert_eq!(e.code, ErrorCode::Timeout);
    assert_eq!(e.message, "the audit did not finish within 2000 ms");
}

#[test]
fn the_frame_is_read_in_the_order_it_always_was() {
    let results = json!({
        "violations": [{"id": "image-alt", "nodes": [node(4, "<img>")]}],
        "incomplete": [{"id": "label", "nodes": [
            {"element": {"ref": 5, "tag": "form", "holds_password": true}, "failureSummary": "Fix"},
        ]}],
    });
    let f = frame(results);
    audited(&f, 10).unwrap();
    assert_eq!(
        *f.asked.borrow(),
        [
            "loaded",
            "open",
            "start",
            "child_frames",
            "url",
            "engine",
            "violations",
            // The markup read before the ref is handed out.
            "element",
            "input_type",
            "holds",
            "html",
            "ref",
            "failureSummary",
            "incomplete",
            "element",
            "input_type",
            "holds",
            "tag",
            "ref",
            "failureSummary",
        ]
    );
}
