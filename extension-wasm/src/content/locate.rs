//! Naming one element of this frame as a Playwright test names it (`firefox_trace`'s test
//! file): by role and accessible name, matched whole, where Playwright's `getByRole` finds it
//! so; narrowed to an enclosing row or dialog, or to its position, when others share them
//! ([`a11y::locator`] decides); else by a CSS selector. A frame's iframe is named by CSS.
//!
//! The matches are counted as Playwright's role engine walks: a root's elements in tree order,
//! then each open shadow root in it, depth first; hidden elements (not rendered, or inside
//! `aria-hidden`, across shadow roots) left out.

use claudezilla_protocol::reply::{Found, FoundMatch, Locator, Pick, Query, Searched};
use claudezilla_protocol::{ErrorBody, ErrorCode};
use wasm_bindgen::JsCast;
use web_sys::{Element, ShadowRoot};

use super::dom::{box_less, document, is_visible};
use super::find::{open_roots, query_all_in, ref_for};
use super::names::{self, Labels};
use super::snapshot::{child_frames, css_path, frame_id_of, role_of};
use crate::a11y::locator::{self, Narrowed, Scope};
use crate::{a11y, web};

/// Ancestors climbed looking for a scope to narrow to.
const MAX_SCOPE_CLIMB: usize = 12;

/// The element's locator within this frame.
pub fn element(el: &Element) -> Result<Box<Locator>, ErrorBody> {
    let mut shown = Shown::read()?;
    let pick = match role_query(el, &mut shown.labels) {
        Some(query) => by_role(el, query, &mut shown),
        None => None,
    };
    Ok(located(pick.map_or_else(|| by_css(el), Ok)?))
}

/// The frame's shown elements in Playwright's order, each with the role `getByRole` finds it
/// by (read once: a locator counts matches for itself and for each scope it tries).
struct Shown {
    elements: Vec<Element>,
    roles: Vec<Option<(&'static str, Option<u8>)>>,
    /// Each element's role query once asked (names cost far more than roles).
    queries: Vec<Option<Option<Query>>>,
    labels: Labels,
}

impl Shown {
    fn read() -> Result<Self, ErrorBody> {
        let elements = shown_elements()?;
        let roles = elements.iter().map(playwright_role).collect();
        Ok(Self {
            queries: vec![None; elements.len()],
            elements,
            roles,
            labels: Labels::default(),
        })
    }

