//! The agents' window and tabs: opening, navigating, closing, and waiting for loads.

use claudezilla_protocol::args::{Container, NavAction};
use claudezilla_protocol::envelope::PageOp;
use claudezilla_protocol::reply::{LoadState, TabReport};
use claudezilla_protocol::{AgentId, ErrorBody, ErrorCode, Outcome, Reply, TabId};
use futures_channel::oneshot;
use futures_util::lock::Mutex;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::{Heard, LoadWaiter, Shown, now, persist, with_state};
use crate::load::{LoadWatch, Reached};
use crate::pool::AuthorizedTab;
use crate::web::{self, Tab, Window};

thread_local! {
    /// Serialises "find or open the agents' window, then add a tab", so agents that start
    /// together share one window instead of opening one each.
    static WINDOW_LOCK: std::rc::Rc<Mutex<()>> = std::rc::Rc::new(Mutex::new(()));
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CreateTab<'a> {
    window_id: u32,
    url: &'a str,
    active: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    cookie_store_id: Option<&'a str>,
}

#[derive(Serialize)]
struct CreateWindow<'a> {
    url: &'a str,
    incognito: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    cookie_store_id: Option<&'a str>,
}

#[derive(Serialize)]
struct SetUrl<'a> {
    url: &'a str,
}

/// Opens `url` in a new tab owned by `agent`, in the agents' window (opening it if needed).
pub async fn create(
    agent: &AgentId,
    url: &str,
    container: Option<&Container>,
    budget_ms: u32,
) -> Outcome {
    super::config::check(agent, url)?;
    let jar = super::containers::jar_for(agent, container).await?;
    let opened = open(
        agent,
        url,
        jar.as_ref().map(|j| j.cookie_store_id.as_str()),
        budget_ms,
    )
    .await;
    match (opened, jar) {
        (Ok(Reply::Tab(mut report)), Some(jar)) => {
            report.container = Some(jar.name);
            Ok(Reply::Tab(report))
        }
        (opened, _) => opened,
    }
}

