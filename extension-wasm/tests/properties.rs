//! Property tests: random interleavings of what several agents do never break the pool's or
//! the screenshot lock's invariants.

use std::collections::{BTreeMap, BTreeSet};

use claudezilla_extension_wasm::capture_lock::CaptureLock;
use claudezilla_extension_wasm::pool::{CALL_HEARD_MS, OPENING_MS, Opened, POOL_LIMIT, Pool};
use claudezilla_extension_wasm::route::Action;
use claudezilla_protocol::{AgentId, TabId};
use proptest::prelude::*;

const AGENTS: u8 = 5;
const RESERVATION_MS: u64 = 30_000;
const IDLE_MS: u64 = 600_000;

#[derive(Debug, Clone)]
enum Op {
    Create(u8),
    Close(u8, usize),
    Request(u8),
    Grant(u8),
    Goodbye(u8),
    /// The user closes a tab in the window.
    UserCloses(usize),
    /// An agent attaches one of the user's tabs (the user allowed it).
    Attach(u8),
    /// A tab's page opens a tab (or the user does, from their attached tab).
    Opens(usize),
    /// An agent's new tab is admitted and asked of the browser (its slot held).
    Hold(u8),
    /// The browser makes one of the tabs asked for (`true`), or does not (`false`).
    Made(usize, bool),
    Touch(u8),
    /// An agent's call begins, or one of its calls in flight ends.
    CallBegins(u8),
    CallEnds(u8),
    Advance(u64),
    IdleSweep,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0..AGENTS).prop_map(Op::Create),
        2 => (0..AGENTS, 0..6usize).prop_map(|(a, i)| Op::Close(a, i)),
        2 => (0..AGENTS).prop_map(Op::Request),
        2 => (0..AGENTS).prop_map(Op::Grant),
        1 => (0..AGENTS).prop_map(Op::Goodbye),
        1 => (0..20usize).prop_map(Op::UserCloses),
        1 => (0..AGENTS).prop_map(Op::Attach),
        2 => (0..20usize).prop_map(Op::Opens),
        2 => (0..AGENTS).prop_map(Op::Hold),
        2 => (0..4usize, any::<bool>()).prop_map(|(i, made)| Op::Made(i, made)),
        1 => (0..AGENTS).prop_map(Op::Touch),
        1 => (0..AGENTS).prop_map(Op::CallBegins),
        1 => (0..AGENTS).prop_map(Op::CallEnds),
        2 => prop_oneof![Just(1_000u64), Just(29_000), Just(31_000), Just(400_000)].prop_map(Op::Advance),
        1 => Just(Op::IdleSweep),
    ]
}

