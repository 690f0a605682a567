use std::cell::{Cell, RefCell};
use std::rc::Rc;

use serde_json::json;

use super::*;
use crate::at_once::run;

/// A tab whose page, network and captures are scripted. Sleeping moves its clock; every call
/// is logged, so the order is checked. A capture answers a white PNG of the size asked for.
struct FakeCamera {
    clock: Cell<u64>,
    /// When the network falls quiet (ms on the clock).
    quiet_at: u64,
    settled: Result<reply::Waited, ErrorBody>,
    metrics: PageMetrics,
    turn: Result<(), ErrorBody>,
    /// None: captures come in time and succeed; else what each answers.
    capture: Option<Option<Result<String, ErrorBody>>>,
    log: Rc<RefCell<Vec<String>>>,
}

/// A turn that says when it is given back.
struct Turn(Rc<RefCell<Vec<String>>>);

impl Drop for Turn {
    fn drop(&mut self) {
        self.0.borrow_mut().push("turn given back".into());
    }
}

fn camera() -> FakeCamera {
    FakeCamera {
        clock: Cell::new(1_000),
        quiet_at: 0,
        settled: Ok(reply::Waited {
            what: "images, fonts".into(),
            waited_ms: 0,
        }),
        metrics: PageMetrics {
            viewport: [40.0, 30.0],
            scroll: [0.0, 10.0],
            page: [40.0, 100.0],
            element: None,
            marks: Vec::new(),
        },
        turn: Ok(()),
        capture: None,
        log: Rc::default(),
    }
}

fn args(v: serde_json::Value) -> ScreenshotArgs {
    serde_json::from_value(v).expect("screenshot args")
}

impl FakeCamera {
    fn said(&self, what: impl Into<String>) {
        self.log.borrow_mut().push(what.into());
    }

    fn log(&self) -> Vec<String> {
        self.log.borrow().clone()
    }
}

fn png_url(width: u32, height: u32) -> String {
    let image = Image::new(width, height, [255, 255, 255, 255]);
    let png = pixels::encode_png(&image).unwrap();
    format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(png)
    )
}

impl Camera for FakeCamera {
    type Turn = Turn;

    fn tab(&self) -> TabId {
        TabId(7)
    }

    fn now(&self) -> u64 {
        self.clock.get()
    }

    async fn sleep(&self, ms: u32) {
        self.clock.set(self.clock.get() + u64::from(ms));
    }

    fn network_quiet(&self) -> bool {
        self.clock.get() >= self.quiet_at
    }

    async fn settle_page(
        &self,
        op: PageOp,
        until: u64,
        budget_ms: u32,
    ) -> Result<reply::Waited, ErrorBody> {
        let left = until - self.clock.get();
        self.said(format!("{op:?} for {left} ms, {budget_ms} ms at most"));
        self.settled.clone()
    }

    async fn measure(
        &self,
        op: PageOp,
        _deadline: u64,
        budget_ms: u32,
    ) -> Result<PageMetrics, ErrorBody> {
        self.said(format!("{op:?}, {budget_ms} ms at most"));
        Ok(self.metrics.clone())
    }

    async fn turn(&self, _deadline: u64) -> Result<Turn, ErrorBody> {
        self.said("turn");
        self.turn.clone().map(|()| Turn(self.log.clone()))
    }

    async fn capture(
        &self,
        options: &CaptureOptions,
        ms: u32,
    ) -> Option<Result<String, ErrorBody>> {
        let CaptureOptions {
            format,
            scale,
            rect,
            ..
        } = options;
        match rect {
            Some(r) => self.said(format!(
                "capture {format} at {scale}: y {} h {} within {ms} ms",
                r.y, r.height
            )),
            None => self.said(format!("capture {format} at {scale} within {ms} ms")),
        }
        if let Some(scripted) = &self.capture {
            return scripted.clone();
        }
        let r = rect.as_ref().expect("a region");
        let size = |v: f64| (v * scale).round() as u32;
        Some(Ok(png_url(size(r.width), size(r.height))))
    }
}

fn shoot_with(camera: &FakeCamera, v: serde_json::Value) -> Result<Screenshot, ErrorBody> {
    run(shoot(camera, &args(v), 20_000))
}

#[test]
fn a_page_is_settled_and_measured_then_captured_in_a_turn() {
    let camera = camera();
    let shot = shoot_with(&camera, json!({"purpose": "full-detail", "format": "png"})).unwrap();
    assert_eq!(
        camera.log(),
        [
            "Settle { images: true } for 10000 ms, 15000 ms at most",
            "Metrics { target: None, marks: false }, 5000 ms at most",
            "turn",
            "capture png at 1: y 10 h 30 within 5000 ms",
            "turn given back",
        ]
    );
    assert_eq!(
        (shot.width, shot.height, shot.mime),
        (40, 30, ImageMime::Png)
    );
    assert_eq!(shot.origin, [0.0, 0.0], "the view's own corner");
    assert_eq!(
        shot.notes,
        ["waited 0 ms for: network quiet, images, fonts"]
    );
    assert_eq!(shot.tab_id, TabId(7));
}

#[test]
fn a_busy_network_is_looked_at_until_the_wait_runs_out_and_said() {
    let mut camera = camera();
    camera.quiet_at = u64::MAX;
    let shot = shoot_with(&camera, json!({"maxWait": 300})).unwrap();
    assert_eq!(camera.now(), 1_300, "looked at every 25 ms, 300 ms in all");
    assert_eq!(
        shot.notes[0],
        "waited 300 ms for: network still busy (gave up), images, fonts"
    );
    // The page still gets half a second of its own.
    assert!(camera.log()[0].contains("for 500 ms"), "{:?}", camera.log());
    // Quiet within the wait: no longer than that.
    let mut camera = self::camera();
    camera.quiet_at = 1_060;
    shoot_with(&camera, json!({})).unwrap();
    assert_eq!(camera.now(), 1_075);
}

