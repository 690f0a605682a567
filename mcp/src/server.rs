//! The MCP server: the session ([`crate::session`]) with the tool groups of [`crate::tools`]
//! on one router, served as an MCP `ServerHandler`.

use std::sync::Arc;

use rmcp::model::{Implementation, ServerCapabilities, ServerConfig, Tool};
use rmcp::service::NotificationContext;
use rmcp::{RoleServer, ServerHandler, tool_handler};

use crate::link::HostLink;
use crate::secrets::Secrets;
use crate::session::{Claudezilla, Folders};

const INSTRUCTIONS: &str = "Drives the user's Firefox. Open a page with firefox_create_window (it returns your tabId); \
the other tools act on your own tabs only (tabId defaults to your most recent tab). \
Every tool takes timeout in ms (default {DEFAULT_TIMEOUT_MS}). \
Errors start with a stable code such as OWNERSHIP or NOT_CONNECTED, and say what to do.";

impl Claudezilla {
    pub fn new(link: Arc<HostLink>, folders: Folders, secrets: Secrets) -> Self {
        let tool_router = Self::tabs_router()
            + Self::navigation_router()
            + Self::reading_router()
            + Self::audit_router()
            + Self::interaction_router()
            + Self::screenshot_router()
            + Self::pool_router()
            + Self::devtools_router()
            + Self::storage_router()
            + Self::downloads_router()
            + Self::config_router()
            + Self::loops_router()
            + Self::diagnostics_router()
            + Self::trace_router();
        let listed = Arc::new(tool_router.list_all().into_iter().map(trimmed).collect());
        Self {
            link,
            folders: Arc::new(folders),
            secrets: Arc::new(secrets),
            trace: Arc::default(),
            tool_router,
            listed,
        }
    }

    /// The tool list, as `tools/list` sends it.
    pub fn tools(&self) -> Vec<Tool> {
        self.listed.to_vec()
    }
}

/// A description with the numbers that other parts decide filled in (`{POOL_LIMIT}`, …), so
/// no description states a limit that is not the code's.
fn described(text: &str) -> String {
    let reservation_s = claudezilla_protocol::envelope::Tuning::default().reservation_ms / 1_000;
    text.replace(
        "{POOL_LIMIT}",
        &claudezilla_protocol::POOL_LIMIT.to_string(),
    )
    .replace(
        "{GRANT_MINIMUM}",
        &claudezilla_protocol::GRANT_MINIMUM.to_string(),
    )
    .replace("{RESERVATION_S}", &reservation_s.to_string())
    .replace(
        "{DEFAULT_TIMEOUT_MS}",
        &claudezilla_protocol::validate::DEFAULT_TIMEOUT_MS.to_string(),
    )
}

/// A tool without what costs tokens and tells a model nothing: the `$schema` URL, integer
/// formats (`uint32`), bounds that are only the Rust type's, `default: false` or `null`, and
/// the "or null" of an optional argument.
fn trimmed(mut tool: Tool) -> Tool {
    if let Some(description) = &tool.description {
        tool.description = Some(described(description).into());
    }
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
            not_null(map);
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
            // Booleans default to false, and an absent optional argument is none; saying so
            // costs tokens.
            if matches!(map.get("default"), Some(Value::Bool(false) | Value::Null)) {
                map.remove("default");
            }
            // A shared type's own doc repeats what each field using it says.
            if let Some(Value::Object(defs)) = map.get_mut("$defs") {
                for def in defs.values_mut() {
                    if let Value::Object(def) = def {
                        def.remove("description");
                    }
                }
            }
            map.values_mut().for_each(trim);
        }
        Value::Array(items) => items.iter_mut().for_each(trim),
        _ => {}
    }
}

/// An optional argument's schema as its value's own: schemars writes `Option<T>` as "T or
/// null", where an agent leaves the argument out (it is not in `required`); one shape for
/// every optional argument, and fewer tokens.
fn not_null(map: &mut serde_json::Map<String, serde_json::Value>) {
    use serde_json::Value;
    let is_null = |v: &Value| v == "null" || *v == serde_json::json!({"type": "null"});
    if let Some(Value::Array(types)) = map.get("type") {
        let kept: Vec<&Value> = types.iter().filter(|t| !is_null(t)).collect();
        if let [only] = kept.as_slice() {
            let only = (*only).clone();
            map.insert("type".into(), only);
        }
    }
    let Some(Value::Array(choices)) = map.get("anyOf") else {
        return;
    };
    let kept: Vec<&Value> = choices.iter().filter(|c| !is_null(c)).collect();
    if let [Value::Object(only)] = kept.as_slice() {
        let only = only.clone();
        map.remove("anyOf");
        for (key, value) in only {
            map.entry(key).or_insert(value);
        }
    }
}

