//! `firefox_find` in one frame, decided apart from the DOM: the frame's shown text (shadow
//! roots and slots as shown, what style hides left out, frames listed for the background) joined
//! into one text ([`Joined`]), searched, and each match named by the nearest element an agent
//! can act on. The page is read through [`Page`]: `content/search.rs` answers from the DOM,
//! the tests from a page of their own.

use claudezilla_protocol::args::{ElementRef, Words};
use claudezilla_protocol::reply::{Found, FoundMatch, Searched};
use claudezilla_protocol::{ErrorBody, ErrorCode};

use super::{Finder, Joined, MAX_TEXT, SEARCH_MS, Stop, context, is_inline, piece_at};
use crate::a11y::name::Named;
use crate::showing::Showing;

/// Elements climbed from a match to find one to act on.
const MAX_CLIMB: usize = 8;

/// A node under an element, as the walk reads it.
pub enum Child<E, T> {
    Element(E),
    Text(T),
    /// A comment or a processing instruction: nothing shown.
    Other,
}

/// What the search asks of a frame.
pub trait Page {
    type Element: Clone;
    type Text;

    fn tag(&self, el: &Self::Element) -> String;
    fn showing(&self, el: &Self::Element) -> Showing;
    /// Whether the element carries the `hidden` attribute (cheaper than its style).
    fn has_hidden_attribute(&self, el: &Self::Element) -> bool;
    /// Whether a `<details>` is open.
    fn is_open(&self, details: &Self::Element) -> bool;
    /// The browser's id of the frame an iframe shows, if it shows one.
    fn frame_id(&self, iframe: &Self::Element) -> Option<u64>;
    /// The nodes of `el`'s open shadow root when it hosts one, else its own children.
    fn children(&self, el: &Self::Element) -> Vec<Child<Self::Element, Self::Text>>;
    /// The nodes assigned to a slot, nested slots flattened.
    fn slotted(&self, slot: &Self::Element) -> Vec<Child<Self::Element, Self::Text>>;
    /// A text node's characters, at most `room` of them; `true` when it had more.
    fn data(&self, text: &Self::Text, room: usize) -> (String, bool);
    /// The element a text node is a child of (none at the top of a shadow root).
    fn parent(&self, text: &Self::Text) -> Option<Self::Element>;
    /// The element's parent, or the host of the shadow root it is at the top of.
    fn parent_or_host(&self, el: &Self::Element) -> Option<Self::Element>;
    /// The role the snapshot gives an element, and whether an agent acts on it.
    fn role(&self, el: &Self::Element) -> (Option<&'static str>, bool);
    fn element_ref(&self, el: &Self::Element) -> ElementRef;
    /// The element's accessible name, met as `how` says.
    fn name(&self, el: &Self::Element, how: Named) -> String;
    /// Milliseconds, for the search's deadline.
    fn now_ms(&self) -> f64;
}

/// The matches of `needle` under `root`, `limit` listed, searched until `until` (ms since the
/// epoch) or for [`SEARCH_MS`], whichever ends first, in at most [`MAX_TEXT`] bytes of text;
/// the answer says how much was searched.
pub fn find<P: Page>(
    page: &P,
    root: Option<&P::Element>,
    needle: &Words,
    limit: u32,
    until: u64,
) -> Result<Found, ErrorBody> {
    let finder = Finder::new(needle).map_err(|e| ErrorBody::new(ErrorCode::InvalidArgument, e))?;
    let started = page.now_ms();
    let deadline = (started + SEARCH_MS).min(until as f64);
    let mut walk = Walk {
        page,
        joined: Joined::new(MAX_TEXT),
        frames: Vec::new(),
        deadline,
    };
    if let Some(root) = root {
        walk.element(root);
    }
    // Searched hidden: a pattern never matches part of a typed secret's value.
    let (text, shifts) = crate::hidden::hide_mapped(&walk.joined.text);
    let mut matches = Vec::new();
    let mut total = 0u32;
    let upto = finder.scan(
        &text,
        || page.now_ms() < deadline,
        |at| {
            total = total.saturating_add(1);
            if matches.len() >= limit as usize {
                return;
            }
            let joined = &walk.joined;
            let owner = &joined.owners[piece_at(&joined.starts, shifts.original(at.start))];
            let (element, role) = actionable(page, owner);
            // Plain text has no name but its words, which the context shows.
            let name = match role {
                "text" => String::new(),
                // What a script made clickable is named by its words, as the snapshot names it.
                "clickable" => page.name(&element, Named::Clickable),
                _ => page.name(&element, Named::Shown),
            };
            matches.push(FoundMatch {
                element_ref: page.element_ref(&element),
                name: crate::a11y::clean(&name, 80),
                role: role.to_owned(),
                context: context(&text, at),
            });
        },
    );
    let stopped = match upto < text.len() {
        true => Some(Stop::Time),
        false => walk.joined.stopped,
    };
    Ok(Found {
        matches,
        total,
        frames: walk.frames,
        searched: Searched {
            chars: text[..upto].chars().count() as u64,
            frames: 1,
            ms: (page.now_ms() - started) as u32,
            stopped: stopped.map(Stop::words),
        },
    })
}

/// The walk over a frame's shown text, handing its runs to [`Joined`], until `deadline`.
struct Walk<'a, P: Page> {
    page: &'a P,
    joined: Joined<P::Element>,
    frames: Vec<u64>,
    deadline: f64,
}

