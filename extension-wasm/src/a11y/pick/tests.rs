use super::*;
use crate::a11y::{Elements, Namespace, role_of};

/// A frame of the tests' own: elements with a parent, attributes, a name and whether they
/// are shown. Selectors: `*`, a tag, `#id`, `tag.class`, `[a="v"]`, `tag[a="v"]`, and lists.
#[derive(Default)]
struct Fake {
    elements: Vec<El>,
    clock: std::cell::Cell<f64>,
}

struct El {
    tag: &'static str,
    attrs: Vec<(&'static str, &'static str)>,
    parent: Option<usize>,
    name: &'static str,
    rendered: bool,
    box_less: bool,
    /// The host of the shadow root this element is the top of.
    host: Option<usize>,
}

impl Fake {
    fn add(
        &mut self,
        parent: Option<usize>,
        tag: &'static str,
        attrs: &[(&'static str, &'static str)],
        name: &'static str,
    ) -> usize {
        self.elements.push(El {
            tag,
            attrs: attrs.to_vec(),
            parent,
            name,
            rendered: true,
            box_less: false,
            host: None,
        });
        self.elements.len() - 1
    }

    fn attr(&self, el: usize, name: &str) -> Option<&'static str> {
        let attrs = &self.elements[el].attrs;
        attrs.iter().find(|(k, _)| *k == name).map(|(_, v)| *v)
    }

    fn one(&self, el: usize, selector: &str) -> bool {
        let e = &self.elements[el];
        if selector == "*" {
            return true;
        }
        if let Some(id) = selector.strip_prefix('#') {
            return self.attr(el, "id") == Some(id);
        }
        if let Some((tag, class)) = selector.split_once('.') {
            let classes = self.attr(el, "class").unwrap_or_default();
            return e.tag == tag && classes.split_whitespace().any(|c| c == class);
        }
        if let Some((tag, rest)) = selector.split_once('[') {
            let (name, value) = rest
                .trim_end_matches(']')
                .split_once('=')
                .unwrap_or_default();
            let tag_fits = tag.is_empty() || e.tag == tag;
            return tag_fits && self.attr(el, name) == Some(value.trim_matches('"'));
        }
        e.tag == selector
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
        self.elements
            .iter()
            .filter(|e| e.parent == Some(*el))
            .count() as u32
    }
    fn text_content(&self, el: &usize) -> Option<String> {
        Some(self.elements[*el].name.to_owned())
    }
    fn input_type(&self, input: &usize) -> Option<String> {
        Some(self.attr(*input, "type").unwrap_or_default().to_owned())
    }

    fn is_html(&self, _: &usize) -> bool {
        true
    }
}

impl Frame for Fake {
    type Element = usize;

