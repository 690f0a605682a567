//! The shared pool of agent tabs: who owns which tab, who waits for room, who was given a
//! reserved slot, and when each agent was last heard from.
//!
//! **Invariant:** this module alone decides who may touch a tab. Every command that touches a
//! tab goes through [`Pool::authorize`], also when it names no tab (it then gets the caller's
//! most recently used tab, never whatever tab happens to be active).
//!
//! Time is passed in (milliseconds), so every rule is tested natively.

use std::collections::BTreeMap;

use claudezilla_protocol::reply::{
    ExtensionDiagnosis, Granted, SlotRequested, SlotRequests, TabEntry, WaitingAgent,
};
use claudezilla_protocol::{AgentId, ErrorBody, ErrorCode, TabId};

/// What the browser keeps of a tab's owner across restarts (in the session store, on disk):
/// the first 16 bytes of SHA-256 of its id. The id itself is the agent's secret.
pub fn fingerprint(agent: &AgentId) -> [u8; 16] {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(agent.secret().as_bytes());
    let mut out = [0; 16];
    out.copy_from_slice(&digest[..16]);
    out
}

pub use claudezilla_protocol::{GRANT_MINIMUM, POOL_LIMIT};

use crate::route::Action;

/// A tab the pool allowed: only [`Pool::authorize`] (an agent's own tab) and
/// [`Pool::pool_tab`] (the extension's own work) make one, and every operation on a tab's page
/// takes one — so no tab is touched without the ownership check, by construction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AuthorizedTab(TabId);

impl AuthorizedTab {
    pub fn id(self) -> TabId {
        self.0
    }
}

/// Whose a tab is that a tab's page opened (`window.open`, a `target=_blank` link).
#[derive(Debug, Clone, PartialEq)]
pub enum Opened {
    /// The agent's: its own tab opened it.
    Agents(AgentId),
    /// The user's: opened from the user's tab that `attached_by` drives. The user may have
    /// opened it there (a middle-click, a sign-in popup), and the browser does not say who
    /// did, so it is not taken from them.
    Users { attached_by: AgentId },
}

#[derive(Debug, Clone, PartialEq)]
pub struct TabRecord {
    pub owner: AgentId,
    pub url: String,
    pub title: String,
    /// Order of opening (the oldest tab is given up on a grant).
    opened: u64,
    /// Larger is more recent; bumped by every authorized command.
    last_used: u64,
    /// One of the user's own tabs, attached by its agent: given back, never closed by us.
    pub attached: bool,
}

#[derive(Debug, Clone, PartialEq)]
struct SlotRequest {
    agent: AgentId,
    since: u64,
}

#[derive(Debug, Clone, PartialEq)]
struct Reservation {
    agent: AgentId,
    until: u64,
}

#[derive(Debug, Default, Clone, PartialEq)]
pub struct Pool {
    tabs: BTreeMap<TabId, TabRecord>,
    /// The dedicated window the agents' tabs live in, once opened.
    pub window: Option<u32>,
    /// Its "Claudezilla" tab group, where the browser has tab groups.
    pub group: Option<u32>,
    clock: u64,
    requests: Vec<SlotRequest>,
    reservations: Vec<Reservation>,
    /// Tabs admitted and being made, not in the pool yet ([`hold`](Self::hold)): each keeps
    /// its slot, so a tab a page opens meanwhile cannot take it too.
    openings: Vec<Reservation>,
    /// Last call from each agent (ms).
    seen: BTreeMap<AgentId, u64>,
    /// Calls in flight per agent, and when its newest began: an agent waiting on its own call
    /// is not silent.
    calls: BTreeMap<AgentId, (u32, u64)>,
}

/// Longest a call in flight keeps its agent from idle release: every call ends within its
/// timeout, so one older than that is stuck, and must not keep its tabs for good.
pub const CALL_HEARD_MS: u64 = claudezilla_protocol::validate::MAX_TIMEOUT_MS as u64 + 30_000;

/// Longest a tab being made keeps its slot unless it comes or is given up first (the opening
/// is bounded by its call's time, and a tab made too late is closed within 10 s).
pub const OPENING_MS: u64 = 60_000;

/// What releasing an agent freed: the tabs it opened (to close) and the user's tabs it had
/// attached (to give back, open).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Released {
    pub closed: Vec<TabId>,
    pub given_back: Vec<TabId>,
}

/// What a grant did: the granter's tab to close, and who got the slot.
#[derive(Debug, Clone, PartialEq)]
pub struct Grant {
    pub released: TabId,
    pub to: AgentId,
}

impl Grant {
    /// The granter's answer: the slot is reserved `reserved_ms` for the agent it went to.
    pub fn answer(&self, reserved_ms: u64) -> Granted {
        Granted {
            released_tab: self.released,
            to: self.to.short().to_owned(),
            reserved_ms: reserved_ms.min(u64::from(u32::MAX)) as u32,
        }
    }
}

impl Pool {
    pub fn new() -> Self {
        Self::default()
    }

    fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    /// Records a call from `agent` (every command, heartbeats included), and gives it back
    /// the tabs it had before a restart of the extension (held by its placeholder since).
    pub fn touch(&mut self, agent: &AgentId, now: u64) {
        self.seen.insert(agent.clone(), now);
        if self.seen.keys().any(AgentId::is_placeholder) {
            self.reclaim(agent, now);
        }
    }

    /// A call from `agent` begins: it is heard, and stays heard until the call ends.
    pub fn call_began(&mut self, agent: &AgentId, now: u64) {
        self.touch(agent, now);
        let (n, newest) = self.calls.entry(agent.clone()).or_default();
        (*n, *newest) = (*n + 1, now);
    }