fn agent(n: u8) -> AgentId {
    AgentId::new([n + 1; 16], u32::from(n) + 100)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn the_pool_never_overcommits_or_leaks(ops in proptest::collection::vec(op(), 1..120)) {
        let mut pool = Pool::new();
        let mut now = 0u64;
        let mut next_tab = 1u32;
        // What the browser would show: tab → owner, kept in step with the pool; and which
        // of them are the user's, attached.
        let mut shadow: BTreeMap<TabId, AgentId> = BTreeMap::new();
        let mut attached: BTreeSet<TabId> = BTreeSet::new();
        // Tabs asked of the browser and not made yet: their agent, and until when.
        let mut asked: Vec<(AgentId, u64)> = Vec::new();
        // Calls in flight per agent, and when the newest began.
        let mut in_flight: BTreeMap<AgentId, (u32, u64)> = BTreeMap::new();
        for op in ops {
            // A tab made after its slot's time is closed when it comes (as an abandoned one).
            asked.retain(|(_, until)| *until > now);
            match op {
                Op::Create(a) => {
                    pool.touch(&agent(a), now);
                    if pool.admit(&agent(a), now).is_ok() {
                        pool.insert(TabId(next_tab), agent(a), String::new());
                        shadow.insert(TabId(next_tab), agent(a));
                        next_tab += 1;
                    }
                }
                Op::Close(a, i) => {
                    let mine = pool.owned_by(&agent(a));
                    if let Some(tab) = mine.get(i % mine.len().max(1)) {
                        prop_assert!(pool.authorize(&agent(a), Some(*tab), Action::Close).is_ok());
                        // An attached tab is given back, never closed.
                        match attached.remove(tab) {
                            true => prop_assert!(pool.detach(&agent(a), *tab).is_ok()),
                            false => prop_assert!(pool.remove(*tab).is_some()),
                        }
                        shadow.remove(tab);
                    }
                }
                Op::Request(a) => { pool.request_space(&agent(a), now); }
                Op::Grant(a) => {
                    if let Ok(g) = pool.grant(&agent(a), now, RESERVATION_MS) {
                        prop_assert_eq!(shadow.remove(&g.released), Some(agent(a)), "granted someone else's tab");
                        prop_assert_ne!(g.to, agent(a));
                    }
                }
                Op::Goodbye(a) => {
                    // Its tabs being made are closed as they come.
                    asked.retain(|(owner, _)| owner != &agent(a));
                    // Its calls still running end unheard.
                    in_flight.remove(&agent(a));
                    let gone = pool.release(&agent(a));
                    for tab in gone.closed {
                        prop_assert!(!attached.contains(&tab), "closed the user's tab {}", tab);
                        prop_assert_eq!(shadow.remove(&tab), Some(agent(a)));
                    }
                    for tab in gone.given_back {
                        prop_assert!(attached.remove(&tab));
                        prop_assert_eq!(shadow.remove(&tab), Some(agent(a)));
                    }
                }
                Op::UserCloses(i) => {
                    let ids = pool.tab_ids();
                    if let Some(tab) = ids.get(i % ids.len().max(1)) {
                        pool.remove(*tab);
                        shadow.remove(tab);
                        attached.remove(tab);
                    }
                }
                Op::Attach(a) => {
                    if pool.admit(&agent(a), now).is_ok() {
                        prop_assert!(pool.attach(TabId(next_tab), &agent(a), String::new()).is_ok());
                        shadow.insert(TabId(next_tab), agent(a));
                        attached.insert(TabId(next_tab));
                        next_tab += 1;
                    }
                }
                Op::Opens(i) => {
                    // From one of the pool's tabs, or from a tab of the user's no agent drives.
                    let ids = pool.tab_ids();
                    let opener = ids.get(i % (ids.len() + 1)).copied().unwrap_or(TabId(0));
                    let expected = shadow.get(&opener).map(|owner| match attached.contains(&opener) {
                        true => Opened::Users { attached_by: owner.clone() },
                        false => Opened::Agents(owner.clone()),
                    });
                    let opened = pool.opened_from(opener);
                    prop_assert_eq!(&opened, &expected);
                    if let Some(Opened::Agents(owner)) = opened
                        && pool.admit(&owner, now).is_ok()
                    {
                        pool.insert(TabId(next_tab), owner.clone(), String::new());
                        shadow.insert(TabId(next_tab), owner);
                    }
                    // The user's opened tab is never pooled: a fresh id, taken either way.
                    next_tab += 1;
                }
                Op::Hold(a) => {
                    if pool.hold(&agent(a), now).is_ok() {
                        asked.push((agent(a), now + OPENING_MS));
                    }
                }
                Op::Made(i, made) => {
                    if !asked.is_empty() {
                        let (owner, _) = asked.remove(i % asked.len());
                        match made {
                            true => {
                                pool.insert_held(TabId(next_tab), owner.clone(), String::new());
                                shadow.insert(TabId(next_tab), owner);
                                next_tab += 1;
                            }
                            false => pool.let_go(&owner),
                        }
                    }
                }
                Op::Touch(a) => pool.touch(&agent(a), now),
                Op::CallBegins(a) => {
                    pool.call_began(&agent(a), now);
                    let (n, newest) = in_flight.entry(agent(a)).or_default();
                    (*n, *newest) = (*n + 1, now);
                }
                Op::CallEnds(a) => {
                    if let Some((n, _)) = in_flight.get_mut(&agent(a)) {
                        pool.call_ended(&agent(a), now);
                        *n -= 1;
                        if *n == 0 {
                            in_flight.remove(&agent(a));
                        }
                    }
                }
                Op::Advance(ms) => now += ms,
                Op::IdleSweep => {
                    for a in pool.idle_agents(now, IDLE_MS) {
                        // Only a call older than any call may last counts as stuck.
                        let waiting = in_flight.get(&a).is_some_and(|(_, newest)| now - newest < CALL_HEARD_MS);
                        prop_assert!(!waiting, "released {} while it waited on its call", a);
                        asked.retain(|(owner, _)| owner != &a);
                        let gone = pool.release(&a);
                        for tab in gone.closed.iter().chain(&gone.given_back) {
                            shadow.remove(tab);
                            attached.remove(tab);
                        }
                    }
                }
            }
            pool.check_invariants(now).map_err(TestCaseError::fail)?;
            prop_assert!(pool.len() + asked.len() <= POOL_LIMIT, "{} tabs and {} being made", pool.len(), asked.len());
            // One owner per tab, the same one the browser-side record says.
            let listed: BTreeMap<TabId, AgentId> = (0..AGENTS)
                .flat_map(|a| pool.owned_by(&agent(a)).into_iter().map(move |t| (t, agent(a))))
                .collect();
            prop_assert_eq!(&listed, &shadow);
            // Every tab is refused to everyone but its owner.
            for (tab, owner) in &shadow {
                for a in 0..AGENTS {
                    let allowed = pool.authorize(&agent(a), Some(*tab), Action::Read).is_ok();
                    prop_assert_eq!(allowed, &agent(a) == owner);
                }
            }
        }
        // Everyone leaves: no tab, request, reservation or slot held is left behind.
        for a in 0..AGENTS {
            pool.release(&agent(a));
        }
        prop_assert!(pool.is_empty());
        for a in 0..AGENTS {
            prop_assert_eq!(pool.room_for(&agent(a)), POOL_LIMIT);
        }
    }

    #[test]
    fn the_capture_lock_has_one_holder_and_ends_free(
        ops in proptest::collection::vec((0..AGENTS, 0..3u8), 1..80)
    ) {
        let mut lock = CaptureLock::new();
        let mut live = Vec::new();
        let mut now = 0;
        for (a, action) in ops {
            now += 7;
            match action {
                0 => live.push(lock.request(&agent(a), now)),
                // The holder finishes (success, error or closed tab: the guard releases).
                1 => if let Some(i) = live.iter().position(|t| lock.is_granted(*t)) {
                    lock.release(live.remove(i), now);
                },
                // A waiter gives up (MUTEX_BUSY or timeout).
                _ => if let Some(i) = live.iter().position(|t| !lock.is_granted(*t)) {
                    lock.cancel(live.remove(i), now);
                },
            }
            let holders = live.iter().filter(|t| lock.is_granted(**t)).count();
            prop_assert!(holders <= 1);
            prop_assert_eq!(holders == 1, lock.holder().is_some());
            prop_assert_eq!(lock.waiting() + holders, live.len());
            // The oldest live ticket is the holder: first come, first served.
            if let Some(first) = live.iter().min() {
                prop_assert!(lock.is_granted(*first));
            }
        }
        for t in live.drain(..) {
            lock.release(t, now);
        }
        prop_assert!(lock.holder().is_none());
        prop_assert_eq!(lock.waiting(), 0);
    }
}
