use std::cell::Cell;
use std::rc::Rc;

use claudezilla_protocol::ErrorCode;

use super::*;
use crate::at_once::run;
use crate::steps::Steps;

/// A tab whose place and browser answers are scripted; a reload takes `reload_ms` of the
/// clock. Every step is logged, the turn's end too.
struct Fake {
    place: Result<(u32, TabPlace), ErrorBody>,
    earlier: Option<u32>,
    /// The browser refuses to activate this tab (0: the measured one).
    refuses: Option<u32>,
    /// The reload's error.
    reload_fails: Option<ErrorBody>,
    reload_ms: f64,
    clock: Cell<f64>,
    /// Shared with the turn, which logs its end.
    log: Rc<Steps>,
}

/// A turn at showing a tab, held until dropped.
struct Turn(Rc<Steps>);

impl Drop for Turn {
    fn drop(&mut self) {
        self.0.say("turn over");
    }
}

fn place(active: bool, attached: bool, in_agents_window: bool) -> (u32, TabPlace) {
    (
        2,
        TabPlace {
            active,
            attached,
            in_agents_window,
        },
    )
}

fn fake(place: (u32, TabPlace)) -> Fake {
    Fake {
        place: Ok(place),
        earlier: Some(5),
        refuses: None,
        reload_fails: None,
        reload_ms: 100.0,
        clock: Cell::new(0.0),
        log: Rc::default(),
    }
}

impl Stage for Fake {
    type Turn = Turn;

    async fn turn(&self) -> Turn {
        self.log.say("turn");
        Turn(Rc::clone(&self.log))
    }

    async fn place(&self) -> Result<(u32, TabPlace), ErrorBody> {
        self.log.say("place");
        self.place.clone()
    }

    async fn active_in(&self, window: u32) -> Option<u32> {
        self.log.say(format!("active in {window}"));
        self.earlier
    }

    async fn show(&self) -> Result<(), ErrorBody> {
        self.log.say("show");
        self.answer(0)
    }

    async fn activate(&self, tab: u32) -> Result<(), ErrorBody> {
        self.log.say(format!("activate {tab}"));
        self.answer(tab)
    }

    async fn reload(&self, budget_ms: u32) -> Result<(), ErrorBody> {
        self.log.say(format!("reload within {budget_ms}"));
        self.clock.set(self.clock.get() + self.reload_ms);
        self.reload_fails.clone().map_or(Ok(()), Err)
    }

    async fn read(&self, budget_ms: u32) -> Result<Box<PagePerformance>, ErrorBody> {
        self.log.say(format!("read within {budget_ms}"));
        Ok(Box::default())
    }

    fn now_ms(&self) -> f64 {
        self.clock.get()
    }
}

impl Fake {
    /// The browser's answer to activating `tab` (0: the measured one).
    fn answer(&self, tab: u32) -> Result<(), ErrorBody> {
        match self.refuses == Some(tab) {
            true => Err(ErrorBody::new(ErrorCode::Browser, "Invalid tab ID")),
            false => Ok(()),
        }
    }
}

#[test]
fn without_a_reload_the_page_is_read_as_it_is() {
    let f = fake(place(false, false, true));
    let report = run(measure(&f, false, 8_000)).unwrap();
    assert_eq!(report.showing, Showing::NotAsked);
    assert_eq!(f.log.all(), ["read within 8000"]);
}

#[test]
fn a_fresh_load_shows_the_tab_in_a_turn_then_gives_the_earlier_one_back() {
    let f = fake(place(false, false, true));
    let report = run(measure(&f, true, 8_000)).unwrap();
    assert_eq!(report.showing, Showing::Shown { restored: Some(5) });
    assert_eq!(
        f.log.all(),
        [
            "turn",
            "place",
            "active in 2",
            "show",
            "reload within 8000",
            "read within 7900",
            "activate 5",
            "turn over"
        ]
    );
}

#[test]
fn the_read_keeps_a_second_however_long_the_load_took() {
    let mut f = fake(place(true, false, true));
    f.reload_ms = 7_800.0;
    let report = run(measure(&f, true, 8_000)).unwrap();
    assert_eq!(report.showing, Showing::AlreadyShown);
    assert_eq!(
        f.log.all()[2..4],
        ["reload within 8000", "read within 1000"]
    );
}

#[test]
fn a_tab_not_shown_says_why_and_is_still_measured() {
    let f = fake(place(false, true, false));
    let report = run(measure(&f, true, 8_000)).unwrap();
    assert_eq!(
        report.showing,
        Showing::NotShown {
            why: "it is the user's tab (attached), and the user's windows are not switched under them".into()
        }
    );
    assert_eq!(
        f.log.all(),
        [
            "turn",
            "place",
            "reload within 8000",
            "read within 7900",
            "turn over"
        ]
    );
    let mut f = fake(place(false, false, true));
    f.place = Err(ErrorBody::new(ErrorCode::Browser, "Invalid tab ID: 7"));
    let report = run(measure(&f, true, 8_000)).unwrap();
    assert_eq!(
        report.showing,
        Showing::NotShown {
            why: "Firefox did not say where it is: Invalid tab ID: 7".into()
        }
    );
    let mut f = fake(place(false, false, true));
    f.refuses = Some(0);
    let report = run(measure(&f, true, 8_000)).unwrap();
    assert_eq!(
        report.showing,
        Showing::NotShown {
            why: "Firefox refused to make it the active tab: Invalid tab ID".into()
        }
    );
    // Measured all the same, and no earlier tab to give back.
    assert_eq!(
        f.log.all(),
        [
            "turn",
            "place",
            "active in 2",
            "show",
            "reload within 8000",
            "read within 7900",
            "turn over"
        ]
    );
}

#[test]
fn an_earlier_tab_gone_meanwhile_is_not_said_restored() {
    let mut f = fake(place(false, false, true));
    f.refuses = Some(5);
    let report = run(measure(&f, true, 8_000)).unwrap();
    assert_eq!(report.showing, Showing::Shown { restored: None });
}

#[test]
fn a_failed_reload_still_gives_the_earlier_tab_back_within_the_turn_and_is_answered() {
    let mut f = fake(place(false, false, true));
    f.reload_fails = Some(ErrorBody::new(
        ErrorCode::Timeout,
        "the reload took too long",
    ));
    let failed = run(measure(&f, true, 8_000)).unwrap_err();
    assert_eq!(failed.message, "the reload took too long");
    assert_eq!(
        f.log.all()[4..],
        ["reload within 8000", "activate 5", "turn over"]
    );
}