/// Opens an agent tab on `url` in cookie store `jar` (None: the user's) and waits for it.
async fn open(agent: &AgentId, url: &str, jar: Option<&str>, budget_ms: u32) -> Outcome {
    // The tab joins the pool before it loads anything: the allowlist's blocking listener sees
    // (and can cancel) a redirect of its very first load, and its first page is marked as an
    // agent's from the start (load-time console and dialogs kept).
    let guarded = url != "about:blank";
    let first = if guarded { "about:blank" } else { url };
    let started = web::now_ms();
    let mark = with_state(|s| s.main_frames.mark());
    let tab = {
        let lock = WINDOW_LOCK.with(|l| l.clone());
        let _guard = lock.lock().await;
        with_state(|s| s.pool.admit(agent, now()))?;
        let tab = open_tab(first, jar)
            .await
            .map_err(|e| refine_url_error(e, url))?;
        with_state(|s| {
            s.pool.insert(TabId(tab.id), agent.clone(), url.to_owned());
            s.requests.claim(TabId(tab.id));
        });
        persist::mark_tab(tab.id, agent).await;
        tab
    };
    group(tab.id, tab.window_id).await;
    let tab = TabId(tab.id);
    if !guarded {
        let loaded = wait_loaded(tab, LoadWatch::new_tab(url), started, budget_ms).await;
        return arrived(tab, mark, Some(url), loaded).await;
    }
    wait_loaded(tab, LoadWatch::new_tab(first), started, budget_ms).await?;
    // Done when a page other than the first about:blank completes: the blank page's own late
    // events must not count.
    let load = LoadWatch::new_tab(url);
    let loaded = go_and_wait(tab, Some(url), None, load, started, budget_ms).await;
    if let Err(e) = &loaded
        && e.code != ErrorCode::LoadFailed
    {
        // Refused (a URL the browser will not open, the allowlist): the caller never learns
        // this tab's id, so it must not hold a slot. A failed load names its tab, which stays.
        if let Some(ours) = with_state(|s| s.pool.pool_tab(tab)) {
            let _ = close(ours).await;
        }
    }
    loaded
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct GroupTabs {
    tab_ids: [u32; 1],
    #[serde(skip_serializing_if = "Option::is_none")]
    group_id: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    create_properties: Option<InWindow>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InWindow {
    window_id: u32,
}

#[derive(Serialize)]
struct GroupLook {
    title: &'static str,
    color: &'static str,
}

/// Puts the tab in the "Claudezilla" tab group where the browser has tab groups; elsewhere
/// (or if grouping fails) the dedicated window alone keeps agents' tabs together.
async fn group(tab: u32, window_id: u32) {
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

async fn open_tab(url: &str, jar: Option<&str>) -> Result<Tab, ErrorBody> {
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
            Err(e) if e.message.contains("Invalid window ID") => {}
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
    with_state(|s| {
        s.pool.window = Some(window.id);
        s.pool.group = None;
    });
    persist::mark_window(window.id).await;
    window
        .tabs
        .into_iter()
        .next()
        .ok_or_else(|| ErrorBody::new(ErrorCode::Browser, "the new window has no tab"))
}

/// Loads `url` in `tab` and waits for it.
/// Loads `url` in `tab`, or goes back, forward or reloads, and waits for the page.
pub async fn navigate(
    tab: AuthorizedTab,
    url: Option<&str>,
    action: Option<NavAction>,
    budget_ms: u32,
) -> Outcome {
    let load = LoadWatch::navigation();
    go_and_wait(tab.id(), url, action, load, web::now_ms(), budget_ms).await
}

/// Starts the navigation, then waits until `load` is satisfied or the allowlist refuses it.
async fn go_and_wait(
    tab: TabId,
    url: Option<&str>,
    action: Option<NavAction>,
    load: LoadWatch,
    started: f64,
    budget_ms: u32,
) -> Outcome {
    let mut tries = 0;
    loop {
        let (mark, loaded) = go_once(tab, url, action, load, started, budget_ms).await?;
        // The page's own navigation cancelled or replaced ours: ask again (twice at most).
        let replaced = matches!(&loaded, Ok(Reply::Tab(r))
        if matches!(
            with_state(|s| s.main_frames.reached(tab, mark, url, &r.url)),
            Reached::Superseded | Reached::Elsewhere
        ));
        tries += 1;
        if !(replaced && url.is_some() && tries < 3) {
            return arrived(tab, mark, url, loaded).await;
        }
    }
}

/// One navigation and the wait for it: the mark its loads are counted from, and the outcome.
async fn go_once(
    tab: TabId,
    url: Option<&str>,
    action: Option<NavAction>,
    load: LoadWatch,
    started: f64,
    budget_ms: u32,
) -> Result<(u64, Outcome), ErrorBody> {
    with_state(|s| s.blocked.remove(&tab));
    let mark = with_state(|s| s.main_frames.mark());
    let done = watch(tab, load);
    let asked_at = web::precise_ms();
    let go = match (url, action) {
        (Some(url), _) => web::call(web::tabs_update(tab.0, &web::to_js(&SetUrl { url })))
            .await
            .map_err(|e| refine_url_error(e, url)),
        (None, Some(NavAction::Back)) => web::call(web::tabs_go_back(tab.0))
            .await
            .map_err(|e| no_history(e, "back")),
        (None, Some(NavAction::Forward)) => web::call(web::tabs_go_forward(tab.0))
            .await
            .map_err(|e| no_history(e, "forward")),
        (None, Some(NavAction::Reload)) => web::call(web::tabs_reload(tab.0)).await,
        (None, None) => Err(ErrorBody::new(
            ErrorCode::InvalidArgument,
            "give a url or an action",
        )),
    };
    go?;
    let mut loaded = finish_wait(tab, done, started, asked_at, budget_ms).await;
    // A page that navigates by itself may finish a load of its own before ours: wait on for
    // ours (a bounded number of times, within the budget).
    for _ in 0..MAX_LOADS_PASSED {
        if !still_coming(tab, mark, url, &loaded) {
            break;
        }
        let done = watch(tab, LoadWatch::NextComplete);
        // Ours may have finished while the last report was made: then there is no next one.
        loaded = report(tab, started, LoadState::Complete).await;
        if !still_coming(tab, mark, url, &loaded) {
            break;
        }
        loaded = finish_wait(tab, done, started, asked_at, budget_ms).await;
    }
    Ok((mark, loaded))
}

fn still_coming(tab: TabId, mark: u64, url: Option<&str>, loaded: &Outcome) -> bool {
    match loaded {
        Ok(Reply::Tab(r)) if r.load_state == LoadState::Complete => {
            with_state(|s| s.main_frames.reached(tab, mark, url, &r.url)) == Reached::Pending
        }
        _ => false,
    }
}

/// Loads of other pages a navigation waits past for its own.
const MAX_LOADS_PASSED: usize = 20;
/// How long a finished load waits for the network's word on it.
const ARRIVING_MS: f64 = 1_000.0;
/// How long a finished load of which no request was seen waits for one.
const UNREQUESTED_MS: f64 = 250.0;

/// Waits while `pending` holds, `ms` at most, looking again at each word from the network on
/// `tab`'s main-frame loads.
async fn while_unheard(tab: TabId, ms: f64, pending: impl Fn() -> bool) {
    let until = web::now_ms() + ms;
    while pending() {
        let news = main_frame_news(tab);
        let left = (until - web::now_ms()).max(0.0) as u32;
        if left == 0 || web::with_deadline(left, news).await.is_none() {
            return;
        }
    }
}

/// Checks a finished load against what was asked: a failed load (connection refused, unknown
/// host) is an error, not Firefox's error page reported as loaded; a page that moved on by
/// itself is said so, with where the tab is now.
async fn arrived(tab: TabId, mark: u64, asked: Option<&str>, loaded: Outcome) -> Outcome {
    let Ok(Reply::Tab(mut report)) = loaded else {
        return loaded;
    };
    // Judged by the tab's whole URL (a capped one is another page); answered capped.
    let full = std::mem::take(&mut report.url);
    report.url = crate::text::cap(&full, crate::text::MAX_URL_CHARS);
    if report.load_state != LoadState::Complete {
        return Ok(Reply::Tab(report));
    }
    let asked_text = asked.map_or("the page".into(), |a| {
        crate::text::cap(a, crate::text::MAX_URL_CHARS)
    });
    let reached = || with_state(|s| s.main_frames.reached(tab, mark, asked, &full));
    // The tab's "complete" may come before the network's word on the load: woken by that
    // word (an event, not a poll), for a second at most.
    while_unheard(tab, ARRIVING_MS, || reached() == Reached::Arriving).await;
    // No request seen yet: Firefox may tell of it a moment late, or never (an address it
    // refuses itself); a short wait for that word before asking the page.
    while_unheard(tab, UNREQUESTED_MS, || reached() == Reached::Unrequested).await;
    let mut reached = reached();
    // No request was seen: a page that takes our script is there (a same-document move);
    // Firefox's error page does not.
    if reached == Reached::Unrequested {
        reached = match scriptable(tab).await {
            true => Reached::Asked,
            false => Reached::Failed(crate::load::unrequested_error()),
        };
    }
    match reached {
        Reached::Asked | Reached::Arriving | Reached::Unrequested => {}
        Reached::Pending => {
            report.note = Some(format!(
                "the page keeps loading pages of its own; the load of {asked_text} had not arrived yet"
            ));
        }
        Reached::Failed(why) => {
            return Err(ErrorBody::new(
                ErrorCode::LoadFailed,
                format!("tab {tab} could not load {asked_text}: {why}"),
            )
            .with_hint(
                "check the address and that the server is running; the tab stays open (on Firefox's error page) for another firefox_navigate",
            ));
        }
        Reached::Stayed => {
            report.note = Some(format!(
                "{asked_text} did not replace the page, the tab stays at {}: the address is a download (firefox_downloads gets it) or an empty answer (HTTP 204)",
                report.url
            ));
        }
        Reached::Elsewhere | Reached::Superseded => {
            report.note = Some(format!(
                "the tab is at {} now, not at {asked_text}: the page navigated on by itself after the load (or another load replaced it)",
                report.url
            ));
        }
    }
    Ok(Reply::Tab(report))
}

/// Waits, `ms` at most, until the network has told how `tab`'s newest main-frame load
/// ended.
pub async fn main_frame_settled(tab: TabId, ms: f64) {
    while_unheard(tab, ms, || !with_state(|s| s.main_frames.settled(tab))).await;
}

/// Completes at the next word from the network on `tab`'s main-frame loads (or when the tab
/// goes).
fn main_frame_news(tab: TabId) -> oneshot::Receiver<()> {
    let (told, news) = oneshot::channel();
    with_state(|s| s.main_frame_waiters.entry(tab).or_default().push(told));
    news
}

/// The network spoke of a main-frame load of `tab` (it answered, failed or became a download):
/// wakes whoever waits for that word.
pub fn main_frame_heard(tab: TabId) {
    for told in with_state(|s| s.main_frame_waiters.remove(&tab)).unwrap_or_default() {
        let _ = told.send(());
    }
}

#[derive(Serialize)]
struct Probe {
    code: &'static str,
}

/// Does the tab's page take a content script (every web page does; an error page does not)?
async fn scriptable(tab: TabId) -> bool {
    let probe = web::to_js(&Probe { code: "0" });
    web::call(web::tabs_execute_script(tab.0, &probe))
        .await
        .is_ok()
}

fn no_history(e: ErrorBody, way: &str) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::PageError,
        format!("cannot go {way}: {}", e.message),
    )
    .with_hint("the tab has no page to go to in that direction")
}

/// Waits until the tab's URL matches `glob`, or `until` (ms since the epoch): checked at each
/// change of the tab's address, not polled.
pub async fn wait_for_url(tab: AuthorizedTab, glob: &str, until: u64) -> Outcome {
    let tab = tab.id();
    let started = web::now_ms();
    loop {
        // Watched before the look, so a change between the two is not missed.
        let changed = watch(tab, LoadWatch::UrlChange);
        let now: Tab = web::call_as(web::tabs_get(tab.0))
            .await
            .map_err(|e| gone(tab, e))?;
        let waited = (web::now_ms() - started) as u32;
        if crate::glob::matches(glob, &now.url) {
            return Ok(Reply::Waited {
                what: format!("the URL {} matches {glob:?}", now.url),
                waited_ms: waited,
            });
        }
        if web::now_ms() >= until as f64 {
            return Err(ErrorBody::new(ErrorCode::Timeout, format!("the URL is still {} after {waited} ms, not {glob:?}", now.url))
                .with_hint("* matches within one path part, ** anything; pass a larger timeout if the page is slow"));
        }
        let left = (until as f64 - web::now_ms()).max(0.0) as u32;
        if let Some(Err(_)) = web::with_deadline(left, changed).await {
            return Err(ErrorBody::new(
                ErrorCode::NoSuchTab,
                format!("tab {tab} was closed while waiting for its URL"),
            ));
        }
    }
}

/// Closes an agent tab; an attached tab is the user's and is refused.
pub async fn close(tab: AuthorizedTab) -> Outcome {
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
        .map_err(|e| gone(tab, e))?;
    Ok(Reply::Closed { tab_id: tab })
}

/// Closes the agents' window, if only `agent`'s tabs are in it.
pub async fn close_window(agent: &AgentId) -> Outcome {
    let (window, others) = with_state(|s| (s.pool.window, s.pool.others_tabs(agent)));
    if others > 0 {
        return Err(window_in_use(others));
    }
    let Some(window) = window else {
        return Ok(Reply::WindowClosed { tabs_closed: 0 });
    };
    let closed = with_state(|s| s.pool.window_closed(window)).len() as u32;
    let _ = web::call(web::windows_remove(window)).await;
    Ok(Reply::WindowClosed {
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
    // closes with these tabs.
    let lock = WINDOW_LOCK.with(|l| l.clone());
    let _guard = lock.lock().await;
    let _ = web::call(web::tabs_remove(&ids)).await;
    // A window whose last agent tabs went closes: forget it now, the next tab opens a new one.
    let emptied = with_state(|s| s.pool.tab_ids().into_iter().all(|t| s.pool.is_attached(t)));
    if emptied {
        with_state(|s| {
            s.pool.window = None;
            s.pool.group = None;
        });
    }
}

/// Registers a waiter for `tab`; its receiver completes when the watch is satisfied.
fn watch(tab: TabId, watch: LoadWatch) -> oneshot::Receiver<Heard> {
    let (done, rx) = oneshot::channel();
    with_state(|s| {
        s.waiters
            .entry(tab)
            .or_default()
            .push(LoadWaiter { watch, done })
    });
    rx
}

async fn wait_loaded(tab: TabId, load: LoadWatch, started: f64, budget_ms: u32) -> Outcome {
    let done = watch(tab, load);
    let asked_at = web::precise_ms();
    // The load may have finished before the waiter existed.
    let now: Tab = web::call_as(web::tabs_get(tab.0))
        .await
        .map_err(|e| gone(tab, e))?;
    if load.satisfied_by(&now.status, &now.url) {
        return report(tab, started, LoadState::Complete).await;
    }
    finish_wait(tab, done, started, asked_at, budget_ms).await
}

/// Waits for `done` within what is left of the budget and reports the tab; `asked_at`
/// (`web::precise_ms`) is when the browser was asked for the load, for the trace.
async fn finish_wait(
    tab: TabId,
    done: oneshot::Receiver<Heard>,
    started: f64,
    asked_at: f64,
    budget_ms: u32,
) -> Outcome {
    let left = (budget_ms as f64 - (web::now_ms() - started)).max(0.0) as u32;
    let waited = web::with_deadline(left, done).await;
    if let Some(refused) = with_state(|s| s.blocked.remove(&tab)) {
        return Err(refused);
    }
    match waited {
        Some(Ok(heard)) => {
            with_state(|s| {
                if let Some(t) = &mut s.trace {
                    t.load_us = ((heard.at - asked_at).max(0.0) * 1e3) as u64;
                }
            });
            report_seen(tab, started, LoadState::Complete, heard.page).await
        }
        Some(Err(_)) => Err(ErrorBody::new(
            ErrorCode::NoSuchTab,
            format!("tab {tab} was closed while loading"),
        )),
        None => report(tab, started, LoadState::Loading).await,
    }
}

async fn report(tab: TabId, started: f64, load_state: LoadState) -> Outcome {
    report_seen(tab, started, load_state, None).await
}

/// Reports the tab as `seen` by the event that ended the wait, or as the browser says now.
async fn report_seen(
    tab: TabId,
    started: f64,
    load_state: LoadState,
    seen: Option<Shown>,
) -> Outcome {
    let now = match seen {
        Some(seen) => seen,
        None => {
            let now: Tab = web::call_as(web::tabs_get(tab.0))
                .await
                .map_err(|e| gone(tab, e))?;
            Shown {
                url: now.url,
                title: now.title,
            }
        }
    };
    with_state(|s| {
        s.pool
            .update_page(tab, Some(now.url.clone()), Some(now.title.clone()))
    });
    Ok(Reply::Tab(TabReport {
        tab_id: tab,
        // Whole until `arrived` has judged it.
        url: now.url,
        title: now.title,
        load_state,
        waited_ms: (web::now_ms() - started) as u32,
        note: None,
        container: None,
    }))
}

fn gone(tab: TabId, e: ErrorBody) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::NoSuchTab,
        format!("tab {tab} is gone ({})", e.message),
    )
    .with_hint("firefox_get_tabs lists your open tabs")
}

/// Firefox refuses some URLs that pass our scheme check (e.g. file: from an extension).
fn refine_url_error(e: ErrorBody, url: &str) -> ErrorBody {
    if !(e.message.contains("Illegal URL") || e.message.contains("not allowed")) {
        return e;
    }
    let refused = ErrorBody::new(
        ErrorCode::BadUrl,
        format!("Firefox refused to open {url}: {}", e.message),
    );
    if url
        .get(..5)
        .is_some_and(|s| s.eq_ignore_ascii_case("file:"))
    {
        // Firefox lets no extension open file: pages (tabs.create/update refuse them).
        return refused.with_hint(
            "Firefox does not let extensions open file:// pages; serve the folder over http instead, \
             e.g. `python3 -m http.server 8000` there, then open http://127.0.0.1:8000/…",
        );
    }
    refused
}

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
            s.frames.remove(&TabId(tab));
            s.network.forget(TabId(tab));
            s.requests.forget(TabId(tab));
            s.console_tabs.remove(&TabId(tab));
            s.body_tabs.remove(&TabId(tab));
            s.blocked.remove(&TabId(tab));
            s.main_frames.forget(TabId(tab));
            s.page_notes.remove(&TabId(tab));
            s.pool.remove(TabId(tab));
        });
        super::intercept::sync();
    });
    web::TABS_ON_REMOVED.with(|e| e.add_listener(on_removed.as_ref().unchecked_ref()));
    on_removed.forget();
    let on_created = Closure::<dyn FnMut(JsValue)>::new(|tab: JsValue| {
        if let Ok(tab) = serde_wasm_bindgen::from_value::<Tab>(tab) {
            wasm_bindgen_futures::spawn_local(adopt_opened(tab));
        }
    });
    web::TABS_ON_CREATED.with(|e| e.add_listener(on_created.as_ref().unchecked_ref()));
    on_created.forget();
    let on_window_removed = Closure::<dyn FnMut(u32)>::new(|window: u32| {
        with_state(|s| s.pool.window_closed(window));
    });
    web::WINDOWS_ON_REMOVED.with(|e| e.add_listener(on_window_removed.as_ref().unchecked_ref()));
    on_window_removed.forget();
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MoveTo {
    window_id: u32,
    index: i32,
}

