use std::cell::{Cell, RefCell};
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

use claudezilla_protocol::reply::TabReport;

use super::*;
use crate::at_once::run;

pub(super) const ASKED: &str = "http://x/asked";
const OWN: &str = "http://x/own";
const ELSEWHERE: &str = "http://x/elsewhere";
const BROKE: &str = "the page could not be loaded (NS_ERROR_FAILURE)";

/// A tab whose loads end as scripted: each wait and each report answers the next page of its
/// list; where the tab stands against the asked load is scripted per address, one step further
/// at each word from the network. Every call is logged, so the order is checked.
pub(super) struct Fake {
    finishes: RefCell<VecDeque<Loaded>>,
    reports: RefCell<VecDeque<Loaded>>,
    reached: HashMap<&'static str, Vec<Reached>>,
    /// How many words the network has said.
    heard: Cell<usize>,
    pub(super) go: Result<(), &'static str>,
    scriptable: Option<bool>,
    /// What is left of the call's budget.
    left: Cell<f64>,
    /// The newest mark handed out: loads are judged from it.
    marks: Cell<u64>,
    /// The tries (by their mark) whose load the browser broke before any answer.
    pub(super) broken_tries: u64,
    clock: Cell<f64>,
    /// Shared with a fake window opening the tab: one log of the whole flow.
    pub(super) log: Rc<RefCell<Vec<String>>>,
}

