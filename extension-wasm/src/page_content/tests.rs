use claudezilla_protocol::args::{FilledSecret, SecretName};
use claudezilla_protocol::reply::frame_marker;

use super::*;
use crate::markdown::tests::Page;
use crate::markdown::{Shown, Source};
use crate::showing::Showing;

/// A document of the tests' own: the Markdown tests' page, its body, the elements found by
/// `#id`, and the elements on a path to a shadow host or a frame.
#[derive(Default)]
struct Doc {
    page: Page,
    body: Option<usize>,
    root: Option<usize>,
    ids: Vec<(&'static str, usize)>,
    paths: Vec<usize>,
    title: &'static str,
}

impl Source for Doc {
    type Element = usize;
    fn tag(&self, el: &usize) -> String {
        self.page.tag(el)
    }
    fn has_attribute(&self, el: &usize, name: &str) -> bool {
        self.page.has_attribute(el, name)
    }
    fn attribute(&self, el: &usize, name: &str) -> Option<String> {
        self.page.attribute(el, name)
    }
    fn child_element_count(&self, el: &usize) -> u32 {
        self.page.child_element_count(el)
    }
    fn text_content(&self, el: &usize) -> String {
        self.page.text_content(el)
    }
    fn inner_text(&self, el: &usize) -> Option<String> {
        self.page.inner_text(el)
    }
    fn href(&self, el: &usize) -> Option<String> {
        self.page.href(el)
    }
    fn showing(&self, el: &usize) -> Showing {
        self.page.showing(el)
    }
    fn children(&self, el: &usize, read_shadow: bool) -> Vec<Shown<usize>> {
        self.page.children(el, read_shadow)
    }
    fn child_elements(&self, el: &usize) -> Vec<usize> {
        self.page.child_elements(el)
    }
    fn slotted(&self, slot: &usize) -> Vec<Shown<usize>> {
        self.page.slotted(slot)
    }
    fn frame_id(&self, iframe: &usize) -> Option<u64> {
        self.page.frame_id(iframe)
    }
}

impl Document for Doc {
    type Paths = Vec<usize>;

