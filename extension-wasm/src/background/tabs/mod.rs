//! The agents' window and tabs, the browser's side: opening ([`crate::trip::open`]) and
//! adopting the tabs agents' pages open ([`crate::trip::adopt`]), the window, its group and
//! closing ([`agents_window`]), navigating ([`crate::trip`]), waiting for loads, and the tab
//! events that end waits.

use std::sync::Arc;

use claudezilla_protocol::args::Container;
use claudezilla_protocol::{AgentId, ErrorBody, TabId};
use futures_util::future::LocalBoxFuture;
use futures_util::lock::{Mutex, OwnedMutexGuard};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::{now, persist, with_state};
use crate::agents_window::{
    self, CreateTab, CreateWindow, GroupLook, GroupTabs, NewWindow, Windows,
};
use crate::background_state::TabChange;
use crate::load::LoadWatch;
use crate::pool::{Opened, Pool};
use crate::trip::adopt::{self, Adopted, Adopter, MoveTo, NavigationTarget, OpenedTab};
use crate::trip::open::Opener;
use crate::web::{self, Tab, Window};

mod navigation;
mod opened;
mod waits;

pub use navigation::*;
pub use opened::click;
pub use waits::*;

thread_local! {
    /// Serialises "find or open the agents' window, then add a tab", so agents that start
    /// together share one window instead of opening one each.
    static WINDOW_LOCK: Arc<Mutex<()>> = Arc::new(Mutex::new(()));
}

#[derive(Serialize)]
pub(super) struct SetUrl<'a> {
    url: &'a str,
}

pub(super) use crate::trip::Loaded;

/// Opens `url` in a new tab owned by `agent`, in the agents' window (opening it if needed).
pub async fn create(
    agent: &AgentId,
    url: &str,
    container: Option<&Container>,
    budget_ms: u32,
) -> Loaded {
    super::config::check(agent, url)?;
    let jar = super::containers::jar_for(agent, container).await?;
    let opened = open(
        agent,
        url,
        jar.as_ref().map(|j| j.cookie_store_id.as_str()),
        budget_ms,
    )
    .await;
    let mut report = opened?;
    if let Some(jar) = jar {
        report.container = Some(jar.name);
    }
    Ok(report)
}

/// Opens an agent tab on `url` in cookie store `jar` (None: the user's) and waits for it.
pub(super) async fn open(agent: &AgentId, url: &str, jar: Option<&str>, budget_ms: u32) -> Loaded {
    let window = NewTab {
        agent,
        url,
        jar: jar.map(str::to_owned),
        started: web::now_ms(),
        budget_ms,
    };
    crate::trip::open::open(&window, url).await
}

/// Longest a tab given up on holds the agents' window.
const ABANDONED_TURN_MS: u32 = 10_000;

/// The browser's side of opening one agent tab on `url`, within one call's budget.
struct NewTab<'a> {
    agent: &'a AgentId,
    url: &'a str,
    /// The cookie store (None: the user's).
    jar: Option<String>,
    started: f64,
    budget_ms: u32,
}

