//! `firefox_handle_consent`: dismisses a cookie/consent banner by accepting, never by
//! rejecting or opening settings. Which button is pressed is [`consent_banner`]'s; this reads
//! the page for it and clicks.

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::reply;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

use super::dom::{self, is_visible};
use super::find::{self, describe, query_all_in};
use crate::consent_banner::{self, BUTTONS, Banners, CONTAINERS};

pub fn dismiss() -> Result<reply::Acted, ErrorBody> {
    Ok(reply::Acted {
        what: consent_banner::dismiss(&Page),
    })
}

/// The page as the choice reads it ([`consent_banner::Banners`]).
struct Page;

impl Banners for Page {
    type Element = Element;

    fn query(&self, selector: &str) -> Option<Element> {
        find::query(selector).ok().flatten()
    }

    fn containers(&self) -> Vec<Element> {
        let Ok(doc) = dom::document() else {
            return Vec::new();
        };
        find::open_roots(&doc)
            .iter()
            .flat_map(|root| query_all_in(root, CONTAINERS))
            .collect()
    }

    fn buttons(&self, container: &Element) -> Vec<Element> {
        query_all_in(container, BUTTONS)
    }

    fn visible(&self, el: &Element) -> bool {
        is_visible(el)
    }

    fn disabled(&self, el: &Element) -> bool {
        el.matches(":disabled").unwrap_or(false)
    }

    fn about(&self, el: &Element) -> [String; 3] {
        [
            el.id(),
            // The attribute, not `className`: an SVG element's is an object, no string.
            super::dom::attribute(el, "class").unwrap_or_default(),
            el.text_content().unwrap_or_default(),
        ]
    }

    fn shown_text(&self, el: &Element) -> String {
        el.dyn_ref::<HtmlElement>()
            .map(HtmlElement::inner_text)
            .unwrap_or_default()
    }

    fn attribute(&self, el: &Element, name: &str) -> Option<String> {
        el.get_attribute(name)
    }

    fn click(&self, el: &Element) {
        if let Some(html) = el.dyn_ref::<HtmlElement>() {
            html.click();
        }
    }

    fn describe(&self, el: &Element) -> String {
        describe(el)
    }
}
