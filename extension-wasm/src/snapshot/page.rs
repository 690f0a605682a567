//! The page as the snapshot reads it ([`Page`]), and what it reads with each node.

use crate::a11y::name::Named;
use crate::a11y::{self, Elements, FieldValue, Namespace};
use crate::showing::Showing;

/// What a walk reads of a node with the node itself: element, text or other; for an element,
/// whether it is marked ([`Selectors::Marked`]), whether it hosts an open shadow root, whether
/// it is of another namespace than HTML's, and the number the reader gave its tag (0 when it
/// numbers no more tags). The layout is the content shim's (`claudezillaFacts`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Facts(u32);

impl Facts {
    const ELEMENT: u32 = 1;
    const TEXT: u32 = 2;
    const MARKED: u32 = 4;
    const SHADOWED: u32 = 8;
    const FOREIGN: u32 = 16;
    const TAG_SHIFT: u32 = 8;

    /// The facts as the shim wrote them.
    pub fn from_bits(bits: u32) -> Self {
        Self(bits)
    }

    /// An element's facts, its tag not numbered (a fake page's).
    #[cfg(test)]
    pub fn element(marked: bool, shadowed: bool) -> Self {
        let marked = if marked { Self::MARKED } else { 0 };
        let shadowed = if shadowed { Self::SHADOWED } else { 0 };
        Self(Self::ELEMENT | marked | shadowed)
    }

    /// The same element's facts, of another namespace than HTML's (a fake page's).
    #[cfg(test)]
    pub fn foreign(self) -> Self {
        Self(self.0 | Self::FOREIGN)
    }

    /// A text node's facts (a fake page's).
    #[cfg(test)]
    pub fn text() -> Self {
        Self(Self::TEXT)
    }

    /// A node neither element nor text (a comment).
    pub fn other() -> Self {
        Self(0)
    }

    pub fn is_element(self) -> bool {
        self.0 & 3 == Self::ELEMENT
    }

    pub fn is_text(self) -> bool {
        self.0 & 3 == Self::TEXT
    }

    /// It matches the selectors the walk gave.
    pub fn marked(self) -> bool {
        self.0 & Self::MARKED != 0
    }

    /// It hosts an open shadow root.
    pub fn shadowed(self) -> bool {
        self.0 & Self::SHADOWED != 0
    }

    /// The element's namespace, HTML's or another (`<svg><button>`).
    pub fn namespace(self) -> Namespace {
        match self.0 & Self::FOREIGN {
            0 => Namespace::Html,
            _ => Namespace::Foreign,
        }
    }

    /// The number the reader gave the element's tag, if it gave one.
    pub fn tag_number(self) -> Option<u32> {
        Some(self.0 >> Self::TAG_SHIFT).filter(|n| *n > 0)
    }
}

/// An element as a walk met it: its tag and [`Facts`] already read.
pub struct Seen<'a, E> {
    pub el: &'a E,
    pub tag: &'a str,
    pub facts: Facts,
}

impl<E> Clone for Seen<'_, E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E> Copy for Seen<'_, E> {}

/// The attributes that make a row or a plain element more than its tag, so the walk looks at
/// it; a name's or a state's attributes alone leave it as it is.
const SHAPING: [&str; 11] = [
    "hidden",
    "aria-hidden",
    "role",
    "tabindex",
    "onclick",
    "contenteditable",
    "draggable=true",
    "aria-label",
    "aria-labelledby",
    "aria-labeledby",
    "title",
];

/// The attributes a control's states are read from.
const STATE_ATTRIBUTES: [&str; 5] = [
    "disabled",
    "aria-disabled",
    "aria-expanded",
    "required",
    "aria-checked",
];

/// The selectors the walk asks an element whether it matches; the reader keeps each as one
/// string ([`Selectors::text`]), made once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selectors {
    /// Attributes that make an element more than its tag says; most elements have none, and
    /// knowing which are marked lets the walk skip every attribute read for the others. They
    /// include the ones a name is computed from (`a11y::name::NAMING`) and a control's states,
    /// so neither asks again of an element the walk met.
    Marked,
    /// What makes a row or a plain element more than its tag.
    Shaping,
    /// The attributes a control's states come from: one question spares the reads of all of
    /// them for the marked controls that have none.
    Stateful,
    /// Class names a date picker may mark a day of another month with; `a11y::outside_month`
    /// decides (one question spares the class read of every other control).
    MaybeOutsideMonth,
    /// The attributes an author names an element with.
    AuthorNamed,
    /// Those, or a tooltip.
    AuthorNamedOrTitled,
}

impl Selectors {
    /// Every one, each at its own number (`as usize`).
    pub const ALL: [Selectors; 6] = [
        Selectors::Marked,
        Selectors::Shaping,
        Selectors::Stateful,
        Selectors::MaybeOutsideMonth,
        Selectors::AuthorNamed,
        Selectors::AuthorNamedOrTitled,
    ];

    /// The selector list, as CSS writes it.
    pub fn text(self) -> String {
        match self {
            Selectors::Marked => carrying(
                SHAPING
                    .iter()
                    .chain(a11y::name::NAMING)
                    .chain(&STATE_ATTRIBUTES),
            ),
            Selectors::Shaping => carrying(&SHAPING),
            Selectors::Stateful => carrying(&STATE_ATTRIBUTES),
            Selectors::MaybeOutsideMonth => "[class*=onth],[class*=ay]".to_owned(),
            Selectors::AuthorNamed => carrying(&AUTHOR_NAMES),
            Selectors::AuthorNamedOrTitled => carrying(AUTHOR_NAMES.iter().chain(&["title"])),
        }
    }
}

