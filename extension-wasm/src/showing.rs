//! How an element shows, as the readers of a page ask it: the Markdown, the page text, the
//! search, the snapshot and names read only what a person sees, whatever the page's style
//! hides it with. `content/dom.rs` answers from the browser's own `checkVisibility`.

/// How an element shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Showing {
    /// Rendered, with a box of its own, and its own text seen.
    Rendered,
    /// Rendered with `visibility: hidden` (or `collapse`): its own text is not seen, though a
    /// child of its may be (`visibility: visible` inside it).
    Invisible,
    /// No box of its own (`display: contents`, every slot by default), inside elements that
    /// are rendered: what it holds shows in its place; `seen` says whether its own text is.
    BoxLess { seen: bool },
    /// Not rendered (`display: none`, inside a `content-visibility: hidden` element): nothing
    /// under it shows.
    NotRendered,
}

impl Showing {
    /// Whether what the element holds may show (a child may be seen where it is not).
    pub fn entered(self) -> bool {
        self != Self::NotRendered
    }

    /// Whether the text directly inside the element is seen.
    pub fn text_seen(self) -> bool {
        matches!(self, Self::Rendered | Self::BoxLess { seen: true })
    }
}
