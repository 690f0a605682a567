//! Each agent's settings (`firefox_set_config`): the domains its tabs may load, enforced on
//! create and navigate (a clear error) and on link-following (the navigation is cancelled),
//! and whether consent banners are dismissed after each load.

use claudezilla_protocol::args::SetConfigArgs;
use claudezilla_protocol::{AgentId, ErrorBody, ErrorCode, Reply, TabId};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use super::with_state;
use crate::allowlist;
use crate::web;

#[derive(Debug, Clone, Default)]
pub struct AgentConfig {
    pub allowed_domains: Vec<String>,
    pub handle_consent: bool,
}

pub fn set(agent: &AgentId, a: SetConfigArgs) -> Reply {
    with_state(|s| {
        let c = s.configs.entry(agent.clone()).or_default();
        if let Some(domains) = a.allowed_domains {
            c.allowed_domains = domains
                .into_iter()
                .map(|d| d.to_ascii_lowercase())
                .collect();
        }
        if let Some(on) = a.handle_consent {
            c.handle_consent = on;
        }
        Reply::Config {
            allowed_domains: c.allowed_domains.clone(),
            handle_consent: c.handle_consent,
        }
    })
}

/// Refuses a URL outside the agent's allowlist.
pub fn check(agent: &AgentId, url: &str) -> Result<(), ErrorBody> {
    let domains = with_state(|s| {
        s.configs
            .get(agent)
            .map(|c| c.allowed_domains.clone())
            .unwrap_or_default()
    });
    if allowlist::allows(&domains, url) {
        return Ok(());
    }
    Err(refusal(url, &domains))
}

fn refusal(url: &str, domains: &[String]) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::NotAllowed,
        format!(
            "{} is outside your allowed domains ({}); the load was not allowed",
            crate::request_log::redact_url(url),
            domains.join(", ")
        ),
    )
    .with_hint("stay on those domains, or widen the list with firefox_set_config{allowedDomains}")
}

pub fn handles_consent(tab: TabId) -> bool {
    with_state(|s| {
        s.pool
            .owner(tab)
            .and_then(|o| s.configs.get(o))
            .is_some_and(|c| c.handle_consent)
    })
}

pub fn release(agent: &AgentId) {
    with_state(|s| s.configs.remove(agent));
}

#[derive(Serialize)]
struct Filter {
    urls: [&'static str; 1],
    types: [&'static str; 1],
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Details {
    tab_id: i64,
    url: String,
}

/// Cancels an agent tab's top-level navigation outside its agent's allowlist (a link, a
/// redirect, a script), whatever started it.
pub fn listen() {
    let on_request = Closure::<dyn FnMut(JsValue) -> JsValue>::new(|d: JsValue| {
        let Ok(d) = serde_wasm_bindgen::from_value::<Details>(d) else {
            return JsValue::UNDEFINED;
        };
        let Ok(tab) = u32::try_from(d.tab_id).map(TabId) else {
            return JsValue::UNDEFINED;
        };
        let refused = with_state(|s| {
            let domains = &s
                .pool
                .owner(tab)
                .and_then(|o| s.configs.get(o))?
                .allowed_domains;
            if allowlist::allows(domains, &d.url) {
                return None;
            }
            let error = refusal(&d.url, domains);
            // A navigation waiting on this tab answers with the refusal now.
            s.blocked.insert(tab, error.clone());
            for waiter in s.waiters.remove(&tab).unwrap_or_default() {
                let _ = waiter.done.send(());
            }
            Some(error)
        });
        match refused {
            Some(error) => {
                crate::web::log(&error.message);
                web::to_js(&web::Cancel { cancel: true })
            }
            None => JsValue::UNDEFINED,
        }
    });
    let filter = web::to_js(&Filter {
        urls: ["<all_urls>"],
        types: ["main_frame"],
    });
    let extra = web::to_js(&["blocking"]);
    web::WEB_REQUEST_ON_BEFORE_REQUEST
        .with(|e| e.add_listener_with_extra(on_request.as_ref().unchecked_ref(), &filter, &extra));
    on_request.forget();
}
