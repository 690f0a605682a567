use super::*;
use crate::steps::Steps;

/// A tree of the tests' own: each node its kind and its children, node 0 the editor.
struct Tree(Vec<(Kind, Vec<usize>)>);

impl Tree {
    fn parent(&self, node: usize) -> Option<usize> {
        self.0
            .iter()
            .position(|(_, children)| children.contains(&node))
    }
}

impl Nodes for Tree {
    type Node = usize;

    fn last_child(&self, node: &usize) -> Option<usize> {
        self.0[*node].1.last().copied()
    }

    fn previous_sibling(&self, node: &usize) -> Option<usize> {
        let siblings = &self.0[self.parent(*node)?].1;
        let at = siblings.iter().position(|n| n == node)?;
        at.checked_sub(1).map(|i| siblings[i])
    }

    fn kind(&self, node: &usize) -> Kind {
        match &self.0[*node].0 {
            Kind::Text(t) => Kind::Text(t.clone()),
            Kind::Element(tag) => Kind::Element(tag.clone()),
            Kind::Other => Kind::Other,
        }
    }
}

/// A tree whose kind reads are told, to count them.
struct Told<'a>(&'a Tree, Steps);

impl Nodes for Told<'_> {
    type Node = usize;

    fn last_child(&self, node: &usize) -> Option<usize> {
        self.0.last_child(node)
    }

    fn previous_sibling(&self, node: &usize) -> Option<usize> {
        self.0.previous_sibling(node)
    }

    fn kind(&self, node: &usize) -> Kind {
        self.1.say(format!("kind of {node}"));
        self.0.kind(node)
    }
}

fn el(tag: &str, children: &[usize]) -> (Kind, Vec<usize>) {
    (Kind::Element(tag.into()), children.to_vec())
}

fn text(t: &str) -> (Kind, Vec<usize>) {
    (Kind::Text(t.into()), Vec::new())
}

#[test]
fn the_end_is_the_deepest_last_text_counted_as_offsets_count() {
    // <div><p>one</p><p>tw<b>é😀</b></p></div>
    let tree = Tree(vec![
        el("div", &[1, 3]),
        el("p", &[2]),
        text("one"),
        el("p", &[4, 5]),
        text("tw"),
        el("b", &[6]),
        text("é😀"),
    ]);
    assert_eq!(end_of_text(&tree, &0), (6, 3));
}

#[test]
fn a_trailing_br_is_passed_and_an_empty_line_is_its_start() {
    // <div><p>one</p><p><br></p></div>: the empty last line, before its placeholder.
    let empty_line = Tree(vec![
        el("div", &[1, 3]),
        el("p", &[2]),
        text("one"),
        el("p", &[4]),
        el("BR", &[]),
    ]);
    assert_eq!(end_of_text(&empty_line, &0), (3, 0));
    // <div>one<br></div>: the text before the placeholder.
    let after_text = Tree(vec![el("div", &[1, 2]), text("one"), el("br", &[])]);
    assert_eq!(end_of_text(&after_text, &0), (1, 3));
    // A comment last: before it.
    let comment = Tree(vec![
        el("div", &[1, 2]),
        text("one"),
        (Kind::Other, Vec::new()),
    ]);
    assert_eq!(end_of_text(&comment, &0), (0, 0));
}

#[test]
fn each_node_on_the_way_is_read_once() {
    // <div><p>one</p><p>two<br></p></div>: a text's kind is its whole text, read once.
    let tree = Tree(vec![
        el("div", &[1, 3]),
        el("p", &[2]),
        text("one"),
        el("p", &[4, 5]),
        text("two"),
        el("br", &[]),
    ]);
    let told = Told(&tree, Steps::default());
    assert_eq!(end_of_text(&told, &0), (4, 3));
    assert_eq!(told.1.all(), ["kind of 3", "kind of 5", "kind of 4"]);
}

#[test]
fn a_press_puts_the_caret_in_the_field_or_inside_its_editor_only() {
    let under = |node: u8| move || Some((node, 4));
    // A text field: its own value, where the pointer is.
    assert_eq!(
        pressed(&1, true, false, under(1), |_| false),
        Some(Pressed::Own(4))
    );
    // An editor: a node inside it; not one outside.
    assert_eq!(
        pressed(&1, true, true, under(2), |_| true),
        Some(Pressed::Within(2, 4))
    );
    assert_eq!(pressed(&1, true, true, under(2), |_| false), None);
    // An editor (no text field) pressed on itself: at that offset of its own.
    assert_eq!(
        pressed(&1, false, true, under(1), |_| true),
        Some(Pressed::Own(4))
    );
    // A text field never takes a caret at another node.
    assert_eq!(pressed(&1, true, false, under(2), |_| true), None);
    // Nothing under the pointer, or a field that takes no text (never asked where).
    assert_eq!(pressed(&1, true, true, || None, |_| true), None);
    let asked = || -> Option<(u8, u32)> { panic!("not asked for a checkbox") };
    assert_eq!(pressed(&1, false, false, asked, |_| true), None);
}
