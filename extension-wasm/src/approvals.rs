//! The user's consent before an agent drives one of the user's own tabs (`firefox_attach_tab`).
//! Each request waits here until the user allows or refuses it in the toolbar popup (the
//! button shows a badge meanwhile), or until the agent stops waiting. Pure, so the rules are
//! tested natively; the background holds the wakers. Also what an agent sees of each tab
//! ([`seen_by`]) and of every tab of the browser ([`listing`]).

use claudezilla_protocol::envelope::PopupApproval;
use claudezilla_protocol::reply::BrowserTab;
use claudezilla_protocol::{AgentId, ErrorBody, ErrorCode, TabId};

use crate::allowlist::origin;
use crate::browser_tab::Tab;
use crate::pool::Pool;

/// Requests waiting at once; more are refused at once (an agent cannot flood the popup).
pub const MAX_PENDING: usize = 10;

#[derive(Debug, Default)]
pub struct Approvals {
    next: u32,
    pending: Vec<PopupApproval>,
}

impl Approvals {
    /// Records a request; its id, or `None` when too many wait already or this tab is asked
    /// for already.
    pub fn ask(
        &mut self,
        agent: &str,
        tab: TabId,
        title: &str,
        origin: &str,
        private: bool,
    ) -> Option<u32> {
        if self.pending.len() >= MAX_PENDING || self.pending.iter().any(|a| a.tab_id == tab) {
            return None;
        }
        self.next += 1;
        self.pending.push(PopupApproval {
            id: self.next,
            agent: agent.to_owned(),
            tab_id: tab,
            title: title.to_owned(),
            origin: origin.to_owned(),
            private,
        });
        Some(self.next)
    }

    /// The user decided, or the agent gave up: the request leaves the list. True if it was
    /// still waiting.
    pub fn settle(&mut self, id: u32) -> bool {
        let before = self.pending.len();
        self.pending.retain(|a| a.id != id);
        self.pending.len() != before
    }

    pub fn pending(&self) -> &[PopupApproval] {
        &self.pending
    }

    /// The toolbar button's badge: how many wait.
    pub fn badge(&self) -> Badge {
        let text = match self.pending.len() {
            0 => String::new(),
            n => n.to_string(),
        };
        Badge { text }
    }
}

/// Only our own extension pages speak for the user (the popup): a message from a content
/// script — which runs inside a web page — must never allow a tab, switch `firefox_evaluate`
/// on or take a tab back. `base` is `runtime.getURL("")`: `moz-extension://<our uuid>/`.
pub fn from_extension_page(sender_id: Option<&str>, sender_url: Option<&str>, base: &str) -> bool {
    sender_id == Some(claudezilla_protocol::EXTENSION_ID)
        && base.starts_with("moz-extension://")
        && base.ends_with('/')
        && sender_url.is_some_and(|url| url.starts_with(base))
}

/// What `agent` sees of a tab `owner` drives (none: the user's) at `url` with `title`: its
/// own tabs in full (credentials out of the address), the user's by title and origin (enough
/// to pick one to attach), another agent's by origin only.
pub fn seen_by(
    agent: &AgentId,
    owner: Option<&AgentId>,
    title: String,
    url: &str,
) -> (String, String) {
    match owner {
        Some(o) if o == agent => (
            title,
            crate::redact::shown_url(url, crate::text::MAX_URL_CHARS),
        ),
        None => (title, origin(url)),
        Some(_) => (String::new(), origin(url)),
    }
}

/// The toolbar button's badge text (`browserAction.setBadgeText`).
#[derive(Debug, PartialEq, Eq, serde::Serialize)]
pub struct Badge {
    pub text: String,
}

/// The badge's colour (`browserAction.setBadgeBackgroundColor`).
#[derive(Debug, serde::Serialize)]
pub struct BadgeColor {
    color: &'static str,
}

/// Red: a request waits for the user.
pub const BADGE_COLOR: BadgeColor = BadgeColor { color: "#d93025" };

/// A browser tab as `tabs.query` gives it, the fields a listing shows.
pub struct ListedTab {
    pub id: TabId,
    pub window_id: u32,
    pub title: String,
    pub url: String,
}

impl From<Tab> for ListedTab {
    fn from(t: Tab) -> Self {
        Self {
            id: TabId(t.id),
            window_id: t.window_id,
            title: t.title,
            url: t.url,
        }
    }
}

/// Every tab of the browser as `agent` sees it (`firefox_list_all_tabs`): whose it is (its
/// own, another agent's, the user's), attached or not, and as much of its title and address as
/// [`seen_by`] shows.
pub fn listing(pool: &Pool, agent: &AgentId, tabs: Vec<ListedTab>) -> Vec<BrowserTab> {
    tabs.into_iter()
        .map(|t| {
            let owner = pool.owner(t.id);
            let (title, url) = seen_by(agent, owner, t.title, &t.url);
            BrowserTab {
                tab_id: t.id,
                window_id: t.window_id,
                title,
                url,
                agent: owner.map(|o| o.short().to_owned()),
                mine: owner == Some(agent),
                attached: pool.is_attached(t.id),
            }
        })
        .collect()
}

