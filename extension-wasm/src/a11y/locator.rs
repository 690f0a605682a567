//! Naming an element as a Playwright test names it, without the DOM: which role
//! `getByRole` finds it by, how to tell it from others of the same role and name, and the
//! CSS selectors tried where no role names it.

use claudezilla_protocol::{ErrorBody, ErrorCode};

use super::name::ARIA_ROLES;

/// The role Playwright's `getByRole` finds an element by (with a heading's level), from the
/// role the snapshot gives it; None where Playwright reads the element otherwise (a file
/// input, a date field, a `summary`, a script's clickable element), so a CSS selector names it.
/// `explicit`: the role came from the element's `role` attribute.
pub fn playwright_role(
    role: &str,
    tag: &str,
    explicit: bool,
) -> Option<(&'static str, Option<u8>)> {
    if let Some(level) = role.strip_prefix('h').and_then(|l| l.parse::<u8>().ok()) {
        return Some(("heading", Some(level)));
    }
    let known = super::name::ARIA_ROLES
        .iter()
        .find(|r| **r == role)
        .copied()?;
    if explicit {
        return Some((known, None));
    }
    // Roles our table gives by tag where Playwright's differs or depends on more than it reads.
    let differs = match tag {
        "summary" | "svg" | "th" | "header" | "footer" | "section" => true,
        // contenteditable: Playwright gives no role.
        _ => known == "textbox" && !matches!(tag, "input" | "textarea"),
    };
    (!differs).then_some((known, None))
}

/// How the target is told apart from the other elements its query matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Narrowed {
    /// The query matches it alone.
    Alone,
    /// Within the enclosing element at this index of the scopes given, it matches it alone.
    Scoped(usize),
    /// By its place among the matches.
    Nth(u32),
}

/// One enclosing element a person could narrow to (a row, a dialog), nearest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scope {
    /// Of the query's matches, how many it holds (the target among them).
    pub holds: usize,
    /// How many elements the scope's own role and name match in the frame.
    pub matches: usize,
}

/// Alone when it is the only match; else the nearest scope that holds no other match and is
/// itself the only one of its kind; else its position.
pub fn narrow(position: usize, matches: usize, scopes: &[Scope]) -> Narrowed {
    if matches <= 1 {
        return Narrowed::Alone;
    }
    scopes
        .iter()
        .position(|s| s.holds == 1 && s.matches == 1)
        .map_or(Narrowed::Nth(position as u32), Narrowed::Scoped)
}

/// Roles of the elements a person narrows a locator to.
pub fn is_scope(role: &str) -> bool {
    matches!(
        role,
        "row"
            | "dialog"
            | "alertdialog"
            | "listitem"
            | "article"
            | "form"
            | "group"
            | "region"
            | "navigation"
            | "tabpanel"
            | "menu"
            | "listbox"
            | "tree"
            | "treeitem"
            | "table"
            | "grid"
            | "list"
    )
}

/// Classes of an element tried as its selector (a utility-class page gives dozens).
const MAX_CLASSES: usize = 8;

/// A role `getByRole` knows, or what the agent may have meant.
pub fn known_role(role: &str) -> Result<(), ErrorBody> {
    if ARIA_ROLES.contains(&role) {
        return Ok(());
    }
    let roles: Vec<String> = ARIA_ROLES.iter().map(|r| (*r).to_owned()).collect();
    let near = crate::suggest::closest(role, &roles, 3);
    Err(ErrorBody::new(
        ErrorCode::InvalidArgument,
        format!("role {role:?} is not an ARIA role"),
    )
    .with_hint(format!(
        "did you mean {}? (heading, not h1: every heading level is one role)",
        near.join(", ")
    )))
}

/// Selectors made of an element's own attributes (`attribute` reads one), the most telling
/// first: its test id, its id, then its tag with each class.
pub fn own_selectors(tag: &str, attribute: impl Fn(&str) -> Option<String>) -> Vec<String> {
    let mut out = Vec::new();
    for name in ["data-testid", "data-test-id", "data-test"] {
        if let Some(id) = attribute(name).filter(|v| !v.trim().is_empty()) {
            out.push(format!("[{name}=\"{}\"]", css_string(&id)));
        }
    }
    let id = attribute("id").unwrap_or_default();
    if css_ident(&id) {
        out.push(format!("#{id}"));
    }
    let classes = attribute("class").unwrap_or_default();
    out.extend(
        classes
            .split_whitespace()
            .filter(|c| css_ident(c))
            .take(MAX_CLASSES)
            .map(|c| format!("{tag}.{c}")),
    );
    out
}

