//! `firefox_audit` in one frame (`audit`): axe-core run over the frame's document with the
//! options an audit needs, within the request's time, and what of its results an answer keeps
//! — each rule's id, impact, WCAG and best-practice tags, help, and its first elements by ref
//! with their markup's start (never a password field's) and axe's advice. Over [`Axe`], which
//! `content/audit.rs` implements; the background gathers the frames' audits (`stitch::audit`).

use claudezilla_protocol::args::{ElementRef, RuleSet};
use claudezilla_protocol::reply::{Audit, Finding, Flagged, Impact};
use claudezilla_protocol::{ErrorBody, ErrorCode};
use serde::Serialize;

use crate::a11y::clean;
use crate::page_names::{PASSWORD_FIELDS, is_password};
use crate::text::cap;

/// Characters of an element's markup, of axe's advice, of a rule's help shown at most.
const HTML_CHARS: usize = 120;
const FIX_CHARS: usize = 240;
const HELP_CHARS: usize = 200;
/// Characters of a rule's id, of one tag, of the frame's address kept at most.
const RULE_CHARS: usize = 80;
const TAG_CHARS: usize = 40;
const URL_CHARS: usize = 500;
/// Characters of axe's words on a refusal kept at most.
const REFUSAL_CHARS: usize = 300;
/// Rules read of one result list at most (axe has about a hundred).
const MAX_RULES: u32 = 200;
/// Tags of one rule kept at most.
const MAX_TAGS: usize = 12;

/// What an audit asks of the frame and of axe's results (plain JS values, read by key).
pub trait Axe {
    /// One of axe's values: its results, a rule's result, a flagged node, a tag.
    type Value;
    /// A list of them.
    type List;
    /// The run started, its results still to come.
    type Running;
    /// The frame's window and document, opened once axe is there.
    type Page;
    /// An element axe flagged.
    type Element;

    fn now_ms(&self) -> f64;
    /// axe-core is in this world (the background injected it just before).
    fn loaded(&self) -> bool;
    /// The frame's window and document (an internal error where there is none).
    fn open(&self) -> Result<Self::Page, ErrorBody>;
    /// Starts axe over the frame's document; its words where it refuses.
    fn start(&self, page: &Self::Page, options: &Options) -> Result<Self::Running, String>;
    /// The run's results within `ms` (none when it did not finish); axe's words where it fails.
    fn results(
        &self,
        run: Self::Running,
        ms: u32,
    ) -> impl Future<Output = Option<Result<Self::Value, String>>>;
    /// The text at `key` of `value`, empty where there is none.
    fn text(&self, value: &Self::Value, key: &str) -> String;
    /// `value` itself as text, if it is text.
    fn as_text(&self, value: &Self::Value) -> Option<String>;
    /// The list at `key` of `value` (empty where there is none).
    fn list(&self, value: &Self::Value, key: &str) -> Self::List;
    fn len(&self, list: &Self::List) -> u32;
    fn item(&self, list: &Self::List, index: u32) -> Self::Value;
    /// The element a flagged node names, if it is one.
    fn element(&self, node: &Self::Value) -> Option<Self::Element>;
    /// The type of an HTML `<input>`; `None` for any other element.
    fn input_type(&self, el: &Self::Element) -> Option<String>;
    /// Does an element under `el` match `selectors`?
    fn holds(&self, el: &Self::Element, selectors: &str) -> bool;
    /// Its tag (`localName`).
    fn tag(&self, el: &Self::Element) -> String;
    /// Its ref (handed out on first sight).
    fn ref_for(&self, el: &Self::Element) -> ElementRef;
    /// axe-core's version.
    fn engine(&self) -> String;
    /// The frame's address.
    fn url(&self, page: &Self::Page) -> String;
    /// The browser frame ids of the frame's child frames, for the background to audit next.
    fn child_frames(&self, page: &Self::Page) -> Vec<u64>;
}

/// axe's options: the rule sets by tag (axe's default set when none is named); elements as
/// elements, so each gets its ref; no selectors built (not needed); no frames (each frame is
/// audited by the background in turn, so axe's reminder to test them is off).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Options {
    #[serde(skip_serializing_if = "Option::is_none")]
    run_only: Option<RunOnly>,
    result_types: [&'static str; 2],
    element_ref: bool,
    selectors: bool,
    iframes: bool,
    rules: Rules,
}

#[derive(Debug, Serialize)]
struct RunOnly {
    #[serde(rename = "type")]
    kind: &'static str,
    values: Vec<&'static str>,
}

#[derive(Debug, Serialize)]
struct Rules {
    /// Its "frames should be tested" reminder: each frame is, by the background.
    #[serde(rename = "frame-tested")]
    frame_tested: Enabled,
}

#[derive(Debug, Serialize)]
struct Enabled {
    enabled: bool,
}

/// The options of an audit of the `rules` sets (all of axe's default set when empty).
pub fn options(rules: &[RuleSet]) -> Options {
    Options {
        run_only: (!rules.is_empty()).then(|| RunOnly {
            kind: "tag",
            values: rules.iter().map(|r| r.tag()).collect(),
        }),
        result_types: ["violations", "incomplete"],
        element_ref: true,
        selectors: false,
        iframes: false,
        rules: Rules {
            frame_tested: Enabled { enabled: false },
        },
    }
}

