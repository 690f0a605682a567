//! The agents' window sized and switched, over [`Sizer`] (which `background/window_size.rs`
//! implements): a viewport sized as the page measures it (`set_viewport`: the window grown by
//! what the page lacks, twice at most, each time until the page sees a change, about 1.5 s
//! at most: the first look after that ends it), the window's outer size (`resize`), and
//! private mode for the agents' window (`set_private`). The user's own windows are never
//! resized.

use claudezilla_protocol::reply;
use claudezilla_protocol::{AgentId, ErrorBody, ErrorCode, TabId};

use super::{grown, viewport_words};

/// How long a resize may take to reach the page.
const SETTLE_MS: f64 = 1_500.0;

/// A browser window: its id and outer size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outer {
    pub id: u32,
    pub width: u32,
    pub height: u32,
}

/// What sizing asks of the pool, the page and the browser, for one agent.
pub trait Sizer {
    /// A tab the pool authorized.
    type Tab: Copy;
    fn id(&self, tab: Self::Tab) -> TabId;
    /// The tab is the user's, attached.
    fn attached(&self, tab: TabId) -> bool;
    /// The page's viewport (CSS px) as the page itself sees it.
    fn viewport(&self, tab: Self::Tab) -> impl Future<Output = Result<(f64, f64), ErrorBody>>;
    /// The window holding the tab.
    fn window_of(&self, tab: TabId) -> impl Future<Output = Result<u32, ErrorBody>>;
    fn window(&self, id: u32) -> impl Future<Output = Result<Outer, ErrorBody>>;
    /// The window's outer size set; the window as the browser reports it after.
    fn resize(&self, id: u32, size: (u32, u32)) -> impl Future<Output = Result<Outer, ErrorBody>>;
    /// The window's outer size set, what the browser reports after left unread: a viewport's
    /// change is read from the page.
    fn set_size(&self, id: u32, size: (u32, u32)) -> impl Future<Output = Result<(), ErrorBody>>;
    /// Tabs of other agents than `agent` in the agents' window.
    fn others_tabs(&self, agent: &AgentId) -> usize;
    fn now_ms(&self) -> f64;
    fn sleep(&self, ms: u32) -> impl Future<Output = ()>;
    /// Firefox lets the extension run in private windows.
    fn private_allowed(&self) -> impl Future<Output = Result<bool, ErrorBody>>;
    /// Private windows for the agents' window from now on, or not; the agents' window, if open.
    fn set_private(&self, enabled: bool) -> Option<u32>;
    fn is_private(&self, window: u32) -> impl Future<Output = Result<bool, ErrorBody>>;
}

/// The user's own windows are never resized: only the agents' window is ours.
fn in_agent_window<S: Sizer>(s: &S, tab: TabId) -> Result<(), ErrorBody> {
    if !s.attached(tab) {
        return Ok(());
    }
    Err(ErrorBody::new(
        ErrorCode::InvalidArgument,
        format!("tab {tab} is the user's tab: its window is the user's and is not resized"),
    )
    .with_hint("open a tab of your own with firefox_create_window and size that one"))
}

/// The viewport once a change has reached the page (or as it is after a moment).
async fn changed_viewport<S: Sizer>(
    s: &S,
    tab: S::Tab,
    before: (f64, f64),
) -> Result<(f64, f64), ErrorBody> {
    let until = s.now_ms() + SETTLE_MS;
    loop {
        let now = s.viewport(tab).await?;
        if now != before || s.now_ms() > until {
            return Ok(now);
        }
        s.sleep(50).await;
    }
}

/// Resizes the tab's window so that its viewport, `seen` now, becomes `wanted`.
async fn grow<S: Sizer>(
    s: &S,
    tab: TabId,
    seen: (f64, f64),
    wanted: (f64, f64),
) -> Result<(), ErrorBody> {
    let window = s.window(s.window_of(tab).await?).await?;
    let size = grown((window.width, window.height), seen, wanted);
    s.set_size(window.id, size).await
}

/// Sizes the tab's viewport to `width` × `height` CSS pixels, as the page measures it: the
/// window is resized by the difference the page reports. Zooming the page cannot stand in for
/// a narrower window: Firefox zooms per site, so the user's tabs of that site would zoom too.
pub async fn set_viewport<S: Sizer>(
    s: &S,
    agent: &AgentId,
    tab: S::Tab,
    (width, height): (u32, u32),
) -> Result<reply::Acted, ErrorBody> {
    let id = s.id(tab);
    in_agent_window(s, id)?;
    let (w, h) = (f64::from(width), f64::from(height));
    let mut seen = s.viewport(tab).await?;
    for _ in 0..2 {
        if seen == (w, h) {
            break;
        }
        grow(s, id, seen, (w, h)).await?;
        seen = changed_viewport(s, tab, seen).await?;
    }
    Ok(reply::Acted {
        what: viewport_words(id, (width, height), seen, s.others_tabs(agent)),
    })
}

/// Sets the outer size of the window holding the agent's tab.
pub async fn resize<S: Sizer>(
    s: &S,
    tab: S::Tab,
    size: (u32, u32),
) -> Result<reply::Acted, ErrorBody> {
    let id = s.id(tab);
    in_agent_window(s, id)?;
    let before = s.viewport(tab).await?;
    let window = s.resize(s.window_of(id).await?, size).await?;
    let (w, h) = changed_viewport(s, tab, before).await?;
    Ok(reply::Acted {
        what: format!(
            "Window {} is now {}×{} (viewport {w:.0}×{h:.0}).",
            window.id, window.width, window.height
        ),
    })
}

/// Private windows for the agents' window from now on; needs the user's "Run in Private
/// Windows" permission for the extension.
pub async fn set_private<S: Sizer>(s: &S, enabled: bool) -> Result<reply::Acted, ErrorBody> {
    if enabled && !s.private_allowed().await? {
        return Err(ErrorBody::new(
            ErrorCode::Disabled,
            "Firefox does not let Claudezilla run in private windows",
        )
        .with_hint(
            "the user can allow it: about:addons → Claudezilla → \"Run in Private Windows\" → Allow",
        ));
    }
    let mode = if enabled { "private" } else { "normal" };
    let Some(window) = s.set_private(enabled) else {
        return Ok(reply::Acted {
            what: format!("The agents' window will open as a {mode} window."),
        });
    };
    let what = match s.is_private(window).await? == enabled {
        true => format!("The agents' window is already a {mode} window."),
        false => format!(
            "The agents' window is open in the other mode; new tabs keep opening there. \
             The next agents' window opens as a {mode} window (firefox_close_window closes this one \
             once no other agent has tabs in it)."
        ),
    };
    Ok(reply::Acted { what })
}

#[cfg(test)]
mod tests;
