use std::cell::RefCell;
use std::rc::Rc;

use claudezilla_protocol::AgentId;
use futures_util::FutureExt;

use super::*;
use crate::at_once::run;

fn agent(n: u8) -> AgentId {
    AgentId::new([n; 16], 100)
}

/// A browser whose answers are scripted; it logs each call with the words it was given (as
/// JSON, the browser's own form of them) and what the pool held at that moment.
struct Fake {
    pool: RefCell<Pool>,
    alive: bool,
    tab_made: Result<TabId, ErrorBody>,
    window_made: Result<NewWindow, ErrorBody>,
    private: bool,
    grouped: Option<u32>,
    removed: Result<(), ErrorBody>,
    /// The turn never comes.
    turn_held: bool,
    /// The browser never answers the removal of several tabs.
    removal_hangs: bool,
    log: Rc<RefCell<Vec<String>>>,
}

fn fake() -> Fake {
    Fake {
        pool: RefCell::new(Pool::new()),
        alive: true,
        tab_made: Ok(TabId(7)),
        window_made: Ok(NewWindow {
            id: 9,
            first_tab: Some(TabId(8)),
        }),
        private: false,
        grouped: Some(4),
        removed: Ok(()),
        turn_held: false,
        removal_hangs: false,
        log: Rc::default(),
    }
}

impl Fake {
    fn said(&self, what: impl Into<String>) {
        self.log.borrow_mut().push(what.into());
    }

    fn log(&self) -> Vec<String> {
        self.log.borrow().clone()
    }

    fn with_window(self, window: u32) -> Self {
        self.pool.borrow_mut().window_opened(window);
        self
    }

    fn with_tab(self, tab: u32, owner: u8) -> Self {
        self.pool
            .borrow_mut()
            .insert(TabId(tab), agent(owner), "https://a.test/".into());
        self
    }

    fn attached(self, tab: u32, owner: u8) -> Self {
        let attached =
            self.pool
                .borrow_mut()
                .attach(TabId(tab), &agent(owner), "https://u.test/".into());
        attached.unwrap();
        self
    }

    fn authorized(&self, tab: u32) -> AuthorizedTab {
        self.pool.borrow().pool_tab(TabId(tab)).unwrap()
    }
}

fn json(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap()
}

/// A turn that says when it is given back.
struct Turn(Rc<RefCell<Vec<String>>>);

impl Drop for Turn {
    fn drop(&mut self) {
        self.0.borrow_mut().push("turn given back".into());
    }
}

impl Windows for Fake {
    type Turn = Turn;

    fn pool<R>(&self, f: impl FnOnce(&mut Pool) -> R) -> R {
        f(&mut self.pool.borrow_mut())
    }

    fn changed(&self) {
        self.said("changed");
    }

    fn private(&self) -> bool {
        self.said("private?");
        self.private
    }

    async fn window_alive(&self, window: u32) -> bool {
        self.said(format!("windows.get {window}"));
        self.alive
    }

    async fn create_tab(&self, props: &CreateTab<'_>) -> Result<TabId, ErrorBody> {
        self.said(format!("tabs.create {}", json(props)));
        self.tab_made.clone()
    }

    async fn create_window(&self, props: &CreateWindow<'_>) -> Result<NewWindow, ErrorBody> {
        self.said(format!("windows.create {}", json(props)));
        self.window_made.clone()
    }

    async fn mark_window(&self, window: u32) {
        let known = self.pool.borrow().window;
        self.said(format!("mark window {window} (pool: {known:?})"));
    }

    async fn group(&self, request: &GroupTabs) -> Option<u32> {
        self.said(format!("tabs.group {}", json(request)));
        self.grouped
    }

    async fn style_group(&self, group: u32, look: &GroupLook) {
        let known = self.pool.borrow().group;
        self.said(format!(
            "tabGroups.update {group} {} (pool: {known:?})",
            json(look)
        ));
    }

    async fn remove_tab(&self, tab: TabId) -> Result<(), ErrorBody> {
        let kept = self.pool.borrow().contains(tab);
        self.said(format!("tabs.remove {tab} (in pool: {kept})"));
        self.removed.clone()
    }

