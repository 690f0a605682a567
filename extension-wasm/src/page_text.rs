//! The text of a page whose content is partly in open shadow roots or frames, in document
//! order: `innerText` for every subtree with neither, shadow roots read in place of their
//! host's children (slots filled), frames left as markers for the background to fill.
//!
//! Read over [`Source`] (the Markdown walk's questions, `innerText` among them); the content
//! script answers from the DOM (`content/read.rs`), the tests from a page of their own.

use claudezilla_protocol::reply::frame_marker;

use crate::markdown::{InPlace, Shown, Source};
use crate::showing::Showing;

/// A page's text, and the frames its markers stand for, in order.
pub struct Composed {
    pub text: String,
    pub frames: Vec<u64>,
}

/// The text under `root`; `in_place` says which elements are on a path to a shadow host or a
/// frame (read node by node: `innerText` would leave those out).
pub fn composed_text<S: Source>(
    source: &S,
    root: &S::Element,
    in_place: InPlace<S::Element>,
) -> Composed {
    let mut reader = Reader {
        source,
        in_place,
        out: String::new(),
        frames: Vec::new(),
        text_seen: true,
    };
    reader.children_as(root, &source.tag(root), source.showing(root));
    Composed {
        text: reader.out,
        frames: reader.frames,
    }
}

struct Reader<'a, S: Source> {
    source: &'a S,
    in_place: InPlace<'a, S::Element>,
    out: String,
    frames: Vec<u64>,
    /// Whether the text directly inside the element being read is seen.
    text_seen: bool,
}

