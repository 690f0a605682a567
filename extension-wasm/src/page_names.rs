//! The page as accessible names read it: [`a11y::name::NameSources`] answered over
//! [`NamePage`], the DOM's own reads, which `content/names.rs` implements for `Dom`. Decided
//! here: what the walk already knows of the element named (its [`Facts`]), when an element's
//! words are read in one go, how a box shows to a name, which generated words are asked for
//! (only where a style rule may give them), a list item's marker and number (each list
//! numbered once a walk), a field's value (never a password's; a typed secret as its name;
//! the snapshot's rule too, [`field_value`]), the chosen options, and each field's labels,
//! found once per tree from the labels' side; and an element's short description
//! ([`describe`], over [`Described`]).

use crate::a11y::generated::{generated_text, html_integer, list_marker, ordinals};
use crate::a11y::name::{Generated, NameSources, Named, Shown};
use crate::a11y::{self, FieldValue, Namespace};
use crate::showing::Showing;
use crate::snapshot::Facts;

/// The DOM's node types a name tells apart.
const ELEMENT_NODE: u16 = 1;
const TEXT_NODE: u16 = 3;
const DOCUMENT_NODE: u16 = 9;
const DOCUMENT_FRAGMENT_NODE: u16 = 11;

/// Characters of a name as the snapshot, a search and descriptions show it.
pub const SHOWN_NAME: usize = 80;

/// What names read of the page, each read one call into it.
pub trait NamePage {
    type Node: Clone + PartialEq;
    /// What the walk keeps of the page by node: each field's labels, each list item's number.
    type Index: Default;

    /// The DOM's `nodeType`.
    fn node_type(&self, n: &Self::Node) -> u16;
    /// An element's `localName`.
    fn local_name(&self, el: &Self::Node) -> String;
    /// A node's `textContent`.
    fn text(&self, n: &Self::Node) -> Option<String>;
    fn attribute(&self, el: &Self::Node, name: &str) -> Option<String>;
    fn has_attribute(&self, el: &Self::Node, name: &str) -> bool;
    /// Does the element carry any of [`a11y::name::NAMING`]?
    fn naming(&self, el: &Self::Node) -> bool;
    fn child_element_count(&self, el: &Self::Node) -> u32;
    fn has_shadow_root(&self, el: &Self::Node) -> bool;
    /// The nodes the page shows under `n` ([`crate::composed::shown_children`]).
    fn shown_children(&self, n: &Self::Node) -> Vec<Self::Node>;
    /// The node's tree: its document, or the shadow root it is in (an element the page
    /// removed is its own).
    fn root(&self, n: &Self::Node) -> Self::Node;
    /// The element with this id in `root`, a document or a shadow root (`getElementById`).
    fn by_id(&self, root: &Self::Node, id: &str) -> Option<Self::Node>;
    fn showing(&self, el: &Self::Node) -> Showing;
    /// A property of the element's computed style (`pseudo` empty) or of a pseudo-element's.
    fn style(&self, el: &Self::Node, pseudo: &str, property: &str) -> Option<String>;
    /// For `::before` and `::after`: the selectors of the rules whose `content` gives words
    /// ([`crate::style_rules::generating`]).
    fn generating(&self) -> [Option<String>; 2];
    /// Does `el` match `selectors`? `None` where the browser refuses them.
    fn matches(&self, el: &Self::Node, selectors: &str) -> Option<bool>;
    /// Calls `f` with each `<label>` of the tree `root`, in tree order.
    fn each_label(&self, root: &Self::Node, f: &mut dyn FnMut(&Self::Node));
    /// The label's `control`, where it has one.
    fn control(&self, label: &Self::Node) -> Option<Self::Node>;
    /// Adds `label` to the labels kept for `control`.
    fn keep_label(&self, index: &mut Self::Index, control: &Self::Node, label: &Self::Node);
    fn kept_labels(&self, index: &Self::Index, field: &Self::Node) -> Vec<Self::Node>;
    fn kept_number(&self, index: &Self::Index, item: &Self::Node) -> Option<i64>;
    fn keep_number(&self, index: &mut Self::Index, item: &Self::Node, n: i64);
    /// Is the element of HTML's namespace? One of another namespace with a field's tag
    /// (`<svg><input>`) is no field, and reading its type or value throws.
    fn is_html(&self, el: &Self::Node) -> bool;
    fn input_type(&self, input: &Self::Node) -> String;
    fn input_value(&self, input: &Self::Node) -> String;
    fn textarea_value(&self, area: &Self::Node) -> String;
    /// The name of the secret typed into the field, if one was.
    fn held(&self, field: &Self::Node) -> Option<String>;
    /// A `<select>`'s chosen options; `None` for any other element.
    fn selected_options(&self, el: &Self::Node) -> Option<Vec<Self::Node>>;
    /// The elements under `el` matching `selectors`.
    fn query_all(&self, el: &Self::Node, selectors: &str) -> Vec<Self::Node>;
    fn parent_element(&self, n: &Self::Node) -> Option<Self::Node>;
    fn first_element_child(&self, el: &Self::Node) -> Option<Self::Node>;
    fn next_element_sibling(&self, el: &Self::Node) -> Option<Self::Node>;
}

