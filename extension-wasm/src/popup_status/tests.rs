use claudezilla_protocol::TabId;

use super::*;

fn agent(n: u8) -> AgentId {
    AgentId::new([n; 16], 100)
}

/// The background's parts, empty, and the status they give at `now`.
struct State {
    pool: Pool,
    capture: CaptureLock,
    loops: Loops,
    approvals: Approvals,
    activity: Activity,
    tuning: Tuning,
    /// The list the user set in the popup.
    popup_domains: Vec<String>,
}

fn state() -> State {
    State {
        pool: Pool::default(),
        capture: CaptureLock::default(),
        loops: Loops::default(),
        approvals: Approvals::default(),
        activity: Activity::default(),
        tuning: Tuning::default(),
        popup_domains: vec!["test.org".into()],
    }
}

impl State {
    fn status(&mut self, storage_switch: bool, now: u64) -> PopupStatus {
        let parts = Parts {
            connected: true,
            pool: &mut self.pool,
            capture: &self.capture,
            loops: &self.loops,
            approvals: &self.approvals,
            activity: &self.activity,
            tuning: &self.tuning,
            evaluate: false,
            storage_switch,
            private_attach: false,
            popup_domains: &self.popup_domains,
        };
        status(parts, now)
    }
}

#[test]
fn the_screenshot_lock_shows_its_holder_how_long_and_who_waits() {
    let mut s = state();
    assert_eq!(s.status(false, 0).capture, None);
    s.capture.request(&agent(0xaa), 1_000);
    s.capture.request(&agent(0xbb), 1_200);
    let capture = s.status(false, 3_500).capture.unwrap();
    assert_eq!(capture.holder, agent(0xaa).short());
    assert_eq!(capture.held_ms, 2_500);
    assert_eq!(capture.waiting, 1);
}

#[test]
fn the_pools_tabs_show_with_their_owners() {
    let mut s = state();
    s.pool
        .insert(TabId(5), agent(0xaa), "https://example.com/".into());
    let tabs = s.status(false, 0).tabs;
    assert_eq!(tabs.len(), 1);
    assert_eq!(tabs[0].tab_id, TabId(5));
    assert_eq!(tabs[0].owner, agent(0xaa).short());
    assert!(!tabs[0].attached);
}

#[test]
fn agents_waiting_for_a_slot_and_holding_one_show_by_name_and_expire() {
    let mut s = state();
    for t in 1..=3 {
        s.pool.insert(TabId(t), agent(0xaa), String::new());
    }
    s.pool.request_space(&agent(0xbb), 0);
    s.pool.request_space(&agent(0xcc), 10);
    s.pool.grant(&agent(0xaa), 100, 1_000).unwrap();
    let shown = s.status(false, 500);
    assert_eq!(shown.waiting, [agent(0xcc).short()]);
    assert_eq!(shown.reserved, [agent(0xbb).short()]);
    // The popup's look expires what is due, as an agent's would.
    assert!(s.status(false, 1_100).reserved.is_empty());
}

#[test]
fn the_environments_switches_stand_and_show_as_set_by_it() {
    let mut s = state();
    let shown = s.status(false, 0);
    assert!(!shown.storage && !shown.storage_by_environment);
    assert!(!shown.evaluate_by_environment);
    assert!(!shown.allowed_domains_by_environment);
    // The popup's switch alone turns storage on, not as the environment's.
    let shown = s.status(true, 0);
    assert!(shown.storage && !shown.storage_by_environment);
    assert_eq!(shown.allowed_domains, ["test.org"]);
    s.tuning.allow_storage = true;
    s.tuning.allow_evaluate = true;
    s.tuning.allowed_domains = vec!["example.com".into()];
    // The popup's switch off and its list set, the environment's still hold.
    let shown = s.status(false, 0);
    assert!(shown.storage && shown.storage_by_environment);
    assert!(shown.evaluate_by_environment);
    assert_eq!(shown.allowed_domains, ["example.com"]);
    assert!(shown.allowed_domains_by_environment);
}
