//! The background's state, and the rules of its bookkeeping: which waiters a tab's event
//! ends, what a tab that went takes with it, how many refused frames and page notes are kept,
//! whose notes an answer carries. No browser here: `background/mod.rs` holds the one
//! instance (`with_state`) and its events and calls feed it.

use std::collections::{HashMap, HashSet};

use claudezilla_protocol::envelope::{ContentRequest, PageOp, Tuning};
use claudezilla_protocol::reply::{Acted, Granted};
use claudezilla_protocol::{AgentId, ErrorBody, ErrorCode, TabId};
use futures_channel::oneshot;
use serde::Deserialize;

use crate::allowlist;
use crate::browser_tab::Tab;
use crate::capture_lock::{CaptureLock, Ticket};
use crate::load::{LoadWatch, placeholder_title};
use crate::pool::{Pool, Released};
use crate::tab_wait::{Heard, Shown};
use crate::trip::adopt::Adopted;

/// Someone waiting for a tab to finish loading.
pub struct LoadWaiter {
    pub watch: LoadWatch,
    pub done: oneshot::Sender<Heard>,
}

/// All the background keeps between events: the pool and what waits on its tabs, the logs and
/// records of pages, and the agents' and the user's settings.
#[derive(Default)]
pub struct State {
    pub pool: Pool,
    pub waiters: HashMap<TabId, Vec<LoadWaiter>>,
    pub capture: CaptureLock,
    /// Critical requests in flight per agent tab (readiness before screenshots).
    pub network: crate::network::Network,
    /// Per tab, the browser frame ids behind the frame aliases of refs.
    pub frames: crate::frame_alias::FrameAliases,
    /// Wakes a queued screenshot when its ticket is granted.
    pub capture_wakers: HashMap<Ticket, oneshot::Sender<()>>,
    pub tuning: Tuning,
    /// Each agent tab's network log.
    pub requests: crate::request_log::RequestLog,
    /// Tabs whose console is captured (restarted in each page they load).
    pub console_tabs: HashSet<TabId>,
    /// Each agent's allowlist and consent setting.
    pub configs: HashMap<AgentId, crate::agent_config::AgentConfig>,
    /// The user's allowlist from the popup (kept in the extension's storage); the
    /// environment's (`CLAUDEZILLA_ALLOWED_DOMAINS`, in `tuning`) stands before it.
    pub user_domains: Vec<String>,
    /// The popup's switch for `firefox_evaluate` (until Firefox restarts).
    pub evaluate_switch: bool,
    /// The popup's switch for `firefox_cookies` and `firefox_storage` (until Firefox restarts).
    pub storage_switch: bool,
    /// Agent tabs whose response bodies are captured (their agent asked: `includeBody`).
    pub body_tabs: HashSet<TabId>,
    /// Each agent's routes over its tabs' requests.
    pub routes: crate::request_routes::RouteTable,
    /// What agents did (the popup, `firefox_get_activity`).
    pub activity: crate::activity::Activity,
    /// The agents' downloads, and their tabs' recent page addresses (to tell whose a new one is).
    pub downloads: crate::downloads::Downloads,
    /// Each agent's own container, once it asked for one.
    pub containers: HashMap<AgentId, crate::jars::Jar>,
    /// Open the agents' window as a private window.
    pub private_windows: bool,
    /// A tab's load cancelled by its agent's allowlist, for the navigation waiting on it.
    pub blocked: HashMap<TabId, claudezilla_protocol::ErrorBody>,
    /// The frames of a tab's page kept from loading (the user's allowlist, the agent's own
    /// route), by frame id, with why: a read of that frame says so.
    pub refused_frames: HashMap<TabId, Vec<(u64, String)>>,
    pub loops: crate::focus_loop::Loops,
    /// Every tab's recent main-frame loads: did a navigation reach what was asked for?
    pub main_frames: crate::load::MainFrames,
    /// Who waits for the network's word on a tab's main-frame load (`tabs::arrived`).
    pub main_frame_waiters: HashMap<TabId, Vec<oneshot::Sender<()>>>,
    /// Waiting for a tab's title: Firefox may report a load complete before the page's title
    /// reached the tab, and tell of the title in a later update.
    pub title_waiters: HashMap<TabId, Vec<oneshot::Sender<String>>>,
    /// `firefox_downloads` calls waiting for a download to start or end.
    pub download_waiters: Vec<oneshot::Sender<()>>,
    /// Agents asking for the user's tabs, and who waits for each answer.
    pub approvals: crate::approvals::Approvals,
    pub approval_wakers: HashMap<u32, oneshot::Sender<bool>>,
    /// The user lets agents ask for tabs of private windows (popup switch).
    pub private_attach: bool,
    /// Tabs being clicked: where what became of the tabs their pages open meanwhile goes, to
    /// the click waiting for it (`tabs::click`).
    pub clicking:
        HashMap<TabId, futures_channel::mpsc::UnboundedSender<crate::trip::adopt::Adopted>>,
    /// What pages did during an operation (dialogs), for the answer of that operation.
    pub page_notes: HashMap<TabId, Vec<String>>,
    /// The secrets each agent has typed, which every frame of its tabs hides.
    pub typed: HashMap<AgentId, crate::hidden::Typed>,
}

