//! Acting on a page: click, type, keys, scroll, select, fill, upload, drag, dialogs.

use serde::{Deserialize, Serialize};

use super::element::{optional_target, target};
use super::*;

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