impl Opener for NewTab<'_> {
    type Turn = OwnedMutexGuard<()>;
    type Creating = LocalBoxFuture<'static, Result<TabId, ErrorBody>>;
    type Tabs = TabTrip;

    fn mark(&self) -> u64 {
        with_state(|s| s.main_frames.mark())
    }

    fn turn(&self) -> impl Future<Output = Self::Turn> {
        WINDOW_LOCK.with(Arc::clone).lock_owned()
    }

    fn admit(&self) -> Result<(), ErrorBody> {
        with_state(|s| s.pool.hold(self.agent, now()))
    }

    fn create(&self) -> Self::Creating {
        let jar = self.jar.clone();
        let agent = self.agent.clone();
        Box::pin(async move {
            let tab = agents_window::open_tab(&InBrowser, crate::load::BLANK, jar.as_deref()).await;
            if tab.is_err() {
                with_state(|s| s.pool.let_go(&agent));
            }
            tab
        })
    }

    async fn adopt(&self, tab: TabId) {
        // The allowlist's blocking listener sees (and can cancel) a redirect of the tab's very
        // first load, and that load is marked as an agent's (load-time console and dialogs kept).
        with_state(|s| {
            s.pool
                .insert_held(tab, self.agent.clone(), self.url.to_owned());
            s.requests.claim(tab);
        });
        super::tabs_changed();
        persist::mark_tab(tab.0, self.agent).await;
    }

    fn abandon(&self, mut creating: Self::Creating, turn: Self::Turn) {
        let agent = self.agent.clone();
        wasm_bindgen_futures::spawn_local(async move {
            // A browser that never answers must not keep every agent from opening tabs.
            let created = web::with_deadline(ABANDONED_TURN_MS, &mut creating).await;
            drop(turn);
            let created = match created {
                Some(created) => created,
                None => creating.await,
            };
            // Its slot is kept until the tab comes (a failure gave it back already).
            if let Ok(tab) = created {
                with_state(|s| s.pool.let_go(&agent));
                let removed = web::tabs_remove(&JsValue::from(tab.0));
                web::call_logged(|| format!("close abandoned tab {tab}"), removed).await;
            }
        });
    }

    async fn group(&self, tab: TabId) {
        if let Some(window) = with_state(|s| s.pool.window) {
            agents_window::group(&InBrowser, tab, window).await;
        }
    }

    async fn loaded(&self, tab: TabId, watch: LoadWatch) -> Loaded {
        wait_loaded(tab, watch, self.started, self.budget_ms).await
    }

    fn tabs(&self, tab: TabId) -> TabTrip {
        TabTrip::new(tab, self.started, self.budget_ms)
    }

    async fn close(&self, tab: TabId) {
        if let Some(ours) = with_state(|s| s.pool.pool_tab(tab))
            && let Err(e) = agents_window::close(&InBrowser, ours).await
        {
            web::log(&format!(
                "cannot close tab {tab}, whose load was refused: {}",
                e.message
            ));
        }
    }

    fn timer(&self, ms: u32) -> impl Future<Output = ()> {
        web::sleep(ms)
    }

    fn left_ms(&self) -> f64 {
        crate::tab_wait::left(self.budget_ms, self.started, web::now_ms())
    }
}

/// The browser's side of the agents' window ([`agents_window`]).
pub(super) struct InBrowser;

impl Windows for InBrowser {
    type Turn = OwnedMutexGuard<()>;

    fn pool<R>(&self, f: impl FnOnce(&mut Pool) -> R) -> R {
        with_state(|s| f(&mut s.pool))
    }

    fn changed(&self) {
        super::tabs_changed();
    }

    fn private(&self) -> bool {
        with_state(|s| s.private_windows)
    }

    async fn window_alive(&self, window: u32) -> bool {
        web::call(web::windows_get(window)).await.is_ok()
    }

    async fn create_tab(&self, props: &CreateTab<'_>) -> Result<TabId, ErrorBody> {
        let tab: Tab = web::call_as(web::tabs_create(&web::to_js(props))).await?;
        Ok(TabId(tab.id))
    }

    async fn create_window(&self, props: &CreateWindow<'_>) -> Result<NewWindow, ErrorBody> {
        let window: Window = web::call_as(web::windows_create(&web::to_js(props))).await?;
        let first_tab = window.tabs.first().map(|t| TabId(t.id));
        Ok(NewWindow {
            id: window.id,
            first_tab,
        })
    }

    async fn mark_window(&self, window: u32) {
        persist::mark_window(window).await;
    }

    async fn group(&self, request: &GroupTabs) -> Option<u32> {
        let grouped = web::call(web::tabs_group(&web::to_js(request))).await;
        grouped.ok()?.as_f64().map(|g| g as u32)
    }

    async fn style_group(&self, group: u32, look: &GroupLook) {
        let styled = web::tab_groups_update(group, &web::to_js(look));
        web::call_logged(|| format!("style tab group {group}"), styled).await;
    }

    async fn remove_tab(&self, tab: TabId) -> Result<(), ErrorBody> {
        web::call(web::tabs_remove(&JsValue::from(tab.0))).await?;
        Ok(())
    }

    async fn remove_tabs(&self, tabs: &[TabId]) {
        let ids: js_sys::Array = tabs.iter().map(|t| JsValue::from(t.0)).collect();
        let what = || {
            let named: Vec<String> = tabs.iter().map(TabId::to_string).collect();
            format!("close tabs {}", named.join(", "))
        };
        web::call_logged(what, web::tabs_remove(&ids)).await;
    }

    async fn remove_window(&self, window: u32) {
        web::call_logged(
            || format!("close window {window}"),
            web::windows_remove(window),
        )
        .await;
    }

    fn turn(&self) -> impl Future<Output = Self::Turn> {
        WINDOW_LOCK.with(Arc::clone).lock_owned()
    }

    async fn within<T>(&self, ms: u32, work: impl Future<Output = T>) -> Option<T> {
        web::with_deadline(ms, work).await
    }
}

