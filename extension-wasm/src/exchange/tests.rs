use std::cell::RefCell;
use std::collections::VecDeque;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use claudezilla_protocol::ErrorCode;

use super::*;

/// What one ask of the fake frame comes to.
#[derive(Debug, Clone, Copy)]
enum Asked {
    Answer(u32),
    /// No listener answered (the shim is not there yet).
    Nobody,
    /// The browser's rejection, in its words.
    Refused(&'static str),
    /// Never answered.
    Silent,
    /// Answered after the try's time (a page busy in its own handlers).
    Late(u32),
}

/// Pending once, then ready: an answer that comes after the try's time.
struct Later(bool);

impl Future for Later {
    type Output = ();

    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            return Poll::Ready(());
        }
        self.0 = true;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

const NOBODY_LISTENS: &str = "Could not establish connection. Receiving end does not exist.";
const GONE: &str = "Message manager disconnected";
const NO_SCRIPT: &str = "Missing host permission for the tab";

/// A frame whose asks and injections come out as scripted, in order (asks past the script
/// find nobody; injections past it succeed), logging every call.
struct Fake {
    asks: RefCell<VecDeque<Asked>>,
    injections: RefCell<VecDeque<Result<(), &'static str>>>,
    navigated: bool,
    log: RefCell<Vec<String>>,
}

fn fake(asks: &[Asked]) -> Fake {
    Fake {
        asks: RefCell::new(asks.iter().copied().collect()),
        injections: RefCell::default(),
        navigated: false,
        log: RefCell::default(),
    }
}

impl Fake {
    fn log(&self) -> Vec<String> {
        self.log.borrow().clone()
    }
}

impl Frame for Fake {
    type Answer = u32;

    fn tab(&self) -> TabId {
        TabId(7)
    }

    async fn ask(&self) -> Result<Option<u32>, ErrorBody> {
        self.log.borrow_mut().push("ask".into());
        let next = self.asks.borrow_mut().pop_front().unwrap_or(Asked::Nobody);
        match next {
            Asked::Answer(n) => Ok(Some(n)),
            Asked::Nobody => Ok(None),
            Asked::Refused(words) => Err(ErrorBody::new(ErrorCode::Internal, words)),
            Asked::Silent => std::future::pending().await,
            Asked::Late(n) => {
                Later(false).await;
                Ok(Some(n))
            }
        }
    }

    async fn inject(&self) -> Result<(), ErrorBody> {
        self.log.borrow_mut().push("inject".into());
        let next = self.injections.borrow_mut().pop_front().unwrap_or(Ok(()));
        next.map_err(|words| ErrorBody::new(ErrorCode::Internal, words))
    }

    async fn pause(&self, ms: u32) {
        self.log.borrow_mut().push(format!("pause {ms}"));
    }

    /// The fake's calls are ready at once or never: still pending after one poll is silent.
    async fn within<T>(&self, ms: u32, work: impl Future<Output = T>) -> Option<T> {
        self.log.borrow_mut().push(format!("within {ms}"));
        match pin!(work).poll(&mut Context::from_waker(Waker::noop())) {
            Poll::Ready(value) => Some(value),
            Poll::Pending => None,
        }
    }

