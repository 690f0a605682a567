//! A content request's backstop. A throw out of the page's DOM (a call an element of another
//! kind does not have) or a trap (a panic, under `panic = "abort"`) unwinds out of wasm past
//! every Rust frame: no `Drop` runs, and the request's promise would never settle, so the
//! agent's call would end in TIMEOUT while a hook the request armed stayed in the page.
//! [`Guarded`] polls the request inside a [`Catcher`]; on a throw it answers an error, never
//! touches the abandoned future again, and undoes what the request had armed ([`Armed`]).

use std::cell::{Cell, RefCell};
use std::pin::Pin;
use std::task::{Context, Poll};

use claudezilla_protocol::{ErrorBody, ErrorCode};

/// Runs one poll and reports what it threw, in words (JS's `try`, natively `catch_unwind`).
pub trait Catcher {
    fn attempt(&self, poll: &mut dyn FnMut()) -> Result<(), String>;
}

type Undo = Box<dyn FnOnce()>;

thread_local! {
    /// What the requests in flight armed in the page, oldest first, by ticket.
    static ARMED: RefCell<Vec<(u64, Undo)>> = RefCell::new(Vec::new());
    static NEXT_TICKET: Cell<u64> = const { Cell::new(0) };
}

/// Something armed in the page (a listener, a wrapped function): undone when dropped, or by
/// the backstop when a throw skipped the drop.
#[must_use = "dropping it undoes at once"]
pub struct Armed(u64);

impl Armed {
    pub fn new(undo: impl FnOnce() + 'static) -> Self {
        let ticket = NEXT_TICKET.replace(NEXT_TICKET.get() + 1);
        ARMED.with(|a| a.borrow_mut().push((ticket, Box::new(undo))));
        Self(ticket)
    }
}

impl Drop for Armed {
    fn drop(&mut self) {
        let undo = ARMED.with(|a| {
            let mut armed = a.borrow_mut();
            let at = armed.iter().position(|(t, _)| *t == self.0)?;
            Some(armed.remove(at).1)
        });
        // Run with the list free: an undo calls into the page, which may call us back.
        if let Some(undo) = undo {
            undo();
        }
    }
}

/// Undoes everything still armed, newest first. Only after a throw: every request in flight
/// in this frame loses its hooks, which a request that was not abandoned would have undone.
fn undo_all() {
    while let Some((_, undo)) = ARMED.with(|a| a.borrow_mut().pop()) {
        undo();
    }
}

/// A request's future, polled inside a catcher.
pub struct Guarded<F, C> {
    /// None once it answered a throw: the future was abandoned mid-poll.
    inner: Option<Pin<Box<F>>>,
    catcher: C,
}

impl<F, C> Guarded<F, C> {
    pub fn new(inner: F, catcher: C) -> Self {
        Self {
            inner: Some(Box::pin(inner)),
            catcher,
        }
    }
}

impl<F, C, T> Future for Guarded<F, C>
where
    F: Future<Output = Result<T, ErrorBody>>,
    C: Catcher + Unpin,
{
    type Output = Result<T, ErrorBody>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        let Some(inner) = this.inner.as_mut() else {
            return Poll::Ready(Err(thrown("polled again after a throw")));
        };
        let mut out = Poll::Pending;
        let caught = this.catcher.attempt(&mut || out = inner.as_mut().poll(cx));
        let Err(words) = caught else {
            return out;
        };
        // Its frames were left half run (locals moved or not): dropping it could drop twice.
        std::mem::forget(this.inner.take());
        undo_all();
        Poll::Ready(Err(thrown(&words)))
    }
}

/// Longest part of a throw's words an answer repeats.
const MAX_WORDS: usize = 300;

fn thrown(words: &str) -> ErrorBody {
    let words = crate::text::cap(words, MAX_WORDS);
    ErrorBody::new(
        ErrorCode::Internal,
        format!("a bug on our side: the page's document threw while this ran ({words})"),
    )
    .with_hint(
        "what it did before the throw stays done: read the page again (firefox_snapshot) before \
         going on, and report the bug with the page",
    )
}

#[cfg(test)]
mod tests;
