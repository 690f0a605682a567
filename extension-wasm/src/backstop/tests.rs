use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;

use super::*;
use crate::steps::Steps;

/// Natively a throw is a panic, caught as JS's `try` catches it in the browser.
struct Unwinding;

impl Catcher for Unwinding {
    fn attempt(&self, poll: &mut dyn FnMut()) -> Result<(), String> {
        catch_unwind(AssertUnwindSafe(poll)).map_err(|e| {
            e.downcast_ref::<&str>()
                .map_or_else(|| "?".to_owned(), |s| (*s).to_owned())
        })
    }
}

/// Polls once, with no waker worth waking.
fn poll_once<F: Future>(f: Pin<&mut F>) -> Poll<F::Output> {
    f.poll(&mut Context::from_waker(std::task::Waker::noop()))
}

/// A request that arms a hook, waits once, then runs `second`.
async fn request(log: Rc<Steps>, second: impl FnOnce() -> u32) -> Result<u32, ErrorBody> {
    let undo_log = log.clone();
    let _armed = Armed::new(move || undo_log.say("undo"));
    log.say("armed");
    Pending(false).await;
    Ok(second())
}

/// Pending the first time it is polled.
struct Pending(bool);

impl Future for Pending {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<()> {
        if std::mem::replace(&mut self.0, true) {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    }
}

#[test]
fn a_request_that_ends_answers_and_undoes_its_hooks_once() {
    let log = Rc::new(Steps::default());
    let mut guarded = std::pin::pin!(Guarded::new(request(log.clone(), || 7), Unwinding));
    assert!(poll_once(guarded.as_mut()).is_pending());
    let Poll::Ready(Ok(7)) = poll_once(guarded.as_mut()) else {
        panic!("the request's own answer");
    };
    assert_eq!(log.all(), ["armed", "undo"]);
    undo_all();
    assert_eq!(log.all().len(), 2, "nothing left to undo");
}

#[test]
fn a_throw_answers_an_error_and_undoes_what_was_armed() {
    let log = Rc::new(Steps::default());
    let throwing = || -> u32 { std::panic::panic_any("TypeError: el.x is not a function") };
    let mut guarded = std::pin::pin!(Guarded::new(request(log.clone(), throwing), Unwinding));
    assert!(poll_once(guarded.as_mut()).is_pending());
    let Poll::Ready(Err(e)) = poll_once(guarded.as_mut()) else {
        panic!("an error answer, not a wait");
    };
    assert_eq!(e.code, ErrorCode::Internal);
    assert!(
        e.message.contains("(TypeError: el.x is not a function)"),
        "{e:?}"
    );
    assert!(
        e.hint
            .as_deref()
            .unwrap_or_default()
            .contains("firefox_snapshot")
    );
    // Natively the unwinding dropped the hook itself; in wasm the backstop undoes it. Either
    // way, once.
    assert_eq!(log.all(), ["armed", "undo"]);
    let Poll::Ready(Err(again)) = poll_once(guarded.as_mut()) else {
        panic!("never the abandoned future again");
    };
    assert!(again.message.contains("polled again"));
}

#[test]
fn the_backstop_undoes_what_no_drop_did_newest_first() {
    let log = Rc::new(Steps::default());
    let (a, b) = (log.clone(), log.clone());
    let first = Armed::new(move || a.say("undo first"));
    let second = Armed::new(move || b.say("undo second"));
    // As after a throw in wasm: the frames holding them are never unwound.
    std::mem::forget((first, second));
    undo_all();
    assert_eq!(log.all(), ["undo second", "undo first"]);
}

#[test]
fn an_undo_may_arm_and_drop_again() {
    let log = Rc::new(Steps::default());
    let inner = log.clone();
    let outer = Armed::new(move || {
        let again = inner.clone();
        drop(Armed::new(move || again.say("inner undo")));
        inner.say("outer undo");
    });
    drop(outer);
    assert_eq!(log.all(), ["inner undo", "outer undo"]);
}

#[test]
fn a_throws_words_are_bounded() {
    let e = thrown(&"x".repeat(10_000));
    assert!(e.message.len() < 500, "{}", e.message.len());
}