/// An iframe's selector as a person writes it: its id, name or title, else its tag.
pub fn iframe_selector(tag: &str, attribute: impl Fn(&str) -> Option<String>) -> String {
    let id = attribute("id").unwrap_or_default();
    if css_ident(&id) {
        return format!("#{id}");
    }
    ["name", "title"]
        .iter()
        .find_map(|name| {
            let value = attribute(name)?;
            (!value.trim().is_empty()).then(|| format!("{tag}[{name}=\"{}\"]", css_string(&value)))
        })
        .unwrap_or_else(|| tag.to_owned())
}

/// An element as a CSS path is built from it.
pub trait PathStep: Sized {
    fn id(&self) -> String;
    fn tag(&self) -> String;
    /// The previous element sibling.
    fn previous(&self) -> Option<Self>;
    fn parent(&self) -> Option<Self>;
}

/// Ancestors a CSS path climbs, at most, before it stops at the one it reached.
const MAX_PATH_STEPS: usize = 6;

/// A CSS path to `el`: `tag:nth-of-type(n)` steps up to the nearest ancestor with an id (its
/// `#id`), `body`, or six steps.
pub fn css_path<E: PathStep>(el: E) -> String {
    let mut parts = Vec::new();
    let mut at = Some(el);
    while let Some(e) = at {
        let id = e.id();
        if !id.is_empty() && !id.contains(char::is_whitespace) {
            parts.push(format!("#{id}"));
            break;
        }
        let tag = e.tag();
        if tag == "body" || tag == "html" || parts.len() == MAX_PATH_STEPS {
            parts.push(tag);
            break;
        }
        parts.push(format!(
            "{tag}:nth-of-type({})",
            same_tag_before(&e, &tag) + 1
        ));
        at = e.parent();
    }
    parts.reverse();
    parts.join(" > ")
}

/// How many earlier siblings of `el` have its `tag`.
fn same_tag_before<E: PathStep>(el: &E, tag: &str) -> usize {
    let mut n = 0;
    let mut sibling = el.previous();
    while let Some(s) = sibling {
        n += usize::from(s.tag() == tag);
        sibling = s.previous();
    }
    n
}

