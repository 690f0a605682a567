//! The snapshot: one walk of a frame's composed tree (open shadow roots and slots in place)
//! producing a compact tree of roles and names in which every interactive element carries a
//! ref. Child frames are left as placeholders that the background fills with their own
//! snapshots ([`crate::stitch`]).
//!
//! What is listed, how and where the walk stops is decided here, over [`Page`]; the content
//! script gives it the DOM (`content/snapshot.rs`), the tests a page of their own.

use claudezilla_protocol::envelope::{FramePlace, SnapshotPart};

use crate::a11y::name::Named;
use crate::a11y::{self, FieldValue, Namespace, States, role_of};

mod page;
pub use page::{Facts, Inside, Page, Seen, Selectors, carrying};

/// Limits of one snapshot.
pub struct Limits {
    pub interactive_only: bool,
    pub max_chars: usize,
    pub max_depth: Option<usize>,
    pub max_nodes: Option<usize>,
}

/// Where a walk starts.
pub enum Start<N> {
    /// The body: its content is listed, not the body itself.
    Body(N),
    /// The element a selector asked for: listed as any other, and also when it is hidden or
    /// an option (which the walk leaves to their field), so the answer says what it is.
    Element(N),
}

/// The page's levels the walk descends at most: a page can nest elements without end, and each
/// level costs the walk stack. Deeper, the walk stops as at its size limit, saying where.
pub const MAX_NESTING: usize = 512;

/// The frame's snapshot part (its frames left as placeholders).
pub fn snapshot<P: Page>(
    page: &P,
    frame: u32,
    start: Start<P::Node>,
    limits: Limits,
) -> SnapshotPart {
    let (root, whole) = match start {
        Start::Body(root) => (root, false),
        Start::Element(root) => (root, true),
    };
    let mut w = Walker {
        page,
        frame,
        limits,
        labels: P::Labels::default(),
        out: String::new(),
        refs: 0,
        lines: 0,
        frames: Vec::new(),
        cut: None,
        in_label: false,
        marked: vec![page.marked_in(&root)],
        nesting: 0,
    };
    let facts = page.facts(&root, &page.marked_by_selectors());
    let el = page.as_element(&root);
    let tag = page.tag(el, facts);
    let seen = Seen {
        el,
        tag: &tag,
        facts,
    };
    match whole {
        true => w.root(seen),
        false => w.children(seen, 0),
    }
    SnapshotPart {
        text: w.out,
        refs: w.refs,
        cut: w.cut,
        frames: w.frames,
    }
}

struct Walker<'p, P: Page> {
    page: &'p P,
    frame: u32,
    limits: Limits,
    labels: P::Labels,
    out: String,
    refs: u32,
    lines: usize,
    frames: Vec<FramePlace>,
    cut: Option<String>,
    /// Inside a label that names a field: its words are on the field's line already.
    in_label: bool,
    /// What tells the reader which elements are marked, for the tree being walked (a shadow
    /// root's on top while inside it).
    marked: Vec<P::Marked>,
    /// The page's levels the walk is inside (each a call deeper in the walk's own stack).
    nesting: usize,
}