/// Wires the browser's tab and window events into the pool and the load waiters.
pub fn listen() {
    let on_updated = Closure::<dyn FnMut(u32, JsValue, JsValue)>::new(on_updated);
    web::TABS_ON_UPDATED.with(|e| e.add_listener(on_updated.as_ref().unchecked_ref()));
    on_updated.forget();
    let on_removed = Closure::<dyn FnMut(u32)>::new(|tab: u32| {
        with_state(|s| s.tab_removed(TabId(tab)));
        super::tabs_changed();
    });
    web::TABS_ON_REMOVED.with(|e| e.add_listener(on_removed.as_ref().unchecked_ref()));
    on_removed.forget();
    let on_created = Closure::<dyn FnMut(JsValue)>::new(|tab: JsValue| {
        if let Ok(tab) = serde_wasm_bindgen::from_value::<Tab>(tab)
            && let Some((tab, opener)) = adopt::created(tab)
        {
            wasm_bindgen_futures::spawn_local(
                async move { adopt::adopt(&Browser, tab, opener).await },
            );
        }
    });
    web::TABS_ON_CREATED.with(|e| e.add_listener(on_created.as_ref().unchecked_ref()));
    on_created.forget();
    let on_target = Closure::<dyn FnMut(JsValue)>::new(|target: JsValue| {
        if let Ok(target) = serde_wasm_bindgen::from_value::<NavigationTarget>(target) {
            wasm_bindgen_futures::spawn_local(async move {
                adopt::navigation_target(&Browser, target).await;
            });
        }
    });
    web::NAVIGATION_TARGET_CREATED.with(|e| e.add_listener(on_target.as_ref().unchecked_ref()));
    on_target.forget();
    let on_window_removed = Closure::<dyn FnMut(u32)>::new(|window: u32| {
        with_state(|s| s.pool.window_closed(window));
        super::tabs_changed();
    });
    web::WINDOWS_ON_REMOVED.with(|e| e.add_listener(on_window_removed.as_ref().unchecked_ref()));
    on_window_removed.forget();
}

/// The pool and the browser, as taking an opened tab in asks them.
struct Browser;

impl Adopter for Browser {
    fn opened_from(&self, tab: TabId, opener: TabId) -> Option<Opened> {
        with_state(|s| {
            (!s.pool.contains(tab))
                .then(|| s.pool.opened_from(opener))
                .flatten()
        })
    }

    async fn look(&self, tab: TabId) -> Option<Tab> {
        web::call_as(web::tabs_get(tab.0)).await.ok()
    }

    fn admit(&self, owner: &AgentId) -> Result<(), ErrorBody> {
        with_state(|s| s.pool.admit(owner, now()))
    }

    async fn close(&self, tab: TabId) {
        let removed = web::tabs_remove(&JsValue::from(tab.0));
        web::call_logged(
            || format!("close tab {tab}, opened past its agent's share"),
            removed,
        )
        .await;
    }

    fn take(&self, tab: &OpenedTab, owner: &AgentId) {
        with_state(|s| {
            s.pool.insert(tab.id, owner.clone(), tab.url.clone());
            s.requests.claim(tab.id);
        });
    }

    fn tell_click(&self, opener: TabId, adopted: &Adopted) -> bool {
        with_state(|s| s.tell_click(opener, adopted))
    }

    fn changed(&self) {
        super::tabs_changed();
    }

    async fn mark(&self, tab: TabId, owner: &AgentId) {
        persist::mark_tab(tab.0, owner).await;
    }

    fn window(&self) -> Option<u32> {
        with_state(|s| s.pool.window)
    }

    async fn move_to(&self, tab: TabId, window_id: u32) {
        let to = web::to_js(&MoveTo::end_of(window_id));
        let what = || format!("move tab {tab} to the agents' window {window_id}");
        web::call_logged(what, web::tabs_move(tab.0, &to)).await;
    }

    async fn group(&self, tab: TabId, window: u32) {
        agents_window::group(&InBrowser, tab, window).await;
    }

    fn notify(&self, agent: &AgentId, text: String) {
        super::outbox::notify(agent, text);
    }
}

pub(super) fn on_updated(tab: u32, change: JsValue, state: JsValue) {
    let change: TabChange = serde_wasm_bindgen::from_value(change).unwrap_or_default();
    let Ok(state) = serde_wasm_bindgen::from_value::<Tab>(state) else {
        return;
    };
    with_state(|s| s.tab_updated(TabId(tab), change, &state, web::now_ms, web::precise_ms));
}
