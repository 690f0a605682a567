//! `firefox_audit` in one frame: axe-core, which the background put into this world (the
//! content scripts', not the page's) just before, run over the frame's document; its results
//! read for [`crate::axe_run`], which decides what the answer keeps (elements with refs).
//! Child frames are named for the background, which audits them in turn.

use claudezilla_protocol::args::{ElementRef, RuleSet};
use claudezilla_protocol::reply::Audit;
use claudezilla_protocol::{ErrorBody, ErrorCode};
use js_sys::{Array, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Element, HtmlInputElement};

use super::find::ref_for;
use super::snapshot::child_frames;
use crate::axe_run::{self, Axe, Options};
use crate::web::{self, get};

/// Runs axe over this frame's document ([`axe_run::audit`]).
pub async fn run(
    rules: &[RuleSet],
    per_rule: u32,
    frame: u32,
    until: u64,
) -> Result<Box<Audit>, ErrorBody> {
    let this = ThisFrame {
        axe: get(&js_sys::global(), "axe"),
        frame,
    };
    axe_run::audit(&this, rules, per_rule, until).await
}

/// The axe-core in this frame's world.
struct ThisFrame {
    axe: JsValue,
    /// The frame's alias, which its refs carry.
    frame: u32,
}

/// The frame's window and document.
struct Page {
    window: web_sys::Window,
    document: web_sys::Document,
}

impl Axe for ThisFrame {
    type Value = JsValue;
    type List = Array;
    type Running = Promise;
    type Page = Page;
    type Element = Element;

    fn now_ms(&self) -> f64 {
        web::now_ms()
    }

    fn loaded(&self) -> bool {
        get(&self.axe, "run").is_function()
    }

    fn open(&self) -> Result<Page, ErrorBody> {
        let window = web_sys::window().ok_or_else(|| internal("no window"))?;
        let document = window.document().ok_or_else(|| internal("no document"))?;
        Ok(Page { window, document })
    }

    fn start(&self, page: &Page, options: &Options) -> Result<Promise, String> {
        let args = Array::of2(&page.document, &web::to_js(options));
        web::invoke(&self.axe, "run", &args)
            .map(Promise::from)
            .map_err(|e| web::js_error_message(&e))
    }

    async fn results(&self, run: Promise, ms: u32) -> Option<Result<JsValue, String>> {
        let results = web::with_deadline(ms, JsFuture::from(run)).await?;
        Some(results.map_err(|e| web::js_error_message(&e)))
    }

    fn text(&self, value: &JsValue, key: &str) -> String {
        get(value, key).as_string().unwrap_or_default()
    }

    fn as_text(&self, value: &JsValue) -> Option<String> {
        value.as_string()
    }

    fn list(&self, value: &JsValue, key: &str) -> Array {
        Array::from(&get(value, key))
    }

    fn len(&self, list: &Array) -> u32 {
        list.length()
    }

    fn item(&self, list: &Array, index: u32) -> JsValue {
        list.get(index)
    }

    fn element(&self, node: &JsValue) -> Option<Element> {
        get(node, "element").dyn_ref::<Element>().cloned()
    }

    fn input_type(&self, element: &Element) -> Option<String> {
        element
            .dyn_ref::<HtmlInputElement>()
            .map(HtmlInputElement::type_)
    }

    fn holds(&self, element: &Element, selectors: &str) -> bool {
        element.query_selector(selectors).ok().flatten().is_some()
    }

    fn tag(&self, element: &Element) -> String {
        element.local_name()
    }

    fn ref_for(&self, element: &Element) -> ElementRef {
        ref_for(element, self.frame)
    }

    fn engine(&self) -> String {
        get(&self.axe, "version").as_string().unwrap_or_default()
    }

    fn url(&self, page: &Page) -> String {
        page.window.location().href().unwrap_or_default()
    }

    /// Frames in open shadow roots too.
    fn child_frames(&self, page: &Page) -> Vec<u64> {
        child_frames(&page.document)
    }
}

fn internal(what: &str) -> ErrorBody {
    ErrorBody::new(ErrorCode::Internal, what)
}
