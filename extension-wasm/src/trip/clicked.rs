//! The tabs a click opens, named in the click's own answer: the new tab a link asks for (opened
//! here beside the agent's others, in the clicked tab's cookie jar, since Firefox's popup
//! blocker refuses it to a synthetic click) and the popup the page's own `window.open` opened
//! where the user allows popups. Either becomes the agent's tab through [`super::adopt`],
//! which tells the click waiting for it — only a click on an agent's own tab waits, and only
//! one click per tab; the tabs no answer names are told in notes. Written over [`Clicker`];
//! `background/tabs/opened.rs` is the browser's side.

use claudezilla_protocol::reply::{Clicked, NewTab};
use claudezilla_protocol::{ErrorBody, TabId};

use super::adopt::{self, Adopted};
use crate::load::{self, LoadWatch};
use crate::pool::Opened;
use crate::tab_wait::{TabWatch, Waited};
use crate::text::{MAX_URL_CHARS, cap};

/// Longest wait after a click for Firefox to report the tab it opened.
pub const ADOPT_WAIT_MS: u32 = 1_000;

/// Longest wait for where a page sends the popup it opened blank. Sign-in libraries open it
/// at the click, then work out the address: a key made, the provider's settings fetched (over
/// the network, where they are not given). A second was too short on a loaded machine.
pub const SENT_ON_WAIT_MS: u32 = 3_000;

/// The tab clicked in, as a tab its link opens is placed beside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClickedTab {
    pub window: u32,
    /// Its cookie store.
    pub jar: Option<String>,
}

/// What a click's new tabs ask of the pool and the browser.
pub trait Clicker {
    /// What became of the tabs the click's page opened, as they come.
    type Adoptions;
    type Tab: TabWatch;

    /// The tab clicked in.
    fn from(&self) -> TabId;
    /// Whose a tab the clicked tab's page opens is; none when it is no tab of the pool's.
    fn opened_from(&self) -> Option<Opened>;
    /// Another click on the tab waits for what its page opens (a click given up waits on
    /// nothing).
    fn waited_on(&self) -> bool;
    /// Registers this click as the one told what the tab's page opens.
    fn listen(&self) -> Self::Adoptions;
    fn stop_listening(&self);
    /// What became of the next tab the page opened, within `ms`; none when none came.
    fn adoption(
        &self,
        adoptions: &mut Self::Adoptions,
        ms: u32,
    ) -> impl Future<Output = Option<Adopted>>;
    /// One more told already, without waiting.
    fn told(&self, adoptions: &mut Self::Adoptions) -> Option<Adopted>;
    /// A note for the agent with its next answer.
    fn notify(&self, text: String);
    /// The allowlists' refusal of `url` for the agent.
    fn allowed(&self, url: &str) -> Result<(), ErrorBody>;
    /// Refuses a tab past the agent's share of the pool.
    fn admit(&self) -> Result<(), ErrorBody>;
    fn clicked_tab(&self) -> impl Future<Output = Result<ClickedTab, ErrorBody>>;
    /// The agents' window, once there is one.
    fn agents_window(&self) -> Option<u32>;
    /// Opens `url` in `window` (cookie store `jar`), its opener the tab clicked in.
    fn open(
        &self,
        window: u32,
        url: &str,
        jar: Option<&str>,
    ) -> impl Future<Output = Result<TabId, ErrorBody>>;
    /// The new tab `tab`, to wait on.
    fn tab(&self, tab: TabId) -> Self::Tab;
}