pub(super) fn fake(finishes: Vec<Loaded>, reached: &[(&'static str, &[Reached])]) -> Fake {
    Fake {
        finishes: RefCell::new(finishes.into()),
        reports: RefCell::default(),
        reached: reached.iter().map(|(u, r)| (*u, r.to_vec())).collect(),
        heard: Cell::new(0),
        go: Ok(()),
        scriptable: Some(true),
        left: Cell::new(10_000.0),
        marks: Cell::new(0),
        broken_tries: 0,
        clock: Cell::new(0.0),
        log: Rc::default(),
    }
}

pub(super) fn page(url: &str, load_state: LoadState) -> Loaded {
    Ok(TabReport {
        tab_id: TabId(7),
        url: url.into(),
        title: "Page".into(),
        load_state,
        waited_ms: 1,
        note: None,
        container: None,
    })
}

pub(super) fn loaded(url: &str) -> Loaded {
    page(url, LoadState::Complete)
}

impl Fake {
    pub(super) fn log(&self) -> Vec<String> {
        self.log.borrow().clone()
    }

    fn said(&self, what: impl Into<String>) {
        self.log.borrow_mut().push(what.into());
    }
}

impl Tabs for Fake {
    type Waiter = LoadWatch;

    fn tab(&self) -> TabId {
        TabId(7)
    }

    fn mark(&self) -> u64 {
        self.said("mark");
        self.marks.set(self.marks.get() + 1);
        self.marks.get()
    }

    fn watch(&self, load: LoadWatch) -> LoadWatch {
        self.said(format!("watch {load:?}"));
        load
    }

    async fn go(&self, go: Go<'_>) -> Result<(), ErrorBody> {
        self.said(format!("go {go:?}"));
        self.go
            .map_err(|words| ErrorBody::new(ErrorCode::Browser, words))
    }

    async fn finish(&self, waiter: LoadWatch) -> Loaded {
        self.said(format!("finish {waiter:?}"));
        self.finishes
            .borrow_mut()
            .pop_front()
            .expect("a scripted wait")
    }

    async fn report(&self) -> Loaded {
        self.said("report");
        self.reports
            .borrow_mut()
            .pop_front()
            .expect("a scripted report")
    }

    fn reached(&self, mark: u64, asked: Option<&str>, url: &str) -> Reached {
        assert_eq!(mark, self.marks.get(), "judged from this try's mark");
        assert_eq!(
            asked.is_some(),
            self.go_was_to(),
            "judged against what was asked"
        );
        if mark <= self.broken_tries {
            return Reached::Broke(BROKE.into());
        }
        let steps = &self.reached[url];
        steps[self.heard.get().min(steps.len() - 1)].clone()
    }

    async fn news(&self, ms: u32) -> bool {
        self.said(format!("news {ms}"));
        let more = self
            .reached
            .values()
            .any(|s| self.heard.get() + 1 < s.len());
        if more {
            self.heard.set(self.heard.get() + 1);
        }
        self.clock
            .set(self.clock.get() + if more { 1.0 } else { f64::from(ms) });
        more
    }

    async fn scriptable(&self, _ms: u32) -> Option<bool> {
        self.said("scriptable");
        self.scriptable
    }

    fn left_ms(&self) -> f64 {
        self.left.get()
    }

    fn now_ms(&self) -> f64 {
        self.clock.get()
    }
}

impl Fake {
    fn go_was_to(&self) -> bool {
        self.log.borrow().iter().any(|l| l.starts_with("go To"))
    }
}

fn navigate(tabs: &Fake, go: Go<'_>) -> Loaded {
    run(go_and_wait(tabs, go, LoadWatch::navigation()))
}

pub(super) const NAV: &str = "watch Navigation { saw_loading: false }";

#[test]
fn the_asked_pages_load_answers_at_once() {
    let tabs = fake(vec![loaded(ASKED)], &[(ASKED, &[Reached::Asked])]);
    let r = navigate(&tabs, Go::To(ASKED)).unwrap();
    assert_eq!((r.url.as_str(), r.note), (ASKED, None));
    let go = format!("go {:?}", Go::To(ASKED));
    let finish = "finish Navigation { saw_loading: false }";
    assert_eq!(tabs.log(), ["mark", NAV, &go, finish]);
}

#[test]
fn an_address_wins_over_an_action_and_one_is_needed() {
    assert_eq!(
        Go::of(Some(ASKED), Some(NavAction::Back)).unwrap(),
        Go::To(ASKED)
    );
    assert_eq!(Go::of(None, Some(NavAction::Reload)).unwrap(), Go::Reload);
    let none = Go::of(None, None).unwrap_err();
    assert_eq!(none.code, ErrorCode::InvalidArgument);
}

#[test]
fn the_browsers_refusal_to_go_is_said_in_the_agents_terms() {
    let mut tabs = fake(vec![], &[]);
    tabs.go = Err("Cannot go back");
    let e = navigate(&tabs, Go::Back).unwrap_err();
    assert_eq!(e.code, ErrorCode::PageError);
    assert!(e.message.starts_with("cannot go back"), "{}", e.message);
    assert!(
        !tabs.log().iter().any(|l| l.starts_with("finish")),
        "nothing is waited for after a refusal: {:?}",
        tabs.log()
    );
}

#[test]
fn loads_the_page_makes_of_its_own_are_waited_past() {
    let tabs = fake(
        vec![loaded(OWN), loaded(ASKED)],
        &[(OWN, &[Reached::Pending]), (ASKED, &[Reached::Asked])],
    );
    tabs.reports.borrow_mut().push_back(loaded(OWN));
    let r = navigate(&tabs, Go::To(ASKED)).unwrap();
    assert_eq!((r.url.as_str(), r.note), (ASKED, None));
    let log = tabs.log();
    // The next load is watched for before the tab is looked at, so it cannot be missed.
    assert_eq!(
        log[3..],
        [
            "finish Navigation { saw_loading: false }",
            "watch NextComplete",
            "report",
            "finish NextComplete"
        ]
    );
}

#[test]
fn ours_finished_while_the_tab_was_looked_at_is_not_waited_for_again() {
    let tabs = fake(
        vec![loaded(OWN)],
        &[(OWN, &[Reached::Pending]), (ASKED, &[Reached::Asked])],
    );
    tabs.reports.borrow_mut().push_back(loaded(ASKED));
    let r = navigate(&tabs, Go::To(ASKED)).unwrap();
    assert_eq!(r.url, ASKED);
    assert_eq!(tabs.log().last().unwrap(), "report");
}

#[test]
fn a_page_that_keeps_loading_its_own_pages_is_waited_past_a_bounded_number_of_times() {
    let mut finishes = vec![loaded(OWN)];
    finishes.extend((0..MAX_LOADS_PASSED).map(|_| loaded(OWN)));
    let tabs = fake(finishes, &[(OWN, &[Reached::Pending])]);
    tabs.reports
        .borrow_mut()
        .extend((0..MAX_LOADS_PASSED).map(|_| loaded(OWN)));
    let r = navigate(&tabs, Go::To(ASKED)).unwrap();
    let waits = tabs
        .log()
        .iter()
        .filter(|l| *l == "finish NextComplete")
        .count();
    assert_eq!(waits, MAX_LOADS_PASSED);
    assert!(r.note.unwrap().contains("keeps loading pages of its own"));
}

#[test]
fn a_navigation_the_page_replaced_is_asked_again_three_times_at_most() {
    let finishes = (0..retry_plan::NAVIGATIONS).map(|_| loaded(ELSEWHERE));
    let tabs = fake(finishes.collect(), &[(ELSEWHERE, &[Reached::Superseded])]);
    let r = navigate(&tabs, Go::To(ASKED)).unwrap();
    let goes = tabs.log().iter().filter(|l| l.starts_with("go ")).count();
    assert_eq!(goes, retry_plan::NAVIGATIONS as usize);
    assert!(
        r.note
            .unwrap()
            .contains(&format!("the tab is at {ELSEWHERE} now"))
    );
    // Back, forward and reload are not asked again: the history moved on.
    let tabs = fake(
        vec![loaded(ELSEWHERE)],
        &[(ELSEWHERE, &[Reached::Elsewhere])],
    );
    navigate(&tabs, Go::Back).unwrap();
    assert_eq!(
        tabs.log().iter().filter(|l| l.starts_with("go ")).count(),
        1
    );
}

#[test]
fn a_load_the_browser_broke_is_asked_again_and_said_when_it_keeps_breaking() {
    let goes = |tabs: &Fake| tabs.log().iter().filter(|l| l.starts_with("go ")).count();
    // Broken once, loaded at the second try: the page, and no word of the first.
    let mut tabs = fake(
        vec![loaded(ASKED), loaded(ASKED)],
        &[(ASKED, &[Reached::Asked])],
    );
    tabs.broken_tries = 1;
    let r = navigate(&tabs, Go::To(ASKED)).unwrap();
    assert_eq!((goes(&tabs), r.url.as_str(), r.note), (2, ASKED, None));
    // Broken every time: the failure, after the last try.
    let tries = retry_plan::NAVIGATIONS;
    let finishes = (0..tries).map(|_| loaded(ASKED));
    let mut tabs = fake(finishes.collect(), &[(ASKED, &[Reached::Asked])]);
    tabs.broken_tries = u64::from(tries);
    let e = navigate(&tabs, Go::To(ASKED)).unwrap_err();
    assert_eq!(goes(&tabs), tries as usize);
    assert_eq!(e.code, ErrorCode::LoadFailed);
    assert!(e.message.contains(BROKE), "{}", e.message);
    // A reload is not asked again (it may send a form once more).
    let mut tabs = fake(vec![loaded(ASKED)], &[(ASKED, &[Reached::Asked])]);
    tabs.broken_tries = 1;
    navigate(&tabs, Go::Reload).unwrap_err();
    assert_eq!(goes(&tabs), 1);
}

#[test]
fn a_late_word_that_the_load_was_replaced_asks_again() {
    // The tab's "complete" came before the network's word; the word says the page's own
    // navigation replaced ours: asked again, not reported as the page moving on.
    let tabs = fake(
        vec![loaded(ELSEWHERE), loaded(ASKED)],
        &[
            (ELSEWHERE, &[Reached::Arriving, Reached::Superseded]),
            (ASKED, &[Reached::Asked]),
        ],
    );
    let r = navigate(&tabs, Go::To(ASKED)).unwrap();
    assert_eq!((r.url.as_str(), r.note), (ASKED, None));
    assert_eq!(
        tabs.log().iter().filter(|l| l.starts_with("go ")).count(),
        2
    );
}

#[test]
fn a_wait_that_ran_out_says_what_it_waited_for_and_asks_nothing_more() {
    let tabs = fake(
        vec![page(ASKED, LoadState::Loading)],
        &[(ASKED, &[Reached::Arriving])],
    );
    let r = navigate(&tabs, Go::To(ASKED)).unwrap();
    assert_eq!(r.load_state, LoadState::Loading);
    assert!(r.note.unwrap().contains(&format!("waited for {ASKED}")));
    assert!(
        !tabs
            .log()
            .iter()
            .any(|l| l.starts_with("news") || l == "scriptable")
    );
}

#[test]
fn the_networks_late_word_on_the_load_is_waited_for() {
    let tabs = fake(
        vec![loaded(ASKED)],
        &[(
            ASKED,
            &[
                Reached::Arriving,
                Reached::Failed("connection refused".into()),
            ],
        )],
    );
    let e = navigate(&tabs, Go::To(ASKED)).unwrap_err();
    assert_eq!(e.code, ErrorCode::LoadFailed);
    assert!(e.message.contains("connection refused"), "{}", e.message);
    assert_eq!(
        tabs.log()
            .iter()
            .filter(|l| l.starts_with("news "))
            .collect::<Vec<_>>(),
        [&format!("news {}", ARRIVING_MS as u32)]
    );
}

#[test]
fn a_load_no_request_was_seen_for_is_judged_by_whether_the_page_takes_a_script() {
    let unrequested = || fake(vec![loaded(ASKED)], &[(ASKED, &[Reached::Unrequested])]);
    let tabs = unrequested();
    assert_eq!(navigate(&tabs, Go::To(ASKED)).unwrap().note, None);
    // The network's word was waited for first, a quarter of a second.
    let log = tabs.log();
    assert_eq!(
        log[log.len() - 2..],
        [
            format!("news {}", UNREQUESTED_MS as u32),
            "scriptable".into()
        ]
    );
    let mut error_page = unrequested();
    error_page.scriptable = Some(false);
    let e = navigate(&error_page, Go::To(ASKED)).unwrap_err();
    assert_eq!(e.code, ErrorCode::LoadFailed);
    let mut busy = unrequested();
    busy.scriptable = None;
    let note = navigate(&busy, Go::To(ASKED)).unwrap().note.unwrap();
    assert!(note.starts_with(&format!("no request for {ASKED} was seen")));
}

#[test]
fn the_answer_carries_the_address_capped_but_is_judged_by_the_whole() {
    let long: &'static str = format!("http://x/{}", "a".repeat(5_000)).leak();
    let tabs = fake(vec![loaded(long)], &[(long, &[Reached::Asked])]);
    let r = navigate(&tabs, Go::To(long)).unwrap();
    assert_eq!(r.note, None);
    assert!(r.url.chars().count() <= crate::text::MAX_URL_CHARS + 1);
}

#[test]
fn every_wait_ends_within_what_is_left_of_the_budget() {
    let tabs = fake(
        vec![loaded(ASKED)],
        &[(
            ASKED,
            &[Reached::Arriving, Reached::Arriving, Reached::Asked],
        )],
    );
    tabs.left.set(300.0);
    navigate(&tabs, Go::To(ASKED)).unwrap();
    // One deadline for the whole wait, not one per word from the network.
    let news: Vec<_> = tabs
        .log()
        .into_iter()
        .filter(|l| l.starts_with("news"))
        .collect();
    assert_eq!(news, ["news 300", "news 299"]);
    // A replaced navigation is not asked again once no time is left.
    let tabs = fake(
        vec![loaded(ELSEWHERE)],
        &[(ELSEWHERE, &[Reached::Superseded])],
    );
    tabs.left.set(0.0);
    navigate(&tabs, Go::To(ASKED)).unwrap();
    assert_eq!(
        tabs.log().iter().filter(|l| l.starts_with("go ")).count(),
        1
    );
}

#[test]
fn an_address_the_browser_refuses_is_a_bad_url_and_a_failed_wait_is_passed_on() {
    let mut tabs = fake(vec![], &[]);
    tabs.go = Err("Illegal URL: file:///etc/passwd");
    let e = navigate(&tabs, Go::To("file:///etc/passwd")).unwrap_err();
    assert_eq!(e.code, ErrorCode::BadUrl);
    assert!(
        e.message
            .starts_with("Firefox refused to open file:///etc/passwd")
    );
    // A wait that failed (the tab closed) is the answer: nothing more is asked.
    let closed = Err(ErrorBody::new(ErrorCode::NoSuchTab, "tab 7 was closed"));
    let tabs = fake(vec![closed], &[]);
    let e = navigate(&tabs, Go::To(ASKED)).unwrap_err();
    assert_eq!(e.code, ErrorCode::NoSuchTab);
    assert!(
        !tabs
            .log()
            .iter()
            .any(|l| l.starts_with("news") || l == "scriptable")
    );
}
