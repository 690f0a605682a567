//! `firefox_performance`'s arithmetic on the page's performance entries: resources by type,
//! Interaction to Next Paint and Cumulative Layout Shift as the web-vitals definitions give
//! them. The content script reads the entries; what they add up to is decided here, and how
//! long the read waits for the largest paint (`paint`).

use claudezilla_protocol::reply::{Resource, ResourceKind, Shifts};

use crate::sorting::sort_by;

pub mod measure;
mod report;
pub use report::{LCP, Timeline, report};
mod paint;
pub use paint::{Painting, painted};

/// Where the tab to measure is, as the background finds it before a fresh load.
#[derive(Debug, Clone, Copy)]
pub struct TabPlace {
    /// Already the active tab of its window.
    pub active: bool,
    /// One of the user's tabs that an agent attached.
    pub attached: bool,
    /// In the agents' own window.
    pub in_agents_window: bool,
}

/// What to do about showing the tab for a fresh load.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShowPlan {
    AlreadyShown,
    /// Make it the active tab of the agents' window, and give the window's active tab back after.
    Show,
    /// Leave it: switching would change what the user sees.
    Leave(&'static str),
}

/// Only the agents' own window has its active tab switched: the user's windows (an attached
/// tab lives in one) are never switched under the user.
pub fn show_plan(place: TabPlace) -> ShowPlan {
    if place.active {
        return ShowPlan::AlreadyShown;
    }
    if place.attached {
        return ShowPlan::Leave(
            "it is the user's tab (attached), and the user's windows are not switched under them",
        );
    }
    if !place.in_agents_window {
        return ShowPlan::Leave(
            "it is not in the agents' window, so showing it would switch a window of the user's",
        );
    }
    ShowPlan::Show
}

/// The largest resources listed.
pub const LARGEST: usize = 5;

/// Resources by type, most bytes first, and the [`LARGEST`] ones.
pub fn resources(entries: &[Resource]) -> (Vec<ResourceKind>, Vec<Resource>) {
    let mut by_type: Vec<ResourceKind> = Vec::new();
    for r in entries {
        match by_type.iter_mut().find(|k| k.kind == r.kind) {
            Some(k) => {
                k.count += 1;
                k.bytes = k.bytes.saturating_add(r.bytes);
            }
            None => by_type.push(ResourceKind {
                kind: r.kind.clone(),
                count: 1,
                bytes: r.bytes,
            }),
        }
    }
    sort_by(&mut by_type, |a, b| {
        b.bytes.cmp(&a.bytes).then(a.kind.cmp(&b.kind))
    });
    let mut largest = entries.to_vec();
    sort_by(&mut largest, |a, b| b.bytes.cmp(&a.bytes));
    largest.truncate(LARGEST);
    (by_type, largest)
}

/// Interaction to Next Paint from event entries (interaction id, duration): each
/// interaction's longest event; the worst interaction, or with 50 or more, the worst once one
/// in every 50 is set aside as an outlier. The index of the entry it came from.
pub fn inp(events: &[(u64, f64)]) -> Option<(f64, usize)> {
    let mut worst: Vec<(u64, f64, usize)> = Vec::new();
    for (i, &(id, duration)) in events.iter().enumerate() {
        if id == 0 || !duration.is_finite() {
            continue;
        }
        match worst.iter_mut().find(|(w, _, _)| *w == id) {
            Some(w) if duration > w.1 => *w = (id, duration, i),
            Some(_) => {}
            None => worst.push((id, duration, i)),
        }
    }
    sort_by(&mut worst, |a, b| b.1.total_cmp(&a.1));
    let skip = (worst.len() / 50).min(worst.len().saturating_sub(1));
    worst.get(skip).map(|&(_, d, i)| (d, i))
}

/// Cumulative Layout Shift from layout-shift entries (start ms, value, had recent input):
/// the largest session window — shifts less than 1 s apart, in at most 5 s — of the shifts
/// no input caused.
pub fn cls(shifts: &[(f64, f64, bool)]) -> f64 {
    let mut best = 0.0f64;
    let mut window = 0.0;
    let mut first = f64::NEG_INFINITY;
    let mut last = f64::NEG_INFINITY;
    for &(start, value, had_input) in shifts {
        if had_input || !value.is_finite() || !start.is_finite() {
            continue;
        }
        if start - last >= 1_000.0 || start - first >= 5_000.0 {
            window = 0.0;
            first = start;
        }
        window += value.max(0.0);
        last = start;
        best = best.max(window);
    }
    best
}

/// One layout-shift entry as the page reports it: when, how much, whether input caused it,
/// and the nodes it moved (`N`: the page's, named only when the answer gets to them).
#[derive(Debug, Clone, Default)]
pub struct LayoutShift<N> {
    pub start: f64,
    pub value: f64,
    pub had_input: bool,
    pub moved: Vec<N>,
}

/// Elements named in a CLS answer, at most.
const SHIFTED: usize = 5;

