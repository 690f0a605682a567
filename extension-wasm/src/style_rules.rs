//! The page's style rules, read for two ends: the `:hover` and `:focus` rules mirrored onto
//! attributes (`content/states.rs`, which mirrors them again when [`signature`] changes), and
//! the rules whose `content` gives words to `::before` or `::after` (accessible names). Which rules count, what a sheet we may not read means and
//! where the reading stops is decided here, over [`Sheets`]; the content script reads the
//! CSS object model (`content/style_sheets.rs`), the tests sheets of their own.

use crate::a11y::generated::{declares_words, pseudo_bases};
use crate::text::mirror_states;

/// What the walks read of the page's style sheets. Each read may cost a call into the page,
/// so each walk asks only what it needs of a rule.
pub trait Sheets {
    type List;
    type Rule;

    /// The document's style sheets' rules; `None` for a sheet that cannot be read (another
    /// origin's, or an `@import` still loading).
    fn sheets(&self) -> Vec<Option<Self::List>>;
    /// How many rules `list` holds (one read, where [`Sheets::rules`] reads each).
    fn len(&self, list: &Self::List) -> u32;
    fn rules<'a>(&'a self, list: &'a Self::List) -> impl Iterator<Item = Self::Rule> + 'a;
    /// A style rule's selector; `None` for any other rule.
    fn selector(&self, rule: &Self::Rule) -> Option<String>;
    /// The rules inside a rule: a group's (`@media`, `@supports`, `@layer`), or those nested
    /// in a style rule.
    fn nested(&self, rule: &Self::Rule) -> Option<Self::List>;
    /// An `@import`'s sheet: `Some(None)` when it cannot be read; `None` for other rules.
    fn imported(&self, rule: &Self::Rule) -> Option<Option<Self::List>>;
    /// The media an `@media` or `@import` rule applies to, when it names any.
    fn media(&self, rule: &Self::Rule) -> Option<String>;
    /// The rule as CSS writes it (`cssText`).
    fn text(&self, rule: &Self::Rule) -> String;
    /// The `content` a style rule declares.
    fn content(&self, rule: &Self::Rule) -> String;
    fn media_matches(&self, condition: &str) -> bool;
}

/// Rules mirrored at most (a page with more has them cut, and is told).
pub const MAX_MIRRORED: usize = 2_000;

/// Groups and imports entered one inside another at most: a hostile server may chain
/// `@import`s without end; deeper rules are not mirrored.
pub const MAX_DEPTH: usize = 16;

/// The page's state rules, mirrored: each pseudo-class of `states` onto its attribute.
pub struct Mirrored {
    pub rules: Vec<String>,
    /// Sheets not read (another origin's): their state rules are missing.
    pub unreadable: usize,
    /// More than [`MAX_MIRRORED`]: the rest are left out.
    pub cut: bool,
}

impl Mirrored {
    /// What a hover's answer adds of what was not mirrored (empty when all was): `; ` and the
    /// notes, for the answer to append.
    pub fn note(&self) -> String {
        let mut notes = Vec::new();
        if self.unreadable > 0 {
            notes.push(format!(
                "{} stylesheet(s) could not be read (cross-origin): their :hover styles are not shown",
                self.unreadable
            ));
        }
        if self.cut {
            notes.push(format!(
                "only the first {MAX_MIRRORED} :hover and :focus rules are applied"
            ));
        }
        if notes.is_empty() {
            String::new()
        } else {
            format!("; {}", notes.join("; "))
        }
    }
}

/// The `:hover` and `:focus…` rules of the page's sheets that apply now (inside `@media` that
/// matches, `@supports` and `@layer` as they are, `@import`ed sheets), rewritten onto the
/// attributes `states` pairs with each pseudo-class.
pub fn mirrored<S: Sheets>(sheets: &S, states: &[(&str, &str)]) -> Mirrored {
    let mut walk = Mirror {
        sheets,
        states,
        out: Mirrored {
            rules: Vec::new(),
            unreadable: 0,
            cut: false,
        },
    };
    for sheet in sheets.sheets() {
        match sheet {
            Some(list) => walk.collect(&list, 0),
            None => walk.out.unreadable += 1,
        }
    }
    let out = &mut walk.out;
    out.cut = out.rules.len() > MAX_MIRRORED;
    out.rules.truncate(MAX_MIRRORED);
    walk.out
}

