//! An agent's own Firefox container (`contextualIdentities`): with
//! `firefox_create_window {container: "own"}` its tabs get a cookie jar of their own, apart from
//! the user's and from other agents'. Made on first use, used for the agent's later tabs unless
//! it asks for `"user"`, and removed when the agent leaves. The containers made for agents are
//! theirs alone: no other agent can name one.

use claudezilla_protocol::args::Container;
use claudezilla_protocol::{AgentId, ErrorBody, ErrorCode};
use serde::{Deserialize, Serialize};

use super::with_state;
use crate::web;

/// Every agent container's name starts with this.
const PREFIX: &str = "Claudezilla ";

/// A container: the cookie store its tabs use, and its name.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Jar {
    pub cookie_store_id: String,
    pub name: String,
    /// The agent asked to keep it past its last tab (`keepContainer`).
    #[serde(skip)]
    pub keep: bool,
}

#[derive(Serialize)]
struct NewIdentity<'a> {
    name: &'a str,
    color: &'a str,
    icon: &'a str,
}

#[derive(Serialize)]
struct ByName<'a> {
    name: &'a str,
}

/// The cookie jar an agent's new tab opens in (None: the user's default one).
pub async fn jar_for(
    agent: &AgentId,
    choice: Option<&Container>,
) -> Result<Option<Jar>, ErrorBody> {
    let own = with_state(|s| s.containers.get(agent).cloned());
    match choice {
        None => Ok(own),
        Some(Container::User) => Ok(None),
        Some(Container::Own) => match own {
            Some(jar) => Ok(Some(jar)),
            None => create(agent).await.map(Some),
        },
        Some(Container::Named(name)) => named(name).await.map(Some),
    }
}

async fn create(agent: &AgentId) -> Result<Jar, ErrorBody> {
    let name = format!("{PREFIX}{}", agent.short());
    let identity = NewIdentity {
        name: &name,
        color: "purple",
        icon: "fingerprint",
    };
    let jar: Jar = web::call_as(web::contextual_identities_create(&web::to_js(&identity)))
        .await
        .map_err(unavailable)?;
    with_state(|s| s.containers.insert(agent.clone(), jar.clone()));
    Ok(jar)
}

/// One of the user's own containers, by name.
async fn named(name: &str) -> Result<Jar, ErrorBody> {
    if name.starts_with(PREFIX) {
        return Err(ErrorBody::new(
            ErrorCode::Ownership,
            format!("{name:?} is an agent's own container"),
        )
        .with_hint("use container \"own\" for a container of your own"));
    }
    let found: Vec<Jar> = web::call_as(web::contextual_identities_query(&web::to_js(&ByName {
        name,
    })))
    .await
    .map_err(unavailable)?;
    found.into_iter().next().ok_or_else(|| {
        ErrorBody::new(
            ErrorCode::InvalidArgument,
            format!("the browser has no container named {name:?}"),
        )
        .with_hint("use \"own\", \"user\", or the name of one of the user's containers")
    })
}

fn unavailable(e: ErrorBody) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::Browser,
        format!("containers are not available: {}", e.message),
    )
    .with_hint(
        "private windows have no containers; otherwise enable containers in Firefox's settings",
    )
}

/// The agent's own container is kept past its last tab.
pub fn keep(agent: &AgentId) {
    with_state(|s| s.containers.get_mut(agent).map(|jar| jar.keep = true));
}

/// Removes the agent's own container, with its cookies, once it has no tab left — unless it
/// asked to keep it and is not `leaving`.
pub async fn release(agent: &AgentId, leaving: bool) {
    let Some(jar) = with_state(|s| {
        let keep = s.containers.get(agent).is_some_and(|j| j.keep) && !leaving;
        (s.pool.owned_by(agent).is_empty() && !keep)
            .then(|| s.containers.remove(agent))
            .flatten()
    }) else {
        return;
    };
    if let Err(e) = web::call(web::contextual_identities_remove(&jar.cookie_store_id)).await {
        web::log(&format!(
            "could not remove container {}: {}",
            jar.name, e.message
        ));
    }
}
