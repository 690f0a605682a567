use crate::steps::Steps;
use std::collections::BTreeMap;

use claudezilla_protocol::args::{SavedCookie, SavedOrigin};

use super::*;
use crate::at_once::run;

fn agent() -> AgentId {
    AgentId::new([7; 16], 100)
}

/// Any budget: the fake's page answers at once.
fn budget() -> Budget {
    Budget::of(0, 30_000)
}

/// One agent's call: its tabs' pages, the browser's cookies and the page's storage, scripted;
/// every call to the browser logged in order.
struct Fake {
    on: bool,
    pages: BTreeMap<u32, &'static str>,
    /// The cookie store of every page.
    store: Option<&'static str>,
    jar: Option<Jar>,
    /// Cookies the browser has, by name.
    cookies: Vec<&'static str>,
    /// The page refuses what it is handed.
    page_fails: bool,
    log: Steps,
}

fn fake() -> Fake {
    Fake {
        on: true,
        pages: BTreeMap::from([(3, "https://shop.example/cart")]),
        store: Some("firefox-container-2"),
        jar: None,
        cookies: vec!["sid"],
        page_fails: false,
        log: Steps::default(),
    }
}

impl Fake {}

fn cookie(name: &str) -> BrowserCookie {
    BrowserCookie {
        name: name.into(),
        value: "v".into(),
        domain: "shop.example".into(),
        path: "/".into(),
        secure: true,
        http_only: false,
        expiration_date: None,
        host_only: true,
    }
}

impl SiteData for Fake {
    type Tab = TabId;

    fn id(&self, tab: TabId) -> TabId {
        tab
    }

    fn switched_on(&self) -> bool {
        self.on
    }

    async fn page(&self, tab: TabId) -> Result<Page, ErrorBody> {
        self.log.say(format!("page {tab}"));
        let url = self
            .pages
            .get(&tab.0)
            .ok_or_else(|| ErrorBody::new(ErrorCode::NoSuchTab, format!("no tab {tab}")))?;
        Ok(Page {
            url: (*url).into(),
            store: self.store.map(Into::into),
        })
    }

    async fn cookies(&self, query: &CookieQuery<'_>) -> Result<Vec<BrowserCookie>, ErrorBody> {
        self.log.say(format!("get {query:?}"));
        Ok(self.cookies.iter().map(|n| cookie(n)).collect())
    }

    async fn set_cookie(&self, details: &impl Serialize) -> Result<(), ErrorBody> {
        self.log
            .say(format!("set {}", serde_json::to_string(details).unwrap()));
        Ok(())
    }

    async fn remove_cookie(&self, query: &CookieQuery<'_>) -> Result<bool, ErrorBody> {
        self.log.say(format!("remove {query:?}"));
        Ok(query.name.is_some_and(|n| self.cookies.contains(&n)))
    }

    async fn page_storage(
        &self,
        tab: TabId,
        op: PageOp,
        _b: Budget,
    ) -> Result<StorageAnswer, ErrorBody> {
        self.log.say(format!("ask {tab}: {op:?}"));
        let origin = origin(self.pages[&tab.0]);
        Ok(StorageAnswer::Stored(reply::Stored {
            origin,
            area: StorageArea::Local,
            entries: vec![("theme".into(), "dark".into())],
            total: 1,
        }))
    }

    async fn put_in_page(&self, tab: TabId, op: PageOp, _b: Budget) -> Result<(), ErrorBody> {
        self.log.say(format!("put {tab}: {op:?}"));
        match self.page_fails {
            true => Err(ErrorBody::new(ErrorCode::PageError, "the page went away")),
            false => Ok(()),
        }
    }

    fn tabs(&self, _agent: &AgentId) -> Vec<TabId> {
        self.log.say("tabs");
        self.pages.keys().map(|t| TabId(*t)).collect()
    }

    async fn jar(&self, _agent: &AgentId) -> Result<Option<Jar>, ErrorBody> {
        self.log.say("jar");
        Ok(self.jar.clone())
    }

    fn allows(&self, _agent: &AgentId, url: &str) -> bool {
        !url.contains("bank")
    }

    fn now_s(&self) -> f64 {
        1_000.0
    }
}

