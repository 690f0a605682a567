use std::collections::HashMap;

use super::*;

/// An element of the fake page: its tag, text, whether it shows, and its attributes.
#[derive(Clone, Default)]
struct El {
    id: u32,
    tag: &'static str,
    text: String,
    hidden: bool,
    attributes: HashMap<&'static str, String>,
}

/// A page that answers each of the outline's selectors with the elements listed for it.
#[derive(Default)]
struct Fake {
    title: String,
    matching: HashMap<&'static str, Vec<El>>,
}

impl Page for Fake {
    type Element = El;

    fn url(&self) -> String {
        "https://shop.example/cart".into()
    }
    fn title(&self) -> String {
        self.title.clone()
    }
    fn each(&self, selector: &str, f: &mut dyn FnMut(&El)) -> u32 {
        let list = self.matching.get(selector).cloned().unwrap_or_default();
        list.iter().for_each(f);
        list.len() as u32
    }
    fn tag(&self, el: &El) -> String {
        el.tag.into()
    }
    fn text(&self, el: &El) -> String {
        el.text.clone()
    }
    fn visible(&self, el: &El) -> bool {
        !el.hidden
    }
    fn href(&self, el: &El) -> Option<String> {
        el.attributes
            .get("href")
            .map(|h| format!("https://shop.example{h}"))
    }
    fn attribute(&self, el: &El, name: &str) -> Option<String> {
        el.attributes.get(name).cloned()
    }
    fn describe(&self, el: &El) -> String {
        format!("{} {:?}", el.tag, el.text)
    }
    fn element_ref(&self, el: &El) -> ElementRef {
        ElementRef {
            frame: 0,
            index: el.id,
        }
    }
}

fn el(id: u32, tag: &'static str, text: &str) -> El {
    El {
        id,
        tag,
        text: text.into(),
        ..El::default()
    }
}

fn with(mut el: El, name: &'static str, value: &str) -> El {
    el.attributes.insert(name, value.into());
    el
}

const ALL: PageLimits = PageLimits {
    headings: 10,
    links: 10,
    buttons: 10,
    inputs: 10,
    images: 10,
};

#[test]
fn the_outline_lists_each_kind_with_refs_where_an_agent_acts() {
    let mut page = Fake {
        title: "  Your\n cart ".into(),
        ..Fake::default()
    };
    page.matching = HashMap::from([
        (
            HEADINGS,
            vec![el(1, "h1", " Cart\n"), el(2, "h2", "Totals")],
        ),
        (LINKS, vec![with(el(3, "a", "Home"), "href", "/")]),
        (BUTTONS, vec![el(4, "button", "Pay")]),
        (INPUTS, vec![el(5, "input", "")]),
        (
            "img",
            vec![
                with(el(6, "img", ""), "alt", "Logo"),
                with(el(7, "img", ""), "src", "/pic.png"),
            ],
        ),
        ("form", vec![el(8, "form", ""), el(9, "form", "")]),
        (
            LANDMARKS,
            vec![el(10, "nav", ""), with(el(11, "div", ""), "role", "search")],
        ),
    ]);
    let s = outline(&page, ALL, vec!["TypeError: x".into()]);
    assert_eq!(s.url, "https://shop.example/cart");
    assert_eq!(s.title, "Your cart");
    assert_eq!(s.headings, ["h1: Cart", "h2: Totals"]);
    assert_eq!(s.links, ["Home → https://shop.example/ (e3)"]);
    assert_eq!(s.buttons, ["button \"Pay\" (e4)"]);
    assert_eq!(s.inputs, ["input \"\" (e5)"]);
    assert_eq!(s.images, ["Logo", "/pic.png"]);
    assert_eq!(s.landmarks, ["nav", "search"]);
    assert_eq!(s.errors, ["TypeError: x"]);
    let c = &s.counts;
    assert_eq!(
        (c.headings, c.links, c.buttons, c.inputs, c.images, c.forms),
        (2, 1, 1, 1, 2, 2)
    );
}

