//! The accessible name, as the W3C's Accessible Name and Description Computation 1.2 (AccName)
//! and HTML-AAM give it, over a tree the caller reads through [`NameSources`]: the page's DOM in
//! the content script, a tree of plain values in the tests below. The steps keep the spec's
//! letters (2A hidden, 2B `aria-labelledby`, 2C embedded control, 2D `aria-label`, 2E the host
//! language's label, 2F name from content, 2I tooltip). What is left out is listed in the
//! README ("Accessible names").

/// How an element is shown, as far as its words go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    Rendered,
    /// `visibility: hidden` or `collapse`: its own text is not shown, but a child of its may
    /// be (`visibility: visible` inside).
    Invisible,
    /// Not rendered at all (`display: none`, `hidden`, inside such an element).
    NotRendered,
}

/// CSS generated content around an element's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Generated {
    Before,
    After,
    /// A list item's marker, as its list shows it ("• ", "3. ", or its `::marker` content).
    Marker,
}

/// What the computation reads of the tree. Each answer may cost calls into the page, so each
/// is asked only when the step before it gave nothing.
pub trait NameSources {
    type Node: Clone + PartialEq;
    /// The element's local name (lowercase); `None` for a text node or anything else.
    fn tag(&mut self, n: &Self::Node) -> Option<String>;
    /// A text node's text; `None` for anything else.
    fn text(&mut self, n: &Self::Node) -> Option<String>;
    fn attribute(&mut self, n: &Self::Node, name: &str) -> Option<String>;
    /// Does the element carry any of [`NAMING`]? Most carry none, and one question spares
    /// the reads of each.
    fn marked(&mut self, n: &Self::Node) -> bool;
    /// The element's text when it holds no element (one read for the common case), else
    /// `None`.
    fn only_text(&mut self, n: &Self::Node, tag: &str) -> Option<String>;
    /// The nodes shown under `n`: a shadow host's shadow tree, a slot's assigned nodes.
    fn children(&mut self, n: &Self::Node) -> Vec<Self::Node>;
    /// The element with this id in `n`'s own tree (its shadow root, or the document).
    fn by_id(&mut self, n: &Self::Node, id: &str) -> Option<Self::Node>;
    fn shown(&mut self, n: &Self::Node) -> Shown;
    /// The CSS `content` of `::before` or `::after`, as the computed style gives it.
    fn generated(&mut self, n: &Self::Node, which: Generated) -> Option<String>;
    /// The `<label>` elements of a form field.
    fn labels(&mut self, n: &Self::Node) -> Vec<Self::Node>;
    /// A field's current value (`input`, `textarea`).
    fn value(&mut self, n: &Self::Node) -> Option<String>;
    /// The chosen options of a `select` or an ARIA listbox or combobox.
    fn selected(&mut self, n: &Self::Node) -> Vec<Self::Node>;
    /// Is the element of HTML's namespace (not `<svg><button>`)?
    fn html(&mut self, n: &Self::Node) -> bool;
}

/// Most nodes one name visits, and most characters it gathers: names are cut far shorter, and
/// a page's name must not cost a walk of the whole page.
const MAX_NODES: usize = 2_000;
const MAX_CHARS: usize = 1_000;
/// Most ids of one `aria-labelledby` followed: a page's list of thousands costs a lookup each.
const MAX_REFERENCES: usize = 32;

/// The attributes that name an element or hide it, which [`NameSources::marked`] asks about.
pub const NAMING: &[&str] = &[
    "aria-labelledby",
    "aria-labeledby",
    "aria-label",
    "role",
    "aria-hidden",
    "title",
    "placeholder",
    "aria-placeholder",
    "aria-valuetext",
    "aria-valuenow",
];

/// How the element named is met.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Named {
    /// Shown on the page, as the snapshot walks it.
    Shown,
    /// Not shown (asked for by selector): its own content is hidden too.
    Hidden,
    /// A generic element a script made a control (a card clicked or dragged): ARIA gives it
    /// no name, but a person reads its words as one.
    Clickable,
}

/// The accessible name of the element `el` (whose tag the caller knows), whitespace
/// collapsed.
pub fn accessible_name<S: NameSources>(src: &mut S, el: &S::Node, tag: &str, how: Named) -> String {
    let mut walk = Walk {
        src,
        root: el.clone(),
        visited: 0,
        chain: Vec::new(),
        consumed: Vec::new(),
    };
    // A hidden element's own content is hidden too; its labels and references still name it.
    let ctx = Ctx {
        hidden_content: how == Named::Hidden,
        content_names: how == Named::Clickable,
        ..Ctx::default()
    };
    let name = walk.element(el, tag, ctx);
    flat(&name)
}

