//! What an agent can ask the browser to do, with typed arguments.
//!
//! The argument structs double as the MCP tools' input schemas (feature `schema`), so the names
//! an agent writes (`tabId`, `maxLength`, …) are the names on the wire, checked in one place.

use serde::{Deserialize, Serialize};

use crate::TabId;
use crate::validate::{self, Invalid};

/// Default and ceiling of `maxLength` for page text.
pub const DEFAULT_MAX_LENGTH: u32 = 50_000;
pub const MAX_MAX_LENGTH: u32 = 1_000_000;
/// Longest text `firefox_type` accepts (keeps every frame toward the extension far under 1 MiB).
pub const MAX_TYPE_TEXT: usize = 100_000;

/// One command, named as on the wire: `{"name": "navigate", "args": {...}}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "name", content = "args", rename_all = "camelCase")]
pub enum Command {
    CreateWindow(CreateWindowArgs),
    Navigate(NavigateArgs),
    GetContent(GetContentArgs),
    Click(ClickArgs),
    Type(TypeArgs),
    Screenshot(ScreenshotArgs),
    GetTabs,
    CloseTab(CloseTabArgs),
    /// Health check answered by the extension.
    Ping,
    /// The extension's view of itself, for `firefox_diagnose`.
    Diagnose,
    /// The agent is leaving: close and release its tabs.
    Goodbye,
    RequestTabSpace,
    GrantTabSpace,
    GetSlotRequests,
    CloseWindow,
    /// Keeps an idle but live agent's tabs from being released.
    Heartbeat,
    /// Restarts the extension's background (after a rebuild); not an MCP tool.
    ReloadExtension,
}

impl Command {
    /// Every command name the host lets through; anything else is refused there.
    pub const NAMES: &[&str] = &[
        "createWindow",
        "navigate",
        "getContent",
        "click",
        "type",
        "screenshot",
        "getTabs",
        "closeTab",
        "ping",
        "diagnose",
        "goodbye",
        "requestTabSpace",
        "grantTabSpace",
        "getSlotRequests",
        "closeWindow",
        "heartbeat",
        "reloadExtension",
    ];

    pub fn name(&self) -> &'static str {
        match self {
            Self::CreateWindow(_) => "createWindow",
            Self::Navigate(_) => "navigate",
            Self::GetContent(_) => "getContent",
            Self::Click(_) => "click",
            Self::Type(_) => "type",
            Self::Screenshot(_) => "screenshot",
            Self::GetTabs => "getTabs",
            Self::CloseTab(_) => "closeTab",
            Self::Ping => "ping",
            Self::Diagnose => "diagnose",
            Self::Goodbye => "goodbye",
            Self::RequestTabSpace => "requestTabSpace",
            Self::GrantTabSpace => "grantTabSpace",
            Self::GetSlotRequests => "getSlotRequests",
            Self::CloseWindow => "closeWindow",
            Self::Heartbeat => "heartbeat",
            Self::ReloadExtension => "reloadExtension",
        }
    }

    /// Checks every argument; the MCP server calls this before sending, the extension again on
    /// receipt (it trusts nothing that crossed a boundary).
    pub fn validate(&self) -> Result<(), Invalid> {
        match self {
            Self::CreateWindow(a) => validate::url("url", &a.url),
            Self::Navigate(a) => validate::url("url", &a.url),
            Self::GetContent(a) => a.validate(),
            Self::Click(a) => validate::selector("selector", &a.selector),
            Self::Type(a) => a.validate(),
            Self::Screenshot(_)
            | Self::GetTabs
            | Self::CloseTab(_)
            | Self::Ping
            | Self::Diagnose
            | Self::Goodbye
            | Self::RequestTabSpace
            | Self::GrantTabSpace
            | Self::GetSlotRequests
            | Self::CloseWindow
            | Self::Heartbeat
            | Self::ReloadExtension => Ok(()),
        }
    }
}

fn about_blank() -> String {
    "about:blank".into()
}

fn default_max_length() -> u32 {
    DEFAULT_MAX_LENGTH
}

/// Arguments of `firefox_create_window`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateWindowArgs {
    /// Page to open (http, https, file or about:blank).
    #[serde(default = "about_blank")]
    pub url: String,
}

/// Arguments of `firefox_navigate`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NavigateArgs {
    /// Page to load (http, https, file or about:blank).
    pub url: String,
    /// Your tab; defaults to your most recent tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: Option<TabId>,
}

/// Arguments of `firefox_get_content`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GetContentArgs {
    /// Your tab; defaults to your most recent tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: Option<TabId>,
    /// CSS selector of the part to read; the whole page when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub selector: Option<String>,
    /// Cut the text after this many characters (default 50000).
    #[serde(default = "default_max_length")]
    pub max_length: u32,
}

