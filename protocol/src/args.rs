//! The arguments of each command. They double as the MCP tools' input schemas (feature
//! `schema`): the names an agent writes (`tabId`, `maxLength`, `ref`, …) are the names on the
//! wire, and every check lives here, next to its field.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::TabId;
use crate::validate::{self, Invalid};

/// Default and ceiling of `maxLength` for page text.
pub const DEFAULT_MAX_LENGTH: u32 = 50_000;
pub const MAX_MAX_LENGTH: u32 = 1_000_000;
/// Longest text `firefox_type` accepts (keeps every frame toward the extension far under 1 MiB).
pub const MAX_TYPE_TEXT: usize = 100_000;
/// Default size cap of a snapshot answer, in characters.
pub const DEFAULT_SNAPSHOT_CHARS: u32 = 40_000;
/// Largest file `firefox_upload_file` sends: its base64 must fit one 1 MiB native message.
pub const MAX_UPLOAD_BYTES: u64 = crate::framing::MAX_FILE_TO_EXTENSION as u64;

/// Which element a command acts on: a CSS selector (top frame, open shadow roots included) or a
/// ref from `firefox_snapshot` (any frame).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ElementTarget {
    Selector(String),
    Ref(ElementRef),
}

impl ElementTarget {
    /// The frame the element lives in (selectors address the top frame).
    pub fn frame(&self) -> u32 {
        match self {
            Self::Selector(_) => 0,
            Self::Ref(r) => r.frame,
        }
    }

    /// Reads `from`/`to` style arguments: a ref when it looks like one, else a selector.
    pub fn parse(field: &'static str, text: &str) -> Result<Self, Invalid> {
        if let Ok(r) = text.parse::<ElementRef>() {
            return Ok(Self::Ref(r));
        }
        validate::selector(field, text)?;
        Ok(Self::Selector(text.to_owned()))
    }
}

impl fmt::Display for ElementTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Selector(s) => write!(f, "{s:?}"),
            Self::Ref(r) => write!(f, "ref {r}"),
        }
    }
}

/// `e12` (top frame) or `f5e12` (frame 5): an element named in a snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ElementRef {
    pub frame: u32,
    pub index: u32,
}

impl fmt::Display for ElementRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.frame {
            0 => write!(f, "e{}", self.index),
            frame => write!(f, "f{frame}e{}", self.index),
        }
    }
}

impl std::str::FromStr for ElementRef {
    type Err = ();

    fn from_str(s: &str) -> Result<Self, ()> {
        let digits = |t: &str| {
            (!t.is_empty() && t.len() <= 9 && t.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse().ok())
                .flatten()
        };
        let (frame, rest) = match s.strip_prefix('f') {
            Some(rest) => {
                let (frame, rest) = rest.split_once('e').ok_or(())?;
                (digits(frame).ok_or(())?, rest)
            }
            None => (0, s.strip_prefix('e').ok_or(())?),
        };
        Ok(Self {
            frame,
            index: digits(rest).ok_or(())?,
        })
    }
}

/// Exactly one of `selector` and `ref`.
/// Like [`target`], where naming no element is allowed too.
fn optional_target(
    selector: &Option<String>,
    element_ref: &Option<String>,
) -> Result<Option<ElementTarget>, Invalid> {
    if selector.is_none() && element_ref.is_none() {
        return Ok(None);
    }
    target(selector, element_ref).map(Some)
}

fn target(
    selector: &Option<String>,
    element_ref: &Option<String>,
) -> Result<ElementTarget, Invalid> {
    match (selector, element_ref) {
        (Some(s), None) => {
            validate::selector("selector", s)?;
            Ok(ElementTarget::Selector(s.clone()))
        }
        (None, Some(r)) => r.parse().map(ElementTarget::Ref).map_err(|()| {
            Invalid::new(
                "ref",
                format!("{r:?} is not a ref; refs look like e12 or f3e12 (from firefox_snapshot)"),
            )
        }),
        (Some(_), Some(_)) => Err(Invalid::new(
            "selector",
            "give either selector or ref, not both",
        )),
        (None, None) => Err(Invalid::new(
            "selector",
            "give a CSS selector, or a ref from firefox_snapshot",
        )),
    }
}

fn about_blank() -> String {
    "about:blank".into()
}

fn default_max_length() -> u32 {
    DEFAULT_MAX_LENGTH
}

fn check_len(field: &'static str, text: &str, max: usize) -> Result<(), Invalid> {
    let chars = text.chars().count();
    if chars > max {
        return Err(Invalid::new(
            field,
            format!("is {chars} characters; at most {max} are allowed"),
        ));
    }
    Ok(())
}