/// A tab's load waiters, title waiters and network word, as its events end them.
impl State {
    /// Registers a waiter for `tab`'s load; its receiver completes when `watch` is satisfied.
    pub fn watch(&mut self, tab: TabId, watch: LoadWatch) -> oneshot::Receiver<Heard> {
        let (done, heard) = oneshot::channel();
        self.waiters
            .entry(tab)
            .or_default()
            .push(LoadWaiter { watch, done });
        heard
    }

    /// Feeds a change of `tab` (`changed_*`; `status` after it) to its load waiters, ending
    /// those it satisfies with `seen`, the page as the event showed it; `now` is the precise
    /// clock, read as each is told. Waiters whose wait ended otherwise go.
    pub fn wake(
        &mut self,
        tab: TabId,
        changed_status: Option<&str>,
        changed_url: Option<&str>,
        status: &str,
        seen: &Shown,
        now: impl Fn() -> f64,
    ) {
        let Some(waiters) = self.waiters.remove(&tab) else {
            return;
        };
        let mut pending = Vec::new();
        for mut w in waiters {
            if w.watch.on_update(changed_status, changed_url, status) {
                let _ = w.done.send(Heard {
                    at: now(),
                    page: Some(seen.clone()),
                });
            } else if !w.done.is_canceled() {
                pending.push(w);
            }
        }
        if !pending.is_empty() {
            self.waiters.insert(tab, pending);
        }
    }

    /// Completes at `tab`'s next title that is not a placeholder (or when the tab goes).
    pub fn title_update(&mut self, tab: TabId) -> oneshot::Receiver<String> {
        let (told, update) = oneshot::channel();
        let waiting = self.title_waiters.entry(tab).or_default();
        // Those whose wait ended another way go.
        waiting.retain(|w| !w.is_canceled());
        waiting.push(told);
        update
    }

    /// Firefox updated `tab`'s title (at `url`): a real one ends the waits for it.
    pub fn titled(&mut self, tab: TabId, title: &str, url: &str) {
        if placeholder_title(title, url) {
            return;
        }
        for told in self.title_waiters.remove(&tab).unwrap_or_default() {
            let _ = told.send(title.to_owned());
        }
    }

    /// Completes at the next word from the network on `tab`'s main-frame loads (or when the
    /// tab goes).
    pub fn main_frame_news(&mut self, tab: TabId) -> oneshot::Receiver<()> {
        let (told, news) = oneshot::channel();
        self.main_frame_waiters.entry(tab).or_default().push(told);
        news
    }

    /// The network spoke of a main-frame load of `tab`: wakes whoever waits for that word.
    pub fn main_frame_heard(&mut self, tab: TabId) {
        for told in self.main_frame_waiters.remove(&tab).unwrap_or_default() {
            let _ = told.send(());
        }
    }

    /// Ends the waits for a load of `tab` that will bring no new page (it became a download,
    /// or was refused): Firefox may not report the tab's load as finished then.
    /// `now` is the precise clock, read as each waiter is told.
    pub fn settle_loads(&mut self, tab: TabId, now: impl Fn() -> f64) {
        for waiter in self.waiters.remove(&tab).unwrap_or_default() {
            let _ = waiter.done.send(Heard {
                at: now(),
                page: None,
            });
        }
    }

    /// `tab` went: everything kept of it goes, and dropping its waiters' senders tells them.
    pub fn tab_removed(&mut self, tab: TabId) {
        self.waiters.remove(&tab);
        self.main_frame_waiters.remove(&tab);
        self.title_waiters.remove(&tab);
        self.refused_frames.remove(&tab);
        self.frames.forget(tab);
        self.network.forget(tab);
        self.requests.forget(tab);
        self.console_tabs.remove(&tab);
        self.body_tabs.remove(&tab);
        self.blocked.remove(&tab);
        self.main_frames.forget(tab);
        self.page_notes.remove(&tab);
        self.pool.remove(tab);
    }
}