/// What a short description of an element reads beyond its name ([`describe`]).
pub trait Described: NamePage {
    /// An HTML element's `innerText`; `None` for others (an `<svg>`).
    fn inner_text(&self, el: &Self::Node) -> Option<String>;
}

/// An element as answers show it (`button#save.primary "Save"`): a field by its name (its
/// label), not its value (a checkbox's is "on"); else its `aria-label` or its words; else a
/// button input by its value (never a field holding a secret); else its `title`.
pub fn describe<P: Described>(page: &P, el: &P::Node) -> String {
    let tag = page.local_name(el);
    let field_name = matches!(tag.as_str(), "input" | "select" | "textarea")
        .then(|| {
            name(
                page,
                &mut Kept::default(),
                el,
                &tag,
                None,
                Named::Shown,
                SHOWN_NAME,
            )
        })
        .filter(|n| !n.is_empty());
    let label = field_name
        .or_else(|| page.attribute(el, "aria-label"))
        .or_else(|| page.inner_text(el))
        .filter(|l| !l.trim().is_empty())
        .or_else(|| {
            let unheld = tag == "input" && page.is_html(el) && page.held(el).is_none();
            unheld.then(|| page.input_value(el))
        })
        .or_else(|| page.attribute(el, "title"))
        .unwrap_or_default();
    let attribute = |name| page.attribute(el, name).unwrap_or_default();
    crate::text::describe_element(&tag, &attribute("id"), &attribute("class"), &label)
}

/// What one walk keeps of the page between the names it computes: the trees whose labels are
/// indexed, the style rules that give words (read the first time asked), and the index.
pub struct Kept<P: NamePage> {
    indexed: Vec<P::Node>,
    generating: Option<[Option<String>; 2]>,
    index: P::Index,
}

impl<P: NamePage> Default for Kept<P> {
    fn default() -> Self {
        Self {
            indexed: Vec::new(),
            generating: None,
            index: P::Index::default(),
        }
    }
}

/// The accessible name of `el` (whose tag the caller knows), met as `how` says, cut at `max`
/// characters. `facts` is what the caller already read of `el` (the snapshot's walk); its
/// `marked` fact must cover [`a11y::name::NAMING`].
pub fn name<P: NamePage>(
    page: &P,
    kept: &mut Kept<P>,
    el: &P::Node,
    tag: &str,
    facts: Option<Facts>,
    how: Named,
    max: usize,
) -> String {
    let root = facts.map(|f| (el.clone(), f));
    let mut sources = Sources { page, kept, root };
    let name = a11y::name::accessible_name(&mut sources, el, tag, how);
    a11y::clean(&name, max)
}

/// The page's tree, as the name computation reads it.
struct Sources<'a, P: NamePage> {
    page: &'a P,
    kept: &'a mut Kept<P>,
    /// The element named, with what the caller already read of it.
    root: Option<(P::Node, Facts)>,
}

