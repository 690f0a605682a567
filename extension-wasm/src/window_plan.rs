//! Sizing an agent's viewport: the window is resized by the difference the page reports, and
//! the answer says where the screen or Firefox kept it from the size asked for.

use claudezilla_protocol::TabId;

pub mod sizing;

/// The window's new outer size (device pixels) to turn the viewport `seen` into `wanted`.
pub fn grown(window: (u32, u32), seen: (f64, f64), wanted: (f64, f64)) -> (u32, u32) {
    let side = |outer: u32, d: f64| (f64::from(outer) + d).round().max(1.0) as u32;
    (
        side(window.0, wanted.0 - seen.0),
        side(window.1, wanted.1 - seen.1),
    )
}

/// The answer once the viewport is `seen`, asked for `wanted`, with `shared` tabs of other
/// agents in the same window.
pub fn viewport_words(tab: TabId, wanted: (u32, u32), seen: (f64, f64), shared: usize) -> String {
    let (width, height) = wanted;
    let (w, h) = (f64::from(width), f64::from(height));
    let mut note = String::new();
    if seen.0 > w + 1.0 {
        note = format!(
            " — Firefox windows cannot be narrower than {:.0} px here, so pages lay out at that width, not {width}",
            seen.0
        );
    } else if (seen.0 - w).abs() > 1.0 || (seen.1 - h).abs() > 1.0 {
        note = format!(" — asked for {width}×{height}; the screen limits the window");
    }
    if shared > 0 {
        note.push_str(&format!(
            " (the window is shared: {shared} tab(s) of other agents were resized too)"
        ));
    }
    format!(
        "Viewport of tab {tab} is now {:.0}×{:.0}{note}.",
        seen.0, seen.1
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_grows_by_what_the_viewport_lacks() {
        assert_eq!(
            grown((1280, 800), (1264.0, 700.5), (375.0, 667.0)),
            (391, 767)
        );
        assert_eq!(grown((10, 10), (500.0, 500.0), (100.0, 100.0)), (1, 1));
    }

    #[test]
    fn the_answer_says_what_kept_the_viewport_from_its_size() {
        let tab = TabId(4);
        assert_eq!(
            viewport_words(tab, (375, 667), (375.0, 667.4), 0),
            "Viewport of tab 4 is now 375×667."
        );
        let narrow = viewport_words(tab, (320, 600), (450.0, 600.0), 0);
        assert!(
            narrow.contains("cannot be narrower than 450 px"),
            "{narrow}"
        );
        let screen = viewport_words(tab, (3000, 3000), (1920.0, 1080.0), 2);
        assert!(screen.contains("the screen limits the window"), "{screen}");
        assert!(
            screen.ends_with("2 tab(s) of other agents were resized too)."),
            "{screen}"
        );
    }
}
