//! Listeners kept for one tab each: the blocking webRequest listeners are added with a
//! `tabId` filter for the agent tabs that need them, so a request of the user's own tabs never
//! waits on the background. Which listeners to add and take out as the tabs change is kept
//! here; adding and removing them is the caller's. The same for one listener of every tab,
//! kept only while it is needed ([`WhileNeeded`]: the frames' allowlist listener).

use std::collections::HashMap;

use claudezilla_protocol::TabId;

/// One listener per tab of a set that changes (`L`: what takes the listener out again).
pub struct PerTab<L> {
    by_tab: HashMap<TabId, L>,
}

impl<L> Default for PerTab<L> {
    fn default() -> Self {
        Self {
            by_tab: HashMap::new(),
        }
    }
}

impl<L> PerTab<L> {
    /// Follows `wanted`: `add` makes the listener of each tab new to it, `remove` takes out
    /// the listener of each tab no longer in it; the others stay as they are.
    pub fn follow(
        &mut self,
        wanted: &[TabId],
        mut add: impl FnMut(TabId) -> L,
        mut remove: impl FnMut(&L),
    ) {
        self.by_tab.retain(|tab, listener| {
            let keep = wanted.contains(tab);
            if !keep {
                remove(listener);
            }
            keep
        });
        for tab in wanted {
            self.by_tab.entry(*tab).or_insert_with(|| add(*tab));
        }
    }

    /// Does any tab have its listener?
    pub fn is_empty(&self) -> bool {
        self.by_tab.is_empty()
    }
}

/// One listener, there while it is needed and only then (`L`: what takes it out again).
pub struct WhileNeeded<L>(Option<L>);

impl<L> Default for WhileNeeded<L> {
    fn default() -> Self {
        Self(None)
    }
}

impl<L> WhileNeeded<L> {
    /// Follows `needed`: `add` makes the listener where there is none, `remove` takes out the
    /// one no longer needed; otherwise it stays as it is.
    pub fn follow(&mut self, needed: bool, add: impl FnOnce() -> L, remove: impl FnOnce(L)) {
        self.0 = match (needed, self.0.take()) {
            (true, None) => Some(add()),
            (false, Some(old)) => {
                remove(old);
                None
            }
            (_, kept) => kept,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    fn tabs(ids: &[u32]) -> Vec<TabId> {
        ids.iter().copied().map(TabId).collect()
    }

    #[test]
    fn a_tab_gets_its_listener_once_and_loses_it_as_it_leaves() {
        let mut per_tab = PerTab::default();
        let (mut added, mut removed) = (Vec::new(), Vec::new());
        per_tab.follow(
            &tabs(&[1, 2]),
            |t| {
                added.push(t);
                t
            },
            |t| removed.push(*t),
        );
        per_tab.follow(
            &tabs(&[2, 3, 3]),
            |t| {
                added.push(t);
                t
            },
            |t| removed.push(*t),
        );
        assert_eq!(added, tabs(&[1, 2, 3]));
        assert_eq!(removed, tabs(&[1]));
        per_tab.follow(&[], |t| t, |t| removed.push(*t));
        removed.sort_by_key(|t| t.0);
        assert_eq!(removed, tabs(&[1, 2, 3]));
        assert!(per_tab.is_empty());
    }

    #[test]
    fn a_lone_listener_is_added_once_needed_and_taken_out_once_not() {
        let mut lone = WhileNeeded::default();
        let steps = std::cell::RefCell::new(Vec::new());
        let mut added = 0;
        for needed in [false, true, true, false, false, true] {
            steps.borrow_mut().push(format!("needed: {needed}"));
            lone.follow(
                needed,
                || {
                    added += 1;
                    steps.borrow_mut().push(format!("add {added}"));
                    added
                },
                |l| steps.borrow_mut().push(format!("remove {l}")),
            );
        }
        assert_eq!(
            steps.into_inner(),
            [
                "needed: false",
                "needed: true",
                "add 1",
                "needed: true",
                "needed: false",
                "remove 1",
                "needed: false",
                "needed: true",
                "add 2",
            ]
        );
    }

    proptest! {
        /// However the need changes, a listener is there exactly while needed, each one
        /// taken out once.
        #[test]
        fn a_lone_listener_follows_the_need(needs in proptest::collection::vec(any::<bool>(), 1..20)) {
            let mut lone = WhileNeeded::default();
            let live = std::cell::Cell::new(None);
            let mut made = 0;
            for needed in needs {
                lone.follow(needed, || {
                    made += 1;
                    assert_eq!(live.replace(Some(made)), None, "added over another");
                    made
                }, |l| {
                    assert_eq!(live.take(), Some(l), "took out another");
                });
                prop_assert_eq!(live.get().is_some(), needed);
            }
        }

        /// Whatever the tabs do, each wanted tab has one listener, no other tab has one, and
        /// every listener added is taken out once it is no longer wanted.
        #[test]
        fn listeners_follow_the_wanted_tabs(steps in proptest::collection::vec(proptest::collection::vec(0u32..6, 0..5), 1..20)) {
            let mut per_tab = PerTab::default();
            let mut live: BTreeSet<u32> = BTreeSet::new();
            for wanted in &steps {
                let mut added = Vec::new();
                let mut removed = Vec::new();
                per_tab.follow(&tabs(wanted), |t| { added.push(t.0); t.0 }, |l| removed.push(*l));
                for r in &removed {
                    prop_assert!(live.remove(r), "took out {r}, which had no listener");
                }
                for a in &added {
                    prop_assert!(live.insert(*a), "added {a} twice");
                }
                let want: BTreeSet<u32> = wanted.iter().copied().collect();
                prop_assert_eq!(&live, &want);
            }
        }
    }
}