#[test]
fn lists_stop_at_their_limits_and_hidden_controls_are_left_out_while_all_are_counted() {
    let mut page = Fake::default();
    let links: Vec<El> = (0..6)
        .map(|i| {
            let mut link = with(el(i, "a", &format!("link {i}")), "href", "/x");
            link.hidden = i % 2 == 0;
            link
        })
        .collect();
    let hidden = |el: El| El { hidden: true, ..el };
    page.matching = HashMap::from([
        (LINKS, links),
        (BUTTONS, vec![hidden(el(20, "button", "Secret"))]),
        (
            INPUTS,
            vec![hidden(el(21, "input", "")), el(22, "input", "")],
        ),
        // Headings and images are listed whether or not they show.
        (HEADINGS, vec![hidden(el(23, "h2", "Folded"))]),
        (LANDMARKS, (0..30).map(|i| el(i, "aside", "")).collect()),
        ("img", (0..4).map(|i| hidden(el(i, "img", ""))).collect()),
    ]);
    let limits = PageLimits {
        links: 2,
        images: 3,
        ..ALL
    };
    let s = outline(&page, limits, Vec::new());
    assert_eq!(
        s.links,
        [
            "link 1 → https://shop.example/x (e1)",
            "link 3 → https://shop.example/x (e3)"
        ]
    );
    assert!(s.buttons.is_empty());
    assert_eq!(s.inputs, ["input \"\" (e22)"]);
    assert_eq!(s.headings, ["h2: Folded"]);
    assert_eq!(s.images.len(), 3);
    assert_eq!(s.landmarks.len(), MAX_LANDMARKS as usize);
    assert_eq!(
        (s.counts.links, s.counts.buttons, s.counts.images),
        (6, 1, 4)
    );
}

#[test]
fn long_words_and_addresses_are_cut() {
    let mut page = Fake::default();
    let long = "word ".repeat(100);
    let address = format!("/{}", "a".repeat(2 * MAX_LINK_CHARS));
    page.matching = HashMap::from([
        (HEADINGS, vec![el(1, "h2", &long)]),
        (LINKS, vec![with(el(2, "a", &long), "href", &address)]),
        (
            "img",
            vec![
                with(el(3, "img", ""), "alt", &long),
                with(el(4, "img", ""), "src", &address),
            ],
        ),
    ]);
    let s = outline(&page, ALL, Vec::new());
    // Each cut is marked with an ellipsis.
    assert!(s.headings[0].ends_with('…'));
    assert!(s.headings[0].chars().count() <= "h2: ".len() + 100 + 1);
    let (words, rest) = s.links[0].split_once(" → ").unwrap();
    assert!(words.chars().count() <= 60 + 1);
    assert!(rest.ends_with("… (e2)"), "{rest}");
    assert!(rest.chars().count() <= MAX_LINK_CHARS + 1 + " (e2)".len());
    assert!(s.images[0].chars().count() <= 200 + 1);
    assert!(s.images[1].chars().count() <= MAX_LINK_CHARS + 1);
}

#[test]
fn the_last_ten_errors_are_kept_newest_last() {
    let mut errors = Errors::new();
    for n in 0..12 {
        errors.record(&format!("e{n}"));
    }
    let kept: Vec<String> = (2..12).map(|n| format!("e{n}")).collect();
    assert_eq!(errors.list(), kept);
    let mut few = Errors::new();
    few.record("only");
    assert_eq!(few.list(), ["only"]);
}

#[test]
fn an_error_is_kept_cleaned_hidden_and_cut() {
    crate::hidden::learn([&claudezilla_protocol::args::FilledSecret {
        name: "PW".to_owned().try_into().unwrap(),
        value: "hunter2-long".into(),
        sites: Vec::new(),
    }]);
    let mut errors = Errors::new();
    errors.record(&format!("  TypeError:\nhunter2-long {}", "x".repeat(400)));
    let kept = &errors.list()[0];
    assert!(kept.starts_with("TypeError: <secret:PW> xxx"), "{kept}");
    assert!(kept.ends_with('…'));
    assert_eq!(kept.chars().count(), 300 + 1);
}
