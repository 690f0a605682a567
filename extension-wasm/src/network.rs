//! Which requests of a tab are in flight, and when a tab's network counts as quiet before a
//! screenshot.

use std::collections::{HashMap, HashSet};

use claudezilla_protocol::TabId;

/// The network counts as quiet after this long without a critical request in flight.
pub const QUIET_MS: f64 = 150.0;
/// A page that has just loaded often starts requests a few hundred ms later (measured here:
/// ~300 ms for a fetch in an inline script): it is not called quiet before this.
pub const YOUNG_PAGE_MS: f64 = 600.0;

#[derive(Debug, Default)]
struct Activity {
    in_flight: HashSet<String>,
    /// When a request last started or ended (ms).
    last_change: f64,
    /// When the tab last finished loading a page (ms).
    loaded_at: f64,
}

#[derive(Debug, Default)]
pub struct Network {
    tabs: HashMap<TabId, Activity>,
}

impl Network {
    pub fn started(&mut self, tab: TabId, request: &str, now: f64) {
        let a = self.tabs.entry(tab).or_default();
        a.in_flight.insert(request.to_owned());
        a.last_change = now;
    }

    pub fn finished(&mut self, tab: TabId, request: &str, now: f64) {
        if let Some(a) = self.tabs.get_mut(&tab)
            && a.in_flight.remove(request)
        {
            a.last_change = now;
        }
    }

    pub fn loaded(&mut self, tab: TabId, now: f64) {
        self.tabs.entry(tab).or_default().loaded_at = now;
    }

    /// Whether the tab has had no critical request in flight for [`QUIET_MS`], and its page
    /// finished loading at least [`YOUNG_PAGE_MS`] ago.
    pub fn quiet(&self, tab: TabId, now: f64) -> bool {
        let Some(a) = self.tabs.get(&tab) else {
            return true;
        };
        a.in_flight.is_empty()
            && now >= a.loaded_at + YOUNG_PAGE_MS
            && now - a.last_change >= QUIET_MS
    }

    pub fn forget(&mut self, tab: TabId) {
        self.tabs.remove(&tab);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: TabId = TabId(1);

    #[test]
    fn a_tab_never_seen_is_quiet() {
        assert!(Network::default().quiet(T, 0.0));
    }

    #[test]
    fn quiet_only_with_nothing_in_flight_for_a_while() {
        let mut n = Network::default();
        n.loaded(T, 0.0);
        n.started(T, "a", 1_000.0);
        n.started(T, "b", 1_010.0);
        n.finished(T, "a", 1_020.0);
        // An unknown request ending changes nothing (it was never counted).
        n.finished(T, "zzz", 1_900.0);
        assert!(!n.quiet(T, 5_000.0), "b is still in flight");
        n.finished(T, "b", 2_000.0);
        assert!(!n.quiet(T, 2_000.0 + QUIET_MS - 1.0));
        assert!(n.quiet(T, 2_000.0 + QUIET_MS));
    }

    #[test]
    fn a_page_just_loaded_is_not_quiet_yet() {
        let mut n = Network::default();
        n.loaded(T, 10_000.0);
        assert!(!n.quiet(T, 10_000.0 + YOUNG_PAGE_MS - 1.0));
        assert!(n.quiet(T, 10_000.0 + YOUNG_PAGE_MS));
    }

    #[test]
    fn tabs_are_counted_apart_and_forgotten() {
        let mut n = Network::default();
        n.started(TabId(2), "c", 0.0);
        assert!(n.quiet(T, 1_000.0));
        assert!(!n.quiet(TabId(2), 1_000.0));
        n.forget(TabId(2));
        assert!(n.quiet(TabId(2), 1_000.0));
    }
}