    fn rendered(&self, el: &usize) -> bool {
        self.elements[*el].rendered
    }
    fn box_less(&self, el: &usize) -> bool {
        assert!(
            !self.elements[*el].rendered,
            "a rendered element's box asked"
        );
        self.elements[*el].box_less
    }
    fn aria_hidden_in_tree(&self, el: &usize) -> bool {
        // The climb is asked only of what the role engine may match.
        let e = &self.elements[*el];
        assert!(
            e.rendered || e.box_less,
            "aria-hidden asked of {el}, unseen"
        );
        let mut at = Some(*el);
        while let Some(e) = at {
            if self.attr(e, "aria-hidden") == Some("true") {
                return true;
            }
            at = self.elements[e]
                .parent
                .filter(|_| self.elements[e].host.is_none());
        }
        false
    }
    fn host(&self, el: &usize) -> Option<usize> {
        let mut at = *el;
        while self.elements[at].host.is_none() {
            at = self.elements[at].parent?;
        }
        self.elements[at].host
    }
    fn tag(&self, el: &usize) -> String {
        self.elements[*el].tag.to_owned()
    }
    fn attribute(&self, el: &usize, name: &str) -> Option<String> {
        Elements::attribute(self, el, name)
    }
    fn role(&self, el: &usize, tag: &str) -> Option<&'static str> {
        role_of(self, el, tag, true, Namespace::Unread).0
    }
    /// Each name read takes the clock on 100 ms.
    fn full_name(&self, el: &usize) -> String {
        self.clock.set(self.clock.get() + 100.0);
        super::super::clean(self.elements[*el].name, MAX_LOCATOR_NAME)
    }
    fn parent(&self, el: &usize) -> Option<usize> {
        self.elements[*el].parent
    }
    fn select(&self, selector: &str) -> Vec<usize> {
        (0..self.elements.len())
            .filter(|e| self.matches(e, selector))
            .collect()
    }
    fn matches(&self, el: &usize, selector: &str) -> bool {
        // An id with a colon is no CSS as written: the selector is invalid and matches nothing.
        if selector.starts_with('#') && selector.contains(':') {
            return false;
        }
        selector.split(", ").any(|one| self.one(*el, one))
    }
    fn css_path(&self, el: &usize) -> String {
        match self.attr(*el, "id") {
            Some(id) => format!("#{id}"),
            None => self.elements[*el].tag.to_owned(),
        }
    }
    /// An iframe's frame id is its `data-frame` attribute.
    fn frame_id(&self, iframe: &usize) -> Option<u64> {
        self.attr(*iframe, "data-frame")?.parse().ok()
    }
    fn element_ref(&self, el: &usize) -> ElementRef {
        ElementRef {
            frame: 3,
            index: *el as u32,
        }
    }
    /// Each read of the clock 5 ms after the last.
    fn now_ms(&self) -> f64 {
        self.clock.set(self.clock.get() + 5.0);
        self.clock.get()
    }
}

fn role(role: &str, name: &str) -> Query {
    Query::Role {
        role: role.to_owned(),
        name: name.to_owned(),
        level: None,
    }
}

fn css(selector: &str) -> Query {
    Query::Css(selector.to_owned())
}

#[test]
fn an_element_alone_in_its_role_and_name_is_picked_by_them() {
    let mut f = Fake::default();
    let body = f.add(None, "body", &[], "");
    let save = f.add(Some(body), "button", &[], "Save");
    f.add(Some(body), "button", &[], "Cancel");
    let pick = element(&f, &save).expect("picked");
    assert_eq!(pick.query, role("button", "Save"));
    assert_eq!((pick.scope, pick.nth, pick.matches), (None, None, 1));
}

#[test]
fn one_of_several_is_narrowed_to_the_row_that_holds_it_alone_else_numbered() {
    let mut f = Fake::default();
    let body = f.add(None, "body", &[], "");
    let table = f.add(Some(body), "table", &[], "");
    let milk = f.add(Some(table), "tr", &[], "Milk");
    let delete_milk = f.add(Some(milk), "button", &[], "Delete");
    let eggs = f.add(Some(table), "tr", &[], "Eggs");
    let delete_eggs = f.add(Some(eggs), "button", &[], "Delete");
    let pick = element(&f, &delete_eggs).expect("picked");
    assert_eq!(pick.query, role("button", "Delete"));
    assert_eq!(pick.scope, Some(role("row", "Eggs")));
    assert_eq!((pick.nth, pick.matches), (None, 1));
    // Two rows of one name tell nothing apart: the position does.
    f.elements[eggs].name = "Milk";
    let pick = element(&f, &delete_eggs).expect("picked");
    assert_eq!((pick.scope, pick.nth, pick.matches), (None, Some(1), 2));
    let pick = element(&f, &delete_milk).expect("picked");
    assert_eq!(pick.nth, Some(0));
}

