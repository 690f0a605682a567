//! Naming an element as a Playwright test names it, without the DOM: which role
//! `getByRole` finds it by, and how to tell it from others of the same role and name.

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

#[cfg(test)]
mod tests {
    use super::*;

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
