//! `firefox_get_content` and `firefox_get_element` in one frame, decided apart from the DOM.
//! `content` reads the element a selector finds, else the body, else the document's root: as
//! text by `innerText` where no shadow root or frame is on the way, else node by node
//! ([`page_text::composed_text`]); as Markdown ([`markdown::Walk`]); or as its HTML; a part the
//! page does not render says nothing, and the typed secrets are hidden before the cut.
//! `element` says what one element is, each part cut to its bound. Over [`Document`] and
//! [`Inspected`], which `content/read.rs` implements.

use claudezilla_protocol::args::ContentFormat;
use claudezilla_protocol::reply::{ElementInfo, PageContent};
use claudezilla_protocol::{ErrorBody, ErrorCode};

use crate::a11y::clean;
use crate::hidden::hide;
use crate::markdown::{self, Markdown, Source};
use crate::page_text;
use crate::text::{cap, tidy, truncate_chars};

/// Attributes shown of one element: a page may give one thousands.
const MAX_ATTRIBUTES: u32 = 50;
/// Characters of a field's value shown.
const MAX_VALUE_CHARS: usize = 2_000;

/// The computed styles `firefox_get_element` shows.
const STYLES: &[&str] = &[
    "display",
    "visibility",
    "opacity",
    "color",
    "background-color",
    "font-size",
    "font-weight",
    "position",
    "z-index",
    "cursor",
    "pointer-events",
];

/// The frame's document as a read of its content sees it, beside the walks' questions.
pub trait Document: Source {
    /// The elements on a path from a root to a shadow host or a frame.
    type Paths;
    /// The first element `selector` matches, through open shadow roots.
    fn query(&self, selector: &str) -> Result<Option<Self::Element>, ErrorBody>;
    /// "No element matches", with the page's selectors that look alike.
    fn not_found(&self, selector: &str) -> ErrorBody;
    fn body(&self) -> Option<Self::Element>;
    fn document_element(&self) -> Option<Self::Element>;
    /// Every element under `root` on a path to a shadow host or a frame.
    fn hidden_paths(&self, root: &Self::Element) -> Self::Paths;
    fn is_on(&self, paths: &Self::Paths, el: &Self::Element) -> bool;
    /// No element is on a path: plain DOM, which `innerText` reads whole.
    fn none_on(&self, paths: &Self::Paths) -> bool;
    fn has_hidden_attribute(&self, el: &Self::Element) -> bool;
    fn outer_html(&self, el: &Self::Element) -> String;
    fn url(&self) -> String;
    fn title(&self) -> String;
}

/// The content of the element `selector` finds (else the body) in `format`, cut at
/// `max_length` characters.
pub fn content<D: Document>(
    page: &D,
    selector: Option<&str>,
    max_length: u32,
    format: ContentFormat,
) -> Result<PageContent, ErrorBody> {
    let root = match selector {
        Some(selector) => page
            .query(selector)?
            .ok_or_else(|| page.not_found(selector))?,
        None => page
            .body()
            .or_else(|| page.document_element())
            .ok_or_else(|| ErrorBody::new(ErrorCode::PageError, "the page has no body yet"))?,
    };
    let html = matches!(format, ContentFormat::Html);
    let paths = (!html).then(|| page.hidden_paths(&root));
    let plain = paths.as_ref().is_none_or(|p| page.none_on(p));
    let on_path = |el: &D::Element| paths.as_ref().is_some_and(|p| page.is_on(p, el));
    let mut frames = Vec::new();
    // A part the page does not render shows nothing (its `innerText` would be all its words).
    let unseen = !html && (page.has_hidden_attribute(&root) || !page.showing(&root).entered());
    let full = match format {
        _ if unseen => String::new(),
        ContentFormat::Text if plain => tidy(
            &page
                .inner_text(&root)
                .unwrap_or_else(|| page.text_content(&root)),
        ),
        ContentFormat::Text => {
            let read = page_text::composed_text(page, &root, &on_path);
            frames = read.frames;
            tidy(&read.text)
        }
        ContentFormat::Markdown => {
            let mut md = Markdown::new();
            let composed = (!plain).then_some(&on_path as &dyn Fn(&D::Element) -> bool);
            let mut walk = markdown::Walk::new(page, composed);
            walk.read(&root, &mut md);
            frames = walk.frames;
            md.finish()
        }
        ContentFormat::Html => page.outer_html(&root),
    };
    // Before the cut: no first part of a value may show.
    let full = hide(&full);
    let (kept, total, truncated) = truncate_chars(&full, max_length as usize);
    Ok(PageContent {
        url: hide(&page.url()).into_owned(),
        title: hide(&page.title()).into_owned(),
        text: kept.to_owned(),
        total_length: total as u32,
        truncated,
        frames,
    })
}

/// One element as `firefox_get_element` reads it.
pub trait Inspected {
    type Element;
    /// The names and values of the element's first `first` attributes.
    fn attributes(&self, el: &Self::Element, first: u32) -> Vec<(String, String)>;
    /// The border box in the viewport: x, y, width, height.
    fn rect(&self, el: &Self::Element) -> [f64; 4];
    /// The computed values of `properties`, in order; none where the page has no style.
    fn styles(&self, el: &Self::Element, properties: &[&str]) -> Option<Vec<String>>;
    /// A field's value (an input, a textarea, a select); none for another element.
    fn value(&self, el: &Self::Element) -> Option<String>;
    /// The name of the secret typed into the field, if one was.
    fn held(&self, el: &Self::Element) -> Option<String>;
    /// `innerText`, else `textContent` for an element that is not HTML's.
    fn text(&self, el: &Self::Element) -> String;
    fn tag(&self, el: &Self::Element) -> String;
    fn visible(&self, el: &Self::Element) -> bool;
    /// `button#save.primary "Save"` and the element's ref, as answers name it.
    fn described(&self, el: &Self::Element) -> (String, String);
}

/// What `firefox_get_element` says of `el`.
pub fn element<I: Inspected>(page: &I, el: &I::Element) -> ElementInfo {
    let attributes = page.attributes(el, MAX_ATTRIBUTES).into_iter();
    let attributes = attributes
        .map(|(name, value)| (clean(&name, 100), clean(&value, 200)))
        .collect();
    let rect = page.rect(el);
    let styles = page.styles(el, STYLES).map(|values| {
        let named = STYLES.iter().map(|p| p.to_string());
        named.zip(values).collect()
    });
    let value = page.value(el);
    let text = page.text(el);
    let (description, element_ref) = page.described(el);
    ElementInfo {
        element: format!("{description} ({element_ref})"),
        tag: page.tag(el),
        attributes,
        visible: page.visible(el),
        rect,
        styles: styles.unwrap_or_default(),
        text: clean(&text, 500),
        // A typed secret shows as its name.
        value: value.map(|v| cap(&page.held(el).unwrap_or(v), MAX_VALUE_CHARS)),
    }
}

#[cfg(test)]
mod tests;
