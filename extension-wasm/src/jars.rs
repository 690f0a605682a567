//! Which cookie jar an agent's new tab opens in (`jar_for`): the agent's own Firefox container
//! (made on first use), the user's session, or one of the user's containers by name — never
//! another agent's, whose names carry [`PREFIX`]; what the agent hears when Firefox has no
//! containers; and when an agent's own container goes (`removable`). Over [`Identities`],
//! which `background/containers.rs` implements with `contextualIdentities`.

use claudezilla_protocol::args::Container;
use claudezilla_protocol::{AgentId, ErrorBody, ErrorCode};
use serde::{Deserialize, Serialize};

/// Every agent container's name starts with this.
pub const PREFIX: &str = "Claudezilla ";

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

/// A container to make, as `contextualIdentities.create` takes it.
#[derive(Debug, PartialEq, Eq, Serialize)]
pub struct NewIdentity {
    pub name: String,
    pub color: &'static str,
    pub icon: &'static str,
}

/// What choosing a jar asks of the agents' containers and the browser's.
pub trait Identities {
    /// The agent's own container, once made.
    fn own(&self, agent: &AgentId) -> Option<Jar>;
    /// Remembers `jar` as the agent's own.
    fn keep_own(&self, agent: &AgentId, jar: Jar);
    fn create(&self, identity: &NewIdentity) -> impl Future<Output = Result<Jar, ErrorBody>>;
    /// The browser's containers named `name`.
    fn named(&self, name: &str) -> impl Future<Output = Result<Vec<Jar>, ErrorBody>>;
}

/// The cookie jar an agent's new tab opens in (None: the user's default one). Without a
/// choice, the agent's own container if it has one.
pub async fn jar_for<I: Identities>(
    ids: &I,
    agent: &AgentId,
    choice: Option<&Container>,
) -> Result<Option<Jar>, ErrorBody> {
    let own = ids.own(agent);
    match choice {
        None => Ok(own),
        Some(Container::User) => Ok(None),
        Some(Container::Own) => match own {
            Some(jar) => Ok(Some(jar)),
            None => create(ids, agent).await.map(Some),
        },
        Some(Container::Named(name)) => users(ids, name).await.map(Some),
    }
}

async fn create<I: Identities>(ids: &I, agent: &AgentId) -> Result<Jar, ErrorBody> {
    let identity = NewIdentity {
        name: format!("{PREFIX}{}", agent.short()),
        color: "purple",
        icon: "fingerprint",
    };
    let jar = ids.create(&identity).await.map_err(unavailable)?;
    ids.keep_own(agent, jar.clone());
    Ok(jar)
}

/// One of the user's own containers, by name.
async fn users<I: Identities>(ids: &I, name: &str) -> Result<Jar, ErrorBody> {
    if name.starts_with(PREFIX) {
        return Err(ErrorBody::new(
            ErrorCode::Ownership,
            format!("{name:?} is an agent's own container"),
        )
        .with_hint("use container \"own\" for a container of your own"));
    }
    let found = ids.named(name).await.map_err(unavailable)?;
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

/// An agent's own container goes, with its cookies, once the agent has no tab left — unless
/// it asked to keep it and is not `leaving`.
pub fn removable(jar: &Jar, tabs_left: bool, leaving: bool) -> bool {
    !tabs_left && (!jar.keep || leaving)
}

#[cfg(test)]
mod tests;
