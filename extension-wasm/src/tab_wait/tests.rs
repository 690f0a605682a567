use std::cell::{Cell, RefCell};
use std::collections::VecDeque;

use super::*;
use crate::at_once::run;
use crate::steps::Steps;

const URL: &str = "http://127.0.0.1:8000/page.html";
const PLACEHOLDER: &str = "127.0.0.1:8000/page.html";
const BUDGET: Budget = Budget {
    started: 0.0,
    ms: 10_000,
};

/// A tab whose looks and waits answer as scripted, in order (the last look repeats); a wait
/// that hears takes 100 ms of the clock, one that runs out all it was given. Every call is
/// logged.
struct Fake {
    looks: RefCell<VecDeque<Result<Look, ErrorBody>>>,
    waits: RefCell<VecDeque<Waited>>,
    refused: RefCell<Option<ErrorBody>>,
    /// The page's own `document.title`.
    page_title: Option<&'static str>,
    clock: Cell<f64>,
    log: Steps,
}

fn look(url: &str, title: &str, status: &str) -> Result<Look, ErrorBody> {
    Ok(Look {
        shown: shown(url, title),
        status: status.into(),
    })
}

fn shown(url: &str, title: &str) -> Shown {
    Shown {
        url: url.into(),
        title: title.into(),
    }
}

fn heard(page: Option<Shown>) -> Waited {
    Waited::Heard(Heard { at: 40.0, page })
}

fn fake(looks: Vec<Result<Look, ErrorBody>>, waits: Vec<Waited>) -> Fake {
    Fake {
        looks: RefCell::new(looks.into()),
        waits: RefCell::new(waits.into()),
        refused: RefCell::default(),
        page_title: None,
        clock: Cell::new(2_500.0),
        log: Steps::default(),
    }
}

impl Titles for Fake {
    type Update = ();

    fn update(&self) {
        self.log.say("title update");
    }

    async fn shown(&self) -> Option<(String, String)> {
        let now = self.look().await.ok()?.shown;
        Some((now.title, now.url))
    }

    async fn ask_page(&self, _ms: u32) -> Option<String> {
        self.log.say("ask the page");
        self.page_title.map(str::to_owned)
    }

    async fn next(&self, (): (), _ms: u32) -> Option<String> {
        None
    }

    fn now_ms(&self) -> f64 {
        self.clock.get()
    }
}

impl TabWatch for Fake {
    type Waiter = LoadWatch;

    fn tab(&self) -> TabId {
        TabId(7)
    }

    fn watch(&self, load: LoadWatch) -> LoadWatch {
        self.log.say(format!("watch {load:?}"));
        load
    }

    async fn look(&self) -> Result<Look, ErrorBody> {
        self.log.say("look");
        let mut looks = self.looks.borrow_mut();
        match looks.len() {
            1 => looks[0].clone(),
            _ => looks.pop_front().expect("a look scripted"),
        }
    }

    async fn wait(&self, waiter: LoadWatch, ms: u32) -> Waited {
        self.log.say(format!("wait {waiter:?} {ms}"));
        let waited = self
            .waits
            .borrow_mut()
            .pop_front()
            .expect("a wait scripted");
        let took = match waited {
            Waited::Out => f64::from(ms),
            Waited::Heard(_) | Waited::Closed => 100.0,
        };
        self.clock.set(self.clock.get() + took);
        waited
    }

    fn refused(&self) -> Option<ErrorBody> {
        self.refused.borrow_mut().take()
    }

    fn seen(&self, page: &Shown) {
        self.log.say(format!("seen {} {:?}", page.url, page.title));
    }
}

#[test]
fn a_load_finished_before_its_waiter_existed_is_seen_by_a_look() {
    let t = fake(vec![look(URL, "Page", "complete")], vec![]);
    let report = run(loaded(&t, LoadWatch::NewBlank, 0.0, BUDGET)).unwrap();
    assert_eq!(
        t.log.all(),
        [
            "watch NewBlank",
            "look",
            "look",
            "seen http://127.0.0.1:8000/page.html \"Page\""
        ]
    );
    assert_eq!(report.load_state, LoadState::Complete);
    assert_eq!(report.waited_ms, 2_500);
}

#[test]
fn a_load_heard_is_reported_as_its_event_showed_it_within_what_is_left_of_the_budget() {
    let t = fake(
        vec![look(URL, "Old", "loading")],
        vec![heard(Some(shown(URL, "New")))],
    );
    let report = run(loaded(&t, LoadWatch::navigation(), 0.0, BUDGET)).unwrap();
    assert_eq!(
        t.log.all()[2..],
        [
            "wait Navigation { saw_loading: false } 7500",
            "seen http://127.0.0.1:8000/page.html \"New\""
        ]
    );
    assert_eq!((report.title.as_str(), report.waited_ms), ("New", 2_600));
}