    /// The elements `query` matches, in order (roles compared first, names asked once each).
    fn matching(&mut self, query: &Query) -> Vec<Element> {
        let Query::Role { role, name, level } = query else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for i in 0..self.elements.len() {
            // A query without a level matches every level, as `getByRole` does.
            let Some((r, l)) = self.roles[i] else {
                continue;
            };
            if r != role || level.is_some_and(|level| l != Some(level)) {
                continue;
            }
            let el = &self.elements[i];
            let labels = &mut self.labels;
            let asked = self.queries[i].get_or_insert_with(|| role_query(el, labels));
            // Its role and level were compared above: the name decides.
            if matches!(asked, Some(Query::Role { name: n, .. }) if n == name) {
                out.push(el.clone());
            }
        }
        out
    }
}

/// The iframe (or frame) of the child frame `child` (the browser's frame id), by CSS.
pub fn frame(child: u64) -> Result<Box<Locator>, ErrorBody> {
    let doc = document()?;
    let frames: Vec<Element> = open_roots(&doc)
        .iter()
        .flat_map(|root| query_all_in(root, "iframe, frame"))
        .collect();
    let iframe = frames
        .iter()
        .find(|f| frame_id_of(f) == Some(child))
        .ok_or_else(|| {
            ErrorBody::new(
                ErrorCode::ElementNotFound,
                "the frame's iframe left the page",
            )
            .with_hint("call firefox_snapshot again")
        })?;
    let selector = secret_free(&locator::iframe_selector(&iframe.local_name(), |a| {
        iframe.get_attribute(a)
    }));
    let same: Vec<&Element> = frames
        .iter()
        .filter(|f| f.matches(&selector).unwrap_or(false))
        .collect();
    Ok(located(Pick {
        scope: None,
        nth: nth_of(iframe, &same),
        matches: same.len() as u32,
        query: Query::Css(selector),
    }))
}

/// `firefox_find {role, name?}` in this frame: the elements Playwright's `getByRole` finds
/// (the same ones a locator is counted among), in its order, `limit` listed with their refs;
/// and the child frames, for the background to search next.
pub fn find(role: &str, name: Option<&str>, limit: u32, frame: u32) -> Result<Found, ErrorBody> {
    locator::known_role(role)?;
    let started = web::now_ms();
    let doc = document()?;
    let mut shown = Shown::read()?;
    let wanted = name.map(|n| a11y::clean(n, names::MAX_LOCATOR_NAME));
    let mut matches = Vec::new();
    let mut total = 0u32;
    // Roles were read once for all; names only for this role's elements.
    let candidates: Vec<Element> = shown
        .elements
        .iter()
        .zip(&shown.roles)
        .filter(|(_, r)| r.is_some_and(|(r, _)| r == role))
        .map(|(el, _)| el.clone())
        .collect();
    for el in &candidates {
        let found = names::full_name(el, &el.local_name(), &mut shown.labels);
        if wanted.as_ref().is_some_and(|w| *w != found) {
            continue;
        }
        total = total.saturating_add(1);
        if matches.len() < limit as usize {
            matches.push(FoundMatch {
                element_ref: ref_for(el, frame),
                role: role.to_owned(),
                name: a11y::clean(&found, 80),
                context: String::new(),
            });
        }
    }
    let frames = child_frames(&doc);
    Ok(Found {
        matches,
        total,
        frames,
        searched: Searched {
            chars: 0,
            frames: 1,
            ms: (web::now_ms() - started) as u32,
            stopped: None,
        },
    })
}

fn located(element: Pick) -> Box<Locator> {
    Box::new(Locator {
        frames: Vec::new(),
        element,
    })
}

/// Every element Playwright's role engine may match, in its order.
fn shown_elements() -> Result<Vec<Element>, ErrorBody> {
    let doc = document()?;
    Ok(open_roots(&doc)
        .iter()
        .flat_map(|root| query_all_in(root, "*"))
        .filter(|el| (is_visible(el) || box_less(el)) && !aria_hidden(el))
        .collect())
}

/// Inside `aria-hidden="true"`, across the shadow roots it is in (as Playwright reads it).
fn aria_hidden(el: &Element) -> bool {
    let mut at = el.clone();
    loop {
        if at.closest("[aria-hidden=true]").ok().flatten().is_some() {
            return true;
        }
        match at.get_root_node().dyn_into::<ShadowRoot>() {
            Ok(root) => at = root.host(),
            Err(_) => return false,
        }
    }
}

/// The role and name Playwright finds `el` by, if it does and the name is not empty.
fn role_query(el: &Element, labels: &mut Labels) -> Option<Query> {
    let (role, level) = playwright_role(el)?;
    let name = names::full_name(el, &el.local_name(), labels);
    // A name cut short cannot be matched whole.
    (!name.is_empty() && !name.ends_with('…')).then(|| Query::Role {
        role: role.to_owned(),
        name,
        level,
    })
}

/// The role Playwright's `getByRole` finds `el` by, with a heading's level.
fn playwright_role(el: &Element) -> Option<(&'static str, Option<u8>)> {
    let tag = el.local_name();
    let (role, _) = role_of(el, &tag, true);
    match (role?, tag.as_str()) {
        // A select showing several options is a list box to Playwright.
        ("combobox", "select") if el.has_attribute("multiple") || size_over_one(el) => {
            Some(("listbox", None))
        }
        (role, _) => {
            let (role, level) = locator::playwright_role(role, &tag, el.has_attribute("role"))?;
            // `aria-level` sets a heading's level, explicit or native (Playwright reads it).
            let level = match role {
                "heading" => el
                    .get_attribute("aria-level")
                    .and_then(|l| l.trim().parse::<u8>().ok())
                    .or(level),
                _ => level,
            };
            Some((role, level))
        }
    }
}

fn size_over_one(el: &Element) -> bool {
    el.get_attribute("size")
        .and_then(|s| s.trim().parse::<u32>().ok())
        .is_some_and(|s| s > 1)
}

/// The role locator of `el`, narrowed as [`locator::narrow`] says; None when `getByRole`
/// would not find it (it is hidden).
fn by_role(el: &Element, query: Query, shown: &mut Shown) -> Option<Pick> {
    let matches = shown.matching(&query);
    let position = matches.iter().position(|m| m == el)?;
    let scopes = scopes_of(el, shown);
    let measured: Vec<Scope> = scopes
        .iter()
        .map(|(scope, _, count)| Scope {
            holds: matches.iter().filter(|m| holds(scope, m)).count(),
            matches: *count,
        })
        .collect();
    let count = matches.len() as u32;
    Some(match locator::narrow(position, matches.len(), &measured) {
        Narrowed::Alone => Pick {
            scope: None,
            query,
            nth: None,
            matches: count,
        },
        Narrowed::Scoped(i) => Pick {
            scope: Some(scopes[i].1.clone()),
            query,
            nth: None,
            matches: 1,
        },
        Narrowed::Nth(n) => Pick {
            scope: None,
            query,
            nth: Some(n),
            matches: count,
        },
    })
}

/// The ancestors a person could narrow to, nearest first, once `getByRole` finds them: each
/// with its query and how many elements of the frame that query matches.
fn scopes_of(el: &Element, shown: &mut Shown) -> Vec<(Element, Query, usize)> {
    let mut scopes = Vec::new();
    let mut at = parent(el);
    for _ in 0..MAX_SCOPE_CLIMB {
        let Some(ancestor) = at else { break };
        if playwright_role(&ancestor).is_some_and(|(role, _)| locator::is_scope(role))
            && let Some(query) = role_query(&ancestor, &mut shown.labels)
        {
            let count = shown.matching(&query).len();
            scopes.push((ancestor.clone(), query, count));
        }
        at = parent(&ancestor);
    }
    scopes
}

/// The parent element, crossing out of a shadow root to its host.
fn parent(el: &Element) -> Option<Element> {
    el.parent_element().or_else(|| {
        el.parent_node()
            .and_then(|n| n.dyn_into::<ShadowRoot>().ok())
            .map(|root| root.host())
    })
}

/// Is `inner` inside `scope` (shadow roots included)?
fn holds(scope: &Element, inner: &Element) -> bool {
    let mut at = parent(inner);
    while let Some(el) = at {
        if &el == scope {
            return true;
        }
        at = parent(&el);
    }
    false
}

/// `el` by CSS as a person writes it: the first of its test id, its id, its tag with one of
/// its classes, that matches it alone in the frame's trees; else its CSS path, numbered among
/// everything the path matches (CSS finds hidden elements too).
fn by_css(el: &Element) -> Result<Pick, ErrorBody> {
    let doc = document()?;
    let roots = open_roots(&doc);
    let matching = |selector: &str| -> Vec<Element> {
        roots
            .iter()
            .flat_map(|root| query_all_in(root, selector))
            .collect()
    };
    let alone = locator::own_selectors(&el.local_name(), |a| el.get_attribute(a))
        .into_iter()
        .map(|selector| secret_free(&selector))
        .find(|selector| matching(selector).as_slice() == std::slice::from_ref(el));
    if let Some(selector) = alone {
        return Ok(Pick {
            scope: None,
            nth: None,
            matches: 1,
            query: Query::Css(selector),
        });
    }
    let selector = secret_free(&css_path(el));
    // An id CSS cannot say as written (React's `:r1:`) makes no selector at all.
    if !el.matches(&selector).unwrap_or(false) {
        return Err(ErrorBody::new(
            ErrorCode::ElementNotFound,
            "no CSS selector names the element (its ids are not CSS identifiers)",
        ));
    }
    let same = matching(&selector);
    let same: Vec<&Element> = match same.contains(el) {
        true => same.iter().collect(),
        false => vec![el],
    };
    Ok(Pick {
        scope: None,
        nth: nth_of(el, &same),
        matches: same.len() as u32,
        query: Query::Css(selector),
    })
}

fn nth_of(el: &Element, matches: &[&Element]) -> Option<u32> {
    (matches.len() > 1)
        .then(|| matches.iter().position(|m| *m == el))
        .flatten()
        .map(|i| i as u32)
}

/// A selector with any typed secret that a page put in an attribute hidden (it then matches
/// nothing, and another selector is tried).
fn secret_free(selector: &str) -> String {
    crate::hidden::hide(selector).into_owned()
}