    /// A call from `agent` ended (answered or given up): its silence counts from now.
    pub fn call_ended(&mut self, agent: &AgentId, now: u64) {
        let Some((n, _)) = self.calls.get_mut(agent) else {
            return;
        };
        *n -= 1;
        if *n == 0 {
            self.calls.remove(agent);
        }
        self.seen.insert(agent.clone(), now);
    }

    fn reclaim(&mut self, agent: &AgentId, now: u64) {
        let stand_in = AgentId::placeholder(fingerprint(agent));
        if self.seen.remove(&stand_in).is_none() {
            return;
        }
        for record in self.tabs.values_mut().filter(|r| r.owner == stand_in) {
            record.owner = agent.clone();
        }
        self.seen.insert(agent.clone(), now);
    }

    /// Drops reservations that ran out.
    pub fn expire(&mut self, now: u64) {
        self.reservations.retain(|r| r.until > now);
        self.openings.retain(|r| r.until > now);
    }

    fn reserved_for_others(&self, agent: &AgentId) -> usize {
        self.reservations
            .iter()
            .filter(|r| &r.agent != agent)
            .count()
    }

    fn has_reservation(&self, agent: &AgentId) -> bool {
        self.reservations.iter().any(|r| &r.agent == agent)
    }

    /// Free slots for `agent`: its own reservation counts as room, others' do not.
    pub fn room_for(&self, agent: &AgentId) -> usize {
        let opening = |r: &Reservation| &r.agent == agent;
        if self.has_reservation(agent) && !self.openings.iter().any(opening) {
            return 1;
        }
        let taken = self.tabs.len() + self.reserved_for_others(agent) + self.openings.len();
        POOL_LIMIT.saturating_sub(taken)
    }

    /// May `agent` open one more tab now?
    pub fn admit(&mut self, agent: &AgentId, now: u64) -> Result<(), ErrorBody> {
        self.expire(now);
        if self.room_for(agent) > 0 {
            return Ok(());
        }
        Err(ErrorBody::new(
            ErrorCode::PoolFull,
            format!("the pool of {POOL_LIMIT} agent tabs is full: {}", self.holders(agent)),
        )
        .with_hint(
            "close one of your tabs with firefox_close_tab, or ask for room with firefox_request_tab_space \
             (an agent holding more than 2 tabs can then give you one with firefox_grant_tab_space)",
        ))
    }

    /// "you hold 3, agent_ab12cd34 holds 3, …; 1 slot reserved for agent_…".
    fn holders(&self, agent: &AgentId) -> String {
        let mut counts: BTreeMap<&AgentId, usize> = BTreeMap::new();
        for r in self.tabs.values() {
            *counts.entry(&r.owner).or_default() += 1;
        }
        let mut parts: Vec<String> = counts
            .iter()
            .map(|(owner, n)| match *owner == agent {
                true => format!("you hold {n}"),
                false => format!("{} holds {n}", owner.short()),
            })
            .collect();
        for r in &self.reservations {
            parts.push(format!("1 slot reserved for {}", r.agent.short()));
        }
        parts.join(", ")
    }

    /// [`admit`](Self::admit), the slot then kept for the tab being made until it is put in
    /// ([`insert_held`](Self::insert_held)), [`let_go`](Self::let_go) or [`OPENING_MS`] have
    /// passed.
    pub fn hold(&mut self, agent: &AgentId, now: u64) -> Result<(), ErrorBody> {
        self.admit(agent, now)?;
        self.openings.push(Reservation {
            agent: agent.clone(),
            until: now + OPENING_MS,
        });
        Ok(())
    }

    /// Gives up a slot [`hold`](Self::hold) kept: the tab was not made.
    pub fn let_go(&mut self, agent: &AgentId) {
        if let Some(i) = self.openings.iter().position(|r| &r.agent == agent) {
            self.openings.remove(i);
        }
    }

    /// Adds a tab (after [`admit`](Self::admit)); uses up the owner's reservation if it had one.
    pub fn insert(&mut self, tab: TabId, owner: AgentId, url: String) {
        self.add(tab, owner, url, false);
    }

    /// Adds the tab a slot was held for ([`hold`](Self::hold)), in that slot.
    pub fn insert_held(&mut self, tab: TabId, owner: AgentId, url: String) {
        self.let_go(&owner);
        self.add(tab, owner, url, false);
    }

    /// Lets `owner` drive one of the user's tabs (after [`admit`](Self::admit)). Refused when
    /// the tab is already an agent tab.
    pub fn attach(&mut self, tab: TabId, owner: &AgentId, url: String) -> Result<(), ErrorBody> {
        self.can_attach(tab, owner)?;
        self.add(tab, owner.clone(), url, true);
        Ok(())
    }

    /// Refused when the tab is an agent tab already.
    pub fn can_attach(&self, tab: TabId, owner: &AgentId) -> Result<(), ErrorBody> {
        if let Some(r) = self.tabs.get(&tab) {
            let whose = match &r.owner == owner {
                true => "it is already yours".to_owned(),
                false => format!("it belongs to {}", r.owner.short()),
            };
            return Err(ErrorBody::new(
                ErrorCode::Ownership,
                format!("cannot attach tab {tab}: {whose}"),
            )
            .with_hint("attach one of the user's own tabs from firefox_list_all_tabs"));
        }
        Ok(())
    }

