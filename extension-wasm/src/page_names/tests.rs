use std::collections::HashMap;

use super::*;
use crate::steps::Steps;

/// A page of plain values: node 0 is the document, each node's parent and tree known; every
/// read of a kind the tests count is logged.
#[derive(Default)]
struct Fake {
    nodes: Vec<FakeNode>,
    /// (element, pseudo, property) → the computed value.
    styles: HashMap<(usize, &'static str, &'static str), String>,
    generating: [Option<String>; 2],
    log: Steps,
}

#[derive(Default)]
struct FakeNode {
    tag: Option<&'static str>,
    text: String,
    attrs: Vec<(&'static str, String)>,
    children: Vec<usize>,
    parent: Option<usize>,
    /// The document (0) or the shadow root the node is in.
    root: usize,
    shadow: bool,
    value: String,
    held: Option<String>,
    selected: Option<Vec<usize>>,
}

#[derive(Default)]
struct Index {
    labels: HashMap<usize, Vec<usize>>,
    numbers: HashMap<usize, i64>,
}

impl Fake {
    fn new() -> Self {
        let mut page = Self::default();
        page.nodes.push(FakeNode::default());
        page
    }

    /// Adds an element under `parent`, in `parent`'s tree.
    fn add(&mut self, parent: usize, tag: &'static str, attrs: &[(&'static str, &str)]) -> usize {
        let n = self.nodes.len();
        let root = match self.nodes[parent].tag {
            None if parent != 0 => parent,
            _ => self.nodes[parent].root,
        };
        self.nodes.push(FakeNode {
            tag: Some(tag),
            attrs: attrs.iter().map(|(k, v)| (*k, v.to_string())).collect(),
            parent: Some(parent),
            root,
            ..FakeNode::default()
        });
        self.nodes[parent].children.push(n);
        n
    }

    fn add_text(&mut self, parent: usize, text: &str) -> usize {
        let n = self.nodes.len();
        self.nodes.push(FakeNode {
            text: text.into(),
            parent: Some(parent),
            root: self.nodes[parent].root,
            ..FakeNode::default()
        });
        self.nodes[parent].children.push(n);
        n
    }

    /// A shadow root of its own (a node with no tag, not the document).
    fn shadow_root(&mut self) -> usize {
        self.nodes.push(FakeNode::default());
        let n = self.nodes.len() - 1;
        self.nodes[n].root = n;
        n
    }

    fn set_style(&mut self, el: usize, pseudo: &'static str, property: &'static str, v: &str) {
        self.styles.insert((el, pseudo, property), v.into());
    }

    fn name(&self, kept: &mut Kept<Self>, el: usize, facts: Option<Facts>) -> String {
        let tag = self.nodes[el].tag.unwrap_or_default();
        name(self, kept, &el, tag, facts, Named::Shown, SHOWN_NAME)
    }

    /// Another namespace's `input` or `textarea` has no type or value: the browser throws.
    fn foreign_throws(&self, field: usize) {
        let foreign = self.attribute(&field, "xmlns").is_some();
        assert!(!foreign, "the type or value of foreign {field} read");
    }

    /// The logged reads that start with `what`.
    fn reads(&self, what: &str) -> usize {
        self.log
            .all()
            .iter()
            .filter(|s| s.starts_with(what))
            .count()
    }

    fn descendants(&self, n: usize) -> Vec<usize> {
        let mut out = Vec::new();
        for c in &self.nodes[n].children {
            out.push(*c);
            out.extend(self.descendants(*c));
        }
        out
    }
}

impl NamePage for Fake {
    type Node = usize;
    type Index = Index;

