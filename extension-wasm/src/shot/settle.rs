//! The page's part of a screenshot's wait, in the content script: its images in view and its
//! fonts (three seconds at most: a page may never finish loading them), then two animation
//! frames and an idle moment — none of those in a tab in the background, which paints
//! nothing. Written over [`Settling`]; `content/capture.rs` is the page's side.

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::reply::Waited;

/// Longest wait for images and fonts.
pub const MEDIA_WAIT_MS: f64 = 3_000.0;
/// How often the fonts' status is looked at (a tab in the background may not settle
/// `fonts.ready` until it is shown).
const FONTS_LOOK_MS: u32 = 50;
/// Longest wait for the next image's load before the images are counted again.
const IMAGE_LOOK_MS: u32 = 50;

/// What settling asks of the page.
pub trait Settling {
    fn now_ms(&self) -> f64;
    /// Images in view that have not loaded yet (lazy ones below the fold never do by
    /// themselves).
    fn pending_images(&self) -> Result<u32, ErrorBody>;
    /// Completes at the next image's load, `ms` at most.
    fn next_load(&self, ms: u32) -> impl Future<Output = ()>;
    fn fonts_loading(&self) -> Result<bool, ErrorBody>;
    fn sleep(&self, ms: u32) -> impl Future<Output = ()>;
    /// The tab is in the background (`document.hidden`).
    fn hidden(&self) -> Result<bool, ErrorBody>;
    fn animation_frame(&self) -> impl Future<Output = Result<(), ErrorBody>>;
    fn idle(&self) -> impl Future<Output = Result<(), ErrorBody>>;
}

/// Waits for the page's images (when `images`) and fonts, then two frames and an idle
/// moment, images and fonts until `until` (ms since the epoch) at most; says what it waited
/// for.
pub async fn settle<S: Settling>(page: &S, images: bool, until: u64) -> Result<Waited, ErrorBody> {
    let started = page.now_ms();
    let media_until = (started + MEDIA_WAIT_MS).min(until as f64);
    let mut waited = Vec::new();
    if images {
        let pending = loop {
            let left = page.pending_images()?;
            if left == 0 || page.now_ms() >= media_until {
                break left;
            }
            // Woken by the next image's load, not a timer a background tab holds back.
            page.next_load(IMAGE_LOOK_MS).await;
        };
        waited.push(match pending {
            0 => "images".to_owned(),
            n => format!("images ({n} still loading, gave up)"),
        });
        let loaded = loop {
            let loading = page.fonts_loading()?;
            if !loading || page.now_ms() >= media_until {
                break !loading;
            }
            page.sleep(FONTS_LOOK_MS).await;
        };
        waited.push(match loaded {
            true => "fonts".into(),
            false => "fonts (gave up)".into(),
        });
    }
    if page.hidden()? {
        waited.push("(tab in the background: no frames to wait for)".into());
    } else {
        for _ in 0..2 {
            page.animation_frame().await?;
        }
        page.idle().await?;
        waited.push("two frames and an idle moment".into());
    }
    Ok(Waited {
        what: waited.join(", "),
        waited_ms: (page.now_ms() - started) as u32,
    })
}

#[cfg(test)]
mod tests {
    use std::cell::{Cell, RefCell};

    use super::*;
    use crate::at_once::run;

    /// A page whose images load one per look, or never; whose fonts load after `fonts_ms`;
    /// frames and idle moments take 10 ms of the clock. Calls are logged.
    struct Page {
        images: Cell<u32>,
        images_load: bool,
        fonts_ms: f64,
        hidden: bool,
        clock: Cell<f64>,
        log: RefCell<Vec<&'static str>>,
    }

    fn page(images: u32) -> Page {
        Page {
            images: Cell::new(images),
            images_load: true,
            fonts_ms: 0.0,
            hidden: false,
            clock: Cell::new(1_000.0),
            log: RefCell::default(),
        }
    }

    impl Page {
        fn pass(&self, ms: f64) {
            self.clock.set(self.clock.get() + ms);
        }
    }

    impl Settling for Page {
        fn now_ms(&self) -> f64 {
            self.clock.get()
        }

        fn pending_images(&self) -> Result<u32, ErrorBody> {
            Ok(self.images.get())
        }

        async fn next_load(&self, ms: u32) {
            match self.images_load {
                true => self.images.set(self.images.get() - 1),
                false => self.pass(f64::from(ms)),
            }
        }

        fn fonts_loading(&self) -> Result<bool, ErrorBody> {
            Ok(self.clock.get() < 1_000.0 + self.fonts_ms)
        }

        async fn sleep(&self, ms: u32) {
            self.pass(f64::from(ms));
        }

        fn hidden(&self) -> Result<bool, ErrorBody> {
            Ok(self.hidden)
        }

        async fn animation_frame(&self) -> Result<(), ErrorBody> {
            self.log.borrow_mut().push("frame");
            self.pass(10.0);
            Ok(())
        }

        async fn idle(&self) -> Result<(), ErrorBody> {
            self.log.borrow_mut().push("idle");
            self.pass(10.0);
            Ok(())
        }
    }

    const LATER: u64 = 1_000_000;

    #[test]
    fn images_then_fonts_then_two_frames_and_an_idle_moment() {
        let p = page(3);
        let w = run(settle(&p, true, LATER)).unwrap();
        assert_eq!(w.what, "images, fonts, two frames and an idle moment");
        assert_eq!(*p.log.borrow(), ["frame", "frame", "idle"]);
        assert_eq!(w.waited_ms, 30);
    }

    #[test]
    fn images_and_fonts_that_never_load_are_given_up_after_three_seconds() {
        let mut p = page(2);
        p.images_load = false;
        p.fonts_ms = f64::INFINITY;
        let w = run(settle(&p, true, LATER)).unwrap();
        assert_eq!(
            w.what,
            "images (2 still loading, gave up), fonts (gave up), two frames and an idle moment"
        );
        assert_eq!(w.waited_ms, 3_000 + 30);
    }

    #[test]
    fn the_callers_deadline_cuts_the_media_wait_shorter() {
        let mut p = page(0);
        p.fonts_ms = f64::INFINITY;
        let w = run(settle(&p, true, 1_400)).unwrap();
        assert_eq!(w.waited_ms, 400 + 30);
        // Fonts that load within the wait end it at once.
        let mut p = page(0);
        p.fonts_ms = 120.0;
        let w = run(settle(&p, true, LATER)).unwrap();
        assert_eq!(w.what, "images, fonts, two frames and an idle moment");
        assert_eq!(w.waited_ms, 150 + 30);
    }

    #[test]
    fn a_tab_in_the_background_waits_for_no_frames_and_images_can_be_skipped() {
        let mut p = page(0);
        p.hidden = true;
        let w = run(settle(&p, false, LATER)).unwrap();
        assert_eq!(w.what, "(tab in the background: no frames to wait for)");
        assert!(p.log.borrow().is_empty());
    }
}
