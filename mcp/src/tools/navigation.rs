//! Loading pages.

use claudezilla_protocol::args::NavigateArgs;
use claudezilla_protocol::asks;
use claudezilla_protocol::reply::{LoadState, TabReport};

use rmcp::model::CallToolResult;

use super::text;

browser_tools! { navigation_router;
    navigate "firefox_navigate" (NavigateArgs) => asks::Navigate, "Load a URL in your tab, or go back/forward/reload (action), and wait until the page has loaded."; report => render_tab(report);
}

/// The answer of every tool that loads a page.
pub(super) fn render_tab(
    TabReport {
        tab_id,
        url,
        title,
        load_state,
        waited_ms,
        note,
        container,
    }: TabReport,
) -> CallToolResult {
    let mut note = note.map(|n| format!("\nNote: {n}")).unwrap_or_default();
    if let Some(c) = container {
        note.push_str(&format!(
            "\nContainer: {c} (its cookies and logins are apart from the user's and other agents')"
        ));
    }
    text(match load_state {
        LoadState::Complete => {
            format!("Tab {tab_id} loaded in {waited_ms} ms: {title}\nURL: {url}{note}")
        }
        LoadState::Loading => format!(
            "Tab {tab_id} is still loading after {waited_ms} ms: {url}\n\
             Hint: the page did not finish within the timeout. Read what is there with firefox_get_content, \
             or navigate again with a larger timeout.{note}"
        ),
    })
}