impl<P: Page> Walker<'_, P> {
    /// A label's own words name its field; the field's line carries them (also the words of
    /// elements inside the label, and what its slots show).
    fn label(&mut self, label: Seen<P::Element>, depth: usize) {
        let was = self.in_label;
        self.in_label = true;
        self.children(label, depth);
        self.in_label = was;
    }

    /// What a slot shows: its assigned nodes (its own children when none are).
    fn slot(&mut self, slot: Seen<P::Element>, depth: usize) {
        let page = self.page;
        let assigned = page.slotted(slot.el);
        if assigned.is_empty() {
            return self.children(slot, depth);
        }
        // A slot has no box of its own: its text shows when what holds it does, the host
        // for a slot at the top of a shadow root.
        let with_text = !self.limits.interactive_only && !self.in_label;
        let shown_by = page.text_owner(&page.as_node(slot.el));
        let mut holder = Holding {
            carrier: shown_by
                .as_ref()
                .is_some_and(|p| is_carrier(&page.tag(p, Facts::other()))),
            held: None,
            parent_shows: false,
        };
        // Assigned nodes may come from several trees: asked by selector.
        let marked = page.marked_by_selectors();
        self.marked.push(marked.clone());
        for node in &assigned {
            if self.cut.is_some() {
                break;
            }
            let facts = page.facts(node, &marked);
            self.child(
                node,
                facts,
                depth,
                with_text,
                &mut holder,
                shown_by.as_ref(),
            );
        }
        self.marked.pop();
    }

    /// The nodes the page shows under `parent`: a host's shadow tree, where slots place its
    /// light children.
    fn children(&mut self, parent: Seen<P::Element>, depth: usize) {
        if self.nesting == MAX_NESTING {
            let path = self.page.css_path(parent.el);
            self.cut = Some(format!(
                "cut at {MAX_NESTING} nested levels ({} refs so far); what is inside {path} is left out: call firefox_snapshot with selector {path:?} to see it",
                self.refs
            ));
            return;
        }
        self.nesting += 1;
        self.children_in(parent, depth);
        self.nesting -= 1;
    }

    fn children_in(&mut self, parent: Seen<P::Element>, depth: usize) {
        let page = self.page;
        let shadow = parent
            .facts
            .shadowed()
            .then(|| page.shadow_root(parent.el))
            .flatten();
        let Some(shadow) = shadow else {
            // A closed `<details>` shows its summary alone: its own words are not seen.
            let closed = parent.tag == "details" && !page.has_attribute(parent.el, "open");
            let holder = Holding {
                carrier: is_carrier(parent.tag),
                held: closed.then_some(Holder::Hidden),
                parent_shows: true,
            };
            let node = page.as_node(parent.el);
            return self.nodes_under(&node, Some(parent.el), depth, holder);
        };
        self.marked.push(page.marked_in(&shadow));
        let holder = Holding {
            carrier: false,
            held: None,
            parent_shows: true,
        };
        // Words directly in a shadow root are the host's: shown as it shows.
        self.nodes_under(&shadow, Some(parent.el), depth, holder);
        self.marked.pop();
    }

    /// The children of `parent` (an element, whose text shows when it is visible, or a shadow
    /// root).
    fn nodes_under(
        &mut self,
        parent: &P::Node,
        shown_by: Option<&P::Element>,
        depth: usize,
        mut holder: Holding,
    ) {
        let page = self.page;
        let with_text = !self.limits.interactive_only && !self.in_label;
        // Generic elements are not checked for visibility on the way down (too costly); their
        // text is shown only if they are visible, checked once, at their first words.
        let marked = match self.marked.last() {
            Some(marked) => marked.clone(),
            None => page.marked_by_selectors(),
        };
        for (node, facts) in page.children(parent, &marked) {
            if self.cut.is_some() {
                return;
            }
            self.child(&node, facts, depth, with_text, &mut holder, shown_by);
        }
    }

    /// One node of a parent's content; text only where `shown_by` is visible.
    fn child(
        &mut self,
        node: &P::Node,
        facts: Facts,
        depth: usize,
        with_text: bool,
        holder: &mut Holding,
        shown_by: Option<&P::Element>,
    ) {
        let page = self.page;
        if facts.is_element() {
            let el = page.as_element(node);
            let tag = page.tag(el, facts);
            return self.element(
                Seen {
                    el,
                    tag: &tag,
                    facts,
                },
                depth,
            );
        }
        if !facts.is_text() {
            return;
        }
        // Without text wanted, words matter only where they may make a control.
        let carrier = holder.carrier;
        if !with_text && !carrier {
            return;
        }
        let text = page.text(node).unwrap_or_default();
        if !text.chars().any(char::is_alphanumeric) {
            return;
        }
        let held = match holder.held {
            Some(held) => held,
            None => *holder.held.insert(self.holder(shown_by, carrier, depth)),
        };
        if held == Holder::Shown && with_text {
            let parent = shown_by.filter(|_| holder.parent_shows);
            self.text(node, parent, &text, depth);
        }
    }

    /// What the element holding some words is: hidden, shown, or — its cursor says a person
    /// clicks or drags it (a kanban card, a sortable item) — a control, listed with a ref in
    /// place of its words.
    fn holder(&mut self, el: Option<&P::Element>, carrier: bool, depth: usize) -> Holder {
        let page = self.page;
        let Some(el) = el else {
            return Holder::Shown;
        };
        if !page.showing(el).text_seen() {
            return Holder::Hidden;
        }
        if self.in_label || !carrier || !pointer_cursor(page, el) {
            return Holder::Shown;
        }
        let facts = page.facts(&page.as_node(el), &page.marked_by_selectors());
        let tag = page.tag(el, facts);
        self.control(
            Seen {
                el,
                tag: &tag,
                facts,
            },
            "clickable",
            depth,
        );
        Holder::Control
    }

    fn push(&mut self, line: String, at: &P::Element) -> bool {
        let over_nodes = self.limits.max_nodes.is_some_and(|n| self.lines >= n);
        if self.out.len() + line.len() > self.limits.max_chars || over_nodes {
            let path = self.page.css_path(at);
            let why = if over_nodes {
                format!("{} nodes", self.lines)
            } else {
                format!("{} characters", self.limits.max_chars)
            };
            self.cut = Some(format!(
                "cut at {why} ({} refs so far); the rest starts at {path}: call firefox_snapshot with selector {path:?}, or interactiveOnly: true, to see it",
                self.refs
            ));
            return false;
        }
        self.out.push_str(&line);
        self.lines += 1;
        true
    }

    /// A text's line; `parent`: its parent element, when the caller knows it.
    fn text(&mut self, node: &P::Node, parent: Option<&P::Element>, raw: &str, depth: usize) {
        if !self.within_depth(depth) {
            return;
        }
        let line = a11y::text_line(depth, &a11y::clean(raw, 120));
        if let Some(parent) = parent {
            self.push(line, parent);
            return;
        }
        // Text slotted into a shadow root, or directly in one, has a host to point at.
        if let Some(parent) = self.page.text_owner(node) {
            self.push(line, &parent);
        }
    }

    fn within_depth(&self, depth: usize) -> bool {
        self.limits.max_depth.is_none_or(|d| depth < d)
    }

    /// The element a selector asked for ([`Start::Element`]).
    fn root(&mut self, seen: Seen<P::Element>) {
        let (page, el, tag) = (self.page, seen.el, seen.tag);
        let showing = page.showing(el);
        let by_attribute = page.has_attribute(el, "hidden")
            || page.attribute(el, "aria-hidden").as_deref() == Some("true");
        let hidden = by_attribute || !showing.text_seen();
        if !hidden && tag != "option" {
            return self.element(seen, 0);
        }
        let (role, _) = role_of(page, el, tag, true, seen.facts.namespace());
        let role = role.unwrap_or(if tag == "option" { "option" } else { "generic" });
        let how = match hidden {
            true => Named::Hidden,
            false => Named::Shown,
        };
        let name = page.name(&mut self.labels, seen, how);
        let states = States {
            hidden,
            ..States::default()
        };
        if !self.push(a11y::line(0, role, &name, None, &states), el) {
            return;
        }
        // Invisible (`visibility: hidden`), not gone: a child made visible again shows.
        if showing.entered() && !showing.text_seen() && !by_attribute {
            self.children(seen, 1);
        }
    }

    fn element(&mut self, seen: Seen<P::Element>, depth: usize) {
        let (page, el, tag, marked) = (self.page, seen.el, seen.tag, seen.facts.marked());
        if a11y::is_skipped(tag) {
            return;
        }
        // Marked may be by a name's or a state's attribute only (`aria-disabled` on a cell):
        // that leaves a row or a plain element as it is.
        let shaped = || marked && page.matches(el, Selectors::Shaping);
        if tag == "tr" && !shaped() {
            return self.row(seen, depth);
        }
        if tag == "slot" {
            return self.slot(seen, depth);
        }
        if a11y::is_plain(tag) && !shaped() {
            // The common case: a generic element, only its content matters.
            return self.children(seen, depth);
        }
        let hidden = marked
            && (page.has_attribute(el, "hidden")
                || page.attribute(el, "aria-hidden").as_deref() == Some("true"));
        if hidden {
            return;
        }
        let showing = page.showing(el);
        if !showing.entered() {
            return;
        }
        // Invisible (`visibility: hidden`): neither listed nor named, but a child made
        // visible again shows, as it does to a person.
        if !showing.text_seen() {
            return self.children(seen, depth);
        }
        let (role, interactive) = role_of(page, el, tag, marked, seen.facts.namespace());
        if role == Some("row") {
            // A grid's row: its cells on one line, each with its ref, as a table's row.
            return self.row(seen, depth);
        }
        if interactive && holds_controls(page, el, role) {
            return self.composite(seen, role, depth);
        }
        if interactive || (role == Some("label") && !labels_field(page, el)) {
            let role = role.unwrap_or("clickable");
            let listed = self.control(seen, role, depth);
            // A listbox's options, a grid's cells, a menu's items: clicked one by one.
            if listed && a11y::has_items(role) {
                self.children(seen, depth + 1);
            }
            return;
        }
        match role {
            Some(h @ ("h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "heading")) => {
                let name = page.name(&mut self.labels, seen, Named::Shown);
                let line = a11y::line(depth, h, &name, None, &States::default());
                if self.within_depth(depth) {
                    self.push(line, el);
                }
            }
            // Pictures are no controls: only a link drawn inside one is listed.
            Some("img") if self.limits.interactive_only => self.children(seen, depth),
            Some("img") if tag == "svg" => self.named(seen, "img", depth),
            Some("img") => {
                let name = page.name(&mut self.labels, seen, Named::Shown);
                if !name.is_empty() && self.within_depth(depth) {
                    self.push(
                        a11y::line(depth, "img", &name, None, &States::default()),
                        el,
                    );
                }
            }
            Some("iframe") => self.iframe(el, depth),
            Some("label") => self.label(seen, depth),
            Some(r) if a11y::is_container(Some(r)) => {
                let name = page.name(&mut self.labels, seen, Named::Shown);
                if self.within_depth(depth)
                    && !self.push(a11y::line(depth, r, &name, None, &States::default()), el)
                {
                    return;
                }
                self.children(seen, depth + 1);
            }
            Some("none" | "presentation") => self.children(seen, depth),
            // An element of no role that an author named or titled: by its tag, or the role a
            // name gives it (a named section is a region, a named SVG or MathML element a
            // group: its tag may be an HTML control's it is not).
            Some("generic") | None
                if marked && page.matches(el, Selectors::AuthorNamedOrTitled) =>
            {
                let role = match tag {
                    _ if seen.facts.namespace() == Namespace::Foreign => "group",
                    "section" => "region",
                    "dl" => "list",
                    _ => tag,
                };
                self.named(seen, role, depth)
            }
            Some("generic") | None => self.children(seen, depth),
            // Other roles (an alert, a figure, a status) are printed when named, else only
            // their content shows.
            Some(r) => self.named(seen, r, depth),
        }
    }

    /// An element whose role is worth saying when it has a name (an alert, a figure, a named
    /// svg): its line, then its content under it; unnamed, only its content.
    fn named(&mut self, seen: Seen<P::Element>, role: &str, depth: usize) {
        let name = self.page.name(&mut self.labels, seen, Named::Shown);
        if name.is_empty() {
            return self.children(seen, depth);
        }
        if self.within_depth(depth)
            && !self.push(
                a11y::line(depth, role, &name, None, &States::default()),
                seen.el,
            )
        {
            return;
        }
        self.children(seen, depth + 1);
    }

    /// A control's line, with its ref; false when it did not fit.
    fn control(&mut self, seen: Seen<P::Element>, role: &str, depth: usize) -> bool {
        let (page, el) = (self.page, seen.el);
        let reference = page.reference(el, self.frame);
        // What a script made clickable has no role to name it; its words do.
        let how = match role {
            "clickable" => Named::Clickable,
            _ => Named::Shown,
        };
        let name = page.name(&mut self.labels, seen, how);
        let mut states = states(page, seen, role);
        if name.is_empty() {
            states.context = context_of(page, el);
        }
        // Calendar days are cells, options, buttons or script-made controls, never links or
        // fields: those are spared the class question.
        states.outside_month = matches!(role, "clickable" | "gridcell" | "option" | "button")
            && page.matches(el, Selectors::MaybeOutsideMonth)
            && a11y::outside_month(&page.attribute(el, "class").unwrap_or_default());
        let line = a11y::line(depth, role, &name, Some(&reference), &states);
        let listed = self.within_depth(depth) && self.push(line, el);
        if listed {
            self.refs += 1;
        }
        listed
    }

    /// A part of a composite widget holding controls of its own (a calendar day's button, a
    /// map's markers and zoom buttons): those controls are what a person clicks. A cell gives
    /// way to them; a script's focusable container keeps its ref, with them listed under it.
    fn composite(&mut self, seen: Seen<P::Element>, role: Option<&'static str>, depth: usize) {
        if role.is_some_and(a11y::gives_way) {
            return self.children(seen, depth);
        }
        if self.control(seen, role.unwrap_or("clickable"), depth) {
            self.children(seen, depth + 1);
        }
    }

    /// A table row: its content, folded onto one line where it is a few lines.
    fn row(&mut self, row: Seen<P::Element>, depth: usize) {
        let (start, lines, frames) = (self.out.len(), self.lines, self.frames.len());
        // A row's name is its cells' words, which its line shows; an author's name is said.
        let authored = row.facts.marked() && self.page.matches(row.el, Selectors::AuthorNamed);
        let name = match authored {
            true => self.page.name(&mut self.labels, row, Named::Shown),
            false => String::new(),
        };
        self.children(row, depth);
        if self.cut.is_some() || self.frames.len() != frames {
            return;
        }
        if let Some(folded) = a11y::fold_row(depth, &self.out[start..], &name) {
            self.out.truncate(start);
            self.out.push_str(&folded);
            self.lines = lines + 1;
        }
    }

    fn iframe(&mut self, el: &P::Element, depth: usize) {
        let page = self.page;
        let Some(frame) = page.frame_id(el) else {
            return;
        };
        if !self.within_depth(depth) {
            return;
        }
        let title = page
            .attribute(el, "title")
            .or_else(|| page.attribute(el, "name"))
            .unwrap_or_default();
        let line = a11y::line(
            depth,
            "iframe",
            &a11y::clean(&title, 60),
            None,
            &States::default(),
        );
        if self.push(line, el) {
            self.frames.push(FramePlace {
                frame,
                offset: self.out.len(),
                indent: depth + 1,
            });
        }
    }
}