/// Frames refused per tab that a read can name (more are refused, not named).
pub const MAX_REFUSED_FRAMES: usize = 16;

/// The allowlists, as the blocking listeners and the commands ask them.
impl State {
    /// The user's allowlist in force: the environment's, else the popup's (empty: no limit).
    pub fn user_list(&self) -> &[String] {
        allowlist::users(&self.tuning.allowed_domains, &self.user_domains)
    }

    /// Does the user's allowlist let agents' tabs load `url`?
    pub fn user_allows(&self, url: &str) -> bool {
        allowlist::allows(self.user_list(), url)
    }

    /// Why `agent`'s tab may not load `url`, if it may not ([`allowlist::refusal`]).
    pub fn refusal(&self, agent: &AgentId, url: &str) -> Option<ErrorBody> {
        let own = self
            .configs
            .get(agent)
            .map(|c| c.allowed_domains.as_slice());
        allowlist::refusal(self.user_list(), own, url)
    }

    /// The refusal of `load`, a top-level load, where it is an agent tab's
    /// ([`State::refuse_load`]); a load of any other tab is none of ours.
    pub fn refuse_top_load(&mut self, load: &Load, now: impl Fn() -> f64) -> Option<String> {
        let tab = self.agent_tab(load)?;
        self.refuse_load(tab, &load.url, now)
    }

    /// The refusal of `load`, a frame's, where it is an agent tab's
    /// ([`State::refuse_frame_load`]).
    pub fn refuse_frame_of(&mut self, load: &Load) -> Option<String> {
        let tab = self.agent_tab(load)?;
        self.refuse_frame_load(tab, load.frame_id, &load.url)
    }

    fn agent_tab(&self, load: &Load) -> Option<TabId> {
        let tab = TabId(u32::try_from(load.tab_id).ok()?);
        self.pool.contains(tab).then_some(tab)
    }

    /// A top-level load of agent tab `tab` begins: the frames refused in the old page go with
    /// it, and a load its agent's lists refuse is refused here for the navigation waiting on
    /// the tab (its waits ended; `now` as in [`State::settle_loads`]). The refusal's words, to
    /// cancel the load with.
    pub fn refuse_load(&mut self, tab: TabId, url: &str, now: impl Fn() -> f64) -> Option<String> {
        // A new page: the frames refused in the old one are gone with it.
        self.refused_frames.remove(&tab);
        let agent = self.pool.owner(tab)?.clone();
        let error = self.refusal(&agent, url)?;
        let message = error.message.clone();
        self.blocked.insert(tab, error);
        self.settle_loads(tab, now);
        Some(message)
    }

    /// A frame of agent tab `tab` the user's list keeps out, kept for a read of that frame to
    /// say why it is empty: the words to cancel its load with.
    pub fn refuse_frame_load(&mut self, tab: TabId, frame: u64, url: &str) -> Option<String> {
        let message = allowlist::frame_refusal(self.user_list(), url)?;
        self.refuse_frame(tab, frame, message.clone());
        Some(message)
    }

    /// Keeps why `frame` of `tab` was not loaded, for a read of that frame to say.
    pub fn refuse_frame(&mut self, tab: TabId, frame: u64, why: String) {
        let refused = self.refused_frames.entry(tab).or_default();
        if refused.len() < MAX_REFUSED_FRAMES {
            refused.push((frame, why));
        }
    }

    /// Why `frame` of `tab` was not loaded, if it was refused.
    pub fn refused_frame(&self, tab: TabId, frame: u64) -> Option<String> {
        let refused = self.refused_frames.get(&tab)?;
        refused
            .iter()
            .find(|(f, _)| *f == frame)
            .map(|(_, why)| why.clone())
    }

    /// Does the agent of `tab` have consent banners handled?
    pub fn handles_consent(&self, tab: TabId) -> bool {
        self.pool
            .owner(tab)
            .and_then(|o| self.configs.get(o))
            .is_some_and(|c| c.handle_consent)
    }
}

/// Page notes kept per tab until an answer carries them (the newest dropped past it).
pub const MAX_PAGE_NOTES: usize = 20;

/// What pages, captures, clicks and downloads leave for others to hear.
impl State {
    /// Keeps what `tab`'s page did during an operation for its answer, the first
    /// [`MAX_PAGE_NOTES`] at most.
    pub fn keep_notes(&mut self, tab: TabId, notes: Vec<String>) {
        if notes.is_empty() {
            return;
        }
        let kept = self.page_notes.entry(tab).or_default();
        kept.extend(notes);
        kept.truncate(MAX_PAGE_NOTES);
    }

