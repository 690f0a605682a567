//! The agents' window and tabs: opening, navigating, closing, and waiting for loads.

use std::sync::Arc;

use claudezilla_protocol::args::Container;
use claudezilla_protocol::reply;
use claudezilla_protocol::{AgentId, ErrorBody, ErrorCode, TabId};
use futures_util::future::LocalBoxFuture;
use futures_util::lock::{Mutex, OwnedMutexGuard};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::{Shown, now, persist, with_state};
use crate::load::LoadWatch;
use crate::pool::{AuthorizedTab, Opened};
use crate::refusal::Refusal;
use crate::trip::adopt::{self, Adopted, Adopter, OpenedTab};
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
#[serde(rename_all = "camelCase")]
pub(super) struct CreateTab<'a> {
    window_id: u32,
    url: &'a str,
    active: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    cookie_store_id: Option<&'a str>,
}

/// A tab a clicked link opens, from the tab it was clicked in.
#[derive(Serialize)]
pub(super) struct CreateWindow<'a> {
    url: &'a str,
    incognito: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    cookie_store_id: Option<&'a str>,
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
            let tab = open_tab(crate::load::BLANK, jar.as_deref()).await;
            if tab.is_err() {
                with_state(|s| s.pool.let_go(&agent));
            }
            Ok(TabId(tab?.id))
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
                let _ = web::call(web::tabs_remove(&JsValue::from(tab.0))).await;
            }
        });
    }

    async fn group(&self, tab: TabId) {
        if let Some(window) = with_state(|s| s.pool.window) {
            group(tab.0, window).await;
        }
    }

    async fn loaded(&self, tab: TabId, watch: LoadWatch) -> Loaded {
        wait_loaded(tab, watch, self.started, self.budget_ms).await
    }

    fn tabs(&self, tab: TabId) -> TabTrip {
        TabTrip::new(tab, self.started, self.budget_ms)
    }

    async fn close(&self, tab: TabId) {
        if let Some(ours) = with_state(|s| s.pool.pool_tab(tab)) {
            let _ = close(ours).await;
        }
    }

    fn timer(&self, ms: u32) -> impl Future<Output = ()> {
        web::sleep(ms)
    }

    fn left_ms(&self) -> f64 {
        crate::tab_wait::left(self.budget_ms, self.started, web::now_ms())
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct GroupTabs {
    tab_ids: [u32; 1],
    #[serde(skip_serializing_if = "Option::is_none")]
    group_id: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    create_properties: Option<InWindow>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct InWindow {
    window_id: u32,
}

#[derive(Serialize)]
pub(super) struct GroupLook {
    title: &'static str,
    color: &'static str,
}

/// Puts the tab in the "Claudezilla" tab group where the browser has tab groups; elsewhere
/// (or if grouping fails) the dedicated window alone keeps agents' tabs together.
pub(super) async fn group(tab: u32, window_id: u32) {
    let known = with_state(|s| s.pool.group);
    let request = GroupTabs {
        tab_ids: [tab],
        group_id: known,
        create_properties: known.is_none().then_some(InWindow { window_id }),
    };
    let Ok(promise) = web::tabs_group(&web::to_js(&request)) else {
        return;
    };
    let Ok(group) = web::call(promise).await else {
        return;
    };
    let Some(group) = group.as_f64().map(|g| g as u32) else {
        return;
    };
    if known != Some(group) {
        with_state(|s| s.pool.group = Some(group));
        if let Ok(p) = web::tab_groups_update(
            group,
            &web::to_js(&GroupLook {
                title: "Claudezilla",
                color: "orange",
            }),
        ) {
            let _ = web::call(p).await;
        }
    }
}

pub(super) async fn open_tab(url: &str, jar: Option<&str>) -> Result<Tab, ErrorBody> {
    let window = with_state(|s| s.pool.window);
    if let Some(window_id) = window
        && web::call(web::windows_get(window_id)).await.is_ok()
    {
        // Not activated: the active tab changes only for screenshots, under their lock.
        let props = CreateTab {
            window_id,
            url,
            active: false,
            cookie_store_id: jar,
        };
        match web::call_as(web::tabs_create(&web::to_js(&props))).await {
            // The window closed meanwhile (another agent's last tabs went): open a new one.
            Err(e) if Refusal::of(&e.message) == Refusal::WindowGone => {}
            created => return created,
        }
    }
    let incognito = with_state(|s| s.private_windows);
    let window: Window = web::call_as(web::windows_create(&web::to_js(&CreateWindow {
        url,
        incognito,
        cookie_store_id: jar,
    })))
    .await?;
    with_state(|s| s.pool.window_opened(window.id));
    persist::mark_window(window.id).await;
    window
        .tabs
        .into_iter()
        .next()
        .ok_or_else(|| ErrorBody::new(ErrorCode::Browser, "the new window has no tab"))
}

/// Closes an agent tab; an attached tab is the user's and is refused.
pub async fn close(tab: AuthorizedTab) -> Result<reply::Closed, ErrorBody> {
    let tab = tab.id();
    if with_state(|s| s.pool.is_attached(tab)) {
        return Err(ErrorBody::new(
            ErrorCode::Ownership,
            format!("Cannot close tab {tab}: it is the user's tab, attached"),
        )
        .with_hint("give it back with firefox_detach_tab; it stays open"));
    }
    with_state(|s| s.pool.remove(tab));
    web::call(web::tabs_remove(&JsValue::from(tab.0)))
        .await
        .map_err(|e| crate::tab_wait::gone(tab, e))?;
    Ok(reply::Closed { tab_id: tab })
}

/// Closes the agents' window, if only `agent`'s tabs are in it.
pub async fn close_window(agent: &AgentId) -> Result<reply::WindowClosed, ErrorBody> {
    let (window, others) = with_state(|s| (s.pool.window, s.pool.others_tabs(agent)));
    if others > 0 {
        return Err(window_in_use(others));
    }
    let Some(window) = window else {
        return Ok(reply::WindowClosed { tabs_closed: 0 });
    };
    let closed = with_state(|s| s.pool.window_closed(window)).len() as u32;
    super::tabs_changed();
    let _ = web::call(web::windows_remove(window)).await;
    Ok(reply::WindowClosed {
        tabs_closed: closed,
    })
}

/// The refusal for closing the window while others work in it.
pub fn window_in_use(others: usize) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::Ownership,
        format!("Cannot close the agent window: {others} tab(s) in it belong to other agents"),
    )
    .with_hint("close your own tabs with firefox_close_tab instead")
}

