//! Picking one element of a frame as a Playwright test picks it (`firefox_trace`'s test file):
//! by role and accessible name, matched whole, where Playwright's `getByRole` finds it so;
//! narrowed to an enclosing row or dialog, or to its position, when others share them
//! ([`locator::narrow`]); else by a CSS selector. A frame's iframe is picked by CSS.
//!
//! The frame is read through [`Frame`]; the content script answers from the DOM
//! (`content/locate.rs`), the tests from a page of their own.

use claudezilla_protocol::args::ElementRef;
use claudezilla_protocol::reply::{Found, FoundMatch, Pick, Query, Searched};
use claudezilla_protocol::{ErrorBody, ErrorCode};

use super::locator::{self, Narrowed, Scope};

/// Ancestors climbed looking for a scope to narrow to.
const MAX_SCOPE_CLIMB: usize = 12;

/// Most characters of a name a locator matches whole (longer ones are cut, and not matched).
pub const MAX_LOCATOR_NAME: usize = 300;

/// What picking reads of a frame.
pub trait Frame {
    type Element: Clone + PartialEq;

    /// Rendered (`checkVisibility`).
    fn rendered(&self, el: &Self::Element) -> bool;
    /// `display: contents`: no box of its own, but its children show.
    fn box_less(&self, el: &Self::Element) -> bool;
    /// Inside `aria-hidden="true"` in its own tree (`closest`).
    fn aria_hidden_in_tree(&self, el: &Self::Element) -> bool;
    /// The host of the shadow root `el` is in; none in the document.
    fn host(&self, el: &Self::Element) -> Option<Self::Element>;
    fn tag(&self, el: &Self::Element) -> String;
    fn attribute(&self, el: &Self::Element, name: &str) -> Option<String>;
    /// The element's role as the snapshot gives it.
    fn role(&self, el: &Self::Element, tag: &str) -> Option<&'static str>;
    /// Its accessible name as a locator matches it: whole, or cut with an ellipsis when long.
    fn full_name(&self, el: &Self::Element) -> String;
    /// The parent element, crossing out of a shadow root to its host.
    fn parent(&self, el: &Self::Element) -> Option<Self::Element>;
    /// The elements `selector` matches in the frame's trees, in order: a root's elements in
    /// tree order, then each open shadow root in it, depth first.
    fn select(&self, selector: &str) -> Vec<Self::Element>;
    fn matches(&self, el: &Self::Element, selector: &str) -> bool;
    /// The element's CSS path ([`locator::css_path`]).
    fn css_path(&self, el: &Self::Element) -> String;
    /// The browser frame id of the frame an `<iframe>` (or `<frame>`) holds.
    fn frame_id(&self, iframe: &Self::Element) -> Option<u64>;
    /// The element's ref (handed out on first sight).
    fn element_ref(&self, el: &Self::Element) -> ElementRef;
    /// The clock, in ms, read once a search is done (its time).
    fn now_ms(&self) -> f64;
}

/// Characters of a found element's name an answer shows.
const FOUND_NAME: usize = 80;

/// Every element Playwright's role engine may match, in its order: those not rendered (one
/// with no box of its own is) or inside `aria-hidden` left out.
fn shown_elements<F: Frame>(frame: &F) -> Vec<F::Element> {
    let shown = |el: &F::Element| {
        (frame.rendered(el) || frame.box_less(el)) && !aria_hidden(frame, el.clone())
    };
    frame.select("*").into_iter().filter(shown).collect()
}

/// Inside `aria-hidden="true"`, across the shadow roots it is in (as Playwright reads it).
fn aria_hidden<F: Frame>(frame: &F, mut at: F::Element) -> bool {
    loop {
        if frame.aria_hidden_in_tree(&at) {
            return true;
        }
        match frame.host(&at) {
            Some(host) => at = host,
            None => return false,
        }
    }
}

/// How `el` is picked in its frame.
pub fn element<F: Frame>(frame: &F, el: &F::Element) -> Result<Pick, ErrorBody> {
    let mut shown = Shown::read(frame);
    let pick = role_query(frame, el).and_then(|query| by_role(el, query, &mut shown));
    pick.map_or_else(|| by_css(frame, el), Ok)
}

/// How `iframe`, one of the frame's `iframes`, is picked: by CSS.
pub fn iframe<F: Frame>(frame: &F, iframes: &[F::Element], iframe: &F::Element) -> Pick {
    let selector = secret_free(&locator::iframe_selector(&frame.tag(iframe), |a| {
        frame.attribute(iframe, a)
    }));
    let same: Vec<&F::Element> = iframes
        .iter()
        .filter(|f| frame.matches(f, &selector))
        .collect();
    Pick {
        scope: None,
        nth: nth_of(iframe, &same),
        matches: same.len() as u32,
        query: Query::Css(selector),
    }
}

