//! What a test does for one recorded action ([`Step`]), read from the action's arguments
//! before it runs. Its elements are first the targets the agent named, then, once the browser
//! has named them as the page was just before the action, their locators
//! (`super::playwright` writes them).

use claudezilla_protocol::TabId;
use claudezilla_protocol::args::{
    Aim, ClickArgs, CreateWindowArgs, DragArgs, DropTarget, ElementTarget, Entry, FieldValue,
    FillFormArgs, FindArgs, HoverArgs, MouseButton, NavAction, NavigateArgs, Needle, PressKeyArgs,
    SelectOptionArgs, TypeArgs, UploadFileArgs, WaitForArgs, Words,
};
use claudezilla_protocol::reply::Locator;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// An element as the test names it: its locator, or why the browser could not name it.
pub type Located = Result<Locator, String>;

/// One action of the test, its elements of type `E`.
#[derive(Debug, Clone, PartialEq)]
pub enum Step<E> {
    /// A new tab at this address (the test's first page, or a new one).
    Open(String),
    Goto(String),
    Back,
    Forward,
    Reload,
    Click {
        on: Spot<E>,
        button: MouseButton,
        count: u8,
    },
    Type {
        into: E,
        text: Text,
        clear: bool,
    },
    Press {
        on: Option<E>,
        key: String,
    },
    Hover(Spot<E>),
    Select {
        on: E,
        values: Vec<String>,
    },
    Fill(Vec<(E, Field)>),
    Upload {
        on: E,
        path: String,
    },
    Drag {
        from: E,
        to: Spot<E>,
    },
    /// The page shows this text (`firefox_wait_for`, `firefox_find`).
    SeeText(String),
    /// An element matches this CSS selector.
    SeeSelector(String),
    /// An element has this role (and name) (`firefox_find {role}`).
    SeeRole {
        role: String,
        name: Option<String>,
    },
    /// The tab's address matches this glob.
    SeeUrl(String),
    /// Not replayed, and why.
    Note(String),
}

/// Where a pointer action lands: an element, or a viewport point.
#[derive(Debug, Clone, PartialEq)]
pub enum Spot<E> {
    Element(E),
    Point(f64, f64),
}

/// What is typed: the agent's text, or a secret by name (its value never leaves the server).
#[derive(Debug, Clone, PartialEq)]
pub enum Text {
    Plain(String),
    Secret(String),
}

/// One field of a form.
#[derive(Debug, Clone, PartialEq)]
pub enum Field {
    Text(Text),
    Checked(bool),
}

/// One recorded action as the test replays it.
#[derive(Debug, Clone, PartialEq)]
pub struct Replay {
    /// The tab it acted on (None: the agent's latest).
    pub tab: Option<TabId>,
    /// The tab's address just before it: where a test that starts here goes first.
    pub url: String,
    pub step: Step<Located>,
}

impl<E> Step<E> {
    /// The same step with each element turned into `f`'s answer, in the order [`Self::targets`]
    /// gives them.
    pub fn map<F>(self, f: &mut impl FnMut(E) -> F) -> Step<F> {
        let mut spot = |s: Spot<E>| match s {
            Spot::Element(e) => Spot::Element(f(e)),
            Spot::Point(x, y) => Spot::Point(x, y),
        };
        match self {
            Self::Open(url) => Step::Open(url),
            Self::Goto(url) => Step::Goto(url),
            Self::Back => Step::Back,
            Self::Forward => Step::Forward,
            Self::Reload => Step::Reload,
            Self::Click { on, button, count } => Step::Click {
                on: spot(on),
                button,
                count,
            },
            Self::Hover(on) => Step::Hover(spot(on)),
            Self::Drag { from, to } => {
                let from = f(from);
                let to = match to {
                    Spot::Element(e) => Spot::Element(f(e)),
                    Spot::Point(x, y) => Spot::Point(x, y),
                };
                Step::Drag { from, to }
            }
            Self::Type { into, text, clear } => Step::Type {
                into: f(into),
                text,
                clear,
            },
            Self::Press { on, key } => Step::Press { on: on.map(f), key },
            Self::Select { on, values } => Step::Select { on: f(on), values },
            Self::Fill(fields) => Step::Fill(fields.into_iter().map(|(e, v)| (f(e), v)).collect()),
            Self::Upload { on, path } => Step::Upload { on: f(on), path },
            Self::SeeText(t) => Step::SeeText(t),
            Self::SeeSelector(s) => Step::SeeSelector(s),
            Self::SeeRole { role, name } => Step::SeeRole { role, name },
            Self::SeeUrl(u) => Step::SeeUrl(u),
            Self::Note(why) => Step::Note(why),
        }
    }
}

impl<E: Clone> Step<E> {
    /// Its elements, in order.
    pub fn targets(&self) -> Vec<E> {
        let mut out = Vec::new();
        self.clone().map(&mut |e| out.push(e));
        out
    }
}