/// Does a cell or a script's focusable container hold controls of its own? Native controls
/// and ARIA widgets are leaves: what is inside them is part of them.
fn holds_controls<P: Page>(page: &P, el: &P::Element, role: Option<&str>) -> bool {
    let part = match role {
        None => true,
        Some(r) => a11y::gives_way(r),
    };
    part && page.child_element_count(el) > 0 && page.holds(el, Inside::Controls)
}

/// What is known of the element holding a run of text nodes, found out once.
struct Holding {
    /// It is an element cards and items are made of ([`is_carrier`]).
    carrier: bool,
    held: Option<Holder>,
    /// It is the texts' parent (not the element showing a slot's nodes).
    parent_shows: bool,
}

/// The tags whose cursor is asked: what cards, items and chips are made of (the tags of
/// `element`'s generic branch). Asking every paragraph and table cell costs a style lookup
/// each, on every snapshot.
fn is_carrier(tag: &str) -> bool {
    matches!(tag, "div" | "span" | "li")
}

/// What the element holding some words turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Holder {
    Hidden,
    Shown,
    /// Listed as a control (its words are its name).
    Control,
}

/// Does the element's own cursor say it is clicked or dragged (`pointer`, `grab`, `move`)?
fn pointer_cursor<P: Page>(page: &P, el: &P::Element) -> bool {
    page.cursor(el)
        .is_some_and(|c| matches!(c.as_str(), "pointer" | "grab" | "move"))
}