    /// Gives an attached tab back to the user (it stays open).
    pub fn detach(&mut self, agent: &AgentId, tab: TabId) -> Result<(), ErrorBody> {
        self.authorize(agent, Some(tab), Action::Detach)?;
        if !self.tabs.get(&tab).is_some_and(|r| r.attached) {
            return Err(ErrorBody::new(
                ErrorCode::InvalidArgument,
                format!("tab {tab} was opened by you, not attached"),
            )
            .with_hint("close it with firefox_close_tab"));
        }
        self.tabs.remove(&tab);
        Ok(())
    }

    fn add(&mut self, tab: TabId, owner: AgentId, url: String, attached: bool) {
        if let Some(i) = self.reservations.iter().position(|r| r.agent == owner) {
            self.reservations.remove(i);
        }
        self.requests.retain(|r| r.agent != owner);
        let now = self.tick();
        self.tabs.insert(
            tab,
            TabRecord {
                owner,
                url,
                title: String::new(),
                opened: now,
                last_used: now,
                attached,
            },
        );
    }

    /// Checks that `agent` may `action` the tab it named (or its most recent tab when it named
    /// none), and marks the tab as just used.
    pub fn authorize(
        &mut self,
        agent: &AgentId,
        tab: Option<TabId>,
        action: Action,
    ) -> Result<AuthorizedTab, ErrorBody> {
        let tab = match tab {
            Some(tab) => tab,
            None => self.most_recent(agent).ok_or_else(|| {
                ErrorBody::new(
                    ErrorCode::NoSuchTab,
                    format!("cannot {action}: you have no open tab"),
                )
                .with_hint("open one with firefox_create_window")
            })?,
        };
        let now = self.tick();
        let Some(record) = self.tabs.get_mut(&tab) else {
            let yours = self.owned_by(agent);
            return Err(ErrorBody::new(
                ErrorCode::NoSuchTab,
                format!("cannot {action} tab {tab}: it is not an open agent tab"),
            )
            .with_hint(format!("your tabs: {yours:?}; firefox_get_tabs lists them")));
        };
        if &record.owner != agent {
            return Err(ErrorBody::new(
                ErrorCode::Ownership,
                format!(
                    "Cannot {action} tab {tab} (owned by {})",
                    record.owner.short()
                ),
            )
            .with_hint("act only on your own tabs; open one with firefox_create_window"));
        }
        record.last_used = now;
        Ok(AuthorizedTab(tab))
    }

    /// One of the pool's tabs, for the extension's own work on it (after a load, a capture's
    /// readiness): never an agent's request.
    pub fn pool_tab(&self, tab: TabId) -> Option<AuthorizedTab> {
        self.tabs.contains_key(&tab).then_some(AuthorizedTab(tab))
    }

    fn most_recent(&self, agent: &AgentId) -> Option<TabId> {
        self.tabs
            .iter()
            .filter(|(_, r)| &r.owner == agent)
            .max_by_key(|(_, r)| r.last_used)
            .map(|(id, _)| *id)
    }

    pub fn remove(&mut self, tab: TabId) -> Option<TabRecord> {
        self.tabs.remove(&tab)
    }

    /// Forgets every tab, request and reservation of `agent`: the tabs it opened are to be
    /// closed, its attached tabs only given back.
    pub fn release(&mut self, agent: &AgentId) -> Released {
        let mut gone = Released::default();
        for tab in self.owned_by(agent) {
            match self.tabs.remove(&tab).is_some_and(|r| r.attached) {
                true => gone.given_back.push(tab),
                false => gone.closed.push(tab),
            }
        }
        self.requests.retain(|r| &r.agent != agent);
        self.reservations.retain(|r| &r.agent != agent);
        self.openings.retain(|r| &r.agent != agent);
        self.seen.remove(agent);
        // Its calls still running (the goodbye itself) end unheard: a tab one of them makes
        // after this is released at the next sweep, as the tab of an agent never heard from.
        self.calls.remove(agent);
        gone
    }

    /// Agents with tabs that have made no call for `idle_ms` and wait on none.
    pub fn idle_agents(&self, now: u64, idle_ms: u64) -> Vec<AgentId> {
        let mut owners: Vec<&AgentId> = self.tabs.values().map(|r| &r.owner).collect();
        owners.sort();
        owners.dedup();
        owners
            .into_iter()
            .filter(|a| {
                self.calls
                    .get(*a)
                    .is_none_or(|(_, newest)| now.saturating_sub(*newest) >= CALL_HEARD_MS)
            })
            .filter(|a| {
                self.seen
                    .get(*a)
                    .is_none_or(|t| now.saturating_sub(*t) >= idle_ms)
            })
            .cloned()
            .collect()
    }

    /// `firefox_request_tab_space`: room now (no place in line taken), else `agent`'s place in
    /// line for the next slot another agent grants ([`request_space`](Self::request_space)).
    pub fn ask_space(&mut self, agent: &AgentId, now: u64) -> SlotRequested {
        self.expire(now);
        let room_now = self.room_for(agent) > 0;
        let position = if room_now {
            0
        } else {
            self.request_space(agent, now)
        };
        SlotRequested {
            position: position as u32,
            room_now,
        }
    }

    /// Queues `agent` for the next slot another agent grants. Returns its place (1-based), or
    /// 0 when a slot is already reserved for it.
    pub fn request_space(&mut self, agent: &AgentId, now: u64) -> usize {
        if self.has_reservation(agent) {
            return 0;
        }
        if let Some(i) = self.requests.iter().position(|r| &r.agent == agent) {
            return i + 1;
        }
        self.requests.push(SlotRequest {
            agent: agent.clone(),
            since: now,
        });
        self.requests.len()
    }

