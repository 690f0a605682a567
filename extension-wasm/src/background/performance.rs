//! `firefox_performance`: the page's entries, read by the content script. With a fresh load the
//! tab is shown while it loads (a tab that is not the active tab of its window paints nothing,
//! so it has no Largest Contentful Paint), then the window's active tab is given back. The
//! flow is `crate::perf::measure`'s; this is the browser's side.

use std::sync::Arc;

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::args::NavAction;
use claudezilla_protocol::envelope::PageOp;
use claudezilla_protocol::reply::PagePerformance;
use futures_util::lock::{Mutex, OwnedMutexGuard};
use serde::Serialize;

use super::{content, tabs, with_state};
use crate::perf::TabPlace;
use crate::perf::measure::{self, Stage};
use crate::pool::AuthorizedTab;
use crate::web::{self, Tab};

thread_local! {
    /// One tab shown at a time: two measurements must not take the window from each other.
    static SHOWING: Arc<Mutex<()>> = Arc::new(Mutex::new(()));
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

/// `firefox_performance` on `tab` ([`measure::measure`]).
pub async fn measure(
    tab: AuthorizedTab,
    reload: bool,
    until: u64,
    budget_ms: u32,
) -> Result<Box<PagePerformance>, ErrorBody> {
    measure::measure(&Measured { tab, until }, reload, budget_ms).await
}

/// The tab measured and the browser, as measuring asks them.
struct Measured {
    tab: AuthorizedTab,
    until: u64,
}

impl Stage for Measured {
    type Turn = OwnedMutexGuard<()>;

    fn turn(&self) -> impl Future<Output = Self::Turn> {
        SHOWING.with(Arc::clone).lock_owned()
    }

    async fn place(&self) -> Result<(u32, TabPlace), ErrorBody> {
        let tab = self.tab.id();
        let found = web::call_as::<Tab>(web::tabs_get(tab.0)).await?;
        Ok(with_state(|s| {
            let place = TabPlace {
                active: found.active,
                attached: s.pool.is_attached(tab),
                in_agents_window: s.pool.window == Some(found.window_id),
            };
            (found.window_id, place)
        }))
    }

    async fn active_in(&self, window_id: u32) -> Option<u32> {
        let query = ActiveIn {
            window_id,
            active: true,
        };
        let earlier: Vec<Tab> = web::call_as(web::tabs_query(&web::to_js(&query)))
            .await
            .unwrap_or_default();
        earlier.first().map(|t| t.id)
    }

    async fn show(&self) -> Result<(), ErrorBody> {
        self.activate(self.tab.id().0).await
    }

    async fn activate(&self, tab: u32) -> Result<(), ErrorBody> {
        web::call(web::tabs_update(
            tab,
            &web::to_js(&Activate { active: true }),
        ))
        .await
        .map(|_| ())
    }

    async fn reload(&self, budget_ms: u32) -> Result<(), ErrorBody> {
        tabs::navigate(self.tab, None, Some(NavAction::Reload), budget_ms)
            .await
            .map(drop)
    }

    async fn read(&self, budget_ms: u32) -> Result<Box<PagePerformance>, ErrorBody> {
        content::answer(self.tab, 0, self.until, PageOp::Performance, budget_ms).await
    }

    fn now_ms(&self) -> f64 {
        web::now_ms()
    }
}
