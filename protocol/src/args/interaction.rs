//! Acting on a page: click, type, keys, scroll, select, fill, upload, drag, dialogs.

use serde::{Deserialize, Serialize};

use super::*;
use crate::keys::{Chord, Modifier, Modifiers};

element_args! {
    /// Arguments of `firefox_click`.
    pub struct ClickArgs("CSS selector (or ref).", optional) {
        /// 2: a double-click (the whole sequence, then dblclick); 3: a triple-click.
        #[cfg_attr(feature = "schema", schemars(with = "Option<u8>"))]
        pub click_count: Option<ClickCount>,
        /// left (default), right (opens the context menu: contextmenu event) or middle.
        #[serde(default, skip_serializing_if = "is_left")]
        pub button: MouseButton,
        /// Keys held: Control, Shift, Alt, Meta.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub modifiers: Vec<Modifier>,
        /// Instead of an element: a viewport point (CSS px = screenshot pixel ÷ scale), with y.
        pub x: Option<f64>,
        /// With x.
        pub y: Option<f64>,
    }
}

/// How many presses make a click: 1, 2 (a double-click) or 3 (a triple-click).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct ClickCount(u8);

impl TryFrom<u8> for ClickCount {
    type Error = Invalid;

    fn try_from(n: u8) -> Result<Self, Invalid> {
        match n {
            1..=3 => Ok(Self(n)),
            n => Err(Invalid::new(
                "clickCount",
                format!("{n} is not 1, 2 (double-click) or 3 (triple-click)"),
            )),
        }
    }
}

impl From<ClickCount> for u8 {
    fn from(c: ClickCount) -> Self {
        c.0
    }
}

/// A key or chord as the agent wrote it (`Control+a`), parsed where it is read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct KeyChord {
    text: String,
    chord: Chord,
}

impl KeyChord {
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl TryFrom<String> for KeyChord {
    type Error = Invalid;

    fn try_from(text: String) -> Result<Self, Invalid> {
        let chord = crate::keys::parse(&text).map_err(|e| Invalid::new("key", e))?;
        Ok(Self { text, chord })
    }
}

impl From<KeyChord> for String {
    fn from(k: KeyChord) -> Self {
        k.text
    }
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

impl ClickArgs {
    /// The viewport point to click instead of an element, when x/y are given (checked as the
    /// arguments were parsed: both or neither, in the viewport's range, not with an element).
    pub fn point(&self) -> Option<(f64, f64)> {
        self.x.zip(self.y)
    }

    /// How many presses: 1 to 3.
    pub fn clicks(&self) -> u8 {
        self.click_count.map_or(1, |c| c.0)
    }

