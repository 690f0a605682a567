//! The leaf every content module reads the page through: the document, and the element checks
//! web-sys lacks (`checkVisibility`, `matches` with a selector kept as a JS string).

use claudezilla_protocol::{ErrorBody, ErrorCode};
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element};

#[wasm_bindgen]
extern "C" {
    /// An element seen through `checkVisibility()` (not in web-sys yet).
    #[wasm_bindgen(extends = Element)]
    pub type Checkable;
    #[wasm_bindgen(method, js_name = checkVisibility)]
    fn check_visibility(this: &Checkable) -> bool;
    /// `matches` with a selector kept as a JS string (no re-encoding per call).
    #[wasm_bindgen(method, js_name = matches)]
    pub fn matches_value(this: &Checkable, selectors: &JsValue) -> bool;
}

pub fn document() -> Result<Document, ErrorBody> {
    web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| ErrorBody::new(ErrorCode::PageError, "this page has no document"))
}

/// Does `el` match any of the selectors kept in `selectors`?
pub fn has_any(el: &Element, selectors: &'static std::thread::LocalKey<JsValue>) -> bool {
    selectors.with(|s| el.unchecked_ref::<Checkable>().matches_value(s))
}

/// False for elements not rendered (display: none, content-visibility hidden, …).
pub fn is_visible(el: &Element) -> bool {
    el.unchecked_ref::<Checkable>().check_visibility()
}

/// `display: contents` (a grid's header row laid out by its cells): no box of its own, so
/// `checkVisibility` says hidden, but its children show. Asked only in the walk, which never
/// enters a hidden ancestor.
pub fn box_less(el: &Element) -> bool {
    web_sys::window()
        .and_then(|w| w.get_computed_style(el).ok().flatten())
        .and_then(|style| style.get_property_value("display").ok())
        .is_some_and(|d| d == "contents")
}