    async fn remove_tabs(&self, tabs: &[TabId]) {
        let known = self.pool.borrow().window;
        self.said(format!("tabs.remove {tabs:?} (pool: {known:?})"));
        if self.removal_hangs {
            std::future::pending::<()>().await;
        }
    }

    async fn remove_window(&self, window: u32) {
        let known = self.pool.borrow().window;
        self.said(format!("windows.remove {window} (pool: {known:?})"));
    }

    fn turn(&self) -> impl Future<Output = Turn> {
        self.said("turn");
        let log = self.log.clone();
        let held = self.turn_held;
        async move {
            if held {
                std::future::pending::<()>().await;
            }
            Turn(log)
        }
    }

    /// The deadline passes at once for work the browser never finishes.
    async fn within<T>(&self, ms: u32, work: impl Future<Output = T>) -> Option<T> {
        let done = work.now_or_never();
        self.said(format!(
            "within {ms}: {}",
            if done.is_some() { "done" } else { "ran out" }
        ));
        done
    }
}

fn refused(message: &str) -> ErrorBody {
    ErrorBody::new(ErrorCode::Browser, message)
}

// --- open_tab ---

#[test]
fn a_tab_opens_in_the_living_agents_window_in_the_background() {
    let f = fake().with_window(3);
    assert_eq!(
        run(open_tab(&f, "about:blank", Some("firefox-container-2"))),
        Ok(TabId(7))
    );
    assert_eq!(
        f.log(),
        [
            "windows.get 3",
            r#"tabs.create {"windowId":3,"url":"about:blank","active":false,"cookieStoreId":"firefox-container-2"}"#,
        ]
    );
    assert_eq!(f.pool.borrow().window, Some(3));
}

#[test]
fn the_users_jar_is_not_named() {
    let f = fake().with_window(3);
    run(open_tab(&f, "about:blank", None)).unwrap();
    assert_eq!(
        f.log()[1],
        r#"tabs.create {"windowId":3,"url":"about:blank","active":false}"#
    );
}

#[test]
fn without_a_window_one_is_opened_kept_and_marked() {
    let f = fake();
    f.pool.borrow_mut().group = Some(5);
    assert_eq!(run(open_tab(&f, "about:blank", Some("jar"))), Ok(TabId(8)));
    // `cookieStoreId`, the schema's key: Firefox refuses `cookie_store_id`.
    assert_eq!(
        f.log(),
        [
            "private?",
            r#"windows.create {"url":"about:blank","incognito":false,"cookieStoreId":"jar"}"#,
            "mark window 9 (pool: Some(9))",
        ]
    );
    // A new window is in no group yet.
    assert_eq!(f.pool.borrow().group, None);
}

#[test]
fn a_private_window_is_asked_for_when_the_switch_is_on() {
    let f = Fake {
        private: true,
        ..fake()
    };
    run(open_tab(&f, "about:blank", None)).unwrap();
    assert_eq!(
        f.log()[1],
        r#"windows.create {"url":"about:blank","incognito":true}"#
    );
}

#[test]
fn a_window_the_browser_has_no_more_is_replaced() {
    let f = Fake {
        alive: false,
        ..fake()
    }
    .with_window(3);
    assert_eq!(run(open_tab(&f, "about:blank", None)), Ok(TabId(8)));
    let log = f.log();
    assert_eq!(log[0], "windows.get 3");
    assert!(log[2].starts_with("windows.create "), "{log:?}");
    assert!(!log.iter().any(|l| l.starts_with("tabs.create")), "{log:?}");
    assert_eq!(f.pool.borrow().window, Some(9));
}

#[test]
fn a_window_that_closed_as_the_tab_was_asked_for_is_replaced() {
    let f = Fake {
        tab_made: Err(refused("Invalid window ID: 3")),
        ..fake()
    }
    .with_window(3);
    assert_eq!(run(open_tab(&f, "about:blank", None)), Ok(TabId(8)));
    let log = f.log();
    assert!(log[1].starts_with("tabs.create "), "{log:?}");
    assert!(log[3].starts_with("windows.create "), "{log:?}");
}

