//! Accessibility rules for snapshots, without the DOM: which role an element has, whether an
//! agent can act on it, and how its line reads. The content script feeds it what it reads from
//! each element.

/// What the walker knows about one element.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct ElementFacts<'a> {
    pub tag: &'a str,
    /// The `role` attribute, if any.
    pub role_attr: Option<&'a str>,
    /// `type` of an input or button.
    pub input_type: Option<&'a str>,
    pub has_href: bool,
    pub contenteditable: bool,
    /// A tabindex (even -1: focusable by a click), an inline onclick, or `draggable`: what
    /// scripts make a person click or drag.
    pub focusable: bool,
}

/// The role an element plays, after ARIA rules (explicit role first, then the tag's).
pub fn role(f: &ElementFacts) -> Option<&'static str> {
    if let Some(explicit) = f.role_attr.and_then(|r| r.split_whitespace().next()) {
        return KNOWN_ROLES
            .iter()
            .find(|k| k.eq_ignore_ascii_case(explicit))
            .copied();
    }
    Some(match f.tag {
        "a" | "area" if f.has_href => "link",
        "button" => "button",
        "summary" => "button",
        "select" => "combobox",
        "textarea" => "textbox",
        "input" => input_role(f.input_type.unwrap_or("text"))?,
        "h1" => "h1",
        "h2" => "h2",
        "h3" => "h3",
        "h4" => "h4",
        "h5" => "h5",
        "h6" => "h6",
        "img" => "img",
        "nav" => "navigation",
        "main" => "main",
        "header" => "banner",
        "footer" => "contentinfo",
        "aside" => "complementary",
        "form" => "form",
        "dialog" => "dialog",
        "ul" | "ol" | "menu" => "list",
        "li" => "listitem",
        "table" => "table",
        "tr" => "row",
        "iframe" => "iframe",
        "label" => "label",
        _ if f.contenteditable => "textbox",
        _ => return None,
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

const KNOWN_ROLES: &[&str] = &[
    "button",
    "link",
    "checkbox",
    "radio",
    "switch",
    "tab",
    "tabpanel",
    "tablist",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "menu",
    "menubar",
    "option",
    "listbox",
    "combobox",
    "textbox",
    "searchbox",
    "slider",
    "spinbutton",
    "treeitem",
    "tree",
    "treegrid",
    "grid",
    "radiogroup",
    "gridcell",
    "columnheader",
    "rowheader",
    "dialog",
    "alertdialog",
    "navigation",
    "main",
    "banner",
    "contentinfo",
    "complementary",
    "form",
    "search",
    "region",
    "list",
    "listitem",
    "table",
    "row",
    "cell",
    "heading",
    "img",
    "alert",
    "status",
    "progressbar",
    "tooltip",
    "none",
    "presentation",
    "generic",
    "group",
];

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
            None | Some("listitem" | "row")
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
/// long table reads as a list of rows, and costs a fraction of the characters. `None` when
/// there is nothing to fold (one line) or too much (a row holding a whole layout).
pub fn fold_row(depth: usize, lines: &str) -> Option<String> {
    let parts: Vec<&str> = lines
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if !(2..=ROW_LINES).contains(&parts.len()) {
        return None;
    }
    Some(format!("{}row: {}\n", " ".repeat(depth), parts.join(" · ")))
}

/// Where an element's accessible name may come from. The content script answers each when
/// asked (every one costs calls into the page), and [`accessible_name`] asks in ARIA's order.
pub trait NameSources {
    /// `aria-labelledby` (resolved in the element's own tree), then `aria-label`.
    fn aria(&mut self) -> Option<String>;
    /// The words of the form field's `<label>`.
    fn label(&mut self) -> Option<String>;
    /// An input's value (a button's caption).
    fn value(&mut self) -> String;
    /// `alt`, else the element's own text.
    fn content(&mut self) -> String;
    fn attribute(&mut self, name: &str) -> Option<String>;
}

/// The accessible name, after the ARIA order: labelledby and aria-label, the field's label
/// (only a form field has one: `labelable`), alt or the element's own text (an input's: its
/// value), then title, placeholder and name. A field's own text is its value, not its name —
/// but an ARIA checkbox or radio (a div, say) is named by its content, as a native one is by
/// its label.
pub fn accessible_name(
    tag: &str,
    role: &str,
    labelable: bool,
    from: &mut impl NameSources,
) -> String {
    if let Some(aria) = from.aria() {
        return aria;
    }
    if let Some(label) = labelable
        .then(|| from.label())
        .flatten()
        .filter(|l| !l.is_empty())
    {
        return label;
    }
    let native = matches!(tag, "input" | "select" | "textarea");
    let is_field = match role {
        "textbox" | "searchbox" | "combobox" | "spinbutton" | "slider" | "input" | "file" => true,
        "checkbox" | "radio" => native,
        _ => false,
    };
    let own = match (is_field, tag) {
        (true, _) => String::new(),
        (false, "input") => clean(&from.value(), 80),
        (false, _) => from.content(),
    };
    if !own.is_empty() {
        return own;
    }
    ["title", "placeholder", "name"]
        .iter()
        .find_map(|a| from.attribute(a).filter(|v| !v.trim().is_empty()))
        .map(|v| clean(&v, 80))
        .unwrap_or_default()
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
            fold_row(2, lines).as_deref(),
            Some("  row: link \"Item 3\" e7 · button \"Delete\" e8 · \"note 3\"\n")
        );
        assert_eq!(
            fold_row(0, "  link \"x\" e1\n"),
            None,
            "one line stays as it is"
        );
        assert_eq!(
            fold_row(0, &"x\n".repeat(13)),
            None,
            "a layout row stays as it is"
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

    /// An element's name sources (by name: aria, label, value, content, or an attribute), and
    /// which were asked for.
    struct Sources {
        given: Vec<(&'static str, &'static str)>,
        asked: Vec<String>,
    }

    impl Sources {
        fn take(&mut self, what: &str) -> Option<String> {
            self.asked.push(what.to_owned());
            let given = self.given.iter().find(|(name, _)| *name == what);
            given.map(|(_, v)| (*v).to_owned())
        }
    }

    impl NameSources for Sources {
        fn aria(&mut self) -> Option<String> {
            self.take("aria")
        }
        fn label(&mut self) -> Option<String> {
            self.take("label")
        }
        fn value(&mut self) -> String {
            self.take("value").unwrap_or_default()
        }
        fn content(&mut self) -> String {
            self.take("content").unwrap_or_default()
        }
        fn attribute(&mut self, name: &str) -> Option<String> {
            self.take(name)
        }
    }

    fn named(
        tag: &str,
        role: &str,
        labelable: bool,
        given: &[(&'static str, &'static str)],
    ) -> (String, Vec<String>) {
        let mut s = Sources {
            given: given.to_vec(),
            asked: Vec::new(),
        };
        (accessible_name(tag, role, labelable, &mut s), s.asked)
    }

    #[test]
    fn names_follow_the_aria_order_and_ask_no_more_than_needed() {
        let (name, asked) = named(
            "button",
            "button",
            false,
            &[("aria", "Close"), ("label", "x")],
        );
        assert_eq!((name.as_str(), asked), ("Close", vec!["aria".to_owned()]));
        let email = [
            ("label", "Email"),
            ("value", "ada@example.com"),
            ("placeholder", "you@…"),
        ];
        assert_eq!(named("input", "textbox", true, &email).0, "Email");
        // A field is never named by its value (it may be a secret); its placeholder stands in.
        let (name, asked) = named("input", "textbox", true, &email[1..]);
        assert_eq!(name, "you@…");
        assert!(!asked.contains(&"value".to_owned()), "{asked:?}");
        assert_eq!(
            named("input", "button", true, &[("value", "Send")]).0,
            "Send"
        );
        // An ARIA checkbox is named by its content; a native one never is.
        assert_eq!(
            named("div", "checkbox", false, &[("content", "Remember me")]).0,
            "Remember me"
        );
        let native = [("content", "ignored"), ("title", "Remember")];
        assert_eq!(named("input", "checkbox", true, &native).0, "Remember");
        // Only a form field's label is asked for.
        let (name, asked) = named("a", "link", false, &[("content", "Docs"), ("label", "x")]);
        assert_eq!(name, "Docs");
        assert!(!asked.contains(&"label".to_owned()), "{asked:?}");
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