/// Arguments of `firefox_create_window`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateWindowArgs {
    /// Page to open (http, https or about:blank).
    #[serde(default = "about_blank")]
    pub url: String,
}

// Where `firefox_navigate` goes other than a URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum NavAction {
    Back,
    Forward,
    Reload,
}

/// Arguments of `firefox_navigate`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NavigateArgs {
    /// Page to load (http, https or about:blank).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Instead of a url: back, forward or reload.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<NavAction>,
    /// Default: your latest tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: Option<TabId>,
}

impl NavigateArgs {
    pub(crate) fn validate(&self) -> Result<(), Invalid> {
        match (&self.url, self.action) {
            (Some(url), None) => validate::url("url", url),
            (None, Some(_)) => Ok(()),
            _ => Err(Invalid::new(
                "url",
                "give either a url, or an action (back, forward, reload)",
            )),
        }
    }
}

// How `firefox_get_content` renders the page.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum ContentFormat {
    #[default]
    Text,
    Markdown,
    Html,
}

/// Arguments of `firefox_get_content`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GetContentArgs {
    /// Default: your latest tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: Option<TabId>,
    /// CSS selector of the part to read; the whole page when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub selector: Option<String>,
    /// Cut the answer after this many characters (default 50000).
    #[serde(default = "default_max_length")]
    pub max_length: u32,
    /// text (default), markdown (headings, links, lists, tables) or html.
    #[serde(default)]
    pub format: ContentFormat,
    /// Same as format: "html" (Claudezilla's name).
    #[serde(default)]
    pub include_html: bool,
}

impl GetContentArgs {
    pub(crate) fn validate(&self) -> Result<(), Invalid> {
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

    pub fn effective_format(&self) -> ContentFormat {
        if self.include_html {
            ContentFormat::Html
        } else {
            self.format
        }
    }
}

/// Arguments of the tools that act on one element (`firefox_hover`, `firefox_get_element`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TargetArgs {
    /// CSS selector (or ref).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub selector: Option<String>,
    /// Ref from firefox_snapshot (e12), instead of selector.
    #[serde(default, rename = "ref", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub element_ref: Option<String>,
    /// Default: your latest tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: Option<TabId>,
}

impl TargetArgs {
    pub fn target(&self) -> Result<ElementTarget, Invalid> {
        target(&self.selector, &self.element_ref)
    }
}

/// Arguments of `firefox_click`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClickArgs {
    /// CSS selector (or ref).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub selector: Option<String>,
    /// Ref from firefox_snapshot (e12), instead of selector.
    #[serde(default, rename = "ref", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub element_ref: Option<String>,
    /// 2: a double-click (the whole sequence, then dblclick); 3: a triple-click.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u8"))]
    pub click_count: Option<u8>,
    /// left (default), right (opens the context menu: contextmenu event) or middle.
    #[serde(default, skip_serializing_if = "is_left")]
    pub button: MouseButton,
    /// Keys held: Control, Shift, Alt, Meta.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modifiers: Vec<ModifierKey>,
    /// Default: your latest tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: Option<TabId>,
}

fn is_left(b: &MouseButton) -> bool {
    *b == MouseButton::Left
}

/// A mouse button.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum MouseButton {
    #[default]
    Left,
    Middle,
    Right,
}

/// A modifier key held during a click.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ModifierKey {
    Control,
    Shift,
    Alt,
    Meta,
}

impl ClickArgs {
    pub fn target(&self) -> Result<ElementTarget, Invalid> {
        target(&self.selector, &self.element_ref)
    }

    /// How many presses: 1 to 3.
    pub fn clicks(&self) -> Result<u8, Invalid> {
        match self.click_count.unwrap_or(1) {
            n @ 1..=3 => Ok(n),
            n => Err(Invalid::new(
                "clickCount",
                format!("{n} is not 1, 2 (double-click) or 3 (triple-click)"),
            )),
        }
    }

    pub fn held(&self) -> crate::envelope::Modifiers {
        let mut m = crate::envelope::Modifiers::default();
        for key in &self.modifiers {
            match key {
                ModifierKey::Control => m.ctrl = true,
                ModifierKey::Shift => m.shift = true,
                ModifierKey::Alt => m.alt = true,
                ModifierKey::Meta => m.meta = true,
            }
        }
        m
    }

    pub(crate) fn validate(&self) -> Result<(), Invalid> {
        self.target()?;
        self.clicks().map(drop)
    }
}

/// Arguments of `firefox_type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TypeArgs {
    /// CSS selector of the input, textarea or contenteditable element (or give ref).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub selector: Option<String>,
    /// Ref instead of selector.
    #[serde(default, rename = "ref", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub element_ref: Option<String>,
    /// Text to enter.
    pub text: String,
    /// Replace the current value instead of appending to it.
    #[serde(default)]
    pub clear: bool,
    /// Default: your latest tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: Option<TabId>,
}

