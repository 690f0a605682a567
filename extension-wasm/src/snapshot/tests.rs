use std::cell::RefCell;

use super::*;
use crate::a11y::name::{Generated, NameSources, Shown, accessible_name};
use crate::a11y::{Elements, Namespace};
use crate::showing::Showing;

/// A page of the tests' own: elements with attributes (`style` says what the layout would:
/// `display:none`, `display:contents`, `cursor:pointer`), text, comments and shadow roots.
#[derive(Default)]
struct Fake {
    nodes: Vec<Node>,
    /// Elements in the order they were first given a ref.
    refs: RefCell<Vec<usize>>,
    /// Elements whose namespace was asked of the page, in order.
    namespaces_asked: RefCell<Vec<usize>>,
}

struct Node {
    kind: Kind,
    parent: Option<usize>,
    children: Vec<usize>,
}

enum Kind {
    Element {
        tag: &'static str,
        attrs: Vec<(&'static str, &'static str)>,
        shadow: Option<usize>,
    },
    Text(&'static str),
    Comment,
    /// A shadow root, and its host.
    Shadow(usize),
}

/// How a test writes a page.
enum Html {
    El(&'static str, Vec<(&'static str, &'static str)>, Vec<Html>),
    /// A host, its light children and its shadow tree's children.
    Host(&'static str, Vec<Html>, Vec<Html>),
    Text(&'static str),
    Comment,
}

fn el(tag: &'static str, attrs: &[(&'static str, &'static str)], children: Vec<Html>) -> Html {
    Html::El(tag, attrs.to_vec(), children)
}

fn t(text: &'static str) -> Html {
    Html::Text(text)
}

impl Fake {
    /// `xmlns` stands for an element of another namespace (`<svg><input>`).
    fn html(&self, el: usize) -> bool {
        self.attr(el, "xmlns").is_none()
    }

    /// A page whose body holds `body`.
    fn page(body: Vec<Html>) -> Self {
        let mut fake = Fake::default();
        fake.add(None, el("body", &[], body));
        fake
    }

    fn add(&mut self, parent: Option<usize>, html: Html) -> usize {
        let (kind, children, shadow) = match html {
            Html::El(tag, attrs, children) => (
                Kind::Element {
                    tag,
                    attrs,
                    shadow: None,
                },
                children,
                None,
            ),
            Html::Host(tag, light, shadow) => (
                Kind::Element {
                    tag,
                    attrs: Vec::new(),
                    shadow: None,
                },
                light,
                Some(shadow),
            ),
            Html::Text(text) => (Kind::Text(text), Vec::new(), None),
            Html::Comment => (Kind::Comment, Vec::new(), None),
        };
        let id = self.push(kind, parent);
        for child in children {
            let c = self.add(Some(id), child);
            self.nodes[id].children.push(c);
        }
        if let Some(shadow) = shadow {
            let root = self.push(Kind::Shadow(id), None);
            if let Kind::Element { shadow, .. } = &mut self.nodes[id].kind {
                *shadow = Some(root);
            }
            for child in shadow {
                let c = self.add(Some(root), child);
                self.nodes[root].children.push(c);
            }
        }
        id
    }

    fn push(&mut self, kind: Kind, parent: Option<usize>) -> usize {
        self.nodes.push(Node {
            kind,
            parent,
            children: Vec::new(),
        });
        self.nodes.len() - 1
    }

    fn attr(&self, el: usize, name: &str) -> Option<&'static str> {
        match &self.nodes[el].kind {
            Kind::Element { attrs, .. } => attrs.iter().find(|(k, _)| *k == name).map(|(_, v)| *v),
            _ => None,
        }
    }

    fn tag_of(&self, n: usize) -> Option<&'static str> {
        match &self.nodes[n].kind {
            Kind::Element { tag, .. } => Some(tag),
            _ => None,
        }
    }

    fn style(&self, el: usize, property: &str) -> bool {
        self.attr(el, "style")
            .is_some_and(|s| s.split(';').any(|p| p.trim() == property))
    }

    /// Does `el` match a selector list of attribute selectors (`[a]`, `[a=v]`, `[a*=v]`)?
    fn matches_list(&self, el: usize, list: &str) -> bool {
        list.split(',').any(|one| {
            let inner = one.trim().trim_start_matches('[').trim_end_matches(']');
            match inner.split_once('=') {
                None => self.attr(el, inner).is_some(),
                Some((name, value)) => match name.strip_suffix('*') {
                    Some(name) => self.attr(el, name).is_some_and(|v| v.contains(value)),
                    None => self.attr(el, name) == Some(value),
                },
            }
        })
    }

    /// The elements under `n`, in tree order (shadow roots not entered).
    fn descendants(&self, n: usize) -> Vec<usize> {
        let mut out = Vec::new();
        for &c in &self.nodes[n].children {
            if self.tag_of(c).is_some() {
                out.push(c);
                out.extend(self.descendants(c));
            }
        }
        out
    }

    fn words(&self, n: usize) -> String {
        match &self.nodes[n].kind {
            Kind::Text(text) => (*text).to_owned(),
            _ => self.nodes[n]
                .children
                .iter()
                .map(|c| self.words(*c))
                .collect(),
        }
    }

    /// `el` is not rendered: it or an ancestor is `display: none` or `hidden`.
    fn not_rendered(&self, el: usize) -> bool {
        let mut at = Some(el);
        while let Some(n) = at {
            if self.style(n, "display:none") || self.attr(n, "hidden").is_some() {
                return true;
            }
            at = match self.nodes[n].kind {
                Kind::Shadow(host) => Some(host),
                _ => self.nodes[n].parent,
            };
        }
        false
    }

    /// `el`'s own words are seen: `visibility` inherits from the nearest element that sets it.
    fn seen(&self, el: usize) -> bool {
        let mut at = Some(el);
        while let Some(n) = at {
            if self.style(n, "visibility:hidden") {
                return false;
            }
            if self.style(n, "visibility:visible") {
                return true;
            }
            at = match self.nodes[n].kind {
                Kind::Shadow(host) => Some(host),
                _ => self.nodes[n].parent,
            };
        }
        true
    }

    fn host_of_tree(&self, n: usize) -> Option<usize> {
        let mut at = n;
        loop {
            if let Kind::Shadow(host) = self.nodes[at].kind {
                return Some(host);
            }
            at = self.nodes[at].parent?;
        }
    }

    fn snapshot(&self, limits: Limits) -> SnapshotPart {
        snapshot(self, 0, Start::Body(0), limits)
    }

    fn text_of(&self, limits: Limits) -> String {
        self.snapshot(limits).text
    }
}

fn all() -> Limits {
    Limits {
        interactive_only: false,
        max_chars: 100_000,
        max_depth: None,
        max_nodes: None,
    }
}

impl Elements for Fake {
    type Element = usize;