    fn navigated(&self) -> bool {
        self.log.borrow_mut().push("navigated?".into());
        self.navigated
    }
}

/// Runs the exchange: every fake call is ready at once (a silent one is cut by `within`).
fn run(frame: &Fake) -> Result<u32, ErrorBody> {
    match poll_once(frame) {
        Poll::Ready(answer) => answer,
        Poll::Pending => panic!("the exchange waited on a fake that never waits"),
    }
}

fn poll_once(frame: &Fake) -> Poll<Result<u32, ErrorBody>> {
    pin!(carry(frame, 4_000)).poll(&mut Context::from_waker(Waker::noop()))
}

#[test]
fn a_listening_frame_is_asked_once() {
    let frame = fake(&[Asked::Answer(1)]);
    assert_eq!(run(&frame).unwrap(), 1);
    assert_eq!(frame.log(), ["within 4000", "ask", "navigated?"]);
}

#[test]
fn where_nothing_listens_the_script_goes_in_and_the_frame_is_asked_again() {
    // Firefox answers "nothing listens" as a rejection or as an empty answer: the same.
    for nobody in [Asked::Nobody, Asked::Refused(NOBODY_LISTENS)] {
        let frame = fake(&[nobody, Asked::Answer(2)]);
        assert_eq!(run(&frame).unwrap(), 2);
        assert_eq!(
            frame.log(),
            ["within 4000", "ask", "inject", "ask", "navigated?"]
        );
    }
}

#[test]
fn a_frame_between_documents_gets_a_second_injection_after_a_pause() {
    let frame = fake(&[Asked::Nobody, Asked::Nobody, Asked::Answer(3)]);
    assert_eq!(run(&frame).unwrap(), 3);
    let pause = format!("pause {}", retry_plan::INJECT_PAUSE_MS);
    assert_eq!(
        frame.log(),
        [
            "within 4000",
            "ask",
            "inject",
            "ask",
            &pause,
            "inject",
            "ask",
            "navigated?"
        ]
    );
}

#[test]
fn a_script_that_never_starts_is_tried_in_the_next_document_then_said() {
    let frame = fake(&[]);
    let error = run(&frame).unwrap_err();
    assert_eq!(error.code, ErrorCode::PageError);
    assert!(
        error
            .message
            .starts_with("the page in tab 7 navigated away twice"),
        "{}",
        error.message
    );
    assert!(error.message.contains("did not start"), "{}", error.message);
    let injections = frame.log().iter().filter(|c| *c == "inject").count();
    assert_eq!(injections as u32, 2 * retry_plan::INJECTIONS);
}

#[test]
fn a_document_that_went_away_is_asked_again_in_the_next_one() {
    let frame = fake(&[Asked::Refused(GONE), Asked::Answer(4)]);
    assert_eq!(run(&frame).unwrap(), 4);
    let pause = format!("pause {}", retry_plan::RETRY_PAUSE_MS);
    // Whether the tab navigated is asked once the first try is over, not before.
    assert_eq!(
        frame.log(),
        ["within 4000", "ask", "navigated?", &pause, "ask"]
    );
}

#[test]
fn a_second_refusal_says_the_page_navigated_away_twice() {
    let frame = fake(&[Asked::Refused(GONE), Asked::Refused(GONE)]);
    let error = run(&frame).unwrap_err();
    assert!(
        error.message.contains("navigated away twice"),
        "{}",
        error.message
    );
    assert!(error.message.contains(GONE), "{}", error.message);
}

#[test]
fn another_refusal_is_the_answer_unless_the_tab_navigated() {
    let frame = fake(&[Asked::Refused(NO_SCRIPT), Asked::Answer(5)]);
    let error = run(&frame).unwrap_err();
    assert!(
        error.message.contains("cannot be scripted"),
        "{}",
        error.message
    );
    assert_eq!(frame.log(), ["within 4000", "ask", "navigated?"]);

    // While the tab loads another page, its document between two takes no script.
    let mut frame = fake(&[Asked::Refused(NO_SCRIPT), Asked::Answer(5)]);
    frame.navigated = true;
    assert_eq!(run(&frame).unwrap(), 5);
}

#[test]
fn a_refused_injection_is_said_as_the_page_refused_it() {
    let frame = fake(&[Asked::Nobody]);
    frame
        .injections
        .borrow_mut()
        .push_back(Err("No tab with id: 7"));
    let error = run(&frame).unwrap_err();
    assert_eq!(error.code, ErrorCode::NoSuchTab);
    assert_eq!(frame.log(), ["within 4000", "ask", "inject", "navigated?"]);
}

#[test]
fn a_silent_frame_is_waited_for_unless_the_tab_navigated() {
    // A page busy in its own handlers past the try's time answers the same ask, later.
    let frame = fake(&[Asked::Late(6), Asked::Answer(7)]);
    assert_eq!(run(&frame).unwrap(), 6);
    assert_eq!(frame.log(), ["within 4000", "ask", "navigated?"]);

    // One that never answers is waited for until the caller's deadline ends the call.
    let frame = fake(&[Asked::Silent, Asked::Answer(6)]);
    assert!(poll_once(&frame).is_pending());
    assert_eq!(frame.log(), ["within 4000", "ask", "navigated?"]);

    // Where the tab navigated, the document is gone: the new one is asked.
    let mut frame = fake(&[Asked::Silent, Asked::Answer(6)]);
    frame.navigated = true;
    assert_eq!(run(&frame).unwrap(), 6);
    let mut frame = fake(&[Asked::Late(6), Asked::Answer(7)]);
    frame.navigated = true;
    assert_eq!(run(&frame).unwrap(), 7);
}
