//! Tabs a click opens, named in the click's own answer: the browser's side of
//! `crate::trip::clicked` (the click's waiting registered, the linked tab made, what
//! `crate::trip::adopt` tells the click).

use claudezilla_protocol::envelope::PageOp;
use claudezilla_protocol::reply::Clicked;
use claudezilla_protocol::{AgentId, ErrorBody, TabId};
use futures_channel::mpsc::UnboundedReceiver;
use futures_util::StreamExt;
use serde::Serialize;

use super::super::{now, with_state};
use super::OneTab;
use crate::pool::{AuthorizedTab, Opened};
use crate::trip::adopt::Adopted;
use crate::trip::clicked::{self, ClickedTab, Clicker};
use crate::web::{self, Tab};

/// What became of the tabs a click's page opened, as they come.
type Adoptions = UnboundedReceiver<Adopted>;

/// A click on an agent's tab, answered with the tab it opened ([`clicked::click`]).
pub async fn click(
    agent: &AgentId,
    tab: AuthorizedTab,
    frame: u32,
    until: u64,
    op: PageOp,
    budget_ms: u32,
) -> Result<Clicked, ErrorBody> {
    let clicking = super::super::content::answer::<Clicked>(tab, frame, until, op, budget_ms);
    let from = tab.id();
    clicked::click(&Click { agent, from }, clicking, until).await
}

/// The pool and the browser, as a click of `agent`'s in tab `from` asks them.
struct Click<'a> {
    agent: &'a AgentId,
    from: TabId,
}

impl Clicker for Click<'_> {
    type Adoptions = Adoptions;
    type Tab = OneTab;

    fn from(&self) -> TabId {
        self.from
    }

    fn opened_from(&self) -> Option<Opened> {
        with_state(|s| s.pool.opened_from(self.from))
    }

    fn waited_on(&self) -> bool {
        with_state(|s| s.clicking.get(&self.from).is_some_and(|h| !h.is_closed()))
    }

    fn listen(&self) -> Adoptions {
        let (heard, adoptions) = futures_channel::mpsc::unbounded();
        with_state(|s| s.clicking.insert(self.from, heard));
        adoptions
    }

    fn stop_listening(&self) {
        with_state(|s| s.clicking.remove(&self.from));
    }

    async fn adoption(&self, adoptions: &mut Adoptions, ms: u32) -> Option<Adopted> {
        web::with_deadline(ms, adoptions.next()).await.flatten()
    }

    fn told(&self, adoptions: &mut Adoptions) -> Option<Adopted> {
        adoptions.try_recv().ok()
    }

    fn notify(&self, text: String) {
        super::super::outbox::notify(self.agent, text);
    }

    fn allowed(&self, url: &str) -> Result<(), ErrorBody> {
        super::super::config::check(self.agent, url)
    }

    fn admit(&self) -> Result<(), ErrorBody> {
        with_state(|s| s.pool.admit(self.agent, now()))
    }

    async fn clicked_tab(&self) -> Result<ClickedTab, ErrorBody> {
        let opener: Tab = web::call_as(web::tabs_get(self.from.0)).await?;
        Ok(ClickedTab {
            window: opener.window_id,
            jar: opener.cookie_store_id,
        })
    }

    fn agents_window(&self) -> Option<u32> {
        with_state(|s| s.pool.window)
    }

    async fn open(&self, window_id: u32, url: &str, jar: Option<&str>) -> Result<TabId, ErrorBody> {
        let props = CreateLinked {
            window_id,
            url,
            active: false,
            opener_tab_id: self.from.0,
            cookie_store_id: jar,
        };
        let tab: Tab = web::call_as(web::tabs_create(&web::to_js(&props))).await?;
        Ok(TabId(tab.id))
    }

    fn tab(&self, tab: TabId) -> OneTab {
        OneTab::new(tab)
    }
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
