//! The page as a person sees it is the composed tree: a shadow host shows its shadow tree, its
//! light children appear where its slots place them, and a slot with nothing assigned shows its
//! own content. The walks over it are written once here, over [`Tree`] (and [`Words`] for the
//! words a part shows); the content script gives them the DOM (`content/dom.rs`), the tests a
//! tree of their own.

/// What a walk asks of the tree.
pub trait Tree {
    type Node: Clone;

    /// The node's children in the document (not the composed tree).
    fn children(&self, node: &Self::Node) -> Vec<Self::Node>;
    /// An element's open shadow root.
    fn shadow_root(&self, node: &Self::Node) -> Option<Self::Node>;
    /// Whether the node is a `<slot>`.
    fn is_slot(&self, node: &Self::Node) -> bool;
    /// The nodes assigned to a slot, nested slots flattened.
    fn assigned(&self, slot: &Self::Node) -> Vec<Self::Node>;
    /// Every element under a root (a document or a shadow root), in document order, not
    /// entering shadow roots.
    fn elements(&self, root: &Self::Node) -> Vec<Self::Node>;
}

/// The nodes the page shows under `node`: a host's shadow tree (its light children appear
/// where its slots are), a slot's assigned nodes (its fallback content when none), otherwise
/// its children.
pub fn shown_children<T: Tree>(tree: &T, node: &T::Node) -> Vec<T::Node> {
    if let Some(shadow) = tree.shadow_root(node) {
        return tree.children(&shadow);
    }
    if tree.is_slot(node) {
        let assigned = tree.assigned(node);
        if !assigned.is_empty() {
            return assigned;
        }
    }
    tree.children(node)
}

/// `root` (a document) and every open shadow root in it, nested ones too, at most `max`, in
/// the order Playwright's engines query them: a root, then each shadow root in it (with the
/// ones nested in that) in turn.
pub fn open_roots<T: Tree>(tree: &T, root: T::Node, max: usize) -> Vec<T::Node> {
    fn visit<T: Tree>(tree: &T, root: T::Node, max: usize, out: &mut Vec<T::Node>) {
        let hosts = tree.elements(&root);
        out.push(root);
        for shadow in hosts.iter().filter_map(|h| tree.shadow_root(h)) {
            if out.len() < max {
                visit(tree, shadow, max, out);
            }
        }
    }
    let mut roots = Vec::new();
    visit(tree, root, max, &mut roots);
    roots
}

/// A node as the words walk reads it.
pub enum Kind {
    Text(String),
    /// An element, with its tag.
    Element(String),
    Other,
}

/// What the words walk asks of the tree beyond its shape.
pub trait Words: Tree {
    fn kind(&self, node: &Self::Node) -> Kind;
    fn has_attribute(&self, el: &Self::Node, name: &str) -> bool;
    fn attribute(&self, el: &Self::Node, name: &str) -> Option<String>;
}

/// The words the page shows under `node` (through shadow roots and slots), leaving out what is
/// not for people — scripts and styles, what is `hidden` or `aria-hidden` — each element's
/// words apart from the next. It stops once more than `max_bytes` of text were read (a text
/// node is read whole), and reads no more nodes.
pub fn shown_words<W: Words>(tree: &W, node: &W::Node, max_bytes: usize) -> String {
    let mut words = String::new();
    words_under(tree, node, &mut words, &mut 0, max_bytes);
    words
}

fn words_under<W: Words>(
    tree: &W,
    node: &W::Node,
    out: &mut String,
    read: &mut usize,
    max_bytes: usize,
) {
    for n in shown_children(tree, node) {
        if *read > max_bytes {
            return;
        }
        match tree.kind(&n) {
            Kind::Text(text) => {
                *read += text.len();
                out.push_str(&text);
            }
            Kind::Element(tag) if shows_words(tree, &n, &tag) => {
                out.push(' ');
                words_under(tree, &n, out, read, max_bytes);
                out.push(' ');
            }
            Kind::Element(_) | Kind::Other => {}
        }
    }
}

