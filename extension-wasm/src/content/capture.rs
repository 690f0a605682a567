//! The content script's part of a screenshot: letting the page settle (images, fonts, two
//! frames, an idle moment) and measuring what to capture.

use claudezilla_protocol::args::FrameTarget;
use claudezilla_protocol::envelope::PageReply;
use claudezilla_protocol::reply;
use claudezilla_protocol::reply::PageMetrics;
use claudezilla_protocol::{ErrorBody, ErrorCode};
use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Element, HtmlImageElement};

use super::dom::{self, document, is_visible};
use super::find::{self, describe, ref_for};
use crate::page_marks::{self, Marked};
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
    let r = el.get_bounding_client_rect();
    let (w, h) = web_sys::window()
        .map(|w| {
            (
                w.inner_width().ok().and_then(|v| v.as_f64()).unwrap_or(0.0),
                w.inner_height()
                    .ok()
                    .and_then(|v| v.as_f64())
                    .unwrap_or(0.0),
            )
        })
        .unwrap_or_default();
    r.bottom() > 0.0 && r.right() > 0.0 && r.top() < h && r.left() < w
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

/// Viewport, scroll, page size, the target's box and the badge targets, in CSS pixels.
pub fn metrics(
    target: Option<&FrameTarget>,
    marks: bool,
    frame: u32,
) -> Result<PageReply, ErrorBody> {
    let window = window()?;
    let doc = document()?;
    let num = |v: Result<JsValue, JsValue>| v.ok().and_then(|v| v.as_f64()).unwrap_or(0.0);
    let (sx, sy) = (
        window.scroll_x().unwrap_or(0.0),
        window.scroll_y().unwrap_or(0.0),
    );
    let viewport = [num(window.inner_width()), num(window.inner_height())];
    let root = doc.document_element();
    let size = |f: fn(&Element) -> i32| {
        root.as_ref()
            .map_or(0, f)
            .max(doc.body().as_ref().map_or(0, |b| f(b))) as f64
    };
    let page = [size(Element::scroll_width), size(Element::scroll_height)];
    let boxes = Boxes { sx, sy, frame };
    let element = match target {
        Some(t) => {
            let el = find::resolve(t, frame)?;
            Some(page_marks::captured(boxes.rect(&el), || describe(&el))?)
        }
        None => None,
    };
    let mut found = Vec::new();
    if marks {
        let candidates = dom::matching(&doc, page_marks::INTERACTIVE)
            .map_err(|e| ErrorBody::new(ErrorCode::Internal, web::js_error_message(&e)))?;
        let view = [sx, sy, viewport[0], viewport[1]];
        found = page_marks::marks(&boxes, candidates, view, element.is_some());
    }
    Ok(PageReply::Metrics(PageMetrics {
        viewport,
        scroll: [sx, sy],
        page,
        element,
        marks: found,
    }))
}

/// The frame's elements as badges mark them, their boxes in the page's coordinates.
struct Boxes {
    sx: f64,
    sy: f64,
    frame: u32,
}

impl Marked for Boxes {
    type Element = Element;

    fn rect(&self, el: &Element) -> page_marks::Rect {
        let r = el.get_bounding_client_rect();
        [r.left() + self.sx, r.top() + self.sy, r.width(), r.height()]
    }

    fn visible(&self, el: &Element) -> bool {
        is_visible(el)
    }

    fn label(&self, el: &Element) -> String {
        format!("{} {}", ref_for(el, self.frame), describe(el))
    }
}