/// A CSS identifier as written, with no escaping needed.
fn css_ident(text: &str) -> bool {
    text.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Text inside a CSS string in double quotes; typed secrets hidden.
fn css_string(text: &str) -> String {
    crate::hidden::hide(text)
        .chars()
        .flat_map(|c| match c {
            '"' | '\\' => vec!['\\', c],
            '\n' | '\r' => vec![' '],
            c => vec![c],
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attributes<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            pairs
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    #[test]
    fn own_selectors_most_telling_first() {
        let el = [
            ("class", "btn  btn-primary 2col :hover"),
            ("id", "pay"),
            ("data-testid", "pay \"now\"\n"),
        ];
        assert_eq!(
            own_selectors("button", attributes(&el)),
            [
                "[data-testid=\"pay \\\"now\\\" \"]",
                "#pay",
                "button.btn",
                "button.btn-primary"
            ]
        );
        // React's `:r1:` is no identifier; blank test ids are skipped; classes are capped.
        let many = "a b c d e f g h i j".to_owned();
        let el = [
            ("id", ":r1:"),
            ("data-test", "  "),
            ("class", many.as_str()),
        ];
        let got = own_selectors("div", attributes(&el));
        assert_eq!(got.len(), MAX_CLASSES);
        assert_eq!(got[0], "div.a");
    }

    #[test]
    fn an_iframe_is_named_by_id_name_or_title() {
        assert_eq!(
            iframe_selector("iframe", attributes(&[("id", "pay"), ("name", "n")])),
            "#pay"
        );
        assert_eq!(
            iframe_selector(
                "iframe",
                attributes(&[("id", "1x"), ("name", " "), ("title", "Card \"form\"")])
            ),
            "iframe[title=\"Card \\\"form\\\"\"]"
        );
        assert_eq!(iframe_selector("frame", attributes(&[])), "frame");
    }

    /// A fake tree: (id, tag, previous sibling's index, parent index); the tags read, counted.
    #[derive(Clone, Copy)]
    struct At<'a>(
        &'a [(&'a str, &'a str, Option<usize>, Option<usize>)],
        usize,
        &'a std::cell::Cell<usize>,
    );

    impl PathStep for At<'_> {
        fn id(&self) -> String {
            self.0[self.1].0.to_owned()
        }
        fn tag(&self) -> String {
            self.2.set(self.2.get() + 1);
            self.0[self.1].1.to_owned()
        }
        fn previous(&self) -> Option<Self> {
            self.0[self.1].2.map(|p| At(self.0, p, self.2))
        }
        fn parent(&self) -> Option<Self> {
            self.0[self.1].3.map(|p| At(self.0, p, self.2))
        }
    }

    #[test]
    fn a_css_path_stops_at_an_id_body_or_six_steps() {
        let tree = [
            ("", "html", None, None),
            ("", "body", None, Some(0)),
            ("main app", "div", None, Some(1)),
            ("", "ul", None, Some(2)),
            ("", "p", Some(3), Some(2)),
            ("", "ul", Some(4), Some(2)),
            ("", "li", None, Some(5)),
            ("", "li", Some(6), Some(5)),
            ("", "span", Some(7), Some(5)),
            ("", "li", Some(8), Some(5)),
            ("list", "ol", Some(2), Some(1)),
            ("", "li", None, Some(10)),
        ];
        let tags = std::cell::Cell::new(0);
        // An id with a space is no selector: the path climbs past it to body. Siblings of
        // other tags are not counted.
        assert_eq!(
            css_path(At(&tree, 9, &tags)),
            "body > div:nth-of-type(1) > ul:nth-of-type(2) > li:nth-of-type(3)"
        );
        // Each element's tag read once: the four on the path, their five earlier siblings.
        assert_eq!(tags.get(), 9);
        assert_eq!(css_path(At(&tree, 11, &tags)), "#list > li:nth-of-type(1)");
        let deep: Vec<_> = (0..10usize)
            .map(|i| ("", "div", None, i.checked_sub(1)))
            .collect();
        let path = css_path(At(&deep, 9, &tags));
        assert_eq!(path.matches("nth-of-type").count(), MAX_PATH_STEPS);
        assert!(path.starts_with("div > "), "{path}");
    }

    #[test]
    fn an_unknown_role_suggests_near_ones() {
        assert!(known_role("button").is_ok());
        let e = known_role("buton").unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        assert!(
            e.hint.as_deref().unwrap_or_default().contains("button"),
            "{e:?}"
        );
    }

    #[test]
    fn roles_playwright_finds() {
        assert_eq!(
            playwright_role("h2", "h2", false),
            Some(("heading", Some(2)))
        );
        assert_eq!(
            playwright_role("button", "button", false),
            Some(("button", None))
        );
        assert_eq!(
            playwright_role("textbox", "input", false),
            Some(("textbox", None))
        );
        assert_eq!(
            playwright_role("button", "div", true),
            Some(("button", None))
        );
        assert_eq!(
            playwright_role("textbox", "div", true),
            Some(("textbox", None))
        );
        // What Playwright reads otherwise, or our table's own words.
        assert_eq!(playwright_role("textbox", "div", false), None);
        assert_eq!(playwright_role("button", "summary", false), None);
        assert_eq!(playwright_role("file", "input", false), None);
        assert_eq!(playwright_role("input", "input", false), None);
        assert_eq!(playwright_role("clickable", "div", false), None);
        assert_eq!(playwright_role("label", "label", false), None);
    }

    #[test]
    fn narrowing_prefers_a_unique_scope_then_position() {
        assert_eq!(narrow(0, 1, &[]), Narrowed::Alone);
        let shared_row = Scope {
            holds: 2,
            matches: 1,
        };
        let own_row = Scope {
            holds: 1,
            matches: 1,
        };
        let twin_row = Scope {
            holds: 1,
            matches: 2,
        };
        assert_eq!(narrow(3, 5, &[shared_row, own_row]), Narrowed::Scoped(1));
        assert_eq!(narrow(3, 5, &[twin_row, shared_row]), Narrowed::Nth(3));
        assert_eq!(narrow(1, 2, &[]), Narrowed::Nth(1));
    }
}