/// Are an element's words for people: not a script or style, not `hidden` or `aria-hidden`?
fn shows_words<W: Words>(tree: &W, el: &W::Node, tag: &str) -> bool {
    !crate::a11y::is_skipped(tag)
        && !tree.has_attribute(el, "hidden")
        && tree.attribute(el, "aria-hidden").as_deref() != Some("true")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// A tree of named nodes: children, shadow roots, slots and what they are assigned.
    #[derive(Default)]
    struct Fake {
        children: HashMap<&'static str, Vec<&'static str>>,
        shadows: HashMap<&'static str, &'static str>,
        assigned: HashMap<&'static str, Vec<&'static str>>,
        attributes: HashMap<&'static str, Vec<(&'static str, &'static str)>>,
    }

    impl Fake {
        fn node(mut self, name: &'static str, children: &[&'static str]) -> Self {
            self.children.insert(name, children.to_vec());
            self
        }

        fn shadow(mut self, host: &'static str, root: &'static str) -> Self {
            self.shadows.insert(host, root);
            self
        }

        fn slot(mut self, slot: &'static str, nodes: &[&'static str]) -> Self {
            self.assigned.insert(slot, nodes.to_vec());
            self
        }

        fn attribute(mut self, el: &'static str, name: &'static str, value: &'static str) -> Self {
            self.attributes.entry(el).or_default().push((name, value));
            self
        }
    }

    impl Tree for Fake {
        type Node = &'static str;

        fn children(&self, node: &&'static str) -> Vec<&'static str> {
            self.children.get(node).cloned().unwrap_or_default()
        }

        fn shadow_root(&self, node: &&'static str) -> Option<&'static str> {
            self.shadows.get(node).copied()
        }

        fn is_slot(&self, node: &&'static str) -> bool {
            node.starts_with("slot")
        }

        fn assigned(&self, slot: &&'static str) -> Vec<&'static str> {
            self.assigned.get(slot).cloned().unwrap_or_default()
        }

        fn elements(&self, root: &&'static str) -> Vec<&'static str> {
            let mut out = Vec::new();
            let mut stack: Vec<&'static str> = self.children(root).into_iter().rev().collect();
            while let Some(n) = stack.pop() {
                out.push(n);
                stack.extend(self.children(&n).into_iter().rev());
            }
            out
        }
    }

    /// Nodes named `'…` are text (the rest of the name); an element's tag is its name up to
    /// any `#`.
    impl Words for Fake {
        fn kind(&self, node: &&'static str) -> Kind {
            match node.strip_prefix('\'') {
                Some(text) => Kind::Text(text.to_owned()),
                None => Kind::Element(node.split('#').next().unwrap_or_default().to_owned()),
            }
        }

        fn has_attribute(&self, el: &&'static str, name: &str) -> bool {
            self.attributes
                .get(el)
                .is_some_and(|all| all.iter().any(|(n, _)| *n == name))
        }

        fn attribute(&self, el: &&'static str, name: &str) -> Option<String> {
            // As the page: `hidden` is asked whether it is there, never read.
            assert_ne!(name, "hidden", "read, not asked");
            let all = self.attributes.get(el)?;
            let (_, value) = all.iter().find(|(n, _)| *n == name)?;
            Some((*value).to_owned())
        }
    }

    /// A card component: its shadow tree holds a heading and a slot, the light button is
    /// assigned to the slot; an empty slot shows its fallback.
    fn card() -> Fake {
        Fake::default()
            .node("doc", &["main"])
            .node("main", &["card", "footer"])
            .node("card", &["button"])
            .shadow("card", "card#shadow")
            .node("card#shadow", &["h2", "slot-actions", "slot-empty"])
            .slot("slot-actions", &["button"])
            .node("slot-empty", &["fallback"])
            .node("footer", &["widget"])
            .shadow("widget", "widget#shadow")
            .node("widget#shadow", &["inner"])
            .shadow("inner", "inner#shadow")
            .node("inner#shadow", &["deep"])
    }

    #[test]
    fn a_host_shows_its_shadow_tree_and_a_slot_what_is_assigned_to_it() {
        let t = card();
        assert_eq!(shown_children(&t, &"main"), ["card", "footer"]);
        // The light button is not shown under the host: its slot shows it.
        assert_eq!(
            shown_children(&t, &"card"),
            ["h2", "slot-actions", "slot-empty"]
        );
        assert_eq!(shown_children(&t, &"slot-actions"), ["button"]);
        assert_eq!(shown_children(&t, &"slot-empty"), ["fallback"]);
        assert!(shown_children(&t, &"button").is_empty());
    }

    #[test]
    fn roots_come_a_root_then_each_shadow_root_in_it_depth_first_within_the_bound() {
        let t = card();
        assert_eq!(
            open_roots(&t, "doc", 100),
            ["doc", "card#shadow", "widget#shadow", "inner#shadow"]
        );
        assert_eq!(open_roots(&t, "doc", 2), ["doc", "card#shadow"]);
        assert_eq!(open_roots(&Fake::default(), "doc", 100), ["doc"]);
    }

    /// A button whose label is slotted into its shadow tree, beside an icon's hidden words.
    fn labelled_button() -> Fake {
        Fake::default()
            .node("button", &["'Save", "span#light"])
            .shadow("button", "button#shadow")
            .node("button#shadow", &["i#icon", "slot", "style", "b#gone"])
            .node("i#icon", &["'★"])
            .attribute("i#icon", "aria-hidden", "true")
            .slot("slot", &["'Save", "span#light"])
            .node("span#light", &["'now"])
            .node("style", &["'b{color:red}"])
            .node("b#gone", &["'old"])
            .attribute("b#gone", "hidden", "")
    }

    #[test]
    fn words_are_what_the_page_shows_for_people() {
        let t = labelled_button();
        assert_eq!(shown_words(&t, &"button", 400), " Save now  ");
        let shown = Fake::default()
            .node("p", &["i#icon"])
            .node("i#icon", &["'★"])
            .attribute("i#icon", "aria-hidden", "false");
        assert_eq!(shown_words(&shown, &"p", 400), " ★ ");
    }

    #[test]
    fn words_stop_once_enough_text_is_read() {
        let t = Fake::default()
            .node("p", &["'abc", "'def", "'ghi"])
            .node("q", &["'abcd", "'efgh"]);
        // Text is read until more than the bound has been: the node after is left.
        assert_eq!(shown_words(&t, &"p", 3), "abcdef");
        assert_eq!(shown_words(&t, &"q", 3), "abcd");
    }
}