/// Whitespace collapsed and trimmed, as a name is shown.
fn flat(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// An element, and whether it carries any of [`NAMING`].
struct Marked<'a, N> {
    n: &'a N,
    marked: bool,
}

impl<N> Clone for Marked<'_, N> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<N> Copy for Marked<'_, N> {}

#[derive(Debug, Clone, Copy, Default)]
struct Ctx {
    /// Inside another node's name (its content, a label, a referenced element).
    recursion: bool,
    /// Inside an `aria-labelledby` traversal: no second hop.
    labelledby: bool,
    /// The traversal started at a hidden node: hidden nodes under it count (2A).
    hidden_root: bool,
    /// The parent is `visibility: hidden`: its text nodes show nothing.
    parent_invisible: bool,
    /// Inside a label of the element being named: the element itself is left out.
    in_label: bool,
    /// The element named is hidden: its own content is not read (2A).
    hidden_content: bool,
    /// The element named is named by its content whatever its role.
    content_names: bool,
}

struct Walk<'a, S: NameSources> {
    src: &'a mut S,
    /// The element being named: a label holding it does not name it by its own value.
    root: S::Node,
    visited: usize,
    /// The referenced elements being named, against a cycle of references.
    chain: Vec<S::Node>,
    /// Every element a reference named in this computation.
    consumed: Vec<S::Node>,
}

