//! When a page's performance is read (`painted`): after its paint, once Firefox has reported
//! the paint's Largest Contentful Paint — which it does when the paint is presented, frames
//! after it (later still on a busy machine) — waited for frame by frame, at most
//! [`LCP_WAIT_MS`] and never past the request's deadline; a hidden document paints nothing,
//! so nothing is waited for. Over [`Timeline`] and [`Painting`], which
//! `content/performance.rs` implements.

use claudezilla_protocol::ErrorBody;

use super::report::{LCP, Timeline};

/// Longest wait for a just-loaded page's Largest Contentful Paint to be reported.
const LCP_WAIT_MS: f64 = 2_000.0;

/// The page's clock and frames.
pub trait Painting {
    fn now_ms(&self) -> f64;
    /// Whether the document is hidden (a tab in the background).
    fn hidden(&self) -> bool;
    /// The page's next animation frame (a bounded wait).
    fn frame(&self) -> impl Future<Output = Result<(), ErrorBody>>;
}

/// Waits until the page has painted and its LCP is reported (or the wait is over); whether
/// the document was hidden. A page with nothing contentful to paint costs the whole wait.
pub async fn painted<P: Timeline + Painting>(page: &P, until: u64) -> Result<bool, ErrorBody> {
    let reports_lcp = page.supported().iter().any(|s| s == LCP);
    let hidden = page.hidden();
    let wait_ms = if hidden { 0.0 } else { LCP_WAIT_MS };
    let deadline = (until as f64).min(page.now_ms() + wait_ms);
    let mut frames = 0;
    loop {
        page.frame().await?;
        frames += 1;
        let painted = frames >= 2;
        let reported = !reports_lcp || !page.observed(LCP).is_empty();
        if painted && (reported || page.now_ms() >= deadline) {
            return Ok(hidden);
        }
    }
}

#[cfg(test)]
mod tests;
