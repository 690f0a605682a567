//! `firefox_performance`: the page's entries, read by the content script. With a fresh load the
//! tab is shown while it loads (a tab that is not the active tab of its window paints nothing,
//! so it has no Largest Contentful Paint), then the window's active tab is given back.

use claudezilla_protocol::args::NavAction;
use claudezilla_protocol::envelope::PageOp;
use claudezilla_protocol::reply::PagePerformance;
use claudezilla_protocol::reply::Showing;
use claudezilla_protocol::{ErrorBody, TabId};
use futures_util::lock::Mutex;
use serde::Serialize;

use super::{content, tabs, with_state};
use crate::perf::{self, ShowPlan, TabPlace};
use crate::pool::AuthorizedTab;
use crate::web::{self, Tab};

thread_local! {
    /// One tab shown at a time: two measurements must not take the window from each other.
    static SHOWING: std::rc::Rc<Mutex<()>> = std::rc::Rc::new(Mutex::new(()));
}

#[derive(Serialize)]
struct Activate {
    active: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ActiveIn {
    window_id: u32,
    active: bool,
}

pub async fn measure(
    tab: AuthorizedTab,
    reload: bool,
    until: u64,
    budget_ms: u32,
) -> Result<Box<PagePerformance>, ErrorBody> {
    if !reload {
        return content::answer(tab, 0, until, PageOp::Performance, budget_ms).await;
    }
    let lock = SHOWING.with(|l| l.clone());
    let _turn = lock.lock().await;
    let shown = show(tab.id()).await;
    let measured = reload_and_read(tab, until, budget_ms).await;
    let showing = match shown {
        Ok(earlier) => Showing::Shown {
            restored: give_back(earlier).await,
        },
        Err(left) => left,
    };
    let mut report = measured?;
    report.showing = showing;
    Ok(report)
}

async fn reload_and_read(
    tab: AuthorizedTab,
    until: u64,
    budget_ms: u32,
) -> Result<Box<PagePerformance>, ErrorBody> {
    let started = web::now_ms();
    tabs::navigate(tab, None, Some(NavAction::Reload), budget_ms).await?;
    let left = (f64::from(budget_ms) - (web::now_ms() - started)).max(1_000.0) as u32;
    content::answer(tab, 0, until, PageOp::Performance, left).await
}

/// Shows the tab if the plan allows: the window's earlier active tab, to give back after.
/// Otherwise what was left as it was, and why.
async fn show(tab: TabId) -> Result<Option<u32>, Showing> {
    let found = web::call_as::<Tab>(web::tabs_get(tab.0))
        .await
        .map_err(|e| not_shown(format!("Firefox did not say where it is: {}", e.message)))?;
    let place = with_state(|s| TabPlace {
        active: found.active,
        attached: s.pool.is_attached(tab),
        in_agents_window: s.pool.window == Some(found.window_id),
    });
    match perf::show_plan(place) {
        ShowPlan::AlreadyShown => return Err(Showing::AlreadyShown),
        ShowPlan::Leave(why) => return Err(not_shown(why.into())),
        ShowPlan::Show => {}
    }
    let query = ActiveIn {
        window_id: found.window_id,
        active: true,
    };
    let earlier: Vec<Tab> = web::call_as(web::tabs_query(&web::to_js(&query)))
        .await
        .unwrap_or_default();
    activate(tab.0).await.map_err(|e| {
        not_shown(format!(
            "Firefox refused to make it the active tab: {}",
            e.message
        ))
    })?;
    Ok(earlier.first().map(|t| t.id))
}

fn not_shown(why: String) -> Showing {
    Showing::NotShown { why }
}

/// Makes the window's earlier active tab active again, if it is still there.
async fn give_back(tab: Option<u32>) -> Option<u32> {
    let tab = tab?;
    activate(tab).await.ok().map(|()| tab)
}

async fn activate(tab: u32) -> Result<(), claudezilla_protocol::ErrorBody> {
    web::call(web::tabs_update(
        tab,
        &web::to_js(&Activate { active: true }),
    ))
    .await
    .map(|_| ())
}