    fn attribute(&self, el: &usize, name: &str) -> Option<String> {
        self.attr(*el, name).map(str::to_owned)
    }

    fn has_attribute(&self, el: &usize, name: &str) -> bool {
        self.attr(*el, name).is_some()
    }

    fn child_element_count(&self, el: &usize) -> u32 {
        let elements = self.nodes[*el]
            .children
            .iter()
            .filter(|c| self.tag_of(**c).is_some());
        elements.count() as u32
    }

    fn text_content(&self, el: &usize) -> Option<String> {
        Some(self.words(*el))
    }

    fn input_type(&self, input: &usize) -> Option<String> {
        // `xmlns` stands for an element of another namespace (`<svg><input>`).
        let html = self.attr(*input, "xmlns").is_none();
        html.then(|| self.attr(*input, "type").unwrap_or_default().to_owned())
    }

    fn is_html(&self, el: &usize) -> bool {
        self.namespaces_asked.borrow_mut().push(*el);
        self.html(*el)
    }
}

impl Page for Fake {
    type Node = usize;
    type Marked = ();
    type Labels = ();

    fn children<'a>(
        &'a self,
        parent: &'a usize,
        _: &'a (),
    ) -> impl Iterator<Item = (usize, Facts)> + 'a {
        self.nodes[*parent]
            .children
            .iter()
            .map(|c| (*c, self.facts(c, &())))
    }

    fn facts(&self, node: &usize, _: &()) -> Facts {
        match &self.nodes[*node].kind {
            Kind::Element { shadow, .. } => {
                let facts = Facts::element(
                    self.matches_list(*node, &Selectors::Marked.text()),
                    shadow.is_some(),
                );
                match self.html(*node) {
                    true => facts,
                    false => facts.foreign(),
                }
            }
            Kind::Text(_) => Facts::text(),
            Kind::Comment | Kind::Shadow(_) => Facts::other(),
        }
    }

    fn tag(&self, el: &usize, _: Facts) -> String {
        self.tag_of(*el).unwrap_or_default().to_owned()
    }

