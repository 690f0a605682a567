//! Acting on pages: click, type, keys, scroll, hover, select, fill forms, upload, drag, dialogs.

use claudezilla_protocol::args::{
    ClickArgs, DragArgs, FillFormArgs, HandleDialogArgs, PressKeyArgs, ScrollArgs,
    SelectOptionArgs, TargetArgs, TypeArgs, UploadFileArgs,
};
use claudezilla_protocol::reply::DialogReport;
use claudezilla_protocol::{Command, Reply};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::service::RequestContext;
use rmcp::{RoleServer, tool, tool_router};

use super::args::Args;
use super::{acted, respond, text};
use crate::server::Claudezilla;

browser_tools! { interaction_router;
    click "firefox_click" (ClickArgs)
        "Click an element (selector or ref from firefox_snapshot) as a user would; waits up to 5 s for it. No match: suggests close selectors."
        => Command::Click;
        Reply::Clicked { element } => text(format!("Clicked {element}."));
    type_text "firefox_type" (TypeArgs)
        "Type into an input, textarea or contenteditable (selector or ref), firing input/change events as a user would (React/Vue see it). clear: replace the value."
        => Command::Type;
        Reply::Typed { element, value_length, note } => text(format!(
            "Typed into {element}; its value is now {value_length} characters long.{}",
            note.map(|n| format!(" {n}")).unwrap_or_default()
        ));
    press_key "firefox_press_key" (PressKeyArgs)
        "Press a key (Enter, Tab, Escape, ArrowDown, a…) on an element or the focused one, with modifiers. Enter submits forms as a browser would; the answer says what happened."
        => Command::PressKey;
        Reply::Acted { what } => text(what);
    scroll "firefox_scroll" (ScrollArgs)
        "Scroll an element into view (selector or ref), or the page to x/y. Says when nothing moved."
        => Command::Scroll;
        Reply::Acted { what } => text(what);
    hover "firefox_hover" (TargetArgs)
        "Move the mouse over an element (selector or ref): shows menus and tooltips."
        => Command::Hover;
        Reply::Acted { what } => text(what);
    select_option "firefox_select_option" (SelectOptionArgs)
        "Choose options of a <select> by value or visible label."
        => Command::SelectOption;
        Reply::Acted { what } => text(what);
    fill_form "firefox_fill_form" (FillFormArgs)
        "Set several fields in one call: text inputs and textareas (text), checkboxes and radios (true/false), selects (value or label)."
        => Command::FillForm;
        Reply::Acted { what } => text(what);
    drag "firefox_drag" (DragArgs)
        "Drag an element as a hand does; drop it before, after or onto another (ref or selector), or at x, y."
        => Command::Drag;
        Reply::Acted { what } => text(what);
    handle_dialog "firefox_handle_dialog" (HandleDialogArgs)
        "Choose how the page's alert/confirm/prompt dialogs are answered from now on (they never block; by default confirm and prompt are dismissed). Lists the dialogs seen."
        => Command::HandleDialog;
        Reply::Dialogs(d) => text(render_dialogs(&d));
}

#[tool_router(router = upload_router, vis = "pub(crate)")]
impl Claudezilla {
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
}

fn render_dialogs(d: &DialogReport) -> String {
    let seen = if d.seen.is_empty() {
        "none".to_owned()
    } else {
        d.seen.join("\n")
    };
    format!(
        "Dialogs will be answered: {}.\nDialogs since the last call:\n{seen}",
        d.policy
    )
}
