//! Where one traced request's time goes. The figures belong to the request's own task: other
//! agents' requests run interleaved with it on the one thread, and their content-script round
//! trips must not be added to its hops. A task-local, set only while the traced task is polled.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use claudezilla_protocol::envelope::HopTimes;

thread_local! {
    static CURRENT: RefCell<Option<HopTimes>> = const { RefCell::new(None) };
}

/// Runs `inner` with its own hop times (when `traced`), and gives them back with its output.
pub async fn traced<F: Future>(traced: bool, inner: F) -> (F::Output, Option<HopTimes>) {
    let mut task = Traced {
        inner: Box::pin(inner),
        times: traced.then(HopTimes::default),
    };
    let output = std::future::poll_fn(|cx| Pin::new(&mut task).poll_inner(cx)).await;
    (output, task.times)
}

/// Adds to the hop times of the request being run now, if it is traced.
pub fn record(add: impl FnOnce(&mut HopTimes)) {
    CURRENT.with_borrow_mut(|t| {
        if let Some(t) = t {
            add(t);
        }
    });
}

struct Traced<F: Future> {
    inner: Pin<Box<F>>,
    times: Option<HopTimes>,
}

impl<F: Future> Traced<F> {
    fn poll_inner(&mut self, cx: &mut Context<'_>) -> Poll<F::Output> {
        if self.times.is_none() {
            return self.inner.as_mut().poll(cx);
        }
        CURRENT.with_borrow_mut(|t| *t = self.times.take());
        let polled = self.inner.as_mut().poll(cx);
        self.times = CURRENT.with_borrow_mut(Option::take);
        polled
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block_on<F: Future>(f: F) -> F::Output {
        let mut f = Box::pin(f);
        let mut cx = Context::from_waker(std::task::Waker::noop());
        loop {
            if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
                return v;
            }
        }
    }

    /// Yields once, so two tasks interleave.
    fn yield_once() -> impl Future<Output = ()> {
        let mut yielded = false;
        std::future::poll_fn(move |cx| {
            if yielded {
                return Poll::Ready(());
            }
            yielded = true;
            cx.waker().wake_by_ref();
            Poll::Pending
        })
    }

    #[test]
    fn an_interleaved_untraced_task_adds_nothing_to_a_traced_one() {
        let work = |us: u64| async move {
            record(|t| t.content_us += us);
            yield_once().await;
            record(|t| t.content_us += us);
        };
        let both = async {
            let traced_one = traced(true, work(1));
            let other = traced(false, work(1_000));
            let mut traced_one = Box::pin(traced_one);
            let mut other = Box::pin(other);
            std::future::poll_fn(|cx| {
                let a = traced_one.as_mut().poll(cx);
                let b = other.as_mut().poll(cx);
                match (a, b) {
                    (Poll::Ready(a), Poll::Ready(b)) => Poll::Ready((a.1, b.1)),
                    _ => Poll::Pending,
                }
            })
            .await
        };
        let (mine, theirs) = block_on(both);
        assert_eq!(mine.map(|t| t.content_us), Some(2));
        assert!(theirs.is_none());
    }
}
