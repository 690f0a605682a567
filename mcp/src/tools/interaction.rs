//! Acting on pages: click, type, keys, scroll, hover, select, fill forms, upload, drag, dialogs.

use claudezilla_protocol::args::{
    ClickArgs, DragArgs, FillFormArgs, HandleDialogArgs, PressKeyArgs, ScrollArgs,
    SelectOptionArgs, TargetArgs, TypeArgs, UploadFileArgs,
};
use claudezilla_protocol::reply::DialogReport;
use claudezilla_protocol::{Command, Reply};
use rmcp::model::CallToolResult;

use super::{Context, Given, acted, respond, text};
use crate::secrets;
use crate::server::Claudezilla;

browser_tools! { interaction_router;
    click "firefox_click" (ClickArgs) => Command::Click, "Click an element (selector or ref from firefox_snapshot) as a user would; waits up to 5 s for it. No match: suggests close selectors.";
        Reply::Clicked { element } => text(format!("Clicked {element}."));
    type_text "firefox_type" (TypeArgs) => with type_text_or_secret, "Type into an input, textarea or contenteditable (selector or ref), firing input/change events as a user would (React/Vue see it). clear: replace the value. secret: types a value from the user's secrets file, only into the sites it is bound to.";
    press_key "firefox_press_key" (PressKeyArgs) => Command::PressKey, "Press a key (Enter, Tab, Escape, ArrowDown, a…) on an element or the focused one, with modifiers. Enter submits forms as a browser would; the answer says what happened."; Reply::Acted { what } => text(what);
    scroll "firefox_scroll" (ScrollArgs) => Command::Scroll, "Scroll an element into view (selector or ref), or the page to x/y. Says when nothing moved."; Reply::Acted { what } => text(what);
    hover "firefox_hover" (TargetArgs) => Command::Hover, "Move the mouse over an element (selector or ref): shows menus and tooltips."; Reply::Acted { what } => text(what);
    select_option "firefox_select_option" (SelectOptionArgs) => Command::SelectOption, "Choose options of a <select> by value or visible label."; Reply::Acted { what } => text(what);
    fill_form "firefox_fill_form" (FillFormArgs) => with fill_form_with_secrets, "Set several fields in one call: text inputs and textareas (text), checkboxes and radios (true/false), selects (value or label).";
    upload_file "firefox_upload_file" (UploadFileArgs) => with upload, "Attach a file to an <input type=file>: a path inside your project folder (or another folder the user allowed), at most 720 KiB.";
    drag "firefox_drag" (DragArgs) => Command::Drag, "Drag an element as a hand does; drop it before, after or onto another (ref or selector), or at x, y."; Reply::Acted { what } => text(what);
    handle_dialog "firefox_handle_dialog" (HandleDialogArgs) => Command::HandleDialog, "Choose how the page's alert/confirm/prompt dialogs are answered from now on (they never block; by default confirm and prompt are dismissed). Lists the dialogs seen.";
        Reply::Dialogs(d) => text(render_dialogs(&d));
}

impl Claudezilla {
    /// The file is read here, inside the allowed folders, and its bytes travel with the command.
    async fn upload(&self, mut a: Given<UploadFileArgs>, context: Context) -> CallToolResult {
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

    /// A named secret is filled in here, from the user's file; its value leaves only toward
    /// the page's field.
    async fn type_text_or_secret(
        &self,
        mut a: Given<TypeArgs>,
        _context: Context,
    ) -> CallToolResult {
        let outcome = match secrets::fill_type(&self.secrets, &mut a.args) {
            Ok(()) => self.run(Command::Type(a.args), a.timeout).await,
            Err(e) => Err(e),
        };
        respond(outcome, |reply| match reply {
            Reply::Typed {
                element,
                value_length,
                note,
            } => Ok(text(typed(&element, value_length, note))),
            other => Err(other),
        })
    }

    async fn fill_form_with_secrets(
        &self,
        mut a: Given<FillFormArgs>,
        _context: Context,
    ) -> CallToolResult {
        let outcome = match secrets::fill_form(&self.secrets, &mut a.args) {
            Ok(()) => self.run(Command::FillForm(a.args), a.timeout).await,
            Err(e) => Err(e),
        };
        respond(outcome, acted)
    }
}

fn typed(element: &str, value_length: u32, note: Option<String>) -> String {
    let note = note.map(|n| format!(" {n}")).unwrap_or_default();
    format!("Typed into {element}; its value is now {value_length} characters long.{note}")
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