#[test]
fn another_refusal_of_the_tab_is_the_answer() {
    let f = Fake {
        tab_made: Err(refused("Illegal URL: javascript:1")),
        ..fake()
    }
    .with_window(3);
    assert_eq!(
        run(open_tab(&f, "javascript:1", None)),
        Err(refused("Illegal URL: javascript:1"))
    );
    assert_eq!(f.log().len(), 2);
}

#[test]
fn a_window_refused_is_the_answer_and_not_kept() {
    let f = Fake {
        window_made: Err(refused("no")),
        ..fake()
    };
    assert_eq!(run(open_tab(&f, "about:blank", None)), Err(refused("no")));
    assert_eq!(f.log().len(), 2, "{:?}", f.log());
    assert_eq!(f.pool.borrow().window, None);
}

#[test]
fn a_new_window_without_a_tab_is_kept_and_said() {
    let f = Fake {
        window_made: Ok(NewWindow {
            id: 9,
            first_tab: None,
        }),
        ..fake()
    };
    let e = run(open_tab(&f, "about:blank", None)).unwrap_err();
    assert_eq!(e.code, ErrorCode::Browser);
    assert_eq!(e.message, "the new window has no tab");
    assert_eq!(f.log()[2], "mark window 9 (pool: Some(9))");
}

// --- group ---

#[test]
fn a_first_tab_makes_the_group_in_the_window_and_names_it() {
    let f = fake();
    run(group(&f, TabId(7), 3));
    assert_eq!(
        f.log(),
        [
            r#"tabs.group {"tabIds":[7],"createProperties":{"windowId":3}}"#,
            r#"tabGroups.update 4 {"title":"Claudezilla","color":"orange"} (pool: Some(4))"#,
        ]
    );
}

