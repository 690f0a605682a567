//! Acting on pages: click, type, keys, scroll, hover, select, fill forms, upload, drag, dialogs.

use claudezilla_protocol::args::{
    ClickArgs, DragArgs, FillFormArgs, HandleDialogArgs, PressKeyArgs, ScrollArgs,
    SelectOptionArgs, TargetArgs, TypeArgs, UploadFileArgs,
};
use claudezilla_protocol::{Command, Reply};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::service::RequestContext;
use rmcp::{RoleServer, tool, tool_router};

use super::args::Args;
use super::{acted, respond, text};
use crate::server::Claudezilla;

#[tool_router(router = interaction_router, vis = "pub(crate)")]
impl Claudezilla {
    #[tool(
        name = "firefox_click",
        description = "Click an element (selector or ref from firefox_snapshot) as a user would; waits up to 5 s for it. No match: suggests close selectors."
    )]
    async fn click(&self, Parameters(a): Parameters<Args<ClickArgs>>) -> CallToolResult {
        respond(
            self.run(Command::Click(a.args), a.timeout).await,
            |reply| match reply {
                Reply::Clicked { element } => Ok(text(format!("Clicked {element}."))),
                other => Err(other),
            },
        )
    }

    #[tool(
        name = "firefox_type",
        description = "Type into an input, textarea or contenteditable (selector or ref), firing input/change events as a user would (React/Vue see it). clear: replace the value."
    )]
    async fn type_text(&self, Parameters(a): Parameters<Args<TypeArgs>>) -> CallToolResult {
        respond(
            self.run(Command::Type(a.args), a.timeout).await,
            |reply| match reply {
                Reply::Typed {
                    element,
                    value_length,
                    note,
                } => Ok(text(format!(
                    "Typed into {element}; its value is now {value_length} characters long.{}",
                    note.map(|n| format!(" {n}")).unwrap_or_default()
                ))),
                other => Err(other),
            },
        )
    }

    #[tool(
        name = "firefox_press_key",
        description = "Press a key (Enter, Tab, Escape, ArrowDown, a…) on an element or the focused one, with modifiers. Enter submits forms as a browser would; the answer says what happened."
    )]
    async fn press_key(&self, Parameters(a): Parameters<Args<PressKeyArgs>>) -> CallToolResult {
        respond(self.run(Command::PressKey(a.args), a.timeout).await, acted)
    }

    #[tool(
        name = "firefox_scroll",
        description = "Scroll an element into view (selector or ref), or the page to x/y. Says when nothing moved."
    )]
    async fn scroll(&self, Parameters(a): Parameters<Args<ScrollArgs>>) -> CallToolResult {
        respond(self.run(Command::Scroll(a.args), a.timeout).await, acted)
    }

    #[tool(
        name = "firefox_hover",
        description = "Move the mouse over an element (selector or ref): shows menus and tooltips."
    )]
    async fn hover(&self, Parameters(a): Parameters<Args<TargetArgs>>) -> CallToolResult {
        respond(self.run(Command::Hover(a.args), a.timeout).await, acted)
    }

    #[tool(
        name = "firefox_select_option",
        description = "Choose options of a <select> by value or visible label."
    )]
    async fn select_option(
        &self,
        Parameters(a): Parameters<Args<SelectOptionArgs>>,
    ) -> CallToolResult {
        respond(
            self.run(Command::SelectOption(a.args), a.timeout).await,
            acted,
        )
    }

    #[tool(
        name = "firefox_fill_form",
        description = "Set several fields in one call: text inputs and textareas (text), checkboxes and radios (true/false), selects (value or label)."
    )]
    async fn fill_form(&self, Parameters(a): Parameters<Args<FillFormArgs>>) -> CallToolResult {
        respond(self.run(Command::FillForm(a.args), a.timeout).await, acted)
    }

    #[tool(
        name = "firefox_upload_file",
        description = "Attach a file to an <input type=file>: a path inside your project folder (or another folder the user allowed), at most 720 KiB."
    )]
    async fn upload_file(
        &self,
        Parameters(mut a): Parameters<Args<UploadFileArgs>>,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let file = self.allowed(&context.peer).await.read_upload(&a.args.path);
        let outcome = match file {
            Ok(file) => {
                a.args.file = Some(file);
                self.run(Command::UploadFile(a.args), a.timeout).await
            }
            Err(e) => Err(e),
        };
        respond(outcome, acted)
    }

    #[tool(
        name = "firefox_drag",
        description = "Drag an element as a hand does; drop it before, after or onto another (ref or selector), or at x, y."
    )]
    async fn drag(&self, Parameters(a): Parameters<Args<DragArgs>>) -> CallToolResult {
        respond(self.run(Command::Drag(a.args), a.timeout).await, acted)
    }

    #[tool(
        name = "firefox_handle_dialog",
        description = "Choose how the page's alert/confirm/prompt dialogs are answered from now on (they never block; by default confirm and prompt are dismissed). Lists the dialogs seen."
    )]
    async fn handle_dialog(
        &self,
        Parameters(a): Parameters<Args<HandleDialogArgs>>,
    ) -> CallToolResult {
        respond(
            self.run(Command::HandleDialog(a.args), a.timeout).await,
            |reply| match reply {
                Reply::Dialogs(d) => {
                    let seen = if d.seen.is_empty() {
                        "none".to_owned()
                    } else {
                        d.seen.join("\n")
                    };
                    Ok(text(format!(
                        "Dialogs will be answered: {}.\nDialogs since the last call:\n{seen}",
                        d.policy
                    )))
                }
                other => Err(other),
            },
        )
    }
}
