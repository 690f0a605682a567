use std::cell::{Cell, RefCell};

use super::*;
use crate::at_once::run;
use crate::steps::Steps;

/// The pool, the popup and the browser, scripted; every step logged in order.
struct Fake {
    /// What each look at the tab finds, in turn.
    looks: RefCell<Vec<Result<UserTab, ErrorBody>>>,
    private_allowed: bool,
    may_take: Result<(), ErrorBody>,
    asked: Option<u32>,
    /// What the user answers as soon as the badge shows: heard only if listened for then.
    answer: Option<bool>,
    listening: Cell<bool>,
    heard: Cell<Option<bool>>,
    log: Steps,
}

fn shop(url: &str) -> UserTab {
    UserTab {
        url: url.into(),
        title: "Cart".into(),
        complete: true,
        private: false,
    }
}

fn fake(looks: Vec<Result<UserTab, ErrorBody>>) -> Fake {
    Fake {
        looks: RefCell::new(looks),
        private_allowed: false,
        may_take: Ok(()),
        asked: Some(4),
        answer: Some(true),
        listening: Cell::new(false),
        heard: Cell::new(None),
        log: Steps::default(),
    }
}

fn twice(tab: UserTab) -> Fake {
    fake(vec![Ok(tab.clone()), Ok(tab)])
}

impl Fake {}

impl Attacher for Fake {
    async fn look(&self, tab: TabId) -> Result<UserTab, ErrorBody> {
        self.log.say(format!("look {tab}"));
        self.looks.borrow_mut().remove(0)
    }

    fn allowed(&self, url: &str) -> Result<(), ErrorBody> {
        self.log.say(format!("allowed {url}"));
        match url.contains("bank") {
            true => Err(ErrorBody::new(ErrorCode::Denied, "outside the allowlist")),
            false => Ok(()),
        }
    }

    fn private_allowed(&self) -> bool {
        self.log.say("private allowed?");
        self.private_allowed
    }

    fn may_take(&self, tab: TabId) -> Result<(), ErrorBody> {
        self.log.say(format!("may take {tab}"));
        self.may_take.clone()
    }

    fn ask(&self, tab: TabId, title: &str, origin: &str, private: bool) -> Option<u32> {
        self.log
            .say(format!("ask {tab} {title:?} {origin} private={private}"));
        self.asked
    }

    /// Listens as the browser does: from the call on, before the answer is awaited.
    fn answer(&self, request: u32, ms: u32) -> impl Future<Output = Option<bool>> {
        self.log.say(format!("listen for {request} within {ms}"));
        self.listening.set(true);
        async { self.heard.get() }
    }

    fn settle(&self, request: u32) {
        self.log.say(format!("settle {request}"));
        self.listening.set(false);
    }

    async fn show_badge(&self) {
        self.log.say("badge");
        if self.listening.get() && self.heard.get().is_none() {
            self.heard.set(self.answer);
        }
    }

    fn take(&self, tab: TabId, url: &str) -> Result<(), ErrorBody> {
        self.log.say(format!("take {tab} at {url}"));
        Ok(())
    }

    fn changed(&self) {
        self.log.say("changed");
    }

    async fn start(&self, tab: TabId, title: &str) {
        self.log.say(format!("start {tab} {title:?}"));
    }
}

/// The user's answer is listened for before the badge shows: one given as soon as it shows,
/// before the answer is awaited, is not lost.
#[test]
fn an_allowed_tab_is_taken_after_the_user_said_yes_and_it_still_shows_the_site() {
    let f = fake(vec![
        Ok(shop("https://shop.example/cart")),
        Ok(UserTab {
            complete: false,
            title: "Checkout".into(),
            ..shop("https://shop.example/checkout")
        }),
    ]);
    let report = run(attach(&f, TabId(8), 300_000)).unwrap();
    assert_eq!(report.tab_id, TabId(8));
    assert_eq!(report.url, "https://shop.example/checkout");
    assert_eq!(report.title, "Checkout");
    assert_eq!(report.load_state, LoadState::Loading);
    assert_eq!(
        f.log.all(),
        [
            "look 8",
            "allowed https://shop.example/cart",
            "may take 8",
            "ask 8 \"Cart\" https://shop.example private=false",
            "listen for 4 within 120000",
            "badge",
            "settle 4",
            "badge",
            "look 8",
            "take 8 at https://shop.example/checkout",
            "changed",
            "start 8 \"Checkout\"",
        ]
    );
}

#[test]
fn the_wait_is_the_calls_budget_when_shorter_and_its_end_says_so() {
    let f = Fake {
        answer: None,
        ..twice(shop("https://shop.example/"))
    };
    let e = run(attach(&f, TabId(8), 45_500)).unwrap_err();
    assert_eq!(e.code, ErrorCode::Denied);
    assert_eq!(e.message, "the user did not answer within 45 s");
    assert!(
        f.log
            .all()
            .contains(&"listen for 4 within 45500".to_owned())
    );
    // The request leaves the popup, and the badge says so, whatever the answer.
    assert_eq!(f.log.all()[5..], ["badge", "settle 4", "badge"]);
}

