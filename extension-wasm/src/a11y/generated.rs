//! What CSS generated content (`::before`, `::after`) adds to a name: the words of a
//! `content` value, and which elements a page's style rules can give such words, so that the
//! name computation asks the computed style only of those.

/// The text of a CSS `content` value: its strings and `attr()`s; after a `/`, the
/// alternative text alone (`content: "★" / "starred"`); counters, quotes and images give
/// nothing. Icon fonts' private-use characters are no words.
pub fn generated_text(css: &str, attr: &mut dyn FnMut(&str) -> Option<String>) -> String {
    let css = css.trim();
    if matches!(css, "" | "none" | "normal") {
        return String::new();
    }
    let (main, alt) = split_alt(css);
    let text = strings_of(alt.unwrap_or(main), attr);
    text.chars()
        .filter(|c| !('\u{E000}'..='\u{F8FF}').contains(c))
        .collect()
}

/// The value and its alternative text, split at a `/` outside strings.
fn split_alt(css: &str) -> (&str, Option<&str>) {
    let mut quote = None;
    for (i, c) in css.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, '/') => return (&css[..i], Some(&css[i + 1..])),
            _ => {}
        }
    }
    (css, None)
}

/// The strings and `attr(name)`s of a `content` value, in order.
fn strings_of(value: &str, attr: &mut dyn FnMut(&str) -> Option<String>) -> String {
    let mut out = String::new();
    let mut rest = value.trim_start();
    while let Some(c) = rest.chars().next() {
        if c == '"' || c == '\'' {
            let body = &rest[1..];
            let mut text = String::new();
            let mut chars = body.char_indices();
            let mut end = body.len();
            while let Some((i, ch)) = chars.next() {
                match ch {
                    '\\' => {
                        if let Some((_, escaped)) = chars.next() {
                            text.push(escaped);
                        }
                    }
                    _ if ch == c => {
                        end = i + 1;
                        break;
                    }
                    _ => text.push(ch),
                }
            }
            out.push_str(&text);
            rest = body[end.min(body.len())..].trim_start();
        } else if let Some(after) = rest.strip_prefix("attr(") {
            let (name, tail) = after.split_once(')').unwrap_or((after, ""));
            out.push_str(&attr(name.trim()).unwrap_or_default());
            rest = tail.trim_start();
        } else {
            // A counter, an image, a keyword: no words; skip to the next part.
            let skip = rest
                .find(|ch: char| ch.is_whitespace() || ch == '"' || ch == '\'')
                .unwrap_or(rest.len());
            let skip = match rest[..skip].find('(') {
                Some(_) => rest.find(')').map_or(rest.len(), |i| i + 1),
                None => skip.max(1),
            };
            rest = rest[skip..].trim_start();
        }
    }
    out
}

/// Whether a declared `content` value can give words: not `none`, `normal` or an empty string
/// (a clearfix's `content: ""`, on most pages, gives none).
pub fn declares_words(content: &str) -> bool {
    !matches!(content.trim(), "" | "none" | "normal" | "\"\"" | "''")
}

/// The elements a style rule's selector list gives generated content, as two selector lists
/// (for `::before`, for `::after`) with the pseudo-element taken off: what `Element.matches`
/// can ask. A selector that names a pseudo-element elsewhere than at its end counts for
/// every element (`*`), so that nothing is missed.
pub fn pseudo_bases(selectors: &str) -> [Vec<String>; 2] {
    let mut bases: [Vec<String>; 2] = Default::default();
    for selector in split_top_level(selectors) {
        let selector = selector.trim();
        let lower = selector.to_ascii_lowercase();
        for (k, pseudo) in ["before", "after"].into_iter().enumerate() {
            let Some(at) = lower.find(&format!(":{pseudo}")) else {
                continue;
            };
            let end = at + 1 + pseudo.len();
            let base = selector[..at].trim_end_matches(':');
            bases[k].push(match (end == selector.len(), base.trim_end()) {
                // A pseudo-element followed by more (`::after:hover`): ask every element.
                (false, _) | (true, "") => "*".to_owned(),
                // A descendant's or sibling's pseudo-element (`.menu ::after`).
                (true, trimmed)
                    if trimmed.len() < base.len() || trimmed.ends_with(['>', '+', '~']) =>
                {
                    format!("{base}*")
                }
                (true, _) => base.to_owned(),
            });
        }
    }
    bases
}

/// A selector list's selectors, split at commas outside parentheses, brackets and strings.
fn split_top_level(list: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut quote, mut from) = (Vec::new(), 0i32, None, 0);
    for (i, c) in list.char_indices() {
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(' | '[') => depth += 1,
            (None, ')' | ']') => depth -= 1,
            (None, ',') if depth == 0 => {
                parts.push(&list[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&list[from..]);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// A page writes the CSS `content` a name reads: no value of it panics, and what it
        /// gives is never longer than the value (counters and images add nothing).
        #[test]
        fn any_css_content_reads_without_panic(css in "\\PC{0,80}") {
            let text = generated_text(&css, &mut |_| None);
            proptest::prop_assert!(text.chars().count() <= css.chars().count());
        }
    }

    #[test]
    fn css_content_reads_as_words() {
        let mut none = |_: &str| None;
        assert_eq!(generated_text("\"before\"", &mut none), "before");
        assert_eq!(
            generated_text("\"★\" / \"alt-before\"", &mut none),
            "alt-before"
        );
        assert_eq!(generated_text("counter(x) \". \"", &mut none), ". ");
        assert_eq!(
            generated_text("\"\u{f101}\"", &mut none),
            "",
            "an icon font's glyph"
        );
        let mut title = |n: &str| (n == "data-x").then(|| "from attr".to_owned());
        assert_eq!(generated_text("attr(data-x)", &mut title), "from attr");
        assert_eq!(generated_text("none", &mut none), "");
    }

    #[test]
    fn empty_content_gives_no_words() {
        for css in ["\"\"", "''", " none", "normal", ""] {
            assert!(!declares_words(css), "{css:?}");
        }
        for css in ["\"→\"", "attr(title)", "counter(item) \". \""] {
            assert!(declares_words(css), "{css:?}");
        }
    }

    #[test]
    fn selectors_lose_their_pseudo_element() {
        let [before, after] =
            pseudo_bases(".icon-save::before, a.ext:after, li:is(.a, .b)::before");
        assert_eq!(before, [".icon-save", "li:is(.a, .b)"]);
        assert_eq!(after, ["a.ext"]);
        let [before, after] = pseudo_bases("::before, .x ::after, p::after:hover");
        assert_eq!(before, ["*"]);
        assert_eq!(
            after,
            [".x *", "*"],
            "a descendant's, and one with a state after it"
        );
        assert_eq!(
            pseudo_bases("a[title='x, y']::after")[1],
            ["a[title='x, y']"]
        );
        assert_eq!(
            pseudo_bases(".beforehand"),
            [Vec::<String>::new(), Vec::new()]
        );
    }

    proptest::proptest! {
        /// Selectors come from the page: none panics.
        #[test]
        fn any_selector_list_splits_without_panic(list in "\\PC{0,80}") {
            let _ = pseudo_bases(&list);
        }
    }
}