impl TypeArgs {
    pub fn target(&self) -> Result<ElementTarget, Invalid> {
        target(&self.selector, &self.element_ref)
    }

    pub(crate) fn validate(&self) -> Result<(), Invalid> {
        self.target()?;
        check_len("text", &self.text, MAX_TYPE_TEXT)
    }
}

/// Arguments of `firefox_press_key`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PressKeyArgs {
    /// Enter, Tab, Escape, ArrowDown, a, F5… or a chord: Control+a, Shift+Tab, Meta+Enter.
    pub key: String,
    /// Element to press it on (default: the focused element).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub selector: Option<String>,
    /// Ref instead of selector.
    #[serde(default, rename = "ref", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub element_ref: Option<String>,
    #[serde(default)]
    pub ctrl_key: bool,
    #[serde(default)]
    pub shift_key: bool,
    #[serde(default)]
    pub alt_key: bool,
    #[serde(default)]
    pub meta_key: bool,
    /// Default: your latest tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: Option<TabId>,
}

impl PressKeyArgs {
    /// `None`: the focused element.
    pub fn target(&self) -> Result<Option<ElementTarget>, Invalid> {
        optional_target(&self.selector, &self.element_ref)
    }

    /// The key with every modifier held: the chord's and the ctrlKey… flags.
    pub fn chord(&self) -> Result<crate::keys::Chord, Invalid> {
        let mut chord = crate::keys::parse(&self.key).map_err(|e| Invalid::new("key", e))?;
        let m = &mut chord.modifiers;
        m.ctrl |= self.ctrl_key;
        m.shift |= self.shift_key;
        m.alt |= self.alt_key;
        m.meta |= self.meta_key;
        Ok(chord)
    }

    pub(crate) fn validate(&self) -> Result<(), Invalid> {
        self.chord()?;
        self.target().map(drop)
    }
}

/// How a scroll moves.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum ScrollBehavior {
    #[default]
    #[serde(alias = "auto")]
    Instant,
    Smooth,
}

impl ScrollBehavior {
    fn is_instant(&self) -> bool {
        *self == Self::Instant
    }
}

/// Arguments of `firefox_scroll`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScrollArgs {
    /// Scroll this element into view (or give ref, or x/y).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub selector: Option<String>,
    /// Ref instead of selector.
    #[serde(default, rename = "ref", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub element_ref: Option<String>,
    /// Scroll the page to this x position (pixels).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "i32"))]
    pub x: Option<i32>,
    /// Scroll the page to this y position (pixels).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "i32"))]
    pub y: Option<i32>,
    /// instant (default) or smooth.
    #[serde(default, skip_serializing_if = "ScrollBehavior::is_instant")]
    pub behavior: ScrollBehavior,
    /// Default: your latest tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: Option<TabId>,
}

impl ScrollArgs {
    /// `None`: scroll to x/y.
    pub fn target(&self) -> Result<Option<ElementTarget>, Invalid> {
        optional_target(&self.selector, &self.element_ref)
    }

    pub(crate) fn validate(&self) -> Result<(), Invalid> {
        match (self.target()?, self.x.or(self.y)) {
            (Some(_), Some(_)) => Err(Invalid::new("x", "give an element or x/y, not both")),
            (None, None) => Err(Invalid::new(
                "selector",
                "give an element (selector or ref) or x/y coordinates",
            )),
            _ => Ok(()),
        }
    }
}

/// Arguments of `firefox_select_option`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SelectOptionArgs {
    /// CSS selector of the <select> (or give ref).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub selector: Option<String>,
    /// Ref instead of selector.
    #[serde(default, rename = "ref", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub element_ref: Option<String>,
    /// Option values or visible labels to select (several for a multiple select).
    pub values: Vec<String>,
    /// Default: your latest tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: Option<TabId>,
}

impl SelectOptionArgs {
    pub fn target(&self) -> Result<ElementTarget, Invalid> {
        target(&self.selector, &self.element_ref)
    }

    pub(crate) fn validate(&self) -> Result<(), Invalid> {
        if self.values.is_empty() {
            return Err(Invalid::new(
                "values",
                "give at least one option value or label",
            ));
        }
        self.target().map(drop)
    }
}

// One field of `firefox_fill_form`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FormField {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub selector: Option<String>,
    #[serde(default, rename = "ref", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub element_ref: Option<String>,
    /// Text for inputs and textareas; true/false for checkboxes and radios; option value or label for selects.
    pub value: FieldValue,
}

// A form value: text, or a checked state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum FieldValue {
    Checked(bool),
    Text(String),
}

