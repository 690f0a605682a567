use std::cell::{Cell, RefCell};

use super::*;
use crate::at_once::run;
use crate::steps::Steps;

fn agent() -> AgentId {
    AgentId::new([7; 16], 100)
}

/// A page whose viewport reads follow a script, and a window that logs what it is told.
struct Fake {
    attached: bool,
    /// The viewport each read finds, in turn; the last one stays.
    viewports: RefCell<Vec<(f64, f64)>>,
    clock: Cell<f64>,
    private_allowed: bool,
    /// The agents' window, and whether it is private.
    open: Option<bool>,
    /// The window's outer size, as the last resize left it.
    outer: Cell<(u32, u32)>,
    /// How many times the viewport was read.
    viewport_reads: Cell<usize>,
    log: Steps,
}

fn fake(viewports: Vec<(f64, f64)>) -> Fake {
    Fake {
        attached: false,
        viewports: RefCell::new(viewports),
        clock: Cell::new(0.0),
        private_allowed: true,
        open: None,
        outer: Cell::new((1280, 800)),
        viewport_reads: Cell::new(0),
        log: Steps::default(),
    }
}

impl Fake {}

impl Sizer for Fake {
    type Tab = TabId;

    fn id(&self, tab: TabId) -> TabId {
        tab
    }

    fn attached(&self, _tab: TabId) -> bool {
        self.attached
    }

    async fn viewport(&self, _tab: TabId) -> Result<(f64, f64), ErrorBody> {
        self.viewport_reads.set(self.viewport_reads.get() + 1);
        let mut v = self.viewports.borrow_mut();
        let seen = v[0];
        if v.len() > 1 {
            v.remove(0);
        }
        Ok(seen)
    }

    async fn window_of(&self, tab: TabId) -> Result<u32, ErrorBody> {
        self.log.say(format!("window of {tab}"));
        Ok(2)
    }

    async fn window(&self, id: u32) -> Result<Outer, ErrorBody> {
        let (width, height) = self.outer.get();
        self.log.say(format!("window {id} is {width}×{height}"));
        Ok(Outer { id, width, height })
    }

    async fn resize(&self, id: u32, (width, height): (u32, u32)) -> Result<Outer, ErrorBody> {
        self.log.say(format!("resize {id} to {width}×{height}"));
        self.outer.set((width, height));
        Ok(Outer { id, width, height })
    }

    async fn set_size(&self, id: u32, (width, height): (u32, u32)) -> Result<(), ErrorBody> {
        self.log.say(format!("size {id} to {width}×{height}"));
        self.outer.set((width, height));
        Ok(())
    }

    fn others_tabs(&self, _agent: &AgentId) -> usize {
        0
    }

    fn now_ms(&self) -> f64 {
        self.clock.get()
    }

    async fn sleep(&self, ms: u32) {
        self.clock.set(self.clock.get() + f64::from(ms));
    }

    async fn private_allowed(&self) -> Result<bool, ErrorBody> {
        Ok(self.private_allowed)
    }

    fn set_private(&self, enabled: bool) -> Option<u32> {
        self.log.say(format!("private {enabled}"));
        self.open.map(|_| 2)
    }

    async fn is_private(&self, _window: u32) -> Result<bool, ErrorBody> {
        Ok(self.open == Some(true))
    }
}

#[test]
fn the_window_grows_by_what_the_viewport_lacks_until_the_page_has_it() {
    let s = fake(vec![
        (1264.0, 700.0),
        (1264.0, 700.0),
        (370.0, 660.0),
        (375.0, 667.0),
    ]);
    let what = run(set_viewport(&s, &agent(), TabId(4), (375, 667)))
        .unwrap()
        .what;
    assert_eq!(what, "Viewport of tab 4 is now 375×667.");
    // The second try grows from the window the first left, read again.
    assert_eq!(
        s.log.all(),
        [
            "window of 4",
            "window 2 is 1280×800",
            "size 2 to 391×767",
            "window of 4",
            "window 2 is 391×767",
            "size 2 to 396×774",
        ]
    );
}

#[test]
fn two_tries_at_most_and_each_change_waited_for_a_moment_only() {
    let s = fake(vec![(500.0, 600.0)]);
    let what = run(set_viewport(&s, &agent(), TabId(4), (320, 600)))
        .unwrap()
        .what;
    assert!(
        what.starts_with(
            "Viewport of tab 4 is now 500×600 — Firefox windows cannot be narrower than 500 px"
        ),
        "{what}"
    );
    // The page never narrows, so the second try asks for less again.
    let sizes: Vec<String> = s
        .log
        .all()
        .into_iter()
        .filter(|s| s.starts_with("size"))
        .collect();
    assert_eq!(sizes, ["size 2 to 1100×800", "size 2 to 920×800"]);
    // Each wait for a change ends a moment past 1.5 s, read every 50 ms.
    assert_eq!(s.clock.get(), 3_100.0);
}

#[test]
fn a_viewport_already_the_size_asked_is_left_alone() {
    let s = fake(vec![(375.0, 667.0)]);
    run(set_viewport(&s, &agent(), TabId(4), (375, 667))).unwrap();
    assert_eq!(s.log.all(), Vec::<String>::new());
}

#[test]
fn the_users_window_is_never_resized() {
    let s = Fake {
        attached: true,
        ..fake(vec![(375.0, 667.0)])
    };
    let e = run(set_viewport(&s, &agent(), TabId(4), (100, 100))).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidArgument);
    assert_eq!(
        e.message,
        "tab 4 is the user's tab: its window is the user's and is not resized"
    );
    assert!(run(resize(&s, TabId(4), (800, 600))).is_err());
    assert_eq!(s.log.all(), Vec::<String>::new());
    assert_eq!(
        s.viewport_reads.get(),
        0,
        "refused before the page is asked"
    );
}

#[test]
fn a_resize_says_the_windows_size_and_the_viewport_it_gave() {
    let s = fake(vec![(1264.0, 700.0), (784.0, 500.0)]);
    let what = run(resize(&s, TabId(4), (800, 600))).unwrap().what;
    assert_eq!(what, "Window 2 is now 800×600 (viewport 784×500).");
    assert_eq!(s.log.all(), ["window of 4", "resize 2 to 800×600"]);
}

#[test]
fn private_mode_needs_firefoxs_permission_and_says_what_the_open_window_is() {
    let s = Fake {
        private_allowed: false,
        ..fake(vec![])
    };
    let e = run(set_private(&s, true)).unwrap_err();
    assert_eq!(e.code, ErrorCode::Disabled);
    assert!(s.log.all().is_empty());
    // Switching it off needs no permission.
    let words = |open, enabled| {
        let s = Fake {
            private_allowed: false,
            open,
            ..fake(vec![])
        };
        run(set_private(&s, enabled)).map(|a| a.what)
    };
    assert_eq!(
        words(None, false).unwrap(),
        "The agents' window will open as a normal window."
    );
    assert_eq!(
        words(Some(false), false).unwrap(),
        "The agents' window is already a normal window."
    );
    assert!(
        words(Some(true), false)
            .unwrap()
            .starts_with("The agents' window is open in the other mode;")
    );
}
