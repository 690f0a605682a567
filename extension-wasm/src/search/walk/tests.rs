use std::cell::Cell;

use claudezilla_protocol::args::ElementRef;

use super::*;

/// A page of the tests' own: elements by index, each with its tag, what it shows and what an
/// agent could act on it as.
#[derive(Default)]
struct Fake {
    elements: Vec<FakeEl>,
    /// Every clock read moves the clock on by `tick` ms.
    clock: Cell<f64>,
    tick: f64,
}

#[derive(Default)]
struct FakeEl {
    tag: &'static str,
    hidden: bool,
    /// `display: contents`: no box, so not visible, but what it holds shows.
    contents: bool,
    /// Its own `visibility` (`Some(false)`: hidden), else its parent's.
    visibility: Option<bool>,
    attributes: Vec<&'static str>,
    children: Vec<Node>,
    shadow: Option<Vec<Node>>,
    slotted: Vec<Node>,
    parent: Option<usize>,
    /// The host of the shadow root this element is at the top of.
    host: Option<usize>,
    role: Option<&'static str>,
    name: &'static str,
    frame: Option<u64>,
}

#[derive(Clone)]
enum Node {
    El(usize),
    /// Its words, and the element it is a child of (none at the top of a shadow root).
    Text(String, Option<usize>),
    Comment,
}

impl Fake {
    /// A new element under `parent` (in its light children), as `tag`.
    fn el(&mut self, tag: &'static str, parent: Option<usize>) -> usize {
        let id = self.elements.len();
        self.elements.push(FakeEl {
            tag,
            parent,
            ..FakeEl::default()
        });
        if let Some(p) = parent {
            self.elements[p].children.push(Node::El(id));
        }
        id
    }

    fn text(&mut self, parent: usize, words: &str) {
        let node = Node::Text(words.into(), Some(parent));
        self.elements[parent].children.push(node);
    }

    /// A control the snapshot shows as `role`, named `name`.
    fn control(
        &mut self,
        tag: &'static str,
        parent: usize,
        role: &'static str,
        name: &'static str,
    ) -> usize {
        let id = self.el(tag, Some(parent));
        self.elements[id].role = Some(role);
        self.elements[id].name = name;
        id
    }

    fn kids(&self, nodes: &[Node]) -> Vec<Child<usize, (String, Option<usize>)>> {
        nodes
            .iter()
            .map(|n| match n {
                Node::El(id) => Child::Element(*id),
                Node::Text(words, parent) => Child::Text((words.clone(), *parent)),
                Node::Comment => Child::Other,
            })
            .collect()
    }
}

impl Page for Fake {
    type Element = usize;
    type Text = (String, Option<usize>);

    fn tag(&self, el: &usize) -> String {
        self.elements[*el].tag.into()
    }
    fn showing(&self, el: &usize) -> Showing {
        let e = &self.elements[*el];
        let mut at = Some(*el);
        let seen = loop {
            let Some(i) = at else { break true };
            let up = &self.elements[i];
            match up.visibility {
                Some(seen) => break seen,
                None => at = up.parent.or(up.host),
            }
        };
        match (e.hidden, e.contents, seen) {
            (true, _, _) => Showing::NotRendered,
            (false, true, seen) => Showing::BoxLess { seen },
            (false, false, true) => Showing::Rendered,
            (false, false, false) => Showing::Invisible,
        }
    }
    fn has_hidden_attribute(&self, el: &usize) -> bool {
        self.elements[*el].attributes.contains(&"hidden")
    }
    fn is_open(&self, details: &usize) -> bool {
        self.elements[*details].attributes.contains(&"open")
    }
    fn frame_id(&self, iframe: &usize) -> Option<u64> {
        self.elements[*iframe].frame
    }
    fn children(&self, el: &usize) -> Vec<Child<usize, Self::Text>> {
        let e = &self.elements[*el];
        self.kids(e.shadow.as_ref().unwrap_or(&e.children))
    }
    fn slotted(&self, slot: &usize) -> Vec<Child<usize, Self::Text>> {
        self.kids(&self.elements[*slot].slotted)
    }
    fn data(&self, text: &Self::Text, room: usize) -> (String, bool) {
        let words = &text.0;
        match words.len() <= room {
            true => (words.clone(), false),
            false => (words[..room].into(), true),
        }
    }
    fn parent(&self, text: &Self::Text) -> Option<usize> {
        text.1
    }
    fn parent_or_host(&self, el: &usize) -> Option<usize> {
        let e = &self.elements[*el];
        e.parent.or(e.host)
    }
    /// A `clickable` role stands for an element acted on that has no role; a heading is not
    /// acted on.
    fn role(&self, el: &usize) -> (Option<&'static str>, bool) {
        match self.elements[*el].role {
            Some("clickable") => (None, true),
            Some("heading") => (Some("heading"), false),
            role => (role, role.is_some()),
        }
    }
    fn element_ref(&self, el: &usize) -> ElementRef {
        ElementRef {
            frame: 0,
            index: *el as u32,
        }
    }
    fn name(&self, el: &usize, how: Named) -> String {
        let name = self.elements[*el].name;
        match how {
            Named::Shown => name.into(),
            Named::Clickable => format!("{name} (by its words)"),
            Named::Hidden => panic!("a match is shown"),
        }
    }
    fn now_ms(&self) -> f64 {
        let now = self.clock.get() + self.tick;
        self.clock.set(now);
        now
    }
}