impl FormField {
    pub fn target(&self) -> Result<ElementTarget, Invalid> {
        target(&self.selector, &self.element_ref)
    }
}

/// Arguments of `firefox_fill_form`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FillFormArgs {
    /// The fields to set, in order.
    pub fields: Vec<FormField>,
    /// Default: your latest tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: Option<TabId>,
}

impl FillFormArgs {
    pub(crate) fn validate(&self) -> Result<(), Invalid> {
        if self.fields.is_empty() || self.fields.len() > 200 {
            return Err(Invalid::new("fields", "give between 1 and 200 fields"));
        }
        for f in &self.fields {
            f.target()?;
            if let FieldValue::Text(t) = &f.value {
                check_len("value", t, MAX_TYPE_TEXT)?;
            }
        }
        Ok(())
    }
}

/// A file's bytes, read by the host.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileData {
    pub name: String,
    pub mime: String,
    /// Base64 of the content.
    pub base64: String,
}

/// Arguments of `firefox_upload_file`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UploadFileArgs {
    /// CSS selector of the <input type=file> (or give ref).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub selector: Option<String>,
    /// Ref instead of selector.
    #[serde(default, rename = "ref", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub element_ref: Option<String>,
    /// File in your project folder (relative, or absolute inside it) or another folder the user allowed; ≤ 720 KiB.
    pub path: String,
    /// Filled in by the host from `path`; not an argument.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(skip))]
    pub file: Option<FileData>,
    /// Default: your latest tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: Option<TabId>,
}

impl UploadFileArgs {
    pub fn target(&self) -> Result<ElementTarget, Invalid> {
        target(&self.selector, &self.element_ref)
    }

    /// The path itself is checked (against the allowed folders) where the file is read.
    pub(crate) fn validate(&self) -> Result<(), Invalid> {
        if self.path.is_empty() {
            return Err(Invalid::new("path", "is empty"));
        }
        self.target().map(drop)
    }
}

/// Arguments of `firefox_drag`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DragArgs {
    /// Element to drag: a ref (e12) or a CSS selector.
    pub from: String,
    /// Element to drop it on: a ref or a CSS selector.
    pub to: String,
    /// Default: your latest tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: Option<TabId>,
}

impl DragArgs {
    pub fn targets(&self) -> Result<(ElementTarget, ElementTarget), Invalid> {
        Ok((
            ElementTarget::parse("from", &self.from)?,
            ElementTarget::parse("to", &self.to)?,
        ))
    }

    pub(crate) fn validate(&self) -> Result<(), Invalid> {
        let (from, to) = self.targets()?;
        if from.frame() != to.frame() {
            return Err(Invalid::new("to", "from and to must be in the same frame"));
        }
        Ok(())
    }
}

/// Arguments of `firefox_handle_dialog`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HandleDialogArgs {
    /// Accept (OK) or dismiss (Cancel) the page's alert/confirm/prompt/beforeunload dialogs from now on.
    pub accept: bool,
    /// What prompt() dialogs answer when accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub prompt_text: Option<String>,
    /// Default: your latest tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: Option<TabId>,
}

impl HandleDialogArgs {
    pub(crate) fn validate(&self) -> Result<(), Invalid> {
        self.prompt_text
            .as_deref()
            .map_or(Ok(()), |t| check_len("promptText", t, 10_000))
    }
}

/// Arguments of `firefox_wait_for`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WaitForArgs {
    /// Wait until an element matches this CSS selector.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub selector: Option<String>,
    /// Wait until the page's text contains this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub text: Option<String>,
    /// Wait until the tab's URL matches this glob (* within a part, ** anything).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub url: Option<String>,
    /// Default: your latest tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: Option<TabId>,
}

impl WaitForArgs {
    pub(crate) fn validate(&self) -> Result<(), Invalid> {
        let given = [
            self.selector.is_some(),
            self.text.is_some(),
            self.url.is_some(),
        ];
        if given.iter().filter(|g| **g).count() != 1 {
            return Err(Invalid::new(
                "selector",
                "give exactly one of selector, text or url",
            ));
        }
        if let Some(s) = &self.selector {
            validate::selector("selector", s)?;
        }
        for (field, value) in [("text", &self.text), ("url", &self.url)] {
            if let Some(v) = value {
                if v.is_empty() {
                    return Err(Invalid::new(field, "is empty"));
                }
                check_len(field, v, 2_000)?;
            }
        }
        Ok(())
    }
}

fn d30() -> u32 {
    30
}
fn d50() -> u32 {
    50
}
fn d20() -> u32 {
    20
}

