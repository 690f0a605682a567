//! What follows each load of an agent's page: the content script started in every frame, then
//! what the agent asked for in every page (console capture, consent banners dismissed). It sits
//! above `tabs` and `devtools`, so neither reaches up into the other.

use claudezilla_protocol::TabId;
use claudezilla_protocol::envelope::PageOp;
use wasm_bindgen::prelude::*;

use super::{now, with_state};
use crate::web;

/// How long a banner's script may take to add it after the load.
const CONSENT_AGAIN_MS: u32 = 1_500;

#[derive(serde::Deserialize, Default)]
struct Change {
    status: Option<String>,
}

/// Listens for loads that complete (after `tabs::listen`, whose listener runs first).
pub fn listen() {
    let on_updated = Closure::<dyn FnMut(u32, JsValue)>::new(|tab: u32, change: JsValue| {
        let change: Change = serde_wasm_bindgen::from_value(change).unwrap_or_default();
        let tab = TabId(tab);
        if change.status.as_deref() == Some("complete") && with_state(|s| s.pool.contains(tab)) {
            wasm_bindgen_futures::spawn_local(after_load(tab));
        }
    });
    web::TABS_ON_UPDATED.with(|e| e.add_listener(on_updated.as_ref().unchecked_ref()));
    on_updated.forget();
}

async fn after_load(tab: TabId) {
    let Some(tab) = with_state(|s| s.pool.pool_tab(tab)) else {
        return;
    };
    super::content::preload(tab).await;
    let until = now() + 5_000;
    super::devtools::restart_console(tab, until).await;
    if super::config::handles_consent(tab.id()) {
        // Silent: after a load, a page that went on already or takes no script fails these
        // routinely, and no call waits on them.
        let _ = super::content::round_trip::<claudezilla_protocol::Reply>(
            tab,
            0,
            until,
            PageOp::Consent,
            5_000,
        )
        .await;
        web::sleep(CONSENT_AGAIN_MS).await;
        let _ = super::content::round_trip::<claudezilla_protocol::Reply>(
            tab,
            0,
            now() + 5_000,
            PageOp::Consent,
            5_000,
        )
        .await;
    }
}
