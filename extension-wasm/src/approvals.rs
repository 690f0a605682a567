//! The user's consent before an agent drives one of the user's own tabs (`firefox_attach_tab`).
//! Each request waits here until the user allows or refuses it in the toolbar popup (the
//! button shows a badge meanwhile), or until the agent stops waiting. Pure, so the rules are
//! tested natively; the background holds the wakers.

use claudezilla_protocol::TabId;
use claudezilla_protocol::envelope::PopupApproval;

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
    pub fn badge(&self) -> String {
        match self.pending.len() {
            0 => String::new(),
            n => n.to_string(),
        }
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

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(a.badge(), "1");
        assert!(a.settle(first));
        assert!(!a.settle(first), "settled once");
        assert_eq!(a.badge(), "");
        for n in 0..MAX_PENDING as u32 {
            assert!(a.ask("agent_1", TabId(10 + n), "t", "o", false).is_some());
        }
        assert!(a.ask("agent_1", TabId(99), "t", "o", false).is_none());
        assert_eq!(a.pending().len(), MAX_PENDING);
    }
}