/// Arguments of `firefox_get_page_state`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PageStateArgs {
    #[serde(default = "d30")]
    pub max_headings: u32,
    #[serde(default = "d50")]
    pub max_links: u32,
    #[serde(default = "d30")]
    pub max_buttons: u32,
    #[serde(default = "d30")]
    pub max_inputs: u32,
    #[serde(default = "d20")]
    pub max_images: u32,
    /// Default: your latest tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: Option<TabId>,
}

fn default_snapshot_chars() -> u32 {
    DEFAULT_SNAPSHOT_CHARS
}

/// Arguments of `firefox_snapshot`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SnapshotArgs {
    /// Only interactive elements (and the headings and landmarks around them).
    #[serde(default)]
    pub interactive_only: bool,
    /// Cut the answer at this many characters (default 40000); a cut answer says how to get the rest.
    #[serde(default = "default_snapshot_chars")]
    pub max_chars: u32,
    /// Snapshot only the part under this CSS selector.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub selector: Option<String>,
    /// Default: your latest tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: Option<TabId>,
}

impl SnapshotArgs {
    pub(crate) fn validate(&self) -> Result<(), Invalid> {
        if let Some(s) = &self.selector {
            validate::selector("selector", s)?;
        }
        if !(100..=MAX_MAX_LENGTH).contains(&self.max_chars) {
            return Err(Invalid::new(
                "maxChars",
                format!("must be between 100 and {MAX_MAX_LENGTH}"),
            ));
        }
        Ok(())
    }
}

fn d5() -> u32 {
    5
}
fn d200() -> u32 {
    200
}

/// Arguments of `firefox_get_accessibility_snapshot` (Claudezilla's limits).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AccessibilitySnapshotArgs {
    #[serde(default = "d5")]
    pub max_depth: u32,
    #[serde(default = "d200")]
    pub max_nodes: u32,
    /// Snapshot only the part under this CSS selector.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub selector: Option<String>,
    /// Default: your latest tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: Option<TabId>,
}

impl AccessibilitySnapshotArgs {
    pub(crate) fn validate(&self) -> Result<(), Invalid> {
        if let Some(s) = &self.selector {
            validate::selector("selector", s)?;
        }
        if self.max_depth == 0 || self.max_nodes == 0 || self.max_nodes > 100_000 {
            return Err(Invalid::new(
                "maxNodes",
                "maxDepth and maxNodes must be positive (maxNodes ≤ 100000)",
            ));
        }
        Ok(())
    }
}

// Screenshot presets: JPEG quality and scale for what the picture is for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Purpose {
    QuickGlance,
    #[default]
    ReadText,
    InspectUi,
    FullDetail,
}

impl Purpose {
    /// (quality, scale).
    pub fn preset(self) -> (u8, f64) {
        match self {
            Self::QuickGlance => (30, 0.25),
            Self::ReadText => (60, 0.5),
            Self::InspectUi => (80, 0.75),
            Self::FullDetail => (95, 1.0),
        }
    }
}

// Image format of a screenshot.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum ImageFormat {
    #[default]
    Jpeg,
    Png,
}

fn yes() -> bool {
    true
}

/// Arguments of `firefox_screenshot`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScreenshotArgs {
    /// quick-glance 30%/0.25, read-text 60%/0.5, inspect-ui 80%/0.75, full-detail 95%/1.
    #[serde(default)]
    pub purpose: Purpose,
    /// 1-100, overrides purpose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u8"))]
    pub quality: Option<u8>,
    /// 0.1-1, overrides purpose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "f64"))]
    pub scale: Option<f64>,
    #[serde(default)]
    pub format: ImageFormat,
    /// Max ms to wait for the page to settle (10000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub max_wait: Option<u32>,
    /// Wait for images and fonts.
    #[serde(default = "yes")]
    pub wait_for_images: bool,
    /// Capture at once.
    #[serde(default)]
    pub skip_readiness: bool,
    /// Number up to 30 controls; returns number → ref.
    #[serde(default)]
    pub annotate: bool,
    /// Whole page, not just the view.
    #[serde(default)]
    pub full_page: bool,
    /// Only this element.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub selector: Option<String>,
    /// Only this element (ref).
    #[serde(default, rename = "ref", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub element_ref: Option<String>,
    /// Write the image to this file instead (in your project folder or another allowed one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub save_path: Option<String>,
    /// Replace a file at savePath.
    #[serde(default)]
    pub overwrite: bool,
    /// Let the browser encode the JPEG instead of our Rust pipeline (for the benchmark's
    /// side-by-side comparison; no readiness, badges or budget). Not an MCP argument.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(feature = "schema", schemars(skip))]
    pub browser_encoder: bool,
    /// Default: your latest tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: Option<TabId>,
}