/// The click (`clicking`, which answers the page's own words) answered with the tab it opened;
/// `until` (ms since the epoch) bounds the wait for where a blank popup goes.
pub async fn click<C: Clicker>(
    c: &C,
    clicking: impl Future<Output = Result<Clicked, ErrorBody>>,
    until: u64,
) -> Result<Clicked, ErrorBody> {
    // Only an agent's own tab waits for what it opens: a tab opened from an attached user tab
    // stays the user's (see `pool::Opened`), so no answer can name it as the agent's. A click
    // on a tab another click waits on leaves the tabs it opens to that one's answer (a click
    // given up left its entry closed: it waits on nothing).
    let agents = matches!(c.opened_from(), Some(Opened::Agents(_)));
    let mut adoptions = (agents && !c.waited_on()).then(|| c.listen());
    let answered = match clicking.await {
        Ok(mut clicked) => {
            let adoptions = adoptions.as_mut();
            clicked.new_tab = match clicked.new_tab.take() {
                Some(NewTab::Asked { url }) => Some(open_linked(c, url, adoptions).await),
                Some(NewTab::Popped { url }) => Some(popped(c, url, until, adoptions).await),
                other => other,
            };
            Ok(clicked)
        }
        Err(e) => Err(e),
    };
    let Some(mut rest) = adoptions else {
        return answered;
    };
    c.stop_listening();
    // More tabs than the answer names (a page opening several): each in a note with it.
    while let Some(adopted) = c.told(&mut rest) {
        c.notify(adopt::note(c.from(), &adopted));
    }
    answered
}

/// The page's own popup, once Firefox reports its tab and the pool adopts it.
async fn popped<C: Clicker>(
    c: &C,
    url: String,
    until: u64,
    adoptions: Option<&mut C::Adoptions>,
) -> NewTab {
    match adoption(c, adoptions).await {
        Some(Ok(tab_id)) => NewTab::Opened {
            url: match load::is_blank(&url) {
                // Opened blank and sent on by the page (sign-in libraries do): where it went.
                true => first_address(&c.tab(tab_id), until).await,
                false => url,
            },
            tab_id,
        },
        Some(Err(why)) => NewTab::Refused { url, why },
        None => NewTab::Popped { url },
    }
}

/// The address a popup opened blank is sent to, if the page sends it on within a moment (and
/// before `until`).
async fn first_address<T: TabWatch>(tab: &T, until: u64) -> String {
    let moved = tab.watch(LoadWatch::UrlChange);
    let now = address(tab).await;
    if !load::is_blank(&now) {
        return now;
    }
    let left = (until as f64 - tab.now_ms()).clamp(0.0, f64::from(SENT_ON_WAIT_MS));
    let _: Waited = tab.wait(moved, left as u32).await;
    address(tab).await
}

/// The tab's address; the page chose it: capped as every address an answer carries.
async fn address<T: TabWatch>(tab: &T) -> String {
    tab.look().await.map_or_else(
        |_| "about:blank".to_owned(),
        |t| cap(&t.shown.url, MAX_URL_CHARS),
    )
}

/// What became of the next tab the click's page opened, once Firefox reports it (not long);
/// none when no click of the agent's waits on that tab.
async fn adoption<C: Clicker>(c: &C, adoptions: Option<&mut C::Adoptions>) -> Option<Adopted> {
    c.adoption(adoptions?, ADOPT_WAIT_MS).await
}

/// The new tab a clicked link asks for, opened as the agent's, beside its others, in the
/// cookie jar of the tab clicked in; its opener is that tab, so [`super::adopt`] makes it the
/// agent's and the pool's limit holds.
async fn open_linked<C: Clicker>(
    c: &C,
    url: String,
    adoptions: Option<&mut C::Adoptions>,
) -> NewTab {
    let refused = |url: String, why: String| NewTab::Refused { url, why };
    if let Err(e) = c.allowed(&url) {
        return refused(url, e.message);
    }
    if let Err(e) = c.admit() {
        return refused(url, e.message);
    }
    let opener = match c.clicked_tab().await {
        Ok(tab) => tab,
        Err(e) => return refused(url, e.message),
    };
    let window = c.agents_window().unwrap_or(opener.window);
    match c.open(window, &url, opener.jar.as_deref()).await {
        Ok(tab_id) => {
            // Its adoption is told to this click, which names it: no note in the next answer.
            let _ = adoption(c, adoptions).await;
            NewTab::Opened { tab_id, url }
        }
        Err(e) => refused(url, e.message),
    }
}

#[cfg(test)]
mod tests;
