//! What an agent can ask the browser to do. One variant per command, each with typed arguments
//! ([`crate::args`]); the list of names is generated with the enum, so the host's whitelist
//! can never drift from what the extension understands.

use serde::{Deserialize, Serialize};

use crate::args::*;
use crate::reply::*;

macro_rules! commands {
    ($( $(#[$doc:meta])* $variant:ident $(($args:ty))? = $name:literal => $answer:ty, )*) => {
        /// One command, named as on the wire: `{"name": "navigate", "args": {...}}`.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "name", content = "args")]
        pub enum Command {
            $( $(#[$doc])* #[serde(rename = $name)] $variant $(($args))?, )*
        }

        impl Command {
            /// Every command name the host lets through; anything else is refused there.
            pub const NAMES: &[&str] = &[$($name),*];

            pub fn name(&self) -> &'static str {
                match self {
                    $( commands!(@pattern $variant $($args)?) => $name, )*
                }
            }
        }

        /// One type per command (`asks::Click`), pairing its arguments with its answer: who
        /// sends it gets that answer's type back, never a reply of another kind.
        pub mod asks {
            use super::*;

            $(
                #[doc = concat!("`", $name, "`")]
                pub struct $variant;

                impl Asking for $variant {
                    type Args = commands!(@args $($args)?);
                    type Answer = $answer;

                    fn command(args: Self::Args) -> Command {
                        commands!(@make $variant args $($args)?)
                    }
                }
            )*
        }
    };
    (@pattern $variant:ident $args:ty) => { Self::$variant(_) };
    (@pattern $variant:ident) => { Self::$variant };
    (@args $args:ty) => { $args };
    (@args) => { () };
    // The names come from the caller, so the binding and its use share one expansion.
    (@make $variant:ident $x:ident $args:ty) => { Command::$variant($x) };
    (@make $variant:ident $x:ident) => {{
        let () = $x;
        Command::$variant
    }};
}

/// A command as a type: its arguments, its answer, and the [`Command`] it is sent as.
pub trait Asking {
    type Args;
    type Answer: Answer;

    fn command(args: Self::Args) -> Command;
}

commands! {
    CreateWindow(CreateWindowArgs) = "createWindow" => TabReport,
    Navigate(NavigateArgs) = "navigate" => TabReport,
    GetContent(GetContentArgs) = "getContent" => PageContent,
    Click(ClickArgs) = "click" => Clicked,
    Type(ResolvedType) = "type" => Typed,
    PressKey(PressKeyArgs) = "pressKey" => Acted,
    Scroll(ScrollArgs) = "scroll" => Acted,
    Hover(HoverArgs) = "hover" => Acted,
    SelectOption(SelectOptionArgs) = "selectOption" => Acted,
    FillForm(ResolvedForm) = "fillForm" => Acted,
    /// The MCP server reads the file at the path and sends its bytes along (`file`).
    UploadFile(ResolvedUpload) = "uploadFile" => Acted,
    Drag(DragArgs) = "drag" => Acted,
    HandleDialog(HandleDialogArgs) = "handleDialog" => DialogReport,
    GetElement(TargetArgs) = "getElement" => Box<ElementInfo>,
    /// Where the element is, as a Playwright locator names it (for a trace's test file).
    Locate(TargetArgs) = "locate" => Box<Locator>,
    WaitFor(WaitForArgs) = "waitFor" => Waited,
    GetPageState(PageStateArgs) = "getPageState" => Box<PageState>,
    Snapshot(SnapshotArgs) = "snapshot" => crate::reply::Snapshot,
    Find(FindArgs) = "find" => Found,
    Performance(PerformanceArgs) = "performance" => Box<PagePerformance>,
    Audit(AuditArgs) = "audit" => Box<crate::reply::Audit>,
    AccessibilitySnapshot(AccessibilitySnapshotArgs) = "accessibilitySnapshot" => crate::reply::Snapshot,
    Screenshot(ScreenshotArgs) = "screenshot" => crate::reply::Screenshot,
    GetTabs = "getTabs" => Tabs,
    CloseTab(CloseTabArgs) = "closeTab" => Closed,
    /// Health check answered by the extension.
    Ping = "ping" => Pong,
    /// The extension's view of itself, for `firefox_diagnose`.
    Diagnose = "diagnose" => ExtensionDiagnosis,
    /// The agent is leaving: close and release its tabs.
    Goodbye = "goodbye" => Bye,
    RequestTabSpace = "requestTabSpace" => SlotRequested,
    GrantTabSpace = "grantTabSpace" => Granted,
    GetSlotRequests = "getSlotRequests" => SlotRequests,
    CloseWindow = "closeWindow" => WindowClosed,
    GetConsole(ConsoleArgs) = "getConsole" => Console,
    GetNetwork(NetworkArgs) = "getNetwork" => Network,
    Evaluate(EvaluateArgs) = "evaluate" => Evaluated,
    Cookies(CookiesArgs) = "cookies" => CookiesAnswer,
    Route(RouteArgs) = "route" => Routes,
    Unroute(UnrouteArgs) = "unroute" => Routes,
    Storage(StorageArgs) = "storage" => StorageAnswer,
    /// `firefox_storage_state` save: the MCP server writes the answer to the agent's file.
    SaveState = "saveState" => SavedState,
    /// `firefox_storage_state` load: what the MCP server read from the agent's file.
    LoadState(StateToLoad) = "loadState" => Acted,
    /// The MCP server moves finished files into the allowed folders, then says so.
    Downloads(ResolvedDownloads) = "downloads" => crate::reply::Downloads,
    GetActivity(ActivityArgs) = "getActivity" => Activity,
    SetConfig(SetConfigArgs) = "setConfig" => Config,
    HandleConsent(TabArgs) = "handleConsent" => Acted,
    SetViewport(ViewportArgs) = "setViewport" => Acted,
    ResizeWindow(ResizeArgs) = "resizeWindow" => Acted,
    SetPrivateMode(PrivateModeArgs) = "setPrivateMode" => Acted,
    ListAllTabs = "listAllTabs" => AllTabs,
    AttachTab(AttachArgs) = "attachTab" => TabReport,
    DetachTab(AttachArgs) = "detachTab" => Acted,
    StartLoop(LoopArgs) = "startLoop" => LoopState,
    StopLoop = "stopLoop" => LoopState,
    LoopStatus = "loopStatus" => LoopState,
    /// From the Claude Code Stop hook (`claudezilla-host stop-hook`).
    LoopCheck(LoopCheckArgs) = "loopCheck" => LoopDecision,
    /// Keeps an idle but live agent's tabs from being released.
    Heartbeat = "heartbeat" => (),
    /// Restarts the extension's background (after a rebuild); not an MCP tool.
    ReloadExtension = "reloadExtension" => (),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TabId;
    use serde_json::json;

    #[test]
    fn wire_shape_is_name_and_args() {
        let cmd = Command::CloseTab(CloseTabArgs { tab_id: TabId(3) });
        let v = serde_json::to_value(&cmd).unwrap();
        assert_eq!(v, json!({"name": "closeTab", "args": {"tabId": 3}}));
        assert_eq!(serde_json::from_value::<Command>(v).unwrap(), cmd);
        let unit = serde_json::to_value(Command::GetTabs).unwrap();
        assert_eq!(unit, json!({"name": "getTabs"}));
        assert_eq!(
            serde_json::from_value::<Command>(unit).unwrap(),
            Command::GetTabs
        );
    }

    /// One valid example of every command, as an agent's arguments arrive.
    fn examples() -> Vec<serde_json::Value> {
        let plain = |name: &str| json!({ "name": name });
        let with = |name: &str, args: serde_json::Value| json!({ "name": name, "args": args });
        vec![
            with("createWindow", json!({"url": "https://example.com/"})),
            with("navigate", json!({"url": "about:blank", "tabId": 2})),
            with("getContent", json!({"selector": "main", "maxLength": 100})),
            with(
                "click",
                json!({"ref": "f1e4", "modifiers": ["Shift"], "clickCount": 2}),
            ),
            with(
                "type",
                json!({"target": {"selector": "#q"}, "text": {"text": "hi"}, "clear": true, "tabId": null}),
            ),
            with("pressKey", json!({"key": "Control+a"})),
            with("scroll", json!({"deltaY": 120})),
            with("hover", json!({"ref": "e3"})),
            with(
                "selectOption",
                json!({"selector": "select", "values": ["b"]}),
            ),
            with(
                "fillForm",
                json!({"fields": [[{"ref": "e1"}, {"checked": true}]], "tabId": null}),
            ),
            with(
                "uploadFile",
                json!({"args": {"ref": "e2", "path": "a.txt"},
                       "file": {"name": "a.txt", "mime": "text/plain", "base64": "eA=="}}),
            ),
            with(
                "drag",
                json!({"from": "e1", "to": "#bin", "position": "before"}),
            ),
            with("handleDialog", json!({"accept": true, "promptText": "yes"})),
            with("getElement", json!({"selector": "h1"})),
            with("locate", json!({"ref": "f2e7", "tabId": 4})),
            with("waitFor", json!({"url": "**/done"})),
            with("getPageState", json!({"maxLinks": 3})),
            with("snapshot", json!({"interactiveOnly": true})),
            with("find", json!({"pattern": "(?i)total: \\d+", "limit": 5})),
            with("performance", json!({"reload": true})),
            with(
                "audit",
                json!({"rules": ["wcag2aa", "best-practice"], "perRule": 3}),
            ),
            with("accessibilitySnapshot", json!({"maxDepth": 4})),
            with("screenshot", json!({"ref": "e9", "purpose": "read-text"})),
            plain("getTabs"),
            with("closeTab", json!({"tabId": 3})),
            plain("ping"),
            plain("diagnose"),
            plain("goodbye"),
            plain("requestTabSpace"),
            plain("grantTabSpace"),
            plain("getSlotRequests"),
            plain("closeWindow"),
            with("getConsole", json!({"level": "error", "limit": 5})),
            with("getNetwork", json!({"includeBody": true})),
            with("evaluate", json!({"expression": "1 + 1"})),
            with("cookies", json!({"action": "get"})),
            with("route", json!({"pattern": "**/api/*", "action": "abort"})),
            with("unroute", json!({"pattern": "**/api/*"})),
            with("storage", json!({"action": "get", "area": "session"})),
            plain("saveState"),
            with(
                "loadState",
                json!({"state": {"cookies": [], "origins": []}}),
            ),
            with(
                "downloads",
                json!({"args": {"wait": true}, "moved": [{"id": 3, "path": "/p/a.csv"}]}),
            ),
            with("getActivity", json!({"limit": 5})),
            with("setConfig", json!({"handleConsent": true})),
            with("handleConsent", json!({})),
            with("setViewport", json!({"width": 800, "height": 600})),
            with("resizeWindow", json!({"width": 1024, "height": 768})),
            with("setPrivateMode", json!({"enabled": false})),
            plain("listAllTabs"),
            with("attachTab", json!({"tabId": 5})),
            with("detachTab", json!({"tabId": 5})),
            with("startLoop", json!({"prompt": "go on", "maxIterations": 3})),
            plain("stopLoop"),
            plain("loopStatus"),
            with(
                "loopCheck",
                json!({"ancestors": [1, 2], "lastMessage": "done"}),
            ),
            plain("heartbeat"),
            plain("reloadExtension"),
        ]
    }

    #[test]
    fn every_command_parses_and_round_trips() {
        let mut names = Command::NAMES.to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Command::NAMES.len(), "a name is listed twice");
        let mut seen = Vec::new();
        for example in examples() {
            let cmd: Command = serde_json::from_value(example.clone())
                .unwrap_or_else(|e| panic!("{example}: {e}"));
            assert_eq!(example["name"], cmd.name());
            let wire = serde_json::to_value(&cmd).unwrap();
            assert_eq!(
                serde_json::from_value::<Command>(wire).unwrap(),
                cmd,
                "{example}"
            );
            seen.push(cmd.name());
        }
        seen.sort_unstable();
        assert_eq!(seen, names, "one example per command, every command");
    }

    #[test]
    fn a_command_is_checked_as_it_is_parsed() {
        let refused = |v: serde_json::Value| serde_json::from_value::<Command>(v).unwrap_err();
        let long = refused(json!({"name": "click", "args": {"selector": "a".repeat(1001)}}));
        assert!(long.to_string().contains("invalid `selector`"), "{long}");
        let neither = refused(json!({"name": "click", "args": {}}));
        assert!(
            neither.to_string().contains("invalid `selector`"),
            "{neither}"
        );
        let quadruple = refused(json!({"name": "click", "args": {"ref": "e1", "clickCount": 4}}));
        assert!(quadruple.to_string().contains("invalid `clickCount`"));
        let url = refused(json!({"name": "createWindow", "args": {"url": "javascript:alert(1)"}}));
        assert!(url.to_string().contains("invalid `url`"), "{url}");
    }

    #[test]
    fn a_command_type_sends_its_command_and_takes_only_its_answer() {
        let click: ClickArgs = serde_json::from_value(json!({"ref": "e1"})).unwrap();
        assert_eq!(asks::Click::command(click.clone()), Command::Click(click));
        assert_eq!(asks::GetTabs::command(()), Command::GetTabs);
        let clicked = Reply::Clicked(Clicked {
            element: "button".into(),
            new_tab: None,
            refused: Vec::new(),
        });
        assert!(<asks::Click as Asking>::Answer::from_reply(clicked.clone()).is_ok());
        assert_eq!(
            <asks::Hover as Asking>::Answer::from_reply(clicked.clone()),
            Err(clicked),
            "a reply of another kind is given back"
        );
        let acted = Reply::Acted(Acted { what: "set".into() });
        assert!(matches!(
            <asks::Cookies as Asking>::Answer::from_reply(acted),
            Ok(CookiesAnswer::Acted(_))
        ));
        assert_eq!(CookiesAnswer::from_reply(Reply::Ack), Err(Reply::Ack));
        assert_eq!(<() as Answer>::from_reply(Reply::Ack), Ok(()));
    }
}
