//! Opening, listing and closing tabs.

use super::args::NoArgs;
use super::navigation::render_tab;
use super::text;
use claudezilla_protocol::args::{AttachArgs, CloseTabArgs, CreateWindowArgs};
use claudezilla_protocol::asks;
use claudezilla_protocol::reply;
use claudezilla_protocol::reply::{BrowserTab, TabEntry};

browser_tools! { tabs_router;
    create_window "firefox_create_window" (CreateWindowArgs) => asks::CreateWindow, "Open a URL in a new tab of the shared agent window and wait for it to load. Returns your tabId."; report => render_tab(report);
    get_tabs "firefox_get_tabs" (NoArgs) => asks::GetTabs, "List the tabs in the agent window; yours are marked."; reply::Tabs { tabs } => text(render_tabs(&tabs));
    list_all_tabs "firefox_list_all_tabs" (NoArgs) => asks::ListAllTabs, "Every tab of the browser, the user's own included, with who drives it; attach one with firefox_attach_tab.";
        reply::AllTabs { tabs } => text(render_all(&tabs));
    attach_tab "firefox_attach_tab" (AttachArgs) => asks::AttachTab, "Drive one of the user's open tabs as your own (the popup shows it and lets the user take it back). firefox_detach_tab gives it back open."; report => render_tab(report);
    detach_tab "firefox_detach_tab" (AttachArgs) => asks::DetachTab, "Give an attached tab back to the user; it stays open."; reply::Acted { what } => text(what);
    close_tab "firefox_close_tab" (CloseTabArgs) => asks::CloseTab, "Close one of your tabs."; reply::Closed { tab_id } => text(format!("Closed tab {tab_id}."));
}

fn render_tabs(tabs: &[TabEntry]) -> String {
    if tabs.is_empty() {
        return "No agent tabs are open. Open one with firefox_create_window.".into();
    }
    let lines: Vec<String> = tabs
        .iter()
        .map(|t| {
            let owner = if t.mine {
                "yours".to_owned()
            } else {
                format!("owned by {}", t.owner)
            };
            let attached = if t.attached { ", attached" } else { "" };
            format!(
                "tab {} ({owner}{attached}): {}",
                t.tab_id,
                page(&t.title, &t.url)
            )
        })
        .collect();
    lines.join("\n")
}

/// "Title — url", or the url alone where the title is withheld (another agent's tab).
fn page(title: &str, url: &str) -> String {
    if title.is_empty() {
        url.to_owned()
    } else {
        format!("{title} — {url}")
    }
}

fn render_all(tabs: &[BrowserTab]) -> String {
    let lines: Vec<String> = tabs
        .iter()
        .map(|t| {
            let who = match (&t.agent, t.mine, t.attached) {
                (_, true, true) => "yours, attached".to_owned(),
                (_, true, false) => "yours".to_owned(),
                (Some(a), false, _) => format!("driven by {a}"),
                (None, ..) => "the user's".to_owned(),
            };
            format!(
                "tab {} (window {}, {who}): {}",
                t.tab_id,
                t.window_id,
                page(&t.title, &t.url)
            )
        })
        .collect();
    lines.join("\n")
}
