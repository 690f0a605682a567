use std::cell::RefCell;
use std::collections::HashMap;

use claudezilla_protocol::args::{ContentFormat, FrameTarget, Needle, Words};
use claudezilla_protocol::envelope::FramePlace;
use claudezilla_protocol::reply::{Query, Searched, frame_marker};
use futures_util::FutureExt;
use serde_json::{Value, json};

use super::*;
use crate::at_once::run;

const TAB: TabId = TabId(7);

/// A tab whose frames answer as scripted (by alias, in the form content scripts write); it logs
/// each call, with the limit of each read asked and the details of each script (as JSON, the
/// browser's form of them).
struct Fake {
    answers: HashMap<u32, Value>,
    /// Frame id → alias.
    aliases: HashMap<u64, u32>,
    parents: HashMap<u64, f64>,
    refused: HashMap<u64, String>,
    /// The probe's answer in each frame: axe there, or the browser's refusal; none: the
    /// browser never answers.
    axe: HashMap<u64, Option<Result<bool, ErrorBody>>>,
    /// The browser's refusal of a script into a frame, where it refuses.
    no_inject: HashMap<u64, ErrorBody>,
    now: u64,
    until: u64,
    log: RefCell<Vec<String>>,
}

fn fake() -> Fake {
    Fake {
        answers: HashMap::new(),
        aliases: HashMap::from([(0, 0), (5, 1), (9, 2)]),
        parents: HashMap::new(),
        refused: HashMap::new(),
        axe: HashMap::new(),
        no_inject: HashMap::new(),
        now: 1_000,
        until: 1_300,
        log: RefCell::default(),
    }
}

impl Fake {
    fn said(&self, what: String) {
        self.log.borrow_mut().push(what);
    }

    fn log(&self) -> Vec<String> {
        self.log.borrow().clone()
    }

    fn answering(mut self, alias: u32, answer: Value) -> Self {
        self.answers.insert(alias, answer);
        self
    }
}

impl FrameAsk for &Fake {
    fn tab(&self) -> TabId {
        TAB
    }

    fn until(&self) -> u64 {
        self.until
    }

    fn now(&self) -> u64 {
        self.now
    }

    async fn ask<T: DeserializeOwned>(&self, alias: u32, mut op: PageOp) -> Result<T, ErrorBody> {
        let asked = match &op {
            PageOp::Locate { target } => format!("{target:?}"),
            _ => format!("{:?}", op.frame_limit_mut().copied()),
        };
        self.said(format!("ask {alias} {asked}"));
        let answer = self.answers.get(&alias).cloned().expect("a frame asked");
        Ok(serde_json::from_value(answer).expect("the answer's kind"))
    }

    fn alias(&self, frame: u64) -> u32 {
        self.said(format!("alias of {frame}"));
        self.aliases[&frame]
    }

    fn frame_id(&self, alias: u32) -> Result<u64, ErrorBody> {
        self.said(format!("frame of {alias}"));
        self.aliases
            .iter()
            .find(|(_, a)| **a == alias)
            .map(|(f, _)| *f)
            .ok_or_else(|| ErrorBody::new(ErrorCode::ElementNotFound, "no such frame"))
    }

    fn refused(&self, frame: u64) -> Option<String> {
        self.refused.get(&frame).cloned()
    }

    async fn parent_id(&self, frame: u64) -> Result<f64, ErrorBody> {
        self.said(format!("parent of {frame}"));
        Ok(self.parents.get(&frame).copied().unwrap_or(-1.0))
    }

    async fn probe(&self, probe: &Probe) -> Result<bool, ErrorBody> {
        self.said(format!("probe {}", serde_json::to_string(probe).unwrap()));
        match self
            .axe
            .get(&probe.frame_id)
            .cloned()
            .unwrap_or(Some(Ok(false)))
        {
            Some(answer) => answer,
            None => std::future::pending().await,
        }
    }

    async fn inject(&self, inject: &Inject) -> Result<(), ErrorBody> {
        self.said(format!("inject {}", serde_json::to_string(inject).unwrap()));
        match inject.frame_id.and_then(|f| self.no_inject.get(&f)) {
            Some(refusal) => Err(refusal.clone()),
            None => Ok(()),
        }
    }