struct Mirror<'a, S: Sheets> {
    sheets: &'a S,
    states: &'a [(&'a str, &'a str)],
    out: Mirrored,
}

impl<S: Sheets> Mirror<'_, S> {
    fn collect(&mut self, list: &S::List, depth: usize) {
        let sheets = self.sheets;
        if depth > MAX_DEPTH {
            return;
        }
        for rule in sheets.rules(list) {
            if self.out.rules.len() > MAX_MIRRORED {
                return;
            }
            if let Some(selector) = sheets.selector(&rule) {
                if selector.contains(":hover") || selector.contains(":focus") {
                    let mirrored = mirror_states(&sheets.text(&rule), self.states);
                    self.out.rules.extend(mirrored);
                }
                continue;
            }
            // A group or an import counts when its media match now.
            let applies = sheets.media(&rule).is_none_or(|m| sheets.media_matches(&m));
            if !applies {
                continue;
            }
            match sheets.imported(&rule) {
                Some(Some(imported)) => self.collect(&imported, depth + 1),
                Some(None) => self.out.unreadable += 1,
                None => {
                    if let Some(nested) = sheets.nested(&rule) {
                        self.collect(&nested, depth + 1);
                    }
                }
            }
        }
    }
}

/// What tells that the page's style changed since it was mirrored, cheap enough to ask at
/// every action: how many sheets there are, and how many rules they and the sheets they
/// `@import` hold (imports come first in a sheet, so only those rules are read; a sheet still
/// loading counts none until it has loaded). Our own sheet of mirrored rules, asked last
/// whether it is there (`ours`), is not counted among the sheets.
pub fn signature<S: Sheets>(sheets: &S, ours: impl FnOnce() -> bool) -> (usize, u32) {
    let all = sheets.sheets();
    let rules = all.iter().flatten().map(|list| counted(sheets, list, 0));
    let rules = rules.fold(0, u32::saturating_add);
    (all.len().saturating_sub(usize::from(ours())), rules)
}

/// Our sheet of the page's state rules mirrored (`content/states.rs`).
pub trait StateSheet {
    /// The page's [`signature`] now; `None` where the frame has no document.
    fn signature(&self) -> Option<(usize, u32)>;
    /// Rebuilds our sheet from the page's state rules ([`mirrored`]); its [`Mirrored::note`].
    fn mirror(&self) -> String;
}

/// When our sheet is rebuilt: the page's [`signature`] when it last was.
#[derive(Default)]
pub struct Mirroring {
    last: Option<(usize, u32)>,
}

impl Mirroring {
    /// A hover rebuilds our sheet whatever changed; says what was not mirrored.
    pub fn force(&mut self, sheet: &impl StateSheet) -> String {
        let note = sheet.mirror();
        self.last = sheet.signature();
        note
    }

    /// Any other action rebuilds it only where the page's sheets changed since. The signature
    /// kept is the one after the rebuild, as [`Mirroring::force`] keeps: our sheet's rules count
    /// in it, so the one before would tell the next action to rebuild again.
    pub fn refresh(&mut self, sheet: &impl StateSheet) {
        if sheet.signature() != self.last {
            self.force(sheet);
        }
    }
}

fn counted<S: Sheets>(sheets: &S, list: &S::List, depth: usize) -> u32 {
    let own = sheets.len(list);
    if depth == MAX_DEPTH {
        return own;
    }
    let imports = sheets.rules(list).map_while(|rule| sheets.imported(&rule));
    imports
        .flatten()
        .map(|imported| counted(sheets, &imported, depth + 1))
        .fold(own, u32::saturating_add)
}

/// Rules read at most for generated words: past them, anything may generate words.
pub const MAX_READ: u32 = 2_000;

