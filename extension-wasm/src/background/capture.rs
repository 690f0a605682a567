//! Screenshots: activate the tab, capture the visible area as JPEG. Captures are serialised
//! (activating one tab while another is captured would photograph the wrong tab).

use base64::Engine;
use claudezilla_protocol::reply::Screenshot;
use claudezilla_protocol::{ErrorBody, ErrorCode, Outcome, Reply, TabId};
use futures_util::lock::Mutex;
use serde::Serialize;

use crate::jpeg;
use crate::web::{self, Tab};

const QUALITY: u8 = 60;
const SCALE: f64 = 0.5;
const PREFIX: &str = "data:image/jpeg;base64,";

thread_local! {
    static CAPTURE_LOCK: std::rc::Rc<Mutex<()>> = std::rc::Rc::new(Mutex::new(()));
}

#[derive(Serialize)]
struct Activate {
    active: bool,
}

#[derive(Serialize)]
struct ImageDetails {
    format: &'static str,
    quality: u8,
    scale: f64,
}

pub async fn screenshot(tab: TabId, budget_ms: u32) -> Outcome {
    let lock = CAPTURE_LOCK.with(|l| l.clone());
    // The guard is dropped on every path out of this function, errors included.
    let Some(_guard) = web::with_deadline(budget_ms, lock.lock()).await else {
        return Err(ErrorBody::new(
            ErrorCode::MutexBusy,
            "another screenshot held the capture lock for too long",
        )
        .with_hint("retry in a moment"));
    };
    let shown: Tab = web::call_as(web::tabs_update(
        tab.0,
        &web::to_js(&Activate { active: true }),
    ))
    .await
    .map_err(|e| {
        ErrorBody::new(
            ErrorCode::NoSuchTab,
            format!("cannot show tab {tab}: {}", e.message),
        )
    })?;
    let details = ImageDetails {
        format: "jpeg",
        quality: QUALITY,
        scale: SCALE,
    };
    let url = web::call(web::tabs_capture_visible_tab(
        shown.window_id,
        &web::to_js(&details),
    ))
    .await?
    .as_string()
    .unwrap_or_default();
    let data = url
        .strip_prefix(PREFIX)
        .ok_or_else(|| ErrorBody::new(ErrorCode::Browser, "the capture is not a JPEG data URL"))?;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(|e| {
            ErrorBody::new(
                ErrorCode::Browser,
                format!("the capture is not valid base64: {e}"),
            )
        })?;
    let (width, height) = jpeg::dimensions(&bytes)
        .ok_or_else(|| ErrorBody::new(ErrorCode::Browser, "the capture is not a readable JPEG"))?;
    Ok(Reply::Screenshot(Screenshot {
        tab_id: tab,
        mime: "image/jpeg".into(),
        data: data.to_owned(),
        width,
        height,
    }))
}
