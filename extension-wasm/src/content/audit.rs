//! `firefox_audit` in one frame: axe-core, which the background put into this world (the
//! content scripts', not the page's) just before, run over the frame's document; its findings
//! read into typed answers whose elements carry refs. Child frames are named for the
//! background, which audits them in turn: axe is told not to reach into them itself.

use claudezilla_protocol::args::RuleSet;
use claudezilla_protocol::reply::{Audit, Finding, Flagged, Impact};
use claudezilla_protocol::{ErrorBody, ErrorCode};
use js_sys::{Array, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Element, HtmlInputElement};

use super::find::ref_for;
use super::snapshot::child_frames;
use crate::a11y;
use crate::web::{self, get};

/// Characters of an element's markup, of axe's advice, of a rule's help shown at most.
const HTML_CHARS: usize = 120;
const FIX_CHARS: usize = 240;
const HELP_CHARS: usize = 200;
/// Rules read of one result list at most (axe has about a hundred).
const MAX_RULES: u32 = 200;
/// A password field (any case of the type), whose markup an answer never shows.
const PASSWORD: &str = "input[type=password i]";

/// Tags of one rule kept at most.
const MAX_TAGS: usize = 12;

/// The tags an answer keeps: WCAG levels and success criteria, and best practice (axe also
/// tags other standards and its own categories, which only lengthen the answer).
fn kept(tag: &str) -> bool {
    tag.starts_with("wcag") || tag == "best-practice"
}

/// Runs axe over this frame's document, with only the `rules` sets when some are named, and
/// lists at most `per_rule` elements of each rule.
pub async fn run(
    rules: &[RuleSet],
    per_rule: u32,
    frame: u32,
    until: u64,
) -> Result<Box<Audit>, ErrorBody> {
    let axe = get(&js_sys::global(), "axe");
    if !get(&axe, "run").is_function() {
        return Err(
            ErrorBody::new(ErrorCode::PageError, "axe-core did not load in this frame")
                .with_hint("retry; if it persists, the page may have navigated meanwhile"),
        );
    }
    let window = web_sys::window().ok_or_else(|| internal("no window"))?;
    let document = window.document().ok_or_else(|| internal("no document"))?;
    let started = web::now_ms();
    let promise = web::invoke(&axe, "run", &Array::of2(&document, &options(rules)))
        .map_err(|e| refused(&e))?;
    let left = until.saturating_sub(web::now_ms() as u64) as u32;
    let results = match web::with_deadline(left, JsFuture::from(Promise::from(promise))).await {
        Some(Ok(results)) => results,
        Some(Err(e)) => return Err(refused(&e)),
        None => {
            return Err(ErrorBody::new(
                ErrorCode::Timeout,
                format!("the audit did not finish within {left} ms"),
            )
            .with_hint(
                "axe keeps running in the page until it ends; retry with a larger timeout, or audit a smaller page",
            ));
        }
    };
    let per_rule = per_rule as usize;
    let findings = |kind: &str| -> Vec<Finding> {
        let list = Array::from(&get(&results, kind));
        (0..list.length().min(MAX_RULES))
            .map(|i| finding(&list.get(i), per_rule, frame))
            .collect()
    };
    // Frames in open shadow roots too.
    let frames = child_frames(&document);
    Ok(Box::new(Audit {
        url: crate::text::cap(
            &crate::redact::redact_url(&window.location().href().unwrap_or_default()),
            500,
        ),
        engine: get(&axe, "version").as_string().unwrap_or_default(),
        violations: findings("violations"),
        review: findings("incomplete"),
        frames,
        frames_audited: 1,
        not_audited: Vec::new(),
        ms: (web::now_ms() - started).max(0.0) as u32,
    }))
}

/// axe's options: the rule sets by tag (axe's default set when none is named); elements as
/// elements, so each gets its ref; no selectors built (not needed); no frames (each frame is
/// audited by the background in turn, so axe's reminder to test them is off).
fn options(rules: &[RuleSet]) -> JsValue {
    let options = Object::new();
    let set = |key: &str, value: &JsValue| {
        let _ = Reflect::set(&options, &key.into(), value);
    };
    if !rules.is_empty() {
        let run_only = Object::new();
        let tags: Array = rules.iter().map(|r| JsValue::from_str(r.tag())).collect();
        let _ = Reflect::set(&run_only, &"type".into(), &"tag".into());
        let _ = Reflect::set(&run_only, &"values".into(), &tags);
        set("runOnly", &run_only);
    }
    let kinds: Array = ["violations", "incomplete"]
        .iter()
        .map(|k| JsValue::from_str(k))
        .collect();
    set("resultTypes", &kinds);
    set("elementRef", &JsValue::TRUE);
    set("selectors", &JsValue::FALSE);
    set("iframes", &JsValue::FALSE);
    // Its "frames should be tested" reminder: each frame is, by the background.
    let off = Object::new();
    let _ = Reflect::set(&off, &"enabled".into(), &JsValue::FALSE);
    let rule_options = Object::new();
    let _ = Reflect::set(&rule_options, &"frame-tested".into(), &off);
    set("rules", &rule_options);
    options.into()
}

/// One rule's result, its first `per_rule` elements listed.
fn finding(rule: &JsValue, per_rule: usize, frame: u32) -> Finding {
    let nodes = Array::from(&get(rule, "nodes"));
    let tags = Array::from(&get(rule, "tags"))
        .iter()
        .filter_map(|t| t.as_string())
        .filter(|t| kept(t))
        .take(MAX_TAGS)
        .map(|t| crate::text::cap(&t, 40))
        .collect();
    Finding {
        rule: crate::text::cap(&string(rule, "id"), 80),
        impact: Impact::parse(&string(rule, "impact")),
        tags,
        help: a11y::clean(&string(rule, "help"), HELP_CHARS),
        help_url: crate::text::cap(&string(rule, "helpUrl"), HELP_CHARS),
        elements: (0..nodes.length().min(per_rule as u32))
            .filter_map(|i| flagged(&nodes.get(i), frame))
            .collect(),
        total: nodes.length(),
    }
}

/// One flagged element: its ref, its markup's start (never where a password field is, in it or
/// under it: markup may hold its value), and axe's advice.
fn flagged(node: &JsValue, frame: u32) -> Option<Flagged> {
    let element = get(node, "element").dyn_ref::<Element>()?.clone();
    let password = element
        .dyn_ref::<HtmlInputElement>()
        .is_some_and(|i| i.type_().eq_ignore_ascii_case("password"))
        || element.query_selector(PASSWORD).ok().flatten().is_some();
    let html = match password {
        true => format!(
            "<{}> (holds a password field: markup not shown)",
            element.local_name()
        ),
        false => a11y::clean(&string(node, "html"), HTML_CHARS),
    };
    Some(Flagged {
        element_ref: ref_for(&element, frame),
        html,
        fix: a11y::clean(&string(node, "failureSummary"), FIX_CHARS),
    })
}

/// axe refused to run or failed: its own words (a second audit while one runs is refused).
fn refused(e: &JsValue) -> ErrorBody {
    let words = web::js_error_message(e);
    ErrorBody::new(
        ErrorCode::PageError,
        format!(
            "axe-core could not audit this frame: {}",
            crate::text::cap(&words, 300)
        ),
    )
    .with_hint("if an audit is still running here, retry when it ends")
}

fn string(target: &JsValue, key: &str) -> String {
    get(target, key).as_string().unwrap_or_default()
}

fn internal(what: &str) -> ErrorBody {
    ErrorBody::new(ErrorCode::Internal, what)
}
