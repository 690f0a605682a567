//! Accessibility rules for snapshots, without the DOM: which role an element has, whether an
//! agent can act on it, and how its line reads. The content script feeds it what it reads from
//! each element.

pub mod generated;
pub mod locator;
pub mod name;
pub mod pick;

/// What the walker knows about one element.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct ElementFacts<'a> {
    pub tag: &'a str,
    /// The `role` attribute, if any.
    pub role_attr: Option<&'a str>,
    /// `type` of an input.
    pub input_type: Option<&'a str>,
    /// An element of another namespace than HTML's (`<svg><button>`, `<math><label>`): its
    /// tag gives it no HTML role (SVG's `svg` and `a`, MathML's `math` keep theirs), and it is
    /// not natively focusable (SVG's link is).
    pub foreign: bool,
    pub has_href: bool,
    pub contenteditable: bool,
    /// A tabindex (even -1: focusable by a click), an inline onclick, or `draggable`: what
    /// scripts make a person click or drag.
    pub focusable: bool,
    /// `disabled`: a disabled control is not focused, so `role="none"` holds for it.
    pub disabled: bool,
}

/// What an element's role is read from ([`role_of`]): its attributes, children and text.
pub trait Elements {
    type Element;

    fn attribute(&self, el: &Self::Element, name: &str) -> Option<String>;
    fn has_attribute(&self, el: &Self::Element, name: &str) -> bool;
    fn child_element_count(&self, el: &Self::Element) -> u32;
    /// The element's `textContent`.
    fn text_content(&self, el: &Self::Element) -> Option<String>;
    /// An `<input>`'s `type` attribute, empty without one; none when it is of another
    /// namespace (`<svg><input>`). One read, as the attribute's was.
    fn input_type(&self, input: &Self::Element) -> Option<String>;
    /// Is the element of HTML's namespace (not `<svg><button>`)?
    fn is_html(&self, el: &Self::Element) -> bool;
}

/// Whether an element is of HTML's namespace: known from the walk's facts, or not yet read
/// (then asked only where its tag's role hangs on it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Namespace {
    Html,
    Foreign,
    Unread,
}

/// Is this a control a script made: focusable by the keyboard (tabindex ≥ 0), clicked
/// (onclick), dragged (`draggable`), or words that a click focuses (tabindex -1: a calendar's
/// day)? A container with tabindex -1 only keeps focus for its items (they are listed
/// instead), and an empty one is a backdrop.
fn scripted_control<E: Elements>(page: &E, el: &E::Element) -> bool {
    let clicked = page.has_attribute(el, "onclick")
        || page.attribute(el, "draggable").as_deref() == Some("true");
    clicked
        || page.attribute(el, "tabindex").is_some_and(|t| {
            t.trim().parse::<i32>().map_or(true, |t| t >= 0)
                || (page.child_element_count(el) == 0
                    && page
                        .text_content(el)
                        .is_some_and(|t| t.chars().any(char::is_alphanumeric)))
        })
}

/// An element's role, and whether an agent acts on it. `marked`: it may carry ARIA or script
/// attributes (asking an unmarked one for them is a read spared).
pub fn role_of<E: Elements>(
    page: &E,
    el: &E::Element,
    tag: &str,
    marked: bool,
    namespace: Namespace,
) -> (Option<&'static str>, bool) {
    let role_attr = marked.then(|| page.attribute(el, "role")).flatten();
    let input_type = match (tag, namespace) {
        ("input", Namespace::Html | Namespace::Unread) => page.input_type(el),
        _ => None,
    };
    let mut facts = ElementFacts {
        tag,
        role_attr: role_attr.as_deref(),
        input_type: input_type.as_deref(),
        foreign: match namespace {
            Namespace::Html => false,
            Namespace::Foreign => true,
            // The input's own read said it.
            Namespace::Unread => tag == "input" && input_type.is_none(),
        },
        // SVG's links may still name their target the SVG 1.1 way; HTML's may not.
        has_href: tag == "a"
            && (page.has_attribute(el, "href")
                || namespace != Namespace::Html
                    && page.has_attribute(el, "xlink:href")
                    && (namespace == Namespace::Foreign || !page.is_html(el))),
        contenteditable: marked
            && page
                .attribute(el, "contenteditable")
                .is_some_and(|v| v != "false"),
        focusable: marked && scripted_control(page, el),
        disabled: marked && page.has_attribute(el, "disabled"),
    };
    if namespace == Namespace::Unread && tag != "input" && by_namespace(&facts) {
        facts.foreign = !page.is_html(el);
    }
    let role = role(&facts);
    (role, is_interactive(role, &facts))
}

