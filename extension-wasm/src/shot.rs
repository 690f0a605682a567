//! One screenshot, from a settled page to the encoded picture: wait for the network and the
//! page to settle (no turn needed), measure, plan ([`crate::capture_plan`]), then in a turn at the
//! capture lock capture the region strip by strip, stitch, mark and encode within the byte
//! budget. Written over [`Camera`], so the flow is tested natively; `background/capture.rs`
//! is the browser's side.

use base64::Engine;
use claudezilla_protocol::args::ScreenshotArgs;
use claudezilla_protocol::envelope::PageOp;
use claudezilla_protocol::reply::{self, ImageMime, PageMetrics, Screenshot};
use claudezilla_protocol::{ErrorBody, ErrorCode, TabId};
use serde::Serialize;

use crate::capture_plan as plan;
use crate::pixels::{self, Image};

/// Longest a capture may hold the lock: a page whose content process hangs must not keep
/// every other agent from taking screenshots. Past it the capture is abandoned.
pub const CAPTURE_DEADLINE_MS: u32 = 5_000;
/// Default longest wait for the page to settle.
const DEFAULT_MAX_WAIT: u32 = 10_000;
/// How often the network is looked at while it is busy.
const QUIET_LOOK_MS: u32 = 25;

/// What a screenshot asks of the browser for one tab.
pub trait Camera {
    /// A turn at the capture lock, given back when dropped.
    type Turn;

    fn tab(&self) -> TabId;
    /// ms since the epoch.
    fn now(&self) -> u64;
    fn sleep(&self, ms: u32) -> impl Future<Output = ()>;
    /// Whether no critical request (script, style, XHR/fetch) was in flight lately.
    fn network_quiet(&self) -> bool;
    /// Asks the page's top frame to settle (`op`), `budget_ms` at most.
    fn settle_page(
        &self,
        op: PageOp,
        until: u64,
        budget_ms: u32,
    ) -> impl Future<Output = Result<reply::Waited, ErrorBody>>;
    /// Asks the page's top frame for its measures (`op`), `budget_ms` at most.
    fn measure(
        &self,
        op: PageOp,
        deadline: u64,
        budget_ms: u32,
    ) -> impl Future<Output = Result<PageMetrics, ErrorBody>>;
    /// Waits for a turn at the capture lock, until `deadline`.
    fn turn(&self, deadline: u64) -> impl Future<Output = Result<Self::Turn, ErrorBody>>;
    /// The browser's capture of the tab (a data URL); none when it did not come within `ms`.
    fn capture(
        &self,
        options: &CaptureOptions,
        ms: u32,
    ) -> impl Future<Output = Option<Result<String, ErrorBody>>>;
}

/// What `tabs.captureTab` is asked.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CaptureOptions {
    pub format: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quality: Option<u8>,
    pub scale: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rect: Option<Rect>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

/// Takes the screenshot `args` ask for within `budget_ms`.
pub async fn shoot<C: Camera>(
    camera: &C,
    args: &ScreenshotArgs,
    budget_ms: u32,
) -> Result<Screenshot, ErrorBody> {
    if args.browser_encoder {
        return browser_jpeg(camera, args, budget_ms).await;
    }
    let deadline = camera.now() + u64::from(budget_ms);
    let mut notes = Vec::new();
    if !args.skip_readiness {
        let max_wait = args
            .max_wait
            .unwrap_or(DEFAULT_MAX_WAIT)
            .min(budget_ms.saturating_sub(1_000));
        // A page stuck in a script does not answer at all: bounded all the same.
        let page_budget = (max_wait + CAPTURE_DEADLINE_MS).min(budget_ms);
        let until = camera.now() + u64::from(max_wait);
        notes.push(settle(camera, args.wait_for_images, until, page_budget).await?);
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
    let metrics = camera
        .measure(op, deadline, CAPTURE_DEADLINE_MS.min(budget_ms))
        .await?;
    let (quality, scale) = args.quality_and_scale();
    let plan = plan::plan(&metrics, args.full_page, scale);
    notes.extend(plan.notes);
    let (region, scale) = (plan.region, plan.scale);
    let _turn = camera.turn(deadline).await?;
    let capture_until = camera.now() + u64::from(CAPTURE_DEADLINE_MS);
    let mut image = capture(camera, region, scale, capture_until).await?;
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
        tab_id: camera.tab(),
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
async fn browser_jpeg<C: Camera>(
    camera: &C,
    args: &ScreenshotArgs,
    budget_ms: u32,
) -> Result<Screenshot, ErrorBody> {
    let (quality, scale) = args.quality_and_scale();
    let options = CaptureOptions {
        format: "jpeg",
        quality: Some(quality),
        scale,
        rect: None,
    };
    let url = camera
        .capture(&options, CAPTURE_DEADLINE_MS.min(budget_ms))
        .await
        .ok_or_else(|| not_painted(camera.tab()))??;
    let data = url
        .strip_prefix("data:image/jpeg;base64,")
        .unwrap_or_default()
        .to_owned();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(&data)
        .unwrap_or_default();
    let (width, height) = crate::jpeg::dimensions(&bytes).unwrap_or_default();
    Ok(Screenshot {
        tab_id: camera.tab(),
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

/// Captures the region in strips (PNG, at the target scale: the browser scales best) and
/// stitches them, all before `until`.
async fn capture<C: Camera>(
    camera: &C,
    region: [f64; 4],
    scale: f64,
    until: u64,
) -> Result<Image, ErrorBody> {
    let [x, y, width, height] = region;
    let tab = camera.tab();
    let mut pieces = Vec::new();
    for (top, piece) in plan::strips(height) {
        let options = CaptureOptions {
            format: "png",
            quality: None,
            scale,
            rect: Some(Rect {
                x,
                y: y + top,
                width,
                height: piece,
            }),
        };
        let left = until.saturating_sub(camera.now()) as u32;
        let url = camera
            .capture(&options, left)
            .await
            .ok_or_else(|| not_painted(tab))?
            .map_err(|e| {
                ErrorBody::new(
                    ErrorCode::Browser,
                    format!("capturing tab {tab} failed: {}", e.message),
                )
            })?;
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

fn not_painted(tab: TabId) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::Timeout,
        format!("tab {tab} did not paint within {CAPTURE_DEADLINE_MS} ms: its page may be stuck in a script; the capture was abandoned"),
    )
    .with_hint("wait for the page, or reload it with firefox_navigate {action: \"reload\"}")
}

/// Waits until the network is quiet (until `until` at most), then lets the content script wait
/// for images, fonts, two frames and an idle moment; says what was waited for.
async fn settle<C: Camera>(
    camera: &C,
    images: bool,
    until: u64,
    budget_ms: u32,
) -> Result<String, ErrorBody> {
    let started = camera.now();
    let quiet = loop {
        if camera.network_quiet() {
            break true;
        }
        if camera.now() >= until {
            break false;
        }
        camera.sleep(QUIET_LOOK_MS).await;
    };
    let network = if quiet {
        "network quiet"
    } else {
        "network still busy (gave up)"
    };
    let page_until = until.max(camera.now() + 500);
    let rest = match camera
        .settle_page(PageOp::Settle { images }, page_until, budget_ms)
        .await
    {
        Ok(reply::Waited { what, .. }) => what,
        // A page we cannot script (about:blank) is still captured.
        Err(e) if e.code == ErrorCode::PageError => "page not scriptable".into(),
        Err(e) => return Err(e),
    };
    Ok(format!(
        "waited {} ms for: {network}, {rest}",
        camera.now().saturating_sub(started)
    ))
}

pub mod settle;

#[cfg(test)]
mod tests;