impl<S: Source> Reader<'_, S> {
    /// What `el` (a `tag`) holds, its own text seen or not as `showing` says.
    fn children_as(&mut self, el: &S::Element, tag: &str, showing: Showing) {
        let source = self.source;
        let mut nodes = source.children(el, true);
        // Closed, it shows its first summary only.
        if tag == "details" && !source.has_attribute(el, "open") {
            let summary = |n: &Shown<S::Element>| matches!(n, Shown::Element(e) if source.tag(e) == "summary");
            nodes = nodes.into_iter().filter(summary).take(1).collect();
        }
        self.nodes_as(nodes, showing);
    }

    /// `nodes` shown under an element that shows as `showing`.
    fn nodes_as(&mut self, nodes: Vec<Shown<S::Element>>, showing: Showing) {
        let outer = std::mem::replace(&mut self.text_seen, showing.text_seen());
        nodes.into_iter().for_each(|n| self.node(n));
        self.text_seen = outer;
    }

    fn node(&mut self, node: Shown<S::Element>) {
        match node {
            // Raw text (a component's template keeps its indentation) as `innerText` shows
            // it: runs of white space collapsed.
            Shown::Text(text) if self.text_seen => {
                let words: Vec<&str> = text.split_whitespace().collect();
                if text.starts_with(char::is_whitespace) {
                    self.out.push(' ');
                }
                self.out.push_str(&words.join(" "));
                if !words.is_empty() && text.ends_with(char::is_whitespace) {
                    self.out.push(' ');
                }
            }
            Shown::Element(el) => self.element(&el),
            Shown::Text(_) | Shown::Other => {}
        }
    }

    fn element(&mut self, el: &S::Element) {
        let source = self.source;
        let tag = source.tag(el);
        if crate::a11y::is_skipped(&tag) {
            return;
        }
        // Not rendered, it says nothing, on a host's path or not; with no box of its own
        // (`display: contents`, every slot by default) what it holds shows in its place, each
        // part as it shows.
        let showing = source.showing(el);
        if !showing.entered() || source.has_attribute(el, "hidden") {
            return;
        }
        if tag == "iframe" || tag == "frame" {
            // A frame made invisible shows none of its page.
            if let Some(frame) = source.frame_id(el).filter(|_| showing == Showing::Rendered) {
                self.line(&frame_marker(self.frames.len()));
                self.frames.push(frame);
            }
            return;
        }
        if tag == "slot" {
            let assigned = source.slotted(el);
            if assigned.is_empty() {
                return self.children_as(el, &tag, showing);
            }
            return self.nodes_as(assigned, showing);
        }
        if let Showing::BoxLess { .. } = showing {
            return self.children_as(el, &tag, showing);
        }
        if (self.in_place)(el) {
            self.out.push('\n');
            self.children_as(el, &tag, showing);
            self.out.push('\n');
            return;
        }
        if let Some(text) = source.inner_text(el) {
            self.line(&text);
        }
    }

    /// `text` on lines of its own.
    fn line(&mut self, text: &str) {
        self.out.push('\n');
        self.out.push_str(text);
        self.out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::markdown::tests::Page;

    fn read(page: &Page, root: usize, paths: &[usize]) -> (String, Vec<u64>) {
        let in_place = |el: &usize| paths.contains(el);
        let read = composed_text(page, &root, &in_place);
        (read.text, read.frames)
    }

    #[test]
    fn a_shadow_root_is_read_in_place_of_its_hosts_children_and_slots_are_filled() {
        let mut page = Page::default();
        let light = page.words("light ");
        let slotted = page.add("span", &[], &[light]);
        let fallback = page.words("fallback");
        let slot = page.add("slot", &[("assigned", &slotted.to_string())], &[fallback]);
        let loose = page.words("  inside\n  the   card ");
        let host = page.add("x-card", &[], &[slotted]);
        page.shadows.push((host, vec![loose, slot]));
        let skipped_words = page.words("var x");
        let script = page.add("script", &[], &[skipped_words]);
        let root = page.add("body", &[], &[host, script]);
        let (text, frames) = read(&page, root, &[root, host]);
        // Text on the host's path is collapsed as `innerText` would; what holds no host is
        // its `innerText`, whole; the fallback of a filled slot and a script say nothing.
        assert_eq!(text, "\n inside the card \nlight \n\n");
        assert!(frames.is_empty());
    }

    #[test]
    fn frames_are_markers_in_order_and_hidden_elements_say_nothing() {
        let mut page = Page::default();
        let first = page.add("iframe", &[("frame", "7")], &[]);
        let none = page.add("iframe", &[], &[]);
        let words = page.words("gone");
        let hidden = page.add("div", &[("style", "display:none")], &[words]);
        let svg_words = page.words("chart");
        let svg = page.add("svg", &[], &[svg_words]);
        let second = page.add("frame", &[("frame", "9")], &[]);
        let root = page.add("body", &[], &[first, none, hidden, svg, second]);
        let (text, frames) = read(&page, root, &[root]);
        assert_eq!(
            text,
            format!("\n{}\n\n{}\n", frame_marker(0), frame_marker(1))
        );
        assert_eq!(frames, vec![7, 9]);
    }

    #[test]
    fn a_box_less_element_shows_what_it_holds_and_a_hidden_one_on_a_hosts_path_nothing() {
        let mut page = Page::default();
        let shadow_words = page.words("inside");
        let host = page.add("x-card", &[], &[]);
        page.shadows.push((host, vec![shadow_words]));
        let shown = page.words("kept");
        let para = page.add("p", &[], &[shown]);
        let gone_words = page.words("gone");
        let gone = page.add("p", &[("style", "display:none")], &[gone_words]);
        let wrapper = page.add("div", &[("style", "display:contents")], &[para, gone, host]);
        // A hidden element on the way to a shadow host: nothing of it is read.
        let secret_words = page.words("hidden words");
        let hidden_host = page.add("y-card", &[], &[]);
        page.shadows.push((hidden_host, vec![secret_words]));
        let hidden = page.add("div", &[("style", "display:none")], &[hidden_host]);
        let root = page.add("body", &[], &[wrapper, hidden]);
        let paths = [root, wrapper, host, hidden, hidden_host];
        let (text, _) = read(&page, root, &paths);
        assert_eq!(text, "\nkept\n\ninside\n");

        // A slot hidden by the page (not the default box-less one) shows nothing either.
        let mut page = Page::default();
        let light = page.words("slotted");
        let slot = page.add(
            "slot",
            &[("assigned", &light.to_string()), ("style", "display:none")],
            &[],
        );
        let host = page.add("z-card", &[], &[light]);
        page.shadows.push((host, vec![slot]));
        let root = page.add("body", &[], &[host]);
        assert_eq!(read(&page, root, &[root, host]).0, "\n\n");
    }

    #[test]
    fn on_a_hosts_path_a_closed_details_shows_its_summary_and_invisible_text_says_nothing() {
        let mut page = Page::default();
        let shadow_words = page.words("inside");
        let host = page.add("x-card", &[], &[]);
        page.shadows.push((host, vec![shadow_words]));
        let summary_words = page.words("More");
        let summary = page.add("summary", &[], &[summary_words]);
        let folded = page.words("folded away");
        let details = page.add("details", &[], &[summary, folded, host]);
        let invisible_words = page.words("invisible");
        let shown_words = page.words("shown");
        let shown = page.add("b", &[("style", "visibility:visible")], &[shown_words]);
        let host2 = page.add("y-card", &[], &[]);
        page.shadows.push((host2, vec![]));
        let menu = page.add(
            "div",
            &[("style", "visibility:hidden")],
            &[invisible_words, shown, host2],
        );
        let root = page.add("body", &[], &[details, menu]);
        let paths = [root, details, host, menu, host2];
        // (Runs of line breaks are the page text's to tidy.)
        assert_eq!(read(&page, root, &paths).0, "\n\nMore\n\n\n\nshown\n\n\n\n");
    }
}