fn text(t: &str) -> Words {
    Words::Text(t.into())
}

fn search(page: &Fake, needle: &str, limit: u32) -> Found {
    find(page, Some(&0), &text(needle), limit, u64::MAX).unwrap()
}

/// Matches as (ref index, role, name, context).
fn listed(found: &Found) -> Vec<(u32, &str, &str, &str)> {
    found
        .matches
        .iter()
        .map(|m| {
            let at = (m.element_ref.index, m.role.as_str());
            (at.0, at.1, m.name.as_str(), m.context.as_str())
        })
        .collect()
}

#[test]
fn blocks_are_lines_inline_runs_join_and_hidden_blocks_and_scripts_are_left_out() {
    let mut page = Fake::default();
    let body = page.el("body", None);
    let p = page.el("p", Some(body));
    page.text(p, "Pay ");
    let b = page.el("b", Some(p));
    page.text(b, "  the  bill ");
    page.text(p, "today");
    let hidden = page.el("div", Some(body));
    page.elements[hidden].hidden = true;
    page.text(hidden, "the bill hidden");
    let script = page.el("script", Some(body));
    page.text(script, "the bill in code");
    page.elements[body].children.push(Node::Comment);
    let tail = page.el("div", Some(body));
    page.text(tail, "Another bill");

    let found = search(&page, "bill", 10);
    assert_eq!(found.total, 2);
    assert_eq!(
        listed(&found),
        [
            (b as u32, "text", "", "Pay the «bill» today"),
            (tail as u32, "text", "", "Another «bill»"),
        ]
    );
    assert_eq!(
        found.searched.chars,
        "Pay the bill today\nAnother bill\n".len() as u64
    );
    assert_eq!(found.searched.stopped, None);
}

#[test]
fn a_match_is_named_by_the_nearest_control_around_it() {
    let mut page = Fake::default();
    let body = page.el("body", None);
    // A role not acted on (a heading's) names nothing: the link around it does.
    let link = page.control("a", body, "link", "Billing settings");
    let heading = page.control("h2", link, "heading", "Billing");
    page.text(heading, "Billing");
    let card = page.control("div", body, "clickable", "Open");
    page.text(card, "Billing history");
    let found = search(&page, "billing", 10);
    assert_eq!(
        listed(&found),
        [
            (link as u32, "link", "Billing settings", "«Billing»"),
            (
                card as u32,
                "clickable",
                "Open (by its words)",
                "«Billing» history"
            ),
        ]
    );
}

#[test]
fn a_control_further_than_the_climb_does_not_name_the_match() {
    let mut page = Fake::default();
    let body = page.el("body", None);
    let button = page.control("button", body, "button", "Far");
    let mut at = button;
    for _ in 0..MAX_CLIMB {
        at = page.el("span", Some(at));
    }
    page.text(at, "deep words");
    let found = search(&page, "deep", 10);
    assert_eq!(listed(&found), [(at as u32, "text", "", "«deep» words")]);

    // One level less, and the button is reached.
    let mut page = Fake::default();
    let body = page.el("body", None);
    let button = page.control("button", body, "button", "Near");
    let mut at = button;
    for _ in 0..MAX_CLIMB - 1 {
        at = page.el("span", Some(at));
    }
    page.text(at, "deep words");
    let found = search(&page, "deep", 10);
    assert_eq!(listed(&found)[0].0, button as u32);
}

