//! Which requests of a tab are in flight, for "the network is quiet" before a screenshot.

use std::collections::{HashMap, HashSet};

use claudezilla_protocol::TabId;

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

    /// Requests in flight, when the last one started or ended, and when the page last
    /// finished loading (0 if never).
    pub fn busy(&self, tab: TabId) -> (usize, f64, f64) {
        self.tabs.get(&tab).map_or((0, 0.0, 0.0), |a| {
            (a.in_flight.len(), a.last_change, a.loaded_at)
        })
    }

    pub fn forget(&mut self, tab: TabId) {
        self.tabs.remove(&tab);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_requests_in_flight_per_tab() {
        let mut n = Network::default();
        assert_eq!(n.busy(TabId(1)), (0, 0.0, 0.0));
        n.started(TabId(1), "a", 10.0);
        n.started(TabId(1), "b", 11.0);
        n.started(TabId(2), "c", 12.0);
        n.finished(TabId(1), "a", 20.0);
        n.finished(TabId(1), "zzz", 99.0);
        assert_eq!(n.busy(TabId(1)), (1, 20.0, 0.0));
        n.finished(TabId(1), "b", 30.0);
        n.loaded(TabId(1), 31.0);
        assert_eq!(n.busy(TabId(1)), (0, 30.0, 31.0));
        n.forget(TabId(2));
        assert_eq!(n.busy(TabId(2)), (0, 0.0, 0.0));
    }
}
