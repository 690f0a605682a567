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

/// The numbers an ordered list gives its items (HTML's ordinal values), in one pass: an
/// item's own `value`, else the item before's number and one step, else the list's first
/// number — its `start`, else 1 (reversed: its number of items). `values`: the items'
/// `value`s, in order; a reversed list counts down.
pub fn ordinals(values: &[Option<i64>], start: Option<i64>, reversed: bool) -> Vec<i64> {
    let items = i64::try_from(values.len()).unwrap_or(i64::MAX);
    let first = start.unwrap_or(if reversed { items } else { 1 });
    let mut previous = None;
    values
        .iter()
        .map(|&own| *previous.insert(following(own, previous, first, reversed)))
        .collect()
}

/// An item's number from the one before it (`previous`, none for the first item): its own
/// `value`, else one step on from the item before, else the list's first number.
fn following(own: Option<i64>, previous: Option<i64>, first: i64, reversed: bool) -> i64 {
    let step: i64 = if reversed { -1 } else { 1 };
    own.unwrap_or_else(|| previous.map_or(first, |p| p.saturating_add(step)))
}

/// A `value` or `start` attribute as HTML reads it (its rules for parsing integers): spaces,
/// a sign, then the digits up to the first other character (`"3rd"` is 3); none without a
/// digit, or outside 32 bits, where Firefox ignores the attribute.
pub fn html_integer(text: &str) -> Option<i64> {
    let text = text.trim_start_matches([' ', '\t', '\n', '\x0c', '\r']);
    // Rust's integer parse takes the same sign and digits, so the number is that prefix.
    let sign = usize::from(text.starts_with(['-', '+']));
    let rest = &text[sign..];
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    text[..sign + digits].parse::<i32>().ok().map(i64::from)
}

/// The marker a `list-style-type` draws before an item numbered `n` (the common types; others
/// give none).
pub fn list_marker(style: &str, n: impl FnOnce() -> i64) -> Option<String> {
    let bullet = match style {
        "disc" => "•",
        "circle" => "◦",
        "square" => "▪",
        "decimal" => return Some(format!("{}.", n())),
        "decimal-leading-zero" => {
            let n = n();
            let sign = if n < 0 { "-" } else { "" };
            return Some(format!("{sign}{:02}.", n.unsigned_abs()));
        }
        "lower-alpha" | "lower-latin" => return alphabetic(n()).map(|a| format!("{a}.")),
        "upper-alpha" | "upper-latin" => {
            return alphabetic(n()).map(|a| format!("{}.", a.to_ascii_uppercase()));
        }
        "lower-roman" => return roman(n()).map(|r| format!("{r}.")),
        "upper-roman" => return roman(n()).map(|r| format!("{}.", r.to_ascii_uppercase())),
        _ => return None,
    };
    Some(bullet.to_owned())
}

/// `a`, `b`, … `z`, `aa`, …: CSS's alphabetic counter (none below 1, where it falls back to
/// decimal, which is left out here).
fn alphabetic(n: i64) -> Option<String> {
    if n < 1 {
        return None;
    }
    let mut n = n as u64;
    let mut out = Vec::new();
    while n > 0 {
        n -= 1;
        out.push(b'a' + (n % 26) as u8);
        n /= 26;
    }
    out.reverse();
    String::from_utf8(out).ok()
}

/// Roman numerals, 1 to 3999 (CSS's range for them).
fn roman(n: i64) -> Option<String> {
    if !(1..=3999).contains(&n) {
        return None;
    }
    const DIGITS: [(i64, &str); 13] = [
        (1000, "m"),
        (900, "cm"),
        (500, "d"),
        (400, "cd"),
        (100, "c"),
        (90, "xc"),
        (50, "l"),
        (40, "xl"),
        (10, "x"),
        (9, "ix"),
        (5, "v"),
        (4, "iv"),
        (1, "i"),
    ];
    let mut n = n;
    let mut out = String::new();
    for (value, digits) in DIGITS {
        while n >= value {
            out.push_str(digits);
            n -= value;
        }
    }
    Some(out)
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

    #[test]
    fn an_items_number_follows_htmls_ordinal_values() {
        // <ol><li><li value=10><li><li>: 1, 10, 11, 12.
        assert_eq!(
            ordinals(&[None, Some(10), None, None], None, false),
            [1, 10, 11, 12]
        );
        // <ol start=5>: 5, 6.
        assert_eq!(ordinals(&[None, None], Some(5), false), [5, 6]);
        // <ol reversed> of three items (first = 3): 3, 2, 1; a value restarts the count down.
        assert_eq!(ordinals(&[None, None, None], None, true), [3, 2, 1]);
        assert_eq!(ordinals(&[None, Some(9), None], Some(3), true), [3, 9, 8]);
        assert_eq!(ordinals(&[Some(-4)], None, false), [-4]);
        assert!(ordinals(&[], Some(2), true).is_empty());
        // A list of plain items counts 1 to n, or n down to 1.
        for n in 0..40usize {
            let plain = vec![None; n];
            let up: Vec<i64> = (1..=n as i64).collect();
            assert_eq!(ordinals(&plain, None, false), up);
            let down: Vec<i64> = up.iter().rev().copied().collect();
            assert_eq!(ordinals(&plain, None, true), down);
        }
    }

    #[test]
    fn list_numbers_are_read_as_html_reads_integers() {
        assert_eq!(html_integer("3"), Some(3));
        assert_eq!(html_integer("  -2"), Some(-2));
        assert_eq!(html_integer("+7"), Some(7));
        assert_eq!(html_integer("3rd"), Some(3));
        assert_eq!(html_integer("10.5"), Some(10));
        assert_eq!(html_integer(""), None);
        assert_eq!(html_integer("x1"), None);
        assert_eq!(html_integer("-"), None);
        assert_eq!(html_integer("99999999999999999999"), None);
        assert_eq!(html_integer("2147483647"), Some(2_147_483_647));
        assert_eq!(html_integer("2147483648"), None, "Firefox ignores it");
        assert_eq!(html_integer("-2147483648"), Some(-2_147_483_648));
    }

    #[test]
    fn markers_as_their_list_style_draws_them() {
        assert_eq!(list_marker("disc", || 1).as_deref(), Some("•"));
        assert_eq!(list_marker("decimal", || 12).as_deref(), Some("12."));
        assert_eq!(
            list_marker("decimal-leading-zero", || 7).as_deref(),
            Some("07.")
        );
        assert_eq!(list_marker("lower-alpha", || 1).as_deref(), Some("a."));
        assert_eq!(list_marker("upper-latin", || 28).as_deref(), Some("AB."));
        assert_eq!(
            list_marker("lower-roman", || 1994).as_deref(),
            Some("mcmxciv.")
        );
        assert_eq!(list_marker("upper-roman", || 4).as_deref(), Some("IV."));
        assert_eq!(list_marker("lower-roman", || 0), None);
        assert_eq!(list_marker("lower-alpha", || -1), None);
        assert_eq!(list_marker("georgian", || 1), None);
        assert_eq!(list_marker("none", || 1), None);
    }
}