/// A tab opened by an agent's page (`window.open`, a `target=_blank` link) belongs to that
/// agent: it counts against the pool (over the limit it is closed), the agent hears of it in
/// its next answer, and it is closed with the agent's other tabs.
async fn adopt_opened(tab: Tab) {
    let Some(opener) = tab.opener_tab_id.map(TabId) else {
        return;
    };
    let id = TabId(tab.id);
    let Some((owner, attached_opener)) = with_state(|s| {
        let owner = s.pool.owner(opener)?.clone();
        (!s.pool.contains(id)).then(|| (owner, s.pool.is_attached(opener)))
    }) else {
        return;
    };
    if let Err(full) = with_state(|s| s.pool.admit(&owner, now())) {
        let _ = web::call(web::tabs_remove(&JsValue::from(tab.id))).await;
        super::native::notify(
            &owner,
            format!(
                "your page in tab {opener} opened a tab, which was closed: {}",
                full.message
            ),
        );
        return;
    }
    with_state(|s| {
        s.pool.insert(id, owner.clone(), tab.url.clone());
        s.requests.claim(id);
    });
    persist::mark_tab(tab.id, &owner).await;
    // Into the agents' window with the agent's other tabs (a popup window included); a tab
    // opened from one of the user's own tabs stays beside it.
    let window = with_state(|s| s.pool.window);
    if let Some(window_id) = window.filter(|w| !attached_opener && *w != tab.window_id) {
        let to = web::to_js(&MoveTo {
            window_id,
            index: -1,
        });
        let _ = web::call(web::tabs_move(tab.id, &to)).await;
    }
    if let Some(window_id) = window.filter(|_| !attached_opener) {
        group(tab.id, window_id).await;
    }
    super::native::notify(
        &owner,
        format!(
            "your page in tab {opener} opened tab {id}; it is yours (firefox_get_tabs lists it, firefox_close_tab closes it)"
        ),
    );
}

