//! When does a navigation count as finished? Fed from `tabs.onUpdated`, so callers can answer
//! "the page is there" instead of returning while it still loads.

/// What a caller is waiting for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadWatch {
    /// A tab just created with `target`: it first shows about:blank, which must not count.
    NewTab { blank_is_target: bool },
    /// An existing tab told to load something: wait for a load to start and finish, or for a
    /// same-document navigation (fragment change), which never reports "loading".
    Navigation { saw_loading: bool },
}

impl LoadWatch {
    pub fn new_tab(target: &str) -> Self {
        Self::NewTab {
            blank_is_target: target == "about:blank",
        }
    }

    pub fn navigation() -> Self {
        Self::Navigation { saw_loading: false }
    }

    /// Is the tab, as it is now, already done? (Checked right after the watch is registered,
    /// in case the load finished before any event arrived.)
    pub fn satisfied_by(&self, status: &str, url: &str) -> bool {
        match *self {
            Self::NewTab { blank_is_target } => {
                status == "complete" && (blank_is_target || url != "about:blank")
            }
            Self::Navigation { .. } => false,
        }
    }

    /// Feeds one `tabs.onUpdated` event: `changed_status`/`changed_url` are the change info,
    /// `status`/`url` the tab's state after it. Returns true when the load is done.
    pub fn on_update(
        &mut self,
        changed_status: Option<&str>,
        changed_url: Option<&str>,
        status: &str,
        url: &str,
    ) -> bool {
        match self {
            Self::NewTab { .. } => self.satisfied_by(status, url),
            Self::Navigation { saw_loading } => {
                if changed_status == Some("loading") {
                    *saw_loading = true;
                }
                let finished = *saw_loading && changed_status == Some("complete");
                let same_document = !*saw_loading && changed_url.is_some() && status == "complete";
                finished || same_document
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_tab_is_not_done_on_its_initial_blank_page() {
        let mut w = LoadWatch::new_tab("http://x/");
        assert!(!w.satisfied_by("complete", "about:blank"));
        assert!(!w.on_update(Some("loading"), Some("http://x/"), "loading", "http://x/"));
        assert!(w.on_update(Some("complete"), None, "complete", "http://x/"));
        // Redirects land elsewhere: still done.
        assert!(LoadWatch::new_tab("http://x/").satisfied_by("complete", "http://y/"));
        assert!(LoadWatch::new_tab("about:blank").satisfied_by("complete", "about:blank"));
    }

    #[test]
    fn a_navigation_needs_a_fresh_load() {
        let mut w = LoadWatch::navigation();
        assert!(!w.satisfied_by("complete", "http://old/"));
        // A stale "complete" of the old page before the new load started does not count.
        assert!(!w.on_update(Some("complete"), None, "complete", "http://old/"));
        assert!(!w.on_update(
            Some("loading"),
            Some("http://new/"),
            "loading",
            "http://new/"
        ));
        assert!(!w.on_update(None, None, "loading", "http://new/"));
        assert!(w.on_update(Some("complete"), None, "complete", "http://new/"));
    }

    #[test]
    fn a_fragment_change_is_a_finished_navigation() {
        let mut w = LoadWatch::navigation();
        assert!(w.on_update(None, Some("http://x/#b"), "complete", "http://x/#b"));
    }
}
