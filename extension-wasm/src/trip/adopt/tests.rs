use crate::steps::Steps;
use claudezilla_protocol::ErrorCode;

use super::*;
use crate::at_once::run;

/// A pool and browser whose answers are scripted, logging every step in order.
struct Fake {
    opened: Option<Opened>,
    admit: Result<(), ErrorBody>,
    /// A click on the opener waits for what it opened.
    clicking: bool,
    window: Option<u32>,
    /// The tab as the browser has it when looked at (none: gone).
    looked: Option<Tab>,
    log: Steps,
}

/// An agent whose short name is `agent_` and `n` four times (`agent(0xaa)`: `agent_aaaaaaaa`).
fn agent(n: u8) -> AgentId {
    AgentId::new([n; 16], 100)
}

fn fake(opened: Option<Opened>) -> Fake {
    Fake {
        opened,
        admit: Ok(()),
        clicking: false,
        window: Some(7),
        looked: None,
        log: Steps::default(),
    }
}

fn popup(window: u32) -> OpenedTab {
    OpenedTab {
        id: TabId(9),
        url: "https://example.com/popup".into(),
        window,
    }
}

/// Tab 9 at the popup's address in window 3, opened by `opener` where given.
fn browser_tab(opener: Option<u32>) -> Tab {
    serde_json::from_value(serde_json::json!({
        "id": 9, "windowId": 3, "url": "https://example.com/popup", "openerTabId": opener,
    }))
    .unwrap()
}

impl Adopter for Fake {
    fn opened_from(&self, _tab: TabId, _opener: TabId) -> Option<Opened> {
        self.opened.clone()
    }

    async fn look(&self, tab: TabId) -> Option<Tab> {
        self.log.say(format!("look {tab}"));
        self.looked.clone()
    }

    fn admit(&self, owner: &AgentId) -> Result<(), ErrorBody> {
        self.log.say(format!("admit {owner}"));
        self.admit.clone()
    }

    async fn close(&self, tab: TabId) {
        self.log.say(format!("close {tab}"));
    }

    fn take(&self, tab: &OpenedTab, owner: &AgentId) {
        self.log
            .say(format!("take {} for {owner} at {}", tab.id, tab.url));
    }

    fn tell_click(&self, opener: TabId, adopted: &Adopted) -> bool {
        self.log.say(format!("tell click on {opener}: {adopted:?}"));
        self.clicking
    }

    fn changed(&self) {
        self.log.say("changed");
    }

    async fn mark(&self, tab: TabId, owner: &AgentId) {
        self.log.say(format!("mark {tab} as {owner}"));
    }

    fn window(&self) -> Option<u32> {
        self.window
    }

    async fn move_to(&self, tab: TabId, window: u32) {
        self.log.say(format!("move {tab} to window {window}"));
    }

    async fn group(&self, tab: TabId, window: u32) {
        self.log.say(format!("group {tab} in window {window}"));
    }

    fn notify(&self, agent: &AgentId, text: String) {
        self.log.say(format!("notify {agent}: {text}"));
    }
}

#[test]
fn a_tab_from_an_agents_page_is_taken_before_it_is_marked_and_joins_the_agents_window() {
    let a = fake(Some(Opened::Agents(agent(0xaa))));
    run(adopt(&a, popup(3), TabId(2)));
    assert_eq!(
        a.log.all(),
        [
            "admit agent_aaaaaaaa",
            "take 9 for agent_aaaaaaaa at https://example.com/popup",
            "tell click on 2: Ok(TabId(9))",
            "changed",
            "mark 9 as agent_aaaaaaaa",
            "move 9 to window 7",
            "group 9 in window 7",
            "notify agent_aaaaaaaa: your page in tab 2 opened tab 9; it is yours (firefox_get_tabs lists it, firefox_close_tab closes it)",
        ]
    );
}

#[test]
fn a_click_waiting_names_the_tab_so_no_note_is_sent_and_a_tab_in_the_window_is_not_moved() {
    let a = Fake {
        clicking: true,
        ..fake(Some(Opened::Agents(agent(0xaa))))
    };
    run(adopt(&a, popup(7), TabId(2)));
    let steps = a.log.all();
    assert!(!steps.iter().any(|s| s.starts_with("notify")), "{steps:?}");
    assert!(!steps.iter().any(|s| s.starts_with("move")), "{steps:?}");
    assert_eq!(
        steps.last().map(String::as_str),
        Some("group 9 in window 7")
    );
}

