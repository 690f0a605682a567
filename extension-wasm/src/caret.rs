//! Where the caret goes in a field: at the end of an editor's text (`end_of_text`: its deepest
//! last text node, past the `<br>` that hold empty lines open) and where a press of the pointer
//! puts it in the field the press focused (`pressed`). Over [`Nodes`], which
//! `content/act/typing.rs` implements; tested on nodes of the tests' own.

use crate::composed::Kind;

/// What the caret's walk asks of the page's nodes.
pub trait Nodes {
    type Node: Clone;

    fn last_child(&self, node: &Self::Node) -> Option<Self::Node>;
    fn previous_sibling(&self, node: &Self::Node) -> Option<Self::Node>;
    /// A text node with its text, an element with its tag, or another node.
    fn kind(&self, node: &Self::Node) -> Kind;
}

/// The end of the last text in an editor: its deepest last text node and that text's length
/// (UTF-16, as offsets count), or the start of an empty last line.
pub fn end_of_text<N: Nodes>(nodes: &N, editor: &N::Node) -> (N::Node, u32) {
    let mut at = editor.clone();
    let mut child = nodes.last_child(&at);
    // Each child's kind read once: a text's is its whole text, copied out of the page.
    while let Some(c) = child {
        match nodes.kind(&c) {
            // A trailing <br> (an empty line's placeholder) is not where text goes.
            Kind::Element(tag) if tag.eq_ignore_ascii_case("br") => {
                child = nodes.previous_sibling(&c);
            }
            Kind::Text(text) => return (c, text.encode_utf16().count() as u32),
            Kind::Element(_) => {
                child = nodes.last_child(&c);
                at = c;
            }
            // An empty line: before its placeholder.
            Kind::Other => return (at, 0),
        }
    }
    (at, 0)
}

/// Where a press puts the caret of the field it focused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pressed<N> {
    /// At this offset of the field's own value (a text field: its selection range).
    Own(u32),
    /// The document's selection collapsed at this node and offset, inside an editor.
    Within(N, u32),
}

/// Where a press puts the caret of `field` (`takes_text`: a text field or inside an editor;
/// `editable`: an editor), given the caret position under the pointer (`under`, asked only
/// for such a field): in the field itself, or at a node `inside` the editor; nowhere else.
pub fn pressed<N: PartialEq>(
    field: &N,
    takes_text: bool,
    editable: bool,
    under: impl FnOnce() -> Option<(N, u32)>,
    inside: impl FnOnce(&N) -> bool,
) -> Option<Pressed<N>> {
    if !(editable || takes_text) {
        return None;
    }
    let (node, offset) = under()?;
    if &node == field {
        return Some(Pressed::Own(offset));
    }
    (editable && inside(&node)).then_some(Pressed::Within(node, offset))
}

#[cfg(test)]
mod tests;