    /// `granter` gives up its oldest tab; the longest-waiting other agent gets the slot,
    /// reserved for it until `now + reservation_ms`.
    pub fn grant(
        &mut self,
        granter: &AgentId,
        now: u64,
        reservation_ms: u64,
    ) -> Result<Grant, ErrorBody> {
        self.expire(now);
        let Some(i) = self
            .requests
            .iter()
            .position(|r| &r.agent != granter && !self.has_reservation(&r.agent))
        else {
            return Err(ErrorBody::new(
                ErrorCode::InvalidArgument,
                "no other agent is waiting for a tab",
            )
            .with_hint("firefox_get_slot_requests lists who waits"));
        };
        let held = self.owned_by(granter).len();
        if held <= GRANT_MINIMUM {
            return Err(ErrorBody::new(
                ErrorCode::InvalidArgument,
                format!(
                    "you hold {held} tab(s); only an agent holding more than {GRANT_MINIMUM} can grant one"
                ),
            ));
        }
        // An attached tab is the user's: it is never the one closed to make room.
        let released = self
            .tabs
            .iter()
            .filter(|(_, r)| &r.owner == granter && !r.attached)
            .min_by_key(|(_, r)| r.opened)
            .map(|(id, _)| *id)
            .ok_or_else(|| {
                ErrorBody::new(
                    ErrorCode::InvalidArgument,
                    "all your tabs are attached tabs of the user; detach one instead",
                )
            })?;
        self.tabs.remove(&released);
        let to = self.requests.remove(i).agent;
        self.reservations.push(Reservation {
            agent: to.clone(),
            until: now + reservation_ms,
        });
        Ok(Grant { released, to })
    }

    /// Who waits for room and who holds a reserved slot.
    pub fn slot_requests(&mut self, agent: &AgentId, now: u64) -> SlotRequests {
        self.expire(now);
        let entry = |who: &AgentId, waited_ms| WaitingAgent {
            agent: who.short().to_owned(),
            mine: who == agent,
            waited_ms,
        };
        let waiting = self
            .requests
            .iter()
            .map(|r| entry(&r.agent, now.saturating_sub(r.since)))
            .collect();
        let reserved = self
            .reservations
            .iter()
            .map(|r| entry(&r.agent, r.until.saturating_sub(now)))
            .collect();
        SlotRequests {
            waiting,
            reserved,
            tabs_in_pool: self.tabs.len() as u32,
            pool_limit: POOL_LIMIT as u32,
        }
    }

    /// Keeps the cached URL and title current (from `tabs.onUpdated`).
    pub fn update_page(&mut self, tab: TabId, url: Option<String>, title: Option<String>) {
        let Some(record) = self.tabs.get_mut(&tab) else {
            return;
        };
        // Pages choose both: kept short, since every tab list repeats them.
        if let Some(url) = url {
            record.url = crate::text::cap(&url, crate::text::MAX_URL_CHARS);
        }
        if let Some(title) = title {
            record.title = crate::a11y::clean(&title, crate::text::MAX_TITLE_CHARS);
        }
    }

    pub fn contains(&self, tab: TabId) -> bool {
        self.tabs.contains_key(&tab)
    }

    pub fn len(&self) -> usize {
        self.tabs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tabs.is_empty()
    }

    pub fn tab_ids(&self) -> Vec<TabId> {
        self.tabs.keys().copied().collect()
    }

    pub fn owned_by(&self, agent: &AgentId) -> Vec<TabId> {
        self.tabs
            .iter()
            .filter(|(_, r)| &r.owner == agent)
            .map(|(id, _)| *id)
            .collect()
    }

    /// Tabs owned by someone other than `agent`.
    pub fn others_tabs(&self, agent: &AgentId) -> usize {
        self.tabs
            .values()
            .filter(|r| &r.owner != agent && !r.attached)
            .count()
    }

    /// Every agent tab, as `agent` sees them: another agent's tab only by its origin (no path,
    /// query or title: what it reads is its own business).
    pub fn entries(&self, agent: &AgentId) -> Vec<TabEntry> {
        self.tabs
            .iter()
            .map(|(id, r)| {
                let mine = &r.owner == agent;
                TabEntry {
                    tab_id: *id,
                    url: if mine {
                        r.url.clone()
                    } else {
                        crate::allowlist::origin(&r.url)
                    },
                    title: if mine { r.title.clone() } else { String::new() },
                    mine,
                    owner: r.owner.short().to_owned(),
                    attached: r.attached,
                }
            })
            .collect()
    }

    /// Every agent tab in full, for the user (the toolbar popup).
    pub fn entries_for_user(&self) -> Vec<TabEntry> {
        self.tabs
            .iter()
            .map(|(id, r)| TabEntry {
                tab_id: *id,
                url: r.url.clone(),
                title: r.title.clone(),
                mine: false,
                owner: r.owner.short().to_owned(),
                attached: r.attached,
            })
            .collect()
    }

    pub fn diagnosis(&self, agent: &AgentId, version: &str) -> ExtensionDiagnosis {
        let mut owners: Vec<&AgentId> = self.tabs.values().map(|r| &r.owner).collect();
        owners.sort();
        owners.dedup();
        ExtensionDiagnosis {
            version: version.to_owned(),
            window_id: self.window,
            tabs_in_pool: self.tabs.len() as u32,
            pool_limit: POOL_LIMIT as u32,
            your_tabs: self.owned_by(agent),
            agents: owners.len() as u32,
            browser_windows: 0,
            intercepting: false,
        }
    }

    /// The agents' window is now `window`, just opened, in no tab group yet.
    pub fn window_opened(&mut self, window: u32) {
        self.window = Some(window);
        self.group = None;
    }