    /// The notes of `agent`'s tabs' pages, taken.
    pub fn take_page_notes(&mut self, agent: &AgentId) -> Vec<String> {
        let tabs: Vec<TabId> = self
            .page_notes
            .keys()
            .filter(|t| self.pool.owner(**t) == Some(agent))
            .copied()
            .collect();
        tabs.into_iter()
            .flat_map(|t| self.page_notes.remove(&t).unwrap_or_default())
            .collect()
    }

    /// A screenshot's turn is given back (at `now`): the waker of the next in line, to wake.
    pub fn capture_done(&mut self, ticket: Ticket, now: u64) -> Option<oneshot::Sender<()>> {
        let next = self.capture.release(ticket, now);
        self.capture_wakers.remove(&ticket);
        next.and_then(|t| self.capture_wakers.remove(&t))
    }

    /// Tells the click being answered on `opener` (if any) what became of a tab it opened;
    /// false when no click waits, so the agent hears of it in a note instead.
    pub fn tell_click(&self, opener: TabId, adopted: &Adopted) -> bool {
        self.clicking
            .get(&opener)
            .is_some_and(|heard| heard.unbounded_send(adopted.clone()).is_ok())
    }

    /// Ends at the next change of a download, for a call that reads the list after asking.
    pub fn next_download_change(&mut self) -> oneshot::Receiver<()> {
        let (waiter, change) = oneshot::channel();
        // Those of calls that ended without a change go, so a quiet browser keeps none.
        self.download_waiters.retain(|w| !w.is_canceled());
        self.download_waiters.push(waiter);
        change
    }

    /// A download changed: the calls waiting on one are woken.
    pub fn downloads_changed(&mut self) {
        for waiter in std::mem::take(&mut self.download_waiters) {
            let _ = waiter.send(());
        }
    }

    /// The agent whose own container `jar` is.
    pub fn container_owner(&self, jar: &str) -> Option<AgentId> {
        self.containers
            .iter()
            .find(|(_, c)| c.cookie_store_id == jar)
            .map(|(agent, _)| agent.clone())
    }
}

/// The user's evaluate switch, as commands and routes ask it.
impl State {
    /// The user's evaluate switch is on (popup or environment): agents may run code in their
    /// pages, by `firefox_evaluate` or by fulfilling what the browser runs.
    pub fn code_allowed(&self) -> bool {
        self.evaluate_switch || self.tuning.allow_evaluate
    }

    /// `firefox_evaluate` and fulfilling what the browser runs are refused while the user's
    /// switch is off, saying where it is.
    pub fn code_switch(&self) -> Result<(), ErrorBody> {
        if self.code_allowed() {
            return Ok(());
        }
        Err(ErrorBody::new(
            ErrorCode::Disabled,
            "running JavaScript in pages is switched off",
        )
        .with_hint(
            "the user can switch it on in the Claudezilla toolbar popup (\"Allow firefox_evaluate\"); \
             until then, read pages with firefox_get_content or firefox_snapshot",
        ))
    }
}

/// What a tab's update changed (`tabs.onUpdated`'s change info).
#[derive(Debug, Default, Deserialize)]
pub struct TabChange {
    pub status: Option<String>,
    pub url: Option<String>,
    pub title: Option<String>,
}

/// A tab's update, a user's tab attached and given back, an agent that leaves.
impl State {
    /// Firefox updated `tab` (`change`), which is now `after`: a complete load starts its page's
    /// young time, when no screenshot calls it quiet yet (at `now_ms`, the epoch clock, read
    /// only then), the pool keeps its page, a real title ends the title waits, and its load
    /// waiters hear of it (`precise`, as in [`State::wake`]).
    pub fn tab_updated(
        &mut self,
        tab: TabId,
        change: TabChange,
        after: &Tab,
        now_ms: impl FnOnce() -> f64,
        precise: impl Fn() -> f64,
    ) {
        if change.status.as_deref() == Some("complete") {
            self.network.loaded(tab, now_ms());
        }
        self.pool
            .update_page(tab, change.url.clone(), change.title.clone());
        if let Some(title) = &change.title {
            self.titled(tab, title, &after.url);
        }
        let shown = Shown {
            url: after.url.clone(),
            title: after.title.clone(),
        };
        let (status, url) = (change.status.as_deref(), change.url.as_deref());
        self.wake(tab, status, url, &after.status, &shown, precise);
    }

