//! `firefox_find` in one frame: its rendered text (shadow roots and slots as shown, hidden
//! elements left out) joined into one text, searched ([`crate::search`]), each match named by
//! the nearest element an agent can act on.

use claudezilla_protocol::args::Needle;
use claudezilla_protocol::reply::{Found, FoundMatch};
use claudezilla_protocol::{ErrorBody, ErrorCode, Outcome, Reply};
use wasm_bindgen::JsCast;
use web_sys::{Element, Node};

use super::find::{document, ref_for};
use super::names::{self, Labels};
use super::snapshot::{frame_id_of, is_visible, role_of};
use crate::a11y;
use crate::search::{self, Finder};

/// Elements climbed from a match to find one to act on.
const MAX_CLIMB: usize = 8;
/// Bytes of one frame's text searched (a page's worth many times over).
const MAX_TEXT: usize = 4_000_000;

pub fn find(needle: &Needle, limit: u32, frame: u32) -> Outcome {
    let finder = Finder::new(needle).map_err(|e| ErrorBody::new(ErrorCode::InvalidArgument, e))?;
    let doc = document()?;
    let mut page = Joined::default();
    if let Some(root) = doc
        .body()
        .map(Element::from)
        .or_else(|| doc.document_element())
    {
        page.element(&root);
    }
    let mut labels = Labels::default();
    let mut matches = Vec::new();
    let mut total = 0u32;
    for at in finder.all(&page.text) {
        total = total.saturating_add(1);
        if matches.len() >= limit as usize {
            continue;
        }
        let owner = &page.owners[search::piece_at(&page.starts, at.start)];
        let (element, role) = actionable(owner);
        // Plain text has no name but its words, which the context shows.
        let name = match role {
            "text" => String::new(),
            _ => names::name(&element, &element.local_name(), role, &mut labels),
        };
        matches.push(FoundMatch {
            element_ref: ref_for(&element, frame),
            name: a11y::clean(&name, 80),
            role: role.to_owned(),
            context: search::context(&page.text, at),
        });
    }
    Ok(Reply::Found(Found {
        matches,
        total,
        frames: page.frames,
    }))
}

/// A frame's shown text as one string, and which element holds each piece.
#[derive(Default)]
struct Joined {
    text: String,
    starts: Vec<usize>,
    owners: Vec<Element>,
    frames: Vec<u64>,
}

impl Joined {
    fn element(&mut self, el: &Element) {
        let tag = el.local_name();
        if a11y::is_skipped(&tag) || self.text.len() > MAX_TEXT {
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
        if node.node_type() != Node::TEXT_NODE || self.text.len() > MAX_TEXT {
            return;
        }
        let raw = node.text_content().unwrap_or_default();
        let words: Vec<&str> = raw.split_whitespace().collect();
        if words.is_empty() {
            if raw.is_empty() || self.text.ends_with([' ', '\n']) || self.text.is_empty() {
                return;
            }
            return self.text.push(' ');
        }
        if raw.starts_with(char::is_whitespace)
            && !self.text.ends_with([' ', '\n'])
            && !self.text.is_empty()
        {
            self.text.push(' ');
        }
        self.starts.push(self.text.len());
        self.owners
            .push(node.parent_element().unwrap_or_else(|| owner.clone()));
        self.text.push_str(&words.join(" "));
        if raw.ends_with(char::is_whitespace) {
            self.text.push(' ');
        }
    }

    fn line_break(&mut self) {
        let trimmed = self.text.trim_end_matches(' ').len();
        self.text.truncate(trimmed);
        if !self.text.is_empty() && !self.text.ends_with('\n') {
            self.text.push('\n');
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
