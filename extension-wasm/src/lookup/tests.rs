use std::cell::Cell;

use super::*;
use crate::at_once::run;

/// A page whose clock starts at 1,000 ms and whose every change comes `step` ms later.
struct Page {
    clock: Cell<f64>,
    step: f64,
    changes: Cell<u32>,
}

fn page(step: f64) -> Page {
    Page {
        clock: Cell::new(1_000.0),
        step,
        changes: Cell::new(0),
    }
}

impl Watch for Page {
    fn now_ms(&self) -> f64 {
        self.clock.get()
    }

    async fn next_change(&self, _until: u64) {
        self.changes.set(self.changes.get() + 1);
        self.clock.set(self.clock.get() + self.step);
    }
}

/// A look that finds `found` at its `at`-th try.
fn finds_at(at: u32, tries: &Cell<u32>) -> impl FnMut() -> Result<Option<&'static str>, ErrorBody> {
    move || {
        tries.set(tries.get() + 1);
        Ok((tries.get() == at).then_some("found"))
    }
}

#[test]
fn a_wait_ends_at_the_first_look_that_finds() {
    let page = page(40.0);
    let tries = Cell::new(0);
    let outcome = run(wait(&page, 2_000, finds_at(3, &tries))).unwrap();
    assert_eq!(outcome, Outcome::Found("found", 80));
    assert_eq!(page.changes.get(), 2);
}

#[test]
fn a_wait_found_at_once_waits_for_no_change() {
    let page = page(40.0);
    let tries = Cell::new(0);
    let outcome = run(wait(&page, 0, finds_at(1, &tries))).unwrap();
    assert_eq!(outcome, Outcome::Found("found", 0));
    assert_eq!(page.changes.get(), 0);
}

#[test]
fn a_wait_runs_out_at_the_deadline_after_a_last_look() {
    let page = page(100.0);
    let tries = Cell::new(0);
    let outcome = run(wait(&page, 1_250, finds_at(u32::MAX, &tries))).unwrap();
    // Looked at 1,000, 1,100, 1,200 and 1,300: the last look is past the deadline.
    assert_eq!(outcome, Outcome::RanOut(300));
    assert_eq!(tries.get(), 4);
    assert_eq!(page.changes.get(), 3);
}

#[test]
fn a_look_that_fails_ends_the_wait() {
    let page = page(10.0);
    let failed = run(wait(&page, 5_000, || -> Result<Option<()>, _> {
        Err(ErrorBody::new(ErrorCode::InvalidArgument, "bad selector"))
    }));
    assert_eq!(failed.unwrap_err().code, ErrorCode::InvalidArgument);
    assert_eq!(page.changes.get(), 0);
}

#[test]
fn a_ref_names_its_element_while_it_is_in_the_page() {
    let r = ElementRef { frame: 1, index: 3 };
    assert_eq!(by_ref(r, Some(7), |_| true).unwrap(), 7);
    let stale = by_ref(r, Some(7), |_| false).unwrap_err();
    assert_eq!(stale.code, ErrorCode::ElementNotFound);
    assert_eq!(
        stale.message,
        "ref f1e3 is stale: that element left the page"
    );
    assert_eq!(
        stale.hint.as_deref(),
        Some("call firefox_snapshot again and use the new refs")
    );
    let unknown = by_ref(ElementRef { frame: 0, index: 9 }, None::<u8>, |_| true).unwrap_err();
    assert_eq!(unknown.message, "ref e9 is unknown in this page");
    assert_eq!(
        unknown.hint.as_deref(),
        Some("refs last until the page changes; call firefox_snapshot again")
    );
}

#[test]
fn not_found_offers_what_looks_alike_and_says_how_long_it_waited() {
    let candidates = ["#submit", "button", ".submitted", "#other"].map(String::from);
    let e = not_found("#sumbit", Some(120), &candidates);
    assert_eq!(e.code, ErrorCode::ElementNotFound);
    assert_eq!(e.message, "no element matches \"#sumbit\" (waited 120 ms)");
    let hint = e.hint.unwrap();
    assert!(
        hint.starts_with("did you mean: #submit, "),
        "closest first: {hint}"
    );
    assert!(hint.ends_with("? (firefox_snapshot gives refs for every control)"));
}