    fn as_element<'n>(&self, node: &'n usize) -> &'n usize {
        node
    }

    fn as_node(&self, el: &usize) -> usize {
        *el
    }

    fn marked_by_selectors(&self) {}

    fn marked_in(&self, _: &usize) {}

    fn shadow_root(&self, el: &usize) -> Option<usize> {
        match self.nodes[*el].kind {
            Kind::Element { shadow, .. } => shadow,
            _ => None,
        }
    }

    fn slotted(&self, slot: &usize) -> Vec<usize> {
        let Some(host) = self.host_of_tree(*slot) else {
            return Vec::new();
        };
        let name = self.attr(*slot, "name");
        let light = self.nodes[host].children.iter().copied();
        light.filter(|c| self.attr(*c, "slot") == name).collect()
    }

    fn parent_element(&self, el: &usize) -> Option<usize> {
        self.nodes[*el].parent.filter(|p| self.tag_of(*p).is_some())
    }

    fn text_owner(&self, node: &usize) -> Option<usize> {
        let parent = self.nodes[*node].parent?;
        match self.nodes[parent].kind {
            Kind::Shadow(host) => Some(host),
            _ => Some(parent),
        }
    }

    fn text(&self, node: &usize) -> Option<String> {
        match self.nodes[*node].kind {
            Kind::Text(text) => Some(text.to_owned()),
            _ => None,
        }
    }

    fn matches(&self, el: &usize, selectors: Selectors) -> bool {
        self.matches_list(*el, &selectors.text())
    }

    fn holds(&self, el: &usize, inside: Inside) -> bool {
        let control = |n: usize| {
            let tag = self.tag_of(n).unwrap_or_default();
            let role = self.attr(n, "role").unwrap_or_default();
            match inside {
                Inside::Fields => matches!(tag, "input" | "select" | "textarea"),
                Inside::Controls => {
                    matches!(tag, "button" | "select" | "textarea")
                        || (tag == "a" && self.attr(n, "href").is_some())
                        || (tag == "input" && self.attr(n, "type") != Some("hidden"))
                        || matches!(role, "button" | "link" | "checkbox" | "option" | "tab")
                        || self.attr(n, "tabindex").is_some_and(|t| t != "-1")
                }
            }
        };
        self.descendants(*el).into_iter().any(control)
    }

    fn showing(&self, el: &usize) -> Showing {
        if self.not_rendered(*el) {
            return Showing::NotRendered;
        }
        match (self.style(*el, "display:contents"), self.seen(*el)) {
            (true, seen) => Showing::BoxLess { seen },
            (false, true) => Showing::Rendered,
            (false, false) => Showing::Invisible,
        }
    }

    fn cursor(&self, el: &usize) -> Option<String> {
        ["pointer", "grab", "move"]
            .into_iter()
            .find(|c| self.style(*el, &format!("cursor:{c}")))
            .map(str::to_owned)
    }

    fn name(&self, _: &mut (), seen: Seen<usize>, how: Named) -> String {
        let name = accessible_name(&mut Names(self), seen.el, seen.tag, how);
        a11y::clean(&name, 80)
    }

    fn reference(&self, el: &usize, frame: u32) -> String {
        let mut refs = self.refs.borrow_mut();
        let index = match refs.iter().position(|r| r == el) {
            Some(at) => at + 1,
            None => {
                refs.push(*el);
                refs.len()
            }
        };
        claudezilla_protocol::args::ElementRef {
            frame,
            index: index as u32,
        }
        .to_string()
    }

    fn frame_id(&self, el: &usize) -> Option<u64> {
        self.attr(*el, "data-frame")?.parse().ok()
    }

    fn css_path(&self, el: &usize) -> String {
        match self.attr(*el, "id") {
            Some(id) => format!("#{id}"),
            None => self.tag_of(*el).unwrap_or_default().to_owned(),
        }
    }

    fn flat_text(&self, el: &usize, max: usize) -> String {
        let hidden = |n: usize| self.attr(n, "aria-hidden") == Some("true");
        let mut words = String::new();
        for n in self.descendants(*el).into_iter().filter(|n| !hidden(*n)) {
            let own = self.nodes[n].children.iter().filter_map(|c| self.text(c));
            own.for_each(|w| words.push_str(&w));
        }
        let own = self.nodes[*el].children.iter().filter_map(|c| self.text(c));
        own.for_each(|w| words.insert_str(0, &w));
        words.chars().take(max).collect()
    }

    fn checked(&self, input: &usize) -> bool {
        self.attr(*input, "checked").is_some()
    }

    fn field_value(&self, field: &usize, tag: &str) -> Option<FieldValue> {
        assert_eq!(Some(tag), self.tag_of(*field), "the field's own tag");
        let value = self.attr(*field, "value").unwrap_or_default().to_owned();
        Some(match self.attr(*field, "type") {
            Some("password") => FieldValue::Password,
            _ => FieldValue::Text(value),
        })
    }

    fn password_shown(&self, field: &usize) -> Option<String> {
        let empty = self.attr(*field, "value").unwrap_or_default().is_empty();
        a11y::password_shown(empty, self.attribute(field, "data-secret"))
    }

    fn selected_text(&self, select: &usize) -> Option<String> {
        let options = self
            .descendants(*select)
            .into_iter()
            .filter(|o| self.tag_of(*o) == Some("option"));
        let options: Vec<usize> = options.collect();
        let chosen = options
            .iter()
            .find(|o| self.attr(**o, "selected").is_some());
        chosen.or(options.first()).map(|o| self.words(*o))
    }
}

/// The fake page, as the name computation reads it.
struct Names<'a>(&'a Fake);