    fn node_type(&self, n: &usize) -> u16 {
        match self.nodes[*n].tag {
            Some(_) => 1,
            None if self.nodes[*n].parent.is_some() => 3,
            // Node 0 is the document; any other root a shadow root.
            None if *n == 0 => 9,
            None => 11,
        }
    }
    fn local_name(&self, el: &usize) -> String {
        self.nodes[*el].tag.unwrap_or_default().into()
    }
    fn text(&self, n: &usize) -> Option<String> {
        self.log.say(format!("text {n}"));
        let own = std::iter::once(*n).chain(self.descendants(*n));
        Some(own.map(|d| self.nodes[d].text.as_str()).collect())
    }
    fn attribute(&self, el: &usize, name: &str) -> Option<String> {
        let attrs = &self.nodes[*el].attrs;
        attrs
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.clone())
    }
    fn has_attribute(&self, el: &usize, name: &str) -> bool {
        self.attribute(el, name).is_some()
    }
    fn naming(&self, el: &usize) -> bool {
        self.log.say(format!("naming {el}"));
        a11y::name::NAMING.iter().any(|a| self.has_attribute(el, a))
    }
    fn child_element_count(&self, el: &usize) -> u32 {
        let children = self.nodes[*el].children.iter();
        children.filter(|c| self.nodes[**c].tag.is_some()).count() as u32
    }
    fn has_shadow_root(&self, el: &usize) -> bool {
        self.log.say(format!("shadow {el}"));
        self.nodes[*el].shadow
    }
    fn shown_children(&self, n: &usize) -> Vec<usize> {
        self.nodes[*n].children.clone()
    }
    fn root(&self, n: &usize) -> usize {
        self.nodes[*n].root
    }
    fn by_id(&self, root: &usize, id: &str) -> Option<usize> {
        self.log.say(format!("by id {root}"));
        let mut all = (0..self.nodes.len()).filter(|n| self.nodes[*n].root == *root);
        all.find(|n| self.attribute(n, "id").as_deref() == Some(id))
    }
    fn showing(&self, el: &usize) -> Showing {
        match self.attribute(el, "data-showing").as_deref() {
            Some("invisible") => Showing::Invisible,
            Some("none") => Showing::NotRendered,
            Some("contents") => Showing::BoxLess { seen: true },
            Some("contents-unseen") => Showing::BoxLess { seen: false },
            _ => Showing::Rendered,
        }
    }
    fn style(&self, el: &usize, pseudo: &str, property: &str) -> Option<String> {
        self.log.say(format!("style {el} {pseudo} {property}"));
        let found = self
            .styles
            .iter()
            .find(|((e, p, q), _)| *e == *el && *p == pseudo && *q == property);
        Some(
            found
                .map(|(_, v)| v.clone())
                .unwrap_or_else(|| "none".into()),
        )
    }
    fn generating(&self) -> [Option<String>; 2] {
        self.log.say("generating");
        self.generating.clone()
    }
    fn matches(&self, el: &usize, selectors: &str) -> Option<bool> {
        // Only `.class` lists are understood; anything else is refused as invalid.
        let classes = self.attribute(el, "class").unwrap_or_default();
        let mut all = selectors.split(',');
        all.try_fold(false, |hit, s| {
            let class = s.trim().strip_prefix('.')?;
            Some(hit || classes.split(' ').any(|c| c == class))
        })
    }
    fn each_label(&self, root: &usize, f: &mut dyn FnMut(&usize)) {
        self.log.say(format!("labels in {root}"));
        let all = (0..self.nodes.len()).filter(|n| self.nodes[*n].root == *root);
        all.filter(|n| self.nodes[*n].tag == Some("label"))
            .for_each(|l| f(&l));
    }
    fn control(&self, label: &usize) -> Option<usize> {
        let id = self.attribute(label, "for")?;
        self.by_id(&self.root(label), &id)
    }
    fn keep_label(&self, index: &mut Index, control: &usize, label: &usize) {
        index.labels.entry(*control).or_default().push(*label);
    }
    fn kept_labels(&self, index: &Index, field: &usize) -> Vec<usize> {
        index.labels.get(field).cloned().unwrap_or_default()
    }
    fn kept_number(&self, index: &Index, item: &usize) -> Option<i64> {
        index.numbers.get(item).copied()
    }
    fn keep_number(&self, index: &mut Index, item: &usize, n: i64) {
        index.numbers.insert(*item, n);
    }
    /// An element with an `xmlns` is of another namespace.
    fn is_html(&self, el: &usize) -> bool {
        self.log.say(format!("namespace of {el}"));
        self.attribute(el, "xmlns").is_none()
    }
    fn input_type(&self, input: &usize) -> String {
        self.foreign_throws(*input);
        self.log.say(format!("type of {input}"));
        self.attribute(input, "type")
            .unwrap_or_else(|| "text".into())
    }
    fn input_value(&self, input: &usize) -> String {
        self.foreign_throws(*input);
        self.log.say(format!("value of {input}"));
        self.nodes[*input].value.clone()
    }
    fn textarea_value(&self, area: &usize) -> String {
        self.foreign_throws(*area);
        self.log.say(format!("value of {area}"));
        self.nodes[*area].value.clone()
    }
    fn held(&self, field: &usize) -> Option<String> {
        self.log.say(format!("held {field}"));
        self.nodes[*field].held.clone()
    }
    fn selected_options(&self, el: &usize) -> Option<Vec<usize>> {
        self.nodes[*el].selected.clone()
    }
    fn query_all(&self, el: &usize, selectors: &str) -> Vec<usize> {
        assert_eq!(selectors, "[aria-selected=true]");
        let all = self.descendants(*el).into_iter();
        all.filter(|n| self.attribute(n, "aria-selected").as_deref() == Some("true"))
            .collect()
    }
    fn parent_element(&self, n: &usize) -> Option<usize> {
        self.nodes[*n]
            .parent
            .filter(|p| self.nodes[*p].tag.is_some())
    }
    fn first_element_child(&self, el: &usize) -> Option<usize> {
        let mut children = self.nodes[*el].children.iter().copied();
        children.find(|c| self.nodes[*c].tag.is_some())
    }
    fn next_element_sibling(&self, el: &usize) -> Option<usize> {
        let siblings = &self.nodes[self.nodes[*el].parent?].children;
        let at = siblings.iter().position(|s| s == el)?;
        let mut after = siblings[at + 1..].iter().copied();
        after.find(|c| self.nodes[*c].tag.is_some())
    }
}