/// The step a tool's call makes, with the tab it names; None for a call a test does not
/// replay (a read, a screenshot, a tab closed) or arguments the tool will refuse anyway.
pub fn step_of(
    tool: &str,
    args: &Map<String, Value>,
) -> Option<(Option<TabId>, Step<ElementTarget>)> {
    let tab = args
        .get("tabId")
        .and_then(Value::as_u64)
        .and_then(|t| u32::try_from(t).ok())
        .map(TabId);
    let step = match tool {
        "firefox_create_window" => Step::Open(parse::<CreateWindowArgs>(args)?.url.to_string()),
        "firefox_navigate" => {
            let a = parse::<NavigateArgs>(args)?;
            match (a.url, a.action) {
                (Some(url), _) => Step::Goto(url.to_string()),
                (None, Some(NavAction::Back)) => Step::Back,
                (None, Some(NavAction::Forward)) => Step::Forward,
                (None, Some(NavAction::Reload)) => Step::Reload,
                (None, None) => return None,
            }
        }
        "firefox_click" => {
            let a = parse::<ClickArgs>(args)?;
            let count = a.clicks();
            Step::Click {
                on: spot(a.aim),
                button: a.button,
                count,
            }
        }
        "firefox_hover" => Step::Hover(spot(parse::<HoverArgs>(args)?.aim)),
        "firefox_type" => {
            let a = parse::<TypeArgs>(args)?;
            let text = match a.entry {
                Entry::Text(t) => Text::Plain(t),
                Entry::Secret(s) => Text::Secret(s.to_string()),
            };
            Step::Type {
                into: a.target,
                text,
                clear: a.clear,
            }
        }
        "firefox_press_key" => {
            let a = parse::<PressKeyArgs>(args)?;
            Step::Press {
                key: key_of(&a),
                on: a.target,
            }
        }
        "firefox_select_option" => {
            let a = parse::<SelectOptionArgs>(args)?;
            Step::Select {
                on: a.target,
                values: a.values,
            }
        }
        "firefox_fill_form" => Step::Fill(
            parse::<FillFormArgs>(args)?
                .fields
                .into_iter()
                .map(|f| {
                    let value = match f.value {
                        FieldValue::Checked(on) => Field::Checked(on),
                        FieldValue::Text(t) => Field::Text(Text::Plain(t)),
                        FieldValue::Secret { secret } => {
                            Field::Text(Text::Secret(secret.to_string()))
                        }
                    };
                    (f.target, value)
                })
                .collect(),
        ),
        "firefox_upload_file" => {
            let a = parse::<UploadFileArgs>(args)?;
            Step::Upload {
                on: a.target,
                path: a.path,
            }
        }
        "firefox_drag" => {
            let a = parse::<DragArgs>(args)?;
            let to = match a.to {
                DropTarget::Element { target, .. } => Spot::Element(target),
                DropTarget::Point(p) => Spot::Point(p.x(), p.y()),
            };
            Step::Drag { from: a.from, to }
        }
        "firefox_wait_for" => {
            let a = parse::<WaitForArgs>(args)?;
            match (a.selector, a.text, a.url) {
                (Some(s), _, _) => Step::SeeSelector(s.to_string()),
                (None, Some(t), _) => Step::SeeText(t),
                (None, None, Some(u)) => Step::SeeUrl(u),
                (None, None, None) => return None,
            }
        }
        "firefox_find" => match parse::<FindArgs>(args)?.needle().ok()? {
            Needle::Words(Words::Text(t)) => Step::SeeText(t),
            // A Rust pattern is not always a JavaScript one.
            Needle::Words(Words::Pattern(_)) => return None,
            Needle::Role { role, name } => Step::SeeRole { role, name },
        },
        _ => return None,
    };
    Some((tab, step))
}

/// A `firefox_find` step once its answer is known: an assertion only where it holds in the
/// page, that is where the agent found something outside frames (a page-level assertion does
/// not look inside them). The answer lists each match's ref first on its line.
pub fn after_find(step: Step<Located>, answer: &str) -> Step<Located> {
    let refs: Vec<&str> = answer
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.parse::<claudezilla_protocol::args::ElementRef>().is_ok())
        .collect();
    if refs.is_empty() {
        return Step::Note("firefox_find found nothing".into());
    }
    if refs.iter().all(|r| r.starts_with('f')) {
        return Step::Note("firefox_find found it only inside frames".into());
    }
    step
}

fn parse<T: DeserializeOwned>(args: &Map<String, Value>) -> Option<T> {
    serde_json::from_value(Value::Object(args.clone())).ok()
}

fn spot(aim: Aim) -> Spot<ElementTarget> {
    match aim {
        Aim::Element(e) => Spot::Element(e),
        Aim::Point(p) => Spot::Point(p.x(), p.y()),
    }
}

/// The key as Playwright names it: the chord as written, with the flags' modifiers before it.
fn key_of(a: &PressKeyArgs) -> String {
    let held = [
        (a.ctrl_key, "Control"),
        (a.shift_key, "Shift"),
        (a.alt_key, "Alt"),
        (a.meta_key, "Meta"),
    ];
    let written = a.key.as_str();
    held.iter()
        .filter(|(on, name)| *on && !written.split('+').any(|p| p.eq_ignore_ascii_case(name)))
        .map(|(_, name)| format!("{name}+"))
        .chain(std::iter::once(written.to_owned()))
        .collect()
}
