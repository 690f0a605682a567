//! The content script's part of a screenshot: letting the page settle (images, fonts, two
//! frames, an idle moment) and measuring what to capture.

use claudezilla_protocol::args::FrameTarget;
use claudezilla_protocol::envelope::PageReply;
use claudezilla_protocol::reply;
use claudezilla_protocol::{ErrorBody, ErrorCode};
use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Element, HtmlImageElement};

use super::dom::{self, document, is_visible};
use super::find::{self, describe, ref_for};
use crate::page_marks::{self, Marked, Measured};
use crate::shot::settle::Settling;
use crate::web;

fn window() -> Result<web_sys::Window, ErrorBody> {
    web_sys::window().ok_or_else(|| ErrorBody::new(ErrorCode::PageError, "no window"))
}

/// Waits for the page's images (optional) and fonts, then two animation frames and an idle
/// callback ([`settle`](crate::shot::settle) decides), within `until`.
pub async fn settle(images: bool, until: u64) -> Result<reply::Waited, ErrorBody> {
    crate::shot::settle::settle(&PageSettling, images, until).await
}

/// The page as a screenshot's wait sees it.
struct PageSettling;

impl Settling for PageSettling {
    fn now_ms(&self) -> f64 {
        web::now_ms()
    }

    fn pending_images(&self) -> Result<u32, ErrorBody> {
        pending_images()
    }

    fn next_load(&self, ms: u32) -> impl Future<Output = ()> {
        super::changes::next_load(ms)
    }

    /// Read, not awaited: a tab in the background may not settle `fonts.ready` until shown.
    fn fonts_loading(&self) -> Result<bool, ErrorBody> {
        let status = Reflect::get(&document()?.into(), &"fonts".into())
            .and_then(|f| Reflect::get(&f, &"status".into()))
            .ok()
            .and_then(|s| s.as_string());
        Ok(status.as_deref() == Some("loading"))
    }

    fn sleep(&self, ms: u32) -> impl Future<Output = ()> {
        web::sleep(ms)
    }

    fn hidden(&self) -> Result<bool, ErrorBody> {
        Ok(Reflect::get(&document()?.into(), &"hidden".into())
            .ok()
            .and_then(|h| h.as_bool())
            .unwrap_or(false))
    }

    fn animation_frame(&self) -> impl Future<Output = Result<(), ErrorBody>> {
        animation_frame()
    }

    fn idle(&self) -> impl Future<Output = Result<(), ErrorBody>> {
        idle()
    }
}

fn pending_images() -> Result<u32, ErrorBody> {
    let all = document()?.images();
    Ok((0..all.length())
        .filter_map(|i| all.item(i)?.dyn_into::<HtmlImageElement>().ok())
        // Lazy images below the fold never load by themselves: wait only for those in view.
        .filter(|img| {
            !img.complete()
                && (img.get_attribute("loading").as_deref() != Some("lazy") || in_view(img))
        })
        .count() as u32)
}

fn in_view(el: &Element) -> bool {
    let b = client_box(el);
    let [w, h] = web_sys::window().map_or([0.0; 2], |w| viewport(&w));
    page_marks::overlaps(b, [0.0, 0.0, w, h])
}

/// `innerWidth`, `innerHeight`.
fn viewport(window: &web_sys::Window) -> [f64; 2] {
    let num = |v: Result<JsValue, JsValue>| v.ok().and_then(|v| v.as_f64()).unwrap_or(0.0);
    [num(window.inner_width()), num(window.inner_height())]
}

fn client_box(el: &Element) -> page_marks::Rect {
    let r = el.get_bounding_client_rect();
    [r.left(), r.top(), r.width(), r.height()]
}

pub(super) async fn animation_frame() -> Result<(), ErrorBody> {
    let window = window()?;
    let promise = Promise::new(&mut |resolve, _| {
        let _ = window.request_animation_frame(&resolve);
    });
    // Headless Firefox runs frames; a page in the background may not: do not wait forever.
    web::with_deadline(250, JsFuture::from(promise)).await;
    Ok(())
}

async fn idle() -> Result<(), ErrorBody> {
    let window = window()?;
    let Ok(request) =
        Reflect::get(&window, &"requestIdleCallback".into()).and_then(|f| f.dyn_into::<Function>())
    else {
        return Ok(());
    };
    let promise = Promise::new(&mut |resolve, _| {
        let options = js_sys::Object::new();
        let _ = Reflect::set(&options, &"timeout".into(), &JsValue::from(200));
        let _ = request.call2(&window, &resolve, &options);
    });
    web::with_deadline(300, JsFuture::from(promise)).await;
    Ok(())
}

/// Viewport, scroll, page size, the target's box and the badge targets, in CSS pixels
/// ([`page_marks::metrics`]).
pub fn metrics(
    target: Option<&FrameTarget>,
    marks: bool,
    frame: u32,
) -> Result<PageReply, ErrorBody> {
    let page = Measures {
        window: window()?,
        doc: document()?,
        frame,
    };
    Ok(PageReply::Metrics(page_marks::metrics(
        &page, target, marks,
    )?))
}

/// The frame as a screenshot measures it.
struct Measures {
    window: web_sys::Window,
    doc: web_sys::Document,
    frame: u32,
}

impl Marked for Measures {
    type Element = Element;

    fn rect(&self, el: &Element) -> page_marks::Rect {
        client_box(el)
    }

    fn visible(&self, el: &Element) -> bool {
        is_visible(el)
    }

    fn label(&self, el: &Element) -> String {
        format!("{} {}", ref_for(el, self.frame), describe(el))
    }
}

impl Measured for Measures {
    fn scroll(&self) -> [f64; 2] {
        let w = &self.window;
        [w.scroll_x().unwrap_or(0.0), w.scroll_y().unwrap_or(0.0)]
    }

    fn viewport(&self) -> [f64; 2] {
        viewport(&self.window)
    }

    fn document_element(&self) -> Option<Element> {
        self.doc.document_element()
    }

    fn body(&self) -> Option<Element> {
        self.doc.body().map(Element::from)
    }

    fn scroll_width(&self, el: &Element) -> i32 {
        el.scroll_width()
    }

    fn scroll_height(&self, el: &Element) -> i32 {
        el.scroll_height()
    }

    fn resolve(&self, target: &FrameTarget) -> Result<Element, ErrorBody> {
        find::resolve(target, self.frame)
    }

    fn describe(&self, el: &Element) -> String {
        describe(el)
    }

    fn interactive(&self) -> Result<impl Iterator<Item = Element>, String> {
        let all = dom::matching(&self.doc, page_marks::INTERACTIVE);
        all.map_err(|e| web::js_error_message(&e))
    }
}
