use std::cell::RefCell;

use super::*;
use crate::at_once::run;

/// The agents' containers and the browser's, scripted; every call logged in order.
#[derive(Default)]
struct Fake {
    own: RefCell<Option<Jar>>,
    /// The browser's containers; `None`: it has none to offer (a private window).
    browser: Option<Vec<Jar>>,
    log: RefCell<Vec<String>>,
}

fn agent() -> AgentId {
    AgentId::new([0xaa; 16], 100)
}

fn jar(store: &str, name: &str) -> Jar {
    Jar {
        cookie_store_id: store.into(),
        name: name.into(),
        keep: false,
    }
}

fn with_containers(jars: Vec<Jar>) -> Fake {
    Fake {
        browser: Some(jars),
        ..Fake::default()
    }
}

fn no_containers() -> ErrorBody {
    ErrorBody::new(ErrorCode::Browser, "contextualIdentities is not enabled")
}

impl Fake {
    fn steps(&self) -> Vec<String> {
        self.log.borrow().clone()
    }
}

impl Identities for Fake {
    fn own(&self, _agent: &AgentId) -> Option<Jar> {
        self.own.borrow().clone()
    }

    fn keep_own(&self, agent: &AgentId, jar: Jar) {
        self.log
            .borrow_mut()
            .push(format!("keep {} for {agent}", jar.name));
        *self.own.borrow_mut() = Some(jar);
    }

    async fn create(&self, identity: &NewIdentity) -> Result<Jar, ErrorBody> {
        self.log.borrow_mut().push(format!("create {identity:?}"));
        self.browser.as_ref().ok_or_else(no_containers)?;
        Ok(jar("firefox-container-9", &identity.name))
    }

    async fn named(&self, name: &str) -> Result<Vec<Jar>, ErrorBody> {
        self.log.borrow_mut().push(format!("query {name:?}"));
        let all = self.browser.as_ref().ok_or_else(no_containers)?;
        Ok(all.iter().filter(|j| j.name == name).cloned().collect())
    }
}

#[test]
fn without_a_choice_the_agents_own_container_or_the_users_session() {
    let fake = with_containers(vec![]);
    assert_eq!(run(jar_for(&fake, &agent(), None)), Ok(None));
    *fake.own.borrow_mut() = Some(jar("c1", "Claudezilla agent_aaaaaaaa"));
    let chosen = run(jar_for(&fake, &agent(), None)).unwrap();
    assert_eq!(chosen.map(|j| j.cookie_store_id), Some("c1".into()));
    assert_eq!(fake.steps(), Vec::<String>::new());
}

#[test]
fn the_user_choice_is_the_default_jar_even_with_an_own_container() {
    let fake = with_containers(vec![]);
    *fake.own.borrow_mut() = Some(jar("c1", "Claudezilla agent_aaaaaaaa"));
    assert_eq!(
        run(jar_for(&fake, &agent(), Some(&Container::User))),
        Ok(None)
    );
}

#[test]
fn an_own_container_is_made_once_purple_named_after_the_agent() {
    let fake = with_containers(vec![]);
    let first = run(jar_for(&fake, &agent(), Some(&Container::Own))).unwrap();
    let again = run(jar_for(&fake, &agent(), Some(&Container::Own))).unwrap();
    assert_eq!(first, again);
    let name = format!("Claudezilla {}", agent().short());
    assert_eq!(
        fake.steps(),
        [
            format!(
                "create NewIdentity {{ name: {name:?}, color: \"purple\", icon: \"fingerprint\" }}"
            ),
            format!("keep {name} for {}", agent()),
        ]
    );
}

#[test]
fn no_containers_says_why_and_keeps_nothing() {
    let fake = Fake::default();
    let e = run(jar_for(&fake, &agent(), Some(&Container::Own))).unwrap_err();
    assert_eq!(e.code, ErrorCode::Browser);
    assert_eq!(
        e.message,
        "containers are not available: contextualIdentities is not enabled"
    );
    assert_eq!(
        e.hint.as_deref(),
        Some(
            "private windows have no containers; otherwise enable containers in Firefox's settings"
        )
    );
    assert!(fake.own.borrow().is_none());
    let named = Container::Named("Work".into());
    let e = run(jar_for(&fake, &agent(), Some(&named))).unwrap_err();
    assert_eq!(e.code, ErrorCode::Browser);
}

#[test]
fn a_users_container_is_found_by_name() {
    let fake = with_containers(vec![jar("c2", "Work"), jar("c3", "Shopping")]);
    let named = Container::Named("Shopping".into());
    let chosen = run(jar_for(&fake, &agent(), Some(&named))).unwrap();
    assert_eq!(chosen, Some(jar("c3", "Shopping")));
}

#[test]
fn an_unknown_name_is_refused_with_the_choices() {
    let fake = with_containers(vec![jar("c2", "Work")]);
    let named = Container::Named("Banking".into());
    let e = run(jar_for(&fake, &agent(), Some(&named))).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidArgument);
    assert_eq!(e.message, "the browser has no container named \"Banking\"");
    assert_eq!(
        e.hint.as_deref(),
        Some("use \"own\", \"user\", or the name of one of the user's containers")
    );
}

#[test]
fn another_agents_container_cannot_be_named_nor_is_it_looked_for() {
    let theirs = "Claudezilla agent_bbbbbbbb";
    let fake = with_containers(vec![jar("c4", theirs)]);
    let named = Container::Named(theirs.into());
    let e = run(jar_for(&fake, &agent(), Some(&named))).unwrap_err();
    assert_eq!(e.code, ErrorCode::Ownership);
    assert_eq!(e.message, format!("{theirs:?} is an agent's own container"));
    assert_eq!(fake.steps(), Vec::<String>::new());
}

#[test]
fn an_own_container_goes_with_the_last_tab_unless_kept_while_the_agent_stays() {
    let mut own = jar("c1", "Claudezilla agent_aaaaaaaa");
    assert!(removable(&own, false, false));
    assert!(!removable(&own, true, false));
    assert!(!removable(&own, true, true));
    own.keep = true;
    assert!(!removable(&own, false, false));
    assert!(removable(&own, false, true));
    assert!(!removable(&own, true, true));
}