impl ScreenshotArgs {
    /// (quality, scale) after the purpose and any override.
    pub fn quality_and_scale(&self) -> (u8, f64) {
        let (q, s) = self.purpose.preset();
        (self.quality.unwrap_or(q), self.scale.unwrap_or(s))
    }

    /// The element to capture alone, if any.
    pub fn target(&self) -> Result<Option<ElementTarget>, Invalid> {
        optional_target(&self.selector, &self.element_ref)
    }

    pub(crate) fn validate(&self) -> Result<(), Invalid> {
        if self.quality.is_some_and(|q| !(1..=100).contains(&q)) {
            return Err(Invalid::new("quality", "must be between 1 and 100"));
        }
        if self.scale.is_some_and(|s| !(0.1..=1.0).contains(&s)) {
            return Err(Invalid::new("scale", "must be between 0.1 and 1"));
        }
        if self.max_wait.is_some_and(|w| w > 60_000) {
            return Err(Invalid::new("maxWait", "must be at most 60000 ms"));
        }
        if self.target()?.is_some() && self.full_page {
            return Err(Invalid::new(
                "fullPage",
                "give fullPage or an element, not both",
            ));
        }
        if self.save_path.as_deref() == Some("") {
            return Err(Invalid::new("savePath", "is empty"));
        }
        Ok(())
    }
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
    fn refs_parse_and_print() {
        assert_eq!(
            "e12".parse(),
            Ok(ElementRef {
                frame: 0,
                index: 12
            })
        );
        assert_eq!("f5e3".parse(), Ok(ElementRef { frame: 5, index: 3 }));
        for bad in [
            "",
            "e",
            "12",
            "x1",
            "e1x",
            "f5",
            "fe3",
            "f5e",
            "e-1",
            "e1234567890",
        ] {
            assert!(bad.parse::<ElementRef>().is_err(), "{bad}");
        }
        assert_eq!(ElementRef { frame: 0, index: 7 }.to_string(), "e7");
        assert_eq!(ElementRef { frame: 2, index: 7 }.to_string(), "f2e7");
    }

    #[test]
    fn a_target_is_exactly_one_of_selector_and_ref() {
        let args = |v| serde_json::from_value::<TargetArgs>(v).unwrap();
        assert_eq!(
            args(json!({"selector": "#a"})).target(),
            Ok(ElementTarget::Selector("#a".into()))
        );
        assert_eq!(
            args(json!({"ref": "f1e2"})).target(),
            Ok(ElementTarget::Ref(ElementRef { frame: 1, index: 2 }))
        );
        assert!(args(json!({})).target().is_err());
        assert!(
            args(json!({"selector": "#a", "ref": "e1"}))
                .target()
                .is_err()
        );
        let bad = args(json!({"ref": "button"})).target().unwrap_err();
        assert_eq!(bad.field, "ref");
        assert!(bad.message.contains("firefox_snapshot"));
    }

    #[test]
    fn drag_ends_are_refs_or_selectors() {
        let d = DragArgs {
            from: "e3".into(),
            to: "#bin".into(),
            tab_id: None,
        };
        let (from, to) = d.targets().unwrap();
        assert!(matches!(from, ElementTarget::Ref(_)) && matches!(to, ElementTarget::Selector(_)));
        assert!(
            DragArgs {
                from: "e3".into(),
                to: "f2e1".into(),
                tab_id: None
            }
            .validate()
            .is_err()
        );
    }

    #[test]
    fn defaults_and_unknown_fields() {
        let c: GetContentArgs = serde_json::from_value(json!({})).unwrap();
        assert_eq!(
            (c.max_length, c.effective_format()),
            (DEFAULT_MAX_LENGTH, ContentFormat::Text)
        );
        let c: GetContentArgs = serde_json::from_value(json!({"includeHtml": true})).unwrap();
        assert_eq!(c.effective_format(), ContentFormat::Html);
        let w: CreateWindowArgs = serde_json::from_value(json!({})).unwrap();
        assert_eq!(w.url, "about:blank");
        assert!(serde_json::from_value::<ClickArgs>(json!({"selector": "a", "tabid": 1})).is_err());
        let p: PageStateArgs = serde_json::from_value(json!({})).unwrap();
        assert_eq!((p.max_headings, p.max_links, p.max_images), (30, 50, 20));
    }

    #[test]
    fn field_values_are_text_or_checked() {
        let f: FormField = serde_json::from_value(json!({"ref": "e1", "value": true})).unwrap();
        assert_eq!(f.value, FieldValue::Checked(true));
        let f: FormField =
            serde_json::from_value(json!({"selector": "#n", "value": "Ada"})).unwrap();
        assert_eq!(f.value, FieldValue::Text("Ada".into()));
    }