#[test]
fn later_tabs_join_the_known_group_unstyled() {
    let f = fake();
    f.pool.borrow_mut().group = Some(4);
    run(group(&f, TabId(7), 3));
    assert_eq!(f.log(), [r#"tabs.group {"tabIds":[7],"groupId":4}"#]);
}

#[test]
fn a_group_the_browser_replaced_is_kept_and_named() {
    let f = Fake {
        grouped: Some(6),
        ..fake()
    };
    f.pool.borrow_mut().group = Some(4);
    run(group(&f, TabId(7), 3));
    assert_eq!(f.pool.borrow().group, Some(6));
    assert!(f.log()[1].starts_with("tabGroups.update 6 "));
}

#[test]
fn no_tab_groups_leaves_the_pool_alone() {
    let f = Fake {
        grouped: None,
        ..fake()
    };
    run(group(&f, TabId(7), 3));
    assert_eq!(f.log().len(), 1);
    assert_eq!(f.pool.borrow().group, None);
}

// --- close ---

#[test]
fn an_agent_tab_leaves_the_pool_then_closes() {
    let f = fake().with_tab(7, 1);
    let tab = f.authorized(7);
    assert_eq!(run(close(&f, tab)), Ok(Closed { tab_id: TabId(7) }));
    assert_eq!(f.log(), ["tabs.remove 7 (in pool: false)"]);
}

#[test]
fn an_attached_tab_is_refused_and_kept() {
    let f = fake().attached(7, 1);
    let tab = f.authorized(7);
    let e = run(close(&f, tab)).unwrap_err();
    assert_eq!(e.code, ErrorCode::Ownership);
    assert_eq!(
        e.message,
        "Cannot close tab 7: it is the user's tab, attached"
    );
    assert_eq!(
        e.hint.as_deref(),
        Some("give it back with firefox_detach_tab; it stays open")
    );
    assert!(f.log().is_empty());
    assert!(f.pool.borrow().contains(TabId(7)));
}

#[test]
fn a_tab_the_browser_has_no_more_is_said_gone() {
    let f = Fake {
        removed: Err(refused("Invalid tab ID: 7")),
        ..fake()
    }
    .with_tab(7, 1);
    let tab = f.authorized(7);
    let e = run(close(&f, tab)).unwrap_err();
    assert_eq!(e.code, ErrorCode::NoSuchTab);
    assert_eq!(e.message, "tab 7 is gone (Invalid tab ID: 7)");
    assert!(!f.pool.borrow().contains(TabId(7)));
}

// --- close_window ---

#[test]
fn the_window_closes_with_the_agents_own_tabs() {
    let f = fake().with_window(3).with_tab(7, 1).with_tab(8, 1);
    assert_eq!(
        run(close_window(&f, &agent(1))),
        Ok(WindowClosed { tabs_closed: 2 })
    );
    assert_eq!(f.log(), ["changed", "windows.remove 3 (pool: None)"]);
    assert!(f.pool.borrow().is_empty());
}

#[test]
fn others_tabs_in_the_window_refuse_it() {
    let f = fake().with_window(3).with_tab(7, 1).with_tab(8, 2);
    let e = run(close_window(&f, &agent(1))).unwrap_err();
    assert_eq!(e.code, ErrorCode::Ownership);
    assert_eq!(
        e.message,
        "Cannot close the agent window: 1 tab(s) in it belong to other agents"
    );
    assert_eq!(
        e.hint.as_deref(),
        Some("close your own tabs with firefox_close_tab instead")
    );
    assert!(f.log().is_empty());
    assert_eq!(f.pool.borrow().len(), 2);
}

#[test]
fn an_attached_tab_of_another_is_no_refusal_and_stays() {
    let f = fake().with_window(3).with_tab(7, 1).attached(5, 2);
    assert_eq!(
        run(close_window(&f, &agent(1))),
        Ok(WindowClosed { tabs_closed: 1 })
    );
    assert!(f.pool.borrow().contains(TabId(5)));
}

#[test]
fn no_window_closes_nothing() {
    let f = fake();
    assert_eq!(
        run(close_window(&f, &agent(1))),
        Ok(WindowClosed { tabs_closed: 0 })
    );
    assert!(f.log().is_empty());
}

// --- remove_all ---

#[test]
fn released_tabs_close_in_a_turn_and_the_empty_window_is_forgotten() {
    let f = fake().with_window(3);
    run(remove_all(&f, &[TabId(7), TabId(8)]));
    assert_eq!(
        f.log(),
        [
            "turn",
            "within 15000: done",
            // The window is forgotten only once the tabs are gone.
            "tabs.remove [TabId(7), TabId(8)] (pool: Some(3))",
            "within 10000: done",
            "turn given back",
        ]
    );
    assert_eq!(f.pool.borrow().window, None);
}

#[test]
fn no_tabs_take_no_turn() {
    let f = fake().with_window(3);
    run(remove_all(&f, &[]));
    assert!(f.log().is_empty());
    assert_eq!(f.pool.borrow().window, Some(3));
}

#[test]
fn a_turn_held_too_long_is_not_waited_for() {
    let f = Fake {
        turn_held: true,
        ..fake()
    }
    .with_window(3);
    run(remove_all(&f, &[TabId(7)]));
    assert_eq!(
        f.log(),
        [
            "turn",
            "within 15000: ran out",
            "tabs.remove [TabId(7)] (pool: Some(3))",
            "within 10000: done",
        ]
    );
    assert_eq!(f.pool.borrow().window, None);
}

#[test]
fn a_browser_that_never_closes_them_is_not_waited_for() {
    let f = Fake {
        removal_hangs: true,
        ..fake()
    }
    .with_window(3);
    run(remove_all(&f, &[TabId(7)]));
    assert_eq!(
        f.log()[2..4],
        [
            "tabs.remove [TabId(7)] (pool: Some(3))",
            "within 10000: ran out"
        ]
    );
    assert_eq!(f.pool.borrow().window, None);
}

#[test]
fn a_window_still_holding_agent_tabs_is_kept() {
    let f = fake().with_window(3).with_tab(9, 2);
    run(remove_all(&f, &[TabId(7)]));
    assert_eq!(f.pool.borrow().window, Some(3));
}