/// Does this label name a field? One that names none is text a script made clickable (a
/// TodoMVC todo, double-clicked to edit).
fn labels_field<P: Page>(page: &P, el: &P::Element) -> bool {
    page.has_attribute(el, "for") || page.holds(el, Inside::Fields)
}

/// The words of the nearest container (a few levels up) that has some: what a person reads to
/// tell one row's unnamed checkbox or × button from the next. Words hidden from people
/// (`aria-hidden`: an editor's line numbers) do not count, and a container with a page's worth
/// of words is not a row: nothing is said then.
fn context_of<P: Page>(page: &P, el: &P::Element) -> Option<String> {
    let mut at = page.parent_element(el);
    for _ in 0..4 {
        let container = at?;
        let words = page.flat_text(&container, MAX_CONTEXT + 1);
        if words.chars().count() > MAX_CONTEXT {
            return None;
        }
        if words.chars().any(char::is_alphanumeric) {
            return Some(a11y::clean(&words, 40));
        }
        at = page.parent_element(&container);
    }
    None
}

/// The most words a row holds: more, and it is a page, not a row.
const MAX_CONTEXT: usize = 200;

fn states<P: Page>(page: &P, seen: Seen<P::Element>, role: &str) -> States {
    let (el, tag) = (seen.el, seen.tag);
    let stateful = seen.facts.marked() && page.matches(el, Selectors::Stateful);
    let mut s = match stateful {
        true => States {
            disabled: page.has_attribute(el, "disabled")
                || page.attribute(el, "aria-disabled").as_deref() == Some("true"),
            expanded: page.attribute(el, "aria-expanded").map(|e| e == "true"),
            required: page.has_attribute(el, "required"),
            ..States::default()
        },
        false => States::default(),
    };
    let field =
        matches!(tag, "input" | "textarea" | "select") && seen.facts.namespace() == Namespace::Html;
    if !field {
        // Anything else (an `<svg><input>` too) is as checked as its ARIA says.
        s.checked = stateful && page.attribute(el, "aria-checked").as_deref() == Some("true");
        return s;
    }
    match (tag, role) {
        ("input", "checkbox" | "radio") => s.checked = page.checked(el),
        ("input", "button") => {}
        ("input" | "textarea", _) => {
            s.value = match page.field_value(el, tag) {
                Some(FieldValue::Password) => page.password_shown(el),
                Some(FieldValue::Text(value)) => Some(a11y::clean(&value, 40)),
                None => None,
            };
        }
        ("select", _) => s.value = page.selected_text(el).map(|t| a11y::clean(&t, 40)),
        _ => {}
    }
    s
}

#[cfg(test)]
mod tests;
