//! `firefox_performance` carried out (`measure`): read as the tab is, or with a fresh load
//! the tab shown while it loads (a tab that is not the active tab of its window paints
//! nothing, so it has no Largest Contentful Paint) where [`show_plan`] allows, one tab shown
//! at a time, the window's earlier active tab given back after; the read keeps a second
//! whatever the load took. Written over [`Stage`]; `background/performance.rs` is the
//! browser's side.

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::reply::{PagePerformance, Showing};

use super::{ShowPlan, TabPlace, show_plan};

/// Least time the page's entries are read in after a fresh load, however long it took.
pub const READ_MS: f64 = 1_000.0;

/// What measuring a tab asks of the browser.
pub trait Stage {
    /// A turn at showing a tab: two measurements must not take the window from each other.
    type Turn;

    fn turn(&self) -> impl Future<Output = Self::Turn>;
    /// The tab's window and its place there; the browser's error when it did not say.
    fn place(&self) -> impl Future<Output = Result<(u32, TabPlace), ErrorBody>>;
    /// The active tab of `window` now, if any.
    fn active_in(&self, window: u32) -> impl Future<Output = Option<u32>>;
    /// Makes the measured tab the active tab of its window.
    fn show(&self) -> impl Future<Output = Result<(), ErrorBody>>;
    /// Makes `tab` the active tab of its window again.
    fn activate(&self, tab: u32) -> impl Future<Output = Result<(), ErrorBody>>;
    /// Reloads the tab and waits for its page within `budget_ms`.
    fn reload(&self, budget_ms: u32) -> impl Future<Output = Result<(), ErrorBody>>;
    /// The page's entries, read within `budget_ms`.
    fn read(&self, budget_ms: u32)
    -> impl Future<Output = Result<Box<PagePerformance>, ErrorBody>>;
    fn now_ms(&self) -> f64;
}

/// The page's performance, after a fresh load when `reload` asks, within `budget_ms`.
pub async fn measure<S: Stage>(
    s: &S,
    reload: bool,
    budget_ms: u32,
) -> Result<Box<PagePerformance>, ErrorBody> {
    if !reload {
        return s.read(budget_ms).await;
    }
    let _turn = s.turn().await;
    let shown = show_if_allowed(s).await;
    let measured = reload_and_read(s, budget_ms).await;
    let showing = match shown {
        Ok(earlier) => Showing::Shown {
            restored: give_back(s, earlier).await,
        },
        Err(left) => left,
    };
    let mut report = measured?;
    report.showing = showing;
    Ok(report)
}

async fn reload_and_read<S: Stage>(
    s: &S,
    budget_ms: u32,
) -> Result<Box<PagePerformance>, ErrorBody> {
    let started = s.now_ms();
    s.reload(budget_ms).await?;
    let left = (f64::from(budget_ms) - (s.now_ms() - started)).max(READ_MS) as u32;
    s.read(left).await
}

/// Shows the tab if the plan allows: the window's earlier active tab, to give back after.
/// Otherwise what was left as it was, and why.
async fn show_if_allowed<S: Stage>(s: &S) -> Result<Option<u32>, Showing> {
    let (window, place) = s
        .place()
        .await
        .map_err(|e| not_shown(format!("Firefox did not say where it is: {}", e.message)))?;
    match show_plan(place) {
        ShowPlan::AlreadyShown => return Err(Showing::AlreadyShown),
        ShowPlan::Leave(why) => return Err(not_shown(why.into())),
        ShowPlan::Show => {}
    }
    let earlier = s.active_in(window).await;
    s.show().await.map_err(|e| {
        not_shown(format!(
            "Firefox refused to make it the active tab: {}",
            e.message
        ))
    })?;
    Ok(earlier)
}

fn not_shown(why: String) -> Showing {
    Showing::NotShown { why }
}

/// Makes the window's earlier active tab active again, if it is still there.
async fn give_back<S: Stage>(s: &S, tab: Option<u32>) -> Option<u32> {
    let tab = tab?;
    s.activate(tab).await.ok().map(|()| tab)
}

#[cfg(test)]
mod tests;
