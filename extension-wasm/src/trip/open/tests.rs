use std::cell::{Cell, RefCell};
use std::future::{pending, ready};
use std::rc::Rc;

use claudezilla_protocol::reply::LoadState;
use futures_util::future::{self, LocalBoxFuture};

use super::*;
use crate::at_once::run;
use crate::load::Reached;
use crate::trip::tests::{ASKED, Fake, NAV, fake, loaded, page};

/// A window whose turn, creation and blank page are scripted; it shares its log with the tab
/// it opens ([`Fake`]), so the order of the whole flow is checked.
struct FakeWindow {
    turn_free: bool,
    /// How much of the budget waiting for the turn takes.
    turn_ms: f64,
    /// What is left of the call's budget.
    left: Cell<f64>,
    admit: Result<(), ErrorBody>,
    /// The tab the browser makes; none: it never makes one in time.
    creates: Option<Result<TabId, ErrorBody>>,
    blank: Loaded,
    /// The browser never answers the tab's mark.
    mark_hangs: bool,
    tab: RefCell<Option<Fake>>,
    log: Rc<RefCell<Vec<String>>>,
}

/// A turn that says when it is given back.
struct Turn(Rc<RefCell<Vec<String>>>);

impl Drop for Turn {
    fn drop(&mut self) {
        self.0.borrow_mut().push("turn given back".into());
    }
}

fn window(tab: Fake) -> FakeWindow {
    FakeWindow {
        turn_free: true,
        turn_ms: 0.0,
        left: Cell::new(5_000.0),
        admit: Ok(()),
        creates: Some(Ok(TabId(7))),
        blank: page("about:blank", LoadState::Complete),
        mark_hangs: false,
        log: tab.log.clone(),
        tab: RefCell::new(Some(tab)),
    }
}

impl FakeWindow {
    fn said(&self, what: impl Into<String>) {
        self.log.borrow_mut().push(what.into());
    }

    fn log(&self) -> Vec<String> {
        self.log.borrow().clone()
    }
}

impl Opener for FakeWindow {
    type Turn = Turn;
    type Creating = LocalBoxFuture<'static, Result<TabId, ErrorBody>>;
    type Tabs = Fake;

    fn mark(&self) -> u64 {
        self.said("window mark");
        0
    }

    fn turn(&self) -> impl Future<Output = Turn> {
        self.said("turn");
        match self.turn_free {
            // The wait's time passes as the turn is waited for, not as it is asked.
            true => future::Either::Left(future::lazy(|_| {
                self.left.set(self.left.get() - self.turn_ms);
                Turn(self.log.clone())
            })),
            false => future::Either::Right(pending()),
        }
    }

    fn admit(&self) -> Result<(), ErrorBody> {
        self.said("admit");
        self.admit.clone()
    }

    fn create(&self) -> Self::Creating {
        self.said("create");
        match self.creates.clone() {
            Some(created) => Box::pin(ready(created)),
            None => Box::pin(pending()),
        }
    }

    async fn adopt(&self, tab: TabId) {
        self.said(format!("adopt {tab}"));
        if self.mark_hangs {
            pending::<()>().await;
        }
    }

    fn abandon(&self, creating: Self::Creating, turn: Turn) {
        self.said("abandon");
        drop((creating, turn));
    }

    async fn group(&self, tab: TabId) {
        self.said(format!("group {tab}"));
    }

    async fn loaded(&self, tab: TabId, watch: LoadWatch) -> Loaded {
        self.said(format!("loaded {tab} {watch:?}"));
        self.blank.clone()
    }

    fn tabs(&self, _tab: TabId) -> Fake {
        self.tab.borrow_mut().take().expect("one tab's trip")
    }

    async fn close(&self, tab: TabId) {
        self.said(format!("close {tab}"));
    }

    fn timer(&self, ms: u32) -> impl Future<Output = ()> {
        self.said(format!("timer {ms}"));
        ready(())
    }

    fn left_ms(&self) -> f64 {
        self.left.get()
    }
}

/// The calls up to the browser's making of the tab, the whole budget left at each timer.
const UP_TO_CREATE: [&str; 6] = [
    "window mark",
    "turn",
    "timer 5000",
    "admit",
    "timer 5000",
    "create",
];

fn asked_loads() -> Fake {
    fake(vec![loaded(ASKED)], &[(ASKED, &[Reached::Asked])])
}