#[test]
fn shadow_trees_and_slots_are_read_as_shown() {
    let mut page = Fake::default();
    let body = page.el("body", None);
    // <my-button>Save<b>now</b></my-button>, its shadow: <button>[slot]</button> and a text.
    let host = page.el("my-button", Some(body));
    page.text(host, "Save");
    let bold = page.el("b", Some(host));
    page.text(bold, "now");
    let inner = page.el("button", None);
    page.elements[inner].host = Some(host);
    page.elements[inner].role = Some("button");
    page.elements[inner].name = "Save now";
    let slot = page.el("slot", Some(inner));
    // A slot has no box of its own (as every `<slot>` by default).
    page.elements[slot].contents = true;
    page.elements[slot].slotted = vec![Node::Text("Save ".into(), Some(host)), Node::El(bold)];
    page.elements[host].shadow = Some(vec![
        Node::El(inner),
        Node::Text(" shadow words".into(), None),
    ]);
    let found = find(
        &page,
        Some(&0),
        &Words::Pattern("Save|now|shadow".into()),
        10,
        u64::MAX,
    )
    .unwrap();
    // Slotted nodes belong to their light parent; the shadow root's own text to its host.
    assert_eq!(
        listed(&found)
            .iter()
            .map(|m| (m.0, m.1))
            .collect::<Vec<_>>(),
        [
            (host as u32, "text"),
            (bold as u32, "text"),
            (host as u32, "text")
        ]
    );
    assert!(
        found.matches[0].context.starts_with("«Save» now"),
        "{}",
        found.matches[0].context
    );

    // An empty slot shows its own children.
    let mut page = Fake::default();
    let body = page.el("body", None);
    let slot = page.el("slot", Some(body));
    page.elements[slot].contents = true;
    page.text(slot, "fallback words");
    assert_eq!(search(&page, "fallback", 10).total, 1);
}

#[test]
fn frames_are_listed_for_the_background_not_read() {
    let mut page = Fake::default();
    let body = page.el("body", None);
    for id in [11, 12] {
        let frame = page.el("iframe", Some(body));
        page.elements[frame].frame = Some(id);
        page.text(frame, "fallback of the frame");
    }
    let unloaded = page.el("iframe", Some(body));
    page.text(unloaded, "fallback");
    let found = search(&page, "fallback", 10);
    assert_eq!(found.total, 0);
    assert_eq!(found.frames, [11, 12]);
}

#[test]
fn the_list_stops_at_its_limit_while_every_match_is_counted() {
    let mut page = Fake::default();
    let body = page.el("body", None);
    for _ in 0..5 {
        let p = page.el("p", Some(body));
        page.text(p, "item");
    }
    let found = search(&page, "item", 2);
    assert_eq!((found.matches.len(), found.total), (2, 5));
}

#[test]
fn a_frame_longer_than_the_bound_is_cut_and_says_so() {
    let mut page = Fake::default();
    let body = page.el("body", None);
    let p = page.el("p", Some(body));
    page.text(p, &"a".repeat(MAX_TEXT + 10));
    let after = page.el("p", Some(body));
    page.text(after, "never read");
    let found = search(&page, "never", 10);
    assert_eq!(found.total, 0);
    assert_eq!(found.searched.chars, MAX_TEXT as u64);
    assert_eq!(found.searched.stopped, Some(Stop::Size.words()));
}

#[test]
fn a_search_out_of_time_stops_its_walk_and_says_so() {
    let mut page = Fake {
        tick: 10.0,
        ..Fake::default()
    };
    let body = page.el("body", None);
    for _ in 0..50 {
        let p = page.el("p", Some(body));
        page.text(p, "late");
    }
    // The clock starts at 10 and moves 10 a read: the deadline comes within the walk.
    let found = find(&page, Some(&0), &text("late"), 100, 200).unwrap();
    assert!(found.total < 50, "{}", found.total);
    assert_eq!(found.searched.stopped, Some(Stop::Time.words()));
}