#[test]
fn what_get_by_role_cannot_find_is_picked_by_css_its_own_attributes_first() {
    let mut f = Fake::default();
    let body = f.add(None, "body", &[], "");
    let hidden = f.add(Some(body), "button", &[("data-testid", "later")], "Later");
    f.elements[hidden].rendered = false;
    let pick = element(&f, &hidden).expect("picked");
    assert_eq!(pick.query, css("[data-testid=\"later\"]"));
    assert_eq!(pick.matches, 1);
    // Unnamed: its id, else a class only it has, else its path numbered.
    let icon = f.add(
        Some(body),
        "button",
        &[("id", "menu"), ("class", "icon")],
        "",
    );
    assert_eq!(element(&f, &icon).expect("picked").query, css("#menu"));
    let a = f.add(Some(body), "span", &[("class", "x only")], "");
    f.add(Some(body), "span", &[("class", "x")], "");
    assert_eq!(element(&f, &a).expect("picked").query, css("span.only"));
    let b = f.add(Some(body), "span", &[("class", "x")], "");
    let pick = element(&f, &b).expect("picked");
    assert_eq!(
        (pick.query, pick.nth, pick.matches),
        (css("span"), Some(2), 3)
    );
}

#[test]
fn an_id_css_cannot_say_is_refused_not_guessed() {
    let mut f = Fake::default();
    let body = f.add(None, "body", &[], "");
    let react = f.add(Some(body), "div", &[("id", ":r1:")], "");
    let error = element(&f, &react).expect_err("no selector");
    assert_eq!(error.code, ErrorCode::ElementNotFound);
}

#[test]
fn a_multiple_select_is_a_listbox_and_a_headings_level_is_read() {
    let mut f = Fake::default();
    let body = f.add(None, "body", &[], "");
    let tags = f.add(Some(body), "select", &[("multiple", "")], "Tags");
    let size = f.add(Some(body), "select", &[("size", " 4 ")], "Sizes");
    let one = f.add(Some(body), "select", &[("size", "1")], "Country");
    let title = f.add(
        Some(body),
        "div",
        &[("role", "heading"), ("aria-level", "3")],
        "Title",
    );
    let h2 = f.add(Some(body), "h2", &[], "Part");
    let query = |el| element(&f, &el).expect("picked").query;
    assert_eq!(query(tags), role("listbox", "Tags"));
    assert_eq!(query(size), role("listbox", "Sizes"));
    assert_eq!(query(one), role("combobox", "Country"));
    let level = |level| Query::Role {
        role: "heading".into(),
        name: String::new(),
        level: Some(level),
    };
    let leveled = |q: Query| match q {
        Query::Role { level: l, .. } => l,
        Query::Css(_) => None,
    };
    assert_eq!(leveled(query(title)), leveled(level(3)));
    assert_eq!(leveled(query(h2)), leveled(level(2)));
}

#[test]
fn a_role_search_counts_every_match_and_lists_the_first() {
    let mut f = Fake::default();
    let body = f.add(None, "body", &[], "");
    for _ in 0..3 {
        f.add(Some(body), "a", &[("href", "/")], "Home");
    }
    f.add(Some(body), "a", &[("href", "/x")], "Other");
    let hidden = f.add(Some(body), "a", &[("href", "/")], "Home");
    f.elements[hidden].rendered = false;
    let (found, total) = by_role_and_name(&f, "link", Some("  Home "), 2);
    assert_eq!(total, 3);
    assert_eq!(
        found
            .iter()
            .map(|(e, n)| (*e, n.as_str()))
            .collect::<Vec<_>>(),
        [(1, "Home"), (2, "Home")]
    );
    let (_, all) = by_role_and_name(&f, "link", None, 0);
    assert_eq!(all, 4);
}