impl<P: NamePage> Sources<'_, P> {
    /// What is known of `n` without asking: the facts of the element named.
    fn known(&self, n: &P::Node) -> Option<Facts> {
        self.root
            .as_ref()
            .filter(|(root, _)| root == n)
            .map(|(_, f)| *f)
    }

    /// May the page's styles give `el` generated words before (0) or after (1) it?
    fn may_generate(&mut self, el: &P::Node, which: usize) -> bool {
        let page = self.page;
        let generating = self
            .kept
            .generating
            .get_or_insert_with(|| page.generating());
        match &generating[which] {
            None => false,
            // An invalid selector (a prefixed pseudo-class) may match: ask the style.
            Some(list) => page.matches(el, list).unwrap_or(true),
        }
    }

    /// The `labels` of `field`, in tree order, as the browser would answer them. Each tree
    /// (the document, each shadow root) is indexed once from the labels' side
    /// (`label.control`): Firefox searches the whole tree for each field's `labels`, which
    /// made large forms slow.
    fn labels_of(&mut self, field: &P::Node) -> Vec<P::Node> {
        let page = self.page;
        let root = page.root(field);
        if !self.kept.indexed.contains(&root) {
            let index = &mut self.kept.index;
            page.each_label(&root, &mut |label| {
                if let Some(control) = page.control(label) {
                    page.keep_label(index, &control, label);
                }
            });
            self.kept.indexed.push(root);
        }
        page.kept_labels(&self.kept.index, field)
    }
}

impl<P: NamePage> NameSources for Sources<'_, P> {
    type Node = P::Node;

    fn tag(&mut self, n: &P::Node) -> Option<String> {
        (self.page.node_type(n) == ELEMENT_NODE).then(|| self.page.local_name(n))
    }

    fn html(&mut self, n: &P::Node) -> bool {
        match self.known(n) {
            Some(facts) => facts.namespace() == Namespace::Html,
            None => self.page.is_html(n),
        }
    }

    fn text(&mut self, n: &P::Node) -> Option<String> {
        (self.page.node_type(n) == TEXT_NODE).then(|| self.page.text(n).unwrap_or_default())
    }

    fn attribute(&mut self, n: &P::Node, name: &str) -> Option<String> {
        self.page.attribute(n, name)
    }

    fn marked(&mut self, n: &P::Node) -> bool {
        match self.known(n) {
            Some(facts) => facts.marked(),
            None => self.page.naming(n),
        }
    }

    fn only_text(&mut self, n: &P::Node, tag: &str) -> Option<String> {
        let shadowed = || match self.known(n) {
            Some(facts) => facts.shadowed(),
            None => self.page.has_shadow_root(n),
        };
        // A slot shows its assigned nodes, not its own text.
        let plain = tag != "slot" && self.page.child_element_count(n) == 0 && !shadowed();
        plain.then(|| self.page.text(n).unwrap_or_default())
    }

    fn children(&mut self, n: &P::Node) -> Vec<P::Node> {
        self.page.shown_children(n)
    }

    fn by_id(&mut self, n: &P::Node, id: &str) -> Option<P::Node> {
        let root = self.page.root(n);
        // An element the page removed is its own root: no `getElementById` to ask.
        let tree = self.page.node_type(&root);
        let tree = matches!(tree, DOCUMENT_NODE | DOCUMENT_FRAGMENT_NODE);
        tree.then(|| self.page.by_id(&root, id)).flatten()
    }

    fn shown(&mut self, n: &P::Node) -> Shown {
        match self.page.showing(n) {
            // `display: contents` has no box, but its children show.
            Showing::Rendered | Showing::BoxLess { seen: true } => Shown::Rendered,
            Showing::Invisible | Showing::BoxLess { seen: false } => Shown::Invisible,
            Showing::NotRendered => Shown::NotRendered,
        }
    }

    fn generated(&mut self, n: &P::Node, which: Generated) -> Option<String> {
        let (pseudo, k) = match which {
            Generated::Before => ("::before", 0),
            Generated::After => ("::after", 1),
            Generated::Marker => return marker(self.page, &mut self.kept.index, n),
        };
        if !self.may_generate(n, k) {
            return None;
        }
        let content = self.page.style(n, pseudo, "content")?;
        if matches!(content.as_str(), "none" | "normal") {
            return Some(content);
        }
        // `content-visibility: hidden` skips the element's contents, its generated words
        // among them (its showing says so only of an element with words of its own).
        let skipped = self.page.style(n, "", "content-visibility").as_deref() == Some("hidden");
        (!skipped).then_some(content)
    }

    fn labels(&mut self, n: &P::Node) -> Vec<P::Node> {
        self.labels_of(n)
    }

    /// A field's value in a name: never a password field's, not even its secret's name; none
    /// of another namespace's `input` or `textarea` (asked only of those two tags).
    fn value(&mut self, n: &P::Node) -> Option<String> {
        let tag = self.page.local_name(n);
        let field = matches!(tag.as_str(), "input" | "textarea");
        if !field || !self.html(n) {
            return None;
        }
        match field_value(self.page, n, &tag)? {
            FieldValue::Text(value) => Some(value),
            FieldValue::Password => None,
        }
    }

    fn selected(&mut self, n: &P::Node) -> Vec<P::Node> {
        match self.page.selected_options(n) {
            Some(options) => options,
            None => self.page.query_all(n, "[aria-selected=true]"),
        }
    }
}

