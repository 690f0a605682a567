//! What a screenshot captures: the document rectangle and the scale, from the page's own
//! measurements — which a hostile page controls. An element 20,000 px wide and a million tall
//! must not become a capture the background's wasm cannot hold: the rectangle is cut to the
//! largest sides a capture may have, and the scale lowered until the pixels fit, with a note
//! for each.

use claudezilla_protocol::reply::PageMetrics;

/// Longest side of a capture in CSS pixels (full pages are cut here, with a note).
pub const MAX_SIDE: f64 = 16_000.0;
/// Most pixels decoded for one picture (RGBA: 4 bytes each, so ~100 MB at most in wasm).
pub const MAX_PIXELS: f64 = 25_000_000.0;

/// The rectangle (document CSS pixels: x, y, width, height) and the scale to capture it at.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub region: [f64; 4],
    pub scale: f64,
    pub notes: Vec<String>,
}

/// Plans the capture of an element, the whole page or the viewport at `scale`.
pub fn plan(m: &PageMetrics, full_page: bool, scale: f64) -> Plan {
    let mut notes = Vec::new();
    let wanted = match m.element {
        Some(el) => el,
        None if full_page => [0.0, 0.0, m.page[0].max(m.viewport[0]), m.page[1]],
        None => [m.scroll[0], m.scroll[1], m.viewport[0], m.viewport[1]],
    };
    // Non-finite or negative numbers from the page count as nothing.
    let sane = |v: f64| if v.is_finite() { v } else { 0.0 };
    let [x, y, w, h] = wanted.map(sane);
    let (x, y) = (x.max(0.0), y.max(0.0));
    let (mut w, mut h) = (w.max(1.0), h.max(1.0));
    if w > MAX_SIDE || h > MAX_SIDE {
        notes.push(format!(
            "cut to {MAX_SIDE} px per side (the {} was {} × {} px)",
            if m.element.is_some() {
                "element"
            } else {
                "page"
            },
            w.round(),
            h.round()
        ));
        w = w.min(MAX_SIDE);
        h = h.min(MAX_SIDE);
    }
    let mut scale = if scale.is_finite() && scale > 0.0 {
        scale
    } else {
        1.0
    };
    let pixels = w * h * scale * scale;
    if pixels > MAX_PIXELS {
        scale = (MAX_PIXELS / (w * h)).sqrt();
        notes.push(format!(
            "scaled to {scale:.2} to stay within {} million pixels",
            MAX_PIXELS / 1e6
        ));
    }
    Plan {
        region: [x, y, w, h].map(f64::round),
        scale,
        notes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metrics(element: Option<[f64; 4]>, page: [f64; 2]) -> PageMetrics {
        PageMetrics {
            viewport: [1280.0, 714.0],
            scroll: [0.0, 100.0],
            page,
            element,
            marks: Vec::new(),
        }
    }

    fn pixels(p: &Plan) -> f64 {
        p.region[2] * p.region[3] * p.scale * p.scale
    }

    #[test]
    fn the_viewport_element_and_page_are_captured_as_asked() {
        let m = metrics(None, [1280.0, 5_000.0]);
        assert_eq!(plan(&m, false, 0.5).region, [0.0, 100.0, 1280.0, 714.0]);
        assert_eq!(plan(&m, true, 0.5).region, [0.0, 0.0, 1280.0, 5_000.0]);
        let el = metrics(Some([10.4, 20.6, 100.0, 50.0]), [1280.0, 5_000.0]);
        let p = plan(&el, false, 1.0);
        assert_eq!((p.region, p.scale), ([10.0, 21.0, 100.0, 50.0], 1.0));
        assert!(p.notes.is_empty());
    }

    #[test]
    fn a_huge_element_is_cut_and_scaled_to_fit() {
        let m = metrics(Some([0.0, 0.0, 20_000.0, 1e6]), [20_000.0, 1e6]);
        let p = plan(&m, false, 1.0);
        assert_eq!(&p.region[2..], &[MAX_SIDE, MAX_SIDE]);
        assert!(pixels(&p) <= MAX_PIXELS * 1.0001, "{}", pixels(&p));
        assert_eq!(p.notes.len(), 2, "{:?}", p.notes);
    }

    #[test]
    fn hostile_numbers_never_make_a_bad_rectangle() {
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -1e12, 1e300] {
            let m = metrics(Some([bad, bad, bad, bad]), [bad, bad]);
            for full in [false, true] {
                let p = plan(&m, full, bad);
                assert!(p.region.iter().all(|v| v.is_finite() && *v >= 0.0), "{p:?}");
                assert!(p.region[2] >= 1.0 && p.region[3] >= 1.0);
                assert!(p.scale.is_finite() && p.scale > 0.0);
                assert!(pixels(&p) <= MAX_PIXELS * 1.0001);
            }
        }
    }
}