fn args(action: CookieAction, name: Option<&str>, value: Option<&str>) -> CookiesArgs {
    CookiesArgs {
        action,
        name: name.map(Into::into),
        value: value.map(Into::into),
        tab_id: None,
    }
}

fn acted(answer: Result<CookiesAnswer, ErrorBody>) -> String {
    match answer {
        Ok(CookiesAnswer::Acted(a)) => a.what,
        other => panic!("not an act: {other:?}"),
    }
}

#[test]
fn everything_is_refused_until_the_user_switches_it_on_and_nothing_is_asked() {
    let d = Fake {
        on: false,
        ..fake()
    };
    let e = run(cookies(&d, TabId(3), args(CookieAction::Get, None, None))).unwrap_err();
    assert_eq!(e.code, ErrorCode::Disabled);
    assert_eq!(
        e.message,
        "cookies and storage are switched off: they hold the user's logins"
    );
    assert_eq!(
        e.hint.as_deref(),
        Some(
            "the user can switch them on in the Claudezilla toolbar popup (\"Allow cookies and storage\")"
        )
    );
    assert!(run(save_state(&d, &agent(), budget())).is_err());
    assert!(run(load_state(&d, &agent(), SavedState::default(), budget())).is_err());
    let get = StorageArgs {
        action: StorageAction::Get,
        area: StorageArea::Local,
        key: None,
        value: None,
        tab_id: None,
    };
    assert!(run(storage(&d, TabId(3), get, budget())).is_err());
    // Not even the page, the tabs or the jar.
    assert_eq!(d.log.all(), Vec::<String>::new());
}

#[test]
fn a_page_that_is_no_web_page_has_no_cookies() {
    let d = Fake {
        pages: BTreeMap::from([(4, "about:blank")]),
        ..fake()
    };
    let e = run(cookies(&d, TabId(4), args(CookieAction::Get, None, None))).unwrap_err();
    assert_eq!(e.code, ErrorCode::PageError);
    assert_eq!(e.message, "tab 4 shows about:blank, which has no cookies");
    assert_eq!(
        e.hint.as_deref(),
        Some("navigate the tab to the site first")
    );
}

#[test]
fn get_lists_the_pages_cookies_in_its_own_jar_at_most_200() {
    let d = Fake {
        cookies: vec!["c"; 250],
        ..fake()
    };
    let Ok(CookiesAnswer::Cookies(listed)) = run(cookies(
        &d,
        TabId(3),
        args(CookieAction::Get, Some("c"), None),
    )) else {
        panic!("no list");
    };
    assert_eq!(listed.url, "https://shop.example/cart");
    assert_eq!(listed.cookies.len(), 200);
    assert_eq!(
        d.log.all(),
        [
            "page 3",
            "get CookieQuery { url: \"https://shop.example/cart\", name: Some(\"c\"), value: None, store_id: Some(\"firefox-container-2\") }"
        ]
    );
}

#[test]
fn set_and_delete_say_what_they_did() {
    let d = fake();
    let set = acted(run(cookies(
        &d,
        TabId(3),
        args(CookieAction::Set, Some("lang"), Some("fr")),
    )));
    assert_eq!(set, "Set cookie \"lang\" for https://shop.example/cart.");
    let deleted = acted(run(cookies(
        &d,
        TabId(3),
        args(CookieAction::Delete, Some("sid"), Some("x")),
    )));
    assert_eq!(
        deleted,
        "Deleted cookie \"sid\" for https://shop.example/cart."
    );
    let none = acted(run(cookies(
        &d,
        TabId(3),
        args(CookieAction::Delete, Some("gone"), None),
    )));
    assert_eq!(
        none,
        "No cookie \"gone\" for https://shop.example/cart: nothing deleted."
    );
    // Each reads the page first; the page's lines are left out here.
    let steps: Vec<String> = d.log.all().into_iter().filter(|s| s != "page 3").collect();
    assert_eq!(
        steps[0],
        "set {\"url\":\"https://shop.example/cart\",\"name\":\"lang\",\"value\":\"fr\",\"storeId\":\"firefox-container-2\"}"
    );
    // A delete names the cookie, never its value.
    assert!(
        steps[1].contains("name: Some(\"sid\"), value: None"),
        "{}",
        steps[1]
    );
}