    pub fn held(&self) -> Modifiers {
        self.modifiers.iter().copied().collect()
    }
}

element_args! {
    /// Arguments of `firefox_type`.
    pub struct TypeArgs("CSS selector of the input, textarea or contenteditable element (or give ref).") {
        /// Text to enter.
        pub text: Option<String>,
        /// Instead of text: a secret's name from the user's secrets file (its value stays hidden from you).
        #[cfg_attr(feature = "schema", schemars(with = "Option<String>"))]
        pub secret: Option<Secret>,
        /// Replace the current value instead of appending to it.
        #[serde(default)]
        pub clear: bool,
    }
}

/// What `firefox_type` enters.
#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    Text(String),
    Secret(Secret),
}

impl TypeArgs {
    /// The text or the secret, exactly one.
    pub fn entry(&self) -> Result<Entry, Invalid> {
        match (&self.text, &self.secret) {
            (Some(text), None) => Ok(Entry::Text(text.clone())),
            (None, Some(secret)) => Ok(Entry::Secret(secret.clone())),
            (Some(_), Some(_)) => Err(Invalid::new("secret", "give text or secret, not both")),
            (None, None) => Err(Invalid::new("text", "give the text to type (or a secret)")),
        }
    }
}

element_args! {
    /// Arguments of `firefox_press_key`.
    pub struct PressKeyArgs("Element to press it on (default: the focused element).", optional) {
        /// Enter, Tab, Escape, ArrowDown, a, F5… or a chord: Control+a, Shift+Tab, Meta+Enter.
        #[cfg_attr(feature = "schema", schemars(with = "String"))]
        pub key: KeyChord,
        #[serde(default)]
        pub ctrl_key: bool,
        #[serde(default)]
        pub shift_key: bool,
        #[serde(default)]
        pub alt_key: bool,
        #[serde(default)]
        pub meta_key: bool,
    }
}

impl PressKeyArgs {
    /// The key with every modifier held: the chord's and the ctrlKey… flags.
    pub fn chord(&self) -> Chord {
        let mut chord = self.key.chord.clone();
        let m = &mut chord.modifiers;
        m.ctrl |= self.ctrl_key;
        m.shift |= self.shift_key;
        m.alt |= self.alt_key;
        m.meta |= self.meta_key;
        chord
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

element_args! {
    /// Arguments of `firefox_scroll`.
    pub struct ScrollArgs("Scroll this element into view (or give ref, or x/y).", optional) {
        /// Scroll the page to this x position (pixels).
        pub x: Option<i32>,
        /// Scroll the page to this y position (pixels).
        pub y: Option<i32>,
        /// instant (default) or smooth.
        #[serde(default, skip_serializing_if = "ScrollBehavior::is_instant")]
        pub behavior: ScrollBehavior,
        /// Wheel turn in px (down +) over the element or at point x,y (default: centre); the page sees the wheel event.
        pub delta_y: Option<f64>,
        /// Sideways (right +).
        pub delta_x: Option<f64>,
    }
}

impl ScrollArgs {
    /// A wheel turn: the deltas and the viewport point (None: the element, or the centre);
    /// checked as the arguments were parsed.
    pub fn wheel(&self) -> Option<Wheel> {
        if self.delta_x.is_none() && self.delta_y.is_none() {
            return None;
        }
        Some(Wheel {
            dx: self.delta_x.unwrap_or(0.0),
            dy: self.delta_y.unwrap_or(0.0),
            point: self
                .x
                .zip(self.y)
                .map(|(x, y)| (f64::from(x), f64::from(y))),
        })
    }
}

/// Largest wheel turn, in pixels.
pub const MAX_WHEEL: f64 = 100_000.0;

/// A wheel turn of `firefox_scroll {deltaX, deltaY}`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Wheel {
    pub dx: f64,
    pub dy: f64,
    pub point: Option<(f64, f64)>,
}

/// A viewport point from optional x/y: both or neither, finite and not negative.
fn viewport_point(x: Option<f64>, y: Option<f64>) -> Result<Option<(f64, f64)>, Invalid> {
    let coordinate = |field, v: f64| {
        if v.is_finite() && (0.0..=MAX_COORDINATE).contains(&v) {
            Ok(v)
        } else {
            Err(Invalid::new(
                field,
                format!("{v} is not a viewport coordinate (CSS pixels, 0 to {MAX_COORDINATE})"),
            ))
        }
    };
    match (x, y) {
        (None, None) => Ok(None),
        (Some(x), Some(y)) => Ok(Some((coordinate("x", x)?, coordinate("y", y)?))),
        (Some(_), None) => Err(Invalid::new("y", "give y with x")),
        (None, Some(_)) => Err(Invalid::new("x", "give x with y")),
    }
}

/// Largest viewport coordinate accepted (no screen is wider).
const MAX_COORDINATE: f64 = 100_000.0;

element_args! {
    /// Arguments of `firefox_select_option`.
    pub struct SelectOptionArgs("CSS selector of the <select> (or give ref).") {
        /// Option values or visible labels to select (several for a multiple select).
        pub values: Vec<String>,
    }
}

// One field of `firefox_fill_form` (a plain comment: its own doc would only repeat, in every
// tools/list, what the field's says).
element_args! { @part
    pub struct FormField {
        /// Text for inputs and textareas; true/false for checkboxes and radios; option value or label for selects; {"secret": NAME} for a secret.
        pub value: FieldValue,
    }
}

// A form value: text, or a checked state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum FieldValue {
    Checked(bool),
    Text(String),
    Secret {
        #[cfg_attr(feature = "schema", schemars(with = "String"))]
        secret: Secret,
    },
}

tab_args! {
    /// Arguments of `firefox_fill_form`.
    pub struct FillFormArgs {
        /// The fields to set, in order.
        pub fields: Vec<FormField>,
    }
}

/// A file's bytes, read by the MCP server (inside the folders the user allowed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileData {
    pub name: String,
    pub mime: String,
    /// Base64 of the content.
    pub base64: String,
}

element_args! {
    /// Arguments of `firefox_upload_file`.
    pub struct UploadFileArgs("CSS selector of the <input type=file> (or give ref).") {
        /// File in your project folder (relative, or absolute inside it) or another folder the user allowed; ≤ 720 KiB.
        pub path: String,
        /// Filled in by the MCP server from `path`; not an argument.
        #[cfg_attr(feature = "schema", schemars(skip))]
        pub file: Option<FileData>,
    }
}

// Where a dragged element is dropped, relative to the element it is dropped on: before it
// in its list (above it, or left of it in a row), after it, or on its centre.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum DropPosition {
    Before,
    After,
    #[default]
    Onto,
}

tab_args! {
    /// Arguments of `firefox_drag`.
    pub struct DragArgs {
        /// Element to drag: a ref (e12) or a CSS selector.
        #[cfg_attr(feature = "schema", schemars(with = "String"))]
        pub from: RefOrSelector,
        /// Drop target: a ref or a CSS selector.
        #[cfg_attr(feature = "schema", schemars(with = "Option<String>"))]
        pub to: Option<RefOrSelector>,
        /// Relative to `to` (default onto).
        pub position: Option<DropPosition>,
        /// Or drop at viewport x, y.
        pub x: Option<f64>,
        pub y: Option<f64>,
    }
}

