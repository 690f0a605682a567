//! The browser's side of the load and title waits (`TabWatch`, `Titles`), and the page's own
//! word that it loaded; the waiters are kept and woken in [`crate::background_state`].

use claudezilla_protocol::{ErrorBody, TabId};
use futures_channel::oneshot;

use crate::background::with_state;
use crate::load::LoadWatch;
use crate::page_title::Titles;
use crate::tab_wait::{self, Budget, Heard, Look, Shown, TabWatch, Waited};
use crate::web::{self, Tab};

use super::*;

/// Registers a waiter for `tab`; its receiver completes when the watch is satisfied.
pub(super) fn watch(tab: TabId, watch: LoadWatch) -> oneshot::Receiver<Heard> {
    with_state(|s| s.watch(tab, watch))
}

/// Waits for `load` of `tab` within a budget of `budget_ms` from `started` (`web::now_ms`).
pub(super) async fn wait_loaded(
    tab: TabId,
    load: LoadWatch,
    started: f64,
    budget_ms: u32,
) -> Loaded {
    let asked_at = web::precise_ms();
    let budget = Budget {
        started,
        ms: budget_ms,
    };
    tab_wait::loaded(&OneTab::new(tab), load, asked_at, budget).await
}

/// One tab waited on.
pub(super) struct OneTab {
    tab: TabId,
}

impl OneTab {
    pub(super) fn new(tab: TabId) -> Self {
        Self { tab }
    }
}

impl TabWatch for OneTab {
    type Waiter = oneshot::Receiver<Heard>;

    fn tab(&self) -> TabId {
        self.tab
    }

    fn watch(&self, load: LoadWatch) -> Self::Waiter {
        watch(self.tab, load)
    }

    async fn look(&self) -> Result<Look, ErrorBody> {
        let now: Tab = web::call_as(web::tabs_get(self.tab.0)).await?;
        Ok(Look {
            shown: Shown {
                url: now.url,
                title: now.title,
            },
            status: now.status,
        })
    }

    async fn wait(&self, waiter: Self::Waiter, ms: u32) -> Waited {
        match web::with_deadline(ms, waiter).await {
            Some(Ok(heard)) => Waited::Heard(heard),
            Some(Err(_)) => Waited::Closed,
            None => Waited::Out,
        }
    }

    fn refused(&self) -> Option<ErrorBody> {
        with_state(|s| s.blocked.remove(&self.tab))
    }

    fn seen(&self, page: &Shown) {
        with_state(|s| {
            s.pool
                .update_page(self.tab, Some(page.url.clone()), Some(page.title.clone()))
        });
    }
}

/// Ends the waits for a load of `tab` that became a download (`State::settle_loads`).
pub fn settle(tab: TabId) {
    with_state(|s| s.settle_loads(tab, web::precise_ms));
}

/// An agent tab's top document loaded, in its own word (`early.js`): a real response, heard
/// before the tab's "complete" and the network's events. The waits for its load end now.
pub fn page_loaded(tab: TabId, url: String, title: &str) {
    with_state(|s| s.main_frames.shown(tab, &url));
    main_frame_heard(tab);
    let shown = Shown {
        title: crate::a11y::clean(title, crate::text::MAX_TITLE_CHARS),
        url: url.clone(),
    };
    with_state(|s| {
        s.wake(
            tab,
            Some("complete"),
            None,
            "complete",
            &shown,
            web::precise_ms,
        )
    });
}

/// The browser's side of finding one tab's own title ([`crate::page_title`]).
impl Titles for OneTab {
    type Update = oneshot::Receiver<String>;

    fn update(&self) -> Self::Update {
        with_state(|s| s.title_update(self.tab))
    }

    async fn shown(&self) -> Option<(String, String)> {
        let shown = self.look().await.ok()?.shown;
        Some((shown.title, shown.url))
    }

    async fn ask_page(&self, ms: u32) -> Option<String> {
        let script = web::to_js(&Probe {
            code: "document.title",
        });
        let asked = web::call(web::tabs_execute_script(self.tab.0, &script));
        let results = web::with_deadline(ms, asked).await?.ok()?;
        Some(
            js_sys::Array::from(&results)
                .get(0)
                .as_string()
                .unwrap_or_default(),
        )
    }

    async fn next(&self, update: Self::Update, ms: u32) -> Option<String> {
        web::with_deadline(ms, update).await?.ok()
    }

    fn now_ms(&self) -> f64 {
        web::now_ms()
    }
}