#[test]
fn storage_goes_to_the_page_once_it_is_a_web_page() {
    let d = fake();
    let get = StorageArgs {
        action: StorageAction::Get,
        area: StorageArea::Session,
        key: Some("k".into()),
        value: None,
        tab_id: None,
    };
    assert!(matches!(
        run(storage(&d, TabId(3), get, budget())),
        Ok(StorageAnswer::Stored(_))
    ));
    assert_eq!(
        d.log.all(),
        [
            "page 3",
            "ask 3: Storage { action: Get, area: Session, key: Some(\"k\"), value: None }"
        ]
    );
}

#[test]
fn a_save_keeps_the_cookies_and_local_storage_of_the_agents_web_pages() {
    let d = Fake {
        pages: BTreeMap::from([(3, "https://shop.example/cart"), (5, "about:blank")]),
        ..fake()
    };
    let state = run(save_state(&d, &agent(), budget())).unwrap();
    assert_eq!(state.cookies.len(), 1);
    assert_eq!(state.cookies[0].url, "https://shop.example/");
    assert_eq!(
        state.origins,
        [SavedOrigin {
            origin: "https://shop.example".into(),
            local_storage: vec![("theme".into(), "dark".into())],
        }]
    );
    // The page that is no web page is asked nothing.
    let asked: Vec<String> = d
        .log
        .all()
        .iter()
        .map(|s| s.chars().take(6).collect())
        .collect();
    assert_eq!(asked, ["tabs", "page 3", "page 5", "get Co", "ask 3:"]);
}

fn saved(url: &str, domain: &str) -> SavedCookie {
    SavedCookie {
        url: url.into(),
        name: "sid".into(),
        value: "1".into(),
        domain: domain.into(),
        path: "/".into(),
        secure: true,
        http_only: true,
        expires: None,
        host_only: false,
    }
}

#[test]
fn a_load_sets_what_is_admitted_into_the_agents_jar_and_says_what_it_left() {
    let d = Fake {
        jar: Some(Jar {
            cookie_store_id: "firefox-container-7".into(),
            name: "Claudezilla agent_aaaaaaaa".into(),
            keep: false,
        }),
        ..fake()
    };
    let state = SavedState {
        cookies: vec![
            saved("https://shop.example/", ".shop.example"),
            saved("https://bank.example/", "bank.example"),
        ],
        origins: vec![
            SavedOrigin {
                origin: "https://shop.example".into(),
                local_storage: vec![("a".into(), "1".into())],
            },
            SavedOrigin {
                origin: "https://other.example".into(),
                local_storage: vec![],
            },
        ],
    };
    let what = run(load_state(&d, &agent(), state, budget())).unwrap().what;
    assert_eq!(
        what,
        "Loaded 1 of 2 cookies into your container Claudezilla agent_aaaaaaaa; local storage of 1 site(s): https://shop.example. \
         Not loaded, outside the allowed domains: cookies of bank.example. \
         Open a tab on a site (within the allowed domains) and load again for its cookies and storage. \
         Local storage not loaded (no tab of yours there): https://other.example."
    );
    assert_eq!(
        d.log.all(),
        [
            "jar",
            "tabs",
            "page 3",
            "set {\"url\":\"https://shop.example/\",\"name\":\"sid\",\"value\":\"1\",\"domain\":\".shop.example\",\"path\":\"/\",\"secure\":true,\"httpOnly\":true,\"storeId\":\"firefox-container-7\"}",
            "put 3: Storage { action: Set, area: Local, key: Some(\"a\"), value: Some(\"1\") }",
        ]
    );
}

#[test]
fn a_load_into_the_users_session_stops_where_a_page_refuses() {
    let d = Fake {
        page_fails: true,
        ..fake()
    };
    let state = SavedState {
        cookies: vec![],
        origins: vec![SavedOrigin {
            origin: "https://shop.example".into(),
            local_storage: vec![("a".into(), "1".into())],
        }],
    };
    let e = run(load_state(&d, &agent(), state, budget())).unwrap_err();
    assert_eq!(e.message, "the page went away");
    let d = fake();
    let what = run(load_state(&d, &agent(), SavedState::default(), budget()))
        .unwrap()
        .what;
    assert!(
        what.starts_with("Loaded 0 of 0 cookies into the user's session;"),
        "{what}"
    );
}
