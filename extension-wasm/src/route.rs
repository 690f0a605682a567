//! Where each command runs, decided once and purely: on one of the agent's tabs (authorized by
//! the pool before anything runs), either in a frame's content script ([`TabWork::Page`]: the
//! page operation, its frame and how long it may wait) or from the background; or for the agent
//! as a whole ([`AgentWork`]). Exhaustive over `Command`: a new command does not compile until
//! it is placed here, and what runs it matches exhaustively over the placed types.

// Dispatch: every command and operation is named, so a new one is placed by the compiler.
#![deny(clippy::wildcard_enum_match_arm)]

use std::fmt;

use claudezilla_protocol::args::{
    ActivityArgs, AttachArgs, ConsoleArgs, CookiesArgs, CreateWindowArgs, DropTarget,
    ElementTarget, EvaluateArgs, FrameTarget, LoopArgs, LoopCheckArgs, MAX_MAX_LENGTH, NavAction,
    NetworkArgs, PrivateModeArgs, ResolvedDownloads, RouteArgs, SavedState, ScreenshotArgs,
    SetConfigArgs, StorageArgs, UnrouteArgs,
};
use claudezilla_protocol::args::{Aim, PageUrl};
use claudezilla_protocol::envelope::{Locatable, PageLimits, PageOp};
use claudezilla_protocol::{Command, ErrorBody, ErrorCode, TabId};

/// What an agent does to a tab, for the pool's check and its refusal ("Cannot click in tab 4").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Read,
    ClickIn,
    TypeInto,
    PressKeysIn,
    Scroll,
    HoverIn,
    Inspect,
    SelectIn,
    FillAFormIn,
    UploadInto,
    DragIn,
    AnswerDialogsIn,
    WaitIn,
    Snapshot,
    HandleConsentIn,
    Navigate,
    ReadTheConsoleOf,
    ReadTheNetworkLogOf,
    RunJavaScriptIn,
    UseTheCookiesOf,
    UseTheStorageOf,
    Resize,
    ResizeTheWindowOf,
    Screenshot,
    Close,
    Detach,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Read => "read",
            Self::ClickIn => "click in",
            Self::TypeInto => "type into",
            Self::PressKeysIn => "press keys in",
            Self::Scroll => "scroll",
            Self::HoverIn => "hover in",
            Self::Inspect => "inspect",
            Self::SelectIn => "select in",
            Self::FillAFormIn => "fill a form in",
            Self::UploadInto => "upload into",
            Self::DragIn => "drag in",
            Self::AnswerDialogsIn => "answer dialogs in",
            Self::WaitIn => "wait in",
            Self::Snapshot => "snapshot",
            Self::HandleConsentIn => "handle consent in",
            Self::Navigate => "navigate",
            Self::ReadTheConsoleOf => "read the console of",
            Self::ReadTheNetworkLogOf => "read the network log of",
            Self::RunJavaScriptIn => "run JavaScript in",
            Self::UseTheCookiesOf => "use the cookies of",
            Self::UseTheStorageOf => "use the storage of",
            Self::Resize => "resize",
            Self::ResizeTheWindowOf => "resize the window of",
            Self::Screenshot => "screenshot",
            Self::Close => "close",
            Self::Detach => "detach",
        })
    }
}

/// How long a page operation may wait inside the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wait {
    /// Up to the element wait (5 s): actions and reads.
    Element,
    /// Up to the call's whole budget: `firefox_wait_for`.
    Budget,
}

/// A command, placed where it runs.
#[derive(Debug, Clone, PartialEq)]
pub enum Placed {
    /// Work on one of the agent's tabs: the pool authorizes `action` on `tab` (none: the
    /// agent's most recent) before it runs.
    OnTab {
        tab: Option<TabId>,
        action: Action,
        work: TabWork,
    },
    /// Work for the agent, or the browser as a whole, naming no tab of its own.
    Agent(AgentWork),
}