/// How the `<iframe>` (or `<frame>`) of the child frame `child` (its browser frame id) is
/// picked ([`iframe`]); an error when it left the page.
pub fn child_frame<F: Frame>(frame: &F, child: u64) -> Result<Pick, ErrorBody> {
    let iframes = frame.select(FRAMES);
    let Some(held) = iframes.iter().find(|f| frame.frame_id(f) == Some(child)) else {
        return Err(ErrorBody::new(
            ErrorCode::ElementNotFound,
            "the frame's iframe left the page",
        )
        .with_hint("call firefox_snapshot again"));
    };
    Ok(iframe(frame, &iframes, held))
}

/// The elements that hold a child frame.
const FRAMES: &str = "iframe, frame";

/// The browser frame ids of the frame's child frames, in [`Frame::select`]'s order (open
/// shadow roots' too): its trees as read once, not walked again.
fn child_frames<F: Frame>(frame: &F) -> Vec<u64> {
    let iframes = frame.select(FRAMES);
    iframes.iter().filter_map(|f| frame.frame_id(f)).collect()
}

/// `firefox_find {role, name?}` in one frame, begun at `started`: the elements `getByRole`
/// finds ([`by_role_and_name`]), `limit` listed with their refs, and the child frames for the
/// background to search next.
pub fn found<F: Frame>(
    frame: &F,
    role: &str,
    name: Option<&str>,
    limit: u32,
    started: f64,
) -> Found {
    let (found, total) = by_role_and_name(frame, role, name, limit as usize);
    let matches = found
        .into_iter()
        .map(|(el, name)| FoundMatch {
            element_ref: frame.element_ref(&el),
            role: role.to_owned(),
            name: super::clean(&name, FOUND_NAME),
            context: String::new(),
        })
        .collect();
    Found {
        matches,
        total,
        frames: child_frames(frame),
        searched: Searched {
            chars: 0,
            frames: 1,
            ms: (frame.now_ms() - started) as u32,
            stopped: None,
        },
    }
}

/// The elements `getByRole(role, {name})` finds, in its order, with their names: the first
/// `limit`, and how many in all. `name` is matched whole, cut as a locator's name is.
pub fn by_role_and_name<F: Frame>(
    frame: &F,
    role: &str,
    name: Option<&str>,
    limit: usize,
) -> (Vec<(F::Element, String)>, u32) {
    let shown = Shown::read(frame);
    let wanted = name.map(|n| super::clean(n, MAX_LOCATOR_NAME));
    let mut matches = Vec::new();
    let mut total = 0u32;
    // Roles were read once for all; names only for this role's elements.
    let candidates = shown.elements.iter().zip(&shown.roles);
    for (el, _) in candidates.filter(|(_, r)| r.is_some_and(|(r, _)| r == role)) {
        let found = frame.full_name(el);
        if wanted.as_ref().is_some_and(|w| *w != found) {
            continue;
        }
        total = total.saturating_add(1);
        if matches.len() < limit {
            matches.push((el.clone(), found));
        }
    }
    (matches, total)
}

/// The frame's shown elements in Playwright's order, each with the role `getByRole` finds it
/// by (read once: a locator counts matches for itself and for each scope it tries).
struct Shown<'f, F: Frame> {
    frame: &'f F,
    elements: Vec<F::Element>,
    roles: Vec<Option<(&'static str, Option<u8>)>>,
    /// Each element's role query once asked (names cost far more than roles).
    queries: Vec<Option<Option<Query>>>,
}

impl<'f, F: Frame> Shown<'f, F> {
    fn read(frame: &'f F) -> Self {
        let elements = shown_elements(frame);
        let roles = elements
            .iter()
            .map(|el| playwright_role(frame, el))
            .collect();
        Self {
            frame,
            queries: vec![None; elements.len()],
            elements,
            roles,
        }
    }

    /// The elements `query` matches, in order (roles compared first, names asked once each).
    fn matching(&mut self, query: &Query) -> Vec<F::Element> {
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
            let frame = self.frame;
            let asked = self.queries[i].get_or_insert_with(|| role_query(frame, el));
            // Its role and level were compared above: the name decides.
            if matches!(asked, Some(Query::Role { name: n, .. }) if n == name) {
                out.push(el.clone());
            }
        }
        out
    }
}

