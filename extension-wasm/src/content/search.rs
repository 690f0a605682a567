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
use crate::search::{self, Finder};
use crate::web;

/// Elements climbed from a match to find one to act on.
const MAX_CLIMB: usize = 8;
/// Bytes of one frame's text searched (a page's worth many times over).
const MAX_TEXT: usize = 4_000_000;

/// Why a frame's search ended before the end of its text.
#[derive(Clone, Copy)]
enum Stop {
    Size,
    Time,
}

impl Stop {
    /// In words that are the same for every frame (the answer says each once).
    fn words(self) -> String {
        match self {
            Self::Size => format!(
                "a frame's text is longer than {MAX_TEXT} bytes: the rest of it was not searched"
            ),
            Self::Time => format!(
                "the time ran out ({} ms a search, or the call's timeout) before the end of a frame's text",
                search::SEARCH_MS
            ),
        }
    }
}

/// The frame's matches of `needle`, `limit` listed, searched until `until` (ms since the
/// epoch) or for [`search::SEARCH_MS`], whichever ends first, in at most [`MAX_TEXT`] bytes
/// of text; the answer says how much was searched.
pub fn find(needle: &Words, limit: u32, frame: u32, until: u64) -> Result<Found, ErrorBody> {
    let finder = Finder::new(needle).map_err(|e| ErrorBody::new(ErrorCode::InvalidArgument, e))?;
    let started = web::now_ms();
    let deadline = (started + search::SEARCH_MS).min(until as f64);
    let doc = document()?;
    let mut page = Joined {
        deadline,
        ..Joined::default()
    };
    if let Some(root) = doc
        .body()
        .map(Element::from)
        .or_else(|| doc.document_element())
    {
        page.element(&root);
    }
    // Searched hidden: a pattern never matches part of a typed secret's value.
    let (text, shifts) = crate::hidden::hide_mapped(&page.text);
    let mut labels = Labels::default();
    let mut matches = Vec::new();
    let mut total = 0u32;
    let in_time = || web::now_ms() < deadline;
    let upto = finder.scan(&text, in_time, |at| {
        total = total.saturating_add(1);
        if matches.len() >= limit as usize {
            return;
        }
        let owner = &page.owners[search::piece_at(&page.starts, shifts.original(at.start))];
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
        false => page.stopped,
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

/// A frame's shown text as one string (at most [`MAX_TEXT`] bytes, read until `deadline`),
/// and which element holds each piece.
#[derive(Default)]
struct Joined {
    text: String,
    starts: Vec<usize>,
    owners: Vec<Element>,
    frames: Vec<u64>,
    deadline: f64,
    /// Why the text ends before the page's does, if it does.
    stopped: Option<Stop>,
}

impl Joined {
    fn element(&mut self, el: &Element) {
        if self.stopped.is_none() && web::now_ms() >= self.deadline {
            self.stopped = Some(Stop::Time);
        }
        let tag = el.local_name();
        if a11y::is_skipped(&tag) || self.stopped.is_some() {
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
            self.line_break();
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
        let parent: &Node = match el.shadow_root() {
            Some(ref shadow) => {
                self.children(shadow, el);
                return self.end(inline);
            }
            None => el,
        };
        self.children(parent, el);
        self.end(inline);
    }

    fn end(&mut self, inline: bool) {
        if !inline {
            self.line_break();
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
        if node.node_type() != Node::TEXT_NODE || self.stopped.is_some() {
            return;
        }
        let Some(data) = node.dyn_ref::<CharacterData>() else {
            return;
        };
        let raw = self.read(data);
        let words: Vec<&str> = raw.split_whitespace().collect();
        if words.is_empty() {
            if raw.is_empty() || self.text.ends_with([' ', '\n']) || self.text.is_empty() {
                return;
            }
            return self.push(" ");
        }
        if raw.starts_with(char::is_whitespace)
            && !self.text.ends_with([' ', '\n'])
            && !self.text.is_empty()
        {
            self.push(" ");
        }
        self.starts.push(self.text.len());
        self.owners
            .push(node.parent_element().unwrap_or_else(|| owner.clone()));
        self.push(&words.join(" "));
        if raw.ends_with(char::is_whitespace) {
            self.push(" ");
        }
    }

    /// A text node's text, only as much as could still fit: a huge node is not copied whole.
    fn read(&mut self, data: &CharacterData) -> String {
        // A UTF-16 unit is at least one byte of UTF-8.
        let room = MAX_TEXT.saturating_sub(self.text.len()) as u32;
        if data.length() <= room {
            return data.data();
        }
        self.stopped = Some(Stop::Size);
        data.substring_data(0, room).unwrap_or_default()
    }

    /// Adds `piece`, as much of it as fits in [`MAX_TEXT`]: the text never grows past it.
    fn push(&mut self, piece: &str) {
        let mut fits = piece.len().min(MAX_TEXT.saturating_sub(self.text.len()));
        while !piece.is_char_boundary(fits) {
            fits -= 1;
        }
        if fits < piece.len() {
            self.stopped = Some(Stop::Size);
        }
        self.text.push_str(&piece[..fits]);
    }

    fn line_break(&mut self) {
        let trimmed = self.text.trim_end_matches(' ').len();
        self.text.truncate(trimmed);
        if !self.text.is_empty() && !self.text.ends_with('\n') {
            self.push("\n");
        }
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