#[test]
fn a_tab_is_made_in_a_turn_given_back_before_its_page_loads() {
    let window = window(asked_loads());
    let r = run(open(&window, ASKED)).unwrap();
    assert_eq!((r.url.as_str(), r.note), (ASKED, None));
    let go = format!("go {:?}", Go::To(ASKED));
    let log = window.log();
    assert_eq!(log[..6], UP_TO_CREATE);
    assert_eq!(
        log[6..],
        [
            "timer 2000",
            "adopt 7",
            "turn given back",
            "group 7",
            "loaded 7 NewBlank",
            "mark",
            NAV,
            &go,
            "finish Navigation { saw_loading: false }",
        ]
    );
}

#[test]
fn a_mark_the_browser_never_answers_holds_the_turn_no_longer_than_its_bound() {
    let mut window = window(asked_loads());
    window.mark_hangs = true;
    let r = run(open(&window, ASKED)).unwrap();
    assert_eq!(r.url, ASKED);
    let log = window.log();
    assert_eq!(
        log[6..10],
        ["timer 2000", "adopt 7", "turn given back", "group 7"]
    );
}

#[test]
fn a_turn_not_had_within_the_budget_opens_nothing() {
    let mut window = window(asked_loads());
    window.turn_free = false;
    let e = run(open(&window, ASKED)).unwrap_err();
    assert_eq!(e.code, ErrorCode::Timeout);
    assert!(e.message.starts_with("no tab was opened"), "{}", e.message);
    assert_eq!(window.log(), ["window mark", "turn", "timer 5000"]);
}

#[test]
fn a_tab_made_too_late_is_abandoned_with_the_turn_and_never_taken_in() {
    let mut window = window(asked_loads());
    window.creates = None;
    let e = run(open(&window, ASKED)).unwrap_err();
    assert_eq!(e.code, ErrorCode::Timeout);
    assert!(e.message.contains("closed when it comes"), "{}", e.message);
    let log = window.log();
    assert_eq!(log[..6], UP_TO_CREATE);
    assert_eq!(log[6..], ["abandon", "turn given back"]);
}

#[test]
fn a_full_pool_or_a_refused_creation_opens_nothing() {
    let mut full = window(asked_loads());
    full.admit = Err(ErrorBody::new(ErrorCode::PoolFull, "full"));
    assert_eq!(
        run(open(&full, ASKED)).unwrap_err().code,
        ErrorCode::PoolFull
    );
    assert_eq!(
        full.log(),
        [
            "window mark",
            "turn",
            "timer 5000",
            "admit",
            "turn given back"
        ]
    );
    let mut refused = window(asked_loads());
    refused.creates = Some(Err(ErrorBody::new(ErrorCode::Browser, "no")));
    assert_eq!(
        run(open(&refused, ASKED)).unwrap_err().code,
        ErrorCode::Browser
    );
    assert!(!refused.log().iter().any(|l| l.starts_with("adopt")));
}

#[test]
fn a_refused_address_closes_the_tab_and_a_failed_load_keeps_it() {
    let mut refused = asked_loads();
    refused.go = Err("Illegal URL: file:///etc/passwd");
    let window1 = window(refused);
    let e = run(open(&window1, "file:///etc/passwd")).unwrap_err();
    assert_eq!(e.code, ErrorCode::BadUrl);
    assert_eq!(window1.log().last().unwrap(), "close 7");
    let failed = Err(ErrorBody::new(ErrorCode::LoadFailed, "refused"));
    let window2 = window(fake(vec![failed], &[]));
    let e = run(open(&window2, ASKED)).unwrap_err();
    assert_eq!(e.code, ErrorCode::LoadFailed);
    assert!(!window2.log().iter().any(|l| l.starts_with("close")));
}

#[test]
fn a_blank_page_that_never_came_is_the_answer() {
    let mut window = window(asked_loads());
    window.blank = Err(ErrorBody::new(ErrorCode::NoSuchTab, "tab 7 was closed"));
    assert_eq!(
        run(open(&window, ASKED)).unwrap_err().code,
        ErrorCode::NoSuchTab
    );
    assert!(!window.log().iter().any(|l| l.starts_with("go ")));
}

#[test]
fn the_tab_is_made_within_what_the_turn_left_and_not_at_all_with_too_little() {
    let mut window = window(asked_loads());
    window.turn_ms = 1_000.0;
    run(open(&window, ASKED)).unwrap();
    assert_eq!(window.log()[3..6], ["admit", "timer 4000", "create"]);
    let mut late = self::window(asked_loads());
    late.turn_ms = 5_000.0 - f64::from(MIN_CREATE_MS) + 1.0;
    let e = run(open(&late, ASKED)).unwrap_err();
    assert_eq!(e.code, ErrorCode::Timeout);
    assert!(e.message.starts_with("no tab was opened"), "{}", e.message);
    assert_eq!(
        late.log(),
        ["window mark", "turn", "timer 5000", "turn given back"]
    );
}
