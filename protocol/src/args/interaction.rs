//! Acting on a page: click, type, keys, scroll, select, fill, upload, drag, dialogs.

use serde::{Deserialize, Serialize};

use super::*;
use crate::keys::{Chord, Modifier, Modifiers};

element_args! {
    /// `firefox_click`'s arguments as they are written; read into [`ClickArgs`].
    pub struct ClickWire("CSS selector (or ref).", optional) {
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

/// Arguments of `firefox_click`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(try_from = "ClickWire", into = "ClickWire")]
pub struct ClickArgs {
    pub aim: Aim,
    pub click_count: Option<ClickCount>,
    pub button: MouseButton,
    pub modifiers: Vec<Modifier>,
    pub tab_id: Option<TabId>,
}

/// What a click lands on: an element, or whatever is at a viewport point.
#[derive(Debug, Clone, PartialEq)]
pub enum Aim {
    Element(ElementTarget),
    Point(Point),
}

impl Aim {
    /// An element or a viewport point, exactly one.
    fn of(target: Option<ElementTarget>, point: Option<Point>) -> Result<Self, Invalid> {
        match (target, point) {
            (Some(target), None) => Ok(Self::Element(target)),
            (None, Some(point)) => Ok(Self::Point(point)),
            (Some(_), Some(_)) => Err(Invalid::new("x", "give an element or x/y, not both")),
            (None, None) => Err(Invalid::new(
                "selector",
                "give a CSS selector, a ref from firefox_snapshot, or x/y",
            )),
        }
    }

    fn split(self) -> (Option<ElementTarget>, Option<Point>) {
        match self {
            Self::Element(target) => (Some(target), None),
            Self::Point(point) => (None, Some(point)),
        }
    }
}

/// Checked as a whole, as it becomes [`ClickArgs`].
impl Validate for ClickWire {}

impl TryFrom<ClickWire> for ClickArgs {
    type Error = Invalid;

    fn try_from(w: ClickWire) -> Result<Self, Invalid> {
        Ok(Self {
            aim: Aim::of(w.target, Point::from_parts(w.x, w.y)?)?,
            click_count: w.click_count,
            button: w.button,
            modifiers: w.modifiers,
            tab_id: w.tab_id,
        })
    }
}

impl From<ClickArgs> for ClickWire {
    fn from(a: ClickArgs) -> Self {
        let (target, point) = a.aim.split();
        Self {
            target,
            click_count: a.click_count,
            button: a.button,
            modifiers: a.modifiers,
            x: point.map(Point::x),
            y: point.map(Point::y),
            tab_id: a.tab_id,
        }
    }
}

element_args! {
    /// `firefox_hover`'s arguments as they are written; read into [`HoverArgs`].
    pub struct HoverWire("CSS selector (or ref).", optional) {
        /// Instead of an element: a viewport point (CSS px = screenshot pixel ÷ scale), with y.
        pub x: Option<f64>,
        /// With x.
        pub y: Option<f64>,
    }
}

/// Arguments of `firefox_hover`: over an element, or at a point (a canvas chart's bar).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(try_from = "HoverWire", into = "HoverWire")]
pub struct HoverArgs {
    pub aim: Aim,
    pub tab_id: Option<TabId>,
}

impl Validate for HoverWire {}

impl TryFrom<HoverWire> for HoverArgs {
    type Error = Invalid;

    fn try_from(w: HoverWire) -> Result<Self, Invalid> {
        Ok(Self {
            aim: Aim::of(w.target, Point::from_parts(w.x, w.y)?)?,
            tab_id: w.tab_id,
        })
    }
}

impl From<HoverArgs> for HoverWire {
    fn from(a: HoverArgs) -> Self {
        let (target, point) = a.aim.split();
        Self {
            target,
            x: point.map(Point::x),
            y: point.map(Point::y),
            tab_id: a.tab_id,
        }
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
    /// How many presses: 1 to 3.
    pub fn clicks(&self) -> u8 {
        self.click_count.map_or(1, |c| c.0)
    }

    pub fn held(&self) -> Modifiers {
        self.modifiers.iter().copied().collect()
    }
}

element_args! {
    /// `firefox_type`'s arguments as they are written; read into [`TypeArgs`].
    pub struct TypeWire("CSS selector of the input, textarea or contenteditable element (or give ref).") {
        /// Text to enter.
        pub text: Option<String>,
        /// Instead of text: a secret's name from the user's secrets file (its value stays hidden from you).
        #[cfg_attr(feature = "schema", schemars(with = "Option<String>"))]
        pub secret: Option<SecretName>,
        /// Replace the current value instead of appending to it.
        #[serde(default)]
        pub clear: bool,
    }
}

/// Arguments of `firefox_type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(try_from = "TypeWire", into = "TypeWire")]
pub struct TypeArgs {
    pub target: ElementTarget,
    pub entry: Entry,
    pub clear: bool,
    pub tab_id: Option<TabId>,
}

/// What `firefox_type` enters, as the agent wrote it: text, or a secret's name (its value is
/// filled in by the MCP server: [`super::ResolvedType`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    Text(String),
    Secret(SecretName),
}

/// Checked as a whole: the text or the secret, exactly one.
impl Validate for TypeWire {}

impl TryFrom<TypeWire> for TypeArgs {
    type Error = Invalid;

    fn try_from(w: TypeWire) -> Result<Self, Invalid> {
        let entry = match (w.text, w.secret) {
            (Some(text), None) => {
                check_len("text", &text, MAX_TYPE_TEXT)?;
                Entry::Text(text)
            }
            (None, Some(secret)) => Entry::Secret(secret),
            (Some(_), Some(_)) => {
                return Err(Invalid::new("secret", "give text or secret, not both"));
            }
            (None, None) => {
                return Err(Invalid::new("text", "give the text to type (or a secret)"));
            }
        };
        Ok(Self {
            target: w.target,
            entry,
            clear: w.clear,
            tab_id: w.tab_id,
        })
    }
}

impl From<TypeArgs> for TypeWire {
    fn from(a: TypeArgs) -> Self {
        let (text, secret) = match a.entry {
            Entry::Text(text) => (Some(text), None),
            Entry::Secret(secret) => (None, Some(secret)),
        };
        Self {
            target: a.target,
            text,
            secret,
            clear: a.clear,
            tab_id: a.tab_id,
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
    /// The key with every modifier held: the chord's and the ctrlKey… flags (`shiftKey` over
    /// `a` presses `A`, as `Shift+a` does).
    pub fn chord(&self) -> Chord {
        let mut chord = self.key.chord.clone();
        let m = &mut chord.modifiers;
        m.ctrl |= self.ctrl_key;
        m.shift |= self.shift_key;
        m.alt |= self.alt_key;
        m.meta |= self.meta_key;
        chord.shifted()
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
            // Checked as the arguments were parsed: a point there is one here.
            point: Point::from_parts(self.x.map(f64::from), self.y.map(f64::from))
                .ok()
                .flatten(),
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
    pub point: Option<Point>,
}

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
        secret: SecretName,
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
    /// `firefox_drag`'s arguments as they are written; read into [`DragArgs`].
    pub struct DragWire {
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

/// Arguments of `firefox_drag`: both ends in one frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(try_from = "DragWire", into = "DragWire")]
pub struct DragArgs {
    pub from: ElementTarget,
    pub to: DropTarget,
    pub tab_id: Option<TabId>,
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
    Point(Point),
}

/// Checked as a whole: an element or a point to drop on, in the dragged element's frame.
impl Validate for DragWire {}

impl TryFrom<DragWire> for DragArgs {
    type Error = Invalid;

    fn try_from(w: DragWire) -> Result<Self, Invalid> {
        let from = w.from.0;
        let to = match (w.to, Point::from_parts(w.x, w.y)?, w.position) {
            (Some(to), None, position) => DropTarget::Element {
                target: to.0,
                position: position.unwrap_or_default(),
            },
            (None, Some(point), None) => DropTarget::Point(point),
            (None, Some(_), Some(_)) => {
                return Err(Invalid::new("position", "goes with to, not with x, y"));
            }
            _ => {
                return Err(Invalid::new(
                    "to",
                    "give to (a ref or a selector, with position before, after or onto), or x and y (a viewport point)",
                ));
            }
        };
        if let DropTarget::Element { target, .. } = &to
            && from.frame() != target.frame()
        {
            return Err(Invalid::new("to", "from and to must be in the same frame"));
        }
        Ok(Self {
            from,
            to,
            tab_id: w.tab_id,
        })
    }
}

impl From<DragArgs> for DragWire {
    fn from(a: DragArgs) -> Self {
        let (to, position, point) = match a.to {
            DropTarget::Element { target, position } => {
                (Some(RefOrSelector(target)), Some(position), None)
            }
            DropTarget::Point(point) => (None, None, Some(point)),
        };
        Self {
            from: RefOrSelector(a.from),
            to,
            position,
            x: point.map(Point::x),
            y: point.map(Point::y),
            tab_id: a.tab_id,
        }
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
            let point = Point::from_parts(self.x.map(f64::from), self.y.map(f64::from))?;
            // Over the element, at the point, or (neither) at the viewport's centre.
            return match point {
                Some(_) => Aim::of(self.target.clone(), point).map(drop),
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
            self.fields.is_empty() || self.fields.len() > MAX_FORM_FIELDS,
            "fields",
            format!("give between 1 and {MAX_FORM_FIELDS} fields"),
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

impl Validate for HandleDialogArgs {
    fn validate(&self) -> Result<(), Invalid> {
        self.prompt_text
            .as_deref()
            .map_or(Ok(()), |t| check_len("promptText", t, 10_000))
    }
}