#[test]
fn a_refusal_takes_nothing() {
    let f = Fake {
        answer: Some(false),
        ..twice(shop("https://shop.example/"))
    };
    let e = run(attach(&f, TabId(8), 300_000)).unwrap_err();
    assert_eq!(e.code, ErrorCode::Denied);
    assert_eq!(e.message, "the user refused to let you drive tab 8");
    assert_eq!(
        e.hint.as_deref(),
        Some("do not ask again unless the user tells you to")
    );
    assert!(!f.log.all().iter().any(|s| s.starts_with("take")));
}

#[test]
fn a_missing_tab_is_named_with_the_browsers_words() {
    let f = fake(vec![Err(ErrorBody::new(
        ErrorCode::Browser,
        "Invalid tab ID: 8",
    ))]);
    let e = run(attach(&f, TabId(8), 300_000)).unwrap_err();
    assert_eq!(e.code, ErrorCode::NoSuchTab);
    assert_eq!(e.message, "tab 8 does not exist (Invalid tab ID: 8)");
    assert_eq!(
        e.hint.as_deref(),
        Some("firefox_list_all_tabs lists the browser's tabs")
    );
}

#[test]
fn the_user_is_not_asked_for_what_could_not_be_taken_anyway() {
    let f = twice(shop("https://bank.example/"));
    assert_eq!(
        run(attach(&f, TabId(8), 300_000)).unwrap_err().message,
        "outside the allowlist"
    );
    assert_eq!(f.log.all(), ["look 8", "allowed https://bank.example/"]);
    let f = Fake {
        may_take: Err(ErrorBody::new(ErrorCode::PoolFull, "the pool is full")),
        ..twice(shop("https://shop.example/"))
    };
    assert_eq!(
        run(attach(&f, TabId(8), 300_000)).unwrap_err().code,
        ErrorCode::PoolFull
    );
    assert_eq!(
        f.log.all(),
        ["look 8", "allowed https://shop.example/", "may take 8"]
    );
    // A private tab is refused before the pool is asked.
    let private = UserTab {
        private: true,
        ..shop("https://shop.example/")
    };
    let f = twice(private.clone());
    let e = run(attach(&f, TabId(8), 300_000)).unwrap_err();
    assert_eq!(
        e.message,
        "tab 8 is in a private window, which agents may not ask for"
    );
    assert_eq!(
        f.log.all(),
        [
            "look 8",
            "allowed https://shop.example/",
            "private allowed?"
        ]
    );
    let f = Fake {
        private_allowed: true,
        ..twice(private)
    };
    assert!(run(attach(&f, TabId(8), 300_000)).is_ok());
    assert!(
        f.log
            .all()
            .contains(&"ask 8 \"Cart\" https://shop.example private=true".into())
    );
}

#[test]
fn a_tab_asked_for_already_is_busy() {
    let f = Fake {
        asked: None,
        ..twice(shop("https://shop.example/"))
    };
    let e = run(attach(&f, TabId(8), 300_000)).unwrap_err();
    assert_eq!(e.code, ErrorCode::Busy);
    assert_eq!(
        e.message,
        "tab 8 is asked for already, or too many requests wait for the user"
    );
    assert!(!f.log.all().iter().any(|s| s == "badge"));
}

#[test]
fn a_tab_that_left_the_site_or_closed_meanwhile_is_not_taken() {
    let f = fake(vec![
        Ok(shop("https://shop.example/")),
        Ok(shop("https://evil.example/")),
    ]);
    let e = run(attach(&f, TabId(8), 300_000)).unwrap_err();
    assert_eq!(e.code, ErrorCode::Denied);
    assert!(!f.log.all().iter().any(|s| s.starts_with("take")));
    let f = fake(vec![
        Ok(shop("https://shop.example/")),
        Err(ErrorBody::new(ErrorCode::Browser, "Invalid tab ID: 8")),
    ]);
    let e = run(attach(&f, TabId(8), 300_000)).unwrap_err();
    assert_eq!(e.code, ErrorCode::NoSuchTab);
    assert_eq!(
        e.message,
        "tab 8 was closed while the user decided (Invalid tab ID: 8)"
    );
    assert_eq!(e.hint, None);
}

#[test]
fn a_users_tab_is_complete_once_loaded_and_private_in_a_private_window() {
    let tab = |status: &str, incognito: bool| -> UserTab {
        let t: Tab = serde_json::from_value(serde_json::json!({
            "id": 3, "windowId": 1, "url": "https://a.test/", "title": "A",
            "status": status, "incognito": incognito,
        }))
        .unwrap();
        UserTab::from(t)
    };
    assert_eq!(
        tab("complete", true),
        UserTab {
            url: "https://a.test/".into(),
            title: "A".into(),
            complete: true,
            private: true,
        }
    );
    let loading = tab("loading", false);
    assert!(!loading.complete && !loading.private);
}
