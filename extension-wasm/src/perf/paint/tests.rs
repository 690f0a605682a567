use std::cell::Cell;

use super::*;
use crate::at_once::run;
use crate::steps::Steps;

/// A page whose clock moves 100 ms a frame, whose LCP is reported from frame `lcp_at` on
/// (none where `None`), and which logs each frame and each look for the LCP.
struct Page {
    reports_lcp: bool,
    lcp_at: Option<u32>,
    hidden: bool,
    frames: Cell<u32>,
    log: Steps,
}

fn page(lcp_at: Option<u32>) -> Page {
    Page {
        reports_lcp: true,
        lcp_at,
        hidden: false,
        frames: Cell::new(0),
        log: Steps::default(),
    }
}

impl Painting for Page {
    fn now_ms(&self) -> f64 {
        1_000.0 + 100.0 * f64::from(self.frames.get())
    }
    fn hidden(&self) -> bool {
        self.hidden
    }
    async fn frame(&self) -> Result<(), ErrorBody> {
        self.frames.set(self.frames.get() + 1);
        self.log.say(format!("frame {}", self.frames.get()));
        Ok(())
    }
}

impl Timeline for Page {
    type Entry = ();

    fn supported(&self) -> Vec<String> {
        match self.reports_lcp {
            true => vec![LCP.to_owned()],
            false => Vec::new(),
        }
    }
    fn observed(&self, kind: &str) -> Vec<()> {
        assert_eq!(kind, LCP);
        self.log.say("lcp?");
        let reported = self.lcp_at.is_some_and(|at| self.frames.get() >= at);
        if reported { vec![()] } else { Vec::new() }
    }
    // The wait reads no entry.
    fn entries(&self, _: &str) -> Vec<()> {
        Vec::new()
    }
    fn number(&self, _: &(), _: &str) -> f64 {
        0.0
    }
    fn text(&self, _: &(), _: &str) -> Option<String> {
        None
    }
    fn flag(&self, _: &(), _: &str) -> bool {
        false
    }
    fn sources(&self, _: &()) -> Vec<()> {
        Vec::new()
    }
    fn element(&self, _: &(), _: &str) -> Option<String> {
        None
    }
}

#[test]
fn two_frames_at_least_then_until_the_lcp_is_reported() {
    let early = page(Some(1));
    assert_eq!(run(painted(&early, u64::MAX)), Ok(false));
    assert_eq!(early.frames.get(), 2);
    let late = page(Some(7));
    run(painted(&late, u64::MAX)).unwrap();
    assert_eq!(late.frames.get(), 7);
    assert_eq!(late.log.all()[..4], ["frame 1", "lcp?", "frame 2", "lcp?"]);
}

#[test]
fn the_wait_for_the_lcp_is_bounded_by_its_own_limit_and_the_deadline() {
    let never = page(None);
    run(painted(&never, u64::MAX)).unwrap();
    // 2 s at 100 ms a frame.
    assert_eq!(never.frames.get(), 20);
    let near = page(None);
    run(painted(&near, 1_500)).unwrap();
    assert_eq!(near.frames.get(), 5);
}

#[test]
fn a_hidden_page_or_a_browser_without_lcp_waits_for_no_lcp() {
    let hidden = Page {
        hidden: true,
        ..page(None)
    };
    assert_eq!(run(painted(&hidden, u64::MAX)), Ok(true));
    assert_eq!(hidden.frames.get(), 2);
    let without = Page {
        reports_lcp: false,
        ..page(None)
    };
    run(painted(&without, u64::MAX)).unwrap();
    assert_eq!(without.frames.get(), 2);
    assert!(!without.log.all().contains(&"lcp?".to_owned()));
}