impl<S: NameSources> Walk<'_, S> {
    fn alt(&mut self, n: &S::Node, ctx: Ctx) -> String {
        if let Some(text) = self.src.text(n) {
            let hidden = ctx.parent_invisible && !ctx.hidden_root;
            return if hidden { String::new() } else { text };
        }
        match self.src.tag(n) {
            Some(tag) => self.element(n, &tag, ctx),
            None => String::new(),
        }
    }

    fn element(&mut self, n: &S::Node, tag: &str, ctx: Ctx) -> String {
        self.visited += 1;
        if self.visited > MAX_NODES || never_shown(tag) {
            return String::new();
        }
        // Only the element named may have its content left out; its parts never do.
        let (hidden_content, content_names) = (ctx.hidden_content, ctx.content_names);
        let ctx = Ctx {
            hidden_content: false,
            content_names: false,
            ..ctx
        };
        if tag == "slot" {
            // A slot is no element of the page's tree, only where its nodes show.
            let inside = Ctx {
                recursion: true,
                ..ctx
            };
            return self.children_text(n, tag, inside);
        }
        let marked = self.src.marked(n);
        let m = Marked { n, marked };
        // The element named is shown (the snapshot walks only what is); the parts of its name
        // are asked.
        let shown = match ctx.recursion {
            true => self.src.shown(n),
            false => Shown::Rendered,
        };
        let aria_hidden = self.attr(m, "aria-hidden").as_deref() == Some("true");
        // 2A: hidden, unless the traversal started hidden (then what it holds counts).
        if ctx.recursion && !ctx.hidden_root {
            if shown == Shown::NotRendered || aria_hidden {
                return String::new();
            }
            if shown == Shown::Invisible {
                // Its own words are hidden; a visible child's are not.
                let inside = Ctx {
                    parent_invisible: true,
                    ..ctx
                };
                return self.children_text(n, tag, inside);
            }
        }
        let role = role_of(self.src, m, tag);
        if let Some(named) = self.labelled_by(m, ctx) {
            return named;
        }
        // 2C: a control inside another's name gives its value.
        if ctx.recursion
            && let Some(value) = self.embedded(m, tag, role)
        {
            return value;
        }
        // 2D
        if let Some(label) = self.attr(m, "aria-label").filter(|l| !l.trim().is_empty()) {
            return label;
        }
        let presentational = matches!(role, Some("none" | "presentation"));
        // 2E
        if !presentational {
            let host = self.host_language(m, tag, ctx);
            if !host.trim().is_empty() {
                return host;
            }
        }
        // 2F, 2H: from content, where the role allows it or within another's name.
        let allowed =
            ctx.recursion || content_names || role.is_some_and(from_content) || tag == "label";
        if allowed && !hidden_content {
            let inside = Ctx {
                recursion: true,
                parent_invisible: shown == Shown::Invisible,
                ..ctx
            };
            let content = self.content(n, tag, inside);
            if !content.trim().is_empty() {
                return content;
            }
        }
        if !ctx.recursion && matches!(role, Some("dialog" | "alertdialog" | "article")) {
            let heading = self.first_heading(n);
            if !heading.is_empty() {
                return heading;
            }
        }
        // 2I: the tooltip, then a field's placeholder.
        ["title", "placeholder", "aria-placeholder"]
            .iter()
            .filter(|a| **a == "title" || is_text_field(tag, role))
            .find_map(|a| self.attr(m, a).filter(|v| !v.trim().is_empty()))
            .unwrap_or_default()
    }

    /// An attribute of `m`; one of [`NAMING`] is asked only of a marked element.
    fn attr(&mut self, m: Marked<'_, S::Node>, name: &str) -> Option<String> {
        if !m.marked && NAMING.contains(&name) {
            return None;
        }
        self.src.attribute(m.n, name)
    }

    /// 2B: the referenced elements' names, joined; also the `aria-labeledby` spelling the
    /// browsers accept. `None` when there is none, or all are empty.
    fn labelled_by(&mut self, m: Marked<'_, S::Node>, ctx: Ctx) -> Option<String> {
        if ctx.labelledby || !m.marked {
            return None;
        }
        let n = m.n;
        let ids = self
            .attr(m, "aria-labelledby")
            .or_else(|| self.attr(m, "aria-labeledby"))?;
        let mut parts = Vec::new();
        for id in ids.split_whitespace().take(MAX_REFERENCES) {
            let Some(target) = self.src.by_id(n, id) else {
                continue;
            };
            if self.chain.contains(&target) {
                continue;
            }
            let hidden = self.hidden(&target);
            self.chain.push(target.clone());
            self.consumed.push(target.clone());
            let inside = Ctx {
                recursion: true,
                labelledby: true,
                hidden_root: hidden,
                ..Ctx::default()
            };
            parts.push(flat(&self.alt(&target, inside)));
            self.chain.pop();
        }
        let joined = flat(&parts.join(" "));
        (!joined.is_empty()).then_some(joined)
    }

    fn hidden(&mut self, n: &S::Node) -> bool {
        self.src.shown(n) != Shown::Rendered
            || (self.src.marked(n)
                && self.src.attribute(n, "aria-hidden").as_deref() == Some("true"))
    }

    /// 2C: a textbox's value, a select's or listbox's chosen options, a range's value.
    fn embedded(
        &mut self,
        m: Marked<'_, S::Node>,
        tag: &str,
        role: Option<&str>,
    ) -> Option<String> {
        let n = m.n;
        match role? {
            "textbox" | "searchbox" => Some(self.src.value(n).unwrap_or_default()),
            "combobox" | "listbox" => {
                let chosen = self.src.selected(n);
                if chosen.is_empty() && tag == "input" {
                    return Some(self.src.value(n).unwrap_or_default());
                }
                let ctx = Ctx {
                    recursion: true,
                    ..Ctx::default()
                };
                let names: Vec<String> = chosen
                    .iter()
                    .map(|o| flat(&self.content(o, "option", ctx)))
                    .collect();
                Some(names.join(" "))
            }
            "slider" | "spinbutton" | "progressbar" | "scrollbar" | "meter" => Some(
                self.attr(m, "aria-valuetext")
                    .or_else(|| self.attr(m, "aria-valuenow"))
                    .or_else(|| self.src.value(n))
                    .or_else(|| self.attr(m, "value"))
                    .unwrap_or_default(),
            ),
            _ => None,
        }
    }

    /// 2E: what the markup itself names the element with (HTML-AAM).
    fn host_language(&mut self, m: Marked<'_, S::Node>, tag: &str, ctx: Ctx) -> String {
        let n = m.n;
        let kind = (tag == "input").then(|| {
            self.attr(m, "type")
                .unwrap_or_default()
                .trim()
                .to_ascii_lowercase()
        });
        if labelable(tag, kind.as_deref()) {
            let labels = self.src.labels(n);
            let words: Vec<String> = labels
                .iter()
                .map(|label| {
                    let hidden = self.hidden(label);
                    let inside = Ctx {
                        recursion: true,
                        hidden_root: hidden,
                        in_label: true,
                        ..Ctx::default()
                    };
                    flat(&self.content(label, "label", inside))
                })
                .collect();
            let words = flat(&words.join(" "));
            if !words.is_empty() {
                return words;
            }
        }
        match (tag, kind.as_deref()) {
            ("input", Some("button" | "submit" | "reset")) => {
                let value = self.attr(m, "value").filter(|v| !v.is_empty());
                value.unwrap_or_else(|| match kind.as_deref() {
                    Some("submit") => "Submit".into(),
                    Some("reset") => "Reset".into(),
                    _ => String::new(),
                })
            }
            ("input", Some("image")) => self
                .attr(m, "alt")
                .filter(|a| !a.trim().is_empty())
                .or_else(|| self.attr(m, "value"))
                .unwrap_or_default(),
            ("img" | "area", _) => self.attr(m, "alt").unwrap_or_default(),
            ("fieldset", _) => self.first_child_named(n, "legend", ctx),
            ("table", _) => self.first_child_named(n, "caption", ctx),
            ("figure", _) => self.first_child_named(n, "figcaption", ctx),
            ("svg", _) => self.first_child_named(n, "title", ctx),
            _ => String::new(),
        }
    }

    /// The content of `n`'s first child element with this tag (a fieldset's legend).
    fn first_child_named(&mut self, n: &S::Node, child_tag: &str, ctx: Ctx) -> String {
        let children = self.src.children(n);
        let Some(child) = children
            .into_iter()
            .find(|c| self.src.tag(c).as_deref() == Some(child_tag))
        else {
            return String::new();
        };
        let hidden = self.hidden(&child);
        let inside = Ctx {
            recursion: true,
            hidden_root: hidden || ctx.hidden_root,
            ..ctx
        };
        self.content(&child, child_tag, inside)
    }

    /// 2F: the generated content before, each child's text alternative (block-level parts
    /// words apart), the generated content after.
    fn content(&mut self, n: &S::Node, tag: &str, ctx: Ctx) -> String {
        let invisible = ctx.parent_invisible && !ctx.hidden_root;
        let mut out = String::new();
        if !invisible {
            if tag == "li" {
                self.generated(n, Generated::Marker, &mut out);
            }
            self.generated(n, Generated::Before, &mut out);
        }
        out.push_str(&self.children_text(n, tag, ctx));
        if !invisible {
            self.generated(n, Generated::After, &mut out);
        }
        out
    }

    fn generated(&mut self, n: &S::Node, which: Generated, out: &mut String) {
        let Some(css) = self.src.generated(n, which) else {
            return;
        };
        let text = match which {
            // The marker's words come whole (a bullet, a number, its own content).
            Generated::Marker => css,
            _ => {
                let mut attr = |name: &str| self.src.attribute(n, name);
                super::generated::generated_text(&css, &mut attr)
            }
        };
        if text.is_empty() {
            return;
        }
        // Generated content is laid out inline, but a name keeps it apart from the words.
        if which == Generated::After {
            out.push(' ');
        }
        out.push_str(&text);
        if which != Generated::After {
            out.push(' ');
        }
    }

    fn children_text(&mut self, n: &S::Node, tag: &str, ctx: Ctx) -> String {
        let hidden = ctx.parent_invisible && !ctx.hidden_root;
        if !ctx.in_label
            && let Some(text) = self.src.only_text(n, tag)
        {
            return if hidden { String::new() } else { text };
        }
        let mut out = String::new();
        let inside = Ctx {
            recursion: true,
            ..ctx
        };
        for child in self.src.children(n) {
            if out.len() > MAX_CHARS || self.visited > MAX_NODES {
                break;
            }
            if ctx.in_label && child == self.root {
                continue;
            }
            // An element a reference already named is not read again in the same name.
            if !self.consumed.is_empty() && self.consumed.contains(&child) {
                continue;
            }
            if let Some(text) = self.src.text(&child) {
                if !hidden {
                    out.push_str(&text);
                }
                continue;
            }
            let Some(child_tag) = self.src.tag(&child) else {
                continue;
            };
            let text = self.element(&child, &child_tag, inside);
            if is_block(&child_tag) {
                out.push(' ');
                out.push_str(&text);
                out.push(' ');
            } else {
                out.push_str(&text);
            }
        }
        out
    }

    /// A dialog's or article's first heading, shallowest first (a name it shows as its title).
    fn first_heading(&mut self, n: &S::Node) -> String {
        let mut level = self.src.children(n);
        for _ in 0..4 {
            let mut next = Vec::new();
            for child in level {
                let Some(tag) = self.src.tag(&child) else {
                    continue;
                };
                let m = Marked {
                    n: &child,
                    marked: self.src.marked(&child),
                };
                if role_of(self.src, m, &tag) == Some("heading") {
                    let ctx = Ctx {
                        recursion: true,
                        ..Ctx::default()
                    };
                    return flat(&self.alt(&child, ctx));
                }
                next.extend(self.src.children(&child));
            }
            level = next;
        }
        String::new()
    }
}