impl Claudezilla {
    /// Every text of an answer with the secrets' values replaced by `<redacted:NAME>`: the
    /// last pass, after the frames hid what their pages showed as `<secret:NAME>` (pictures
    /// cannot be: the README and SECURITY.md say so).
    fn hide_secrets(&self, result: &mut rmcp::model::CallToolResult) {
        if self.secrets.is_empty() {
            return;
        }
        for block in &mut result.content {
            if let rmcp::model::ContentBlock::Text(t) = block
                && let std::borrow::Cow::Owned(hidden) = self.secrets.redact(&t.text)
            {
                t.text = hidden;
            }
        }
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Claudezilla {
    /// Every tool's answer, with what happened to the agent's tabs on their own meanwhile
    /// (a page opened a tab, …) added at its end, and no secret's value anywhere in it.
    async fn call_tool(
        &self,
        request: rmcp::model::CallToolRequestParams,
        context: rmcp::service::RequestContext<RoleServer>,
    ) -> Result<rmcp::model::CallToolResponse, rmcp::ErrorData> {
        let tool = request.name.to_string();
        let args = request.arguments.clone().unwrap_or_default();
        if !self.secrets.is_empty() {
            let written = serde_json::Value::Object(args.clone()).to_string();
            if let Err(refusal) = self.secrets.refuse_in(&written) {
                return Ok(rmcp::model::CallToolResponse::Complete(
                    crate::tools::failed(refusal),
                ));
            }
        }
        // Named before the call changes the page (a click may remove what it clicked).
        let replay = self.replay_before(&tool, &args).await;
        let call = rmcp::handler::server::tool::ToolCallContext::new(self, request, context);
        let mut response = self.tool_router.call(call).await?;
        let notes = self.link.take_notes();
        if let (rmcp::model::CallToolResponse::Complete(result), false) =
            (&mut response, notes.is_empty())
        {
            let lines: Vec<String> = notes.iter().map(|n| format!("Note: {n}")).collect();
            result
                .content
                .push(rmcp::model::ContentBlock::text(lines.join("\n")));
        }
        // Tools answer at once (no tasks): every answer is a complete result.
        if let rmcp::model::CallToolResponse::Complete(result) = &mut response {
            self.hide_secrets(result);
            if tool != "firefox_trace" {
                self.trace_action(&tool, &args, result, replay).await;
            }
        }
        Ok(response)
    }

    async fn list_tools(
        &self,
        _request: Option<rmcp::model::PaginatedRequestParams>,
        _context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::ListToolsResult, rmcp::ErrorData> {
        Ok(rmcp::model::ListToolsResult::with_all_items(self.tools()))
    }

    async fn on_roots_list_changed(&self, _context: NotificationContext<RoleServer>) {
        self.folders.forget_roots().await;
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "claudezilla",
                claudezilla_protocol::VERSION,
            ))
            .with_instructions(described(INSTRUCTIONS))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use claudezilla_protocol::AgentId;
    use claudezilla_protocol::paths::RuntimeDir;
    use std::path::PathBuf;

    use crate::files;

    #[test]
    fn descriptions_state_the_codes_numbers() {
        let link = Arc::new(HostLink::new(
            RuntimeDir::at("/nonexistent"),
            AgentId::new([1; 16], 1),
        ));
        let server = Claudezilla::new(
            link,
            Folders::new(files::Options::default(), PathBuf::from("/")),
            Secrets::default(),
        );
        let tools = server.tools();
        let pool = tools
            .iter()
            .find(|t| t.name == "firefox_request_tab_space")
            .and_then(|t| t.description.clone())
            .unwrap_or_default();
        assert!(
            pool.contains(&format!("{}-tab", claudezilla_protocol::POOL_LIMIT)),
            "{pool}"
        );
        for tool in &tools {
            let text = tool.description.clone().unwrap_or_default();
            assert!(!text.contains('{'), "{}: {text}", tool.name);
            // An optional argument is its own type, never "or null".
            let schema = serde_json::Value::Object((*tool.input_schema).clone()).to_string();
            assert!(!schema.contains("null"), "{}: {schema}", tool.name);
        }
    }

    #[test]
    fn an_optional_argument_reads_as_its_own_type() {
        let mut schema = serde_json::json!({"properties": {
            "tabId": {"type": ["integer", "null"], "minimum": 0, "default": null},
            "level": {"description": "d", "anyOf": [{"$ref": "#/$defs/L"}, {"type": "null"}]},
            "either": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
        }});
        trim(&mut schema);
        // Nothing but null stays as it is (no schema here has one; none should vanish).
        let mut only_null = serde_json::json!({"type": ["null"]});
        trim(&mut only_null);
        assert_eq!(only_null, serde_json::json!({"type": ["null"]}));
        assert_eq!(
            schema,
            serde_json::json!({"properties": {
                "tabId": {"type": "integer"},
                "level": {"description": "d", "$ref": "#/$defs/L"},
                "either": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
            }})
        );
    }
}
