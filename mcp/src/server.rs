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
    /// `tools/list`, computed once and trimmed of schema noise (every token counts).
    listed: Arc<Vec<Tool>>,
}

impl Claudezilla {
    pub fn new(link: Arc<HostLink>) -> Self {
        let tool_router = Self::tabs_router()
            + Self::navigation_router()
            + Self::reading_router()
            + Self::interaction_router()
            + Self::screenshot_router()
            + Self::pool_router()
            + Self::devtools_router()
            + Self::config_router()
            + Self::loops_router()
            + Self::diagnostics_router();
        let listed = Arc::new(tool_router.list_all().into_iter().map(trimmed).collect());
        Self {
            link,
            tool_router,
            listed,
        }
    }

    /// The tool list, as `tools/list` sends it.
    pub fn tools(&self) -> Vec<Tool> {
        self.listed.to_vec()
    }

    /// The one path every tool takes: check the arguments, then ask the browser.
    pub(crate) async fn run(&self, command: Command, timeout: Option<u64>) -> Outcome {
        let timeout_ms = validate::timeout(timeout)?;
        command.validate()?;
        self.link.call(command, timeout_ms).await
    }
}

/// A tool without what costs tokens and tells a model nothing: the `$schema` URL, integer
/// formats (`uint32`), bounds that are only the Rust type's, `default: false`.
fn trimmed(mut tool: Tool) -> Tool {
    let mut schema = serde_json::Value::Object((*tool.input_schema).clone());
    trim(&mut schema);
    if let serde_json::Value::Object(map) = schema {
        tool.input_schema = Arc::new(map);
    }
    tool
}

fn trim(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            map.remove("$schema");
            let numeric_format = map.get("format").and_then(Value::as_str).is_some_and(|f| {
                ["uint", "int", "double", "float"]
                    .iter()
                    .any(|p| f.starts_with(p))
            });
            if numeric_format {
                map.remove("format");
            }
            if map.get("type").and_then(Value::as_str) == Some("integer") {
                if map.get("minimum") == Some(&Value::from(0)) {
                    map.remove("minimum");
                }
                // The width of the Rust type, not a rule of the argument.
                if map
                    .get("maximum")
                    .and_then(Value::as_u64)
                    .is_some_and(|m| [255, 65_535, u64::from(u32::MAX)].contains(&m))
                {
                    map.remove("maximum");
                }
            }
            // Booleans default to false; saying so costs tokens.
            if map.get("default") == Some(&Value::Bool(false)) {
                map.remove("default");
            }
            map.values_mut().for_each(trim);
        }
        Value::Array(items) => items.iter_mut().for_each(trim),
        _ => {}
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Claudezilla {
    async fn list_tools(
        &self,
        _request: Option<rmcp::model::PaginatedRequestParams>,
        _context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::ListToolsResult, rmcp::ErrorData> {
        Ok(rmcp::model::ListToolsResult::with_all_items(self.tools()))
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "claudezilla",
                claudezilla_protocol::VERSION,
            ))
            .with_instructions(INSTRUCTIONS)
    }
}