/// Controls a person focuses, whose role `role="none"` cannot take away.
pub fn natively_focusable(tag: &str, has_href: bool) -> bool {
    matches!(tag, "input" | "select" | "textarea" | "button") || has_href
}

/// Elements whose content is never words of a name.
fn never_shown(tag: &str) -> bool {
    matches!(
        tag,
        "script" | "style" | "noscript" | "template" | "head" | "meta" | "link" | "datalist"
    )
}

/// Elements laid out as blocks by default: their words stand apart from their neighbours'.
fn is_block(tag: &str) -> bool {
    matches!(
        tag,
        "address"
            | "article"
            | "aside"
            | "blockquote"
            | "br"
            | "caption"
            | "dd"
            | "details"
            | "dialog"
            | "div"
            | "dl"
            | "dt"
            | "fieldset"
            | "figcaption"
            | "figure"
            | "footer"
            | "form"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "header"
            | "hr"
            | "legend"
            | "li"
            | "main"
            | "nav"
            | "ol"
            | "p"
            | "pre"
            | "section"
            | "summary"
            | "table"
            | "tbody"
            | "td"
            | "tfoot"
            | "th"
            | "thead"
            | "tr"
            | "ul"
    )
}

/// Elements HTML lets a `<label>` name.
/// (A `<button>` may be labelled too, but its words are its name in practice, and asking
/// every button for labels costs the snapshot several calls into the page each.)
fn labelable(tag: &str, kind: Option<&str>) -> bool {
    match tag {
        "input" => kind != Some("hidden"),
        "select" | "textarea" | "meter" | "output" | "progress" => true,
        _ => false,
    }
}

