//! One message to one frame's content script, carried through what the browser does to it:
//! asked; where nothing listens yet (a fresh document), the script injected and asked again;
//! tried once more in the next document where the first went away ([`retry_plan`] decides).
//! Written over [`Frame`], so the flow is tested natively; `background/content.rs` is the
//! browser's side.

use std::pin::pin;

use claudezilla_protocol::{ErrorBody, TabId};

use crate::refusal::Refusal;
use crate::retry_plan::{self, AfterFirst, FirstTry};

/// What the exchange asks of the browser for one frame of one tab.
pub trait Frame {
    type Answer;

    fn tab(&self) -> TabId;
    /// Sends the message: `Ok(None)` when no listener answered it.
    fn ask(&self) -> impl Future<Output = Result<Option<Self::Answer>, ErrorBody>>;
    /// Injects the content script into the frame.
    fn inject(&self) -> impl Future<Output = Result<(), ErrorBody>>;
    fn pause(&self, ms: u32) -> impl Future<Output = ()>;
    /// `work`'s output, or none when it takes longer than `ms`.
    fn within<T>(&self, ms: u32, work: impl Future<Output = T>) -> impl Future<Output = Option<T>>;
    /// Whether the tab has started another top-level load since the exchange began.
    fn navigated(&self) -> bool;
}

/// The frame's answer: the first try lasts at most `try_ms` (a document going away may never
/// answer), and a second follows where [`retry_plan::after_first`] says. A page that stayed
/// but is busy is waited for: the caller's deadline bounds that wait, as it bounds the call.
pub async fn carry<F: Frame>(frame: &F, try_ms: u32) -> Result<F::Answer, ErrorBody> {
    let mut first_try = pin!(exchange(frame));
    let first = frame.within(try_ms, first_try.as_mut()).await;
    let tried = match &first {
        Some(Ok(_)) => FirstTry::Answered,
        Some(Err(f)) if f.refusal == Refusal::DocumentGone => FirstTry::Interrupted,
        Some(Err(_)) => FirstTry::Refused,
        None => FirstTry::Silent,
    };
    match retry_plan::after_first(tried, frame.navigated()) {
        // The document went away under us (the page navigated; between two documents the
        // tab is not even scriptable): once more, in the new one.
        AfterFirst::Retry { navigated } => {
            frame.pause(retry_plan::RETRY_PAUSE_MS).await;
            exchange(frame)
                .await
                .map_err(|f| retry_plan::second_failure(frame.tab(), f.error, f.refusal, navigated))
        }
        AfterFirst::Take => first
            .ok_or_else(|| retry_plan::no_answer(frame.tab(), try_ms))?
            .map_err(|f| f.error),
        AfterFirst::KeepWaiting => first_try.await.map_err(|f| f.error),
    }
}

/// Why one exchange failed: the error to report, and what the browser's refusal says of the
/// document (gone: a try in the next one may do).
#[derive(Debug)]
struct Failed {
    error: ErrorBody,
    refusal: Refusal,
}

impl Failed {
    /// A browser call of the exchange was refused.
    fn refused(tab: TabId, e: ErrorBody) -> Self {
        let refusal = Refusal::of(&e.message);
        Self {
            error: refusal.on_page(tab, e),
            refusal,
        }
    }
}

/// One try: ask; where nothing listens yet, inject the script and ask again, once more after
/// a moment if the frame was between documents (a navigation committing).
async fn exchange<F: Frame>(frame: &F) -> Result<F::Answer, Failed> {
    if let Some(answer) = ask(frame).await? {
        return Ok(answer);
    }
    for attempt in 0..retry_plan::INJECTIONS {
        if attempt > 0 {
            frame.pause(retry_plan::INJECT_PAUSE_MS).await;
        }
        frame
            .inject()
            .await
            .map_err(|e| Failed::refused(frame.tab(), e))?;
        if let Some(answer) = ask(frame).await? {
            return Ok(answer);
        }
    }
    // Nothing listened after every injection: the document went before the script started.
    Err(Failed {
        error: retry_plan::not_started(),
        refusal: Refusal::DocumentGone,
    })
}

/// One round trip; `Ok(None)` when nothing in the frame listens.
async fn ask<F: Frame>(frame: &F) -> Result<Option<F::Answer>, Failed> {
    match frame.ask().await {
        Ok(answer) => Ok(answer),
        Err(e) => match Failed::refused(frame.tab(), e) {
            Failed {
                refusal: Refusal::NobodyListens,
                ..
            } => Ok(None),
            failed => Err(failed),
        },
    }
}

#[cfg(test)]
mod tests;
