//! Each agent's own settings (`firefox_set_config`): its allowlist, which may only narrow the
//! user's ([`crate::allowlist::narrow`]), and whether consent banners are dismissed after each
//! load; what the answer says. Over plain data: the agents' settings by agent, which the
//! background keeps (`background/config.rs`).

use std::collections::HashMap;

use claudezilla_protocol::args::SetConfigArgs;
use claudezilla_protocol::reply;
use claudezilla_protocol::{AgentId, ErrorBody};

use crate::allowlist;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AgentConfig {
    pub allowed_domains: Vec<String>,
    pub handle_consent: bool,
}

/// Applies `a` to `agent`'s settings under the `user`'s list in force. What `a` leaves out
/// stays as it was; a list that would widen the user's changes nothing.
pub fn set(
    configs: &mut HashMap<AgentId, AgentConfig>,
    agent: &AgentId,
    user: &[String],
    a: SetConfigArgs,
) -> Result<reply::Config, ErrorBody> {
    let narrowed = a
        .allowed_domains
        .map(|d| allowlist::narrow(user, d))
        .transpose()?;
    let c = configs.entry(agent.clone()).or_default();
    if let Some(domains) = narrowed {
        c.allowed_domains = domains;
    }
    if let Some(on) = a.handle_consent {
        c.handle_consent = on;
    }
    Ok(reply::Config {
        allowed_domains: c.allowed_domains.clone(),
        handle_consent: c.handle_consent,
        user_domains: user.to_vec(),
    })
}

#[cfg(test)]
mod tests;
