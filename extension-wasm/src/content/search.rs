//! `firefox_find` in one frame: its rendered text (shadow roots and slots as shown, hidden
//! elements left out) joined into one text, searched ([`crate::search`]), each match named by
//! the nearest element an agent can act on.

use claudezilla_protocol::args::Words;
use claudezilla_protocol::reply::{Found, FoundMatch, Searched};
use claudezilla_protocol::{ErrorBody, ErrorCode};
use wasm_bindgen::JsCast;
use web_sys::{CharacterData, Element, Node};

use super::dom::{document, is_visible};
use super::find::ref_for;
use super::names::{self, Labels};
use super::snapshot::{frame_id_of, role_of};
use crate::a11y;
use crate::search::{self, Finder, Joined, MAX_TEXT, Stop};
use crate::web;

/// Elements climbed from a match to find one to act on.
const MAX_CLIMB: usize = 8;
/// The frame's matches of `needle`, `limit` listed, searched until `until` (ms since the
/// epoch) or for [`search::SEARCH_MS`], whichever ends first, in at most [`MAX_TEXT`] bytes
/// of text; the answer says how much was searched.
pub fn find(needle: &Words, limit: u32, frame: u32, until: u64) -> Result<Found, ErrorBody> {
    let finder = Finder::new(needle).map_err(|e| ErrorBody::new(ErrorCode::InvalidArgument, e))?;
    let started = web::now_ms();
    let deadline = (started + search::SEARCH_MS).min(until as f64);
    let doc = document()?;
    let mut page = Walk {
        joined: Joined::new(MAX_TEXT),
        frames: Vec::new(),
        deadline,
    };
    if let Some(root) = doc
        .body()
        .map(Element::from)
        .or_else(|| doc.document_element())
    {
        page.element(&root);
    }
    // Searched hidden: a pattern never matches part of a typed secret's value.
    let (text, shifts) = crate::hidden::hide_mapped(&page.joined.text);
    let mut labels = Labels::default();
    let mut matches = Vec::new();
    let mut total = 0u32;
    let in_time = || web::now_ms() < deadline;
    let upto = finder.scan(&text, in_time, |at| {
        total = total.saturating_add(1);
        if matches.len() >= limit as usize {
            return;
        }
        let joined = &page.joined;
        let owner = &joined.owners[search::piece_at(&joined.starts, shifts.original(at.start))];
        let (element, role) = actionable(owner);
        // Plain text has no name but its words, which the context shows.
        let name = match role {
            "text" => String::new(),
            // What a script made clickable is named by its words, as the snapshot names it.
            "clickable" => names::name_as(
                &element,
                &element.local_name(),
                &mut labels,
                crate::a11y::name::Named::Clickable,
            ),
            _ => names::name(&element, &element.local_name(), &mut labels),
        };
        matches.push(FoundMatch {
            element_ref: ref_for(&element, frame),
            name: a11y::clean(&name, 80),
            role: role.to_owned(),
            context: search::context(&text, at),
        });
    });
    let stopped = match upto < text.len() {
        true => Some(Stop::Time),
        false => page.joined.stopped,
    };
    Ok(Found {
        matches,
        total,
        frames: page.frames,
        searched: Searched {
            chars: text[..upto].chars().count() as u64,
            frames: 1,
            ms: (web::now_ms() - started) as u32,
            stopped: stopped.map(Stop::words),
        },
    })
}

/// The walk over a frame's shown text, handing its runs to [`Joined`], until `deadline`.
struct Walk {
    joined: Joined<Element>,
    frames: Vec<u64>,
    deadline: f64,
}

impl Walk {
    fn element(&mut self, el: &Element) {
        if self.joined.stopped.is_none() && web::now_ms() >= self.deadline {
            self.joined.stopped = Some(Stop::Time);
        }
        let tag = el.local_name();
        if a11y::is_skipped(&tag) || self.joined.stopped.is_some() {
            return;
        }
        if tag == "iframe" || tag == "frame" {
            self.frames.extend(frame_id_of(el));
            return;
        }
        let inline = search::is_inline(&tag);
        // Inline elements are seen through their block's visibility (asking costs a style).
        if !inline && !is_visible(el) {
            return;
        }
        if !inline {
            self.joined.line_break();
        }
        if tag == "slot" {
            let assigned = names::slotted(el);
            if assigned.length() > 0 {
                for node in assigned.iter() {
                    self.node(node.unchecked_ref(), el);
                }
                return;
            }
        }
        match el.shadow_root() {
            Some(shadow) => self.children(&shadow, el),
            None => self.children(el, el),
        }
        if !inline {
            self.joined.line_break();
        }
    }

    fn children(&mut self, parent: &Node, owner: &Element) {
        let mut child = parent.first_child();
        while let Some(node) = child {
            self.node(&node, owner);
            child = node.next_sibling();
        }
    }

    fn node(&mut self, node: &Node, owner: &Element) {
        if let Some(el) = node.dyn_ref::<Element>() {
            return self.element(el);
        }
        if node.node_type() != Node::TEXT_NODE || self.joined.stopped.is_some() {
            return;
        }
        let Some(data) = node.dyn_ref::<CharacterData>() else {
            return;
        };
        let room = self.joined.room() as u32;
        let raw = match data.length() <= room {
            true => data.data(),
            false => {
                self.joined.stopped = Some(Stop::Size);
                data.substring_data(0, room).unwrap_or_default()
            }
        };
        let holder = || node.parent_element().unwrap_or_else(|| owner.clone());
        self.joined.run(&raw, holder);
    }
}

/// The element nearest `el` (itself, then up through shadow hosts) an agent can act on, with
/// its role; `el` itself as `text` when none is near.
fn actionable(el: &Element) -> (Element, &'static str) {
    let mut at = Some(el.clone());
    for _ in 0..MAX_CLIMB {
        let Some(current) = at else { break };
        if let Some(role) = interactive_role(&current) {
            return (current, role);
        }
        at = current.parent_element().or_else(|| {
            current
                .get_root_node()
                .dyn_ref::<web_sys::ShadowRoot>()
                .map(web_sys::ShadowRoot::host)
        });
    }
    (el.clone(), "text")
}

fn interactive_role(el: &Element) -> Option<&'static str> {
    let (role, interactive) = role_of(el, &el.local_name(), true);
    interactive.then(|| role.unwrap_or("clickable"))
}
