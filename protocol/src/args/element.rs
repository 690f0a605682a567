//! Where a command acts: an element (a selector or a snapshot ref, exactly one of them), or a
//! viewport point.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::*;

/// Which element a command acts on: a CSS selector (top frame, open shadow roots included) or a
/// ref from `firefox_snapshot` (any frame).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ElementTarget {
    Selector(Selector),
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

    /// The frame to ask, and the element as that frame knows it: a ref's frame is resolved
    /// here, once, and travels as the request's frame alone.
    pub fn in_frame(self) -> (u32, FrameTarget) {
        match self {
            Self::Selector(s) => (0, FrameTarget::Selector(s.into())),
            Self::Ref(r) => (r.frame, FrameTarget::Ref(r.index)),
        }
    }
}

/// A point in the viewport, in CSS pixels (= screenshot pixel ÷ scale): finite, 0 to
/// [`MAX_COORDINATE`]. Made only by [`Point::new`], which checks it, also when it is read.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawPoint", into = "RawPoint")]
pub struct Point {
    x: f64,
    y: f64,
}

/// Largest viewport coordinate accepted (no screen is wider).
pub const MAX_COORDINATE: f64 = 100_000.0;

impl Point {
    pub fn new(x: f64, y: f64) -> Result<Self, Invalid> {
        let coordinate = |field, v: f64| {
            refuse_if(
                !(v.is_finite() && (0.0..=MAX_COORDINATE).contains(&v)),
                field,
                format!("{v} is not a viewport coordinate (CSS pixels, 0 to {MAX_COORDINATE})"),
            )
        };
        coordinate("x", x)?;
        coordinate("y", y)?;
        Ok(Self { x, y })
    }

    /// From the two fields an agent writes: both or neither.
    pub fn from_parts(x: Option<f64>, y: Option<f64>) -> Result<Option<Self>, Invalid> {
        match (x, y) {
            (None, None) => Ok(None),
            (Some(x), Some(y)) => Self::new(x, y).map(Some),
            (Some(_), None) => Err(Invalid::new("y", "give y with x")),
            (None, Some(_)) => Err(Invalid::new("x", "give x with y")),
        }
    }

    pub fn x(self) -> f64 {
        self.x
    }

    pub fn y(self) -> f64 {
        self.y
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "point {},{}", self.x, self.y)
    }
}

#[derive(Serialize, Deserialize)]
struct RawPoint {
    x: f64,
    y: f64,
}

impl TryFrom<RawPoint> for Point {
    type Error = Invalid;

    fn try_from(p: RawPoint) -> Result<Self, Invalid> {
        Self::new(p.x, p.y)
    }
}

impl From<Point> for RawPoint {
    fn from(Point { x, y }: Point) -> Self {
        Self { x, y }
    }
}

/// A ref when the text is one, else a CSS selector (`firefox_drag`'s `from` and `to`): read
/// once, where it arrives, and sent on as the same text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct RefOrSelector(pub ElementTarget);

impl TryFrom<String> for RefOrSelector {
    type Error = Invalid;

    fn try_from(text: String) -> Result<Self, Invalid> {
        if let Ok(r) = text.parse::<ElementRef>() {
            return Ok(Self(ElementTarget::Ref(r)));
        }
        Selector::try_from(text).map(|s| Self(ElementTarget::Selector(s)))
    }
}

/// As the agent wrote it.
impl fmt::Display for RefOrSelector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            ElementTarget::Selector(s) => f.write_str(s),
            ElementTarget::Ref(r) => write!(f, "{r}"),
        }
    }
}

impl From<RefOrSelector> for String {
    fn from(target: RefOrSelector) -> Self {
        target.to_string()
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

checked_text! {
    /// A CSS selector: not empty, at most [`validate::MAX_SELECTOR`] characters. Its syntax is
    /// the browser's to judge (it says precisely what is wrong); everything else is checked
    /// where it is parsed, so no later hop holds an empty or oversized one.
    Selector(|text| validate::selector("selector", text))
}

/// An element as the frame a content request goes to knows it: by selector, or by the index
/// of a ref that frame handed out (`e12` in frame 5 is `Ref(12)` sent to frame 5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum FrameTarget {
    Selector(String),
    Ref(u32),
}

/// `e12` (top frame) or `f5e12` (frame 5): an element named in a snapshot. It travels as that
/// text and is parsed where it is read, so no later hop holds a ref that is not one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
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

impl TryFrom<String> for ElementRef {
    type Error = String;

    fn try_from(text: String) -> Result<Self, String> {
        text.parse().map_err(|()| {
            format!("{text:?} is not a ref; refs look like e12 or f3e12 (from firefox_snapshot)")
        })
    }
}

impl From<ElementRef> for String {
    fn from(r: ElementRef) -> Self {
        r.to_string()
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

/// Like [`target`], where naming no element is allowed too.
pub(super) fn optional_target(
    selector: Option<Selector>,
    element_ref: Option<ElementRef>,
) -> Result<Option<ElementTarget>, Invalid> {
    if selector.is_none() && element_ref.is_none() {
        return Ok(None);
    }
    target(selector, element_ref).map(Some)
}

/// Exactly one of `selector` and `ref`.
pub(super) fn target(
    selector: Option<Selector>,
    element_ref: Option<ElementRef>,
) -> Result<ElementTarget, Invalid> {
    match (selector, element_ref) {
        (Some(s), None) => Ok(ElementTarget::Selector(s)),
        (None, Some(r)) => Ok(ElementTarget::Ref(r)),
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

/// A target as the wire writes it: `selector` or `ref`.
pub(super) fn split(
    target: impl Into<Option<ElementTarget>>,
) -> (Option<Selector>, Option<ElementRef>) {
    match target.into() {
        Some(ElementTarget::Selector(s)) => (Some(s), None),
        Some(ElementTarget::Ref(r)) => (None, Some(r)),
        None => (None, None),
    }
}

element_args! {
    /// Arguments of the tools that act on one element (`firefox_hover`, `firefox_get_element`).
    pub struct TargetArgs("CSS selector (or ref).") {
    }
}

/// The target is all there is, and it is typed.
impl Validate for TargetArgs {}