fn is_text_field(tag: &str, role: Option<&str>) -> bool {
    matches!(tag, "input" | "textarea") || matches!(role, Some("textbox" | "searchbox"))
}

/// Roles whose name comes from their content (ARIA's "name from: contents").
fn from_content(role: &str) -> bool {
    matches!(
        role,
        "button"
            | "cell"
            | "checkbox"
            | "columnheader"
            | "gridcell"
            | "heading"
            | "link"
            | "menuitem"
            | "menuitemcheckbox"
            | "menuitemradio"
            | "option"
            | "radio"
            | "row"
            | "rowheader"
            | "sectionhead"
            | "switch"
            | "tab"
            | "tooltip"
            | "treeitem"
    )
}

/// The element's ARIA role: its `role` attribute's first role ARIA knows, else its tag's.
fn role_of<S: NameSources>(src: &mut S, m: Marked<'_, S::Node>, tag: &str) -> Option<&'static str> {
    let n = m.n;
    let explicit = m.marked.then(|| src.attribute(n, "role")).flatten();
    if let Some(explicit) = explicit.and_then(|r| {
        r.split_whitespace().find_map(|r| {
            ARIA_ROLES
                .iter()
                .find(|k| k.eq_ignore_ascii_case(r))
                .copied()
        })
    }) {
        let presentational = matches!(explicit, "none" | "presentation");
        let focusable = presentational && {
            let href = linked(src, n, tag);
            natively_focusable(tag, href) && src.attribute(n, "disabled").is_none()
        };
        if !focusable {
            return Some(explicit);
        }
    }
    let role = tag_role_of(src, n, tag)?;
    // An element of another namespace takes no role from its tag (`<svg><button>`); SVG's
    // `a` and MathML's `math` mean what HTML's do.
    let html = matches!(tag, "a" | "math") || src.html(n);
    html.then_some(role)
}

/// Does the `a` or `area` link somewhere? SVG's `a` may still say where the SVG 1.1 way
/// (`xlink:href`).
fn linked<S: NameSources>(src: &mut S, n: &S::Node, tag: &str) -> bool {
    matches!(tag, "a" | "area")
        && (src.attribute(n, "href").is_some()
            || tag == "a" && src.attribute(n, "xlink:href").is_some() && !src.html(n))
}

/// The role an HTML element's tag (and its type, href or size) gives it.
fn tag_role_of<S: NameSources>(src: &mut S, n: &S::Node, tag: &str) -> Option<&'static str> {
    let kind = |src: &mut S| {
        src.attribute(n, "type")
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase()
    };
    Some(match tag {
        "a" | "area" if linked(src, n, tag) => "link",
        "button" | "summary" => "button",
        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => "heading",
        "img" => "img",
        "input" => match kind(src).as_str() {
            "button" | "submit" | "reset" | "image" => "button",
            "checkbox" => "checkbox",
            "radio" => "radio",
            "range" => "slider",
            "number" => "spinbutton",
            "search" => "searchbox",
            "hidden" => return None,
            _ => "textbox",
        },
        "select" => {
            let multiple = src.attribute(n, "multiple").is_some();
            let size = src
                .attribute(n, "size")
                .and_then(|s| s.trim().parse::<u32>().ok());
            if multiple || size.is_some_and(|s| s > 1) {
                "listbox"
            } else {
                "combobox"
            }
        }
        _ => return tag_role(tag),
    })
}