/// The user allowed the site (origin) they were shown: a tab that moved to another while they
/// decided is not what they allowed.
pub fn still_the_site(tab: TabId, asked_url: &str, now_url: &str) -> Result<(), ErrorBody> {
    let (was, is) = (origin(asked_url), origin(now_url));
    if was == is {
        return Ok(());
    }
    Err(ErrorBody::new(
        ErrorCode::Denied,
        format!(
            "tab {tab} moved from {was} to {is} while the user decided: they allowed {was}, not {is}"
        ),
    )
    .with_hint("call firefox_attach_tab again if you still need the tab: the user will be asked about the site it shows now"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent(n: u8) -> AgentId {
        AgentId::new([n; 16], 100)
    }

    #[test]
    fn the_badge_and_a_listed_tab_read_as_the_browser_gives_and_takes_them() {
        let mut a = Approvals::default();
        a.ask("agent_1", TabId(4), "Mail", "https://mail.example", false);
        assert_eq!(
            serde_json::to_value(a.badge()).unwrap(),
            serde_json::json!({"text": "1"})
        );
        assert_eq!(
            serde_json::to_value(BADGE_COLOR).unwrap(),
            serde_json::json!({"color": "#d93025"})
        );
        let tab: Tab = serde_json::from_value(serde_json::json!({
            "id": 3, "windowId": 13, "title": "page 3", "url": "https://a.test/3", "status": "loading",
        }))
        .unwrap();
        let listed = ListedTab::from(tab);
        assert_eq!(
            (
                listed.id,
                listed.window_id,
                listed.title.as_str(),
                listed.url.as_str()
            ),
            (TabId(3), 13, "page 3", "https://a.test/3")
        );
    }

    fn any(id: u32) -> ListedTab {
        ListedTab {
            id: TabId(id),
            window_id: id + 10,
            title: format!("page {id}"),
            url: format!("https://user:pw@a.test/{id}?q=1"),
        }
    }

    #[test]
    fn a_listing_shows_each_tab_as_the_asking_agent_may_see_it() {
        let mut pool = Pool::new();
        pool.insert(TabId(1), agent(1), String::new());
        pool.insert(TabId(2), agent(2), String::new());
        pool.attach(TabId(4), &agent(1), String::new()).unwrap();
        let listed = listing(&pool, &agent(1), vec![any(1), any(2), any(3), any(4)]);
        let seen: Vec<_> = listed
            .iter()
            .map(|t| {
                (
                    t.tab_id.0,
                    t.title.as_str(),
                    t.agent.as_deref(),
                    t.mine,
                    t.attached,
                )
            })
            .collect();
        let (me, other) = (agent(1), agent(2));
        assert_eq!(
            seen,
            [
                (1, "page 1", Some(me.short()), true, false),
                (2, "", Some(other.short()), false, false),
                (3, "page 3", None, false, false),
                (4, "page 4", Some(me.short()), true, true),
            ]
        );
        assert!(listed.iter().all(|t| t.window_id == t.tab_id.0 + 10));
        // Its own tabs in full but for credentials; others' by origin.
        assert_eq!(listed[0].url, "https://[redacted]@a.test/1?q=1");
        assert_eq!(listed[2].url, "https://a.test");
        assert_eq!(listed[1].url, "https://a.test");
    }

    #[test]
    fn only_our_pages_speak_for_the_user() {
        let id = Some(claudezilla_protocol::EXTENSION_ID);
        let base = "moz-extension://6b1c/";
        assert!(from_extension_page(
            id,
            Some("moz-extension://6b1c/popup/popup.html"),
            base
        ));
        // A content script: our id, a web page's address.
        assert!(!from_extension_page(
            id,
            Some("https://evil.example/"),
            base
        ));
        assert!(!from_extension_page(
            id,
            Some("https://evil.example/moz-extension://6b1c/"),
            base
        ));
        assert!(
            !from_extension_page(
                id,
                Some("moz-extension://6b1cX/popup.html"),
                "moz-extension://6b1cX"
            ),
            "a base without its slash"
        );
        assert!(!from_extension_page(
            Some("other@addon"),
            Some("moz-extension://6b1c/p.html"),
            base
        ));
        assert!(!from_extension_page(id, None, base));
    }

    #[test]
    fn requests_wait_until_settled_and_are_bounded() {
        let mut a = Approvals::default();
        let first = a
            .ask("agent_1", TabId(4), "Mail", "https://mail.example", false)
            .unwrap();
        assert!(
            a.ask("agent_2", TabId(4), "Mail", "https://mail.example", false)
                .is_none(),
            "one request per tab"
        );
        assert_eq!(a.badge().text, "1");
        assert!(a.settle(first));
        assert!(!a.settle(first), "settled once");
        assert_eq!(a.badge().text, "");
        for n in 0..MAX_PENDING as u32 {
            assert!(a.ask("agent_1", TabId(10 + n), "t", "o", false).is_some());
        }
        assert!(a.ask("agent_1", TabId(99), "t", "o", false).is_none());
        assert_eq!(a.pending().len(), MAX_PENDING);
    }

    #[test]
    fn an_agent_sees_its_own_tabs_whole_the_users_by_origin_and_others_barely() {
        let (me, other) = (AgentId::new([1; 16], 1), AgentId::new([2; 16], 2));
        let url = "https://bob:pw@mail.test/inbox?id=7";
        let (title, shown) = seen_by(&me, Some(&me), "Inbox".into(), url);
        assert_eq!(title, "Inbox");
        assert!(shown.contains("/inbox") && !shown.contains("pw"), "{shown}");
        assert_eq!(
            seen_by(&me, None, "Inbox".into(), url),
            ("Inbox".to_owned(), "https://mail.test".to_owned())
        );
        assert_eq!(
            seen_by(&me, Some(&other), "Inbox".into(), url),
            (String::new(), "https://mail.test".to_owned())
        );
    }

    #[test]
    fn a_tab_that_moved_to_another_site_is_not_what_the_user_allowed() {
        assert!(still_the_site(TabId(3), "https://a.test/x", "https://a.test/y#z").is_ok());
        let e = still_the_site(TabId(3), "https://a.test/x", "https://evil.test/").unwrap_err();
        assert_eq!(e.code, ErrorCode::Denied);
        assert!(
            e.message
                .contains("they allowed https://a.test, not https://evil.test")
        );
    }
}
