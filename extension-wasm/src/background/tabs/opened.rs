//! Tabs a click opens, named in the click's own answer: the new tab a link asks for (opened
//! here, since Firefox's popup blocker refuses it to a synthetic click) and the popup the
//! page's own `window.open` opened where the user allows popups. Either becomes the agent's
//! tab through `crate::trip::adopt`, which tells the click waiting for it.

use claudezilla_protocol::envelope::PageOp;
use claudezilla_protocol::reply::{Clicked, NewTab};
use claudezilla_protocol::{AgentId, ErrorBody, TabId};
use futures_channel::mpsc::UnboundedReceiver;
use futures_util::StreamExt;
use serde::Serialize;

use super::super::{State, now, with_state};
use crate::load::LoadWatch;
use crate::pool::{AuthorizedTab, Opened};
use crate::trip::adopt::{self, Adopted};
use crate::web::{self, Tab};

/// Longest wait after a click for Firefox to report the tab it opened.
const ADOPT_WAIT_MS: f64 = 1_000.0;

/// What became of the tabs a click's page opened, as they come.
type Adoptions = UnboundedReceiver<Adopted>;

/// A click on an agent's tab, answered with the tab it opened.
pub async fn click(
    agent: &AgentId,
    tab: AuthorizedTab,
    frame: u32,
    until: u64,
    op: PageOp,
    budget_ms: u32,
) -> Result<Clicked, ErrorBody> {
    let from = tab.id();
    // Only an agent's own tab waits for what it opens: a tab opened from an attached user tab
    // stays the user's (see `pool::Opened`), so no answer can name it as the agent's. A click
    // on a tab another click waits on leaves the tabs it opens to that one's answer (a click
    // given up left its entry closed: it waits on nothing).
    let mut adoptions = with_state(|s| {
        let agents = matches!(s.pool.opened_from(from), Some(Opened::Agents(_)));
        let waited_on = s.clicking.get(&from).is_some_and(|h| !h.is_closed());
        (agents && !waited_on).then(|| {
            let (heard, adoptions) = futures_channel::mpsc::unbounded();
            s.clicking.insert(from, heard);
            adoptions
        })
    });
    let clicked = super::super::content::answer::<Clicked>(tab, frame, until, op, budget_ms).await;
    let answered = match clicked {
        Ok(mut clicked) => {
            let adoptions = adoptions.as_mut();
            clicked.new_tab = match clicked.new_tab.take() {
                Some(NewTab::Asked { url }) => Some(open_linked(agent, from, url, adoptions).await),
                Some(NewTab::Popped { url }) => Some(popped(url, until, adoptions).await),
                other => other,
            };
            Ok(clicked)
        }
        Err(e) => Err(e),
    };
    let Some(mut rest) = adoptions else {
        return answered;
    };
    with_state(|s| s.clicking.remove(&from));
    // More tabs than the answer names (a page opening several): each in a note with it.
    while let Ok(adopted) = rest.try_recv() {
        super::super::outbox::notify(agent, adopt::note(from, &adopted));
    }
    answered
}

/// Tells the click being answered on `opener` (if any) what became of a tab it opened; false
/// when no click waits, so the agent hears of it in a note instead.
pub(super) fn heard(s: &mut State, opener: TabId, adopted: &Adopted) -> bool {
    s.clicking
        .get(&opener)
        .is_some_and(|heard| heard.unbounded_send(adopted.clone()).is_ok())
}

/// The page's own popup, once Firefox reports its tab and the pool adopts it; `until` (ms since
/// the epoch) bounds the wait for where a blank one goes.
async fn popped(url: String, until: u64, adoptions: Option<&mut Adoptions>) -> NewTab {
    match adoption(adoptions).await {
        Some(Ok(tab_id)) => NewTab::Opened {
            url: match crate::load::is_blank(&url) {
                // Opened blank and sent on by the page (sign-in libraries do): where it went.
                true => first_address(tab_id, until).await,
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
async fn first_address(tab: TabId, until: u64) -> String {
    let moved = super::watch(tab, LoadWatch::UrlChange);
    // The page chose it: capped as every address an answer carries.
    let address = || async {
        web::call_as::<Tab>(web::tabs_get(tab.0)).await.map_or_else(
            |_| "about:blank".to_owned(),
            |t| crate::text::cap(&t.url, crate::text::MAX_URL_CHARS),
        )
    };
    let now = address().await;
    if !crate::load::is_blank(&now) {
        return now;
    }
    let left = (until as f64 - web::now_ms()).clamp(0.0, ADOPT_WAIT_MS);
    let _ = web::with_deadline(left as u32, moved).await;
    address().await
}

/// What became of the next tab the click's page opened, once Firefox reports it (not long);
/// none when no click of the agent's waits on that tab.
async fn adoption(adoptions: Option<&mut Adoptions>) -> Option<Adopted> {
    web::with_deadline(ADOPT_WAIT_MS as u32, adoptions?.next())
        .await
        .flatten()
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CreateLinked<'a> {
    window_id: u32,
    url: &'a str,
    active: bool,
    opener_tab_id: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    cookie_store_id: Option<&'a str>,
}

/// The new tab a clicked link asks for (see `content::act::links`), opened as the agent's,
/// beside its others, in the cookie jar of the tab clicked in; its opener is that tab, so
/// `crate::trip::adopt` makes it the agent's and the pool's limit holds.
async fn open_linked(
    agent: &AgentId,
    from: TabId,
    url: String,
    adoptions: Option<&mut Adoptions>,
) -> NewTab {
    let refused = |url: String, why: String| NewTab::Refused { url, why };
    if let Err(e) = super::super::config::check(agent, &url) {
        return refused(url, e.message);
    }
    if let Err(e) = with_state(|s| s.pool.admit(agent, now())) {
        return refused(url, e.message);
    }
    let opener: Tab = match web::call_as(web::tabs_get(from.0)).await {
        Ok(tab) => tab,
        Err(e) => return refused(url, e.message),
    };
    let window_id = with_state(|s| s.pool.window).unwrap_or(opener.window_id);
    let props = CreateLinked {
        window_id,
        url: &url,
        active: false,
        opener_tab_id: from.0,
        cookie_store_id: opener.cookie_store_id.as_deref(),
    };
    match web::call_as::<Tab>(web::tabs_create(&web::to_js(&props))).await {
        Ok(tab) => {
            // Its adoption is told to this click, which names it: no note in the next answer.
            let _ = adoption(adoptions).await;
            NewTab::Opened {
                tab_id: TabId(tab.id),
                url,
            }
        }
        Err(e) => refused(url, e.message),
    }
}