    #[test]
    fn each_validation_names_its_field() {
        let nav = NavigateArgs {
            url: None,
            action: None,
            tab_id: None,
        };
        assert_eq!(nav.validate().unwrap_err().field, "url");
        let nav = NavigateArgs {
            url: Some("about:blank".into()),
            action: Some(NavAction::Back),
            tab_id: None,
        };
        assert!(nav.validate().is_err());
        let wait = WaitForArgs {
            selector: Some("a".into()),
            text: Some("b".into()),
            url: None,
            tab_id: None,
        };
        assert!(wait.validate().is_err());
        let scroll = ScrollArgs {
            selector: None,
            element_ref: None,
            x: None,
            y: None,
            behavior: ScrollBehavior::Instant,
            tab_id: None,
        };
        assert!(scroll.validate().is_err());
        assert!(
            serde_json::from_value::<ScrollArgs>(json!({"x": 1, "behavior": "sideways"})).is_err()
        );
        let smooth: ScrollArgs =
            serde_json::from_value(json!({"x": 1, "behavior": "smooth"})).unwrap();
        assert_eq!(smooth.behavior, ScrollBehavior::Smooth);
        let up = UploadFileArgs {
            selector: Some("input".into()),
            element_ref: None,
            path: String::new(),
            file: None,
            tab_id: None,
        };
        assert_eq!(up.validate().unwrap_err().field, "path");
        let text = TypeArgs {
            selector: Some("i".into()),
            element_ref: None,
            text: "x".repeat(MAX_TYPE_TEXT + 1),
            clear: false,
            tab_id: None,
        };
        assert_eq!(text.validate().unwrap_err().field, "text");
    }
}

/// Longest expression `firefox_evaluate` runs.
pub const MAX_EXPRESSION: usize = 10_000;
/// Focus-loop limits.
pub const MAX_LOOP_ITERATIONS: u32 = 10_000;
pub const MAX_PROMISE: usize = 1_000;

fn d100() -> u32 {
    100
}

/// Arguments of `firefox_get_console`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConsoleArgs {
    /// Only this level: log, info, warn, error, debug.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub level: Option<String>,
    /// Empty the log after reading it.
    #[serde(default)]
    pub clear: bool,
    /// Newest entries to return (100).
    #[serde(default = "d100")]
    pub limit: u32,
    /// Default: your latest tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: Option<TabId>,
}

impl ConsoleArgs {
    pub(crate) fn validate(&self) -> Result<(), Invalid> {
        if let Some(l) = &self.level
            && !matches!(l.as_str(), "log" | "info" | "warn" | "error" | "debug")
        {
            return Err(Invalid::new(
                "level",
                format!("{l:?} is not one of log, info, warn, error, debug"),
            ));
        }
        if !(1..=500).contains(&self.limit) {
            return Err(Invalid::new("limit", "must be between 1 and 500"));
        }
        Ok(())
    }
}

/// Arguments of `firefox_get_network`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NetworkArgs {
    /// Only this request type: script, stylesheet, image, xmlhttprequest, main_frame, font, …
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub kind: Option<String>,
    /// Only this status (404) or class (4xx), or "failed".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub status: Option<String>,
    /// Newest entries to return (50).
    #[serde(default = "d50")]
    pub limit: u32,
    /// Add request and response headers (credentials redacted).
    #[serde(default)]
    pub include_headers: bool,
    /// Default: your latest tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: Option<TabId>,
}

impl NetworkArgs {
    pub(crate) fn validate(&self) -> Result<(), Invalid> {
        if !(1..=200).contains(&self.limit) {
            return Err(Invalid::new("limit", "must be between 1 and 200"));
        }
        if let Some(s) = &self.status {
            let ok = s == "failed"
                || s.parse::<u16>().is_ok()
                || (s.len() == 3 && s.ends_with("xx") && s.as_bytes()[0].is_ascii_digit());
            if !ok {
                return Err(Invalid::new(
                    "status",
                    format!("{s:?}: give a status (404), a class (4xx) or \"failed\""),
                ));
            }
        }
        Ok(())
    }
}

/// Arguments of `firefox_evaluate`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EvaluateArgs {
    /// JavaScript run in the page (≤ 10000 characters); a returned promise is awaited.
    pub expression: String,
    /// Default: your latest tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: Option<TabId>,
}

impl EvaluateArgs {
    pub(crate) fn validate(&self) -> Result<(), Invalid> {
        if self.expression.trim().is_empty() {
            return Err(Invalid::new("expression", "is empty"));
        }
        check_len("expression", &self.expression, MAX_EXPRESSION)
    }
}

/// Arguments of `firefox_set_config`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetConfigArgs {
    /// Domains your tabs may load (example.com includes its subdomains; *.example.com only them); [] allows all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Vec<String>"))]
    pub allowed_domains: Option<Vec<String>>,
    /// Dismiss cookie banners after each page load.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "bool"))]
    pub handle_consent: Option<bool>,
}