#[test]
fn a_typed_secret_is_never_matched() {
    use claudezilla_protocol::args::FilledSecret;
    let secret: FilledSecret =
        serde_json::from_value(serde_json::json!({"name": "PASSWORD", "value": "hunter22"}))
            .unwrap();
    crate::hidden::learn([&secret]);
    let mut page = Fake::default();
    let body = page.el("body", None);
    let p = page.el("p", Some(body));
    page.text(p, "the password is hunter22, and after it the end");
    let found = search(&page, "hunter", 10);
    assert_eq!(found.total, 0);
    // What follows the secret is still found where it is.
    let found = search(&page, "after", 10);
    assert_eq!(found.total, 1);
    assert!(!found.matches[0].context.contains("hunter22"));
}

#[test]
fn a_page_without_a_root_finds_nothing() {
    let page = Fake::default();
    let found = find(&page, None, &text("x"), 10, u64::MAX).unwrap();
    assert_eq!((found.total, found.searched.chars), (0, 0));
}

#[test]
fn what_a_box_less_element_holds_runs_on_with_its_neighbours() {
    let mut page = Fake::default();
    let body = page.el("body", None);
    let p = page.el("p", Some(body));
    page.text(p, "Total:");
    let wrapper = page.el("div", Some(p));
    page.elements[wrapper].contents = true;
    page.text(wrapper, " 42 items");
    let card = page.el("div", Some(body));
    page.elements[card].contents = true;
    let inner = page.el("p", Some(card));
    page.text(inner, "in its own line");
    // Inside a hidden block, a box-less element shows nothing: the walk never enters it.
    let hidden = page.el("div", Some(body));
    page.elements[hidden].hidden = true;
    let gone = page.el("div", Some(hidden));
    page.elements[gone].contents = true;
    page.text(gone, "hidden all the same");
    let found = find(
        &page,
        Some(&0),
        &Words::Pattern("Total|own|hidden".into()),
        10,
        u64::MAX,
    )
    .unwrap();
    let contexts: Vec<&str> = found.matches.iter().map(|m| m.context.as_str()).collect();
    assert_eq!(contexts, ["«Total»: 42 items", "in its «own» line"]);
}

#[test]
fn what_style_hides_is_not_searched_an_inline_element_or_text_made_invisible() {
    let mut page = Fake::default();
    let body = page.el("body", None);
    let p = page.el("p", Some(body));
    page.text(p, "shown words");
    // A stylesheet's `display: none` on a span, as on a block.
    let span = page.el("span", Some(p));
    page.elements[span].hidden = true;
    page.text(span, "gone words");
    // `visibility: hidden`: its own words are not seen, a child made visible again is.
    let menu = page.el("div", Some(body));
    page.elements[menu].visibility = Some(false);
    page.text(menu, "invisible words");
    let inner = page.el("b", Some(menu));
    page.text(inner, "invisible too");
    let back = page.el("span", Some(menu));
    page.elements[back].visibility = Some(true);
    page.text(back, "visible words again");
    let pattern = Words::Pattern("words|too".into());
    let found = find(&page, Some(&0), &pattern, 10, u64::MAX).unwrap();
    let contexts: Vec<&str> = found.matches.iter().map(|m| m.context.as_str()).collect();
    assert_eq!(contexts, ["shown «words»", "visible «words» again"]);
}

#[test]
fn a_closed_details_shows_its_summary_and_the_hidden_attribute_hides_whatever_the_style() {
    let mut page = Fake::default();
    let body = page.el("body", None);
    let closed = page.el("details", Some(body));
    let summary = page.el("summary", Some(closed));
    page.text(summary, "Shipping note");
    // Text right in the closed details, and in an element: neither is rendered.
    page.text(closed, "note inside");
    let inner = page.el("p", Some(closed));
    page.text(inner, "note in a paragraph");
    let second = page.el("summary", Some(closed));
    page.text(second, "note in a second summary");
    let open = page.el("details", Some(body));
    page.elements[open].attributes.push("open");
    let open_summary = page.el("summary", Some(open));
    page.text(open_summary, "Open");
    page.text(open, "note shown");
    // `<span hidden>` is never asked its style; `hidden=until-found` keeps a box (visible)
    // while its content is not rendered.
    let span = page.el("span", Some(body));
    page.elements[span].attributes.push("hidden");
    page.text(span, "note in a hidden span");
    let until = page.el("div", Some(body));
    page.elements[until].attributes.push("hidden");
    page.text(until, "note until found");

    let found = search(&page, "note", 10);
    let contexts: Vec<_> = listed(&found).into_iter().map(|m| m.3).collect();
    assert_eq!(contexts, ["Shipping «note»", "«note» shown"]);
}
