//! The snapshot: one walk of the frame's DOM (open shadow roots included) producing a compact
//! tree of roles and names in which every interactive element carries a ref. Child frames are
//! left as placeholders that the background fills with their own snapshots.

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::envelope::{FramePlace, PageReply, SnapshotPart};
use wasm_bindgen::prelude::*;
use web_sys::{Element, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement, Node};

use super::dom::{self, Children, Facts, Seen, box_less, document, has_any, is_visible};
use super::find;
use super::names::{self, Labels};
use super::secrets;
use crate::a11y::name::Named;
use crate::a11y::{self, ElementFacts, States};

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = ["browser", "runtime"], js_name = getFrameId)]
    fn get_frame_id(target: &JsValue) -> Result<f64, JsValue>;
}

thread_local! {
    /// Attributes that make an element more than its tag says; most elements have none, and
    /// knowing which are marked lets the walk skip every attribute read for the others. They
    /// include the ones a name is computed from (`a11y::name::NAMING`) and a control's states
    /// ([`STATE_ATTRIBUTES`]), so neither asks again of an element the walk met.
    static MARKED: JsValue = {
        let all = SHAPING.iter().chain(a11y::name::NAMING).chain(&STATE_ATTRIBUTES);
        JsValue::from_str(&all.map(|a| format!("[{a}]")).collect::<Vec<_>>().join(","))
    };
    /// [`SHAPING`], as one selector.
    static SHAPED: JsValue = JsValue::from_str(
        &SHAPING.map(|a| format!("[{a}]")).join(","),
    );
    /// The attributes a control's states come from: one `matches` call spares the reads of
    /// all of them for the marked controls that have none.
    static STATEFUL: JsValue = JsValue::from_str(
        &STATE_ATTRIBUTES.map(|a| format!("[{a}]")).join(","),
    );
}

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

/// The attributes [`states`] reads.
const STATE_ATTRIBUTES: [&str; 5] = [
    "disabled",
    "aria-disabled",
    "aria-expanded",
    "required",
    "aria-checked",
];

thread_local! {
    /// Class names a date picker may mark a day of another month with; `a11y::outside_month`
    /// decides (one `matches` call spares the class read of every other control).
    static MAYBE_OUTSIDE: JsValue = JsValue::from_str("[class*=onth],[class*=ay]");
}

thread_local! {
    /// The attributes an author names an element with.
    static AUTHOR_NAMED: JsValue = JsValue::from_str("[aria-label],[aria-labelledby],[aria-labeledby]");
    /// Those, or a tooltip.
    static AUTHOR_NAMED_OR_TITLED: JsValue = JsValue::from_str("[aria-label],[aria-labelledby],[aria-labeledby],[title]");
}

/// Limits of one snapshot.
pub struct Limits {
    pub interactive_only: bool,
    pub max_chars: usize,
    pub max_depth: Option<usize>,
    pub max_nodes: Option<usize>,
}

struct Walker {
    frame: u32,
    limits: Limits,
    labels: Labels,
    out: String,
    refs: u32,
    lines: usize,
    frames: Vec<FramePlace>,
    cut: Option<String>,
    /// Inside a label that names a field: its words are on the field's line already.
    in_label: bool,
    /// What tells the reader which elements are marked, for the tree being walked: the set
    /// of its marked elements (a shadow root's on top while inside it), or the selectors.
    marked: Vec<JsValue>,
    /// The page's levels the walk is inside (each a call deeper in the walk's own stack).
    nesting: usize,
}

/// The page's levels the walk descends at most: a page can nest elements without end, and each
/// level costs the walk stack. Deeper, the walk stops as at its size limit, saying where.
const MAX_NESTING: usize = 512;

pub fn snapshot(
    frame: u32,
    selector: Option<&str>,
    limits: Limits,
) -> Result<PageReply, ErrorBody> {
    let root: Node = match selector {
        Some(s) => find::query(s)?
            .ok_or_else(|| find::not_found(s, None))?
            .into(),
        None => document()?.body().map(Node::from).ok_or_else(|| {
            ErrorBody::new(
                claudezilla_protocol::ErrorCode::PageError,
                "the page has no body yet",
            )
        })?,
    };
    let mut w = Walker {
        frame,
        limits,
        labels: Labels::default(),
        out: String::new(),
        refs: 0,
        lines: 0,
        frames: Vec::new(),
        cut: None,
        in_label: false,
        marked: vec![MARKED.with(|m| dom::marked_in(&root, m))],
        nesting: 0,
    };
    let facts = MARKED.with(|m| Facts::of(&root, m));
    let el: &Element = root.unchecked_ref();
    let tag = facts.tag(el);
    let seen = Seen {
        el,
        tag: &tag,
        facts,
    };
    match selector {
        Some(_) => w.root(seen),
        None => w.children(seen, 0),
    }
    Ok(PageReply::SnapshotPart(SnapshotPart {
        text: w.out,
        refs: w.refs,
        cut: w.cut,
        frames: w.frames,
    }))
}