/// The role HTML gives an element by its tag alone (no attribute of its decides it).
pub fn tag_role(tag: &str) -> Option<&'static str> {
    Some(match tag {
        "textarea" => "textbox",
        "option" => "option",
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
        "td" | "th" => "cell",
        "thead" | "tbody" | "tfoot" => "rowgroup",
        "fieldset" => "group",
        "figure" => "figure",
        "article" => "article",
        "hr" => "separator",
        "meter" => "meter",
        "progress" => "progressbar",
        "output" => "status",
        "math" => "math",
        "blockquote" => "blockquote",
        _ => return None,
    })
}

/// The roles of WAI-ARIA 1.2 (and `image`, 1.3's name for `img`).
pub const ARIA_ROLES: &[&str] = &[
    "alert",
    "alertdialog",
    "application",
    "article",
    "banner",
    "blockquote",
    "button",
    "caption",
    "cell",
    "checkbox",
    "code",
    "columnheader",
    "combobox",
    "complementary",
    "contentinfo",
    "definition",
    "deletion",
    "dialog",
    "directory",
    "document",
    "emphasis",
    "feed",
    "figure",
    "form",
    "generic",
    "grid",
    "gridcell",
    "group",
    "heading",
    "image",
    "img",
    "insertion",
    "link",
    "list",
    "listbox",
    "listitem",
    "log",
    "main",
    "marquee",
    "math",
    "menu",
    "menubar",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "meter",
    "navigation",
    "none",
    "note",
    "option",
    "paragraph",
    "presentation",
    "progressbar",
    "radio",
    "radiogroup",
    "region",
    "row",
    "rowgroup",
    "rowheader",
    "scrollbar",
    "search",
    "searchbox",
    "sectionhead",
    "separator",
    "slider",
    "spinbutton",
    "status",
    "strong",
    "subscript",
    "superscript",
    "switch",
    "tab",
    "table",
    "tablist",
    "tabpanel",
    "term",
    "textbox",
    "time",
    "timer",
    "toolbar",
    "tooltip",
    "tree",
    "treegrid",
    "treeitem",
];

#[cfg(test)]
mod tests {
    use super::*;

    /// A tree of plain values: elements with attributes and a style, and text.
    #[derive(Clone)]
    enum Fake {
        El {
            tag: &'static str,
            attrs: Vec<(&'static str, &'static str)>,
            shown: Shown,
            before: Option<&'static str>,
            children: Vec<usize>,
            value: Option<&'static str>,
        },
        Text(&'static str),
    }

    #[derive(Default)]
    struct Tree {
        nodes: Vec<Fake>,
        labels: Vec<(usize, usize)>,
        /// Every question asked, to check that the computation reads no more than it needs.
        asked: usize,
    }

    impl Tree {
        fn el(&mut self, tag: &'static str, attrs: &[(&'static str, &'static str)]) -> usize {
            self.nodes.push(Fake::El {
                tag,
                attrs: attrs.to_vec(),
                shown: Shown::Rendered,
                before: None,
                children: Vec::new(),
                value: None,
            });
            self.nodes.len() - 1
        }
        fn text(&mut self, parent: usize, text: &'static str) -> usize {
            self.nodes.push(Fake::Text(text));
            let id = self.nodes.len() - 1;
            self.add(parent, id);
            id
        }
        fn child(
            &mut self,
            parent: usize,
            tag: &'static str,
            attrs: &[(&'static str, &'static str)],
        ) -> usize {
            let id = self.el(tag, attrs);
            self.add(parent, id);
            id
        }
        fn add(&mut self, parent: usize, child: usize) {
            if let Fake::El { children, .. } = &mut self.nodes[parent] {
                children.push(child);
            }
        }
        fn set(
            &mut self,
            n: usize,
            f: impl FnOnce(&mut Shown, &mut Option<&'static str>, &mut Option<&'static str>),
        ) {
            if let Fake::El {
                shown,
                before,
                value,
                ..
            } = &mut self.nodes[n]
            {
                f(shown, before, value);
            }
        }
        fn name(&mut self, n: usize) -> String {
            let tag = self.tag(&n).unwrap_or_default();
            self.asked = 0;
            accessible_name(self, &n, &tag, Named::Shown)
        }
    }