#[test]
fn not_found_without_candidates_points_at_refs() {
    let e = not_found("#x", None, &[]);
    assert_eq!(e.message, "no element matches \"#x\"");
    assert_eq!(
        e.hint.as_deref(),
        Some("check the selector, or use a ref from firefox_snapshot")
    );
}

fn candidate(tag: &str, id: &str, name: Option<&str>, class: &str) -> Candidate {
    Candidate {
        tag: tag.into(),
        id: id.into(),
        name: name.map(Into::into),
        class: class.into(),
    }
}

#[test]
fn candidates_are_ids_names_first_classes_and_tags() {
    let found = candidates(
        [
            candidate("input", "email", Some("mail"), ""),
            candidate("div", "", None, "a  b c d"),
        ]
        .into_iter(),
    );
    assert_eq!(
        found,
        [
            "#email",
            "input[name=\"mail\"]",
            "input",
            ".a",
            "div.a",
            ".b",
            "div.b",
            ".c",
            "div.c",
            "div"
        ]
    );
}

#[test]
fn candidates_read_a_bounded_number_of_elements() {
    let many = (0..10_000).map(|_| candidate("a", "", None, ""));
    assert_eq!(candidates(many).len(), MAX_CANDIDATES);
}

#[test]
fn a_selector_is_waited_for_before_text() {
    assert_eq!(Awaited::of(Some("#a"), Some("hi")), Awaited::Element("#a"));
    assert_eq!(Awaited::of(None, Some("hi")), Awaited::Text("hi"));
    assert_eq!(Awaited::of(None, None), Awaited::Nothing);
}

#[test]
fn a_wait_for_says_what_appeared_or_did_not() {
    let met = waited(Awaited::Element("#a"), Outcome::Found((), 12)).unwrap();
    assert_eq!(met.what, "an element matching \"#a\" is there");
    assert_eq!(met.waited_ms, 12);
    let late = waited(Awaited::Text("Done"), Outcome::RanOut(5_000)).unwrap_err();
    assert_eq!(late.code, ErrorCode::Timeout);
    assert_eq!(
        late.message,
        "the text \"Done\" did not appear within 5000 ms"
    );
    assert_eq!(
        late.hint.as_deref(),
        Some("pass a larger timeout, or check with firefox_get_content what the page shows")
    );
}

#[test]
fn a_wait_is_met_by_its_element_or_by_its_text_as_the_page_shows_it_hidden() {
    let never = || -> Result<Option<String>, ()> { panic!("the body read for a selector") };
    let found = Awaited::Element("#a").met(|s| Ok::<_, ()>(s == "#a"), never);
    assert_eq!(found, Ok(Some(())));
    let absent = Awaited::Element("#b").met(|s| Ok::<_, ()>(s == "#a"), never);
    assert_eq!(absent, Ok(None));
    let unread = |_: &str| -> Result<bool, ()> { panic!("a selector asked for a text") };
    let body = || Ok::<_, ()>(Some("Paid: hunter2-long".to_owned()));
    assert_eq!(Awaited::Text("Paid").met(unread, body), Ok(Some(())));
    assert_eq!(Awaited::Text("hunter2").met(unread, body), Ok(Some(())));
    crate::hidden::learn([&claudezilla_protocol::args::FilledSecret {
        name: "PW".to_owned().try_into().unwrap(),
        value: "hunter2-long".to_owned(),
        sites: Vec::new(),
    }]);
    // A secret's first part is not found in its value: the wait would tell it.
    assert_eq!(Awaited::Text("hunter2").met(unread, body), Ok(None));
    assert_eq!(Awaited::Text("<secret:PW>").met(unread, body), Ok(Some(())));
    let no_body = || Ok::<_, ()>(None);
    assert_eq!(Awaited::Text("Paid").met(unread, no_body), Ok(None));
    let gone = Awaited::Text("x").met(|_| Ok(false), || Err("gone"));
    assert_eq!(gone, Err("gone"));
    assert_eq!(Awaited::Nothing.met(unread, never), Ok(Some(())));
}

