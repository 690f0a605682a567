use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;

use claudezilla_protocol::{AgentId, ErrorCode};

use super::*;
use crate::at_once::run;
use crate::page_title::Titles;
use crate::steps::Steps;
use crate::tab_wait::{Look, Shown};

/// A pool and browser whose answers are scripted, logging every step in order.
struct Fake {
    opened: Option<Opened>,
    waited_on: bool,
    /// What the page's tabs became, as Firefox reports them (none: not within the wait).
    adoptions: RefCell<VecDeque<Option<Adopted>>>,
    refuse: Option<&'static str>,
    /// The pool's refusal of one more tab.
    full: Option<&'static str>,
    window: Option<u32>,
    /// The new tab's addresses, one a look (the last repeats).
    addresses: RefCell<Vec<&'static str>>,
    clock: Cell<f64>,
    /// Shared with the new tab: one log of the whole flow.
    log: Rc<Steps>,
}

fn fake(opened: Option<Opened>) -> Fake {
    Fake {
        opened,
        waited_on: false,
        adoptions: RefCell::default(),
        refuse: None,
        full: None,
        window: Some(3),
        addresses: RefCell::default(),
        clock: Cell::new(0.0),
        log: Rc::default(),
    }
}

fn agents() -> Option<Opened> {
    Some(Opened::Agents(AgentId::new([1; 16], 100)))
}

fn clicked(new_tab: Option<NewTab>) -> Result<Clicked, ErrorBody> {
    Ok(Clicked {
        element: "a".into(),
        new_tab,
        refused: vec![],
    })
}

/// The click itself, logged when it runs, answering `answer`.
async fn clicking(log: &Steps, answer: Result<Clicked, ErrorBody>) -> Result<Clicked, ErrorBody> {
    log.say("click");
    answer
}

fn asked(url: &str) -> Option<NewTab> {
    Some(NewTab::Asked { url: url.into() })
}

impl Clicker for Fake {
    type Adoptions = ();
    type Tab = Popup;

    fn from(&self) -> TabId {
        TabId(7)
    }

    fn opened_from(&self) -> Option<Opened> {
        self.opened.clone()
    }

    fn waited_on(&self) -> bool {
        self.waited_on
    }

    fn listen(&self) {
        self.log.say("listen");
    }

    fn stop_listening(&self) {
        self.log.say("stop listening");
    }

    async fn adoption(&self, (): &mut (), ms: u32) -> Option<Adopted> {
        self.log.say(format!("adoption within {ms}"));
        self.adoptions.borrow_mut().pop_front().flatten()
    }

    fn told(&self, (): &mut ()) -> Option<Adopted> {
        self.adoptions.borrow_mut().pop_front().flatten()
    }

    fn notify(&self, text: String) {
        self.log.say(format!("note: {text}"));
    }

    fn allowed(&self, url: &str) -> Result<(), ErrorBody> {
        self.log.say(format!("allowed {url}?"));
        match self.refuse {
            Some(why) => Err(ErrorBody::new(ErrorCode::NotAllowed, why)),
            None => Ok(()),
        }
    }

    fn admit(&self) -> Result<(), ErrorBody> {
        self.log.say("admit");
        match self.full {
            Some(why) => Err(ErrorBody::new(ErrorCode::PoolFull, why)),
            None => Ok(()),
        }
    }

    async fn clicked_tab(&self) -> Result<ClickedTab, ErrorBody> {
        Ok(ClickedTab {
            window: 9,
            jar: Some("firefox-container-2".into()),
        })
    }

    fn agents_window(&self) -> Option<u32> {
        self.window
    }

    async fn open(&self, window: u32, url: &str, jar: Option<&str>) -> Result<TabId, ErrorBody> {
        self.log
            .say(format!("open {url} in window {window}, jar {jar:?}"));
        Ok(TabId(8))
    }

    fn tab(&self, tab: TabId) -> Popup {
        self.log.say(format!("tab {tab}"));
        Popup {
            addresses: RefCell::new(self.addresses.take().into()),
            clock: self.clock.get(),
            log: Rc::clone(&self.log),
        }
    }
}

