//! The mark an agent tab carries in the browser's session store (it outlives the background's
//! state, so a restarted background re-adopts its tabs): the owner's fingerprint in hex, never
//! the agent's id itself (the store is written to disk); and the pool a restarted background
//! finds by the marks ([`restore`], over [`Marks`], which `background/persist.rs` implements).

use claudezilla_protocol::{AgentId, TabId};

use crate::browser_tab::Window;
use crate::pool::{Pool, fingerprint};

/// The mark of the agents' window.
pub const AGENTS_WINDOW: &str = "agents";

/// The mark of a tab `owner` drives.
pub fn of(owner: &AgentId) -> String {
    fingerprint(owner)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The fingerprint a mark holds; none for anything else (a store value may be anything).
pub fn parse(mark: &str) -> Option<[u8; 16]> {
    // Hex digits only: `from_str_radix` alone would take a sign ("+1").
    if mark.len() != 32 || !mark.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut out = [0; 16];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&mark[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

/// The session store's marks, as a restart reads them.
pub trait Marks {
    /// The window's mark, if it has one.
    fn window_mark(&self, window: u32) -> impl Future<Output = Option<String>>;
    /// The tab's mark, if it has one.
    fn tab_mark(&self, tab: u32) -> impl Future<Output = Option<String>>;
    /// The pool's clock (ms).
    fn now(&self) -> u64;
}

/// What a restart found: the pool of the agents' window.
#[derive(Debug)]
pub struct Restored {
    pub pool: Pool,
    window: u32,
    tabs: usize,
}

impl Restored {
    /// What the log says of it.
    pub fn said(&self) -> String {
        format!(
            "re-adopted window {} with {} agent tab(s)",
            self.window, self.tabs
        )
    }
}

/// The pool of the first window marked as the agents': its tabs that carry an owner's mark
/// re-adopted with their titles (the others left alone), its tab group the first such tab's.
/// None where no window is marked. Marks are read one at a time, in the windows' order.
pub async fn restore(m: &impl Marks, windows: Vec<Window>) -> Option<Restored> {
    for window in windows {
        if m.window_mark(window.id).await.as_deref() != Some(AGENTS_WINDOW) {
            continue;
        }
        let mut tabs = Vec::new();
        let mut titles = Vec::new();
        let mut group = None;
        for tab in window.tabs {
            let mark = m.tab_mark(tab.id).await;
            let Some(owner) = mark.as_deref().and_then(parse) else {
                continue;
            };
            group = group.or(tab.group_id.filter(|g| *g >= 0).map(|g| g as u32));
            titles.push((TabId(tab.id), tab.title));
            tabs.push((TabId(tab.id), owner, tab.url));
        }
        let count = tabs.len();
        let mut pool = Pool::adopted(window.id, group, tabs, m.now());
        for (tab, title) in titles {
            pool.update_page(tab, None, Some(title));
        }
        return Some(Restored {
            pool,
            window: window.id,
            tabs: count,
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::collections::HashMap;

    use proptest::prelude::*;

    use super::*;
    use crate::at_once::run;

    /// A session store of the tests' own, logging each read.
    #[derive(Default)]
    struct Store {
        windows: HashMap<u32, String>,
        tabs: HashMap<u32, String>,
        log: RefCell<Vec<String>>,
    }

    impl Marks for Store {
        async fn window_mark(&self, window: u32) -> Option<String> {
            self.log.borrow_mut().push(format!("window {window}"));
            self.windows.get(&window).cloned()
        }

        async fn tab_mark(&self, tab: u32) -> Option<String> {
            self.log.borrow_mut().push(format!("tab {tab}"));
            self.tabs.get(&tab).cloned()
        }

        fn now(&self) -> u64 {
            self.log.borrow_mut().push("now".into());
            5_000
        }
    }

    /// Read as the browser gives it (`windows.getAll({populate: true})`).
    fn window(id: u32, tabs: Vec<serde_json::Value>) -> Window {
        serde_json::from_value(serde_json::json!({"id": id, "tabs": tabs})).unwrap()
    }

    fn tab(id: u32, group: i64) -> serde_json::Value {
        serde_json::json!({"id": id, "windowId": 1, "url": format!("https://a.test/{id}"),
            "title": format!("page {id}"), "groupId": group})
    }

    fn owner() -> AgentId {
        AgentId::new([7; 16], 7)
    }

    #[test]
    fn the_first_window_marked_the_agents_is_the_pools() {
        let mut store = Store::default();
        store.windows.insert(2, "agents".into());
        store.windows.insert(3, "agents".into());
        store.windows.insert(4, "other".into());
        store.tabs.insert(20, of(&owner()));
        let windows = vec![
            window(1, vec![tab(10, -1)]),
            window(4, vec![tab(40, -1)]),
            window(2, vec![tab(20, -1)]),
            window(3, vec![tab(30, -1)]),
        ];
        let restored = run(restore(&store, windows)).unwrap();
        assert_eq!(restored.pool.window, Some(2));
        assert_eq!(restored.said(), "re-adopted window 2 with 1 agent tab(s)");
        assert_eq!(
            *store.log.borrow(),
            ["window 1", "window 4", "window 2", "tab 20", "now"]
        );
    }

    #[test]
    fn only_tabs_with_an_owners_mark_are_re_adopted_with_their_titles() {
        let mut store = Store::default();
        store.windows.insert(2, "agents".into());
        store.tabs.insert(20, of(&owner()));
        store.tabs.insert(22, "not a mark".into());
        let windows = vec![window(2, vec![tab(20, -1), tab(21, -1), tab(22, -1)])];
        let pool = run(restore(&store, windows)).unwrap().pool;
        assert_eq!(pool.tab_ids(), [TabId(20)]);
        let placeholder = AgentId::placeholder(fingerprint(&owner()));
        assert_eq!(pool.owner(TabId(20)), Some(&placeholder));
        let entry = &pool.entries_for_user()[0];
        assert_eq!(
            (entry.url.as_str(), entry.title.as_str()),
            ("https://a.test/20", "page 20")
        );
    }

    #[test]
    fn the_group_is_the_first_re_adopted_tabs_own() {
        let mut store = Store::default();
        store.windows.insert(2, "agents".into());
        store.tabs.insert(21, of(&owner()));
        store.tabs.insert(22, of(&owner()));
        store.tabs.insert(23, of(&owner()));
        // Tab 20 is no agent's; 21 is in no group.
        let tabs = vec![tab(20, 5), tab(21, -1), tab(22, 7), tab(23, 8)];
        let pool = run(restore(&store, vec![window(2, tabs)])).unwrap().pool;
        assert_eq!(pool.group, Some(7));
    }

    #[test]
    fn no_marked_window_restores_nothing() {
        let store = Store::default();
        assert!(run(restore(&store, vec![window(1, vec![tab(10, -1)])])).is_none());
        assert_eq!(*store.log.borrow(), ["window 1"]);
    }

    #[test]
    fn a_mark_reads_back_as_its_owners_fingerprint_and_hides_the_id() {
        let owner = AgentId::new([7; 16], 7);
        let mark = of(&owner);
        assert_eq!(mark.len(), 32);
        assert!(!mark.contains(owner.secret()), "{mark}");
        assert_eq!(parse(&mark), Some(fingerprint(&owner)));
        assert_eq!(parse(&mark.to_uppercase()), Some(fingerprint(&owner)));
    }

    #[test]
    fn anything_else_is_no_mark() {
        for bad in [
            "",
            "00",
            &"0".repeat(31),
            &"g".repeat(32),
            &"+1".repeat(16),
            &"é".repeat(16),
        ] {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
    }

    proptest! {
        /// Whatever a store holds, reading it never panics, and a mark it accepts is 32 hex digits.
        #[test]
        fn any_text_is_read_safely(text in "\\\\PC{0,40}") {
            if parse(&text).is_some() {
                prop_assert!(text.len() == 32 && text.bytes().all(|b| b.is_ascii_hexdigit()));
            }
        }
    }
}