    /// Forgets the agents' window once no agent tab is left in it (the browser closes a
    /// window whose last tab went), so the next tab opens a new one; attached tabs live
    /// elsewhere.
    pub fn forget_window_if_empty(&mut self) {
        if self.tabs.values().all(|r| r.attached) {
            self.window = None;
            self.group = None;
        }
    }

    /// Forgets everything about the window (it was closed); attached tabs live elsewhere.
    pub fn window_closed(&mut self, window: u32) -> Vec<TabId> {
        if self.window != Some(window) {
            return Vec::new();
        }
        self.window = None;
        self.group = None;
        let gone: Vec<TabId> = self
            .tabs
            .iter()
            .filter(|(_, r)| !r.attached)
            .map(|(id, _)| *id)
            .collect();
        for tab in &gone {
            self.tabs.remove(tab);
        }
        gone
    }

    pub fn is_attached(&self, tab: TabId) -> bool {
        self.tabs.get(&tab).is_some_and(|r| r.attached)
    }

    /// The owner of a tab, if it is an agent tab.
    pub fn owner(&self, tab: TabId) -> Option<&AgentId> {
        self.tabs.get(&tab).map(|r| &r.owner)
    }

    /// Whose a tab opened by `opener`'s page is; None when `opener` is no agent tab (the
    /// user's, and the new tab with it).
    pub fn opened_from(&self, opener: TabId) -> Option<Opened> {
        let record = self.tabs.get(&opener)?;
        Some(match record.attached {
            true => Opened::Users {
                attached_by: record.owner.clone(),
            },
            false => Opened::Agents(record.owner.clone()),
        })
    }

    /// After a background restart: the pool of the agents' window found in the browser. Each
    /// tab is held by a placeholder of its owner (the browser keeps only the owner's
    /// fingerprint) until the owner's next call; owners count as just seen, so idle release
    /// starts afresh and closes the tabs of agents that never come back.
    pub fn adopted(
        window: u32,
        group: Option<u32>,
        tabs: Vec<(TabId, [u8; 16], String)>,
        now: u64,
    ) -> Self {
        let mut pool = Self {
            window: Some(window),
            group,
            ..Self::default()
        };
        for (tab, owner, url) in tabs {
            let owner = AgentId::placeholder(owner);
            pool.seen.insert(owner.clone(), now);
            pool.insert(tab, owner, url);
        }
        pool
    }

    /// Checks the pool's invariants (the property tests call it after every step).
    pub fn check_invariants(&self, now: u64) -> Result<(), String> {
        let live = self.reservations.iter().filter(|r| r.until > now).count();
        if self.tabs.len() + live > POOL_LIMIT {
            return Err(format!(
                "over-committed: {} tabs + {live} reserved",
                self.tabs.len()
            ));
        }
        let mut agents: Vec<&AgentId> = self.reservations.iter().map(|r| &r.agent).collect();
        agents.sort();
        let n = agents.len();
        agents.dedup();
        if agents.len() != n {
            return Err("an agent holds two reservations".into());
        }
        Ok(())
    }
}

