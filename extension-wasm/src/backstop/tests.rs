use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;

use super::*;
use crate::steps::Steps;

/// A catcher as wasm's: a throw leaves the future where it was, no drop runs. Attempt number
/// `throw_at` (from 0) throws as its poll begins; a panic (an undo that throws) is caught.
struct Wasm {
    attempts: Cell<usize>,
    throw_at: Option<usize>,
    spent: bool,
}

fn wasm(throw_at: Option<usize>) -> Wasm {
    Wasm {
        attempts: Cell::new(0),
        throw_at,
        spent: false,
    }
}

impl Catcher for Wasm {
    fn attempt(&self, poll: &mut dyn FnMut()) -> Result<(), Thrown> {
        let at = self.attempts.replace(self.attempts.get() + 1);
        let thrown = |words: &str| Thrown {
            words: words.to_owned(),
            spent: self.spent,
        };
        if self.throw_at == Some(at) {
            return Err(thrown("TypeError: el.x is not a function"));
        }
        catch_unwind(AssertUnwindSafe(poll)).map_err(|_| thrown("an undo threw"))
    }
}

/// Polls once, with no waker worth waking.
fn poll_once<F: Future>(f: Pin<&mut F>) -> Poll<F::Output> {
    f.poll(&mut Context::from_waker(std::task::Waker::noop()))
}

/// Says "dropped" when dropped.
struct Held(Rc<Steps>);

impl Drop for Held {
    fn drop(&mut self) {
        self.0.say("dropped");
    }
}

/// A request that arms a hook named `name`, waits once, then answers 7.
async fn request(log: Rc<Steps>, name: &'static str) -> Result<u32, ErrorBody> {
    let undo_log = log.clone();
    let _armed = Armed::new(move || undo_log.say(format!("undo {name}")));
    let _held = Held(log.clone());
    log.say(format!("armed {name}"));
    Pending(false).await;
    Ok(7)
}

/// Pending the first time it is polled.
struct Pending(bool);

impl Future for Pending {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<()> {
        match std::mem::replace(&mut self.0, true) {
            true => Poll::Ready(()),
            false => Poll::Pending,
        }
    }
}

#[test]
fn a_request_that_ends_answers_undoes_its_hooks_once_and_is_not_resumed() {
    let log = Rc::new(Steps::default());
    let mut guarded = std::pin::pin!(Guarded::new(request(log.clone(), "a"), wasm(None)));
    assert!(poll_once(guarded.as_mut()).is_pending());
    assert!(matches!(poll_once(guarded.as_mut()), Poll::Ready(Ok(7))));
    assert_eq!(log.all(), ["armed a", "dropped", "undo a"]);
    let Poll::Ready(Err(again)) = poll_once(guarded.as_mut()) else {
        panic!("a finished request is never resumed");
    };
    assert!(again.message.contains("polled again"), "{again:?}");
}

#[test]
fn a_throw_answers_an_error_and_undoes_what_was_armed_without_dropping_the_future() {
    let log = Rc::new(Steps::default());
    let mut guarded = std::pin::pin!(Guarded::new(request(log.clone(), "a"), wasm(Some(1))));
    assert!(poll_once(guarded.as_mut()).is_pending());
    let Poll::Ready(Err(e)) = poll_once(guarded.as_mut()) else {
        panic!("an error answer, not a wait");
    };
    assert_eq!(e.code, ErrorCode::Internal);
    assert!(
        e.message.contains("(TypeError: el.x is not a function)"),
        "{e:?}"
    );
    assert!(e.hint.as_deref().unwrap_or_default().contains("narrower"));
    // The future's frames were abandoned: never dropped, its hook undone by the backstop.
    assert_eq!(log.all(), ["armed a", "undo a"]);
    assert!(ARMED.with(|a| a.borrow().is_empty()));
}

#[test]
fn only_the_request_that_threw_loses_its_hooks() {
    let log = Rc::new(Steps::default());
    let mut fine = std::pin::pin!(Guarded::new(request(log.clone(), "fine"), wasm(None)));
    let mut throws = std::pin::pin!(Guarded::new(request(log.clone(), "throws"), wasm(Some(1))));
    assert!(poll_once(fine.as_mut()).is_pending());
    assert!(poll_once(throws.as_mut()).is_pending());
    assert!(matches!(poll_once(throws.as_mut()), Poll::Ready(Err(_))));
    assert_eq!(log.all(), ["armed fine", "armed throws", "undo throws"]);
    assert!(matches!(poll_once(fine.as_mut()), Poll::Ready(Ok(7))));
    assert_eq!(log.all()[3..], ["dropped", "undo fine"]);
}

#[test]
fn an_undo_that_throws_leaves_the_others_to_run() {
    let log = Rc::new(Steps::default());
    let (first, second) = (log.clone(), log.clone());
    let polled = async move {
        let _a = Armed::new(move || first.say("undo first"));
        let _b = Armed::new(|| panic!("the page's setter threw"));
        let _c = Armed::new(move || second.say("undo third"));
        Pending(false).await;
        Ok::<_, ErrorBody>(())
    };
    let mut guarded = std::pin::pin!(Guarded::new(polled, wasm(Some(1))));
    assert!(poll_once(guarded.as_mut()).is_pending());
    assert!(matches!(poll_once(guarded.as_mut()), Poll::Ready(Err(_))));
    assert_eq!(log.all(), ["undo third", "undo first"]);
}

#[test]
fn a_hook_dropped_out_of_order_undoes_its_own_and_an_undo_may_arm_again() {
    let log = Rc::new(Steps::default());
    let (a, b) = (log.clone(), log.clone());
    let first = Armed::new(move || a.say("undo first"));
    let second = Armed::new(move || {
        let again = b.clone();
        drop(Armed::new(move || again.say("undo inside")));
        b.say("undo second");
    });
    drop(first);
    drop(second);
    assert_eq!(log.all(), ["undo first", "undo inside", "undo second"]);
}

#[test]
fn a_fault_of_the_module_refuses_every_later_request_until_the_page_loads_again() {
    let log = Rc::new(Steps::default());
    let mut faulty = wasm(Some(1));
    faulty.spent = true;
    let mut guarded = std::pin::pin!(Guarded::new(request(log.clone(), "a"), faulty));
    assert!(poll_once(guarded.as_mut()).is_pending());
    let Poll::Ready(Err(e)) = poll_once(guarded.as_mut()) else {
        panic!("an error answer");
    };
    assert!(
        e.hint
            .as_deref()
            .unwrap_or_default()
            .contains("action \"reload\"")
    );
    let mut later = std::pin::pin!(Guarded::new(request(log.clone(), "b"), wasm(None)));
    let Poll::Ready(Err(refused)) = poll_once(later.as_mut()) else {
        panic!("refused, not run");
    };
    assert!(refused.message.contains("earlier call"), "{refused:?}");
    assert_eq!(
        log.all(),
        ["armed a", "undo a"],
        "the later request never ran"
    );
}

#[test]
fn a_throws_words_are_bounded_and_hide_typed_secrets() {
    crate::hidden::learn([&claudezilla_protocol::args::FilledSecret {
        name: "PIN".to_owned().try_into().unwrap(),
        value: "4711-backstop".to_owned(),
        sites: Vec::new(),
    }]);
    let e = fault(&format!("bad 4711-backstop {}", "x".repeat(10_000)), false);
    assert!(e.message.len() < 500, "{}", e.message.len());
    assert!(!e.message.contains("4711-backstop") && e.message.contains("<secret:PIN>"));
}
