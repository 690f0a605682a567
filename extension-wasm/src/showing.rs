//! How an element shows, as the readers of a page ask it: the Markdown, the page text, the
//! search, the snapshot and names read only what a person sees, whatever the page's style
//! hides it with. Told here (`showing`) over [`Probe`], which `content/dom.rs` answers from
//! the browser's own `checkVisibility` and computed style.

/// How an element shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Showing {
    /// Rendered, with a box of its own, and its own text seen.
    Rendered,
    /// Rendered with `visibility: hidden` (or `collapse`): its own text is not seen, though a
    /// child of its may be (`visibility: visible` inside it). Also an element whose content is
    /// skipped (`content-visibility: hidden`) and that holds words of its own: an empty box,
    /// each child not rendered (one without words shows as `Rendered`, its children hidden).
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

/// What telling how an element shows asks of the browser.
pub trait Probe {
    type Element;
    /// What [`Probe::box_less`] read of an element, asked again for its own text.
    type Style;

    /// Rendered, not made invisible (`checkVisibility` counting `visibility` too), and its
    /// content not skipped (`content-visibility: hidden`, which `checkVisibility` says of
    /// what is inside, not of the element's own text).
    fn seen(&self, el: &Self::Element) -> bool;
    /// Rendered (`checkVisibility`): for an element without a box, false even where what it
    /// holds shows.
    fn rendered(&self, el: &Self::Element) -> bool;
    /// A rendered element's content is not skipped (`content-visibility: hidden`, where it
    /// applies), which `checkVisibility` says of the elements inside it but not of a box-less
    /// one's words.
    fn content_shown(&self, el: &Self::Element) -> bool;
    /// Its style, if it has no box of its own (`display: contents`); none for any other
    /// element.
    fn box_less(&self, el: &Self::Element) -> Option<Self::Style>;
    /// Whether a box-less element's own text is visible (`visibility: visible`).
    fn text_visible(&self, style: &Self::Style) -> bool;
    /// Its parent in the composed tree (a shadow root's host).
    fn parent(&self, el: &Self::Element) -> Option<Self::Element>;
}

/// How `el` shows, whatever holds it.
pub fn showing<P: Probe>(probe: &P, el: &P::Element) -> Showing {
    // The stricter question first: its options only add conditions, so a yes (the common
    // case) answers alone, in one crossing.
    if probe.seen(el) {
        return Showing::Rendered;
    }
    if probe.rendered(el) {
        return Showing::Invisible;
    }
    // Neither: box-less or not rendered. Its own visibility is asked last, only where what
    // it holds shows.
    match probe.box_less(el) {
        Some(style) if boxed_ancestor_rendered(probe, el) => Showing::BoxLess {
            seen: probe.text_visible(&style),
        },
        _ => Showing::NotRendered,
    }
}

/// `checkVisibility` answers a box-less element for itself alone: inside one not rendered it
/// would still say its children show. Its nearest ancestor with a box says whether they do.
fn boxed_ancestor_rendered<P: Probe>(probe: &P, el: &P::Element) -> bool {
    let mut up = probe.parent(el);
    while let Some(at) = up {
        if probe.rendered(&at) {
            return probe.content_shown(&at);
        }
        if probe.box_less(&at).is_none() {
            return false;
        }
        up = probe.parent(&at);
    }
    true
}

#[cfg(test)]
mod tests;