/// How often idle agents are looked for under an idle limit of `idle_ms`: a quarter of it,
/// from a quarter to a whole second, so a limit the host's welcome shortens applies soon.
pub fn idle_round_ms(idle_ms: u64) -> u32 {
    (idle_ms / 4).clamp(250, 1_000) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::Action;

    fn agent(n: u8) -> AgentId {
        AgentId::new([n; 16], u32::from(n) + 100)
    }

    fn fill(pool: &mut Pool, owner: u8, count: u32, first_id: u32) {
        for i in 0..count {
            pool.admit(&agent(owner), 0).unwrap();
            pool.insert(TabId(first_id + i), agent(owner), String::new());
        }
    }

    #[test]
    fn owners_act_and_others_are_refused_with_the_ownership_message() {
        let mut pool = Pool::new();
        pool.insert(TabId(4), agent(1), "about:blank".into());
        assert_eq!(
            pool.authorize(&agent(1), Some(TabId(4)), Action::Navigate),
            Ok(AuthorizedTab(TabId(4)))
        );
        let err = pool
            .authorize(&agent(2), Some(TabId(4)), Action::Navigate)
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::Ownership);
        assert_eq!(
            err.to_string().lines().next().unwrap(),
            format!(
                "OWNERSHIP: Cannot navigate tab 4 (owned by {})",
                agent(1).short()
            )
        );
    }

    #[test]
    fn a_tab_being_made_keeps_its_slot_from_a_tab_a_page_opens_meanwhile() {
        let mut pool = Pool::new();
        fill(&mut pool, 1, POOL_LIMIT as u32 - 1, 1);
        pool.hold(&agent(2), 0).unwrap();
        // A popup of agent 1's page, adopted while agent 2's tab is being made.
        assert_eq!(
            pool.admit(&agent(1), 1).unwrap_err().code,
            ErrorCode::PoolFull
        );
        // And the agent's own popup too: the slot is the tab's being made.
        assert!(pool.admit(&agent(2), 1).is_err());
        pool.insert_held(TabId(100), agent(2), String::new());
        assert_eq!(pool.tabs.len(), POOL_LIMIT, "the slot held became the tab");
        assert!(pool.admit(&agent(2), 1).is_err());

        // A tab not made gives its slot back, and a slot forgotten frees itself in time.
        pool.remove(TabId(100));
        pool.hold(&agent(2), 10).unwrap();
        pool.let_go(&agent(2));
        assert!(pool.admit(&agent(1), 11).is_ok());
        pool.hold(&agent(2), 20).unwrap();
        assert!(pool.admit(&agent(1), 21).is_err());
        assert!(pool.admit(&agent(1), 20 + OPENING_MS).is_ok());
    }

    #[test]
    fn the_window_is_forgotten_once_no_agent_tab_is_left_in_it() {
        let mut pool = Pool::new();
        pool.window_opened(9);
        pool.group = Some(3);
        fill(&mut pool, 1, 1, 1);
        pool.attach(TabId(50), &agent(1), "https://user.example/".into())
            .unwrap();
        pool.forget_window_if_empty();
        assert_eq!(
            (pool.window, pool.group),
            (Some(9), Some(3)),
            "tab 1 is in it"
        );
        pool.remove(TabId(1));
        // The attached tab lives in the user's window.
        pool.forget_window_if_empty();
        assert_eq!((pool.window, pool.group), (None, None));
        pool.group = Some(4);
        pool.window_opened(10);
        assert_eq!(
            (pool.window, pool.group),
            (Some(10), None),
            "a new window, no group yet"
        );
    }

    #[test]
    fn attached_tabs_are_owned_but_given_back_never_closed() {
        let mut pool = Pool::new();
        pool.window = Some(9);
        fill(&mut pool, 1, 3, 1);
        pool.attach(TabId(50), &agent(1), "https://user.example/".into())
            .unwrap();
        // Owned like any other tab, and counted in the pool.
        assert_eq!(
            pool.authorize(&agent(1), None, Action::Read),
            Ok(AuthorizedTab(TabId(50)))
        );
        assert_eq!(
            pool.authorize(&agent(2), Some(TabId(50)), Action::Read)
                .unwrap_err()
                .code,
            ErrorCode::Ownership
        );
        assert_eq!(pool.len(), 4);
        // Nobody attaches a tab twice.
        assert_eq!(
            pool.attach(TabId(50), &agent(2), String::new())
                .unwrap_err()
                .code,
            ErrorCode::Ownership
        );
        // A grant gives up the oldest tab the agent opened, not the user's.
        pool.request_space(&agent(2), 0);
        assert_eq!(pool.grant(&agent(1), 0, 10).unwrap().released, TabId(1));
        // Closing the agents' window leaves the attached tab with its agent.
        assert_eq!(pool.window_closed(9), vec![TabId(2), TabId(3)]);
        assert!(pool.is_attached(TabId(50)));
        // Detach refuses tabs the agent opened; goodbye never returns attached tabs to close.
        pool.insert(TabId(60), agent(1), String::new());
        assert_eq!(
            pool.detach(&agent(1), TabId(60)).unwrap_err().code,
            ErrorCode::InvalidArgument
        );
        assert_eq!(
            pool.release(&agent(1)),
            Released {
                closed: vec![TabId(60)],
                given_back: vec![TabId(50)]
            }
        );
        assert!(!pool.contains(TabId(50)));
        pool.attach(TabId(50), &agent(1), String::new()).unwrap();
        assert_eq!(pool.detach(&agent(1), TabId(50)), Ok(()));
        assert!(pool.is_empty());
    }

    #[test]
    fn tabs_opened_from_an_attached_tab_stay_the_users() {
        let mut pool = Pool::new();
        pool.insert(TabId(1), agent(1), String::new());
        pool.attach(TabId(50), &agent(1), String::new()).unwrap();
        assert_eq!(pool.opened_from(TabId(1)), Some(Opened::Agents(agent(1))));
        assert_eq!(
            pool.opened_from(TabId(50)),
            Some(Opened::Users {
                attached_by: agent(1)
            })
        );
        // From a tab of the user's that no agent drives: nothing to decide.
        assert_eq!(pool.opened_from(TabId(60)), None);
        // Given back, the tab's openings are the user's as before.
        pool.detach(&agent(1), TabId(50)).unwrap();
        assert_eq!(pool.opened_from(TabId(50)), None);
    }

    #[test]
    fn no_tab_named_means_the_callers_most_recent_tab_never_another_agents() {
        let mut pool = Pool::new();
        pool.insert(TabId(1), agent(1), String::new());
        pool.insert(TabId(2), agent(1), String::new());
        pool.insert(TabId(3), agent(2), String::new());
        assert_eq!(
            pool.authorize(&agent(1), None, Action::Read),
            Ok(AuthorizedTab(TabId(2)))
        );
        pool.authorize(&agent(1), Some(TabId(1)), Action::Read)
            .unwrap();
        assert_eq!(
            pool.authorize(&agent(1), None, Action::Read),
            Ok(AuthorizedTab(TabId(1)))
        );
        assert_eq!(
            pool.authorize(&agent(2), None, Action::Read),
            Ok(AuthorizedTab(TabId(3)))
        );
        assert_eq!(
            pool.authorize(&agent(3), None, Action::Read)
                .unwrap_err()
                .code,
            ErrorCode::NoSuchTab
        );
    }

    #[test]
    fn unknown_tabs_are_no_such_tab() {
        let mut pool = Pool::new();
        let err = pool
            .authorize(&agent(1), Some(TabId(99)), Action::Close)
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::NoSuchTab);
        assert!(err.message.contains("tab 99"));
    }

    #[test]
    fn a_full_pool_names_its_holders_and_what_to_do() {
        let mut pool = Pool::new();
        for owner in 1..=4 {
            fill(&mut pool, owner, 3, owner as u32 * 10);
        }
        let err = pool.admit(&agent(5), 0).unwrap_err();
        assert_eq!(err.code, ErrorCode::PoolFull);
        assert!(
            err.message
                .contains(&format!("{} holds 3", agent(1).short())),
            "{err}"
        );
        let hint = err.hint.unwrap();
        assert!(
            hint.contains("firefox_request_tab_space") && hint.contains("firefox_close_tab"),
            "{hint}"
        );
        let mine = pool.admit(&agent(1), 0).unwrap_err();
        assert!(mine.message.contains("you hold 3"), "{mine}");
    }

    #[test]
    fn request_and_grant_reserve_a_slot_for_the_waiter() {
        let mut pool = Pool::new();
        for owner in 1..=4 {
            fill(&mut pool, owner, 3, owner as u32 * 10);
        }
        assert_eq!(pool.request_space(&agent(5), 100), 1);
        assert_eq!(
            pool.request_space(&agent(5), 150),
            1,
            "asking twice keeps the place"
        );
        let grant = pool.grant(&agent(2), 200, 30_000).unwrap();
        assert_eq!(
            grant,
            Grant {
                released: TabId(20),
                to: agent(5)
            },
            "the granter's oldest tab goes"
        );
        // The freed slot is reserved: another agent cannot take it.
        assert_eq!(
            pool.admit(&agent(1), 300).unwrap_err().code,
            ErrorCode::PoolFull
        );
        pool.admit(&agent(5), 300).unwrap();
        pool.insert(TabId(50), agent(5), String::new());
        assert_eq!(pool.len(), POOL_LIMIT);
        assert!(pool.slot_requests(&agent(5), 300).reserved.is_empty());
    }

    #[test]
    fn asking_for_space_queues_only_where_there_is_no_room() {
        let mut pool = Pool::new();
        fill(&mut pool, 1, 3, 10);
        let room = SlotRequested {
            position: 0,
            room_now: true,
        };
        assert_eq!(pool.ask_space(&agent(5), 0), room);
        assert!(pool.requests.is_empty(), "room now takes no place in line");
        for owner in 2..=4 {
            fill(&mut pool, owner, 3, owner as u32 * 10);
        }
        let place = |position| SlotRequested {
            position,
            room_now: false,
        };
        assert_eq!(pool.ask_space(&agent(5), 100), place(1));
        assert_eq!(pool.ask_space(&agent(6), 100), place(2));
        assert_eq!(pool.ask_space(&agent(5), 150), place(1));
        pool.grant(&agent(2), 200, 1_000).unwrap();
        assert_eq!(
            pool.ask_space(&agent(5), 300),
            room,
            "its reservation is room"
        );
        assert_eq!(pool.ask_space(&agent(6), 300), place(1));
        // The reservation ran out: the slot is anyone's.
        assert_eq!(pool.ask_space(&agent(6), 1_200), room);
    }

    #[test]
    fn a_grant_answers_whose_slot_it_is_and_for_how_long() {
        let grant = Grant {
            released: TabId(20),
            to: agent(5),
        };
        let answer = grant.answer(30_000);
        assert_eq!(answer.released_tab, TabId(20));
        assert_eq!(answer.to, agent(5).short());
        assert_eq!(answer.reserved_ms, 30_000);
        assert_eq!(
            grant.answer(u64::from(u32::MAX) + 5_000).reserved_ms,
            u32::MAX
        );
    }

    #[test]
    fn an_unused_reservation_expires() {
        let mut pool = Pool::new();
        for owner in 1..=4 {
            fill(&mut pool, owner, 3, owner as u32 * 10);
        }
        pool.request_space(&agent(5), 0);
        pool.grant(&agent(1), 1_000, 30_000).unwrap();
        assert_eq!(
            pool.admit(&agent(2), 30_999).unwrap_err().code,
            ErrorCode::PoolFull
        );
        assert_eq!(pool.slot_requests(&agent(2), 30_999).reserved.len(), 1);
        pool.admit(&agent(2), 31_000).unwrap();
        assert!(pool.slot_requests(&agent(2), 31_000).reserved.is_empty());
    }

    #[test]
    fn grants_need_a_waiter_and_more_than_two_tabs() {
        let mut pool = Pool::new();
        fill(&mut pool, 1, 2, 1);
        assert!(
            pool.grant(&agent(1), 0, 1)
                .unwrap_err()
                .message
                .contains("no other agent")
        );
        pool.request_space(&agent(2), 0);
        pool.request_space(&agent(1), 0);
        assert!(
            pool.grant(&agent(1), 0, 1)
                .unwrap_err()
                .message
                .contains("you hold 2")
        );
        fill(&mut pool, 1, 1, 3);
        assert_eq!(
            pool.grant(&agent(1), 0, 1).unwrap().to,
            agent(2),
            "never to the granter itself"
        );
    }

    #[test]
    fn release_takes_only_the_agents_tabs_requests_and_reservations() {
        let mut pool = Pool::new();
        pool.insert(TabId(1), agent(1), String::new());
        pool.insert(TabId(2), agent(2), String::new());
        pool.insert(TabId(3), agent(1), String::new());
        pool.request_space(&agent(1), 0);
        assert_eq!(pool.release(&agent(1)).closed, vec![TabId(1), TabId(3)]);
        assert!(pool.contains(TabId(2)) && !pool.contains(TabId(1)));
        assert!(pool.slot_requests(&agent(2), 0).waiting.is_empty());
        assert_eq!(pool.release(&agent(1)), Released::default());
    }

    #[test]
    fn idle_agents_are_those_not_heard_from() {
        let mut pool = Pool::new();
        pool.insert(TabId(1), agent(1), String::new());
        pool.insert(TabId(2), agent(2), String::new());
        pool.touch(&agent(1), 1_000);
        pool.touch(&agent(2), 5_000);
        assert_eq!(pool.idle_agents(600_999, 600_000), Vec::<AgentId>::new());
        assert_eq!(pool.idle_agents(601_000, 600_000), vec![agent(1)]);
        pool.touch(&agent(3), 0);
        assert!(
            !pool.idle_agents(10_000_000, 1).contains(&agent(3)),
            "no tabs, nothing to release"
        );
    }

    #[test]
    fn an_agent_waiting_on_its_own_call_is_not_idle() {
        const IDLE: u64 = 60_000;
        let mut pool = Pool::new();
        pool.insert(TabId(1), agent(1), String::new());
        pool.call_began(&agent(1), 1_000);
        pool.call_began(&agent(1), 2_000);
        assert!(pool.idle_agents(100_000, IDLE).is_empty());
        pool.call_ended(&agent(1), 100_000);
        assert!(
            pool.idle_agents(200_000, IDLE).is_empty(),
            "one call is still in flight"
        );
        pool.call_ended(&agent(1), 200_000);
        // Silence counts from the end of the last call, not its start.
        assert!(pool.idle_agents(259_999, IDLE).is_empty());
        assert_eq!(pool.idle_agents(260_000, IDLE), vec![agent(1)]);
        // A call that never ends keeps its agent no longer than any call may last.
        pool.call_began(&agent(1), 300_000);
        assert!(
            pool.idle_agents(300_000 + CALL_HEARD_MS - 1, IDLE)
                .is_empty()
        );
        assert_eq!(
            pool.idle_agents(300_000 + CALL_HEARD_MS, IDLE),
            vec![agent(1)]
        );
        // An agent that says goodbye during a call is not heard again when the call ends: a
        // tab the call made after the goodbye is released at the next sweep.
        pool.call_began(&agent(2), 1_000_000);
        pool.release(&agent(2));
        pool.insert(TabId(2), agent(2), String::new());
        pool.call_ended(&agent(2), 1_000_001);
        assert!(pool.idle_agents(1_000_001, IDLE).contains(&agent(2)));
    }

    #[test]
    fn entries_mark_mine_and_cache_pages() {
        let mut pool = Pool::new();
        pool.insert(TabId(1), agent(1), "a".into());
        pool.insert(TabId(2), agent(2), "b".into());
        pool.update_page(TabId(2), Some("c".into()), Some("T".into()));
        pool.update_page(
            TabId(1),
            Some("https://mail.example/inbox?q=secret".into()),
            Some("Inbox (3) — private".into()),
        );
        let e = pool.entries(&agent(2));
        assert_eq!((e[0].mine, e[1].mine), (false, true));
        assert_eq!((e[1].url.as_str(), e[1].title.as_str()), ("c", "T"));
        // Another agent's tab: its origin only.
        assert_eq!(
            (e[0].url.as_str(), e[0].title.as_str()),
            ("https://mail.example", "")
        );
        let user = pool.entries_for_user();
        assert_eq!(user[0].title, "Inbox (3) — private");
        let d = pool.diagnosis(&agent(1), "v");
        assert_eq!(
            (d.tabs_in_pool, d.agents, d.your_tabs.clone()),
            (2, 2, vec![TabId(1)])
        );
    }

    #[test]
    fn closing_the_window_forgets_its_tabs() {
        let mut pool = Pool::new();
        pool.window = Some(7);
        pool.insert(TabId(1), agent(1), String::new());
        assert!(pool.window_closed(8).is_empty());
        assert_eq!(pool.window_closed(7), vec![TabId(1)]);
        assert_eq!(pool.window, None);
    }

    #[test]
    fn an_adopted_pool_gives_tabs_back_to_their_owners_by_fingerprint() {
        let tabs = vec![
            (TabId(2), fingerprint(&agent(2)), "b".into()),
            (TabId(5), fingerprint(&agent(1)), "a".into()),
        ];
        let mut pool = Pool::adopted(3, Some(9), tabs, 50);
        assert_eq!((pool.window, pool.group), (Some(3), Some(9)));
        // Nobody else gets them, and the owner does on its first call.
        assert!(
            pool.authorize(&agent(3), Some(TabId(2)), Action::Read)
                .is_err()
        );
        pool.touch(&agent(1), 60);
        assert_eq!(pool.owned_by(&agent(1)), vec![TabId(5)]);
        pool.touch(&agent(2), 60);
        assert_eq!(
            pool.authorize(&agent(2), None, Action::Read),
            Ok(AuthorizedTab(TabId(2)))
        );
        assert!(pool.idle_agents(60, 1).is_empty());
        assert_eq!(pool.idle_agents(61, 1).len(), 2);
        pool.check_invariants(61).unwrap();
    }

    #[test]
    fn an_owner_that_never_returns_loses_its_tabs_to_idle_release() {
        let tabs = vec![(TabId(2), fingerprint(&agent(2)), "b".into())];
        let pool = Pool::adopted(3, None, tabs, 50);
        let idle = pool.idle_agents(51, 1);
        assert_eq!(idle.len(), 1);
        assert!(idle[0].is_placeholder());
        assert_ne!(fingerprint(&agent(1)), fingerprint(&agent(2)));
    }

    #[test]
    fn idle_agents_are_looked_for_every_quarter_limit_between_a_quarter_and_a_whole_second() {
        assert_eq!(idle_round_ms(600_000), 1_000);
        assert_eq!(idle_round_ms(2_000), 500);
        assert_eq!(idle_round_ms(400), 250);
    }
}