#[test]
fn a_role_search_answers_refs_cut_names_the_child_frames_and_its_time() {
    let mut f = Fake::default();
    let body = f.add(None, "body", &[], "");
    let long = "Home ".repeat(30);
    let long: &'static str = long.leak().trim_end();
    f.add(Some(body), "a", &[("href", "/")], long);
    f.add(Some(body), "a", &[("href", "/")], "Home");
    // The child frames in tree order; a frame the browser gives no id is left out.
    f.add(Some(body), "iframe", &[("data-frame", "9")], "");
    f.add(Some(body), "iframe", &[], "");
    f.add(Some(body), "frame", &[("data-frame", "7")], "");
    let found = found(&f, "link", None, 1, 0.0);
    assert_eq!(found.total, 2);
    assert_eq!(found.matches.len(), 1);
    let first = &found.matches[0];
    assert_eq!(
        first.element_ref.to_string(),
        ElementRef { frame: 3, index: 1 }.to_string()
    );
    assert_eq!((first.role.as_str(), first.context.as_str()), ("link", ""));
    assert_eq!(first.name.chars().count(), 80);
    assert!(long.starts_with(first.name.trim_end_matches('…')));
    assert_eq!(found.frames, [9, 7]);
    let searched = &found.searched;
    // The clock read after both names.
    assert_eq!((searched.chars, searched.frames, searched.ms), (0, 1, 205));
    assert_eq!(searched.stopped, None);
}

#[test]
fn a_child_frame_is_found_by_its_frame_id_and_picked_among_the_iframes() {
    let mut f = Fake::default();
    let body = f.add(None, "body", &[], "");
    f.add(Some(body), "iframe", &[("data-frame", "4")], "");
    let second = f.add(Some(body), "frame", &[("data-frame", "8")], "");
    let pick = child_frame(&f, 8).unwrap();
    assert_eq!(pick, iframe(&f, &[1, second], &second));
    let e = child_frame(&f, 5).unwrap_err();
    assert_eq!(e.code, ErrorCode::ElementNotFound);
    assert_eq!(e.message, "the frame's iframe left the page");
    assert_eq!(e.hint.as_deref(), Some("call firefox_snapshot again"));
}

#[test]
fn an_iframe_is_picked_by_its_title_and_numbered_among_its_kind() {
    let mut f = Fake::default();
    let body = f.add(None, "body", &[], "");
    let pay = f.add(Some(body), "iframe", &[("title", "Pay")], "");
    let ad = f.add(Some(body), "iframe", &[], "");
    let ad2 = f.add(Some(body), "iframe", &[], "");
    let frames = [pay, ad, ad2];
    let pick = iframe(&f, &frames, &pay);
    assert_eq!(
        (pick.query, pick.nth, pick.matches),
        (css("iframe[title=\"Pay\"]"), None, 1)
    );
    let pick = iframe(&f, &frames, &ad2);
    assert_eq!(
        (pick.query, pick.nth, pick.matches),
        (css("iframe"), Some(2), 3)
    );
}

#[test]
fn a_role_search_skips_what_is_not_rendered_or_inside_aria_hidden_across_shadow_roots() {
    let mut f = Fake::default();
    let body = f.add(None, "body", &[], "");
    let shown = f.add(Some(body), "button", &[], "Go");
    // `display: contents`: no box, but shown.
    let contents = f.add(Some(body), "button", &[], "Go");
    f.elements[contents].rendered = false;
    f.elements[contents].box_less = true;
    let gone = f.add(Some(body), "button", &[], "Go");
    f.elements[gone].rendered = false;
    let hidden = f.add(Some(body), "div", &[("aria-hidden", "true")], "");
    f.add(Some(hidden), "button", &[], "Go");
    // A shadow tree whose host is inside `aria-hidden`: hidden too, however deep.
    let host = f.add(Some(hidden), "x-menu", &[], "");
    let top = f.add(Some(host), "div", &[], "");
    f.elements[top].host = Some(host);
    f.add(Some(top), "button", &[], "Go");
    // A shadow tree under a shown host: its own `aria-hidden="false"` hides nothing.
    let open = f.add(Some(body), "x-menu", &[], "");
    let top = f.add(Some(open), "div", &[("aria-hidden", "false")], "");
    f.elements[top].host = Some(open);
    let inner = f.add(Some(top), "button", &[], "Go");
    let (found, total) = by_role_and_name(&f, "button", Some("Go"), 9);
    let found: Vec<usize> = found.into_iter().map(|(e, _)| e).collect();
    assert_eq!(found, [shown, contents, inner]);
    assert_eq!(total, 3);
}