#[test]
fn the_settling_wait_leaves_a_second_of_the_budget_for_the_capture() {
    let camera = camera();
    run(shoot(&camera, &args(json!({"maxWait": 60_000})), 6_000)).unwrap();
    assert_eq!(
        camera.log()[0],
        "Settle { images: true } for 5000 ms, 6000 ms at most"
    );
    let camera = self::camera();
    shoot_with(&camera, json!({"skipReadiness": true})).unwrap();
    assert!(camera.log()[0].starts_with("Metrics"), "{:?}", camera.log());
}

#[test]
fn a_page_that_takes_no_script_is_captured_and_other_failures_are_the_answer() {
    let mut camera = camera();
    camera.settled = Err(ErrorBody::new(ErrorCode::PageError, "no script here"));
    let shot = shoot_with(&camera, json!({})).unwrap();
    assert!(
        shot.notes[0].ends_with("page not scriptable"),
        "{:?}",
        shot.notes
    );
    let mut camera = self::camera();
    camera.settled = Err(ErrorBody::new(ErrorCode::Timeout, "stuck"));
    assert_eq!(
        shoot_with(&camera, json!({})).unwrap_err().code,
        ErrorCode::Timeout
    );
    assert_eq!(
        camera.log().len(),
        1,
        "nothing captured: {:?}",
        camera.log()
    );
}

#[test]
fn an_element_in_a_frame_is_refused_before_the_page_is_measured() {
    let camera = camera();
    let e = shoot_with(&camera, json!({"ref": "f1e2", "skipReadiness": true})).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidArgument);
    assert!(camera.log().is_empty());
}

#[test]
fn a_tall_page_is_captured_in_strips_and_stitched() {
    let mut camera = camera();
    camera.metrics.page = [40.0, 9_000.0];
    let shot = shoot_with(&camera, json!({"fullPage": true, "skipReadiness": true})).unwrap();
    let captures: Vec<_> = camera
        .log()
        .into_iter()
        .filter(|l| l.starts_with("capture"))
        .collect();
    assert_eq!(
        captures,
        [
            "capture png at 0.5: y 0 h 4000 within 5000 ms",
            "capture png at 0.5: y 4000 h 4000 within 5000 ms",
            "capture png at 0.5: y 8000 h 1000 within 5000 ms",
        ]
    );
    assert_eq!((shot.width, shot.height), (20, 4_500));
    assert_eq!(
        shot.origin,
        [0.0, -10.0],
        "the page's corner, above the view"
    );
}

#[test]
fn a_capture_that_never_comes_or_fails_is_said_and_the_turn_given_back() {
    let mut camera = camera();
    camera.capture = Some(None);
    let e = shoot_with(&camera, json!({"skipReadiness": true})).unwrap_err();
    assert_eq!(e.code, ErrorCode::Timeout);
    assert!(
        e.message.starts_with("tab 7 did not paint within 5000 ms"),
        "{}",
        e.message
    );
    assert_eq!(camera.log().last().unwrap(), "turn given back");
    let mut camera = self::camera();
    camera.capture = Some(Some(Err(ErrorBody::new(ErrorCode::Browser, "no window"))));
    let e = shoot_with(&camera, json!({"skipReadiness": true})).unwrap_err();
    assert_eq!(e.message, "capturing tab 7 failed: no window");
    let mut camera = self::camera();
    camera.capture = Some(Some(Ok("data:image/jpeg;base64,AAAA".into())));
    let e = shoot_with(&camera, json!({"skipReadiness": true})).unwrap_err();
    assert_eq!(e.message, "the capture is not a PNG data URL");
}

#[test]
fn a_turn_not_had_is_the_answer_and_nothing_is_captured() {
    let mut camera = camera();
    camera.turn = Err(ErrorBody::new(ErrorCode::MutexBusy, "busy"));
    let e = shoot_with(&camera, json!({"skipReadiness": true})).unwrap_err();
    assert_eq!(e.code, ErrorCode::MutexBusy);
    assert!(!camera.log().iter().any(|l| l.starts_with("capture")));
}

#[test]
fn the_browsers_own_jpeg_is_answered_with_its_size() {
    let mut jpeg = Vec::new();
    jpeg_encoder::Encoder::new(&mut jpeg, 50)
        .encode(&[0; 4 * 3 * 3], 4, 3, jpeg_encoder::ColorType::Rgb)
        .unwrap();
    let url = format!(
        "data:image/jpeg;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&jpeg)
    );
    let mut camera = camera();
    camera.capture = Some(Some(Ok(url)));
    let shot = shoot_with(
        &camera,
        json!({"browserEncoder": true, "purpose": "quick-glance"}),
    )
    .unwrap();
    assert_eq!(camera.log(), ["capture jpeg at 0.25 within 5000 ms"]);
    assert_eq!((shot.width, shot.height, shot.quality), (4, 3, 30));
    assert_eq!(shot.notes, ["encoded by the browser"]);
    // Bounded by the call's budget too; one that never comes is said.
    let mut camera = self::camera();
    camera.capture = Some(None);
    let e = run(shoot(
        &camera,
        &args(json!({"browserEncoder": true})),
        1_200,
    ))
    .unwrap_err();
    assert_eq!(camera.log(), ["capture jpeg at 0.5 within 1200 ms"]);
    assert!(
        e.message.starts_with("tab 7 did not paint"),
        "{}",
        e.message
    );
}
