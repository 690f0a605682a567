use claudezilla_protocol::reply::{LongTasks, NavigationTiming, Painted, ResourceKind};

use super::*;

/// One timeline entry: its numbers, words, flags, elements and (a shift's) sources.
#[derive(Clone, Default)]
struct E {
    numbers: Vec<(&'static str, f64)>,
    texts: Vec<(&'static str, &'static str)>,
    flags: Vec<&'static str>,
    elements: Vec<(&'static str, &'static str)>,
    sources: Vec<E>,
}

fn n(numbers: &[(&'static str, f64)]) -> E {
    E {
        numbers: numbers.to_vec(),
        ..E::default()
    }
}

impl E {
    fn on(mut self, key: &'static str, element: &'static str) -> Self {
        self.elements.push((key, element));
        self
    }
}

#[derive(Default)]
struct Fake {
    supported: Vec<&'static str>,
    observed: Vec<(&'static str, Vec<E>)>,
    entries: Vec<(&'static str, Vec<E>)>,
}

fn of(list: &[(&'static str, Vec<E>)], kind: &str) -> Vec<E> {
    list.iter()
        .find(|(k, _)| *k == kind)
        .map(|(_, e)| e.clone())
        .unwrap_or_default()
}

impl Timeline for Fake {
    type Entry = E;

    fn supported(&self) -> Vec<String> {
        self.supported.iter().map(|s| (*s).to_owned()).collect()
    }
    fn observed(&self, kind: &str) -> Vec<E> {
        assert!(
            self.supported.contains(&kind),
            "{kind} is not observed here"
        );
        of(&self.observed, kind)
    }
    fn entries(&self, kind: &str) -> Vec<E> {
        of(&self.entries, kind)
    }
    fn number(&self, e: &E, key: &str) -> f64 {
        e.numbers
            .iter()
            .find(|(k, _)| *k == key)
            .map_or(0.0, |(_, v)| *v)
    }
    fn text(&self, e: &E, key: &str) -> Option<String> {
        e.texts
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| (*v).to_owned())
    }
    fn flag(&self, e: &E, key: &str) -> bool {
        e.flags.contains(&key)
    }
    fn sources(&self, shift: &E) -> Vec<E> {
        shift.sources.clone()
    }
    fn element(&self, e: &E, key: &str) -> Option<String> {
        e.elements
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| (*v).to_owned())
    }
}

fn resource(name: &'static str, kind: &'static str, transfer: f64, encoded: f64) -> E {
    E {
        numbers: vec![("transferSize", transfer), ("encodedBodySize", encoded)],
        texts: vec![("name", name), ("initiatorType", kind)],
        ..E::default()
    }
}

fn everything() -> Fake {
    let shift = |start: f64, value: f64, input: bool, node: &'static str| E {
        numbers: vec![("startTime", start), ("value", value)],
        flags: if input {
            vec!["hadRecentInput"]
        } else {
            vec![]
        },
        sources: vec![E::default().on("node", node)],
        ..E::default()
    };
    Fake {
        supported: vec![LCP, "layout-shift", "event", "longtask"],
        observed: vec![
            (
                LCP,
                vec![
                    n(&[("renderTime", 300.0)]).on("element", "h1 e1"),
                    // Another site's image without Timing-Allow-Origin: no render time.
                    n(&[
                        ("renderTime", 0.0),
                        ("loadTime", 812.4),
                        ("startTime", 500.0),
                    ])
                    .on("element", "img#hero e2"),
                ],
            ),
            (
                "layout-shift",
                vec![
                    shift(100.0, 0.05, false, "div.ad e3"),
                    shift(200.0, 0.25, false, "p e4"),
                    shift(300.0, 0.5, true, "ul e5"),
                ],
            ),
            (
                "event",
                vec![
                    n(&[("interactionId", 7.0), ("duration", 40.0)]).on("target", "button e6"),
                    n(&[("interactionId", 0.0), ("duration", 900.0)]).on("target", "body"),
                    n(&[("interactionId", 8.0), ("duration", 120.0)]).on("target", "a e7"),
                ],
            ),
            (
                "longtask",
                vec![n(&[("duration", 60.5)]), n(&[("duration", 80.0)])],
            ),
        ],
        entries: vec![
            (
                "navigation",
                vec![n(&[
                    ("responseStart", 41.6),
                    ("domContentLoadedEventEnd", 250.2),
                    ("loadEventEnd", 480.0),
                    ("transferSize", 5120.0),
                ])],
            ),
            (
                "resource",
                vec![
                    resource("https://cdn.test/app.js", "script", 30_000.0, 90_000.0),
                    resource("https://cdn.test/a.png?token=abc", "img", 2_000.0, 0.0),
                    resource("https://cdn.test/b.js", "script", 1_000.0, 0.0),
                ],
            ),
        ],
    }
}

#[test]
fn every_measure_reads_its_own_entries() {
    let r = report(&everything(), "https://shop.test/?session=s3cr3t", false);
    assert!(!r.url.contains("s3cr3t"), "{}", r.url);
    assert_eq!(
        r.navigation,
        Some(NavigationTiming {
            ttfb: 42,
            dom_content_loaded: 250,
            load: 480,
            transfer_bytes: 5120,
        })
    );
    // The last LCP entry, by its load time where it has no render time.
    assert_eq!(
        r.lcp,
        Some(Painted {
            ms: 812,
            element: Some("img#hero e2".into())
        })
    );
    let cls = r.cls.expect("CLS measured");
    assert!((cls.score - 0.3).abs() < 1e-9, "{}", cls.score);
    assert_eq!(
        cls.elements[0], "ul e5",
        "the largest shift's element first"
    );
    // The slowest interaction; an event of no interaction is not one.
    assert_eq!(
        r.inp,
        Some(Painted {
            ms: 120,
            element: Some("a e7".into())
        })
    );
    assert_eq!(
        r.long_tasks,
        Some(LongTasks {
            count: 2,
            total_ms: 140
        })
    );
    assert_eq!(
        r.resources[0],
        ResourceKind {
            kind: "script".into(),
            count: 2,
            bytes: 91_000
        }
    );
    assert!(r.largest.iter().all(|res| !res.url.contains("abc")));
    assert!(r.unmeasured.is_empty());
}

#[test]
fn what_the_browser_does_not_report_is_said_not_measured() {
    let mut timeline = everything();
    timeline.supported = vec!["event"];
    let r = report(&timeline, "https://shop.test/", true);
    assert!(r.hidden);
    assert_eq!((r.lcp, r.cls, r.long_tasks), (None, None, None));
    assert!(r.inp.is_some());
    assert_eq!(
        r.unmeasured,
        [
            "Largest Contentful Paint: this browser reports no largest-contentful-paint entries",
            "Cumulative Layout Shift: this browser reports no layout-shift entries",
            "long tasks: this browser reports no longtask entries",
        ]
    );
}

#[test]
fn a_page_with_no_entries_reports_nothing_measured_as_zero() {
    let timeline = Fake {
        supported: vec![LCP, "layout-shift"],
        ..Fake::default()
    };
    let r = report(&timeline, "about:blank", false);
    assert_eq!(r.navigation, None);
    assert_eq!(r.lcp, None, "no paint is not a paint at 0 ms");
    assert_eq!(r.cls.map(|c| c.score), Some(0.0));
    assert!(r.resources.is_empty() && r.largest.is_empty());
}
