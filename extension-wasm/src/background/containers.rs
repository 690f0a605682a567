//! An agent's own Firefox container (`contextualIdentities`): with
//! `firefox_create_window {container: "own"}` its tabs get a cookie jar of their own, apart from
//! the user's and from other agents'. Made on first use, used for the agent's later tabs unless
//! it asks for `"user"`, and removed when the agent leaves. The containers made for agents are
//! theirs alone: no other agent can name one. `crate::jars` decides; this is the browser's side.

use claudezilla_protocol::args::Container;
use claudezilla_protocol::{AgentId, ErrorBody};
use serde::Serialize;

use super::with_state;
use crate::jars::{self, Identities, Jar, NewIdentity};
use crate::web;

#[derive(Serialize)]
struct ByName<'a> {
    name: &'a str,
}

/// The agents' containers in our state, and the browser's.
struct Browser;

impl Identities for Browser {
    fn own(&self, agent: &AgentId) -> Option<Jar> {
        with_state(|s| s.containers.get(agent).cloned())
    }

    fn keep_own(&self, agent: &AgentId, jar: Jar) {
        with_state(|s| s.containers.insert(agent.clone(), jar));
    }

    async fn create(&self, identity: &NewIdentity) -> Result<Jar, ErrorBody> {
        web::call_as(web::contextual_identities_create(&web::to_js(identity))).await
    }

    async fn named(&self, name: &str) -> Result<Vec<Jar>, ErrorBody> {
        web::call_as(web::contextual_identities_query(&web::to_js(&ByName {
            name,
        })))
        .await
    }
}

/// The cookie jar an agent's new tab opens in (None: the user's default one).
pub async fn jar_for(
    agent: &AgentId,
    choice: Option<&Container>,
) -> Result<Option<Jar>, ErrorBody> {
    jars::jar_for(&Browser, agent, choice).await
}

/// The agent's own container is kept past its last tab.
pub fn keep(agent: &AgentId) {
    with_state(|s| s.containers.get_mut(agent).map(|jar| jar.keep = true));
}

/// Removes the agent's own container, with its cookies, once it has no tab left — unless it
/// asked to keep it and is not `leaving` ([`jars::removable`]).
pub async fn release(agent: &AgentId, leaving: bool) {
    let Some(jar) = with_state(|s| {
        let tabs_left = !s.pool.owned_by(agent).is_empty();
        let jar = s.containers.get(agent)?;
        jars::removable(jar, tabs_left, leaving)
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
