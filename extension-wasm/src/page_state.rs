//! `firefox_get_page_state`: a page's outline (headings, links, buttons, fields, images,
//! landmarks), each list cut at the agent's limit while every element is counted, the
//! actionable entries with their refs, and the page's last uncaught errors ([`Errors`], the
//! ring the content script keeps). Decided here over [`Page`]; `content/read.rs` answers from
//! the DOM.

use claudezilla_protocol::args::ElementRef;
use claudezilla_protocol::envelope::PageLimits;
use claudezilla_protocol::reply::{PageCounts, PageState};

use crate::a11y::clean;
use crate::text::{MAX_TITLE_CHARS, MAX_URL_CHARS, cap};

/// Characters of a link's or image's address shown.
pub const MAX_LINK_CHARS: usize = 500;
/// Landmarks listed at most.
const MAX_LANDMARKS: u32 = 20;

const HEADINGS: &str = "h1, h2, h3, h4, h5, h6";
const LINKS: &str = "a[href]";
const BUTTONS: &str =
    "button, input[type=button], input[type=submit], input[type=reset], [role=button]";
const INPUTS: &str = "input:not([type=hidden]), select, textarea";
const LANDMARKS: &str = "nav, main, header, footer, aside, [role=navigation], [role=main], [role=search], [role=banner], [role=contentinfo], [role=dialog]";

/// Characters of an uncaught error's message kept.
const MAX_ERROR_CHARS: usize = 300;
/// Uncaught errors a page state lists at most, the newest.
const MAX_ERRORS: usize = 10;

/// The page's last uncaught errors, newest last, as its page state lists them. (`Default`:
/// clippy asks it beside `new`, which the content script's `static` needs `const`.)
#[derive(Default)]
pub struct Errors(Vec<String>);

impl Errors {
    pub const fn new() -> Self {
        Self(Vec::new())
    }

    /// Keeps `message`, cleaned and cut at [`MAX_ERROR_CHARS`], forgetting the oldest past
    /// [`MAX_ERRORS`].
    pub fn record(&mut self, message: &str) {
        self.0.push(clean(message, MAX_ERROR_CHARS));
        let over = self.0.len().saturating_sub(MAX_ERRORS);
        self.0.drain(..over);
    }

    pub fn list(&self) -> Vec<String> {
        self.0.clone()
    }
}

/// What the outline asks of a page.
pub trait Page {
    type Element;

    fn url(&self) -> String;
    fn title(&self) -> String;
    /// Calls `f` with every element matching `selector`, in document order; how many there are.
    fn each(&self, selector: &str, f: &mut dyn FnMut(&Self::Element)) -> u32;
    fn tag(&self, el: &Self::Element) -> String;
    /// The element's text, hidden parts included (`textContent`).
    fn text(&self, el: &Self::Element) -> String;
    /// Rendered and not hidden by style.
    fn visible(&self, el: &Self::Element) -> bool;
    /// A link's resolved address.
    fn href(&self, el: &Self::Element) -> Option<String>;
    fn attribute(&self, el: &Self::Element, name: &str) -> Option<String>;
    /// The element as answers show it: `button#save.primary "Save"`.
    fn describe(&self, el: &Self::Element) -> String;
    fn element_ref(&self, el: &Self::Element) -> ElementRef;
}

/// The page's outline within `limits`, with the page's last uncaught `errors`.
pub fn outline<P: Page>(page: &P, limits: PageLimits, errors: Vec<String>) -> PageState {
    let with_ref = |el: &P::Element| format!("{} ({})", page.describe(el), page.element_ref(el));
    let (headings, heading_count) = listed(page, HEADINGS, limits.headings, false, |el| {
        format!("{}: {}", page.tag(el), clean(&page.text(el), 100))
    });
    let (links, link_count) = listed(page, LINKS, limits.links, true, |el| {
        let href = cap(&page.href(el).unwrap_or_default(), MAX_LINK_CHARS);
        let text = clean(&page.text(el), 60);
        format!("{text} → {href} ({})", page.element_ref(el))
    });
    let (buttons, button_count) = listed(page, BUTTONS, limits.buttons, true, with_ref);
    let (inputs, input_count) = listed(page, INPUTS, limits.inputs, true, with_ref);
    let (images, image_count) = listed(page, "img", limits.images, false, |el| image(page, el));
    let (landmarks, _) = listed(page, LANDMARKS, MAX_LANDMARKS, false, |el| {
        page.attribute(el, "role").unwrap_or_else(|| page.tag(el))
    });
    PageState {
        url: cap(&page.url(), MAX_URL_CHARS),
        title: clean(&page.title(), MAX_TITLE_CHARS),
        headings,
        links,
        buttons,
        inputs,
        images,
        landmarks,
        counts: PageCounts {
            headings: heading_count,
            links: link_count,
            buttons: button_count,
            inputs: input_count,
            images: image_count,
            forms: page.each("form", &mut |_| {}),
        },
        errors,
    }
}

/// The elements matching `selector` (with `shown_only`, those shown), at most `max`, each as
/// `item` words it; and how many match in all.
fn listed<P: Page>(
    page: &P,
    selector: &str,
    max: u32,
    shown_only: bool,
    item: impl Fn(&P::Element) -> String,
) -> (Vec<String>, u32) {
    let mut list = Vec::new();
    let count = page.each(selector, &mut |el| {
        if list.len() < max as usize && (!shown_only || page.visible(el)) {
            list.push(item(el));
        }
    });
    (list, count)
}

/// An image by its words (`alt`), else by its address.
fn image<P: Page>(page: &P, el: &P::Element) -> String {
    let alt = page.attribute(el, "alt").unwrap_or_default();
    match alt.is_empty() {
        true => cap(
            &page.attribute(el, "src").unwrap_or_default(),
            MAX_LINK_CHARS,
        ),
        false => clean(&alt, 200),
    }
}

#[cfg(test)]
mod tests;
