//! Window geometry and mode: the viewport of an agent's tab, the window's outer size, and
//! whether the agents' window opens as a private window.

use claudezilla_protocol::envelope::PageOp;
use claudezilla_protocol::reply;
use claudezilla_protocol::{AgentId, ErrorBody, ErrorCode, TabId};
use serde::Serialize;

use super::{content, now, with_state};
use crate::pool::AuthorizedTab;
use crate::web::{self, Tab, Window};
use crate::window_plan;

#[derive(Serialize)]
struct Size {
    width: u32,
    height: u32,
}

/// The user's own windows are never resized: only the agents' window is ours.
fn in_agent_window(tab: TabId) -> Result<(), ErrorBody> {
    if !with_state(|s| s.pool.is_attached(tab)) {
        return Ok(());
    }
    Err(ErrorBody::new(
        ErrorCode::InvalidArgument,
        format!("tab {tab} is the user's tab: its window is the user's and is not resized"),
    )
    .with_hint("open a tab of your own with firefox_create_window and size that one"))
}

/// How long a resize may take to reach the page.
const SETTLE_MS: f64 = 1_500.0;

/// The page's viewport (CSS px) as the page itself sees it.
async fn viewport(tab: AuthorizedTab) -> Result<(f64, f64), ErrorBody> {
    let op = PageOp::Metrics {
        target: None,
        marks: false,
    };
    let m = content::round_trip::<reply::PageMetrics>(tab, 0, now() + 5_000, op, 5_000).await?;
    Ok((m.viewport[0], m.viewport[1]))
}

/// The viewport once a change has reached the page (or as it is after a moment).
async fn changed_viewport(tab: AuthorizedTab, before: (f64, f64)) -> Result<(f64, f64), ErrorBody> {
    let until = web::now_ms() + SETTLE_MS;
    loop {
        let now = viewport(tab).await?;
        if now != before || web::now_ms() > until {
            return Ok(now);
        }
        web::sleep(50).await;
    }
}

/// Resizes the tab's window so that its viewport, `seen` now, becomes `wanted`.
async fn grow(tab: TabId, seen: (f64, f64), wanted: (f64, f64)) -> Result<(), ErrorBody> {
    let t: Tab = web::call_as(web::tabs_get(tab.0)).await?;
    let window: Window = web::call_as(web::windows_get(t.window_id)).await?;
    let (width, height) = window_plan::grown((window.width, window.height), seen, wanted);
    let size = Size { width, height };
    web::call(web::windows_update(t.window_id, &web::to_js(&size))).await?;
    Ok(())
}

/// Sizes the tab's viewport to `width` × `height` CSS pixels, as the page measures it: the
/// window is resized by the difference the page reports. Zooming the page cannot stand in for
/// a narrower window: Firefox zooms per site, so the user's tabs of that site would zoom too.
pub async fn set_viewport(
    agent: &AgentId,
    tab: AuthorizedTab,
    (width, height): (u32, u32),
) -> Result<reply::Acted, ErrorBody> {
    in_agent_window(tab.id())?;
    let (w, h) = (f64::from(width), f64::from(height));
    let mut seen = viewport(tab).await?;
    for _ in 0..2 {
        if seen == (w, h) {
            break;
        }
        grow(tab.id(), seen, (w, h)).await?;
        seen = changed_viewport(tab, seen).await?;
    }
    let shared = with_state(|s| s.pool.others_tabs(agent));
    Ok(reply::Acted {
        what: window_plan::viewport_words(tab.id(), (width, height), seen, shared),
    })
}

/// Sets the outer size of the window holding the agent's tab.
pub async fn resize(
    tab: AuthorizedTab,
    width: u32,
    height: u32,
) -> Result<reply::Acted, ErrorBody> {
    in_agent_window(tab.id())?;
    let before = viewport(tab).await?;
    let now: Tab = web::call_as(web::tabs_get(tab.id().0)).await?;
    let window: Window = web::call_as(web::windows_update(
        now.window_id,
        &web::to_js(&Size { width, height }),
    ))
    .await?;
    let (w, h) = changed_viewport(tab, before).await?;
    Ok(reply::Acted {
        what: format!(
            "Window {} is now {}×{} (viewport {w:.0}×{h:.0}).",
            window.id, window.width, window.height
        ),
    })
}

/// Private windows for the agents' window from now on; needs the user's "Run in Private
/// Windows" permission for the extension.
pub async fn set_private(enabled: bool) -> Result<reply::Acted, ErrorBody> {
    if enabled {
        let allowed = web::call(web::is_allowed_incognito_access()).await?;
        if allowed.as_bool() != Some(true) {
            return Err(ErrorBody::new(
                ErrorCode::Disabled,
                "Firefox does not let Claudezilla run in private windows",
            )
            .with_hint(
                "the user can allow it: about:addons → Claudezilla → \"Run in Private Windows\" → Allow",
            ));
        }
    }
    let window = with_state(|s| {
        s.private_windows = enabled;
        s.pool.window
    });
    let mode = if enabled { "private" } else { "normal" };
    let Some(window) = window else {
        return Ok(reply::Acted {
            what: format!("The agents' window will open as a {mode} window."),
        });
    };
    let open: Window = web::call_as(web::windows_get(window)).await?;
    let what = match open.incognito == enabled {
        true => format!("The agents' window is already a {mode} window."),
        false => format!(
            "The agents' window is open in the other mode; new tabs keep opening there. \
             The next agents' window opens as a {mode} window (firefox_close_window closes this one \
             once no other agent has tabs in it)."
        ),
    };
    Ok(reply::Acted { what })
}
