//! Acting on pages.

use claudezilla_protocol::command::{ClickArgs, TypeArgs};
use claudezilla_protocol::{Command, Reply};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{tool, tool_router};

use super::args::Args;
use super::{respond, text};
use crate::server::Claudezilla;

#[tool_router(router = interaction_router, vis = "pub(crate)")]
impl Claudezilla {
    #[tool(
        name = "firefox_click",
        description = "Click the element matching a CSS selector in your tab (waits up to 5 s for it to appear)."
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
        description = "Type text into an input, textarea or contenteditable element, firing input and change events \
                       as a user would (React/Vue see it). clear: replace the current value."
    )]
    async fn type_text(&self, Parameters(a): Parameters<Args<TypeArgs>>) -> CallToolResult {
        respond(
            self.run(Command::Type(a.args), a.timeout).await,
            |reply| match reply {
                Reply::Typed {
                    element,
                    value_length,
                } => Ok(text(format!(
                    "Typed into {element}; its value is now {value_length} characters long."
                ))),
                other => Err(other),
            },
        )
    }
}