/// The new tab: its addresses, one a look (the last repeats), at a clock that stands still.
struct Popup {
    addresses: RefCell<VecDeque<&'static str>>,
    clock: f64,
    log: Rc<Steps>,
}

impl Titles for Popup {
    type Update = ();

    fn update(&self) {}

    async fn shown(&self) -> Option<(String, String)> {
        None
    }

    async fn ask_page(&self, _ms: u32) -> Option<String> {
        None
    }

    async fn next(&self, (): (), _ms: u32) -> Option<String> {
        None
    }

    fn now_ms(&self) -> f64 {
        self.clock
    }
}

impl TabWatch for Popup {
    type Waiter = ();

    fn tab(&self) -> TabId {
        TabId(8)
    }

    fn watch(&self, _load: LoadWatch) {}

    async fn look(&self) -> Result<Look, ErrorBody> {
        let mut urls = self.addresses.borrow_mut();
        let url = match urls.len() {
            0 => return Err(ErrorBody::new(ErrorCode::Browser, "Invalid tab ID: 8")),
            1 => urls[0],
            _ => urls.pop_front().unwrap(),
        };
        Ok(Look {
            shown: Shown {
                url: url.into(),
                title: String::new(),
            },
            status: "complete".into(),
        })
    }

    async fn wait(&self, (): (), ms: u32) -> Waited {
        self.log.say(format!("wait {ms}"));
        Waited::Out
    }

    fn refused(&self) -> Option<ErrorBody> {
        None
    }

    fn seen(&self, _page: &Shown) {}
}

#[test]
fn a_linked_tab_opens_beside_the_agents_others_in_the_clicked_tabs_jar_and_is_named() {
    let f = fake(agents());
    f.adoptions.borrow_mut().push_back(Some(Ok(TabId(8))));
    let answer = run(click(
        &f,
        clicking(&f.log, clicked(asked("https://x/"))),
        5_000,
    ))
    .unwrap();
    assert_eq!(
        answer.new_tab,
        Some(NewTab::Opened {
            tab_id: TabId(8),
            url: "https://x/".into()
        })
    );
    assert_eq!(
        f.log.all(),
        [
            "listen",
            "click",
            "allowed https://x/?",
            "admit",
            "open https://x/ in window 3, jar Some(\"firefox-container-2\")",
            "adoption within 1000",
            "stop listening"
        ]
    );
}

#[test]
fn a_link_the_allowlist_refuses_is_not_opened_and_says_why() {
    let mut f = fake(agents());
    f.refuse = Some("x is not allowed");
    let answer = run(click(
        &f,
        clicking(&f.log, clicked(asked("https://x/"))),
        5_000,
    ))
    .unwrap();
    assert_eq!(
        answer.new_tab,
        Some(NewTab::Refused {
            url: "https://x/".into(),
            why: "x is not allowed".into()
        })
    );
    assert!(!f.log.all().iter().any(|s| s.starts_with("open")));
}

#[test]
fn a_click_on_a_users_tab_or_one_another_click_waits_on_waits_for_no_tab() {
    let f = fake(Some(Opened::Users {
        attached_by: AgentId::new([1; 16], 100),
    }));
    let popped = Some(NewTab::Popped {
        url: "https://x/p".into(),
    });
    let answer = run(click(&f, clicking(&f.log, clicked(popped.clone())), 5_000)).unwrap();
    assert_eq!(answer.new_tab, popped);
    assert_eq!(f.log.all(), ["click"]);
    let mut f = fake(agents());
    f.waited_on = true;
    run(click(&f, clicking(&f.log, clicked(popped.clone())), 5_000)).unwrap();
    assert_eq!(f.log.all(), ["click"]);
}