impl NameSources for Names<'_> {
    type Node = usize;

    fn tag(&mut self, n: &usize) -> Option<String> {
        self.0.tag_of(*n).map(str::to_owned)
    }
    fn text(&mut self, n: &usize) -> Option<String> {
        Page::text(self.0, n)
    }
    fn attribute(&mut self, n: &usize, name: &str) -> Option<String> {
        self.0.attribute(n, name)
    }
    fn marked(&mut self, n: &usize) -> bool {
        a11y::name::NAMING
            .iter()
            .any(|a| self.0.attr(*n, a).is_some())
    }
    fn only_text(&mut self, _: &usize, _: &str) -> Option<String> {
        None
    }
    fn children(&mut self, n: &usize) -> Vec<usize> {
        if let Some(root) = self.0.shadow_root(n) {
            return self.0.nodes[root].children.clone();
        }
        let assigned = match self.0.tag_of(*n) {
            Some("slot") => self.0.slotted(n),
            _ => Vec::new(),
        };
        match assigned.is_empty() {
            true => self.0.nodes[*n].children.clone(),
            false => assigned,
        }
    }
    fn by_id(&mut self, _: &usize, id: &str) -> Option<usize> {
        (0..self.0.nodes.len()).find(|n| self.0.attr(*n, "id") == Some(id))
    }
    fn shown(&mut self, n: &usize) -> Shown {
        match self.0.tag_of(*n).is_some() && self.0.not_rendered(*n) {
            true => Shown::NotRendered,
            false => Shown::Rendered,
        }
    }
    fn generated(&mut self, _: &usize, _: Generated) -> Option<String> {
        None
    }
    fn labels(&mut self, n: &usize) -> Vec<usize> {
        let id = self.0.attr(*n, "id");
        let labels = (0..self.0.nodes.len()).filter(|l| self.0.tag_of(*l) == Some("label"));
        labels
            .filter(|l| id.is_some() && self.0.attr(*l, "for") == id)
            .collect()
    }
    fn value(&mut self, n: &usize) -> Option<String> {
        self.0.attribute(n, "value")
    }
    fn selected(&mut self, _: &usize) -> Vec<usize> {
        Vec::new()
    }
    fn html(&mut self, n: &usize) -> bool {
        self.0.html(*n)
    }
}

#[test]
fn selectors_are_numbered_as_listed() {
    for (at, s) in Selectors::ALL.iter().enumerate() {
        assert_eq!(*s as usize, at);
    }
    assert_eq!(
        Selectors::Stateful.text(),
        "[disabled],[aria-disabled],[aria-expanded],[required],[aria-checked]"
    );
    assert!(Selectors::Marked.text().contains("[draggable=true]"));
}

/// Is `item` `[name]`, `[name=value]` or `[name*=value]`, with a name and value of the
/// characters those allow unquoted?
fn attribute_selector(item: &str) -> bool {
    let word = |w: &str| {
        let allowed = |c: char| c.is_ascii_alphanumeric() || c == '-';
        !w.is_empty() && !w.starts_with(|c: char| c.is_ascii_digit()) && w.chars().all(allowed)
    };
    let Some(inner) = item.strip_prefix('[').and_then(|i| i.strip_suffix(']')) else {
        return false;
    };
    match inner.split_once('=') {
        None => word(inner),
        Some((name, value)) => word(name.strip_suffix('*').unwrap_or(name)) && word(value),
    }
}

/// Our own selector lists reach bindings whose refusal is silent (nothing marked, nothing
/// matched): each must be one the browser takes.
#[test]
fn our_selector_lists_are_attribute_selectors_the_browser_takes() {
    let naming = carrying(crate::a11y::name::NAMING);
    let lists = Selectors::ALL.map(Selectors::text);
    for list in lists.iter().chain([&naming]) {
        assert!(list.split(',').all(attribute_selector), "{list}");
    }
    assert!(!attribute_selector("[aria label]") && !attribute_selector("[title"));
    assert!(!attribute_selector("[class*=]") && !attribute_selector("[1a]"));
}

#[test]
fn controls_get_refs_text_is_quoted_and_the_hidden_is_left_out() {
    let page = Fake::page(vec![
        el("h1", &[], vec![t("Shop")]),
        el("p", &[], vec![t("Pick  one"), Html::Comment]),
        el("button", &[], vec![t("Buy")]),
        el("a", &[("href", "/cart")], vec![t("Cart")]),
        el("button", &[("hidden", "")], vec![t("Secret")]),
        el(
            "div",
            &[("style", "display:none")],
            vec![t("Ghost"), el("button", &[], vec![t("Gone")])],
        ),
        el(
            "input",
            &[
                ("type", "checkbox"),
                ("checked", ""),
                ("aria-label", "Gift"),
            ],
            vec![],
        ),
        el(
            "input",
            &[("aria-label", "Qty"), ("value", "2"), ("required", "")],
            vec![],
        ),
        el("script", &[], vec![t("var x = 1")]),
    ]);
    let part = page.snapshot(all());
    assert_eq!(
        part.text,
        "h1 \"Shop\"\n\"Pick one\"\nbutton \"Buy\" e1\nlink \"Cart\" e2\ncheckbox \"Gift\" e3 [checked]\ntextbox \"Qty\" e4 =2 [required]\n"
    );
    assert_eq!(part.refs, 4);
    assert!(part.cut.is_none());
}