#[test]
fn a_refusal_heard_meanwhile_wins_over_the_loads_end() {
    let t = fake(vec![look(URL, "Page", "complete")], vec![heard(None)]);
    *t.refused.borrow_mut() = Some(ErrorBody::new(ErrorCode::NotAllowed, "not allowed"));
    let refused = run(finish(&t, LoadWatch::NextComplete, 0.0, BUDGET)).unwrap_err();
    assert_eq!(refused.message, "not allowed");
    assert_eq!(t.log.all(), ["wait NextComplete 7500"]);
    for waited in [Waited::Out, Waited::Closed] {
        let t = fake(vec![look(URL, "Page", "loading")], vec![waited]);
        *t.refused.borrow_mut() = Some(ErrorBody::new(ErrorCode::NotAllowed, "not allowed"));
        let refused = run(finish(&t, LoadWatch::NextComplete, 0.0, BUDGET)).unwrap_err();
        assert_eq!(
            (refused.code, refused.message.as_str()),
            (ErrorCode::NotAllowed, "not allowed")
        );
        assert_eq!(t.log.all(), ["wait NextComplete 7500"]);
    }
}

#[test]
fn a_tab_closed_while_loading_is_said_and_one_still_loading_when_time_ran_out_is_reported_so() {
    let t = fake(vec![look(URL, "Page", "loading")], vec![Waited::Closed]);
    let closed = run(finish(&t, LoadWatch::NextComplete, 0.0, BUDGET)).unwrap_err();
    assert_eq!(closed.code, ErrorCode::NoSuchTab);
    assert_eq!(closed.message, "tab 7 was closed while loading");
    let t = fake(vec![look(URL, "Page", "loading")], vec![Waited::Out]);
    let report = run(finish(&t, LoadWatch::NextComplete, 0.0, BUDGET)).unwrap();
    assert_eq!(report.load_state, LoadState::Loading);
    assert_eq!(report.waited_ms, 10_000);
}

#[test]
fn a_tab_gone_when_looked_at_says_so_with_the_browsers_words() {
    let t = fake(
        vec![Err(ErrorBody::new(ErrorCode::Browser, "Invalid tab ID: 7"))],
        vec![],
    );
    let gone = run(loaded(&t, LoadWatch::navigation(), 0.0, BUDGET)).unwrap_err();
    assert_eq!(gone.code, ErrorCode::NoSuchTab);
    assert_eq!(gone.message, "tab 7 is gone (Invalid tab ID: 7)");
    assert_eq!(
        gone.hint.as_deref(),
        Some("firefox_get_tabs lists your open tabs")
    );
}

#[test]
fn only_a_complete_load_under_a_placeholder_title_asks_the_page_for_its_own() {
    let mut t = fake(vec![look(URL, PLACEHOLDER, "complete")], vec![]);
    t.page_title = Some("Own title");
    let report = run(report(&t, LoadState::Complete, None, 0.0)).unwrap();
    assert_eq!(report.title, "Own title");
    assert!(t.log.all().contains(&"ask the page".to_owned()));
    let loading = run(super::report(&t, LoadState::Loading, None, 0.0)).unwrap();
    assert_eq!(loading.title, PLACEHOLDER);
    assert_eq!(
        t.log.all().last().unwrap(),
        "seen http://127.0.0.1:8000/page.html \"127.0.0.1:8000/page.html\""
    );
}

#[test]
fn a_url_wait_looks_again_at_each_change_until_the_glob_matches() {
    let t = fake(
        vec![
            look("http://x/a", "A", "complete"),
            look("http://x/done/1", "B", "complete"),
        ],
        vec![heard(None)],
    );
    let waited = run(url_matches(&t, "http://x/done/*", 5_000)).unwrap();
    assert_eq!(
        waited.what,
        "the URL http://x/done/1 matches \"http://x/done/*\""
    );
    assert_eq!(waited.waited_ms, 100);
    assert_eq!(
        t.log.all(),
        [
            "watch UrlChange",
            "look",
            "wait UrlChange 2500",
            "watch UrlChange",
            "look"
        ]
    );
}

#[test]
fn a_url_wait_past_its_time_or_on_a_closed_tab_says_which() {
    let t = fake(vec![look("http://x/a", "A", "complete")], vec![Waited::Out]);
    let late = run(url_matches(&t, "http://x/b", 3_000)).unwrap_err();
    assert_eq!(late.code, ErrorCode::Timeout);
    assert_eq!(
        late.message,
        "the URL is still http://x/a after 500 ms, not \"http://x/b\""
    );
    assert_eq!(
        late.hint.as_deref(),
        Some(
            "* matches within one path part, ** anything; pass a larger timeout if the page is slow"
        )
    );
    let t = fake(
        vec![look("http://x/a", "A", "complete")],
        vec![Waited::Closed],
    );
    let closed = run(url_matches(&t, "http://x/b", 3_000)).unwrap_err();
    assert_eq!(closed.message, "tab 7 was closed while waiting for its URL");
}
