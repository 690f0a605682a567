//! Window geometry and mode, the browser's side of [`crate::window_plan::sizing`]: the
//! viewport of an agent's tab, the window's outer size, and whether the agents' window opens
//! as a private window.

use claudezilla_protocol::envelope::PageOp;
use claudezilla_protocol::reply;
use claudezilla_protocol::{AgentId, ErrorBody, TabId};
use serde::Serialize;

use super::{content, now, with_state};
use crate::pool::AuthorizedTab;
use crate::web::{self, Tab, Window};
use crate::window_plan::sizing::{self, Outer, Sizer};

#[derive(Serialize)]
struct Size {
    width: u32,
    height: u32,
}

/// The browser's windows and the state's pool.
struct Browser;

fn outer(w: Window) -> Outer {
    Outer {
        id: w.id,
        width: w.width,
        height: w.height,
    }
}

impl Sizer for Browser {
    type Tab = AuthorizedTab;

    fn id(&self, tab: AuthorizedTab) -> TabId {
        tab.id()
    }

    fn attached(&self, tab: TabId) -> bool {
        with_state(|s| s.pool.is_attached(tab))
    }

    async fn viewport(&self, tab: AuthorizedTab) -> Result<(f64, f64), ErrorBody> {
        let op = PageOp::Metrics {
            target: None,
            marks: false,
        };
        let m = content::round_trip::<reply::PageMetrics>(tab, 0, now() + 5_000, op, 5_000).await?;
        Ok((m.viewport[0], m.viewport[1]))
    }

    async fn window_of(&self, tab: TabId) -> Result<u32, ErrorBody> {
        let t: Tab = web::call_as(web::tabs_get(tab.0)).await?;
        Ok(t.window_id)
    }

    async fn window(&self, id: u32) -> Result<Outer, ErrorBody> {
        web::call_as(web::windows_get(id)).await.map(outer)
    }

    async fn resize(&self, id: u32, (width, height): (u32, u32)) -> Result<Outer, ErrorBody> {
        let size = web::to_js(&Size { width, height });
        web::call_as(web::windows_update(id, &size))
            .await
            .map(outer)
    }

    async fn set_size(&self, id: u32, (width, height): (u32, u32)) -> Result<(), ErrorBody> {
        let size = web::to_js(&Size { width, height });
        web::call(web::windows_update(id, &size)).await?;
        Ok(())
    }

    fn others_tabs(&self, agent: &AgentId) -> usize {
        with_state(|s| s.pool.others_tabs(agent))
    }

    fn now_ms(&self) -> f64 {
        web::now_ms()
    }

    fn sleep(&self, ms: u32) -> impl Future<Output = ()> {
        web::sleep(ms)
    }

    async fn private_allowed(&self) -> Result<bool, ErrorBody> {
        let allowed = web::call(web::is_allowed_incognito_access()).await?;
        Ok(allowed.as_bool() == Some(true))
    }

    fn set_private(&self, enabled: bool) -> Option<u32> {
        with_state(|s| {
            s.private_windows = enabled;
            s.pool.window
        })
    }

    async fn is_private(&self, window: u32) -> Result<bool, ErrorBody> {
        let open: Window = web::call_as(web::windows_get(window)).await?;
        Ok(open.incognito)
    }
}

pub async fn set_viewport(
    agent: &AgentId,
    tab: AuthorizedTab,
    size: (u32, u32),
) -> Result<reply::Acted, ErrorBody> {
    sizing::set_viewport(&Browser, agent, tab, size).await
}

pub async fn resize(
    tab: AuthorizedTab,
    width: u32,
    height: u32,
) -> Result<reply::Acted, ErrorBody> {
    sizing::resize(&Browser, tab, (width, height)).await
}

pub async fn set_private(enabled: bool) -> Result<reply::Acted, ErrorBody> {
    sizing::set_private(&Browser, enabled).await
}
