//! Identifiers that cross boundaries.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Correlates a response with its request on one hop. The host rewrites client ids into its own
/// so that ids from different clients never collide on the way to the extension.
pub type RequestId = u64;

/// A Firefox tab id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(transparent)]
pub struct TabId(pub u32);

impl fmt::Display for TabId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Who is asking: `agent_<32 hex digits>_<pid>`, one per MCP server process.
///
/// The full id is that process's secret (whoever presents it acts as that agent), so it only
/// travels inside messages: `Display` and `Debug` show the short form, never the whole id.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct AgentId(String);

/// The string is not of the form `agent_<32 hex>_<pid>`. The input is not echoed: it may be
/// long, or a near miss of someone's id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "agent id must look like agent_<32 lowercase hex digits>_<pid> (got {len} bytes that do not)"
)]
pub struct BadAgentId {
    pub len: usize,
}

impl AgentId {
    /// Builds an id from 16 random bytes and a process id.
    pub fn new(random: [u8; 16], pid: u32) -> Self {
        let hex: String = random.iter().map(|b| format!("{b:02x}")).collect();
        Self(format!("agent_{hex}_{pid}"))
    }

    /// A stand-in owner made by the extension itself (for tabs whose agent has not come back
    /// since a restart). Its pid is 0, which no id from outside may have: nobody can present it.
    pub fn placeholder(fingerprint: [u8; 16]) -> Self {
        Self::new(fingerprint, 0)
    }

    pub fn is_placeholder(&self) -> bool {
        self.0.ends_with("_0")
    }

    /// The whole id, secret included: for the wire and for hashing, never for display.
    pub fn secret(&self) -> &str {
        &self.0
    }

    /// A short form for messages, logs and other agents: `agent_1a2b3c4d` (32 of 128 bits).
    pub fn short(&self) -> &str {
        // Always ASCII (checked on construction), so any byte index is a char boundary.
        &self.0[..SHORT_LEN]
    }
}

/// `agent_` and 8 hex digits.
const SHORT_LEN: usize = 14;

impl TryFrom<String> for AgentId {
    type Error = BadAgentId;

    fn try_from(s: String) -> Result<Self, Self::Error> {
        // Byte-wise, so that no input (multi-byte characters included) can split a character.
        let valid = s.as_bytes().strip_prefix(b"agent_").is_some_and(|rest| {
            let Some((hex, pid)) = rest.split_at_checked(32) else {
                return false;
            };
            hex.iter()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b))
                && pid.strip_prefix(b"_").is_some_and(|p| {
                    // No leading zero: pid 0 is the extension's own placeholders'.
                    !p.is_empty()
                        && p.len() <= 10
                        && p[0] != b'0'
                        && p.iter().all(u8::is_ascii_digit)
                })
        });
        if valid {
            Ok(Self(s))
        } else {
            Err(BadAgentId { len: s.len() })
        }
    }
}

impl From<AgentId> for String {
    fn from(id: AgentId) -> Self {
        id.0
    }
}

impl fmt::Display for AgentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.short())
    }
}

impl fmt::Debug for AgentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AgentId({})", self.short())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_id_round_trips_and_validates() {
        let id = AgentId::new([0xab; 16], 4242);
        assert_eq!(id.secret(), format!("agent_{}_4242", "ab".repeat(16)));
        assert_eq!(AgentId::try_from(id.secret().to_owned()), Ok(id.clone()));
        assert_eq!(id.short(), "agent_abababab");
        assert_eq!(
            id.to_string(),
            "agent_abababab",
            "Display never shows the secret"
        );
        assert_eq!(format!("{id:?}"), "AgentId(agent_abababab)");
        let json = serde_json::to_string(&id).unwrap();
        assert_eq!(serde_json::from_str::<AgentId>(&json).unwrap(), id);
    }

    #[test]
    fn malformed_agent_ids_are_refused() {
        for bad in [
            "",
            "agent_",
            "agent_abc_1",
            &format!("agent_{}_", "a".repeat(32)),
            &format!("agent_{}_12x", "a".repeat(32)),
            &format!("agent_{}_0", "a".repeat(32)),
            &format!("agent_{}_007", "a".repeat(32)),
            &format!("agent_{}_1", "A".repeat(32)),
            &format!("agent_{}_1", "g".repeat(32)),
            &format!("bot_{}_1", "a".repeat(32)),
            // Multi-byte characters where the hex or the pid should be: refused, no panic.
            &format!("agent_{}é_1", "a".repeat(31)),
            &format!("agent_{}_1", "é".repeat(16)),
            "agent_ééééééééééééééééééééééééééééééé",
            &format!("agent_{}_١٢", "a".repeat(32)),
        ] {
            assert!(
                AgentId::try_from(bad.to_string()).is_err(),
                "{bad:?} accepted"
            );
            assert!(serde_json::from_str::<AgentId>(&format!("{bad:?}")).is_err());
        }
    }
}
