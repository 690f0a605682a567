//! Acting on pages: click, type, keys, scroll, hover, select, fill forms, upload, drag, dialogs.

use claudezilla_protocol::args::{
    ClickArgs, DragArgs, FillFormArgs, HandleDialogArgs, HoverArgs, PressKeyArgs, ResolvedUpload,
    ScrollArgs, SelectOptionArgs, TypeArgs, UploadFileArgs,
};
use claudezilla_protocol::asks;
use claudezilla_protocol::reply;
use claudezilla_protocol::reply::DialogReport;
use rmcp::model::CallToolResult;

use super::{Context, Given, acted, respond, text};
use crate::secrets;
use crate::session::Claudezilla;

browser_tools! { interaction_router;
    click "firefox_click" (ClickArgs) => asks::Click, "Click an element (selector or ref from firefox_snapshot) as a user would; waits up to 5 s for it. No match: suggests close selectors.";
        reply::Clicked { element, new_tab, refused } => text(clicked(&element, new_tab.as_ref(), &refused));
    type_text "firefox_type" (TypeArgs) => asks::Type, resolved by secrets::resolve_type, "Type into an input, textarea or contenteditable (selector or ref), firing input/change events as a user would (React/Vue see it). clear: replace the value. secret: types a value from the user's secrets file, only into the sites it is bound to (login fields unless the user widened it).";
        reply::Typed { element, value_length, note } => text(typed(&element, value_length, note));
    press_key "firefox_press_key" (PressKeyArgs) => asks::PressKey, "Press a key (Enter, Tab, Escape, ArrowDown, a…) on an element or the focused one, with modifiers. Enter submits forms as a browser would; the answer says what happened."; reply::Acted { what } => text(what);
    scroll "firefox_scroll" (ScrollArgs) => asks::Scroll, "Scroll an element into view (selector or ref), or the page to x/y. Says when nothing moved."; reply::Acted { what } => text(what);
    hover "firefox_hover" (HoverArgs) => asks::Hover, "Move the mouse over an element (selector or ref) or a viewport point (x, y): shows menus and tooltips."; reply::Acted { what } => text(what);
    select_option "firefox_select_option" (SelectOptionArgs) => asks::SelectOption, "Choose options of a <select> by value or visible label."; reply::Acted { what } => text(what);
    fill_form "firefox_fill_form" (FillFormArgs) => asks::FillForm, resolved by secrets::resolve_form, "Set several fields in one call: text inputs and textareas (text), checkboxes and radios (true/false), selects (value or label).";
        done => acted(done);
    upload_file "firefox_upload_file" (UploadFileArgs) => with upload, "Attach a file as a person picks one: to an <input type=file>, or the label, button or drop zone that opens its chooser; a path inside your project folder (or another allowed folder), at most 720 KiB.";
    drag "firefox_drag" (DragArgs) => asks::Drag, "Drag an element as a hand does; drop it before, after or onto another (ref or selector), or at x, y."; reply::Acted { what } => text(what);
    handle_dialog "firefox_handle_dialog" (HandleDialogArgs) => asks::HandleDialog, "Choose how the page's alert/confirm/prompt dialogs are answered from now on (they never block; by default confirm and prompt are dismissed). Lists the dialogs seen.";
        d => text(render_dialogs(&d));
}

impl Claudezilla {
    /// The file is read here, inside the allowed folders, and its bytes travel with the command;
    /// never the secrets file, nor a file holding one of its values.
    async fn upload(&self, a: Given<UploadFileArgs>, context: Context) -> CallToolResult {
        let allowed = self.allowed(&context.peer).await;
        let file = allowed.read_upload(&a.args.path, &self.secrets);
        let outcome = match file {
            Ok(file) => {
                let upload = ResolvedUpload { args: a.args, file };
                self.ask::<asks::UploadFile>(upload, a.timeout).await
            }
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

/// A click's answer, with the tab its link opened (or why it did not) and what Firefox refused
/// the page.
fn clicked(element: &str, new_tab: Option<&reply::NewTab>, refused: &[String]) -> String {
    let mut out = opened(element, new_tab);
    for r in refused {
        out.push_str(&format!(" Refused: {r}."));
    }
    out
}

fn opened(element: &str, new_tab: Option<&reply::NewTab>) -> String {
    match new_tab {
        None => format!("Clicked {element}."),
        Some(reply::NewTab::Opened { tab_id, url }) => format!(
            "Clicked {element}. It opened tab {tab_id}: {url} (yours; pass tabId {tab_id} to act in it)."
        ),
        Some(reply::NewTab::Refused { url, why }) => format!(
            "Clicked {element}. Its link would open {url} in a new tab, which was not opened: {why}."
        ),
        Some(reply::NewTab::Asked { url }) => format!(
            "Clicked {element}. Its link would open {url} in a new tab, which was not opened."
        ),
        Some(reply::NewTab::Popped { url }) => format!(
            "Clicked {element}. The page opened {url} in a new window, not yet reported as a tab when this answer was made: \
             firefox_get_tabs lists it once it is yours (a window opened from a tab you attached stays the user's)."
        ),
    }
}