impl<P: Page> Walk<'_, P> {
    fn element(&mut self, el: &P::Element) {
        if self.joined.stopped.is_none() && self.page.now_ms() >= self.deadline {
            self.joined.stopped = Some(Stop::Time);
        }
        let tag = self.page.tag(el);
        if crate::a11y::is_skipped(&tag) || self.joined.stopped.is_some() {
            return;
        }
        // Hidden whatever its display: `display: none`, or (`until-found`) a box whose content
        // is not rendered, where text directly inside would otherwise be read.
        if self.page.has_hidden_attribute(el) {
            return;
        }
        if tag == "iframe" || tag == "frame" {
            // A frame made invisible, or not rendered, shows none of its page.
            if self.page.showing(el) == Showing::Rendered {
                self.frames.extend(self.page.frame_id(el));
            }
            return;
        }
        // Inline elements too: a stylesheet hides a span as well as a block. A box-less one
        // runs on with its neighbours as an inline one does.
        let showing = self.page.showing(el);
        let block = match showing {
            Showing::NotRendered => return,
            Showing::BoxLess { .. } => false,
            Showing::Rendered | Showing::Invisible => !is_inline(&tag),
        };
        if block {
            self.joined.line_break();
        }
        let assigned = match tag == "slot" {
            true => self.page.slotted(el),
            false => Vec::new(),
        };
        let shown = match assigned.is_empty() {
            true if tag == "details" && !self.page.is_open(el) => self.summary(el),
            true => self.page.children(el),
            false => assigned,
        };
        for node in shown {
            self.node(node, el, showing.text_seen());
        }
        if block {
            self.joined.line_break();
        }
    }

    /// What a closed `<details>` shows: its first `<summary>`.
    fn summary(&self, details: &P::Element) -> Vec<Child<P::Element, P::Text>> {
        let page = self.page;
        let is_summary =
            |c: &Child<_, _>| matches!(c, Child::Element(e) if page.tag(e) == "summary");
        page.children(details)
            .into_iter()
            .filter(is_summary)
            .take(1)
            .collect()
    }

    /// `owner`: the element whose children (or shadow tree) the node is shown among;
    /// `seen`: whether text directly inside it is seen (not `visibility: hidden`).
    fn node(&mut self, node: Child<P::Element, P::Text>, owner: &P::Element, seen: bool) {
        let text = match node {
            Child::Element(el) => return self.element(&el),
            Child::Text(text) => text,
            Child::Other => return,
        };
        if self.joined.stopped.is_some() || !seen {
            return;
        }
        let (raw, cut) = self.page.data(&text, self.joined.room());
        if cut {
            self.joined.stopped = Some(Stop::Size);
        }
        let page = self.page;
        self.joined
            .run(&raw, || page.parent(&text).unwrap_or_else(|| owner.clone()));
    }
}

/// The element nearest `el` (itself, then up through shadow hosts) an agent can act on, with
/// its role (`clickable` where it has none); `el` itself as `text` when none is near.
fn actionable<P: Page>(page: &P, el: &P::Element) -> (P::Element, &'static str) {
    let mut at = Some(el.clone());
    for _ in 0..MAX_CLIMB {
        let Some(current) = at else { break };
        if let (role, true) = page.role(&current) {
            return (current, role.unwrap_or("clickable"));
        }
        at = page.parent_or_host(&current);
    }
    (el.clone(), "text")
}

#[cfg(test)]
mod tests;