    /// The deadline passes at once for work the browser never finishes.
    async fn within<T>(&self, ms: u32, work: impl Future<Output = T>) -> Option<T> {
        self.said(format!("within {ms}"));
        work.now_or_never()
    }
}

fn searched() -> Searched {
    Searched {
        chars: 10,
        frames: 1,
        ms: 1,
        stopped: None,
    }
}

fn found(frames: Vec<u64>) -> Value {
    found_n(0, frames)
}

/// `n` matches found in a frame that holds `frames`.
fn found_n(n: u32, frames: Vec<u64>) -> Value {
    let matches: Vec<_> = (1..=n)
        .map(|i| json!({"ref": format!("e{i}"), "role": "text", "name": "", "context": "«x»"}))
        .collect();
    json!({"kind": "found", "matches": matches, "total": n, "frames": frames,
        "searched": searched()})
}

fn find_op(limit: u32) -> PageOp {
    PageOp::Find {
        needle: Needle::Words(Words::Text("x".into())),
        limit,
    }
}

fn audited(frames: Vec<u64>) -> Value {
    json!({"kind": "audit", "url": "https://a.test/", "engine": "4", "violations": [],
        "review": [], "frames": frames, "framesAudited": 1, "notAudited": [], "ms": 1})
}

fn audit_op() -> PageOp {
    PageOp::Audit {
        rules: Vec::new(),
        per_rule: 5,
    }
}

fn located(css: &str) -> Value {
    let pick = Pick {
        scope: None,
        query: Query::Css(css.into()),
        nth: None,
        matches: 1,
    };
    json!({"kind": "located", "frames": [], "element": pick})
}

fn locate_op() -> PageOp {
    PageOp::Locate {
        target: Locatable::Element(FrameTarget::Ref(3)),
    }
}

fn probe_in(frame: u64) -> String {
    format!(
        r#"probe {{"code":"typeof axe === 'object' && typeof axe.run === 'function'","frameId":{frame}}}"#
    )
}