/// Would the element read otherwise were it of another namespace? Most tags (`div`, SVG's
/// `path`) would not, and their namespace is not asked.
fn by_namespace(f: &ElementFacts) -> bool {
    let other = ElementFacts {
        foreign: !f.foreign,
        ..f.clone()
    };
    role(f) != role(&other)
}

/// The role an element plays, after ARIA rules (explicit role first, then the tag's).
pub fn role(f: &ElementFacts) -> Option<&'static str> {
    if let Some(explicit) = f.role_attr.and_then(|r| r.split_whitespace().next()) {
        let known = name::ARIA_ROLES
            .iter()
            .find(|k| k.eq_ignore_ascii_case(explicit))
            .copied();
        // A control a person focuses keeps its role whatever role="none" says (ARIA's
        // presentational roles conflict resolution).
        let ignored = matches!(known, Some("none" | "presentation"))
            && name::natively_focusable(f.tag, f.has_href)
            && (!f.foreign || f.tag == "a")
            && !f.disabled;
        if !ignored {
            // ARIA 1.3's name for an image.
            return known.map(|r| if r == "image" { "img" } else { r });
        }
    }
    if f.foreign {
        // SVG-AAM's link, the root `svg` as an image, MathML's `math`: the only tags of other
        // namespaces that mean what HTML's do.
        return match f.tag {
            "a" if f.has_href => Some("link"),
            "svg" => Some("img"),
            "math" => Some("math"),
            _ => None,
        };
    }
    Some(match f.tag {
        "a" | "area" if f.has_href => "link",
        "button" => "button",
        "summary" => "button",
        "select" => "combobox",
        "textarea" => "textbox",
        "input" if !f.foreign => input_role(f.input_type.unwrap_or("text"))?,
        "h1" => "h1",
        "h2" => "h2",
        "h3" => "h3",
        "h4" => "h4",
        "h5" => "h5",
        "h6" => "h6",
        "img" | "svg" => "img",
        "iframe" => "iframe",
        "label" => "label",
        _ if f.contenteditable => "textbox",
        _ => return name::tag_role(f.tag),
    })
}

fn input_role(kind: &str) -> Option<&'static str> {
    Some(match kind.to_ascii_lowercase().as_str() {
        "hidden" => return None,
        "checkbox" => "checkbox",
        "radio" => "radio",
        "range" => "slider",
        "number" => "spinbutton",
        "search" => "searchbox",
        "button" | "submit" | "reset" | "image" => "button",
        "file" => "file",
        "color" | "date" | "datetime-local" | "month" | "time" | "week" => "input",
        _ => "textbox",
    })
}

/// Roles an agent can act on: they get a ref.
pub fn is_interactive(role: Option<&str>, f: &ElementFacts) -> bool {
    match role {
        Some(
            "link" | "button" | "checkbox" | "radio" | "switch" | "tab" | "menuitem"
            | "menuitemcheckbox" | "menuitemradio" | "option" | "combobox" | "textbox"
            | "searchbox" | "slider" | "spinbutton" | "treeitem" | "file" | "input" | "listbox"
            | "gridcell" | "columnheader" | "rowheader",
        ) => true,
        _ => f.focusable,
    }
}

/// Interactive roles whose items are clicked too: their children are listed under them.
pub fn has_items(role: &str) -> bool {
    matches!(
        role,
        "listbox" | "menu" | "menubar" | "tree" | "grid" | "treegrid" | "tablist" | "radiogroup"
    )
}

/// A day of a calendar outside the month it shows, as date pickers mark it in a class
/// (`prevMonthDay`, `nextMonthDay`, `…--outside-month`, `is-outside-current-month`,
/// `-other-month-`): a person sees it dimmed, and "1" may be this month's or the next one's.
pub fn outside_month(class: &str) -> bool {
    class.split_whitespace().any(|c| {
        let c = c.to_ascii_lowercase();
        let other = ["prev", "next", "outside", "other", "adjacent"]
            .iter()
            .any(|w| c.contains(w));
        other && (c.contains("month") || c.contains("day"))
    })
}

/// Roles of a composite widget's parts that give way to controls inside them: a calendar's
/// day cell holding its button, a grid's cell holding a link. The controls get the refs.
pub fn gives_way(role: &str) -> bool {
    matches!(role, "gridcell" | "columnheader" | "rowheader")
}

/// Roles that structure the page: they get a line and their children are indented under it.
pub fn is_container(role: Option<&str>) -> bool {
    matches!(
        role,
        Some(
            "navigation"
                | "main"
                | "banner"
                | "contentinfo"
                | "complementary"
                | "form"
                | "search"
                | "region"
                | "dialog"
                | "alertdialog"
                | "list"
                | "table"
                | "tablist"
                | "menu"
                | "menubar"
                | "listbox"
                | "group"
        )
    )
}