/// Elements carrying any of `attributes` (each `name` or `name=value`), as CSS writes it.
pub fn carrying<'a>(attributes: impl IntoIterator<Item = &'a &'a str>) -> String {
    let each = attributes.into_iter().map(|a| format!("[{a}]"));
    each.collect::<Vec<_>>().join(",")
}

const AUTHOR_NAMES: [&str; 3] = ["aria-label", "aria-labelledby", "aria-labeledby"];

/// What the walk looks for inside an element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Inside {
    /// What a person clicks, types into or focuses inside a widget's part.
    Controls,
    /// A field a label may name.
    Fields,
}

impl Inside {
    /// The selector list, as CSS writes it.
    pub fn text(self) -> &'static str {
        match self {
            Inside::Controls => {
                "a[href], button, input:not([type=hidden]), select, textarea, [role=button], [role=link], [role=checkbox], [role=radio], [role=switch], [role=menuitem], [role=option], [role=tab], [role=slider], [role=textbox], [role=combobox], [role=spinbutton], [tabindex]:not([tabindex='-1']), [contenteditable]:not([contenteditable=false])"
            }
            Inside::Fields => "input, select, textarea",
        }
    }
}

/// The page as the snapshot reads it.
pub trait Page: Elements {
    type Node;
    /// What tells the reader which elements are [`Selectors::Marked`] in a tree: the
    /// selectors, or the set of a tree's marked elements.
    type Marked: Clone;
    /// What names need kept across one walk (the labels of the fields met).
    type Labels: Default;

    /// A node's children (shadow roots not entered) with their facts.
    fn children<'a>(
        &'a self,
        parent: &'a Self::Node,
        marked: &'a Self::Marked,
    ) -> impl Iterator<Item = (Self::Node, Facts)> + 'a;
    fn facts(&self, node: &Self::Node, marked: &Self::Marked) -> Facts;
    /// An element's tag, from its facts where they number it.
    fn tag(&self, el: &Self::Element, facts: Facts) -> String;
    /// A node whose facts say it is an element, as one.
    fn as_element<'n>(&self, node: &'n Self::Node) -> &'n Self::Element;
    fn as_node(&self, el: &Self::Element) -> Self::Node;
    /// The marked elements in whatever tree a node is, by selectors.
    fn marked_by_selectors(&self) -> Self::Marked;
    /// The marked elements of `root`'s tree, found at once (one query for a whole tree).
    fn marked_in(&self, root: &Self::Node) -> Self::Marked;
    fn shadow_root(&self, el: &Self::Element) -> Option<Self::Node>;
    /// What a slot shows: the nodes assigned to it, nested slots flattened.
    fn slotted(&self, slot: &Self::Element) -> Vec<Self::Node>;
    fn parent_element(&self, el: &Self::Element) -> Option<Self::Element>;
    /// The element a node shows in: its parent, or the host of the shadow root it is in.
    fn text_owner(&self, node: &Self::Node) -> Option<Self::Element>;
    /// A text node's words.
    fn text(&self, node: &Self::Node) -> Option<String>;
    fn matches(&self, el: &Self::Element, selectors: Selectors) -> bool;
    /// Is something under `el` what `inside` looks for?
    fn holds(&self, el: &Self::Element, inside: Inside) -> bool;
    /// How the element shows: not rendered (nothing under it is listed), invisible (it and
    /// its own words are not, a child made visible is), box-less (`display: contents`, a
    /// grid's header row laid out by its cells) or rendered.
    fn showing(&self, el: &Self::Element) -> Showing;
    /// The element's computed cursor.
    fn cursor(&self, el: &Self::Element) -> Option<String>;
    /// The element's accessible name, as `a11y::name` computes it, cut for a line.
    fn name(&self, labels: &mut Self::Labels, seen: Seen<Self::Element>, how: Named) -> String;
    /// The element's ref in the frame numbered `frame`.
    fn reference(&self, el: &Self::Element, frame: u32) -> String;
    /// The browser's frame id of an iframe's document.
    fn frame_id(&self, el: &Self::Element) -> Option<u64>;
    /// The element's CSS path ([`a11y::locator::css_path`]).
    fn css_path(&self, el: &Self::Element) -> String;
    /// The words shown under an element, at most `max` characters read.
    fn flat_text(&self, el: &Self::Element, max: usize) -> String;
    /// An `<input>`'s checkedness.
    fn checked(&self, input: &Self::Element) -> bool;
    /// An HTML `<input>`'s or `<textarea>`'s value, as `tag` says
    /// ([`crate::page_names::field_value`]).
    fn field_value(&self, field: &Self::Element, tag: &str) -> Option<FieldValue>;
    /// What a password field shows ([`crate::page_names::shown_password`]).
    fn password_shown(&self, field: &Self::Element) -> Option<String>;
    /// The words of a `<select>`'s selected option.
    fn selected_text(&self, select: &Self::Element) -> Option<String>;
}