/// What is done to an authorized tab.
#[derive(Debug, Clone, PartialEq)]
pub enum TabWork {
    /// Carried out by the content script of frame `frame` (its alias; 0: the top frame).
    Page {
        frame: u32,
        op: PageOp,
        wait: Wait,
    },
    Navigate {
        url: Option<PageUrl>,
        action: Option<NavAction>,
    },
    Console(ConsoleArgs),
    Network(NetworkArgs),
    Evaluate(EvaluateArgs),
    Cookies(CookiesArgs),
    Storage(StorageArgs),
    /// The viewport's size in CSS pixels.
    Viewport((u32, u32)),
    ResizeWindow {
        width: u32,
        height: u32,
    },
    WaitForUrl(String),
    Screenshot(ScreenshotArgs),
    /// The page's performance entries, after a fresh load (shown while it loads) if `reload`.
    Performance {
        reload: bool,
    },
    Close,
}

/// What the background does for the agent (or the whole browser) without one of its tabs.
#[derive(Debug, Clone, PartialEq)]
pub enum AgentWork {
    CreateWindow(CreateWindowArgs),
    GetTabs,
    Ping,
    Diagnose,
    Goodbye,
    RequestTabSpace,
    GrantTabSpace,
    GetSlotRequests,
    CloseWindow,
    Route(RouteArgs),
    Unroute(UnrouteArgs),
    SaveState,
    LoadState(SavedState),
    Downloads(ResolvedDownloads),
    GetActivity(ActivityArgs),
    SetConfig(SetConfigArgs),
    SetPrivateMode(PrivateModeArgs),
    ListAllTabs,
    AttachTab(AttachArgs),
    DetachTab(AttachArgs),
    StartLoop(LoopArgs),
    StopLoop,
    LoopStatus,
    LoopCheck(LoopCheckArgs),
    Heartbeat,
    ReloadExtension,
}

/// An optional element as its frame knows it (none: the top frame).
fn in_frame(target: Option<ElementTarget>) -> (u32, Option<FrameTarget>) {
    target.map_or((0, None), |t| {
        let (frame, target) = t.in_frame();
        (frame, Some(target))
    })
}

/// Work for a frame's content script, waiting at most for an element.
fn page(tab: Option<TabId>, action: Action, frame: u32, op: PageOp) -> Placed {
    let wait = Wait::Element;
    on_tab(tab, action, TabWork::Page { frame, op, wait })
}

fn on_tab(tab: Option<TabId>, action: Action, work: TabWork) -> Placed {
    Placed::OnTab { tab, action, work }
}