/// Where a drag ends: on an element (named across frames, or, toward a content script,
/// within its frame), or at a point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum DropTarget<T = ElementTarget> {
    Element {
        target: T,
        position: DropPosition,
    },
    /// A viewport point, on whatever is there.
    Point {
        x: f64,
        y: f64,
    },
}

impl DragArgs {
    pub fn targets(&self) -> Result<(ElementTarget, DropTarget), Invalid> {
        let from = self.from.0.clone();
        let to = match (&self.to, self.x, self.y, self.position) {
            (Some(to), None, None, position) => DropTarget::Element {
                target: to.0.clone(),
                position: position.unwrap_or_default(),
            },
            (None, Some(x), Some(y), None) if x.is_finite() && y.is_finite() => {
                DropTarget::Point { x, y }
            }
            (None, Some(_), Some(_), Some(_)) => {
                return Err(Invalid::new("position", "goes with to, not with x, y"));
            }
            _ => {
                return Err(Invalid::new(
                    "to",
                    "give to (a ref or a selector, with position before, after or onto), or x and y (a viewport point)",
                ));
            }
        };
        Ok((from, to))
    }
}

tab_args! {
    /// Arguments of `firefox_handle_dialog`.
    pub struct HandleDialogArgs {
        /// Accept (OK) or dismiss (Cancel) the page's alert/confirm/prompt/beforeunload dialogs from now on.
        pub accept: bool,
        /// What prompt() dialogs answer when accepted.
        pub prompt_text: Option<String>,
    }
}

impl Validate for ClickArgs {
    fn validate(&self) -> Result<(), Invalid> {
        let point = viewport_point(self.x, self.y)?;
        one_of(&self.target, point)
    }
}

/// An element or a viewport point, exactly one.
fn one_of(target: &Option<ElementTarget>, point: Option<(f64, f64)>) -> Result<(), Invalid> {
    refuse_if(
        point.is_some() && target.is_some(),
        "x",
        "give an element or x/y, not both",
    )?;
    refuse_if(
        point.is_none() && target.is_none(),
        "selector",
        "give a CSS selector, a ref from firefox_snapshot, or x/y",
    )
}

impl Validate for TypeArgs {
    fn validate(&self) -> Result<(), Invalid> {
        match self.entry()? {
            Entry::Text(text) => check_len("text", &text, MAX_TYPE_TEXT),
            Entry::Secret(_) => Ok(()),
        }
    }
}

/// The key is parsed with the arguments; the flags are plain.
impl Validate for PressKeyArgs {}

impl Validate for ScrollArgs {
    fn validate(&self) -> Result<(), Invalid> {
        if self.wheel().is_some() {
            for (field, d) in [("deltaX", self.delta_x), ("deltaY", self.delta_y)] {
                let d = d.unwrap_or(0.0);
                refuse_if(
                    !d.is_finite() || d.abs() > MAX_WHEEL,
                    field,
                    format!("must be a number of pixels between -{MAX_WHEEL} and {MAX_WHEEL}"),
                )?;
            }
            let point = viewport_point(self.x.map(f64::from), self.y.map(f64::from))?;
            // Over the element, at the point, or (neither) at the viewport's centre.
            return match point {
                Some(_) => one_of(&self.target, point),
                None => Ok(()),
            };
        }
        match (&self.target, self.x.or(self.y)) {
            (Some(_), Some(_)) => Err(Invalid::new("x", "give an element or x/y, not both")),
            (None, None) => Err(Invalid::new(
                "selector",
                "give an element (selector or ref) or x/y coordinates",
            )),
            _ => Ok(()),
        }
    }
}

impl Validate for SelectOptionArgs {
    fn validate(&self) -> Result<(), Invalid> {
        refuse_if(
            self.values.is_empty(),
            "values",
            "give at least one option value or label",
        )
    }
}

impl Validate for FillFormArgs {
    fn validate(&self) -> Result<(), Invalid> {
        refuse_if(
            self.fields.is_empty() || self.fields.len() > 200,
            "fields",
            "give between 1 and 200 fields",
        )
    }
}

impl Validate for FormField {
    fn validate(&self) -> Result<(), Invalid> {
        match &self.value {
            FieldValue::Text(t) => check_len("value", t, MAX_TYPE_TEXT),
            FieldValue::Checked(_) | FieldValue::Secret { .. } => Ok(()),
        }
    }
}

impl Validate for UploadFileArgs {
    /// The path itself is checked (against the allowed folders) where the file is read.
    fn validate(&self) -> Result<(), Invalid> {
        refuse_if(self.path.is_empty(), "path", "is empty")
    }
}

impl Validate for DragArgs {
    fn validate(&self) -> Result<(), Invalid> {
        let (from, to) = self.targets()?;
        if let DropTarget::Element { target, .. } = &to
            && from.frame() != target.frame()
        {
            return Err(Invalid::new("to", "from and to must be in the same frame"));
        }
        Ok(())
    }
}

impl Validate for HandleDialogArgs {
    fn validate(&self) -> Result<(), Invalid> {
        self.prompt_text
            .as_deref()
            .map_or(Ok(()), |t| check_len("promptText", t, 10_000))
    }
}