    impl NameSources for Tree {
        type Node = usize;
        fn tag(&mut self, n: &usize) -> Option<String> {
            self.asked += 1;
            match &self.nodes[*n] {
                Fake::El { tag, .. } => Some((*tag).to_owned()),
                Fake::Text(_) => None,
            }
        }
        fn text(&mut self, n: &usize) -> Option<String> {
            match &self.nodes[*n] {
                Fake::Text(t) => Some((*t).to_owned()),
                Fake::El { .. } => None,
            }
        }
        fn attribute(&mut self, n: &usize, name: &str) -> Option<String> {
            self.asked += 1;
            match &self.nodes[*n] {
                Fake::El { attrs, .. } => attrs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| (*v).to_owned()),
                Fake::Text(_) => None,
            }
        }
        fn marked(&mut self, n: &usize) -> bool {
            self.asked += 1;
            match &self.nodes[*n] {
                Fake::El { attrs, .. } => attrs.iter().any(|(k, _)| NAMING.contains(k)),
                Fake::Text(_) => false,
            }
        }
        fn only_text(&mut self, n: &usize, _: &str) -> Option<String> {
            self.asked += 1;
            let children = self.children(n);
            let mut text = String::new();
            for c in children {
                text.push_str(&NameSources::text(self, &c)?);
            }
            Some(text)
        }
        fn children(&mut self, n: &usize) -> Vec<usize> {
            match &self.nodes[*n] {
                Fake::El { children, .. } => children.clone(),
                Fake::Text(_) => Vec::new(),
            }
        }
        fn by_id(&mut self, _: &usize, id: &str) -> Option<usize> {
            (0..self.nodes.len()).find(|n| match &self.nodes[*n] {
                Fake::El { attrs, .. } => attrs.iter().any(|(k, v)| *k == "id" && *v == id),
                Fake::Text(_) => false,
            })
        }
        fn shown(&mut self, n: &usize) -> Shown {
            match &self.nodes[*n] {
                Fake::El { shown, .. } => *shown,
                Fake::Text(_) => Shown::Rendered,
            }
        }
        fn generated(&mut self, n: &usize, which: Generated) -> Option<String> {
            match (&self.nodes[*n], which) {
                (Fake::El { before, .. }, Generated::Before) => before.map(str::to_owned),
                _ => None,
            }
        }
        fn labels(&mut self, n: &usize) -> Vec<usize> {
            self.labels
                .iter()
                .filter(|(_, field)| field == n)
                .map(|(label, _)| *label)
                .collect()
        }
        fn value(&mut self, n: &usize) -> Option<String> {
            match &self.nodes[*n] {
                Fake::El { value, .. } => value.map(str::to_owned),
                Fake::Text(_) => None,
            }
        }
        fn selected(&mut self, _: &usize) -> Vec<usize> {
            Vec::new()
        }
        /// An element with an `xmlns` is of another namespace.
        fn html(&mut self, n: &usize) -> bool {
            self.asked += 1;
            match &self.nodes[*n] {
                Fake::El { attrs, .. } => attrs.iter().all(|(k, _)| *k != "xmlns"),
                Fake::Text(_) => false,
            }
        }
    }

    #[test]
    fn an_element_of_another_namespace_takes_no_role_from_its_tag() {
        // `<svg><h2>` is no heading: a dialog's title is the first HTML heading; an `<svg><a>`
        // with an href is a link, and names from its content.
        let mut t = Tree::default();
        let dialog = t.el("dialog", &[]);
        let fake = t.child(dialog, "h2", &[("xmlns", "svg")]);
        t.text(fake, "Fake");
        let real = t.child(dialog, "h3", &[]);
        t.text(real, "Real");
        assert_eq!(t.name(dialog), "Real");
        let link = t.el("a", &[("xmlns", "svg"), ("href", "#")]);
        t.text(link, "Drawn");
        assert_eq!(t.name(link), "Drawn");
        let old = t.el("a", &[("xmlns", "svg"), ("xlink:href", "#")]);
        t.text(old, "Old");
        assert_eq!(t.name(old), "Old");
        // HTML's `a` links only by `href`: no name from its content.
        let not = t.el("a", &[("xlink:href", "#")]);
        t.text(not, "Not");
        assert_eq!(t.name(not), "");
    }

    #[test]
    fn aria_label_beats_content_and_labelledby_beats_both() {
        let mut t = Tree::default();
        let h = t.el("h1", &[("aria-label", "label")]);
        t.text(h, "x");
        assert_eq!(t.name(h), "label");
        let other = t.el("span", &[("id", "other")]);
        t.text(other, "second label");
        let b = t.el(
            "button",
            &[("aria-labeledby", "other"), ("aria-label", "foo")],
        );
        t.text(b, "x");
        assert_eq!(t.name(b), "second label", "the spelling browsers accept");
    }

    #[test]
    fn labelledby_names_self_and_others_once() {
        let mut t = Tree::default();
        let g = t.el(
            "div",
            &[
                ("role", "group"),
                ("id", "self"),
                ("aria-label", "self label"),
                ("aria-labelledby", "self h"),
            ],
        );
        let h = t.child(g, "h2", &[("id", "h")]);
        t.text(h, "first heading");
        assert_eq!(t.name(g), "self label first heading");
    }