/// Where `command` runs, with its arguments checked on the way.
pub fn place(command: Command) -> Result<Placed, ErrorBody> {
    Ok(match command {
        Command::GetContent(a) => {
            let op = PageOp::GetContent {
                selector: a.selector.clone(),
                max_length: a.max_length,
                format: a.effective_format(),
            };
            page(a.tab_id, Action::Read, 0, op)
        }
        Command::Click(a) => {
            let (clicks, button, modifiers) = (a.clicks(), a.button, a.held());
            let (frame, op) = match a.aim {
                Aim::Point(point) => {
                    let op = PageOp::ClickAt {
                        point,
                        clicks,
                        button,
                        modifiers,
                    };
                    (0, op)
                }
                Aim::Element(target) => {
                    let (frame, target) = target.in_frame();
                    let op = PageOp::Click {
                        target,
                        clicks,
                        button,
                        modifiers,
                    };
                    (frame, op)
                }
            };
            page(a.tab_id, Action::ClickIn, frame, op)
        }
        Command::Type(a) => {
            let (frame, target) = a.target.in_frame();
            let op = PageOp::Type {
                target,
                text: a.text,
                clear: a.clear,
            };
            page(a.tab_id, Action::TypeInto, frame, op)
        }
        Command::PressKey(a) => {
            let chord = a.chord();
            let (frame, target) = in_frame(a.target);
            let op = PageOp::PressKey { target, chord };
            page(a.tab_id, Action::PressKeysIn, frame, op)
        }
        Command::Scroll(a) => {
            let wheel = a.wheel();
            let (frame, target) = in_frame(a.target);
            if let Some(w) = wheel {
                let op = PageOp::Wheel {
                    target,
                    point: w.point,
                    dx: w.dx,
                    dy: w.dy,
                };
                return Ok(page(a.tab_id, Action::Scroll, frame, op));
            }
            let op = PageOp::Scroll {
                target,
                x: a.x,
                y: a.y,
                smooth: a.behavior == claudezilla_protocol::args::ScrollBehavior::Smooth,
            };
            page(a.tab_id, Action::Scroll, frame, op)
        }
        Command::Hover(a) => {
            let (frame, op) = match a.aim {
                Aim::Point(point) => (0, PageOp::HoverAt { point }),
                Aim::Element(target) => {
                    let (frame, target) = target.in_frame();
                    (frame, PageOp::Hover { target })
                }
            };
            page(a.tab_id, Action::HoverIn, frame, op)
        }
        Command::GetElement(a) => {
            let (frame, target) = a.target.in_frame();
            page(
                a.tab_id,
                Action::Inspect,
                frame,
                PageOp::GetElement { target },
            )
        }
        Command::Locate(a) => {
            let (frame, target) = a.target.in_frame();
            let op = PageOp::Locate {
                target: Locatable::Element(target),
            };
            page(a.tab_id, Action::Inspect, frame, op)
        }
        Command::SelectOption(a) => {
            let (frame, target) = a.target.in_frame();
            let op = PageOp::SelectOption {
                target,
                values: a.values.clone(),
            };
            page(a.tab_id, Action::SelectIn, frame, op)
        }
        Command::FillForm(a) => {
            let placed: Vec<_> = a
                .fields
                .into_iter()
                .map(|(target, entry)| (target.in_frame(), entry))
                .collect();
            let frame = placed.first().map_or(0, |((frame, _), _)| *frame);
            if placed.iter().any(|((f, _), _)| *f != frame) {
                return Err(ErrorBody::new(
                    ErrorCode::InvalidArgument,
                    "all fields of one fill must be in the same frame",
                ));
            }
            let fields = placed.into_iter().map(|((_, t), v)| (t, v)).collect();
            page(
                a.tab_id,
                Action::FillAFormIn,
                frame,
                PageOp::FillForm { fields },
            )
        }
        Command::UploadFile(u) => {
            let (frame, target) = u.args.target.in_frame();
            page(
                u.args.tab_id,
                Action::UploadInto,
                frame,
                PageOp::Upload {
                    target,
                    file: u.file,
                },
            )
        }
        Command::Drag(a) => {
            // Both ends are in one frame (checked with the arguments).
            let (frame, from) = a.from.in_frame();
            let to = match a.to {
                DropTarget::Element { target, position } => DropTarget::Element {
                    target: target.in_frame().1,
                    position,
                },
                DropTarget::Point(point) => DropTarget::Point(point),
            };
            page(a.tab_id, Action::DragIn, frame, PageOp::Drag { from, to })
        }
        Command::HandleDialog(a) => {
            let op = PageOp::Dialogs {
                accept: a.accept,
                prompt_text: a.prompt_text.clone(),
            };
            page(a.tab_id, Action::AnswerDialogsIn, 0, op)
        }
        Command::WaitFor(a) => match a.url {
            // A URL is the tab's, watched from the background.
            Some(glob) => on_tab(a.tab_id, Action::WaitIn, TabWork::WaitForUrl(glob)),
            None => {
                let op = PageOp::WaitFor {
                    selector: a.selector,
                    text: a.text,
                };
                let wait = Wait::Budget;
                on_tab(
                    a.tab_id,
                    Action::WaitIn,
                    TabWork::Page { frame: 0, op, wait },
                )
            }
        },
        Command::GetPageState(a) => {
            let limits = PageLimits {
                headings: a.max_headings,
                links: a.max_links,
                buttons: a.max_buttons,
                inputs: a.max_inputs,
                images: a.max_images,
            };
            page(a.tab_id, Action::Read, 0, PageOp::PageState { limits })
        }
        Command::Snapshot(a) => {
            let op = PageOp::Snapshot {
                selector: a.selector.clone(),
                interactive_only: a.interactive_only,
                max_chars: a.max_chars,
                max_depth: None,
                max_nodes: None,
            };
            page(a.tab_id, Action::Snapshot, 0, op)
        }
        Command::Performance(a) => {
            // A fresh load is a navigation, allowed where navigating is.
            let action = if a.reload {
                Action::Navigate
            } else {
                Action::Read
            };
            on_tab(a.tab_id, action, TabWork::Performance { reload: a.reload })
        }
        Command::Audit(a) => {
            let op = PageOp::Audit {
                rules: a.rules.clone(),
                per_rule: a.per_rule,
            };
            // axe takes seconds on a large page: the whole of the call's time is its.
            let wait = Wait::Budget;
            on_tab(a.tab_id, Action::Read, TabWork::Page { frame: 0, op, wait })
        }
        Command::Find(a) => {
            let op = PageOp::Find {
                needle: a.needle()?,
                limit: a.limit,
            };
            page(a.tab_id, Action::Read, 0, op)
        }
        Command::AccessibilitySnapshot(a) => {
            let op = PageOp::Snapshot {
                selector: a.selector.clone(),
                interactive_only: false,
                max_chars: MAX_MAX_LENGTH,
                max_depth: Some(a.max_depth),
                max_nodes: Some(a.max_nodes),
            };
            page(a.tab_id, Action::Snapshot, 0, op)
        }
        Command::HandleConsent(a) => page(a.tab_id, Action::HandleConsentIn, 0, PageOp::Consent),
        Command::Navigate(a) => {
            let work = TabWork::Navigate {
                url: a.url,
                action: a.action,
            };
            on_tab(a.tab_id, Action::Navigate, work)
        }
        Command::GetConsole(a) => on_tab(a.tab_id, Action::ReadTheConsoleOf, TabWork::Console(a)),
        Command::GetNetwork(a) => {
            on_tab(a.tab_id, Action::ReadTheNetworkLogOf, TabWork::Network(a))
        }
        Command::Evaluate(a) => on_tab(a.tab_id, Action::RunJavaScriptIn, TabWork::Evaluate(a)),
        Command::Cookies(a) => on_tab(a.tab_id, Action::UseTheCookiesOf, TabWork::Cookies(a)),
        Command::Storage(a) => on_tab(a.tab_id, Action::UseTheStorageOf, TabWork::Storage(a)),
        Command::SetViewport(a) => {
            let size = a.size()?;
            on_tab(a.tab_id, Action::Resize, TabWork::Viewport(size))
        }
        Command::ResizeWindow(a) => {
            let work = TabWork::ResizeWindow {
                width: a.width,
                height: a.height,
            };
            on_tab(None, Action::ResizeTheWindowOf, work)
        }
        Command::Screenshot(a) => on_tab(a.tab_id, Action::Screenshot, TabWork::Screenshot(a)),
        Command::CloseTab(a) => on_tab(Some(a.tab_id), Action::Close, TabWork::Close),
        Command::CreateWindow(a) => Placed::Agent(AgentWork::CreateWindow(a)),
        Command::GetTabs => Placed::Agent(AgentWork::GetTabs),
        Command::Ping => Placed::Agent(AgentWork::Ping),
        Command::Diagnose => Placed::Agent(AgentWork::Diagnose),
        Command::Goodbye => Placed::Agent(AgentWork::Goodbye),
        Command::RequestTabSpace => Placed::Agent(AgentWork::RequestTabSpace),
        Command::GrantTabSpace => Placed::Agent(AgentWork::GrantTabSpace),
        Command::GetSlotRequests => Placed::Agent(AgentWork::GetSlotRequests),
        Command::CloseWindow => Placed::Agent(AgentWork::CloseWindow),
        Command::Route(a) => Placed::Agent(AgentWork::Route(a)),
        Command::Unroute(a) => Placed::Agent(AgentWork::Unroute(a)),
        Command::SaveState => Placed::Agent(AgentWork::SaveState),
        Command::LoadState(state) => Placed::Agent(AgentWork::LoadState(state.into_state())),
        Command::Downloads(a) => Placed::Agent(AgentWork::Downloads(a)),
        Command::GetActivity(a) => Placed::Agent(AgentWork::GetActivity(a)),
        Command::SetConfig(a) => Placed::Agent(AgentWork::SetConfig(a)),
        Command::SetPrivateMode(a) => Placed::Agent(AgentWork::SetPrivateMode(a)),
        Command::ListAllTabs => Placed::Agent(AgentWork::ListAllTabs),
        Command::AttachTab(a) => Placed::Agent(AgentWork::AttachTab(a)),
        Command::DetachTab(a) => Placed::Agent(AgentWork::DetachTab(a)),
        Command::StartLoop(a) => Placed::Agent(AgentWork::StartLoop(a)),
        Command::StopLoop => Placed::Agent(AgentWork::StopLoop),
        Command::LoopStatus => Placed::Agent(AgentWork::LoopStatus),
        Command::LoopCheck(a) => Placed::Agent(AgentWork::LoopCheck(a)),
        Command::Heartbeat => Placed::Agent(AgentWork::Heartbeat),
        Command::ReloadExtension => Placed::Agent(AgentWork::ReloadExtension),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use claudezilla_protocol::args::MouseButton;
    use serde_json::json;

    /// A command's page work, as a flat view for the tests.
    #[derive(Debug)]
    struct PageRoute {
        tab: Option<TabId>,
        action: Action,
        frame: u32,
        op: PageOp,
        wait: Wait,
    }

    fn placed(json: serde_json::Value) -> Placed {
        let command: Command = serde_json::from_value(json).unwrap();
        place(command).unwrap()
    }

    fn route(json: serde_json::Value) -> Option<PageRoute> {
        match placed(json) {
            Placed::OnTab {
                tab,
                action,
                work: TabWork::Page { frame, op, wait },
            } => Some(PageRoute {
                tab,
                action,
                frame,
                op,
                wait,
            }),
            Placed::OnTab { .. } | Placed::Agent(_) => None,
        }
    }

    #[test]
    fn points_click_and_wheels_turn_in_the_top_frame() {
        let r = route(json!({"name": "click", "args": {"x": 10.5, "y": 20, "button": "right"}}))
            .unwrap();
        assert_eq!((r.action, r.frame), (Action::ClickIn, 0));
        assert!(matches!(
            r.op,
            PageOp::ClickAt {
                point,
                clicks: 1,
                button: MouseButton::Right,
                ..
            } if point == claudezilla_protocol::args::Point::new(10.5, 20.0).unwrap()
        ));
        let r = route(json!({"name": "scroll", "args": {"deltaY": 120, "x": 5, "y": 6}})).unwrap();
        assert_eq!(
            r.op,
            PageOp::Wheel {
                target: None,
                point: Some(claudezilla_protocol::args::Point::new(5.0, 6.0).unwrap()),
                dx: 0.0,
                dy: 120.0
            }
        );
        let r = route(json!({"name": "scroll", "args": {"ref": "f1e2", "deltaX": -3}})).unwrap();
        assert_eq!(r.frame, 1);
        assert!(matches!(
            r.op,
            PageOp::Wheel {
                point: None,
                dx: -3.0,
                ..
            }
        ));
        // Scrolling to a position is unchanged.
        let r = route(json!({"name": "scroll", "args": {"y": 300}})).unwrap();
        assert!(matches!(r.op, PageOp::Scroll { y: Some(300), .. }));
        for bad in [
            json!({"name": "click", "args": {"x": 1}}),
            json!({"name": "click", "args": {"x": -1, "y": 1}}),
            json!({"name": "click", "args": {"x": 1, "y": 1, "selector": "a"}}),
            json!({"name": "scroll", "args": {"deltaY": 1e9}}),
            json!({"name": "scroll", "args": {"deltaY": 1, "x": 1, "y": 1, "selector": "a"}}),
        ] {
            // Refused as it is parsed: no such command ever reaches `place`.
            assert!(
                serde_json::from_value::<Command>(bad.clone()).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn actions_go_to_the_frame_of_their_target() {
        let r =
            route(json!({"name": "click", "args": {"ref": "f2e5", "tabId": 7, "clickCount": 2}}))
                .unwrap();
        assert_eq!(
            (r.tab, r.action, r.frame, r.wait),
            (Some(TabId(7)), Action::ClickIn, 2, Wait::Element)
        );
        // The ref's frame is the request's; the page operation names the element by its index.
        assert!(matches!(
            r.op,
            PageOp::Click {
                clicks: 2,
                target: FrameTarget::Ref(5),
                ..
            }
        ));
        let typed = json!({"target": {"selector": "#q"}, "text": {"text": "hi"}, "clear": false, "tabId": null});
        let r = route(json!({"name": "type", "args": typed})).unwrap();
        assert_eq!((r.tab, r.action, r.frame), (None, Action::TypeInto, 0));
        let r = route(json!({"name": "pressKey", "args": {"key": "Control+a"}})).unwrap();
        let PageOp::PressKey {
            chord,
            target: None,
        } = r.op
        else {
            panic!("{:?}", r.op)
        };
        assert!(chord.modifiers.ctrl);
        assert_eq!(Action::PressKeysIn.to_string(), "press keys in");
    }

    #[test]
    fn waits_reads_and_background_commands() {
        let text = route(json!({"name": "waitFor", "args": {"text": "done"}})).unwrap();
        assert_eq!((text.action, text.wait), (Action::WaitIn, Wait::Budget));
        // An audit reads, with the whole of its time (axe takes seconds on a large page).
        let audit = route(json!({"name": "audit", "args": {"rules": ["wcag2a"]}})).unwrap();
        assert_eq!((audit.action, audit.wait), (Action::Read, Wait::Budget));
        assert!(route(json!({"name": "waitFor", "args": {"url": "**/done"}})).is_none());
        assert_eq!(
            placed(json!({"name": "waitFor", "args": {"url": "**/done", "tabId": 3}})),
            Placed::OnTab {
                tab: Some(TabId(3)),
                action: Action::WaitIn,
                work: TabWork::WaitForUrl("**/done".into()),
            }
        );
        assert_eq!(
            placed(json!({"name": "closeTab", "args": {"tabId": 4}})),
            Placed::OnTab {
                tab: Some(TabId(4)),
                action: Action::Close,
                work: TabWork::Close,
            }
        );
        assert_eq!(
            placed(json!({"name": "getTabs"})),
            Placed::Agent(AgentWork::GetTabs)
        );
        let state = route(json!({"name": "getPageState", "args": {"maxLinks": 3}})).unwrap();
        assert!(matches!(state.op, PageOp::PageState { limits } if limits.links == 3));
        for background in [
            json!({"name": "getTabs"}),
            json!({"name": "navigate", "args": {"url": "about:blank"}}),
            json!({"name": "screenshot", "args": {}}),
        ] {
            assert!(route(background).is_none());
        }
    }

    #[test]
    fn a_form_spans_one_frame_and_an_upload_needs_its_bytes() {
        let text = |t: &str| json!({"typed": {"text": t}});
        let mixed = json!({"name": "fillForm", "args": {"fields": [
            [{"ref": "e1"}, text("a")], [{"ref": "f1e2"}, text("b")]], "tabId": null}});
        let command: Command = serde_json::from_value(mixed).unwrap();
        assert_eq!(place(command).unwrap_err().code, ErrorCode::InvalidArgument);
        // Without its bytes, an upload is not a command at all.
        let bare = json!({"name": "uploadFile", "args": {"args": {"ref": "e1", "path": "a.txt"}}});
        assert!(serde_json::from_value::<Command>(bare).is_err());
    }
}