/// A frame whose `#late` matches from its `at`-th look; refs 1 and 2 handed out, the second's
/// element gone from the page. Its candidates may be read only once the looking is over.
struct Frame {
    page: Page,
    at: u32,
    looks: Cell<u32>,
    candidates_read: Cell<u32>,
}

fn frame(at: u32) -> Frame {
    Frame {
        page: page(100.0),
        at,
        looks: Cell::new(0),
        candidates_read: Cell::new(0),
    }
}

impl Watch for Frame {
    fn now_ms(&self) -> f64 {
        self.page.now_ms()
    }

    fn next_change(&self, until: u64) -> impl Future<Output = ()> {
        self.page.next_change(until)
    }
}

impl Targets for Frame {
    type Element = &'static str;

    fn query(&self, selector: &str) -> Result<Option<&'static str>, ErrorBody> {
        assert_eq!(self.candidates_read.get(), 0, "a look after the candidates");
        if selector == "!" {
            return Err(ErrorBody::new(ErrorCode::InvalidArgument, "not CSS"));
        }
        self.looks.set(self.looks.get() + 1);
        Ok((selector == "#late" && self.looks.get() >= self.at).then_some("late"))
    }

    fn known(&self, index: u32) -> Option<&'static str> {
        ["kept", "gone"].get(index as usize - 1).copied()
    }

    fn connected(&self, el: &&'static str) -> bool {
        *el == "kept"
    }

    fn candidates(&self) -> Vec<String> {
        self.candidates_read.set(self.candidates_read.get() + 1);
        vec!["#later".into()]
    }
}

#[test]
fn a_ref_is_found_at_once_and_never_waited_for() {
    let f = frame(1);
    let at = |index| FrameTarget::Ref(index);
    assert_eq!(run(wait_for(&f, &at(1), 2, 5_000)), Ok("kept"));
    let stale = resolve(&f, &at(2), 2).unwrap_err();
    assert_eq!(
        stale.message,
        "ref f2e2 is stale: that element left the page"
    );
    let unknown = run(wait_for(&f, &at(3), 0, 5_000)).unwrap_err();
    assert_eq!(unknown.message, "ref e3 is unknown in this page");
    assert_eq!((f.page.changes.get(), f.looks.get()), (0, 0));
    assert_eq!(f.candidates_read.get(), 0, "no selector, no suggestions");
}

#[test]
fn a_selector_is_looked_for_once_now_or_until_the_deadline_then_alike_ones_offered() {
    let late = FrameTarget::Selector("#late".into());
    let f = frame(1);
    assert_eq!(resolve(&f, &late, 0), Ok("late"));
    assert_eq!(f.candidates_read.get(), 0);
    let f = frame(3);
    let now = resolve(&f, &late, 0).unwrap_err();
    assert_eq!(now.message, "no element matches \"#late\"");
    assert!(now.hint.unwrap().contains("#later"));
    assert_eq!((f.looks.get(), f.candidates_read.get()), (1, 1));
    // Waited for: found at the third look, two changes later.
    let f = frame(3);
    assert_eq!(run(wait_for(&f, &late, 0, 5_000)), Ok("late"));
    assert_eq!((f.page.changes.get(), f.candidates_read.get()), (2, 0));
    // Never there: looked for until the deadline, and said so.
    let f = frame(u32::MAX);
    let gone = run(wait_for(&f, &late, 0, 1_300)).unwrap_err();
    assert_eq!(gone.message, "no element matches \"#late\" (waited 300 ms)");
    assert_eq!((f.looks.get(), f.candidates_read.get()), (4, 1));
    // A selector the page refuses ends the look with its error.
    let refused = run(wait_for(
        &frame(1),
        &FrameTarget::Selector("!".into()),
        0,
        1_300,
    ));
    assert_eq!(refused.unwrap_err().code, ErrorCode::InvalidArgument);
    // Found at once too: the refusal, not "no element matches", and no candidates read.
    let f = frame(1);
    let refused = resolve(&f, &FrameTarget::Selector("!".into()), 0).unwrap_err();
    assert_eq!(refused.code, ErrorCode::InvalidArgument);
    assert_eq!(f.candidates_read.get(), 0);
}