/// An `<ol>` (with `attrs`) of `items` items, each given a decimal marker; the items' ids.
fn list(page: &mut Fake, attrs: &[(&'static str, &str)], items: &[&str]) -> Vec<usize> {
    let ol = page.add(0, "ol", attrs);
    let mut ids = Vec::new();
    for value in items {
        let attrs: &[(&str, &str)] = match value.is_empty() {
            true => &[],
            false => &[("value", value)],
        };
        let li = page.add(ol, "li", attrs);
        page.set_style(li, "::marker", "content", "normal");
        page.set_style(li, "", "list-style-type", "decimal");
        page.add_text(li, "item");
        ids.push(li);
    }
    ids
}

/// The item's marker, as a name's content starts with it.
fn marker(page: &Fake, kept: &mut Kept<Fake>, li: usize) -> Option<String> {
    let mut sources = Sources {
        page,
        kept,
        root: None,
    };
    sources.generated(&li, Generated::Marker)
}

#[test]
fn a_list_is_numbered_once_with_its_start_values_and_direction() {
    let mut page = Fake::new();
    let items = list(&mut page, &[("start", "3")], &["", "", "10", ""]);
    let mut kept = Kept::default();
    let markers: Vec<String> = items
        .iter()
        .filter_map(|li| marker(&page, &mut kept, *li))
        .collect();
    assert_eq!(markers, ["3.", "4.", "10.", "11."]);
    // The list was numbered when its first item was asked, and kept.
    assert_eq!(kept.index.numbers.len(), 4);
    kept.index.numbers.insert(items[1], 40);
    assert_eq!(marker(&page, &mut kept, items[1]).as_deref(), Some("40."));

    let mut page = Fake::new();
    let items = list(&mut page, &[("reversed", "")], &["", "", ""]);
    let mut kept = Kept::default();
    assert_eq!(marker(&page, &mut kept, items[0]).as_deref(), Some("3."));
    assert_eq!(marker(&page, &mut kept, items[2]).as_deref(), Some("1."));
}

#[test]
fn a_marker_of_its_own_content_is_read_before_the_list_style() {
    let mut page = Fake::new();
    let items = list(&mut page, &[], &["", ""]);
    page.set_style(
        items[1],
        "::marker",
        "content",
        "\"Step \" attr(data-n) \": \"",
    );
    page.nodes[items[1]].attrs.push(("data-n", "two".into()));
    let mut kept = Kept::default();
    let own = marker(&page, &mut kept, items[1]);
    assert_eq!(own.as_deref(), Some("Step two: "));
    assert_eq!(page.reads("style"), 1, "{:?}", page.log.all());
    // An item of no `<ol>` counts as the list's own, from 1.
    let ul = page.add(0, "ul", &[]);
    let dot = page.add(ul, "li", &[]);
    page.set_style(dot, "::marker", "content", "normal");
    page.set_style(dot, "", "list-style-type", "disc");
    assert_eq!(marker(&page, &mut kept, dot).as_deref(), Some("•"));
    page.set_style(dot, "", "list-style-type", "decimal");
    let second = page.add(ul, "li", &[]);
    page.set_style(second, "::marker", "content", "normal");
    page.set_style(second, "", "list-style-type", "decimal");
    assert_eq!(marker(&page, &mut kept, second).as_deref(), Some("2."));
}

#[test]
fn generated_words_are_asked_only_where_a_rule_may_give_them() {
    let mut page = Fake::new();
    let plain = page.add(0, "button", &[]);
    page.add_text(plain, "Go");
    let mut kept = Kept::default();
    assert_eq!(page.name(&mut kept, plain, None), "Go");
    assert_eq!(page.reads("style"), 0);

    page.generating = [Some(".icon".into()), Some(":-moz-thing".into())];
    let icon = page.add(0, "button", &[("class", "icon")]);
    page.add_text(icon, "Save");
    page.set_style(icon, "::before", "content", "\"★ \"");
    let mut kept = Kept::default();
    assert_eq!(page.name(&mut kept, icon, None), "★ Save");
    // The rules are read once a walk; an invalid selector may match, so `::after` is asked.
    assert_eq!(page.name(&mut kept, plain, None), "Go");
    assert_eq!(page.reads("generating"), 2, "once a walk");
    assert_eq!(page.reads(&format!("style {plain} ::before")), 0);
    assert_eq!(page.reads(&format!("style {plain} ::after")), 1);
}

#[test]
fn generated_words_of_skipped_content_are_not_read() {
    let mut page = Fake::new();
    page.generating = [Some(".icon".into()), None];
    let icon = page.add(0, "button", &[("class", "icon")]);
    page.set_style(icon, "::before", "content", "\"Secret\"");
    let mut kept = Kept::default();
    assert_eq!(page.name(&mut kept, icon, None), "Secret");
    page.set_style(icon, "", "content-visibility", "hidden");
    let mut kept = Kept::default();
    assert_eq!(page.name(&mut kept, icon, None), "");
}

#[test]
fn a_trees_labels_are_found_once_and_a_shadow_roots_apart() {
    let mut page = Fake::new();
    let name = page.add(0, "input", &[("id", "n")]);
    let mail = page.add(0, "input", &[("id", "m")]);
    for (to, words) in [("n", "Name"), ("m", "Mail"), ("n", "(required)")] {
        let label = page.add(0, "label", &[("for", to)]);
        page.add_text(label, words);
    }
    let shadow = page.shadow_root();
    let inner = page.add(shadow, "input", &[("id", "n")]);
    let label = page.add(shadow, "label", &[("for", "n")]);
    page.add_text(label, "Inner");

    let mut kept = Kept::default();
    assert_eq!(page.name(&mut kept, name, None), "Name (required)");
    assert_eq!(page.name(&mut kept, mail, None), "Mail");
    assert_eq!(page.name(&mut kept, inner, None), "Inner");
    assert_eq!(page.reads("labels in"), 2, "{:?}", page.log.all());
}

#[test]
fn a_fields_value_never_shows_a_password_and_shows_a_secret_by_its_name() {
    let mut page = Fake::new();
    let field = |page: &mut Fake, tag, kind: &str| {
        let field = page.add(0, tag, &[("type", kind)]);
        page.nodes[field].value = "hunter2".into();
        field
    };
    for (tag, kind, shown) in [
        ("input", "text", Some("hunter2")),
        ("input", "PassWord", None),
        ("textarea", "", Some("hunter2")),
        ("div", "", None),
    ] {
        let field = field(&mut page, tag, kind);
        let mut sources = Sources {
            page: &page,
            kept: &mut Kept::default(),
            root: None,
        };
        assert_eq!(sources.value(&field).as_deref(), shown, "{tag} {kind}");
    }
    let field = field(&mut page, "input", "text");
    page.nodes[field].held = Some("{{LOGIN}}".into());
    // A password holding a typed secret shows nothing either, not even the secret's name.
    let password = page.add(0, "input", &[("type", "password")]);
    page.nodes[password].held = Some("{{PASSWORD}}".into());
    let mut kept = Kept::default();
    let mut sources = Sources {
        page: &page,
        kept: &mut kept,
        root: None,
    };
    assert_eq!(sources.value(&field).as_deref(), Some("{{LOGIN}}"));
    assert_eq!(sources.value(&password), None);
    let password_read = format!("value of {password}");
    assert!(
        !page.log.all().contains(&password_read),
        "{:?}",
        page.log.all()
    );
}

impl Described for Fake {
    fn inner_text(&self, el: &usize) -> Option<String> {
        self.log.say(format!("innerText of {el}"));
        let words = self
            .descendants(*el)
            .into_iter()
            .map(|n| self.nodes[n].text.clone());
        (self.nodes[*el].tag != Some("svg")).then(|| words.collect())
    }
}

#[test]
fn an_element_is_described_by_its_name_its_words_a_buttons_value_or_its_title() {
    let mut page = Fake::new();
    let attrs = [
        ("id", "save"),
        ("class", " primary  big a b "),
        ("title", "T"),
    ];
    let button = page.add(0, "button", &attrs);
    page.add_text(button, "Save");
    assert_eq!(
        describe(&page, &button),
        "button#save.primary.big.a \"Save\""
    );
    // The words are not read where an `aria-label` names the element.
    let labelled = page.add(0, "div", &[("aria-label", "Menu")]);
    page.add_text(labelled, "≡");
    assert_eq!(describe(&page, &labelled), "div \"Menu\"");
    let read = format!("innerText of {labelled}");
    assert!(!page.log.all().contains(&read), "{:?}", page.log.all());
    // A field by its name (its label), not its value: a checkbox's is "on".
    let field = page.add(0, "input", &[("type", "text"), ("id", "mail")]);
    page.nodes[field].value = "ann@example.com".into();
    let label = page.add(0, "label", &[("for", "mail")]);
    page.add_text(label, "Email");
    assert_eq!(describe(&page, &field), "input#mail \"Email\"");
    let agree = page.add(0, "input", &[("type", "checkbox"), ("id", "agree")]);
    page.nodes[agree].value = "on".into();
    let label = page.add(0, "label", &[("for", "agree")]);
    page.add_text(label, "I agree");
    assert_eq!(describe(&page, &agree), "input#agree \"I agree\"");
    // An unnamed field by its words (a `<select>`'s options').
    let select = page.add(0, "select", &[]);
    let option = page.add(select, "option", &[]);
    page.add_text(option, "Red");
    assert_eq!(describe(&page, &select), "select \"Red\"");
    // An unnamed button input by its value, unless it holds a secret; white space is no word.
    let button = page.add(0, "input", &[("type", "button")]);
    page.nodes[button].value = "Go".into();
    assert_eq!(describe(&page, &button), "input \"Go\"");
    page.nodes[button].held = Some("{{PW}}".into());
    assert_eq!(describe(&page, &button), "input");
    let blank = page.add(0, "span", &[("title", "Close")]);
    page.add_text(blank, "  ");
    assert_eq!(describe(&page, &blank), "span \"Close\"");
    // Not HTML's input (`<svg><input>`): never asked for a value; an `<svg>` has no words.
    let foreign = page.add(0, "input", &[("xmlns", "svg")]);
    page.nodes[foreign].value = "v".into();
    assert_eq!(describe(&page, &foreign), "input");
    let svg = page.add(0, "svg", &[]);
    page.add_text(svg, "icon");
    assert_eq!(describe(&page, &svg), "svg");
}

#[test]
fn the_snapshot_reads_a_fields_type_first_and_a_passwords_value_only_for_its_dots() {
    let mut page = Fake::new();
    let text = page.add(0, "input", &[("type", "text")]);
    page.nodes[text].value = "ann".into();
    let area = page.add(0, "textarea", &[]);
    page.nodes[area].value = "note".into();
    page.nodes[area].held = Some("{{NOTE}}".into());
    let password = page.add(0, "input", &[("type", "PASSWORD")]);
    page.nodes[password].value = "hunter2".into();
    let div = page.add(0, "div", &[]);
    let text_value = field_value(&page, &text, "input");
    assert_eq!(text_value, Some(FieldValue::Text("ann".into())));
    assert_eq!(
        field_value(&page, &area, "textarea"),
        Some(FieldValue::Text("{{NOTE}}".into()))
    );
    assert_eq!(
        field_value(&page, &password, "input"),
        Some(FieldValue::Password)
    );
    assert_eq!(field_value(&page, &div, "div"), None);
    let reads = [
        "type of 1",
        "value of 1",
        "held 1",
        "value of 2",
        "held 2",
        "type of 3",
    ];
    assert_eq!(page.log.all(), reads, "a password's value unread");
    assert_eq!(shown_password(&page, &password).as_deref(), Some("••••"));
    page.nodes[password].held = Some("{{PW}}".into());
    assert_eq!(shown_password(&page, &password).as_deref(), Some("{{PW}}"));
    page.nodes[password].value.clear();
    assert_eq!(shown_password(&page, &password), None);
}

#[test]
fn what_the_walk_knows_of_the_element_named_is_not_asked_again() {
    let mut page = Fake::new();
    let button = page.add(0, "button", &[]);
    page.add_text(button, "Buy");
    let mut kept = Kept::default();
    let asked = |page: &Fake| {
        (
            page.reads("naming"),
            page.reads("shadow"),
            page.reads("text"),
        )
    };
    assert_eq!(page.name(&mut kept, button, None), "Buy");
    let (naming, shadow, text) = asked(&page);
    assert!(naming > 0 && shadow > 0);

    let facts = Facts::element(false, false);
    assert_eq!(page.name(&mut kept, button, Some(facts)), "Buy");
    assert_eq!(asked(&page), (naming, shadow, text + 1));
    // A shadow host's words are not its own text: the walk reads its shadow tree instead.
    let facts = Facts::element(false, true);
    page.nodes[button].children.clear();
    assert_eq!(page.name(&mut kept, button, Some(facts)), "");
    assert_eq!(asked(&page), (naming, shadow, text + 1));

    // What is known is the named element's alone: an element inside it is asked.
    let icon = page.add(button, "span", &[("aria-label", "Cart")]);
    let facts = Facts::element(false, false);
    assert_eq!(page.name(&mut kept, button, Some(facts)), "Cart");
    assert!(
        page.log.all().contains(&format!("naming {icon}")),
        "{:?}",
        page.log.all()
    );
}

#[test]
fn a_slot_and_an_element_holding_elements_are_not_read_in_one_go() {
    let mut page = Fake::new();
    let slot = page.add(0, "slot", &[]);
    page.add_text(slot, "fallback");
    let holder = page.add(0, "div", &[]);
    let mut sources = Sources {
        page: &page,
        kept: &mut Kept::default(),
        root: None,
    };
    assert_eq!(sources.only_text(&slot, "slot"), None);
    assert_eq!(sources.only_text(&holder, "div").as_deref(), Some(""));
    page.add(holder, "b", &[]);
    let mut sources = Sources {
        page: &page,
        kept: &mut Kept::default(),
        root: None,
    };
    assert_eq!(sources.only_text(&holder, "div"), None);
}

#[test]
fn a_box_shows_to_a_name_as_its_children_do() {
    let mut page = Fake::new();
    let cases = [
        ("contents", Shown::Rendered),
        ("contents-unseen", Shown::Invisible),
        ("invisible", Shown::Invisible),
        ("none", Shown::NotRendered),
        ("", Shown::Rendered),
    ];
    for (showing, shown) in cases {
        let el = page.add(0, "div", &[("data-showing", showing)]);
        let mut sources = Sources {
            page: &page,
            kept: &mut Kept::default(),
            root: None,
        };
        assert_eq!(sources.shown(&el), shown, "{showing}");
    }
}

#[test]
fn the_chosen_options_are_a_selects_else_those_marked_selected() {
    let mut page = Fake::new();
    let select = page.add(0, "select", &[]);
    let first = page.add(select, "option", &[]);
    page.nodes[select].selected = Some(vec![first]);
    let listbox = page.add(0, "div", &[("role", "listbox")]);
    page.add(listbox, "div", &[("aria-selected", "false")]);
    let chosen = page.add(listbox, "div", &[("aria-selected", "true")]);
    let mut sources = Sources {
        page: &page,
        kept: &mut Kept::default(),
        root: None,
    };
    assert_eq!(sources.selected(&select), [first]);
    assert_eq!(sources.selected(&listbox), [chosen]);
}

#[test]
fn another_namespaces_field_inside_a_name_is_never_asked_its_value() {
    // `<button>Pay <math><input></math></button>`: the browser throws on such a type or value.
    let mut page = Fake::new();
    let button = page.add(0, "button", &[]);
    page.add_text(button, "Pay ");
    for tag in ["input", "textarea"] {
        let foreign = page.add(button, tag, &[("xmlns", "math")]);
        page.nodes[foreign].value = "v".into();
    }
    assert_eq!(page.name(&mut Kept::default(), button, None), "Pay");
    // An HTML field there gives its value, as AccName's embedded control does.
    let field = page.add(button, "textarea", &[]);
    page.nodes[field].value = "4".into();
    assert_eq!(page.name(&mut Kept::default(), button, None), "Pay 4");
}

#[test]
fn an_element_the_page_removed_looks_up_no_id() {
    let mut page = Fake::new();
    let words = page.add(0, "span", &[("id", "words")]);
    page.add_text(words, "Shown words");
    let named = page.add(0, "button", &[("aria-labelledby", "words")]);
    page.add_text(named, "Own");
    assert_eq!(page.name(&mut Kept::default(), named, None), "Shown words");
    assert_eq!(page.reads("by id 0"), 1);
    // Removed: its own root, an element, with no `getElementById`.
    page.nodes[named].root = named;
    assert_eq!(page.name(&mut Kept::default(), named, None), "Own");
    assert_eq!(
        page.reads("by id"),
        1,
        "no id looked up in a removed element"
    );
}
