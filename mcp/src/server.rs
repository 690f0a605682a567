//! The MCP server: tool groups from [`crate::tools`] on one router, over one host link.

use std::sync::Arc;

use claudezilla_protocol::{Command, Outcome, validate};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{Implementation, ServerCapabilities, ServerConfig, Tool};
use rmcp::{ServerHandler, tool_handler};

use crate::link::HostLink;

const INSTRUCTIONS: &str = "Drives the user's Firefox. Open a page with firefox_create_window (it returns your tabId); \
the other tools act on your own tabs only (tabId defaults to your most recent tab). \
Errors start with a stable code such as OWNERSHIP or NOT_CONNECTED, and say what to do.";

#[derive(Clone)]
pub struct Claudezilla {
    pub(crate) link: Arc<HostLink>,
    tool_router: ToolRouter<Self>,
}

impl Claudezilla {
    pub fn new(link: Arc<HostLink>) -> Self {
        let tool_router = Self::tabs_router()
            + Self::navigation_router()
            + Self::reading_router()
            + Self::interaction_router()
            + Self::screenshot_router()
            + Self::pool_router()
            + Self::diagnostics_router();
        Self { link, tool_router }
    }

    /// The tool list, as `tools/list` sends it.
    pub fn tools(&self) -> Vec<Tool> {
        self.tool_router.list_all()
    }

    /// The one path every tool takes: check the arguments, then ask the browser.
    pub(crate) async fn run(&self, command: Command, timeout: Option<u64>) -> Outcome {
        let timeout_ms = validate::timeout(timeout)?;
        command.validate()?;
        self.link.call(command, timeout_ms).await
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Claudezilla {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "claudezilla",
                claudezilla_protocol::VERSION,
            ))
            .with_instructions(INSTRUCTIONS)
    }
}
