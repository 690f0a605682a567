//! This process's agent identity.

use claudezilla_protocol::AgentId;

/// A fresh `agent_<32 hex>_<pid>` from 128 random bits.
pub fn new_agent_id() -> std::io::Result<AgentId> {
    let mut random = [0u8; 16];
    getrandom::fill(&mut random).map_err(std::io::Error::other)?;
    Ok(AgentId::new(random, std::process::id()))
}