impl Walker {
    /// A label's own words name its field; the field's line carries them (also the words of
    /// elements inside the label, and what its slots show).
    fn label(&mut self, label: Seen, depth: usize) {
        let was = self.in_label;
        self.in_label = true;
        self.children(label, depth);
        self.in_label = was;
    }

    /// What a slot shows: its assigned nodes (its own children when none are).
    fn slot(&mut self, slot: Seen, depth: usize) {
        let assigned = names::slotted(slot.el);
        if assigned.length() == 0 {
            return self.children(slot, depth);
        }
        // A slot has no box of its own: its text shows when what holds it does.
        let with_text = !self.limits.interactive_only && !self.in_label;
        let shown_by = slot.el.parent_element();
        let mut holder = Holding {
            carrier: shown_by
                .as_ref()
                .is_some_and(|p| is_carrier(&dom::local_name(p))),
            held: None,
            parent_shows: false,
        };
        // Assigned nodes may come from several trees: asked by selector.
        self.marked.push(MARKED.with(JsValue::clone));
        for node in assigned.iter() {
            if self.cut.is_some() {
                break;
            }
            let node: Node = node.unchecked_into();
            let facts = MARKED.with(|m| Facts::of(&node, m));
            self.child(
                &node,
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
    fn children(&mut self, parent: Seen, depth: usize) {
        if self.nesting == MAX_NESTING {
            let path = css_path(parent.el);
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

    fn children_in(&mut self, parent: Seen, depth: usize) {
        let Some(shadow) = parent
            .facts
            .shadowed()
            .then(|| parent.el.shadow_root())
            .flatten()
        else {
            let carrier = is_carrier(parent.tag);
            return self.nodes_under(parent.el, Some(parent.el), depth, carrier);
        };
        self.marked
            .push(MARKED.with(|m| dom::marked_in(&shadow, m)));
        self.nodes_under(&shadow, None, depth, false);
        self.marked.pop();
    }

    /// The children of `parent` (an element, whose text shows when it is visible, or a shadow
    /// root).
    fn nodes_under(
        &mut self,
        parent: &Node,
        shown_by: Option<&Element>,
        depth: usize,
        carrier: bool,
    ) {
        let with_text = !self.limits.interactive_only && !self.in_label;
        // Generic elements are not checked for visibility on the way down (too costly); their
        // text is shown only if they are visible, checked once, at their first words.
        let mut holder = Holding {
            carrier,
            held: None,
            parent_shows: true,
        };
        let marked = self
            .marked
            .last()
            .cloned()
            .unwrap_or_else(|| MARKED.with(JsValue::clone));
        for (node, facts) in Children::of(parent, &marked) {
            if self.cut.is_some() {
                return;
            }
            self.child(&node, facts, depth, with_text, &mut holder, shown_by);
        }
    }

    /// One node of a parent's content; text only where `shown_by` is visible.
    fn child(
        &mut self,
        node: &Node,
        facts: Facts,
        depth: usize,
        with_text: bool,
        holder: &mut Holding,
        shown_by: Option<&Element>,
    ) {
        if facts.is_element() {
            let el: &Element = node.unchecked_ref();
            let tag = facts.tag(el);
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
        let text = dom::text(node).unwrap_or_default();
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
    fn holder(&mut self, el: Option<&Element>, carrier: bool, depth: usize) -> Holder {
        let Some(el) = el else {
            return Holder::Shown;
        };
        if !is_visible(el) {
            return Holder::Hidden;
        }
        if self.in_label || !carrier || !pointer_cursor(el) {
            return Holder::Shown;
        }
        let facts = MARKED.with(|m| Facts::of(el, m));
        let tag = facts.tag(el);
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

    fn push(&mut self, line: String, at: &Element) -> bool {
        let over_nodes = self.limits.max_nodes.is_some_and(|n| self.lines >= n);
        if self.out.len() + line.len() > self.limits.max_chars || over_nodes {
            let path = css_path(at);
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
    fn text(&mut self, node: &Node, parent: Option<&Element>, raw: &str, depth: usize) {
        if !self.within_depth(depth) {
            return;
        }
        let line = a11y::text_line(depth, &a11y::clean(raw, 120));
        if let Some(parent) = parent {
            self.push(line, parent);
            return;
        }
        // Text slotted into a shadow root, or directly in one, has a host to point at.
        let parent = node.parent_element().or_else(|| {
            js_sys::Reflect::get(&node.get_root_node(), &"host".into())
                .ok()
                .and_then(|h| h.dyn_into::<Element>().ok())
        });
        if let Some(parent) = parent {
            self.push(line, &parent);
        }
    }

    fn within_depth(&self, depth: usize) -> bool {
        self.limits.max_depth.is_none_or(|d| depth < d)
    }

    /// The element a selector asked for: listed as any other, and also when it is hidden or
    /// an option (which the walk leaves to their field), so the answer says what it is.
    fn root(&mut self, seen: Seen) {
        let (el, tag) = (seen.el, seen.tag);
        let hidden = dom::has_attribute(el, "hidden")
            || dom::attribute(el, "aria-hidden").as_deref() == Some("true")
            || !(is_visible(el) || box_less(el));
        if !hidden && tag != "option" {
            return self.element(seen, 0);
        }
        let (role, _) = role_of(el, tag, true);
        let role = role.unwrap_or(if tag == "option" { "option" } else { "generic" });
        let how = match hidden {
            true => Named::Hidden,
            false => Named::Shown,
        };
        let name = names::name_seen(seen, &mut self.labels, how);
        let states = States {
            hidden,
            ..States::default()
        };
        self.push(a11y::line(0, role, &name, None, &states), el);
    }

    fn element(&mut self, seen: Seen, depth: usize) {
        let (el, tag, marked) = (seen.el, seen.tag, seen.facts.marked());
        if a11y::is_skipped(tag) {
            return;
        }
        // Marked may be by a name's or a state's attribute only (`aria-disabled` on a cell):
        // that leaves a row or a plain element as it is.
        let shaped = || marked && has_any(el, &SHAPED);
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
            && (dom::has_attribute(el, "hidden")
                || dom::attribute(el, "aria-hidden").as_deref() == Some("true"));
        if hidden || !(is_visible(el) || box_less(el)) {
            return;
        }
        let (role, interactive) = role_of(el, tag, marked);
        if role == Some("row") {
            // A grid's row: its cells on one line, each with its ref, as a table's row.
            return self.row(seen, depth);
        }
        if interactive && holds_controls(el, role) {
            return self.composite(seen, role, depth);
        }
        if interactive || (role == Some("label") && !labels_field(el)) {
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
                let name = names::name_seen(seen, &mut self.labels, Named::Shown);
                let line = a11y::line(depth, h, &name, None, &States::default());
                if self.within_depth(depth) {
                    self.push(line, el);
                }
            }
            Some("img") if tag == "svg" => self.named(seen, "img", depth),
            Some("img") if !self.limits.interactive_only => {
                let name = names::name_seen(seen, &mut self.labels, Named::Shown);
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
                let name = names::name_seen(seen, &mut self.labels, Named::Shown);
                if self.within_depth(depth)
                    && !self.push(a11y::line(depth, r, &name, None, &States::default()), el)
                {
                    return;
                }
                self.children(seen, depth + 1);
            }
            Some("none" | "presentation") => self.children(seen, depth),
            // An element of no role that an author named or titled: by its tag, or the role a
            // name gives it (a named section is a region).
            Some("generic") | None if marked && has_any(el, &AUTHOR_NAMED_OR_TITLED) => {
                let role = match tag {
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
    fn named(&mut self, seen: Seen, role: &str, depth: usize) {
        let name = names::name_seen(seen, &mut self.labels, Named::Shown);
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
    fn control(&mut self, seen: Seen, role: &str, depth: usize) -> bool {
        let el = seen.el;
        let reference = find::ref_for(el, self.frame).to_string();
        // What a script made clickable has no role to name it; its words do.
        let how = match role {
            "clickable" => Named::Clickable,
            _ => Named::Shown,
        };
        let name = names::name_seen(seen, &mut self.labels, how);
        let mut states = states(seen, role);
        if name.is_empty() {
            states.context = context_of(el);
        }
        // Calendar days are cells, options, buttons or script-made controls, never links or
        // fields: those are spared the class question.
        states.outside_month = matches!(role, "clickable" | "gridcell" | "option" | "button")
            && has_any(el, &MAYBE_OUTSIDE)
            && a11y::outside_month(&dom::attribute(el, "class").unwrap_or_default());
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
    fn composite(&mut self, seen: Seen, role: Option<&'static str>, depth: usize) {
        if role.is_some_and(a11y::gives_way) {
            return self.children(seen, depth);
        }
        if self.control(seen, role.unwrap_or("clickable"), depth) {
            self.children(seen, depth + 1);
        }
    }

    /// A table row: its content, folded onto one line where it is a few lines.
    fn row(&mut self, row: Seen, depth: usize) {
        let (start, lines, frames) = (self.out.len(), self.lines, self.frames.len());
        // A row's name is its cells' words, which its line shows; an author's name is said.
        let name = match row.facts.marked() && has_any(row.el, &AUTHOR_NAMED) {
            true => names::name_seen(row, &mut self.labels, Named::Shown),
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

    fn iframe(&mut self, el: &Element, depth: usize) {
        let Some(frame) = frame_id_of(el) else {
            return;
        };
        if !self.within_depth(depth) {
            return;
        }
        let title = el
            .get_attribute("title")
            .or_else(|| dom::attribute(el, "name"))
            .unwrap_or_default();
        if self.push(
            a11y::line(
                depth,
                "iframe",
                &a11y::clean(&title, 60),
                None,
                &States::default(),
            ),
            el,
        ) {
            self.frames.push(FramePlace {
                frame,
                offset: self.out.len(),
                indent: depth + 1,
            });
        }
    }
}

/// What a person clicks, types into or focuses inside a widget's part.
const CONTROLS: &str = "a[href], button, input:not([type=hidden]), select, textarea, [role=button], [role=link], [role=checkbox], [role=radio], [role=switch], [role=menuitem], [role=option], [role=tab], [role=slider], [role=textbox], [role=combobox], [role=spinbutton], [tabindex]:not([tabindex='-1']), [contenteditable]:not([contenteditable=false])";

/// Does a cell or a script's focusable container hold controls of its own? Native controls
/// and ARIA widgets are leaves: what is inside them is part of them.
fn holds_controls(el: &Element, role: Option<&str>) -> bool {
    let part = match role {
        None => true,
        Some(r) => a11y::gives_way(r),
    };
    part && dom::child_element_count(el) > 0 && el.query_selector(CONTROLS).ok().flatten().is_some()
}

/// Is this a control a script made: focusable by the keyboard (tabindex ≥ 0), clicked
/// (onclick), dragged (`draggable`), or words that a click focuses (tabindex -1: a calendar's
/// day)? A container with tabindex -1 only keeps focus for its items (they are listed
/// instead), and an empty one is a backdrop.
fn scripted_control(el: &Element) -> bool {
    let clicked = dom::has_attribute(el, "onclick")
        || dom::attribute(el, "draggable").as_deref() == Some("true");
    clicked
        || dom::attribute(el, "tabindex").is_some_and(|t| {
            t.trim().parse::<i32>().map_or(true, |t| t >= 0)
                || (dom::child_element_count(el) == 0
                    && el
                        .text_content()
                        .is_some_and(|t| t.chars().any(char::is_alphanumeric)))
        })
}

/// An element's role, and whether an agent acts on it. `marked`: it may carry ARIA or script
/// attributes (asking an unmarked one for them is a call to JS spared).
pub(super) fn role_of(el: &Element, tag: &str, marked: bool) -> (Option<&'static str>, bool) {
    let role_attr = marked.then(|| dom::attribute(el, "role")).flatten();
    let input_type = (tag == "input" || tag == "button")
        .then(|| dom::attribute(el, "type"))
        .flatten();
    let facts = ElementFacts {
        tag,
        role_attr: role_attr.as_deref(),
        input_type: input_type.as_deref(),
        has_href: tag == "a" && dom::has_attribute(el, "href"),
        contenteditable: marked
            && el
                .get_attribute("contenteditable")
                .is_some_and(|v| v != "false"),
        focusable: marked && scripted_control(el),
        disabled: marked && dom::has_attribute(el, "disabled"),
    };
    let role = a11y::role(&facts);
    (role, a11y::is_interactive(role, &facts))
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
fn pointer_cursor(el: &Element) -> bool {
    web_sys::window()
        .and_then(|w| w.get_computed_style(el).ok().flatten())
        .and_then(|style| style.get_property_value("cursor").ok())
        .is_some_and(|c| matches!(c.as_str(), "pointer" | "grab" | "move"))
}

/// Does this label name a field? One that names none is text a script made clickable (a
/// TodoMVC todo, double-clicked to edit).
fn labels_field(el: &Element) -> bool {
    dom::has_attribute(el, "for")
        || el
            .query_selector("input, select, textarea")
            .ok()
            .flatten()
            .is_some()
}

/// The browser frame ids of the frames in `doc` and in its open shadow roots, in order: what
/// a search, an audit or a role search asks next.
pub fn child_frames(doc: &web_sys::Document) -> Vec<u64> {
    find::open_roots(doc)
        .iter()
        .flat_map(|root| find::query_all_in(root, "iframe, frame"))
        .filter_map(|f| frame_id_of(&f))
        .collect()
}

/// The browser's frame id of an iframe's document (a large number; the background maps it to a
/// short alias for refs).
pub fn frame_id_of(el: &Element) -> Option<u64> {
    let window = js_sys::Reflect::get(el, &"contentWindow".into()).unwrap_or(JsValue::NULL);
    let frame = get_frame_id(&window).or_else(|_| get_frame_id(el)).ok()?;
    (frame >= 0.0).then_some(frame as u64)
}

/// The words of the nearest container (a few levels up) that has some: what a person reads to
/// tell one row's unnamed checkbox or × button from the next. Words hidden from people
/// (`aria-hidden`: an editor's line numbers) do not count, and a container with a page's worth
/// of words is not a row: nothing is said then.
fn context_of(el: &Element) -> Option<String> {
    let mut at = el.parent_element();
    for _ in 0..4 {
        let container = at?;
        let words = names::flat_text(&container, MAX_CONTEXT + 1);
        if words.chars().count() > MAX_CONTEXT {
            return None;
        }
        if words.chars().any(char::is_alphanumeric) {
            return Some(a11y::clean(&words, 40));
        }
        at = container.parent_element();
    }
    None
}

/// The most words a row holds: more, and it is a page, not a row.
const MAX_CONTEXT: usize = 200;

fn states(seen: Seen, role: &str) -> States {
    let (el, tag) = (seen.el, seen.tag);
    let stateful = seen.facts.marked() && has_any(el, &STATEFUL);
    let mut s = if stateful {
        States {
            disabled: dom::has_attribute(el, "disabled")
                || dom::attribute(el, "aria-disabled").as_deref() == Some("true"),
            expanded: dom::attribute(el, "aria-expanded").map(|e| e == "true"),
            required: dom::has_attribute(el, "required"),
            ..States::default()
        }
    } else {
        States::default()
    };
    // The tag first: most controls are none of these, and each type check is a call to JS.
    let input = (tag == "input")
        .then(|| el.dyn_ref::<HtmlInputElement>())
        .flatten();
    let area = (tag == "textarea")
        .then(|| el.dyn_ref::<HtmlTextAreaElement>())
        .flatten();
    let select = (tag == "select")
        .then(|| el.dyn_ref::<HtmlSelectElement>())
        .flatten();
    if let Some(input) = input {
        match role {
            "checkbox" | "radio" => s.checked = input.checked(),
            "button" => {}
            // A password shows as dots; one typed from the secrets file, as its name.
            _ if input.type_() == "password" => {
                s.value = a11y::password_shown(input.value().is_empty(), secrets::held(el));
            }
            _ => s.value = Some(a11y::clean(&secrets::shown_value(el, &input.value()), 40)),
        }
    } else if let Some(area) = area {
        s.value = Some(a11y::clean(&secrets::shown_value(el, &area.value()), 40));
    } else if let Some(select) = select {
        let idx = select.selected_index();
        s.value = (idx >= 0)
            .then(|| select.options().get_with_index(idx as u32))
            .flatten()
            .map(|o| a11y::clean(&dom::text(&o).unwrap_or_default(), 40));
    } else if stateful && dom::attribute(el, "aria-checked").as_deref() == Some("true") {
        s.checked = true;
    }
    s
}

/// The CSS path of `el` ([`locator::css_path`]).
pub fn css_path(el: &Element) -> String {
    crate::a11y::locator::css_path(el.clone())
}

impl crate::a11y::locator::PathStep for Element {
    fn id(&self) -> String {
        self.get_attribute("id").unwrap_or_default()
    }
    fn tag(&self) -> String {
        self.local_name()
    }
    fn same_tag_before(&self) -> usize {
        let tag = self.local_name();
        let mut n = 0;
        let mut sibling = self.previous_element_sibling();
        while let Some(s) = sibling {
            n += usize::from(s.local_name() == tag);
            sibling = s.previous_element_sibling();
        }
        n
    }
    fn parent(&self) -> Option<Element> {
        self.parent_element()
    }
}