/// Tags that, without special attributes, play no role of their own: the snapshot shows only
/// their content.
pub fn is_plain(tag: &str) -> bool {
    !matches!(tag, "a" | "area" | "label" | "iframe")
        && matches!(
            role(&ElementFacts {
                tag,
                ..ElementFacts::default()
            }),
            None | Some("listitem" | "row" | "cell" | "rowgroup" | "article" | "blockquote")
        )
}

/// Elements whose content never shows.
pub fn is_skipped(tag: &str) -> bool {
    matches!(
        tag,
        "script"
            | "style"
            | "noscript"
            | "template"
            | "head"
            | "meta"
            | "link"
            | "title"
            | "option"
            | "datalist"
    )
}

/// Collapses whitespace and cuts to `max` characters with an ellipsis, in one pass (pages
/// hand us megabytes of text); typed secrets are hidden first.
pub fn clean(text: &str, max: usize) -> String {
    let text = crate::hidden::hide(text);
    let mut out = String::new();
    let mut count = 0;
    for word in text.split_whitespace() {
        if count > 0 {
            out.push(' ');
            count += 1;
        }
        for c in word.chars() {
            if count >= max {
                return format!("{}…", out.trim_end());
            }
            out.push(c);
            count += 1;
        }
    }
    out
}

/// States worth showing on a line.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct States {
    pub checked: bool,
    pub disabled: bool,
    pub expanded: Option<bool>,
    pub required: bool,
    /// Current value of a field (already cleaned).
    pub value: Option<String>,
    /// For a control with no name: the words of its nearest container that has some, so a
    /// row's checkbox reads `checkbox e14 (in "Buy milk")`.
    pub context: Option<String>,
    /// A calendar day of another month than the one shown.
    pub outside_month: bool,
    /// Not shown on the page (asked for by selector).
    pub hidden: bool,
}

/// One line: `{indent}{role} "{name}" {ref} ={value} [states]`.
pub fn line(
    depth: usize,
    role: &str,
    name: &str,
    reference: Option<&str>,
    states: &States,
) -> String {
    let mut out = " ".repeat(depth);
    out.push_str(role);
    if !name.is_empty() {
        out.push_str(" \"");
        out.push_str(&name.replace('"', "'"));
        out.push('"');
    }
    if let Some(r) = reference {
        out.push(' ');
        out.push_str(r);
    }
    if let Some(c) = &states.context {
        out.push_str(" (in \"");
        out.push_str(&c.replace('"', "'"));
        out.push_str("\")");
    }
    if let Some(v) = &states.value
        && !v.is_empty()
    {
        out.push_str(" =");
        out.push_str(v);
    }
    for (on, label) in [
        (states.checked, "checked"),
        (states.disabled, "disabled"),
        (states.required, "required"),
        (states.outside_month, "outside month"),
        (states.hidden, "hidden"),
    ] {
        if on {
            out.push_str(" [");
            out.push_str(label);
            out.push(']');
        }
    }
    if let Some(expanded) = states.expanded {
        out.push_str(if expanded {
            " [expanded]"
        } else {
            " [collapsed]"
        });
    }
    out.push('\n');
    out
}

/// A text line: the text itself, quoted.
pub fn text_line(depth: usize, text: &str) -> String {
    format!("{}\"{}\"\n", " ".repeat(depth), text.replace('"', "'"))
}

/// Most lines a table row is folded from.
const ROW_LINES: usize = 12;

/// A table row's lines on one line (`row: link "Item 3" e7 · button "Delete" e8 · "note"`): a
/// long table reads as a list of rows, and costs a fraction of the characters; a row an author
/// named says its name (`row "Totals": …`). `None` when there is nothing to fold (one line of
/// an unnamed row) or too much (a row holding a whole layout).
pub fn fold_row(depth: usize, lines: &str, name: &str) -> Option<String> {
    let parts: Vec<&str> = lines
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let fewest = if name.is_empty() { 2 } else { 0 };
    if !(fewest..=ROW_LINES).contains(&parts.len()) {
        return None;
    }
    let named = match name.is_empty() {
        true => String::new(),
        false => format!(" \"{}\"", name.replace('"', "'")),
    };
    let parts = parts.join(" · ");
    let sep = if parts.is_empty() { "" } else { ": " };
    Some(format!("{}row{named}{sep}{parts}\n", " ".repeat(depth)))
}

/// A field's value as answers show it ([`crate::page_names::field_value`] reads it), the one
/// rule of names and the snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldValue {
    /// A password field, its value not read (`page_names::shown_password` reads what the
    /// snapshot shows).
    Password,
    /// What the field holds, a typed secret's value shown as its name.
    Text(String),
}

