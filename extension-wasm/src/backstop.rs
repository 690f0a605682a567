//! A content request's backstop. A throw out of the page's document (a call an element of
//! another kind does not have, a recursion too deep) or a trap (a panic, under
//! `panic = "abort"`) unwinds out of wasm past every Rust frame: no `Drop` runs, and the
//! request's promise would never settle, so the agent's call would end in TIMEOUT while a hook
//! the request armed stayed in the page. [`Guarded`] polls the request inside a [`Catcher`];
//! on a throw it answers an error, never touches the abandoned future again, and undoes what
//! that request had armed ([`Armed`]). After a fault that may have left the module's own
//! memory half written (a trap, a recursion cut short), the frame's module is spent: later
//! requests are refused until the page loads again.

use std::cell::{Cell, RefCell};
use std::pin::Pin;
use std::task::{Context, Poll};

use claudezilla_protocol::{ErrorBody, ErrorCode};

/// What a poll threw.
#[derive(Debug, Clone, PartialEq)]
pub struct Thrown {
    pub words: String,
    /// A fault of the module itself (a trap, a recursion cut short, our panic): its memory
    /// may be half written.
    pub spent: bool,
}

/// Runs one poll, or an undo, and reports what it threw (JS's `try`; natively, a model).
pub trait Catcher {
    fn attempt(&self, poll: &mut dyn FnMut()) -> Result<(), Thrown>;
}

type Undo = Box<dyn FnOnce()>;

struct Entry {
    ticket: u64,
    /// The request being polled when it was armed.
    request: Option<u64>,
    undo: Undo,
}

thread_local! {
    /// What was armed in the page and not yet undone, oldest first.
    static ARMED: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
    static NEXT_TICKET: Cell<u64> = const { Cell::new(0) };
    /// The request being polled now.
    static POLLING: Cell<Option<u64>> = const { Cell::new(None) };
    /// A fault left the module unsound.
    static SPENT: Cell<bool> = const { Cell::new(false) };
}

fn ticket() -> u64 {
    NEXT_TICKET.replace(NEXT_TICKET.get() + 1)
}

/// Something armed in the page (a listener, a wrapped function): undone when dropped, or by
/// the backstop when a throw skipped the drop.
#[must_use = "dropping it undoes at once"]
pub struct Armed(u64);

impl Armed {
    pub fn new(undo: impl FnOnce() + 'static) -> Self {
        let entry = Entry {
            ticket: ticket(),
            request: POLLING.get(),
            undo: Box::new(undo),
        };
        let armed = Self(entry.ticket);
        ARMED.with(|a| a.borrow_mut().push(entry));
        armed
    }
}

impl Drop for Armed {
    fn drop(&mut self) {
        let undo = take(|e| e.ticket == self.0);
        // Run with the list free: an undo calls into the page, which may call us back.
        if let Some(undo) = undo {
            undo();
        }
    }
}

/// The newest entry `which` picks, taken out of the list.
fn take(which: impl Fn(&Entry) -> bool) -> Option<Undo> {
    ARMED.with(|a| {
        let mut armed = a.borrow_mut();
        let at = armed.iter().rposition(which)?;
        Some(armed.remove(at).undo)
    })
}

/// Undoes what `request` armed and no drop undid, newest first, each inside `catcher`: one
/// that throws leaves the others to run.
fn undo_left(request: u64, catcher: &impl Catcher) {
    while let Some(undo) = take(|e| e.request == Some(request)) {
        let mut undo = Some(undo);
        let _ = catcher.attempt(&mut || {
            if let Some(undo) = undo.take() {
                undo();
            }
        });
    }
}

/// A request's future, polled inside a catcher.
pub struct Guarded<F, C> {
    /// None once it answered: done, or abandoned mid-poll by a throw.
    inner: Option<Pin<Box<F>>>,
    request: u64,
    catcher: C,
}

impl<F, C> Guarded<F, C> {
    pub fn new(inner: F, catcher: C) -> Self {
        Self {
            inner: Some(Box::pin(inner)),
            request: ticket(),
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
        if SPENT.get() {
            return Poll::Ready(Err(spent()));
        }
        let Some(inner) = this.inner.as_mut() else {
            return Poll::Ready(Err(fault("polled again after its answer", false)));
        };
        let mut out = Poll::Pending;
        let polling = POLLING.replace(Some(this.request));
        let caught = this.catcher.attempt(&mut || out = inner.as_mut().poll(cx));
        POLLING.set(polling);
        match caught {
            Ok(()) => {
                if out.is_ready() {
                    this.inner = None;
                }
                out
            }
            Err(thrown) => {
                // Its frames were left half run (locals moved or not): dropping it could
                // drop twice.
                std::mem::forget(this.inner.take());
                undo_left(this.request, &this.catcher);
                if thrown.spent {
                    SPENT.set(true);
                }
                Poll::Ready(Err(fault(&thrown.words, thrown.spent)))
            }
        }
    }
}

/// Longest part of a throw's words an answer repeats.
const MAX_WORDS: usize = 300;

fn fault(words: &str, spent: bool) -> ErrorBody {
    let words = crate::text::cap(words, MAX_WORDS);
    let error = ErrorBody::new(
        ErrorCode::Internal,
        format!("a bug on our side: this call stopped on a throw ({words})"),
    );
    match spent {
        true => error.with_hint(RELOAD),
        false => error.with_hint(
            "what it did before the throw stays done: look at the page again (a narrower read, \
             with a selector or a ref) before going on, and report the bug with the page",
        ),
    }
}

const RELOAD: &str = "this frame's script cannot go on: reload the page (firefox_navigate with \
                      action \"reload\") to start it again, and report the bug with the page";

fn spent() -> ErrorBody {
    ErrorBody::new(
        ErrorCode::Internal,
        "a bug on our side: an earlier call stopped this frame's script",
    )
    .with_hint(RELOAD)
}

#[cfg(test)]
mod tests;