fn axe_into(frame: u64) -> String {
    format!(r#"inject {{"file":"/wasm/axe.min.js","frameId":{frame},"allFrames":false}}"#)
}

// --- the requests ---

#[test]
fn the_content_script_goes_into_one_frame_or_every_frame() {
    assert_eq!(
        serde_json::to_string(&Inject::content(Some(3))).unwrap(),
        r#"{"file":"/wasm/content-bundle.js","frameId":3,"allFrames":false}"#
    );
    assert_eq!(
        serde_json::to_string(&Inject::content(None)).unwrap(),
        r#"{"file":"/wasm/content-bundle.js","allFrames":true}"#
    );
}

#[test]
fn a_frame_is_asked_within_its_share_and_never_more_than_the_agent_asked() {
    let f = fake();
    let frames = TabFrames {
        f: &f,
        op: find_op(20),
    };
    let mut within = frames.within(8);
    assert_eq!(within.frame_limit_mut().copied(), Some(8));
    let mut within = frames.within(500);
    assert_eq!(within.frame_limit_mut().copied(), Some(20));
    // An operation without a limit is asked as it is.
    let frames = TabFrames {
        f: &f,
        op: audit_op(),
    };
    assert_eq!(frames.within(3), audit_op());
}

// --- the reads ---

#[test]
fn the_top_frame_is_asked_as_the_agent_asked_then_each_frame_by_its_alias() {
    let f = fake()
        .answering(0, found(vec![5]))
        .answering(1, found(vec![]));
    let found = run(find(&f, find_op(20), 20)).unwrap();
    assert_eq!(found.searched.frames, 2);
    assert_eq!(f.log(), ["ask 0 Some(20)", "alias of 5", "ask 1 Some(20)"]);
}

#[test]
fn a_frame_searched_is_asked_for_what_the_top_frames_matches_left() {
    let f = fake()
        .answering(0, found_n(3, vec![5]))
        .answering(1, found(vec![]));
    let found = run(find(&f, find_op(20), 20)).unwrap();
    assert_eq!(found.total, 3);
    assert_eq!(f.log(), ["ask 0 Some(20)", "alias of 5", "ask 1 Some(17)"]);
}

#[test]
fn a_frames_page_text_is_asked_within_what_the_top_frames_left() {
    let top_text = format!("top line\n{}", frame_marker(0));
    let top = json!({"kind": "content", "url": "https://a.test/", "title": "A", "text": top_text,
        "totalLength": 10, "truncated": false, "frames": [5]});
    let child = json!({"kind": "content", "url": "https://a.test/f", "title": "F", "text": "child",
        "totalLength": 5, "truncated": false});
    let f = fake().answering(0, top).answering(1, child);
    let page = run(content(&f, content_op(1_000), 1_000)).unwrap();
    assert!(page.text.contains("child"), "{}", page.text);
    let share = 1_000 - top_text.chars().count();
    assert_eq!(
        f.log(),
        [
            "ask 0 Some(1000)".into(),
            "alias of 5".into(),
            format!("ask 1 Some({share})")
        ]
    );
}

fn content_op(max_length: u32) -> PageOp {
    PageOp::GetContent {
        selector: None,
        max_length,
        format: ContentFormat::Text,
    }
}

#[test]
fn the_snapshot_top_part_comes_first_then_its_frames_within_what_is_left() {
    let top = json!({"text": "top line\n", "refs": 0, "cut": null,
        "frames": [FramePlace { frame: 5, offset: 9, indent: 2 }]});
    let child = json!({"text": "child\n", "refs": 0, "cut": null, "frames": []});
    let f = fake().answering(0, top).answering(1, child);
    let snapshot = run(snapshot(&f, snapshot_op(1_000), 1_000)).unwrap();
    assert!(snapshot.text.contains("child"), "{}", snapshot.text);
    let log = f.log();
    assert_eq!(log[..2], ["ask 0 Some(1000)", "alias of 5"]);
    let Some(share) = log[2].strip_prefix("ask 1 Some(") else {
        panic!("{log:?}");
    };
    let share: u32 = share.trim_end_matches(')').parse().unwrap();
    assert_eq!(share, 1_000 - "top line\n".len() as u32, "{log:?}");
}

fn snapshot_op(max_chars: u32) -> PageOp {
    PageOp::Snapshot {
        selector: None,
        interactive_only: false,
        max_chars,
        max_depth: None,
        max_nodes: None,
    }
}

#[test]
fn an_answer_of_another_kind_is_a_bug_said() {
    let f = fake().answering(0, found(vec![]));
    let e = run(content(&f, find_op(20), 20)).unwrap_err();
    assert_eq!(e.code, ErrorCode::Internal);
    assert!(
        e.message.starts_with("unexpected answer Found("),
        "{}",
        e.message
    );
}

// --- the audit ---

#[test]
fn each_audited_frame_is_given_axe_before_it_is_asked() {
    let f = fake()
        .answering(0, audited(vec![5]))
        .answering(1, audited(vec![]));
    let audit = run(audit(&f, audit_op(), 5)).unwrap();
    assert_eq!(audit.frames_audited, 2);
    assert_eq!(
        f.log(),
        [
            "within 300".into(),
            probe_in(0),
            axe_into(0),
            "ask 0 None".into(),
            "within 300".into(),
            probe_in(5),
            axe_into(5),
            "alias of 5".into(),
            "ask 1 None".into(),
        ]
    );
}

#[test]
fn a_frame_that_has_axe_is_not_given_it_again() {
    let mut f = fake().answering(0, audited(vec![]));
    f.axe.insert(0, Some(Ok(true)));
    run(audit(&f, audit_op(), 5)).unwrap();
    assert!(
        !f.log().iter().any(|l| l.starts_with("inject")),
        "{:?}",
        f.log()
    );
}

#[test]
fn a_frame_the_allowlist_refused_is_given_no_axe() {
    let mut f = fake().answering(0, audited(vec![5]));
    f.refused.insert(5, "not in the allowlist".into());
    let audit = run(audit(&f, audit_op(), 5)).unwrap();
    assert!(
        !f.log().iter().any(|l| l.contains("\"frameId\":5")),
        "{:?}",
        f.log()
    );
    assert_eq!(audit.not_audited, ["1 frame(s): not in the allowlist"]);
}

#[test]
fn a_page_that_takes_no_script_refuses_the_audit_in_the_agents_words() {
    let mut f = fake();
    f.axe.insert(
        0,
        Some(Err(ErrorBody::new(
            ErrorCode::Browser,
            "Missing host permission for the tab",
        ))),
    );
    let e = run(audit(&f, audit_op(), 5)).unwrap_err();
    assert_eq!(e.code, ErrorCode::PageError);
    assert_eq!(
        e.message,
        "the page in tab 7 cannot be scripted (Missing host permission for the tab)"
    );
    assert!(!f.log().iter().any(|l| l.starts_with("ask")));
}

#[test]
fn a_page_that_refuses_axe_refuses_the_audit_in_the_agents_words() {
    let mut f = fake();
    f.no_inject.insert(
        0,
        ErrorBody::new(ErrorCode::Browser, "Missing host permission for the tab"),
    );
    let e = run(audit(&f, audit_op(), 5)).unwrap_err();
    assert_eq!(e.code, ErrorCode::PageError);
    assert_eq!(
        e.message,
        "the page in tab 7 cannot be scripted (Missing host permission for the tab)"
    );
    assert_eq!(f.log(), ["within 300".into(), probe_in(0), axe_into(0)]);
}

#[test]
fn a_frame_that_never_takes_axe_ends_the_audit_by_its_deadline() {
    let mut f = fake();
    f.axe.insert(0, None);
    let e = run(audit(&f, audit_op(), 5)).unwrap_err();
    assert_eq!(e, retry_plan::no_answer(TAB, 300));
    assert_eq!(f.log()[0], "within 300");
}

#[test]
fn a_frame_refusing_axe_is_left_out_unasked() {
    let mut f = fake().answering(0, audited(vec![5]));
    f.axe.insert(
        5,
        Some(Err(ErrorBody::new(ErrorCode::Browser, "Frame not found"))),
    );
    let audit = run(audit(&f, audit_op(), 5)).unwrap();
    assert!(
        !f.log().contains(&"ask 1 None".to_string()),
        "{:?}",
        f.log()
    );
    assert_eq!(audit.not_audited, ["1 frame(s): tab 7: Frame not found"]);
}

// --- the locator ---

#[test]
fn a_locator_names_the_element_then_each_frame_up_from_its_own() {
    let mut f = fake()
        .answering(2, located("button"))
        .answering(1, located("iframe#inner"))
        .answering(0, located("iframe#outer"));
    f.parents = HashMap::from([(9, 5.0), (5, 0.0)]);
    let locator = run(locate(&f, 2, locate_op())).unwrap();
    assert_eq!(locator.element.query, Query::Css("button".into()));
    let frames: Vec<_> = locator.frames.iter().map(|p| p.query.clone()).collect();
    assert_eq!(
        frames,
        [
            Query::Css("iframe#outer".into()),
            Query::Css("iframe#inner".into())
        ]
    );
    assert_eq!(
        f.log(),
        [
            format!("ask 2 {:?}", locate_target()),
            "frame of 2".into(),
            "parent of 9".into(),
            "alias of 5".into(),
            "ask 1 Frame(9)".into(),
            "parent of 5".into(),
            // The top frame is asked by its own alias.
            "ask 0 Frame(5)".into(),
        ]
    );
}

fn locate_target() -> Locatable {
    match locate_op() {
        PageOp::Locate { target } => target,
        _ => unreachable!(),
    }
}

#[test]
fn a_frame_gone_meanwhile_is_said() {
    let f = fake().answering(2, located("button"));
    let e = run(locate(&f, 2, locate_op())).unwrap_err();
    assert_eq!(e.code, ErrorCode::ElementNotFound);
    assert_eq!(e.message, "tab 7: the frame is gone");
    assert_eq!(e.hint.as_deref(), Some("call firefox_snapshot again"));
}

#[test]
fn an_element_in_the_top_frame_has_no_frames_around_it() {
    let f = fake().answering(0, located("button"));
    let locator = run(locate(&f, 0, locate_op())).unwrap();
    assert!(locator.frames.is_empty());
    assert_eq!(f.log()[1..], ["frame of 0"]);
}
