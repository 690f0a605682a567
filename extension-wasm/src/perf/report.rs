//! `firefox_performance`'s report put together from the page's timeline: which entries each
//! measure reads, a paint's time (its render, else its load), and what this browser does not
//! report. `content/performance.rs` reads the timeline ([`Timeline`]).

use claudezilla_protocol::reply::{
    LongTasks, NavigationTiming, PagePerformance, Painted, Resource,
};

use super::{LayoutShift, inp, layout_shifts, resources};
use crate::redact;

/// The page's performance timeline.
pub trait Timeline {
    type Entry;

    /// The entry types the browser reports to observers.
    fn supported(&self) -> Vec<String>;
    /// The entries of `kind` an observer is given buffered.
    fn observed(&self, kind: &str) -> Vec<Self::Entry>;
    /// The entries of `kind` the timeline holds (`performance.getEntriesByType`).
    fn entries(&self, kind: &str) -> Vec<Self::Entry>;
    /// A number of the entry (0 when absent or not finite).
    fn number(&self, entry: &Self::Entry, key: &str) -> f64;
    fn text(&self, entry: &Self::Entry, key: &str) -> Option<String>;
    fn flag(&self, entry: &Self::Entry, key: &str) -> bool;
    /// The sources of a layout shift.
    fn sources(&self, shift: &Self::Entry) -> Vec<Self::Entry>;
    /// The element an entry's `key` holds, as the agent knows it (its description and ref).
    fn element(&self, entry: &Self::Entry, key: &str) -> Option<String>;
}

pub const LCP: &str = "largest-contentful-paint";

/// The report of the page at `url` (`hidden`: the document was hidden when read).
pub fn report<T: Timeline>(timeline: &T, url: &str, hidden: bool) -> PagePerformance {
    let mut report = PagePerformance {
        url: crate::text::cap(&redact::redact_url(url), 500),
        hidden,
        ..PagePerformance::default()
    };
    let ms = |e: &T::Entry, key: &str| timeline.number(e, key).max(0.0).round() as u32;
    report.navigation = timeline
        .entries("navigation")
        .first()
        .map(|n| NavigationTiming {
            ttfb: ms(n, "responseStart"),
            dom_content_loaded: ms(n, "domContentLoadedEventEnd"),
            load: ms(n, "loadEventEnd"),
            transfer_bytes: timeline.number(n, "transferSize") as u64,
        });
    let loaded: Vec<Resource> = timeline
        .entries("resource")
        .iter()
        .map(|r| Resource {
            url: redact::shown_url(&timeline.text(r, "name").unwrap_or_default(), 200),
            kind: timeline.text(r, "initiatorType").unwrap_or_default(),
            bytes: timeline
                .number(r, "transferSize")
                .max(timeline.number(r, "encodedBodySize")) as u64,
        })
        .collect();
    (report.resources, report.largest) = resources(&loaded);

    let supported = timeline.supported();
    let mut observed = |kind: &str, what: &str| {
        if supported.iter().any(|s| s == kind) {
            return Some(timeline.observed(kind));
        }
        report
            .unmeasured
            .push(format!("{what}: this browser reports no {kind} entries"));
        None
    };
    let lcp = observed(LCP, "Largest Contentful Paint");
    let shifts = observed("layout-shift", "Cumulative Layout Shift");
    let events = observed("event", "Interaction to Next Paint");
    let long = observed("longtask", "long tasks");

    // Its render time, else (an image of another site without Timing-Allow-Origin) its load.
    report.lcp = lcp.as_ref().and_then(|l| l.last()).map(|l| Painted {
        ms: ["renderTime", "loadTime", "startTime"]
            .iter()
            .map(|k| ms(l, k))
            .max()
            .unwrap_or(0),
        element: timeline.element(l, "element"),
    });
    report.cls = shifts.map(|shifts| {
        let read: Vec<LayoutShift<T::Entry>> = shifts
            .iter()
            .map(|s| LayoutShift {
                start: timeline.number(s, "startTime"),
                value: timeline.number(s, "value"),
                had_input: timeline.flag(s, "hadRecentInput"),
                moved: timeline.sources(s),
            })
            .collect();
        layout_shifts(&read, |source| timeline.element(source, "node"))
    });
    report.inp = events.and_then(|events| {
        let timed: Vec<(u64, f64)> = events
            .iter()
            .map(|e| {
                (
                    timeline.number(e, "interactionId") as u64,
                    timeline.number(e, "duration"),
                )
            })
            .collect();
        inp(&timed).map(|(duration, i)| Painted {
            ms: duration as u32,
            element: timeline.element(&events[i], "target"),
        })
    });
    report.long_tasks = long.map(|tasks| LongTasks {
        count: tasks.len() as u32,
        total_ms: tasks
            .iter()
            .map(|t| timeline.number(t, "duration"))
            .sum::<f64>() as u32,
    });
    report
}

#[cfg(test)]
mod tests;