#[test]
fn a_blank_popup_is_named_by_where_the_page_sends_it_within_a_moment() {
    let f = fake(agents());
    f.adoptions.borrow_mut().push_back(Some(Ok(TabId(8))));
    f.addresses
        .borrow_mut()
        .extend(["about:blank", "https://login.example/"]);
    f.clock.set(4_400.0);
    let popped = clicked(Some(NewTab::Popped {
        url: "about:blank".into(),
    }));
    let answer = run(click(&f, clicking(&f.log, popped), 5_000)).unwrap();
    assert_eq!(
        answer.new_tab,
        Some(NewTab::Opened {
            tab_id: TabId(8),
            url: "https://login.example/".into()
        })
    );
    assert_eq!(
        f.log.all(),
        [
            "listen",
            "click",
            "adoption within 1000",
            "tab 8",
            // What is left of the click's time, a second at most.
            "wait 600",
            "stop listening"
        ]
    );
}

#[test]
fn tabs_the_answer_does_not_name_are_told_in_notes_and_a_refused_popup_says_why() {
    let f = fake(agents());
    f.adoptions
        .borrow_mut()
        .extend([Some(Err("the pool is full".into())), Some(Ok(TabId(9)))]);
    let popped = clicked(Some(NewTab::Popped {
        url: "https://x/p".into(),
    }));
    let answer = run(click(&f, clicking(&f.log, popped), 5_000)).unwrap();
    assert_eq!(
        answer.new_tab,
        Some(NewTab::Refused {
            url: "https://x/p".into(),
            why: "the pool is full".into()
        })
    );
    assert_eq!(
        f.log.all().last().unwrap(),
        &format!("note: {}", adopt::note(TabId(7), &Ok(TabId(9))))
    );
}

#[test]
fn a_link_past_the_agents_share_of_the_pool_is_not_opened_and_says_why() {
    let mut f = fake(agents());
    f.full = Some("the pool of 12 agent tabs is full: you hold 12");
    let answer = run(click(
        &f,
        clicking(&f.log, clicked(asked("https://x/"))),
        5_000,
    ))
    .unwrap();
    assert_eq!(
        answer.new_tab,
        Some(NewTab::Refused {
            url: "https://x/".into(),
            why: "the pool of 12 agent tabs is full: you hold 12".into()
        })
    );
    assert!(!f.log.all().iter().any(|s| s.starts_with("open")));
}

#[test]
fn a_linked_tab_opens_in_the_clicked_tabs_window_before_the_agents_have_one() {
    let mut f = fake(agents());
    f.window = None;
    run(click(
        &f,
        clicking(&f.log, clicked(asked("https://x/"))),
        5_000,
    ))
    .unwrap();
    assert!(
        f.log
            .all()
            .contains(&"open https://x/ in window 9, jar Some(\"firefox-container-2\")".to_owned())
    );
}

#[test]
fn a_failed_click_stops_listening_and_tells_the_tabs_its_page_opened_in_notes() {
    let f = fake(agents());
    f.adoptions.borrow_mut().push_back(Some(Ok(TabId(9))));
    let failed = Err(ErrorBody::new(ErrorCode::ElementNotFound, "no element e4"));
    let error = run(click(&f, clicking(&f.log, failed), 5_000)).unwrap_err();
    assert_eq!(error.message, "no element e4");
    assert_eq!(
        f.log.all(),
        [
            "listen".to_owned(),
            "click".to_owned(),
            "stop listening".to_owned(),
            format!("note: {}", adopt::note(TabId(7), &Ok(TabId(9))))
        ]
    );
}

#[test]
fn a_blank_popup_waits_three_seconds_at_most_for_where_the_page_sends_it() {
    let f = fake(agents());
    f.adoptions.borrow_mut().push_back(Some(Ok(TabId(8))));
    f.addresses.borrow_mut().push("about:blank");
    let popped = clicked(Some(NewTab::Popped {
        url: "about:blank".into(),
    }));
    let answer = run(click(&f, clicking(&f.log, popped), 60_000)).unwrap();
    assert_eq!(
        answer.new_tab,
        Some(NewTab::Opened {
            tab_id: TabId(8),
            url: "about:blank".into()
        })
    );
    assert!(f.log.all().contains(&"wait 3000".to_owned()));
}
