//! `firefox_performance`: the page's buffered performance entries, read where the page's own
//! timeline is (this frame's `performance`), added up by [`crate::perf`].

use claudezilla_protocol::reply::{
    LongTasks, NavigationTiming, PagePerformance, Painted, Resource, Shifts,
};
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

/// Longest wait for a just-loaded page's Largest Contentful Paint to be reported.
const LCP_WAIT_MS: f64 = 2_000.0;

/// Read once the page has painted. Firefox reports a paint's Largest Contentful Paint when
/// the paint is presented, which can be frames after it (later still on a busy machine): the
/// read waits for that entry, frame by frame, at most [`LCP_WAIT_MS`] and never past `until`.
/// A page with nothing contentful to paint costs that wait.
pub async fn measure(until: u64) -> Result<Box<PagePerformance>, ErrorBody> {
    let window = web_sys::window().ok_or_else(|| internal("no window"))?;
    let observer = get(&window, "PerformanceObserver");
    let supported: Vec<String> = Array::from(&get(&observer, "supportedEntryTypes"))
        .iter()
        .filter_map(|t| t.as_string())
        .collect();
    let lcp_kind = "largest-contentful-paint";
    // A hidden document paints nothing: no entry will come, so none is waited for.
    let hidden = window
        .document()
        .is_some_and(|d| d.visibility_state() == web_sys::VisibilityState::Hidden);
    let wait_ms = if hidden { 0.0 } else { LCP_WAIT_MS };
    let deadline = (until as f64).min(crate::web::now_ms() + wait_ms);
    for frame in 0.. {
        super::capture::animation_frame().await?;
        let painted = frame >= 1;
        let reported =
            !supported.iter().any(|s| s == lcp_kind) || !buffered(&observer, lcp_kind).is_empty();
        if painted && (reported || crate::web::now_ms() >= deadline) {
            break;
        }
    }
    let performance = get(&window, "performance");
    let mut report = PagePerformance {
        url: crate::text::cap(
            &crate::redact::redact_url(&window.location().href().unwrap_or_default()),
            500,
        ),
        hidden,
        ..PagePerformance::default()
    };
    report.navigation = entries(&performance, "navigation")
        .first()
        .map(|n| NavigationTiming {
            ttfb: ms(n, "responseStart"),
            dom_content_loaded: ms(n, "domContentLoadedEventEnd"),
            load: ms(n, "loadEventEnd"),
            transfer_bytes: num(n, "transferSize") as u64,
        });
    let resources: Vec<Resource> = entries(&performance, "resource")
        .iter()
        .map(|r| {
            let name = get(r, "name").as_string().unwrap_or_default();
            Resource {
                url: crate::redact::shown_url(&name, 200),
                kind: get(r, "initiatorType").as_string().unwrap_or_default(),
                bytes: num(r, "transferSize").max(num(r, "encodedBodySize")) as u64,
            }
        })
        .collect();
    (report.resources, report.largest) = perf::resources(&resources);

    let mut observed = |kind: &str, what: &str| {
        if supported.iter().any(|s| s == kind) {
            return Some(buffered(&observer, kind));
        }
        report
            .unmeasured
            .push(format!("{what}: this browser reports no {kind} entries"));
        None
    };
    let lcp = observed(lcp_kind, "Largest Contentful Paint");
    let shifts = observed("layout-shift", "Cumulative Layout Shift");
    let events = observed("event", "Interaction to Next Paint");
    let long = observed("longtask", "long tasks");

    // Its render time, else (an image of another site without Timing-Allow-Origin) its load.
    report.lcp = lcp.and_then(|l| l.last().cloned()).map(|l| Painted {
        ms: ["renderTime", "loadTime", "startTime"]
            .iter()
            .map(|k| ms(&l, k))
            .max()
            .unwrap_or(0),
        element: element_of(&get(&l, "element")),
    });
    report.cls = shifts.map(|shifts| layout_shifts(&shifts));
    report.inp = events.and_then(|events| {
        let timed: Vec<(u64, f64)> = events
            .iter()
            .map(|e| (num(e, "interactionId") as u64, num(e, "duration")))
            .collect();
        perf::inp(&timed).map(|(duration, i)| Painted {
            ms: duration as u32,
            element: element_of(&get(&events[i], "target")),
        })
    });
    report.long_tasks = long.map(|tasks| LongTasks {
        count: tasks.len() as u32,
        total_ms: tasks.iter().map(|t| num(t, "duration")).sum::<f64>() as u32,
    });
    Ok(Box::new(report))
}

/// The layout-shift entries as [`perf::layout_shifts`] reads them.
fn layout_shifts(shifts: &[JsValue]) -> Shifts {
    let read: Vec<perf::LayoutShift<JsValue>> = shifts
        .iter()
        .map(|s| perf::LayoutShift {
            start: num(s, "startTime"),
            value: num(s, "value"),
            had_input: get(s, "hadRecentInput").as_bool().unwrap_or(false),
            moved: Array::from(&get(s, "sources"))
                .iter()
                .map(|source| get(&source, "node"))
                .collect(),
        })
        .collect();
    perf::layout_shifts(&read, element_of)
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

fn entries(performance: &JsValue, kind: &str) -> Vec<JsValue> {
    invoke(performance, "getEntriesByType", &Array::of1(&kind.into()))
        .map(|list| Array::from(&list).iter().collect())
        .unwrap_or_default()
}

/// An element as the agent knows it: its description and ref.
fn element_of(value: &JsValue) -> Option<String> {
    let element = value.dyn_ref::<Element>()?;
    Some(format!("{} {}", describe(element), ref_for(element, 0)))
}

fn num(target: &JsValue, key: &str) -> f64 {
    get(target, key)
        .as_f64()
        .filter(|n| n.is_finite())
        .unwrap_or(0.0)
}

fn ms(target: &JsValue, key: &str) -> u32 {
    num(target, key).max(0.0).round() as u32
}

fn internal(what: &str) -> ErrorBody {
    ErrorBody::new(ErrorCode::Internal, what)
}