/// For `::before` and `::after`: the selectors (pseudo-element taken off) of the rules whose
/// `content` gives words, as one list each, `None` when no rule does. A sheet that cannot be
/// read, or more rules than [`MAX_READ`], may generate anything (`*`).
pub fn generating<S: Sheets>(sheets: &S) -> [Option<String>; 2] {
    let mut bases: [Vec<String>; 2] = Default::default();
    let mut budget = MAX_READ;
    let readable = sheets.sheets().into_iter().all(|sheet| {
        sheet.is_some_and(|list| generating_in(sheets, &list, &mut budget, &mut bases))
    });
    if !readable {
        return [Some("*".into()), Some("*".into())];
    }
    bases.map(|b| (!b.is_empty()).then(|| b.join(", ")))
}

/// Adds the bases of `list`'s rules (and of the rules inside them) that declare words; false
/// when a sheet could not be read or the budget ran out.
fn generating_in<S: Sheets>(
    sheets: &S,
    list: &S::List,
    budget: &mut u32,
    bases: &mut [Vec<String>; 2],
) -> bool {
    for rule in sheets.rules(list) {
        *budget = match budget.checked_sub(1) {
            Some(left) => left,
            None => return false,
        };
        if let Some(nested) = sheets.nested(&rule)
            && !generating_in(sheets, &nested, budget, bases)
        {
            return false;
        }
        match sheets.imported(&rule) {
            Some(Some(imported)) if !generating_in(sheets, &imported, budget, bases) => {
                return false;
            }
            Some(None) => return false,
            _ => {}
        }
        let Some(selector) = sheets.selector(&rule) else {
            continue;
        };
        if declares_words(&sheets.content(&rule)) {
            let [before, after] = pseudo_bases(&selector);
            bases[0].extend(before);
            bases[1].extend(after);
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sheets of the tests' own: each rule written as CSS would give it.
    #[derive(Clone)]
    enum Rule {
        Style(&'static str, &'static str, Vec<Rule>),
        Media(&'static str, Vec<Rule>),
        Supports(Vec<Rule>),
        Import(Option<Vec<Rule>>),
    }

    use Rule::*;

    /// `cssText` of a style rule: its selector and body.
    fn style(selector: &'static str, body: &'static str) -> Rule {
        Style(selector, body, Vec::new())
    }

    struct Fake {
        sheets: Vec<Option<Vec<Rule>>>,
        /// The media that match.
        screen: &'static [&'static str],
    }

    impl Sheets for Fake {
        type List = Vec<Rule>;
        type Rule = Rule;

        fn sheets(&self) -> Vec<Option<Vec<Rule>>> {
            self.sheets.clone()
        }
        fn len(&self, list: &Vec<Rule>) -> u32 {
            list.len() as u32
        }
        fn rules<'a>(&'a self, list: &'a Vec<Rule>) -> impl Iterator<Item = Rule> + 'a {
            list.iter().cloned()
        }
        fn selector(&self, rule: &Rule) -> Option<String> {
            match rule {
                Style(selector, ..) => Some((*selector).to_owned()),
                _ => None,
            }
        }
        fn nested(&self, rule: &Rule) -> Option<Vec<Rule>> {
            match rule {
                Style(_, _, nested) if !nested.is_empty() => Some(nested.clone()),
                Media(_, rules) | Supports(rules) => Some(rules.clone()),
                _ => None,
            }
        }
        fn imported(&self, rule: &Rule) -> Option<Option<Vec<Rule>>> {
            match rule {
                Import(sheet) => Some(sheet.clone()),
                _ => None,
            }
        }
        fn media(&self, rule: &Rule) -> Option<String> {
            match rule {
                Media(media, _) => Some((*media).to_owned()),
                _ => None,
            }
        }
        fn text(&self, rule: &Rule) -> String {
            match rule {
                Style(selector, body, _) => format!("{selector} {{ {body} }}"),
                _ => String::new(),
            }
        }
        fn content(&self, rule: &Rule) -> String {
            let body = match rule {
                Style(_, body, _) => body,
                _ => "",
            };
            let content = body
                .split(';')
                .find_map(|d| d.trim().strip_prefix("content:"));
            content.unwrap_or_default().trim().to_owned()
        }
        fn media_matches(&self, condition: &str) -> bool {
            self.screen.contains(&condition)
        }
    }

    const STATES: [(&str, &str); 2] = [("hover", "data-h"), ("focus", "data-f")];

    fn fake(sheets: Vec<Option<Vec<Rule>>>) -> Fake {
        Fake {
            sheets,
            screen: &["screen"],
        }
    }

    #[test]
    fn state_rules_are_mirrored_where_they_apply_and_imports_are_read() {
        let page = fake(vec![
            Some(vec![
                style(".row:hover .delete", "display: block"),
                style(".plain", "color: red"),
                Media("screen", vec![style("a:focus", "outline: 1px solid")]),
                Media("print", vec![style("a:hover", "color: black")]),
                Supports(vec![style("b:hover", "color: blue")]),
            ]),
            Some(vec![Import(Some(vec![style(".menu:hover", "opacity: 1")]))]),
            None,
            Some(vec![Import(None)]),
        ]);
        let m = mirrored(&page, &STATES);
        assert_eq!(
            m.rules,
            [
                ".row[data-h] .delete { display: block }",
                "a[data-f] { outline: 1px solid }",
                "b[data-h] { color: blue }",
                ".menu[data-h] { opacity: 1 }",
            ]
        );
        assert_eq!((m.unreadable, m.cut), (2, false));
    }

    #[test]
    fn imports_chained_without_end_are_followed_only_so_deep() {
        let mut chain = vec![style("a:hover", "color: red")];
        for _ in 0..MAX_DEPTH + 5 {
            chain = vec![style("b:hover", "color: blue"), Import(Some(chain))];
        }
        let m = mirrored(&fake(vec![Some(chain)]), &STATES);
        // The top sheet and MAX_DEPTH imports below it are read; the rest are not.
        assert_eq!(m.rules.len(), MAX_DEPTH + 1);
        assert!(m.rules.iter().all(|r| r == "b[data-h] { color: blue }"));
    }

    #[test]
    fn the_signature_counts_imported_rules_and_changes_when_an_import_loads() {
        let loading = fake(vec![
            Some(vec![Import(None), style("a:hover", "color: red")]),
            None,
        ]);
        assert_eq!(signature(&loading, || false), (2, 2));
        let loaded = fake(vec![
            Some(vec![
                Import(Some(vec![
                    style("b:focus", "outline: 0"),
                    style(".c", "color: red"),
                ])),
                style("a:hover", "color: red"),
            ]),
            None,
        ]);
        assert_eq!(signature(&loaded, || false), (2, 4));
        // Our own sheet is no sheet of the page's.
        assert_eq!(signature(&loaded, || true), (1, 4));
        // Only the leading imports are read: an `@import` after a style rule is none.
        let late = fake(vec![Some(vec![
            style("a", "color: red"),
            Import(Some(vec![style("b", "color: red")])),
        ])]);
        assert_eq!(signature(&late, || false), (1, 2));
        assert_eq!(signature(&fake(Vec::new()), || true), (0, 0));
    }

    #[test]
    fn a_page_of_many_state_rules_has_them_cut_and_says_so() {
        let many = vec![style("a:hover", "color: red"); MAX_MIRRORED + 50];
        let m = mirrored(&fake(vec![Some(many)]), &STATES);
        assert_eq!(m.rules.len(), MAX_MIRRORED);
        assert!(m.cut);
        let just = vec![style("a:hover", "color: red"); MAX_MIRRORED];
        assert!(!mirrored(&fake(vec![Some(just)]), &STATES).cut);
    }

    #[test]
    fn generated_words_come_from_rules_whose_content_gives_some() {
        let page = fake(vec![
            Some(vec![
                style(".icon::before", "content: \"★\""),
                style(".clearfix::after", "content: \"\""),
                Media("print", vec![style(".note::after", "content: \" (note)\"")]),
                Style(
                    ".card",
                    "color: red",
                    vec![style("& .tag::before", "content: \"#\"")],
                ),
            ]),
            Some(vec![Import(Some(vec![style(
                "q::after",
                "content: close-quote",
            )]))]),
        ]);
        let [before, after] = generating(&page);
        assert_eq!(before.as_deref(), Some(".icon, & .tag"));
        assert_eq!(after.as_deref(), Some(".note, q"));
    }

    #[test]
    fn an_unreadable_sheet_or_too_many_rules_may_generate_anything() {
        let anything = [Some("*".to_owned()), Some("*".to_owned())];
        assert_eq!(generating(&fake(vec![Some(vec![]), None])), anything);
        let imported = fake(vec![Some(vec![Import(None)])]);
        assert_eq!(generating(&imported), anything);
        let many = vec![style(".a", "color: red"); MAX_READ as usize + 1];
        assert_eq!(generating(&fake(vec![Some(many)])), anything);
        assert_eq!(
            generating(&fake(vec![Some(vec![style(".a", "color: red")])])),
            [None, None]
        );
    }

    fn read(unreadable: usize, cut: bool) -> Mirrored {
        Mirrored {
            rules: Vec::new(),
            unreadable,
            cut,
        }
    }

    #[test]
    fn the_note_tells_what_was_not_mirrored() {
        assert_eq!(read(0, false).note(), "");
        assert_eq!(
            read(2, false).note(),
            "; 2 stylesheet(s) could not be read (cross-origin): their :hover styles are not shown"
        );
        assert_eq!(
            read(0, true).note(),
            "; only the first 2000 :hover and :focus rules are applied"
        );
        assert_eq!(
            read(1, true).note(),
            "; 1 stylesheet(s) could not be read (cross-origin): their :hover styles are not shown; only the first 2000 :hover and :focus rules are applied"
        );
    }

    /// A page of `sheets` sheets holding `rules` rules, and our sheet once mirrored: its rules
    /// (half the page's when it was built) counted among them, as [`signature`] counts them.
    struct Page {
        sheets: std::cell::Cell<usize>,
        rules: std::cell::Cell<u32>,
        ours: std::cell::Cell<Option<u32>>,
        mirrors: std::cell::Cell<u32>,
        document: bool,
    }

    fn page(rules: u32) -> Page {
        Page {
            sheets: 1.into(),
            rules: rules.into(),
            ours: None.into(),
            mirrors: 0.into(),
            document: true,
        }
    }

    impl StateSheet for Page {
        fn signature(&self) -> Option<(usize, u32)> {
            let ours = self.ours.get().unwrap_or(0);
            let rules = self.rules.get() + ours;
            self.document.then(|| (self.sheets.get(), rules))
        }

        fn mirror(&self) -> String {
            self.mirrors.set(self.mirrors.get() + 1);
            self.ours.set(Some(self.rules.get() / 2));
            "; noted".into()
        }
    }

    #[test]
    fn a_hover_mirrors_every_time_and_says_what_was_left_out() {
        let (mut mirroring, page) = (Mirroring::default(), page(5));
        assert_eq!(mirroring.force(&page), "; noted");
        assert_eq!(mirroring.force(&page), "; noted");
        assert_eq!(page.mirrors.get(), 2);
    }

    #[test]
    fn an_action_mirrors_again_only_when_the_page_changed() {
        let (mut mirroring, page) = (Mirroring::default(), page(5));
        mirroring.force(&page);
        mirroring.refresh(&page);
        assert_eq!(page.mirrors.get(), 1);
        page.rules.set(6);
        mirroring.refresh(&page);
        mirroring.refresh(&page);
        assert_eq!(page.mirrors.get(), 2, "not again for our own rules");
        page.sheets.set(2);
        mirroring.refresh(&page);
        mirroring.refresh(&page);
        assert_eq!(page.mirrors.get(), 3, "a sheet more is a change");
    }

    #[test]
    fn the_first_action_mirrors_once_though_our_sheet_adds_rules() {
        let (mut mirroring, page) = (Mirroring::default(), page(5));
        mirroring.refresh(&page);
        mirroring.refresh(&page);
        mirroring.refresh(&page);
        assert_eq!(page.mirrors.get(), 1);
    }

    #[test]
    fn a_frame_without_a_document_is_never_mirrored_by_an_action() {
        let mut mirroring = Mirroring::default();
        let page = Page {
            document: false,
            ..page(5)
        };
        mirroring.refresh(&page);
        assert_eq!(page.mirrors.get(), 0);
    }
}
