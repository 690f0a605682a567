//! `firefox_performance`: the page's buffered performance entries, read where the page's own
//! timeline is (this frame's `performance`) once it has painted, put together by
//! [`crate::perf::report`].

use claudezilla_protocol::reply::PagePerformance;
use claudezilla_protocol::{ErrorBody, ErrorCode};
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;
use web_sys::Element;

use super::find::{describe, ref_for};
use crate::perf;
use crate::web::{get, invoke};

thread_local! {
    /// The observers' callback: entries are taken at once, never delivered.
    static IGNORE: Closure<dyn FnMut()> = Closure::new(|| {});
}

/// Read once the page has painted and Firefox has reported its LCP ([`perf::painted`]).
pub async fn measure(until: u64) -> Result<Box<PagePerformance>, ErrorBody> {
    let window = web_sys::window().ok_or_else(|| internal("no window"))?;
    let page = Page {
        observer: get(&window, "PerformanceObserver"),
        performance: get(&window, "performance"),
        window,
    };
    let hidden = perf::painted(&page, until).await?;
    let url = page.window.location().href().unwrap_or_default();
    Ok(Box::new(perf::report(&page, &url, hidden)))
}

/// This frame's performance timeline ([`perf::Timeline`]) and its frames.
struct Page {
    window: web_sys::Window,
    /// The `PerformanceObserver` class.
    observer: JsValue,
    performance: JsValue,
}

impl perf::Painting for Page {
    fn now_ms(&self) -> f64 {
        crate::web::now_ms()
    }

    fn hidden(&self) -> bool {
        let document = self.window.document();
        document.is_some_and(|d| d.visibility_state() == web_sys::VisibilityState::Hidden)
    }

    fn frame(&self) -> impl Future<Output = Result<(), ErrorBody>> {
        super::capture::animation_frame()
    }
}

impl perf::Timeline for Page {
    type Entry = JsValue;

    fn supported(&self) -> Vec<String> {
        supported(&self.observer)
    }

    fn observed(&self, kind: &str) -> Vec<JsValue> {
        buffered(&self.observer, kind)
    }

    fn entries(&self, kind: &str) -> Vec<JsValue> {
        invoke(
            &self.performance,
            "getEntriesByType",
            &Array::of1(&kind.into()),
        )
        .map(|list| Array::from(&list).iter().collect())
        .unwrap_or_default()
    }

    fn number(&self, entry: &JsValue, key: &str) -> f64 {
        get(entry, key)
            .as_f64()
            .filter(|n| n.is_finite())
            .unwrap_or(0.0)
    }

    fn text(&self, entry: &JsValue, key: &str) -> Option<String> {
        get(entry, key).as_string()
    }

    fn flag(&self, entry: &JsValue, key: &str) -> bool {
        get(entry, key).as_bool().unwrap_or(false)
    }

    fn sources(&self, shift: &JsValue) -> Vec<JsValue> {
        Array::from(&get(shift, "sources")).iter().collect()
    }

    /// An element as the agent knows it: its description and ref.
    fn element(&self, entry: &JsValue, key: &str) -> Option<String> {
        let value = get(entry, key);
        let element = value.dyn_ref::<Element>()?;
        Some(format!("{} {}", describe(element), ref_for(element, 0)))
    }
}

fn supported(observer_class: &JsValue) -> Vec<String> {
    Array::from(&get(observer_class, "supportedEntryTypes"))
        .iter()
        .filter_map(|t| t.as_string())
        .collect()
}

/// The buffered entries of one kind, taken at once.
fn buffered(observer_class: &JsValue, kind: &str) -> Vec<JsValue> {
    let Ok(class) = observer_class.clone().dyn_into::<js_sys::Function>() else {
        return Vec::new();
    };
    let callback = IGNORE.with(|c| c.as_ref().clone());
    let Ok(observer) = Reflect::construct(&class, &Array::of1(&callback)) else {
        return Vec::new();
    };
    let options = Object::new();
    let _ = Reflect::set(&options, &"type".into(), &kind.into());
    let _ = Reflect::set(&options, &"buffered".into(), &true.into());
    let _ = Reflect::set(&options, &"durationThreshold".into(), &16.into());
    let _ = invoke(&observer, "observe", &Array::of1(&options));
    let taken = invoke(&observer, "takeRecords", &Array::new()).unwrap_or(JsValue::NULL);
    let _ = invoke(&observer, "disconnect", &Array::new());
    Array::from(&taken).iter().collect()
}

fn internal(what: &str) -> ErrorBody {
    ErrorBody::new(ErrorCode::Internal, what)
}
