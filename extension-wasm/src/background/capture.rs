//! Screenshots: let the page settle, capture it with `tabs.captureTab` (no tab switch: the
//! user's view and other agents' tabs stay as they are), then in Rust decode, stitch, crop,
//! draw badges and encode a JPEG that fits the byte budget.
//!
//! Captures take turns ([`CaptureLock`](crate::capture_lock::CaptureLock)): they are heavy, and
//! MUTEX_BUSY tells an agent when another capture is hogging the browser. The turn is released
//! on every path out (a guard).

use base64::Engine;
use claudezilla_protocol::args::ScreenshotArgs;
use claudezilla_protocol::envelope::PageOp;
use claudezilla_protocol::reply;
use claudezilla_protocol::reply::{ImageMime, Screenshot};
use claudezilla_protocol::{AgentId, ErrorBody, ErrorCode, TabId};
use futures_channel::oneshot;
use serde::Serialize;

use super::{content, now, with_state};
use crate::capture_lock::Ticket;
use crate::capture_plan as plan;
use crate::pixels::{self, Image};
use crate::pool::AuthorizedTab;
use crate::web;

/// Longest a capture may hold the lock: a page whose content process hangs must not keep
/// every other agent from taking screenshots. Past it the capture is abandoned.
const CAPTURE_DEADLINE_MS: u32 = 5_000;
/// Default longest wait for the page to settle.
const DEFAULT_MAX_WAIT: u32 = 10_000;

/// Holds a ticket; giving it back on drop wakes the next screenshot in line.
struct Turn(Ticket);

impl Drop for Turn {
    fn drop(&mut self) {
        let next = with_state(|s| {
            let next = s.capture.release(self.0, now());
            s.capture_wakers.remove(&self.0);
            next.and_then(|t| s.capture_wakers.remove(&t))
        });
        if let Some(wake) = next {
            let _ = wake.send(());
        }
    }
}

pub async fn screenshot(
    agent: &AgentId,
    authorized: AuthorizedTab,
    args: ScreenshotArgs,
    budget_ms: u32,
) -> Result<Screenshot, ErrorBody> {
    let tab = authorized.id();
    if args.browser_encoder {
        return browser_jpeg(tab, &args).await;
    }
    let deadline = now() + u64::from(budget_ms);
    let mut notes = Vec::new();
    // Settling needs no turn: only capturing and encoding take the lock.
    if !args.skip_readiness {
        let max_wait = args
            .max_wait
            .unwrap_or(DEFAULT_MAX_WAIT)
            .min(budget_ms.saturating_sub(1_000));
        notes.push(
            settle(
                authorized,
                args.wait_for_images,
                now() + u64::from(max_wait),
                // A page stuck in a script does not answer at all: bounded all the same.
                (max_wait + CAPTURE_DEADLINE_MS).min(budget_ms),
            )
            .await?,
        );
    }
    let target = args.target.clone();
    if target.as_ref().is_some_and(|t| t.frame() != 0) {
        return Err(ErrorBody::new(
            ErrorCode::InvalidArgument,
            "element screenshots work in the top frame only",
        )
        .with_hint("screenshot the whole tab, or the iframe element itself"));
    }
    let op = PageOp::Metrics {
        target: target.map(|t| t.in_frame().1),
        marks: args.annotate,
    };
    let metrics_budget = CAPTURE_DEADLINE_MS.min(budget_ms);
    let metrics =
        content::round_trip::<reply::PageMetrics>(authorized, 0, deadline, op, metrics_budget)
            .await?;
    let (quality, scale) = args.quality_and_scale();
    let plan = plan::plan(&metrics, args.full_page, scale);
    notes.extend(plan.notes);
    let (region, scale) = (plan.region, plan.scale);
    let turn = Turn(with_state(|s| s.capture.request(agent, now())));
    wait_for_turn(&turn, deadline).await?;
    let capture_until = now() + u64::from(CAPTURE_DEADLINE_MS);
    let mut image = capture(tab, region, scale, capture_until).await?;
    let marks = if args.annotate {
        plan::annotate(&mut image, &metrics, region, scale)
    } else {
        Vec::new()
    };
    let budget = plan::budget(args.save_path.is_some());
    let encoded = plan::encode(&image, args.format, quality, budget, &mut notes)
        .map_err(|e| ErrorBody::new(ErrorCode::Internal, e.to_string()))?;
    let shrink = encoded.shrink;
    Ok(Screenshot {
        tab_id: tab,
        mime: encoded.mime,
        data: base64::engine::general_purpose::STANDARD.encode(&encoded.bytes),
        width: (f64::from(image.width) * shrink).round() as u32,
        height: (f64::from(image.height) * shrink).round() as u32,
        quality: encoded.quality,
        scale: scale * shrink,
        origin: [region[0] - metrics.scroll[0], region[1] - metrics.scroll[1]],
        notes,
        marks,
    })
}