/// The role and name Playwright finds `el` by, if it does and the name is not empty.
fn role_query<F: Frame>(frame: &F, el: &F::Element) -> Option<Query> {
    let (role, level) = playwright_role(frame, el)?;
    let name = frame.full_name(el);
    // A name cut short cannot be matched whole.
    (!name.is_empty() && !name.ends_with('…')).then(|| Query::Role {
        role: role.to_owned(),
        name,
        level,
    })
}

/// The role Playwright's `getByRole` finds `el` by, with a heading's level.
fn playwright_role<F: Frame>(frame: &F, el: &F::Element) -> Option<(&'static str, Option<u8>)> {
    let tag = frame.tag(el);
    let attribute = |name: &str| frame.attribute(el, name);
    match (frame.role(el, &tag)?, tag.as_str()) {
        // A select showing several options is a list box to Playwright.
        ("combobox", "select")
            if attribute("multiple").is_some() || size_over_one(attribute("size")) =>
        {
            Some(("listbox", None))
        }
        (role, _) => {
            let (role, level) = locator::playwright_role(role, &tag, attribute("role").is_some())?;
            // `aria-level` sets a heading's level, explicit or native (Playwright reads it).
            let level = match role {
                "heading" => attribute("aria-level")
                    .and_then(|l| l.trim().parse::<u8>().ok())
                    .or(level),
                _ => level,
            };
            Some((role, level))
        }
    }
}

fn size_over_one(size: Option<String>) -> bool {
    size.and_then(|s| s.trim().parse::<u32>().ok())
        .is_some_and(|s| s > 1)
}

/// The role pick of `el`, narrowed as [`locator::narrow`] says; None when `getByRole` would not
/// find it (it is hidden).
fn by_role<F: Frame>(el: &F::Element, query: Query, shown: &mut Shown<F>) -> Option<Pick> {
    let matches = shown.matching(&query);
    let position = matches.iter().position(|m| m == el)?;
    let scopes = scopes_of(el, shown);
    let frame = shown.frame;
    let measured: Vec<Scope> = scopes
        .iter()
        .map(|(scope, _, count)| Scope {
            holds: matches.iter().filter(|m| holds(frame, scope, m)).count(),
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
fn scopes_of<F: Frame>(el: &F::Element, shown: &mut Shown<F>) -> Vec<(F::Element, Query, usize)> {
    let frame = shown.frame;
    let mut scopes = Vec::new();
    let mut at = frame.parent(el);
    for _ in 0..MAX_SCOPE_CLIMB {
        let Some(ancestor) = at else { break };
        if playwright_role(frame, &ancestor).is_some_and(|(role, _)| locator::is_scope(role))
            && let Some(query) = role_query(frame, &ancestor)
        {
            let count = shown.matching(&query).len();
            scopes.push((ancestor.clone(), query, count));
        }
        at = frame.parent(&ancestor);
    }
    scopes
}

/// Is `inner` inside `scope` (shadow roots included)?
fn holds<F: Frame>(frame: &F, scope: &F::Element, inner: &F::Element) -> bool {
    let mut at = frame.parent(inner);
    while let Some(el) = at {
        if &el == scope {
            return true;
        }
        at = frame.parent(&el);
    }
    false
}

/// `el` by CSS as a person writes it: the first of its test id, its id, its tag with one of
/// its classes, that matches it alone in the frame's trees; else its CSS path, numbered among
/// everything the path matches (CSS finds hidden elements too).
fn by_css<F: Frame>(frame: &F, el: &F::Element) -> Result<Pick, ErrorBody> {
    let alone = locator::own_selectors(&frame.tag(el), |a| frame.attribute(el, a))
        .into_iter()
        .map(|selector| secret_free(&selector))
        .find(|selector| frame.select(selector).as_slice() == std::slice::from_ref(el));
    if let Some(selector) = alone {
        return Ok(Pick {
            scope: None,
            nth: None,
            matches: 1,
            query: Query::Css(selector),
        });
    }
    let selector = secret_free(&frame.css_path(el));
    // An id CSS cannot say as written (React's `:r1:`) makes no selector at all.
    if !frame.matches(el, &selector) {
        return Err(ErrorBody::new(
            ErrorCode::ElementNotFound,
            "no CSS selector names the element (its ids are not CSS identifiers)",
        ));
    }
    let same = frame.select(&selector);
    let same: Vec<&F::Element> = match same.contains(el) {
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

fn nth_of<E: PartialEq>(el: &E, matches: &[&E]) -> Option<u32> {
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

#[cfg(test)]
mod tests;