#[test]
fn what_a_page_makes_invisible_is_left_out_and_a_child_made_visible_shows() {
    let page = Fake::page(vec![
        el(
            "div",
            &[("style", "visibility:hidden")],
            vec![
                t("TRAP words"),
                el("button", &[], vec![t("TRAP button")]),
                el("h2", &[], vec![t("TRAP heading")]),
                el("iframe", &[("title", "TRAP"), ("data-frame", "7")], vec![]),
                el(
                    "p",
                    &[("style", "visibility:visible")],
                    vec![t("Back again")],
                ),
                el(
                    "a",
                    &[("href", "/x"), ("style", "visibility:visible")],
                    vec![t("Shown link")],
                ),
            ],
        ),
        el(
            "h2",
            &[("style", "visibility:hidden")],
            vec![t("TRAP title")],
        ),
        el(
            "span",
            &[("style", "display:contents;visibility:hidden")],
            vec![t("TRAP box-less")],
        ),
        el(
            "span",
            &[("style", "display:contents")],
            vec![t("Box-less words")],
        ),
        el(
            "div",
            &[("style", "display:none")],
            vec![
                el(
                    "span",
                    &[("style", "display:contents")],
                    vec![t("TRAP box-less in one not rendered")],
                ),
                el(
                    "h2",
                    &[("style", "display:contents")],
                    vec![t("TRAP box-less heading")],
                ),
                el(
                    "button",
                    &[("style", "display:contents")],
                    vec![t("TRAP box-less button")],
                ),
            ],
        ),
        el(
            "details",
            &[],
            vec![el("summary", &[], vec![t("Summary")]), t("TRAP details")],
        ),
        el(
            "details",
            &[("open", "")],
            vec![el("summary", &[], vec![t("Open")]), t("Open words")],
        ),
        el(
            "table",
            &[],
            vec![el(
                "tr",
                &[],
                vec![
                    el("td", &[], vec![t("Milk")]),
                    el(
                        "td",
                        &[("style", "visibility:hidden")],
                        vec![t("TRAP cell")],
                    ),
                ],
            )],
        ),
    ]);
    let part = page.snapshot(all());
    assert!(!part.text.contains("TRAP"), "{}", part.text);
    assert!(part.frames.is_empty(), "an invisible frame is not read");
    for shown in [
        "\"Back again\"",
        "link \"Shown link\" e1",
        "\"Box-less words\"",
        "\"Milk\"",
        "\"Open words\"",
        "\"Summary\"",
    ] {
        assert!(part.text.contains(shown), "{shown} in {}", part.text);
    }
}

#[test]
fn an_invisible_element_asked_for_is_listed_hidden_with_what_shows_inside() {
    let page = Fake::page(vec![el(
        "label",
        &[("style", "visibility:hidden")],
        vec![
            t("Name"),
            el("input", &[("type", "text")], vec![]),
            el(
                "button",
                &[("style", "visibility:visible")],
                vec![t("Shown")],
            ),
        ],
    )]);
    let input = 3;
    assert_eq!(page.tag_of(input), Some("input"));
    let part = snapshot(&page, 0, Start::Element(input), all());
    assert!(part.text.starts_with("textbox"), "{}", part.text);
    assert!(part.text.ends_with("[hidden]\n"), "{}", part.text);
    let label = page.nodes[input].parent.unwrap();
    let part = snapshot(&page, 0, Start::Element(label), all());
    assert_eq!(part.text, "label [hidden]\n button \"Shown\" e1\n");
}

#[test]
fn interactive_only_lists_controls_alone_and_refs_stay_the_elements() {
    let page = Fake::page(vec![
        el("p", &[], vec![t("Intro")]),
        el("img", &[("alt", "Picture")], vec![]),
        el("button", &[("id", "a")], vec![t("One")]),
        el("button", &[("id", "b")], vec![t("Two")]),
    ]);
    let first = page.text_of(Limits {
        interactive_only: true,
        ..all()
    });
    assert_eq!(first, "button \"One\" e1\nbutton \"Two\" e2\n");
    // A second walk gives each element the ref it had.
    assert_eq!(
        page.text_of(all()),
        "\"Intro\"\nimg \"Picture\"\nbutton \"One\" e1\nbutton \"Two\" e2\n"
    );
}

#[test]
fn containers_indent_what_they_hold_and_depth_limits_it() {
    let page = Fake::page(vec![el(
        "nav",
        &[("aria-label", "Main")],
        vec![el(
            "ul",
            &[],
            vec![el(
                "li",
                &[],
                vec![el("a", &[("href", "/")], vec![t("Home")])],
            )],
        )],
    )]);
    let text = page.text_of(all());
    // A list item is plain: only what it holds is said.
    assert_eq!(text, "navigation \"Main\"\n list\n  link \"Home\" e1\n");
    let shallow = page.text_of(Limits {
        max_depth: Some(2),
        ..all()
    });
    assert_eq!(shallow, "navigation \"Main\"\n list\n");
}