/// The browser's own JPEG of the viewport, for comparison with our pipeline.
async fn browser_jpeg(tab: TabId, args: &ScreenshotArgs) -> Result<Screenshot, ErrorBody> {
    #[derive(Serialize)]
    struct Jpeg {
        format: &'static str,
        quality: u8,
        scale: f64,
    }
    let (quality, scale) = args.quality_and_scale();
    let url = web::call(web::tabs_capture_tab(
        tab.0,
        &web::to_js(&Jpeg {
            format: "jpeg",
            quality,
            scale,
        }),
    ))
    .await?
    .as_string()
    .unwrap_or_default();
    let data = url
        .strip_prefix("data:image/jpeg;base64,")
        .unwrap_or_default()
        .to_owned();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(&data)
        .unwrap_or_default();
    let (width, height) = crate::jpeg::dimensions(&bytes).unwrap_or_default();
    Ok(Screenshot {
        tab_id: tab,
        mime: ImageMime::Jpeg,
        data,
        width,
        height,
        quality,
        scale,
        origin: [0.0, 0.0],
        notes: vec!["encoded by the browser".into()],
        marks: Vec::new(),
    })
}

#[derive(Serialize)]
struct CaptureOptions {
    format: &'static str,
    scale: f64,
    rect: Rect,
}

#[derive(Serialize)]
struct Rect {
    x: f64,
    y: f64,
    width: f64,
    height: f64,
}

/// Captures the region in pieces (PNG, at the target scale: the browser scales best) and
/// stitches them, all before `until`.
async fn capture(tab: TabId, region: [f64; 4], scale: f64, until: u64) -> Result<Image, ErrorBody> {
    let [x, y, width, height] = region;
    let mut pieces = Vec::new();
    for (top, piece) in plan::strips(height) {
        let options = CaptureOptions {
            format: "png",
            scale,
            rect: Rect {
                x,
                y: y + top,
                width,
                height: piece,
            },
        };
        let left = until.saturating_sub(now()) as u32;
        let shot = web::call(web::tabs_capture_tab(tab.0, &web::to_js(&options)));
        let url = web::with_deadline(left, shot)
            .await
            .ok_or_else(|| {
                ErrorBody::new(
                    ErrorCode::Timeout,
                    format!("tab {tab} did not paint within {CAPTURE_DEADLINE_MS} ms: its page may be stuck in a script; the capture was abandoned"),
                )
                .with_hint("wait for the page, or reload it with firefox_navigate {action: \"reload\"}")
            })?
            .map_err(|e| {
                ErrorBody::new(
                    ErrorCode::Browser,
                    format!("capturing tab {tab} failed: {}", e.message),
                )
            })?
            .as_string()
            .unwrap_or_default();
        let png = plan::png_of(&url)?;
        pieces.push(
            pixels::decode_png(&png)
                .map_err(|e| ErrorBody::new(ErrorCode::Browser, e.to_string()))?,
        );
    }
    Ok(if pieces.len() == 1 {
        pieces.remove(0)
    } else {
        pixels::stitch(&pieces)
    })
}

/// Waits until no critical request (script, style, XHR/fetch) has been in flight for 150 ms,
/// then lets the content script wait for images, fonts, two frames and an idle moment.
async fn settle(
    authorized: AuthorizedTab,
    images: bool,
    until: u64,
    budget_ms: u32,
) -> Result<String, ErrorBody> {
    let tab = authorized.id();
    let started = web::now_ms();
    let quiet = loop {
        let now = web::now_ms();
        if with_state(|s| s.network.quiet(tab, now)) {
            break true;
        }
        if now >= until as f64 {
            break false;
        }
        web::sleep(25).await;
    };
    let network = if quiet {
        "network quiet".to_owned()
    } else {
        "network still busy (gave up)".to_owned()
    };
    let rest = match content::answer::<reply::Waited>(
        authorized,
        0,
        until.max(now() + 500),
        PageOp::Settle { images },
        budget_ms,
    )
    .await
    {
        Ok(reply::Waited { what, .. }) => what,
        // A page we cannot script (about:blank) is still captured.
        Err(e) if e.code == ErrorCode::PageError => "page not scriptable".into(),
        Err(e) => return Err(e),
    };
    Ok(format!(
        "waited {} ms for: {network}, {rest}",
        (web::now_ms() - started) as u32
    ))
}

/// Waits until the ticket is granted; gives up with MUTEX_BUSY once the current holder has held
/// the lock longer than the busy limit, or with TIMEOUT at the deadline.
async fn wait_for_turn(turn: &Turn, deadline: u64) -> Result<(), ErrorBody> {
    loop {
        let verdict = with_state(|s| {
            s.capture
                .verdict(turn.0, now(), s.tuning.mutex_busy_ms, deadline)
        });
        let Some(ms) = verdict.wait_ms()? else {
            return Ok(());
        };
        let (wake, woken) = oneshot::channel();
        with_state(|s| s.capture_wakers.insert(turn.0, wake));
        web::with_deadline(ms as u32, woken).await;
    }
}