/// CLS and the elements that moved, those of the largest shifts first, each once. `name`
/// names a moved node (None where it is gone); it is asked of every node, largest shift
/// first, as naming gives an element its ref.
pub fn layout_shifts<N>(
    shifts: &[LayoutShift<N>],
    mut name: impl FnMut(&N) -> Option<String>,
) -> Shifts {
    let timed: Vec<(f64, f64, bool)> = shifts
        .iter()
        .map(|s| (s.start, s.value, s.had_input))
        .collect();
    let mut by_size: Vec<&LayoutShift<N>> = shifts.iter().collect();
    sort_by(&mut by_size, |a, b| b.value.total_cmp(&a.value));
    let mut elements: Vec<String> = Vec::new();
    for node in by_size.iter().flat_map(|s| &s.moved) {
        if let Some(named) = name(node)
            && !elements.contains(&named)
            && elements.len() < SHIFTED
        {
            elements.push(named);
        }
    }
    Shifts {
        score: cls(&timed),
        elements,
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn the_largest_shifts_name_their_elements_first_each_once() {
        let shift = |start, value, moved: &[&'static str]| LayoutShift {
            start,
            value,
            had_input: false,
            moved: moved.to_vec(),
        };
        let shifts = vec![
            shift(100.0, 0.01, &["p#small"]),
            shift(200.0, 0.2, &["div#ad", "img#hero"]),
            shift(300.0, 0.05, &["img#hero", "footer"]),
            shift(400.0, 0.001, &["gone", "a", "b", "c"]),
        ];
        let mut asked = Vec::new();
        let s = layout_shifts(&shifts, |node| {
            asked.push(*node);
            (*node != "gone").then(|| node.to_string())
        });
        assert!((s.score - 0.261).abs() < 1e-9, "{}", s.score);
        assert_eq!(s.elements, ["div#ad", "img#hero", "footer", "p#small", "a"]);
        // Every node is named, largest shift first (naming gives refs in that order).
        assert_eq!(
            asked,
            [
                "div#ad", "img#hero", "img#hero", "footer", "p#small", "gone", "a", "b", "c"
            ]
        );
    }

    #[test]
    fn only_the_agents_window_is_switched() {
        let at = |active, attached, in_agents_window| {
            show_plan(TabPlace {
                active,
                attached,
                in_agents_window,
            })
        };
        assert_eq!(at(true, true, false), ShowPlan::AlreadyShown);
        assert_eq!(at(false, false, true), ShowPlan::Show);
        assert!(matches!(at(false, true, true), ShowPlan::Leave(w) if w.contains("attached")));
        assert!(
            matches!(at(false, false, false), ShowPlan::Leave(w) if w.contains("agents' window"))
        );
    }

    fn res(url: &str, kind: &str, bytes: u64) -> Resource {
        Resource {
            url: url.into(),
            kind: kind.into(),
            bytes,
        }
    }

    fn kind(kind: &str, count: u32, bytes: u64) -> ResourceKind {
        ResourceKind {
            kind: kind.into(),
            count,
            bytes,
        }
    }

    #[test]
    fn resources_group_by_type_and_the_largest_lead() {
        let entries = [
            res("a.js", "script", 300),
            res("b.png", "img", 900),
            res("c.js", "script", 700),
            res("d.css", "link", 10),
            res("e.png", "img", 5),
            res("f.png", "img", 50),
        ];
        let (by_type, largest) = resources(&entries);
        assert_eq!(
            by_type,
            [
                kind("script", 2, 1000),
                kind("img", 3, 955),
                kind("link", 1, 10)
            ]
        );
        let urls: Vec<&str> = largest.iter().map(|l| l.url.as_str()).collect();
        assert_eq!(urls, ["b.png", "c.js", "a.js", "f.png", "d.css"]);
    }

    #[test]
    fn inp_is_the_worst_interaction_less_an_outlier_per_fifty() {
        assert_eq!(inp(&[]), None);
        assert_eq!(inp(&[(0, 500.0)]), None, "not an interaction");
        // One interaction's events: its longest counts.
        assert_eq!(inp(&[(7, 40.0), (7, 120.0), (8, 80.0)]), Some((120.0, 1)));
        let many: Vec<(u64, f64)> = (1..=100).map(|i| (i, i as f64)).collect();
        assert_eq!(
            inp(&many).map(|(d, _)| d),
            Some(98.0),
            "two outliers set aside"
        );
    }

    #[test]
    fn cls_is_the_worst_session_window() {
        assert_eq!(cls(&[]), 0.0);
        let shifts = [
            (0.0, 0.1, false),
            (500.0, 0.1, false),
            (900.0, 0.5, true),
            (3_000.0, 0.15, false),
            (3_500.0, 0.1, false),
        ];
        assert!((cls(&shifts) - 0.25).abs() < 1e-9);
        let steady: Vec<_> = (0..20).map(|i| (i as f64 * 900.0, 0.1, false)).collect();
        assert!(
            cls(&steady) < 0.61,
            "a window is at most 5 s: {}",
            cls(&steady)
        );
    }

    proptest! {
        #[test]
        fn cls_is_between_no_shift_and_all_of_them(
            shifts in prop::collection::vec((0.0f64..20_000.0, 0.0f64..1.0, any::<bool>()), 0..40)
        ) {
            let mut shifts = shifts;
            shifts.sort_by(|a, b| a.0.total_cmp(&b.0));
            let all: f64 = shifts.iter().filter(|s| !s.2).map(|s| s.1).sum();
            let score = cls(&shifts);
            prop_assert!(score >= 0.0 && score <= all + 1e-9);
            if let Some(biggest) = shifts.iter().filter(|s| !s.2).map(|s| s.1).reduce(f64::max) {
                prop_assert!(score + 1e-9 >= biggest);
            }
        }
    }
}