impl GetContentArgs {
    fn validate(&self) -> Result<(), Invalid> {
        if let Some(selector) = &self.selector {
            validate::selector("selector", selector)?;
        }
        if !(1..=MAX_MAX_LENGTH).contains(&self.max_length) {
            return Err(Invalid::new(
                "maxLength",
                format!(
                    "must be between 1 and {MAX_MAX_LENGTH}, got {}",
                    self.max_length
                ),
            ));
        }
        Ok(())
    }
}

/// Arguments of `firefox_click`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClickArgs {
    /// CSS selector of the element to click.
    pub selector: String,
    /// Your tab; defaults to your most recent tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: Option<TabId>,
}

/// Arguments of `firefox_type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TypeArgs {
    /// CSS selector of the input, textarea or contenteditable element.
    pub selector: String,
    /// Text to enter.
    pub text: String,
    /// Replace the current value instead of appending to it.
    #[serde(default)]
    pub clear: bool,
    /// Your tab; defaults to your most recent tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: Option<TabId>,
}

impl TypeArgs {
    fn validate(&self) -> Result<(), Invalid> {
        validate::selector("selector", &self.selector)?;
        let chars = self.text.chars().count();
        if chars > MAX_TYPE_TEXT {
            return Err(Invalid::new(
                "text",
                format!("is {chars} characters; at most {MAX_TYPE_TEXT} can be typed in one call"),
            ));
        }
        Ok(())
    }
}

/// Arguments of `firefox_screenshot`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScreenshotArgs {
    /// Your tab; defaults to your most recent tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: Option<TabId>,
}

/// Arguments of `firefox_close_tab`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CloseTabArgs {
    /// The tab to close (one of yours).
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: TabId,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn wire_shape_is_name_and_args() {
        let cmd = Command::Navigate(NavigateArgs {
            url: "https://example.com/".into(),
            tab_id: Some(TabId(3)),
        });
        let v = serde_json::to_value(&cmd).unwrap();
        assert_eq!(
            v,
            json!({"name": "navigate", "args": {"url": "https://example.com/", "tabId": 3}})
        );
        assert_eq!(serde_json::from_value::<Command>(v).unwrap(), cmd);
        let unit = serde_json::to_value(Command::GetTabs).unwrap();
        assert_eq!(unit, json!({"name": "getTabs"}));
        assert_eq!(
            serde_json::from_value::<Command>(unit).unwrap(),
            Command::GetTabs
        );
    }

    #[test]
    fn names_list_matches_every_variant() {
        let all = [
            Command::CreateWindow(CreateWindowArgs { url: about_blank() }),
            Command::Navigate(NavigateArgs {
                url: about_blank(),
                tab_id: None,
            }),
            Command::GetContent(GetContentArgs {
                tab_id: None,
                selector: None,
                max_length: 1,
            }),
            Command::Click(ClickArgs {
                selector: "a".into(),
                tab_id: None,
            }),
            Command::Type(TypeArgs {
                selector: "a".into(),
                text: String::new(),
                clear: false,
                tab_id: None,
            }),
            Command::Screenshot(ScreenshotArgs { tab_id: None }),
            Command::GetTabs,
            Command::CloseTab(CloseTabArgs { tab_id: TabId(1) }),
            Command::Ping,
            Command::Diagnose,
            Command::Goodbye,
            Command::RequestTabSpace,
            Command::GrantTabSpace,
            Command::GetSlotRequests,
            Command::CloseWindow,
            Command::Heartbeat,
            Command::ReloadExtension,
        ];
        let names: Vec<_> = all.iter().map(Command::name).collect();
        assert_eq!(names, Command::NAMES);
        for cmd in &all {
            let v = serde_json::to_value(cmd).unwrap();
            assert_eq!(v["name"], cmd.name());
        }
    }

    #[test]
    fn defaults_apply_and_unknown_fields_are_refused() {
        let c: GetContentArgs = serde_json::from_value(json!({})).unwrap();
        assert_eq!(
            (c.tab_id, c.selector, c.max_length),
            (None, None, DEFAULT_MAX_LENGTH)
        );
        let w: CreateWindowArgs = serde_json::from_value(json!({})).unwrap();
        assert_eq!(w.url, "about:blank");
        assert!(serde_json::from_value::<ClickArgs>(json!({"selector": "a", "tabid": 1})).is_err());
    }

    #[test]
    fn validation_names_the_field() {
        let long = Command::Click(ClickArgs {
            selector: "a".repeat(1001),
            tab_id: None,
        });
        assert_eq!(long.validate().unwrap_err().field, "selector");
        let max = Command::GetContent(GetContentArgs {
            tab_id: None,
            selector: None,
            max_length: 0,
        });
        assert_eq!(max.validate().unwrap_err().field, "maxLength");
        let text = Command::Type(TypeArgs {
            selector: "input".into(),
            text: "x".repeat(MAX_TYPE_TEXT + 1),
            clear: true,
            tab_id: None,
        });
        assert_eq!(text.validate().unwrap_err().field, "text");
        let url = Command::Navigate(NavigateArgs {
            url: "javascript:alert(1)".into(),
            tab_id: None,
        });
        assert_eq!(url.validate().unwrap_err().field, "url");
    }
}