#[test]
fn without_an_agents_window_the_tab_stays_where_it_opened() {
    let a = Fake {
        window: None,
        ..fake(Some(Opened::Agents(agent(0xaa))))
    };
    run(adopt(&a, popup(3), TabId(2)));
    let steps = a.log.all();
    assert!(
        !steps
            .iter()
            .any(|s| s.starts_with("move") || s.starts_with("group")),
        "{steps:?}"
    );
    assert!(
        steps
            .last()
            .is_some_and(|s| s.starts_with("notify agent_aaaaaaaa:"))
    );
}

#[test]
fn past_the_agents_share_the_tab_is_closed_and_the_click_or_a_note_says_why() {
    let full = || Err(ErrorBody::new(ErrorCode::PoolFull, "the pool is full"));
    let a = Fake {
        admit: full(),
        ..fake(Some(Opened::Agents(agent(0xaa))))
    };
    run(adopt(&a, popup(3), TabId(2)));
    assert_eq!(
        a.log.all(),
        [
            "admit agent_aaaaaaaa",
            "close 9",
            "tell click on 2: Err(\"the pool is full\")",
            "notify agent_aaaaaaaa: your page in tab 2 opened a tab, which was closed: the pool is full",
        ]
    );
    let clicked = Fake {
        admit: full(),
        clicking: true,
        ..fake(Some(Opened::Agents(agent(0xaa))))
    };
    run(adopt(&clicked, popup(3), TabId(2)));
    assert_eq!(
        clicked.log.all().last().map(String::as_str),
        Some("tell click on 2: Err(\"the pool is full\")")
    );
}

#[test]
fn a_tab_from_a_users_attached_tab_stays_theirs_and_its_agent_hears_of_it() {
    let a = fake(Some(Opened::Users {
        attached_by: agent(0xbb),
    }));
    run(adopt(&a, popup(3), TabId(2)));
    let steps = a.log.all();
    assert_eq!(steps.len(), 1, "{steps:?}");
    assert!(
        steps[0].starts_with("notify agent_bbbbbbbb: tab 2 (the user's, attached to you) opened tab 9: it is the user's, not yours"),
        "{steps:?}"
    );
}

#[test]
fn a_tab_already_in_the_pool_or_from_no_pool_tab_is_left_alone() {
    let a = fake(None);
    run(adopt(&a, popup(3), TabId(2)));
    assert!(a.log.all().is_empty());
}

#[test]
fn a_made_tab_is_a_pages_by_its_opener() {
    assert_eq!(created(browser_tab(Some(2))), Some((popup(3), TabId(2))));
    assert_eq!(created(browser_tab(None)), None);
}

#[test]
fn a_popup_window_without_an_opener_is_its_navigations_sources() {
    let a = Fake {
        looked: Some(browser_tab(None)),
        ..fake(Some(Opened::Agents(agent(0xaa))))
    };
    let target =
        serde_json::json!({"sourceTabId": 2, "tabId": 9, "url": "https://example.com/popup"});
    run(navigation_target(
        &a,
        serde_json::from_value(target).unwrap(),
    ));
    assert_eq!(
        a.log.all()[..4],
        [
            "look 9",
            "admit agent_aaaaaaaa",
            "take 9 for agent_aaaaaaaa at https://example.com/popup",
            "tell click on 2: Ok(TabId(9))",
        ]
    );
}

#[test]
fn a_navigations_tab_gone_or_with_an_opener_is_left_alone() {
    for looked in [None, Some(browser_tab(Some(2)))] {
        let a = Fake {
            looked,
            ..fake(Some(Opened::Agents(agent(0xaa))))
        };
        let target = serde_json::json!({"sourceTabId": 2, "tabId": 9});
        run(navigation_target(
            &a,
            serde_json::from_value(target).unwrap(),
        ));
        assert_eq!(a.log.all(), ["look 9"]);
    }
}

#[test]
fn a_tab_moves_to_the_end_of_the_agents_window() {
    assert_eq!(
        serde_json::to_value(MoveTo::end_of(7)).unwrap(),
        serde_json::json!({"windowId": 7, "index": -1})
    );
}
