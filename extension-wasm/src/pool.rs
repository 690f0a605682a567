//! The shared pool of agent tabs and their owners.
//!
//! **Invariant:** this module alone decides who may touch a tab. Every command that touches a
//! tab goes through [`Pool::authorize`], also when it names no tab (it then gets the caller's
//! most recently used tab, never whatever tab happens to be active).

use std::collections::BTreeMap;

use claudezilla_protocol::reply::{ExtensionDiagnosis, TabEntry};
use claudezilla_protocol::{AgentId, ErrorBody, ErrorCode, TabId};

/// Most tabs all agents together may hold.
pub const POOL_LIMIT: usize = 12;

#[derive(Debug, Clone, PartialEq)]
pub struct TabRecord {
    pub owner: AgentId,
    pub url: String,
    pub title: String,
    /// Larger is more recent; bumped by every authorized command.
    last_used: u64,
}

#[derive(Debug, Default)]
pub struct Pool {
    tabs: BTreeMap<TabId, TabRecord>,
    /// The dedicated window the agents' tabs live in, once opened.
    pub window: Option<u32>,
    clock: u64,
}

impl Pool {
    pub fn new() -> Self {
        Self::default()
    }

    fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    /// May `agent` open one more tab?
    pub fn admit(&self, agent: &AgentId) -> Result<(), ErrorBody> {
        if self.tabs.len() < POOL_LIMIT {
            return Ok(());
        }
        let mine = self.owned_by(agent).len();
        Err(ErrorBody::new(
            ErrorCode::PoolFull,
            format!("all {POOL_LIMIT} agent tabs are in use ({mine} of them yours)"),
        )
        .with_hint("close one of your tabs with firefox_close_tab, then try again"))
    }

    pub fn insert(&mut self, tab: TabId, owner: AgentId, url: String) {
        let last_used = self.tick();
        self.tabs.insert(
            tab,
            TabRecord {
                owner,
                url,
                title: String::new(),
                last_used,
            },
        );
    }

    /// Checks that `agent` may `action` the tab it named (or its most recent tab when it named
    /// none), and marks the tab as just used.
    pub fn authorize(
        &mut self,
        agent: &AgentId,
        tab: Option<TabId>,
        action: &str,
    ) -> Result<TabId, ErrorBody> {
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
        Ok(tab)
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

    /// Forgets every tab of `agent` and returns them (for the caller to close).
    pub fn release(&mut self, agent: &AgentId) -> Vec<TabId> {
        let gone = self.owned_by(agent);
        for tab in &gone {
            self.tabs.remove(tab);
        }
        gone
    }

    /// Keeps the cached URL and title current (from `tabs.onUpdated`).
    pub fn update_page(&mut self, tab: TabId, url: Option<String>, title: Option<String>) {
        let Some(record) = self.tabs.get_mut(&tab) else {
            return;
        };
        if let Some(url) = url {
            record.url = url;
        }
        if let Some(title) = title {
            record.title = title;
        }
    }

    pub fn contains(&self, tab: TabId) -> bool {
        self.tabs.contains_key(&tab)
    }

    pub fn owned_by(&self, agent: &AgentId) -> Vec<TabId> {
        self.tabs
            .iter()
            .filter(|(_, r)| &r.owner == agent)
            .map(|(id, _)| *id)
            .collect()
    }

    /// Every agent tab, as `agent` sees them.
    pub fn entries(&self, agent: &AgentId) -> Vec<TabEntry> {
        self.tabs
            .iter()
            .map(|(id, r)| TabEntry {
                tab_id: *id,
                url: r.url.clone(),
                title: r.title.clone(),
                mine: &r.owner == agent,
                owner: r.owner.short().to_owned(),
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
        }
    }

    /// Forgets everything about the window (it was closed).
    pub fn window_closed(&mut self, window: u32) -> Vec<TabId> {
        if self.window != Some(window) {
            return Vec::new();
        }
        self.window = None;
        let all: Vec<TabId> = self.tabs.keys().copied().collect();
        self.tabs.clear();
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent(n: u8) -> AgentId {
        AgentId::new([n; 16], n.into())
    }

    #[test]
    fn owners_act_and_others_are_refused_with_the_ownership_message() {
        let mut pool = Pool::new();
        pool.insert(TabId(4), agent(1), "about:blank".into());
        assert_eq!(
            pool.authorize(&agent(1), Some(TabId(4)), "navigate"),
            Ok(TabId(4))
        );
        let err = pool
            .authorize(&agent(2), Some(TabId(4)), "navigate")
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
    fn no_tab_named_means_the_callers_most_recent_tab_never_another_agents() {
        let mut pool = Pool::new();
        pool.insert(TabId(1), agent(1), String::new());
        pool.insert(TabId(2), agent(1), String::new());
        pool.insert(TabId(3), agent(2), String::new());
        assert_eq!(pool.authorize(&agent(1), None, "read"), Ok(TabId(2)));
        pool.authorize(&agent(1), Some(TabId(1)), "read").unwrap();
        assert_eq!(pool.authorize(&agent(1), None, "read"), Ok(TabId(1)));
        assert_eq!(pool.authorize(&agent(2), None, "read"), Ok(TabId(3)));
        let err = pool.authorize(&agent(3), None, "read").unwrap_err();
        assert_eq!(err.code, ErrorCode::NoSuchTab);
    }

    #[test]
    fn unknown_tabs_are_no_such_tab() {
        let mut pool = Pool::new();
        let err = pool
            .authorize(&agent(1), Some(TabId(99)), "close")
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::NoSuchTab);
        assert!(err.message.contains("tab 99"));
    }

    #[test]
    fn the_pool_admits_up_to_its_limit() {
        let mut pool = Pool::new();
        for i in 0..POOL_LIMIT as u32 {
            pool.admit(&agent(1)).unwrap();
            pool.insert(TabId(i), agent(1), String::new());
        }
        let err = pool.admit(&agent(2)).unwrap_err();
        assert_eq!(err.code, ErrorCode::PoolFull);
        pool.remove(TabId(0));
        assert!(pool.admit(&agent(2)).is_ok());
    }

    #[test]
    fn release_takes_only_the_agents_tabs() {
        let mut pool = Pool::new();
        pool.insert(TabId(1), agent(1), String::new());
        pool.insert(TabId(2), agent(2), String::new());
        pool.insert(TabId(3), agent(1), String::new());
        assert_eq!(pool.release(&agent(1)), vec![TabId(1), TabId(3)]);
        assert!(pool.contains(TabId(2)) && !pool.contains(TabId(1)));
        assert!(pool.release(&agent(1)).is_empty());
    }

    #[test]
    fn entries_mark_mine_and_cache_pages() {
        let mut pool = Pool::new();
        pool.insert(TabId(1), agent(1), "a".into());
        pool.insert(TabId(2), agent(2), "b".into());
        pool.update_page(TabId(2), Some("c".into()), Some("T".into()));
        let e = pool.entries(&agent(2));
        assert_eq!((e[0].mine, e[1].mine), (false, true));
        assert_eq!((e[1].url.as_str(), e[1].title.as_str()), ("c", "T"));
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
}