    /// An agent asked for `tab`'s response bodies: from now on they are read as they arrive
    /// — never those of a tab attached from the user. True when the tab is read (its
    /// listeners to follow).
    pub fn read_bodies(&mut self, tab: TabId) -> bool {
        if self.pool.is_attached(tab) {
            return false;
        }
        self.body_tabs.insert(tab);
        true
    }

    /// An agent takes the user's `tab` at `url` (at `now`): the log starts at the attachment,
    /// since what the user browsed before is not the agent's.
    pub fn attach_tab(
        &mut self,
        agent: &AgentId,
        tab: TabId,
        url: &str,
        now: u64,
    ) -> Result<(), ErrorBody> {
        self.pool.admit(agent, now)?;
        self.pool.attach(tab, agent, url.to_owned())?;
        self.requests.forget(tab);
        self.requests.claim(tab);
        Ok(())
    }

    /// `agent` gives `tab` back (its hooks to be taken out of the page).
    pub fn detach(&mut self, agent: &AgentId, tab: TabId) -> Result<Acted, ErrorBody> {
        self.pool.detach(agent, tab)?;
        Ok(Acted {
            what: format!("Gave tab {tab} back to the user; it stays open."),
        })
    }

    /// The user takes an attached `tab` back from the popup; false when it is no attached tab.
    pub fn user_takes_back(&mut self, tab: TabId) -> bool {
        if !self.pool.is_attached(tab) {
            return false;
        }
        self.pool.remove(tab);
        true
    }

    /// `tab` goes back to the user: its console, bodies and log are no longer kept.
    pub fn stop_logging(&mut self, tab: TabId) {
        self.console_tabs.remove(&tab);
        self.body_tabs.remove(&tab);
        self.requests.forget(tab);
    }

    /// `agent` leaves: its settings, loops and typed secrets go, and the pool lets its tabs go
    /// (those to close, and the user's to give back).
    pub fn agent_leaves(&mut self, agent: &AgentId) -> Released {
        self.configs.remove(agent);
        self.loops.release(agent);
        self.typed.remove(agent);
        self.pool.release(agent)
    }

    /// The agent, and its tab, that a download of `url` came from (at `now`, the epoch clock).
    pub fn requested_by(&self, url: &str, now: f64) -> Option<(AgentId, TabId)> {
        let tab = self.downloads.tab_that_requested(url, now)?;
        Some((self.pool.owner(tab)?.clone(), tab))
    }
}

/// Longest a tab given back to the user waits on its frames to take our hooks out.
pub const RELEASE_MS: u32 = 2_000;

/// What every frame of a tab given back to the user is told, at `now`: take our hooks out
/// (dialogs, console), within [`RELEASE_MS`].
pub fn release_request(now: u64) -> ContentRequest {
    ContentRequest {
        console: false,
        frame: 0,
        until: now + u64::from(RELEASE_MS),
        op: PageOp::Release,
        hide: Vec::new(),
    }
}

/// A load as the allowlists' blocking listeners hear of it (webRequest's details).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Load {
    tab_id: i64,
    url: String,
    /// For a frame's own load, the id that frame has.
    #[serde(default)]
    frame_id: u64,
}

/// What a command takes from the state: a frame's request, a granted slot.
impl State {
    /// What goes to frame `alias` of `tab` for `op`, due by `until`: the frame's browser id
    /// (refused for an alias the tab does not have), and the request — the console restarted
    /// with a top frame's operation where its agent reads it, the secrets its agent typed
    /// hidden ([`crate::hidden::to_hide`]).
    pub fn content_request(
        &mut self,
        tab: TabId,
        alias: u32,
        until: u64,
        op: PageOp,
    ) -> Result<(u64, ContentRequest), ErrorBody> {
        let frame = self.frames.frame(tab, alias)?;
        let console = alias == 0 && self.console_tabs.contains(&tab);
        let typing = op.secrets();
        let hide = crate::hidden::to_hide(&mut self.typed, self.pool.owner(tab), &typing);
        let request = ContentRequest {
            console,
            frame: alias,
            until,
            op,
            hide,
        };
        Ok((frame, request))
    }

    /// `agent` gives its oldest tab's slot to the agent waiting longest (at `now`), reserved
    /// for the tuning's time: the tab to close, and the answer.
    pub fn grant(&mut self, agent: &AgentId, now: u64) -> Result<(TabId, Granted), ErrorBody> {
        let reserved_ms = self.tuning.reservation_ms;
        let grant = self.pool.grant(agent, now, reserved_ms)?;
        Ok((grant.released, grant.answer(reserved_ms)))
    }
}

#[cfg(test)]
mod tests;