impl SetConfigArgs {
    pub(crate) fn validate(&self) -> Result<(), Invalid> {
        for d in self.allowed_domains.iter().flatten() {
            let host = d.strip_prefix("*.").unwrap_or(d);
            let ok = !host.is_empty()
                && host.len() <= 253
                && host
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-');
            if !ok {
                return Err(Invalid::new(
                    "allowedDomains",
                    format!("{d:?} is not a domain (example.com or *.example.com)"),
                ));
            }
        }
        Ok(())
    }
}

/// Arguments of the tools that name one tab only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TabArgs {
    /// Default: your latest tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: Option<TabId>,
}

/// Arguments of `firefox_set_viewport`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ViewportArgs {
    /// iphone-se, iphone-14, iphone-14-pro-max, pixel-7, galaxy-s23, ipad-mini, ipad-air, ipad-pro, laptop, desktop.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub device: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub width: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub height: Option<u32>,
    /// Default: your latest tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: Option<TabId>,
}

/// Viewport presets (Claudezilla's), CSS pixels.
pub const DEVICES: &[(&str, u32, u32)] = &[
    ("iphone-se", 375, 667),
    ("iphone-14", 390, 844),
    ("iphone-14-pro-max", 430, 932),
    ("pixel-7", 412, 915),
    ("galaxy-s23", 360, 780),
    ("ipad-mini", 768, 1024),
    ("ipad-air", 820, 1180),
    ("ipad-pro", 1024, 1366),
    ("laptop", 1366, 768),
    ("desktop", 1920, 1080),
];

impl ViewportArgs {
    /// The inner size asked for.
    pub fn size(&self) -> Result<(u32, u32), Invalid> {
        match (&self.device, self.width, self.height) {
            (Some(d), None, None) => DEVICES
                .iter()
                .find(|(n, ..)| n == d)
                .map(|(_, w, h)| (*w, *h))
                .ok_or_else(|| {
                    let names: Vec<&str> = DEVICES.iter().map(|(n, ..)| *n).collect();
                    Invalid::new(
                        "device",
                        format!("{d:?} is not one of {}", names.join(", ")),
                    )
                }),
            (None, Some(w), Some(h)) if (200..=4000).contains(&w) && (200..=4000).contains(&h) => {
                Ok((w, h))
            }
            (None, Some(_), Some(_)) => {
                Err(Invalid::new("width", "width and height must be 200-4000"))
            }
            _ => Err(Invalid::new("device", "give a device, or width and height")),
        }
    }
}

/// Arguments of `firefox_resize_window`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResizeArgs {
    pub width: u32,
    pub height: u32,
}

impl ResizeArgs {
    pub(crate) fn validate(&self) -> Result<(), Invalid> {
        if !(200..=8000).contains(&self.width) || !(200..=8000).contains(&self.height) {
            return Err(Invalid::new("width", "width and height must be 200-8000"));
        }
        Ok(())
    }
}

/// Arguments of `firefox_set_private_mode`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PrivateModeArgs {
    /// Open your next tabs in a private window.
    pub enabled: bool,
}

/// Arguments of `firefox_attach_tab` and `firefox_detach_tab`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AttachArgs {
    /// A tab from firefox_list_all_tabs.
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub tab_id: TabId,
}

/// Arguments of `firefox_start_loop`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LoopArgs {
    /// What to keep working on: fed back each time the session tries to stop.
    pub prompt: String,
    /// Stop after this many rounds (≤ 10000).
    pub max_iterations: u32,
    /// Stop once your reply contains this text (≤ 1000 characters).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub completion_promise: Option<String>,
    /// Filled by the MCP server: the pid of the session that runs it.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    pub session_pid: u32,
}

impl LoopArgs {
    pub(crate) fn validate(&self) -> Result<(), Invalid> {
        if self.prompt.trim().is_empty() {
            return Err(Invalid::new("prompt", "is empty"));
        }
        check_len("prompt", &self.prompt, MAX_EXPRESSION)?;
        if !(1..=MAX_LOOP_ITERATIONS).contains(&self.max_iterations) {
            return Err(Invalid::new(
                "maxIterations",
                format!("must be between 1 and {MAX_LOOP_ITERATIONS}"),
            ));
        }
        self.completion_promise
            .as_deref()
            .map_or(Ok(()), |p| check_len("completionPromise", p, MAX_PROMISE))
    }
}

/// What the Stop hook asks: is a loop running for a session among `ancestors`, and did the
/// last reply keep its promise?
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LoopCheckArgs {
    pub ancestors: Vec<u32>,
    pub last_message: String,
}