/// The value of `field`, an HTML `input` or `textarea` as `tag` says (`None` for other tags):
/// the type read first, so a password's characters are never read.
pub fn field_value<P: NamePage>(page: &P, field: &P::Node, tag: &str) -> Option<FieldValue> {
    let value = match tag {
        "input" if is_password(&page.input_type(field)) => {
            return Some(FieldValue::Password);
        }
        "input" => page.input_value(field),
        "textarea" => page.textarea_value(field),
        _ => return None,
    };
    Some(FieldValue::Text(page.held(field).unwrap_or(value)))
}

/// Is an `<input>` of this type a password field (any case of the type)? The one rule for a
/// field whose value nothing shows (names, the snapshot, and an audit's markup through
/// [`PASSWORD_FIELDS`]) and for one a secret bound to login fields may go into.
pub fn is_password(input_type: &str) -> bool {
    input_type.eq_ignore_ascii_case("password")
}

/// [`is_password`]'s fields as a selector, for those under an element.
pub const PASSWORD_FIELDS: &str = "input[type=password i]";

/// What the snapshot shows of a password field ([`a11y::password_shown`]): nothing when empty,
/// else its secret's name or dots.
pub fn shown_password<P: NamePage>(page: &P, field: &P::Node) -> Option<String> {
    let empty = page.input_value(field).is_empty();
    a11y::password_shown(empty, page.held(field))
}

/// A list item's marker as its list shows it: its `::marker` content, else the bullet or the
/// number its `list-style-type` draws (the common types; others give none).
fn marker<P: NamePage>(page: &P, index: &mut P::Index, li: &P::Node) -> Option<String> {
    let content = page.style(li, "::marker", "content")?;
    if !matches!(content.as_str(), "normal" | "none" | "") {
        return Some(generated_text(&content, &mut |a| page.attribute(li, a)));
    }
    let style = page.style(li, "", "list-style-type")?;
    list_marker(&style, || ordinal(page, index, li))
}

/// The number an ordered list gives this item ([`ordinals`] decides): its own `value`, the
/// earlier items' and the list's `start` and `reversed`. A list's items are numbered at once,
/// the first time one is asked, and kept for the walk.
fn ordinal<P: NamePage>(page: &P, index: &mut P::Index, li: &P::Node) -> i64 {
    if let Some(n) = page.kept_number(index, li) {
        return n;
    }
    let value = |el: &P::Node| html_integer(&page.attribute(el, "value")?);
    let list = page.parent_element(li);
    let mut items = Vec::new();
    let mut at = list.as_ref().and_then(|l| page.first_element_child(l));
    while let Some(child) = at {
        at = page.next_element_sibling(&child);
        if page.local_name(&child) == "li" {
            items.push(child);
        }
    }
    let list = list.filter(|p| page.local_name(p) == "ol");
    let reversed = list
        .as_ref()
        .is_some_and(|ol| page.has_attribute(ol, "reversed"));
    let start = list
        .as_ref()
        .and_then(|ol| page.attribute(ol, "start"))
        .and_then(|s| html_integer(&s));
    let values: Vec<Option<i64>> = items.iter().map(value).collect();
    let numbers = ordinals(&values, start, reversed);
    for (item, n) in items.iter().zip(&numbers) {
        page.keep_number(index, item, *n);
    }
    let at = items.iter().position(|item| item == li);
    at.map_or_else(|| value(li).unwrap_or(1), |at| numbers[at])
}

#[cfg(test)]
mod tests;