/// What a snapshot shows of a password field: nothing when empty, a secret's placeholder
/// when one was typed from the secrets file, else dots (never the characters).
pub fn password_shown(empty: bool, secret: Option<String>) -> Option<String> {
    match (empty, secret) {
        (true, _) => None,
        (false, Some(name)) => Some(name),
        (false, None) => Some("••••".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_rows_fold_onto_one_line() {
        let lines = "  link \"Item 3\" e7\n  button \"Delete\" e8\n  \"note 3\"\n";
        assert_eq!(
            fold_row(2, lines, "").as_deref(),
            Some("  row: link \"Item 3\" e7 · button \"Delete\" e8 · \"note 3\"\n")
        );
        assert_eq!(
            fold_row(0, "  link \"x\" e1\n", ""),
            None,
            "one line stays as it is"
        );
        assert_eq!(
            fold_row(0, &"x\n".repeat(13), ""),
            None,
            "a layout row stays as it is"
        );
        assert_eq!(
            fold_row(0, "  \"x\"\n", "Totals").as_deref(),
            Some("row \"Totals\": \"x\"\n"),
            "a named row says its name, even with one part"
        );
    }

    fn facts(tag: &str) -> ElementFacts<'_> {
        ElementFacts {
            tag,
            ..Default::default()
        }
    }

    #[test]
    fn roles_follow_aria_then_tags() {
        assert_eq!(
            role(&ElementFacts {
                has_href: true,
                ..facts("a")
            }),
            Some("link")
        );
        assert_eq!(
            role(&facts("a")),
            None,
            "an anchor without href is not a link"
        );
        assert_eq!(
            role(&ElementFacts {
                input_type: Some("CHECKBOX"),
                ..facts("input")
            }),
            Some("checkbox")
        );
        assert_eq!(
            role(&ElementFacts {
                input_type: Some("hidden"),
                ..facts("input")
            }),
            None
        );
        assert_eq!(
            role(&ElementFacts {
                input_type: Some("submit"),
                ..facts("input")
            }),
            Some("button")
        );
        assert_eq!(
            role(&ElementFacts {
                role_attr: Some("Tab"),
                ..facts("div")
            }),
            Some("tab")
        );
        assert_eq!(
            role(&ElementFacts {
                role_attr: Some("bogus"),
                ..facts("button")
            }),
            None
        );
        assert_eq!(
            role(&ElementFacts {
                contenteditable: true,
                ..facts("div")
            }),
            Some("textbox")
        );
        assert_eq!(role(&facts("h3")), Some("h3"));
    }

    #[test]
    fn plain_tags_are_walked_through() {
        for plain in ["div", "span", "p", "section", "li", "tr", "td"] {
            assert!(is_plain(plain), "{plain}");
        }
        for special in [
            "a", "button", "input", "h2", "nav", "ul", "img", "iframe", "label", "select",
        ] {
            assert!(!is_plain(special), "{special}");
        }
    }

    #[test]
    fn interactive_elements_and_scripted_controls_get_refs() {
        assert!(is_interactive(Some("button"), &facts("button")));
        assert!(!is_interactive(Some("h2"), &facts("h2")));
        assert!(is_interactive(
            None,
            &ElementFacts {
                focusable: true,
                ..facts("div")
            }
        ));
        assert!(is_container(Some("navigation")) && !is_container(Some("button")));
        // A grid's headers are clicked (to sort) as its cells are (to edit).
        let header = ElementFacts {
            role_attr: Some("columnheader"),
            ..facts("div")
        };
        assert_eq!(role(&header), Some("columnheader"));
        assert!(is_interactive(role(&header), &header));
        assert!(gives_way("gridcell") && !gives_way("button") && !gives_way("clickable"));
    }

    #[test]
    fn lines_are_compact() {
        let s = States {
            checked: true,
            value: Some("ada@x".into()),
            ..Default::default()
        };
        assert_eq!(
            line(2, "textbox", "Email \"work\"", Some("e7"), &s),
            "  textbox \"Email 'work'\" e7 =ada@x [checked]\n"
        );
        assert_eq!(line(0, "main", "", None, &States::default()), "main\n");
        assert_eq!(text_line(1, "hello"), " \"hello\"\n");
    }

    #[test]
    fn clean_collapses_and_cuts() {
        assert_eq!(clean("  a \n\t b  ", 10), "a b");
        assert_eq!(clean("abcdef ghij", 4), "abcd…");
        assert_eq!(clean("", 4), "");
    }

    #[test]
    fn a_password_never_shows_its_characters() {
        assert_eq!(password_shown(true, None), None);
        assert_eq!(password_shown(false, None).as_deref(), Some("••••"));
        assert_eq!(
            password_shown(false, Some("<secret:PW>".into())).as_deref(),
            Some("<secret:PW>")
        );
    }
}