/// Starts the content script in every frame of an agent's freshly loaded page, then what the
/// agent asked for in every page: console capture, consent banners dismissed.
async fn after_load(tab: TabId) {
    let Some(tab) = with_state(|s| s.pool.pool_tab(tab)) else {
        return;
    };
    super::content::preload(tab).await;
    let until = now() + 5_000;
    super::devtools::restart_console(tab, until).await;
    if super::config::handles_consent(tab.id()) {
        let _ = super::content::send(tab, 0, until, PageOp::Consent, 5_000).await;
        // Many banners are added by a script a moment after the load.
        web::sleep(1_500).await;
        let _ = super::content::send(tab, 0, now() + 5_000, PageOp::Consent, 5_000).await;
    }
}

#[derive(serde::Deserialize, Default)]
struct ChangeInfo {
    status: Option<String>,
    url: Option<String>,
    title: Option<String>,
}

/// Ends the waits for a load of `tab` that will bring no new page (it became a download):
/// Firefox may not report the tab's load as finished then.
pub fn settle(tab: TabId) {
    let waiters = with_state(|s| s.waiters.remove(&tab)).unwrap_or_default();
    for w in waiters {
        let _ = w.done.send(Heard::now(None));
    }
}

fn on_updated(tab: u32, change: JsValue, state: JsValue) {
    let tab = TabId(tab);
    let change: ChangeInfo = serde_wasm_bindgen::from_value(change).unwrap_or_default();
    let Ok(state) = serde_wasm_bindgen::from_value::<Tab>(state) else {
        return;
    };
    if change.status.as_deref() == Some("complete") {
        with_state(|s| s.network.loaded(tab, web::now_ms()));
    }
    if change.status.as_deref() == Some("complete") && with_state(|s| s.pool.contains(tab)) {
        wasm_bindgen_futures::spawn_local(after_load(tab));
    }
    with_state(|s| {
        s.pool
            .update_page(tab, change.url.clone(), change.title.clone())
    });
    let now = (state.status.as_str(), state.url.as_str());
    let shown = Shown {
        url: state.url.clone(),
        title: state.title.clone(),
    };
    wake(
        tab,
        change.status.as_deref(),
        change.url.as_deref(),
        now,
        shown,
    );
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
    wake(tab, Some("complete"), None, ("complete", &url), shown);
}

/// Feeds a change of `tab` (`changed_*`; `now`: status and URL after it) to its load waiters,
/// ending those it satisfies; `seen` is the page as the event showed it.
fn wake(
    tab: TabId,
    changed_status: Option<&str>,
    changed_url: Option<&str>,
    (status, url): (&str, &str),
    seen: Shown,
) {
    with_state(|s| {
        let Some(waiters) = s.waiters.remove(&tab) else {
            return;
        };
        let mut pending = Vec::new();
        for mut w in waiters {
            if w.watch.on_update(changed_status, changed_url, status, url) {
                let _ = w.done.send(Heard::now(Some(seen.clone())));
            } else if !w.done.is_canceled() {
                pending.push(w);
            }
        }
        if !pending.is_empty() {
            s.waiters.insert(tab, pending);
        }
    });
}