/// Closes tabs that were already taken out of the pool; tabs already gone are fine.
pub async fn remove_all(tabs: &[TabId]) {
    if tabs.is_empty() {
        return;
    }
    let ids = js_sys::Array::new();
    for tab in tabs {
        ids.push(&JsValue::from(tab.0));
    }
    // Under the window lock: a tab being opened meanwhile must not land in a window that
    // closes with these tabs. A holder may keep the turn for its whole call (up to minutes):
    // past a while these close without it, rather than hold up idle release, which runs this.
    let turn = web::with_deadline(REMOVE_TURN_MS, WINDOW_LOCK.with(Arc::clone).lock_owned()).await;
    let _ = web::with_deadline(REMOVE_MS, web::call(web::tabs_remove(&ids))).await;
    drop(turn);
    // A window whose last agent tabs went closes: forget it now.
    with_state(|s| s.pool.forget_window_if_empty());
}

/// Longest [`remove_all`] waits for the window's turn, then for the browser to close the tabs.
const REMOVE_TURN_MS: u32 = 15_000;
const REMOVE_MS: u32 = 10_000;

/// Wires the browser's tab and window events into the pool and the load waiters.
pub fn listen() {
    let on_updated = Closure::<dyn FnMut(u32, JsValue, JsValue)>::new(on_updated);
    web::TABS_ON_UPDATED.with(|e| e.add_listener(on_updated.as_ref().unchecked_ref()));
    on_updated.forget();
    let on_removed = Closure::<dyn FnMut(u32)>::new(|tab: u32| {
        with_state(|s| {
            // Dropping the senders tells waiters the tab is gone.
            s.waiters.remove(&TabId(tab));
            s.main_frame_waiters.remove(&TabId(tab));
            s.title_waiters.remove(&TabId(tab));
            s.refused_frames.remove(&TabId(tab));
            s.frames.forget(TabId(tab));
            s.network.forget(TabId(tab));
            s.requests.forget(TabId(tab));
            s.console_tabs.remove(&TabId(tab));
            s.body_tabs.remove(&TabId(tab));
            s.blocked.remove(&TabId(tab));
            s.main_frames.forget(TabId(tab));
            s.page_notes.remove(&TabId(tab));
            s.pool.remove(TabId(tab));
        });
        super::tabs_changed();
    });
    web::TABS_ON_REMOVED.with(|e| e.add_listener(on_removed.as_ref().unchecked_ref()));
    on_removed.forget();
    let on_created = Closure::<dyn FnMut(JsValue)>::new(|tab: JsValue| {
        if let Ok(tab) = serde_wasm_bindgen::from_value::<Tab>(tab)
            && let Some(opener) = tab.opener_tab_id.map(TabId)
        {
            wasm_bindgen_futures::spawn_local(adopt_opened(tab, opener));
        }
    });
    web::TABS_ON_CREATED.with(|e| e.add_listener(on_created.as_ref().unchecked_ref()));
    on_created.forget();
    let on_target = Closure::<dyn FnMut(JsValue)>::new(|target: JsValue| {
        if let Ok(target) = serde_wasm_bindgen::from_value::<NavigationTarget>(target) {
            wasm_bindgen_futures::spawn_local(adopt_popup(target));
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

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct MoveTo {
    window_id: u32,
    index: i32,
}

/// `webNavigation.onCreatedNavigationTarget`: a tab or window made for a page's navigation.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct NavigationTarget {
    source_tab_id: u32,
    tab_id: u32,
}

/// A popup window a page opened (`window.open` with window features): Firefox gives its tab
/// no opener, so only the navigation's source says whose page opened it.
async fn adopt_popup(target: NavigationTarget) {
    // Gone already, or with an opener (adopted when it was created).
    let Ok(tab) = web::call_as::<Tab>(web::tabs_get(target.tab_id)).await else {
        return;
    };
    if tab.opener_tab_id.is_none() {
        adopt_opened(tab, TabId(target.source_tab_id)).await;
    }
}

/// A tab opened by an agent's page becomes the agent's (`crate::trip::adopt`).
pub(super) async fn adopt_opened(tab: Tab, opener: TabId) {
    let opened = OpenedTab {
        id: TabId(tab.id),
        url: tab.url,
        window: tab.window_id,
    };
    adopt::adopt(&Browser, opened, opener).await;
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

    fn admit(&self, owner: &AgentId) -> Result<(), ErrorBody> {
        with_state(|s| s.pool.admit(owner, now()))
    }

    async fn close(&self, tab: TabId) {
        let _ = web::call(web::tabs_remove(&JsValue::from(tab.0))).await;
    }

    fn take(&self, tab: &OpenedTab, owner: &AgentId) {
        with_state(|s| {
            s.pool.insert(tab.id, owner.clone(), tab.url.clone());
            s.requests.claim(tab.id);
        });
    }

    fn tell_click(&self, opener: TabId, adopted: &Adopted) -> bool {
        with_state(|s| opened::heard(s, opener, adopted))
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
        let to = web::to_js(&MoveTo {
            window_id,
            index: -1,
        });
        let _ = web::call(web::tabs_move(tab.0, &to)).await;
    }

    async fn group(&self, tab: TabId, window: u32) {
        group(tab.0, window).await;
    }

    fn notify(&self, agent: &AgentId, text: String) {
        super::outbox::notify(agent, text);
    }
}

#[derive(serde::Deserialize, Default)]
pub(super) struct ChangeInfo {
    status: Option<String>,
    url: Option<String>,
    title: Option<String>,
}

pub(super) fn on_updated(tab: u32, change: JsValue, state: JsValue) {
    let tab = TabId(tab);
    let change: ChangeInfo = serde_wasm_bindgen::from_value(change).unwrap_or_default();
    let Ok(state) = serde_wasm_bindgen::from_value::<Tab>(state) else {
        return;
    };
    if change.status.as_deref() == Some("complete") {
        with_state(|s| s.network.loaded(tab, web::now_ms()));
    }
    with_state(|s| {
        s.pool
            .update_page(tab, change.url.clone(), change.title.clone())
    });
    if let Some(title) = &change.title {
        waits::titled(tab, title, &state.url);
    }
    let shown = Shown {
        url: state.url.clone(),
        title: state.title.clone(),
    };
    wake(
        tab,
        change.status.as_deref(),
        change.url.as_deref(),
        &state.status,
        shown,
    );
}