    #[test]
    fn hidden_parts_count_only_when_the_reference_is_hidden() {
        let mut t = Tree::default();
        let label = t.el("span", &[("id", "l")]);
        t.text(label, "foo ");
        let gone = t.child(label, "span", &[]);
        t.text(gone, "bar");
        t.set(gone, |s, _, _| *s = Shown::NotRendered);
        let b = t.el("button", &[("aria-labelledby", "l")]);
        assert_eq!(
            t.name(b),
            "foo",
            "a visible reference leaves its hidden parts out"
        );
        t.set(label, |s, _, _| *s = Shown::NotRendered);
        assert_eq!(t.name(b), "foo bar", "a hidden reference brings them");
    }

    #[test]
    fn visible_inside_invisible_shows() {
        let mut t = Tree::default();
        let h = t.el("h2", &[]);
        t.text(h, "shown, ");
        let invisible = t.child(h, "span", &[]);
        t.set(invisible, |s, _, _| *s = Shown::Invisible);
        t.text(invisible, "hidden ");
        let visible = t.child(invisible, "span", &[]);
        t.text(visible, "back");
        assert_eq!(t.name(h), "shown, back");
    }

    #[test]
    fn an_embedded_control_gives_its_value_but_not_to_itself() {
        let mut t = Tree::default();
        let label = t.el("label", &[]);
        t.text(label, "Flash the screen ");
        let times = t.child(label, "input", &[("type", "text")]);
        t.set(times, |_, _, v| *v = Some("3"));
        t.text(label, " times");
        let check = t.el("input", &[("type", "checkbox")]);
        t.labels.push((label, check));
        t.labels.push((label, times));
        assert_eq!(t.name(check), "Flash the screen 3 times");
        assert_eq!(t.name(times), "Flash the screen times");
    }

    #[test]
    fn generated_content_and_blocks_keep_words_apart() {
        let mut t = Tree::default();
        let b = t.el("button", &[]);
        t.set(b, |_, before, _| *before = Some("\"before\""));
        t.text(b, "label");
        assert_eq!(t.name(b), "before label");
        let cell = t.el("div", &[("role", "gridcell")]);
        let make = t.child(cell, "div", &[]);
        t.text(make, "Ford");
        let model = t.child(cell, "div", &[]);
        t.text(model, "F-Series");
        assert_eq!(t.name(cell), "Ford F-Series");
    }

    #[test]
    fn host_language_names_and_tooltips() {
        let mut t = Tree::default();
        let img = t.el("input", &[("type", "image"), ("alt", "image input label")]);
        assert_eq!(t.name(img), "image input label");
        let table = t.el("table", &[]);
        let caption = t.child(table, "caption", &[]);
        t.text(caption, "table caption label");
        assert_eq!(t.name(table), "table caption label");
        let none = t.el("table", &[("role", "none")]);
        let c = t.child(none, "caption", &[]);
        t.text(c, "caption");
        assert_eq!(t.name(none), "", "a presentational table has no name");
        let abbr = t.el("abbr", &[("title", "Web Platform Tests")]);
        t.text(abbr, "WPT");
        assert_eq!(t.name(abbr), "Web Platform Tests");
        let field = t.el("input", &[("type", "text"), ("placeholder", "Search")]);
        assert_eq!(t.name(field), "Search");
    }

    #[test]
    fn a_clickable_card_is_named_by_its_words() {
        let mut t = Tree::default();
        let card = t.el("div", &[]);
        t.text(card, "Task A");
        assert_eq!(t.name(card), "", "ARIA names no generic element");
        assert_eq!(
            accessible_name(&mut t, &card, "div", Named::Clickable),
            "Task A"
        );
        let hidden = t.el("button", &[]);
        t.text(hidden, "x");
        assert_eq!(
            accessible_name(&mut t, &hidden, "button", Named::Hidden),
            ""
        );
    }

    #[test]
    fn a_cycle_of_references_ends() {
        let mut t = Tree::default();
        let a = t.el("span", &[("id", "a"), ("aria-labelledby", "b")]);
        t.text(a, "A");
        let b = t.el("span", &[("id", "b"), ("aria-labelledby", "a")]);
        t.text(b, "B");
        let button = t.el("button", &[("aria-labelledby", "a b")]);
        assert_eq!(t.name(button), "A B");
    }

    #[test]
    fn a_plain_button_costs_few_questions() {
        let mut t = Tree::default();
        let b = t.el("button", &[]);
        t.text(b, "Save");
        assert_eq!(t.name(b), "Save");
        assert!(t.asked <= 8, "asked {} questions", t.asked);
    }
}