#[test]
fn a_table_row_is_folded_onto_one_line() {
    let page = Fake::page(vec![el(
        "table",
        &[],
        vec![el(
            "tbody",
            &[],
            vec![el(
                "tr",
                &[],
                vec![
                    el("td", &[], vec![t("Milk")]),
                    el("td", &[], vec![el("button", &[], vec![t("Delete")])]),
                ],
            )],
        )],
    )]);
    let text = page.text_of(all());
    assert!(
        text.contains(" row: \"Milk\" · button \"Delete\" e1\n"),
        "{text}"
    );
}

#[test]
fn a_clickable_card_is_a_control_and_an_unnamed_one_says_its_row() {
    let page = Fake::page(vec![
        el("div", &[("style", "cursor:pointer")], vec![t("Card one")]),
        el(
            "li",
            &[],
            vec![t("Buy milk"), el("input", &[("type", "checkbox")], vec![])],
        ),
    ]);
    assert_eq!(
        page.text_of(all()),
        "clickable \"Card one\" e1\n\"Buy milk\"\ncheckbox e2 (in \"Buy milk\")\n"
    );
}

#[test]
fn a_script_control_by_tabindex_or_onclick_and_a_cell_gives_way_to_its_buttons() {
    let page = Fake::page(vec![
        el("div", &[("tabindex", "0")], vec![t("Focusable")]),
        el("span", &[("onclick", "go()")], vec![t("Go")]),
        // An empty backdrop with tabindex -1 is no control.
        el("div", &[("tabindex", "-1")], vec![]),
        el(
            "div",
            &[("role", "gridcell")],
            vec![el("button", &[("aria-label", "Day 3")], vec![t("3")])],
        ),
    ]);
    assert_eq!(
        page.text_of(all()),
        "clickable \"Focusable\" e1\nclickable \"Go\" e2\nbutton \"Day 3\" e3\n"
    );
}

#[test]
fn an_input_of_another_namespace_is_no_field() {
    // `<svg><input>`: no textbox (named, it shows as a group, with no ref), and not
    // focusable, so `role="none"` holds for it.
    let page = Fake::page(vec![
        el(
            "input",
            &[("xmlns", "svg"), ("aria-label", "Drawn")],
            vec![],
        ),
        el("input", &[("xmlns", "svg"), ("role", "none")], vec![]),
        el("input", &[("aria-label", "Typed")], vec![]),
        el("input", &[("role", "none"), ("aria-label", "Kept")], vec![]),
    ]);
    assert_eq!(
        page.text_of(all()),
        "group \"Drawn\"\ntextbox \"Typed\" e1\ntextbox \"Kept\" e2\n"
    );
}

#[test]
fn elements_of_another_namespace_take_no_role_from_their_tags() {
    // `<svg><button>`, `<svg><select>`…: no controls, no refs, no landmarks; SVG's own link
    // and root, and MathML's `math`, keep the roles they have there.
    let foreign = |tag| el(tag, &[("xmlns", "svg"), ("aria-label", "Fake")], vec![]);
    let mut body: Vec<Html> = [
        "button", "select", "textarea", "summary", "nav", "h2", "label",
    ]
    .into_iter()
    .map(foreign)
    .collect();
    body.extend([
        el(
            "a",
            &[("xmlns", "svg"), ("href", "#"), ("aria-label", "Drawn")],
            vec![],
        ),
        el(
            "a",
            &[("xmlns", "svg"), ("xlink:href", "#"), ("aria-label", "Old")],
            vec![],
        ),
        el("a", &[("xlink:href", "#"), ("aria-label", "Not")], vec![]),
        el("svg", &[("xmlns", "svg"), ("aria-label", "Chart")], vec![]),
        el("math", &[("xmlns", "math"), ("aria-label", "Sum")], vec![]),
        el(
            "button",
            &[("xmlns", "svg"), ("role", "button"), ("aria-label", "Said")],
            vec![],
        ),
        el("button", &[("aria-label", "Real")], vec![]),
    ]);
    let page = Fake::page(body);
    assert_eq!(
        page.text_of(all()),
        format!(
            "{}link \"Drawn\" e1\nlink \"Old\" e2\na \"Not\"\nimg \"Chart\"\nmath \"Sum\"\nbutton \"Said\" e3\nbutton \"Real\" e4\n",
            "group \"Fake\"\n".repeat(7)
        )
    );
}