/// Runs axe over the frame with only the `rules` sets when some are named, until `until`
/// (ms since the epoch), and lists at most `per_rule` elements of each rule.
pub async fn audit<A: Axe>(
    axe: &A,
    rules: &[RuleSet],
    per_rule: u32,
    until: u64,
) -> Result<Box<Audit>, ErrorBody> {
    if !axe.loaded() {
        return Err(
            ErrorBody::new(ErrorCode::PageError, "axe-core did not load in this frame")
                .with_hint("retry; if it persists, the page may have navigated meanwhile"),
        );
    }
    let page = axe.open()?;
    let started = axe.now_ms();
    let run = axe.start(&page, &options(rules)).map_err(|e| refused(&e))?;
    let left = until.saturating_sub(axe.now_ms() as u64) as u32;
    let results = match axe.results(run, left).await {
        Some(Ok(results)) => results,
        Some(Err(e)) => return Err(refused(&e)),
        None => return Err(ran_out(left)),
    };
    let frames = axe.child_frames(&page);
    // Violations before review: refs are handed out in the order elements are met.
    Ok(Box::new(Audit {
        url: cap(&crate::redact::redact_url(&axe.url(&page)), URL_CHARS),
        engine: axe.engine(),
        violations: findings(axe, &results, "violations", per_rule),
        review: findings(axe, &results, "incomplete", per_rule),
        frames,
        frames_audited: 1,
        not_audited: Vec::new(),
        ms: (axe.now_ms() - started).max(0.0) as u32,
    }))
}

/// The rules of one result list (`violations`, `incomplete`), each with its first `per_rule`
/// elements.
fn findings<A: Axe>(axe: &A, results: &A::Value, kind: &str, per_rule: u32) -> Vec<Finding> {
    let list = axe.list(results, kind);
    (0..axe.len(&list).min(MAX_RULES))
        .map(|i| finding(axe, &axe.item(&list, i), per_rule))
        .collect()
}

/// The tags an answer keeps: WCAG levels and success criteria, and best practice (axe also
/// tags other standards and its own categories, which only lengthen the answer).
fn kept(tag: &str) -> bool {
    tag.starts_with("wcag") || tag == "best-practice"
}

/// One rule's result, its first `per_rule` elements listed.
fn finding<A: Axe>(axe: &A, rule: &A::Value, per_rule: u32) -> Finding {
    let nodes = axe.list(rule, "nodes");
    let tags = axe.list(rule, "tags");
    let tags = (0..axe.len(&tags))
        .filter_map(|i| axe.as_text(&axe.item(&tags, i)))
        .filter(|t| kept(t))
        .take(MAX_TAGS)
        .map(|t| cap(&t, TAG_CHARS))
        .collect();
    Finding {
        rule: cap(&axe.text(rule, "id"), RULE_CHARS),
        impact: Impact::parse(&axe.text(rule, "impact")),
        tags,
        help: clean(&axe.text(rule, "help"), HELP_CHARS),
        help_url: cap(&axe.text(rule, "helpUrl"), HELP_CHARS),
        elements: (0..axe.len(&nodes).min(per_rule))
            .filter_map(|i| flagged(axe, &axe.item(&nodes, i)))
            .collect(),
        total: axe.len(&nodes),
    }
}

/// One flagged element: its ref, its markup's start (never where a password field is, in it or
/// under it: markup may hold its value), and axe's advice.
fn flagged<A: Axe>(axe: &A, node: &A::Value) -> Option<Flagged> {
    let element = axe.element(node)?;
    let html = if holds_password(axe, &element) {
        format!(
            "<{}> (holds a password field: markup not shown)",
            axe.tag(&element)
        )
    } else {
        clean(&axe.text(node, "html"), HTML_CHARS)
    };
    Some(Flagged {
        element_ref: axe.ref_for(&element),
        html,
        fix: clean(&axe.text(node, "failureSummary"), FIX_CHARS),
    })
}

/// Is `element` a password field, or one under it ([`is_password`]'s rule)? Its
/// markup may hold the value.
fn holds_password<A: Axe>(axe: &A, element: &A::Element) -> bool {
    axe.input_type(element).is_some_and(|t| is_password(&t)) || axe.holds(element, PASSWORD_FIELDS)
}

/// axe refused to run or failed: its own words (a second audit while one runs is refused).
fn refused(words: &str) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::PageError,
        format!(
            "axe-core could not audit this frame: {}",
            cap(words, REFUSAL_CHARS)
        ),
    )
    .with_hint("if an audit is still running here, retry when it ends")
}

/// axe did not finish within the `left` ms of the request's time.
fn ran_out(left: u32) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::Timeout,
        format!("the audit did not finish within {left} ms"),
    )
    .with_hint(
        "axe keeps running in the page until it ends; retry with a larger timeout, or audit a smaller page",
    )
}

#[cfg(test)]
mod tests;
