//! Opening, listing and closing tabs.

use claudezilla_protocol::args::{AttachArgs, CloseTabArgs, CreateWindowArgs};
use claudezilla_protocol::reply::{BrowserTab, TabEntry};
use claudezilla_protocol::{Command, Reply};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{tool, tool_router};

use super::args::{Args, NoArgs};
use super::navigation::render_tab;
use super::{acted, respond, text};
use crate::server::Claudezilla;

#[tool_router(router = tabs_router, vis = "pub(crate)")]
impl Claudezilla {
    #[tool(
        name = "firefox_create_window",
        description = "Open a URL in a new tab of the shared agent window and wait for it to load. Returns your tabId."
    )]
    async fn create_window(
        &self,
        Parameters(a): Parameters<Args<CreateWindowArgs>>,
    ) -> CallToolResult {
        respond(
            self.run(Command::CreateWindow(a.args), a.timeout).await,
            render_tab,
        )
    }

    #[tool(
        name = "firefox_get_tabs",
        description = "List the tabs in the agent window; yours are marked."
    )]
    async fn get_tabs(&self, Parameters(a): Parameters<Args<NoArgs>>) -> CallToolResult {
        respond(
            self.run(Command::GetTabs, a.timeout).await,
            |reply| match reply {
                Reply::Tabs { tabs } => Ok(text(render_tabs(&tabs))),
                other => Err(other),
            },
        )
    }

    #[tool(
        name = "firefox_list_all_tabs",
        description = "Every tab of the browser, the user's own included, with who drives it; attach one with firefox_attach_tab."
    )]
    async fn list_all_tabs(&self, Parameters(a): Parameters<Args<NoArgs>>) -> CallToolResult {
        respond(
            self.run(Command::ListAllTabs, a.timeout).await,
            |reply| match reply {
                Reply::AllTabs { tabs } => Ok(text(render_all(&tabs))),
                other => Err(other),
            },
        )
    }

    #[tool(
        name = "firefox_attach_tab",
        description = "Drive one of the user's open tabs as your own (the popup shows it and lets the user take it back). firefox_detach_tab gives it back open."
    )]
    async fn attach_tab(&self, Parameters(a): Parameters<Args<AttachArgs>>) -> CallToolResult {
        respond(
            self.run(Command::AttachTab(a.args), a.timeout).await,
            render_tab,
        )
    }

    #[tool(
        name = "firefox_detach_tab",
        description = "Give an attached tab back to the user; it stays open."
    )]
    async fn detach_tab(&self, Parameters(a): Parameters<Args<AttachArgs>>) -> CallToolResult {
        respond(self.run(Command::DetachTab(a.args), a.timeout).await, acted)
    }

    #[tool(name = "firefox_close_tab", description = "Close one of your tabs.")]
    async fn close_tab(&self, Parameters(a): Parameters<Args<CloseTabArgs>>) -> CallToolResult {
        respond(
            self.run(Command::CloseTab(a.args), a.timeout).await,
            |reply| match reply {
                Reply::Closed { tab_id } => Ok(text(format!("Closed tab {tab_id}."))),
                other => Err(other),
            },
        )
    }
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