#[test]
fn a_single_elements_namespace_is_asked_only_where_its_tag_gives_a_role() {
    let page = Fake::page(vec![
        el("button", &[("xmlns", "svg")], vec![]),
        el("path", &[("xmlns", "svg")], vec![]),
        el("a", &[("xmlns", "svg"), ("href", "#")], vec![]),
        el("input", &[("xmlns", "svg")], vec![]),
        el("h2", &[], vec![]),
        el("a", &[("xlink:href", "#")], vec![]),
        el(
            "a",
            &[("xmlns", "svg"), ("href", "#"), ("role", "none")],
            vec![],
        ),
    ]);
    // The walk reads every element's namespace with its facts, never asking it.
    page.text_of(all());
    assert_eq!(*page.namespaces_asked.borrow(), [0usize; 0]);
    let role = |el: usize| {
        let tag = page.tag_of(el).unwrap_or_default();
        let (role, _) = role_of(&page, &el, tag, true, Namespace::Unread);
        role
    };
    // HTML's `a` links only by `href`; SVG's link stays one under `role="none"`: a person
    // tabs to it.
    assert_eq!(
        [1, 2, 3, 4, 5, 6, 7].map(role),
        [
            None,
            None,
            Some("link"),
            None,
            Some("h2"),
            None,
            Some("link")
        ]
    );
    // The button, the heading, the `xlink:href`; the input's own read says it is no field.
    assert_eq!(*page.namespaces_asked.borrow(), [1, 5, 6]);
}

#[test]
fn fields_show_their_values_and_a_password_only_dots_or_its_secret() {
    let page = Fake::page(vec![
        el(
            "input",
            &[
                ("type", "password"),
                ("aria-label", "Pass"),
                ("value", "hunter2"),
            ],
            vec![],
        ),
        el(
            "input",
            &[
                ("type", "password"),
                ("aria-label", "Key"),
                ("value", "x"),
                ("data-secret", "API_KEY"),
            ],
            vec![],
        ),
        el(
            "select",
            &[("aria-label", "Size")],
            vec![
                el("option", &[], vec![t("S")]),
                el("option", &[("selected", "")], vec![t("M")]),
            ],
        ),
        el(
            "div",
            &[
                ("role", "checkbox"),
                ("aria-checked", "true"),
                ("aria-label", "Ok"),
                ("aria-disabled", "true"),
            ],
            vec![],
        ),
        // Not HTML's input (`<svg><input>`): its ARIA state is what it says.
        el(
            "input",
            &[
                ("xmlns", "svg"),
                ("role", "checkbox"),
                ("aria-checked", "true"),
                ("aria-label", "Drawn"),
            ],
            vec![],
        ),
        el(
            "textarea",
            &[("aria-label", "Note"), ("value", "hi")],
            vec![],
        ),
    ]);
    let text = page.text_of(all());
    assert_eq!(
        text,
        "textbox \"Pass\" e1 =•••• \ntextbox \"Key\" e2 =API_KEY\ncombobox \"Size\" e3 =M\ncheckbox \"Ok\" e4 [checked] [disabled]\ncheckbox \"Drawn\" e5 [checked]\ntextbox \"Note\" e6 =hi\n"
            .replace(" \n", "\n")
    );
    assert!(!text.contains("hunter2"));
}

#[test]
fn a_shadow_tree_shows_with_its_slots_filled() {
    let page = Fake::page(vec![Html::Host(
        "x-card",
        vec![
            el("span", &[("slot", "title")], vec![t("Title")]),
            t("Body"),
        ],
        vec![
            el("h2", &[], vec![el("slot", &[("name", "title")], vec![])]),
            el("button", &[], vec![t("Open")]),
            el("slot", &[], vec![t("fallback")]),
        ],
    )]);
    assert_eq!(
        page.text_of(all()),
        "h2 \"Title\"\nbutton \"Open\" e1\n\"Body\"\n"
    );
}

#[test]
fn words_directly_in_a_shadow_root_show_as_its_host_shows() {
    let host = |words| Html::Host("x-words", vec![], vec![t(words)]);
    let page = Fake::page(vec![
        el("div", &[("style", "display:none")], vec![host("Gone")]),
        el(
            "div",
            &[("style", "visibility:hidden")],
            vec![host("Ghost")],
        ),
        host("Shown"),
    ]);
    assert_eq!(page.text_of(all()), "\"Shown\"\n");
}

#[test]
fn words_slotted_at_a_shadow_roots_top_show_as_its_host_shows() {
    let host = |words| Html::Host("x-slotted", vec![t(words)], vec![el("slot", &[], vec![])]);
    let page = Fake::page(vec![
        el("div", &[("style", "display:none")], vec![host("Gone")]),
        el(
            "div",
            &[("style", "visibility:hidden")],
            vec![host("Ghost")],
        ),
        host("Shown"),
    ]);
    assert_eq!(page.text_of(all()), "\"Shown\"\n");
}

#[test]
fn frames_are_placeholders_where_they_are() {
    let page = Fake::page(vec![
        el("button", &[], vec![t("Before")]),
        el("iframe", &[("title", "Pay"), ("data-frame", "42")], vec![]),
    ]);
    let part = page.snapshot(all());
    assert_eq!(part.text, "button \"Before\" e1\niframe \"Pay\"\n");
    assert_eq!(
        part.frames,
        vec![FramePlace {
            frame: 42,
            offset: part.text.len(),
            indent: 1
        }]
    );
}