    fn query(&self, selector: &str) -> Result<Option<usize>, ErrorBody> {
        let id = selector
            .strip_prefix('#')
            .ok_or_else(|| ErrorBody::new(ErrorCode::InvalidArgument, format!("bad {selector}")))?;
        Ok(self.ids.iter().find(|(i, _)| *i == id).map(|(_, el)| *el))
    }
    fn not_found(&self, selector: &str) -> ErrorBody {
        ErrorBody::new(ErrorCode::ElementNotFound, format!("none is {selector}"))
    }
    fn body(&self) -> Option<usize> {
        self.body
    }
    fn document_element(&self) -> Option<usize> {
        self.root
    }
    fn hidden_paths(&self, _: &usize) -> Vec<usize> {
        self.paths.clone()
    }
    fn is_on(&self, paths: &Vec<usize>, el: &usize) -> bool {
        paths.contains(el)
    }
    fn none_on(&self, paths: &Vec<usize>) -> bool {
        paths.is_empty()
    }
    fn has_hidden_attribute(&self, el: &usize) -> bool {
        self.page.has_attribute(el, "hidden")
    }
    fn outer_html(&self, el: &usize) -> String {
        format!("<{0}>…</{0}>", self.page.tag(el))
    }
    fn url(&self) -> String {
        "https://shop.test/?pw=hunter2-long".into()
    }
    fn title(&self) -> String {
        self.title.into()
    }
}

/// A body holding a heading, words and a paragraph (by id `note`) over several lines.
fn shop() -> Doc {
    let mut page = Page::default();
    let title = page.words("Shop");
    let h1 = page.add("h1", &[], &[title]);
    let words = page.words("Pick\n\n\n\none ");
    let p = page.add("p", &[], &[words]);
    let body = page.add("body", &[], &[h1, p]);
    Doc {
        page,
        body: Some(body),
        ids: vec![("note", p)],
        title: "Shop",
        ..Doc::default()
    }
}

fn read(doc: &Doc, selector: Option<&str>, format: ContentFormat) -> PageContent {
    content(doc, selector, 1_000, format).expect("read")
}

#[test]
fn the_body_is_read_whole_by_inner_text_and_tidied() {
    let doc = shop();
    let text = read(&doc, None, ContentFormat::Text);
    assert_eq!(text.text, "ShopPick\n\none");
    assert_eq!((text.total_length, text.truncated), (13, false));
    assert_eq!(text.title, "Shop");
    let md = read(&doc, None, ContentFormat::Markdown);
    assert_eq!(md.text, "# Shop\n\nPick one");
    let part = read(&doc, Some("#note"), ContentFormat::Html);
    assert_eq!(part.text, "<p>…</p>");
}

#[test]
fn a_root_without_inner_text_is_read_by_its_text_content() {
    let mut doc = shop();
    let words = doc.page.words("chart");
    let svg = doc
        .page
        .add("svg", &[("text-content", "chart's textContent")], &[words]);
    doc.ids.push(("chart", svg));
    let text = read(&doc, Some("#chart"), ContentFormat::Text);
    assert_eq!(text.text, "chart's textContent");
}

#[test]
fn shadow_roots_and_frames_on_the_way_are_read_node_by_node() {
    let mut doc = shop();
    let frame = doc.page.add("iframe", &[("frame", "7")], &[]);
    let inner = doc.page.words("inside");
    let host = doc.page.add("x-card", &[], &[]);
    doc.page.shadows.push((host, vec![inner]));
    let body = doc.page.add("body", &[], &[host, frame]);
    doc.body = Some(body);
    doc.paths = vec![body, host];
    let text = read(&doc, None, ContentFormat::Text);
    assert_eq!(text.text, format!("inside\n\n{}", frame_marker(0)));
    assert_eq!(text.frames, [7]);
    let md = read(&doc, None, ContentFormat::Markdown);
    assert_eq!(md.frames, [7]);
    assert!(md.text.starts_with("inside"), "{}", md.text);
    // HTML is the markup as it is: no frame is read into it.
    let html = read(&doc, None, ContentFormat::Html);
    assert!(html.frames.is_empty());
}

#[test]
fn a_part_the_page_does_not_render_says_nothing_but_its_html() {
    let mut doc = shop();
    let words = doc.page.words("ghost");
    let gone = doc.page.add("div", &[("style", "display:none")], &[words]);
    let words = doc.page.words("unseen");
    let hidden = doc.page.add("div", &[("hidden", "")], &[words]);
    doc.ids.extend([("gone", gone), ("hidden", hidden)]);
    for id in ["#gone", "#hidden"] {
        assert_eq!(read(&doc, Some(id), ContentFormat::Text).text, "", "{id}");
        assert_eq!(read(&doc, Some(id), ContentFormat::Markdown).text, "");
        assert_eq!(
            read(&doc, Some(id), ContentFormat::Html).text,
            "<div>…</div>"
        );
    }
}

#[test]
fn the_root_is_the_selectors_else_the_body_else_the_documents() {
    let mut doc = shop();
    let missing = content(&doc, Some("#none"), 10, ContentFormat::Text).unwrap_err();
    assert_eq!(missing.message, "none is #none");
    let invalid = content(&doc, Some("p"), 10, ContentFormat::Text).unwrap_err();
    assert_eq!(invalid.code, ErrorCode::InvalidArgument);
    let root = doc.page.add("html", &[], &[]);
    doc.body = None;
    doc.root = Some(root);
    assert_eq!(read(&doc, None, ContentFormat::Html).text, "<html>…</html>");
    doc.root = None;
    let none = content(&doc, None, 10, ContentFormat::Text).unwrap_err();
    assert_eq!(
        (none.code, none.message.as_str()),
        (ErrorCode::PageError, "the page has no body yet")
    );
}

#[test]
fn secrets_are_hidden_before_the_cut() {
    crate::hidden::learn([&FilledSecret {
        name: SecretName::try_from("PW".to_owned()).unwrap(),
        value: "hunter2-long".into(),
        sites: Vec::new(),
    }]);
    let mut doc = shop();
    let words = doc.page.words("pw hunter2-long");
    let p = doc.page.add("p", &[], &[words]);
    doc.ids.push(("pw", p));
    doc.title = "Shop for hunter2-long";
    let cut = content(&doc, Some("#pw"), 8, ContentFormat::Text).unwrap();
    assert_eq!((cut.text.as_str(), cut.truncated), ("pw <secr", true));
    assert_eq!(cut.total_length, "pw <secret:PW>".len() as u32);
    assert_eq!(cut.url, "https://shop.test/?pw=<secret:PW>");
    assert_eq!(cut.title, "Shop for <secret:PW>");
}

/// One element as the tests inspect it.
struct Element {
    attributes: usize,
    styled: bool,
    value: Option<&'static str>,
    held: Option<&'static str>,
    text: String,
}

impl Inspected for Element {
    type Element = ();
    fn attributes(&self, _: &(), first: u32) -> Vec<(String, String)> {
        let all = (0..self.attributes).map(|i| (format!("data-{i}"), "v ".repeat(150)));
        all.take(first as usize).collect()
    }
    fn rect(&self, _: &()) -> [f64; 4] {
        [1.0, 2.0, 30.0, 40.0]
    }
    fn styles(&self, _: &(), properties: &[&str]) -> Option<Vec<String>> {
        self.styled
            .then(|| properties.iter().map(|p| format!("{p}?")).collect())
    }
    fn value(&self, _: &()) -> Option<String> {
        self.value.map(str::to_owned)
    }
    fn held(&self, _: &()) -> Option<String> {
        self.held.map(str::to_owned)
    }
    fn text(&self, _: &()) -> String {
        self.text.clone()
    }
    fn tag(&self, _: &()) -> String {
        "input".into()
    }
    fn visible(&self, _: &()) -> bool {
        true
    }
    fn described(&self, _: &()) -> (String, String) {
        ("input#q \"Search\"".into(), "e4".into())
    }
}

#[test]
fn an_elements_parts_are_each_cut_to_their_bound() {
    let el = Element {
        attributes: 70,
        styled: true,
        value: Some("x"),
        held: None,
        text: "word ".repeat(200),
    };
    let info = element(&el, &());
    assert_eq!(info.element, "input#q \"Search\" (e4)");
    assert_eq!(info.attributes.len(), 50);
    assert_eq!(info.attributes[0].1.chars().count(), 200);
    assert_eq!(info.styles.len(), STYLES.len());
    assert_eq!(info.styles[9], ("cursor".into(), "cursor?".into()));
    assert_eq!(info.text.chars().count(), 500);
    assert_eq!(info.value.as_deref(), Some("x"));
    assert_eq!(info.rect, [1.0, 2.0, 30.0, 40.0]);
}

#[test]
fn a_fields_typed_secret_shows_as_its_name_and_a_long_value_is_cut() {
    let secret = Element {
        attributes: 0,
        styled: false,
        value: Some("hunter2"),
        held: Some("<secret:PW>"),
        text: String::new(),
    };
    let info = element(&secret, &());
    assert_eq!(info.value.as_deref(), Some("<secret:PW>"));
    assert!(info.styles.is_empty());
    let long = "a".repeat(3_000);
    let long = Element {
        value: Some(long.leak()),
        held: None,
        ..secret
    };
    let value = element(&long, &()).value.unwrap();
    assert_eq!(value.chars().count(), 2_001, "cut, with an ellipsis");
}