#[test]
fn a_cut_says_where_the_rest_starts_and_how_to_see_it() {
    let buttons = (0..5)
        .map(|_| el("button", &[], vec![t("Press")]))
        .collect();
    let page = Fake::page(vec![el(
        "div",
        &[("id", "list"), ("role", "list")],
        buttons,
    )]);
    let part = page.snapshot(Limits {
        max_nodes: Some(3),
        ..all()
    });
    assert_eq!(part.text.lines().count(), 3);
    assert_eq!(part.refs, 2);
    let cut = part.cut.expect("cut");
    assert!(cut.starts_with("cut at 3 nodes (2 refs so far)"), "{cut}");
    assert!(cut.contains("selector \"button\""), "{cut}");
    let small = page.snapshot(Limits {
        max_chars: 30,
        ..all()
    });
    assert!(small.cut.expect("cut").starts_with("cut at 30 characters"));
    assert!(small.text.len() <= 30);
}

#[test]
fn a_page_nested_without_end_stops_at_the_walks_depth() {
    let mut inner = el("button", &[], vec![t("Deep")]);
    for _ in 0..MAX_NESTING + 10 {
        inner = el("div", &[], vec![inner]);
    }
    let part = Fake::page(vec![inner]).snapshot(all());
    assert!(part.text.is_empty());
    let cut = part.cut.expect("cut");
    assert!(
        cut.starts_with(&format!("cut at {MAX_NESTING} nested levels")),
        "{cut}"
    );
}

#[test]
fn a_selected_element_is_listed_even_hidden() {
    let mut page = Fake::page(vec![]);
    let hidden = page.add(Some(0), el("button", &[("hidden", "")], vec![t("Later")]));
    // Its content is hidden with it, and names it no more.
    let part = snapshot(&page, 0, Start::Element(hidden), all());
    assert_eq!(part.text, "button [hidden]\n");
    let labelled = page.add(
        Some(0),
        el("button", &[("hidden", ""), ("aria-label", "Later")], vec![]),
    );
    let part = snapshot(&page, 0, Start::Element(labelled), all());
    assert_eq!(part.text, "button \"Later\" [hidden]\n");
    let option = page.add(Some(0), el("option", &[], vec![t("Red")]));
    let part = snapshot(&page, 0, Start::Element(option), all());
    assert_eq!(part.text, "option \"Red\"\n");
}

#[test]
fn a_calendar_day_of_another_month_says_so() {
    let page = Fake::page(vec![el(
        "button",
        &[("class", "day prev-month-day")],
        vec![t("31")],
    )]);
    assert_eq!(page.text_of(all()), "button \"31\" e1 [outside month]\n");
}

#[test]
fn a_label_naming_a_field_is_said_on_the_fields_line_and_one_that_names_none_is_a_control() {
    let page = Fake::page(vec![
        el("label", &[("for", "q")], vec![t("Search")]),
        el("input", &[("id", "q")], vec![]),
        el("label", &[], vec![t("Walk the dog")]),
    ]);
    assert_eq!(
        page.text_of(all()),
        "textbox \"Search\" e1\nlabel \"Walk the dog\" e2\n"
    );
}

#[test]
fn a_role_comes_from_the_tag_or_an_author_and_unmarked_elements_are_not_asked() {
    let page = Fake::page(vec![
        el("a", &[], vec![]),
        el("a", &[("href", "/")], vec![]),
        el("div", &[("role", "button")], vec![]),
        el("input", &[("type", "range")], vec![]),
    ]);
    let role = |el: usize, marked: bool| {
        let tag = page.tag_of(el).unwrap_or_default();
        role_of(&page, &el, tag, marked, Namespace::Unread)
    };
    let [a, link, div, range] = [1, 2, 3, 4];
    assert!(!role(a, false).1);
    assert_eq!(role(link, false), (Some("link"), true));
    assert_eq!(role(div, true), (Some("button"), true));
    // Unmarked, the role attribute is not read.
    assert_ne!(role(div, false).0, Some("button"));
    assert_eq!(role(range, false), (Some("slider"), true));
}

#[test]
fn a_folded_row_counts_as_one_line_of_the_node_limit() {
    let row = |item: &'static str| {
        el(
            "tr",
            &[],
            vec![
                el("td", &[], vec![t(item)]),
                el("td", &[], vec![el("button", &[], vec![t("Delete")])]),
            ],
        )
    };
    let page = Fake::page(vec![el(
        "table",
        &[],
        vec![el("tbody", &[], vec![row("A"), row("B"), row("C")])],
    )]);
    let part = page.snapshot(Limits {
        max_nodes: Some(4),
        ..all()
    });
    let lines: Vec<&str> = part.text.lines().collect();
    assert_eq!(
        lines[..3],
        [
            "table",
            " row: \"A\" · button \"Delete\" e1",
            " row: \"B\" · button \"Delete\" e2"
        ]
    );
    assert!(part.cut.expect("cut").starts_with("cut at 4 nodes"));
}
