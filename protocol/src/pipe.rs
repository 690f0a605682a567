//! The Windows named pipe's name and access rule — plain text, so the rules are tested on every
//! platform.
//!
//! Pipe names are visible to every local user (`\\.\pipe\` can be listed), so the name is not
//! a secret once the pipe exists; what keeps another user from posing as the host is that the
//! name is fresh and random (written in the private runtime folder), the host creates it as the
//! first instance, and its access list admits only the user — so no one else can add an
//! instance. Clients still check that the pipe's owner is them (a host that crashed leaves a
//! stale name behind, which someone who listed it could take; they cannot make us its owner).

use std::fmt;

const PREFIX: &str = r"\\.\pipe\claudezilla-";
/// 128 random bits, hex.
const RANDOM_HEX: usize = 32;

/// `\\.\pipe\claudezilla-<32 lowercase hex>`: the only names a client will open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PipeName(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "not a Claudezilla pipe name (expected \\\\.\\pipe\\claudezilla- and 32 lowercase hex digits)"
)]
pub struct BadPipeName;

impl PipeName {
    /// A fresh name from 16 random bytes.
    pub fn from_random(random: [u8; 16]) -> Self {
        let hex: String = random.iter().map(|b| format!("{b:02x}")).collect();
        Self(format!("{PREFIX}{hex}"))
    }

    /// Reads a name back from the runtime folder's file: exactly the form [`Self::from_random`]
    /// writes, so a tampered file cannot point a client at another machine (`\\server\pipe\…`)
    /// or at another pipe of this one.
    pub fn parse(text: &str) -> Result<Self, BadPipeName> {
        let hex = text.trim().strip_prefix(PREFIX).ok_or(BadPipeName)?;
        let lower_hex = |c: u8| c.is_ascii_digit() || (b'a'..=b'f').contains(&c);
        if hex.len() != RANDOM_HEX || !hex.bytes().all(lower_hex) {
            return Err(BadPipeName);
        }
        Ok(Self(format!("{PREFIX}{hex}")))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for PipeName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The pipe's security descriptor in SDDL: owned by the user `sid` (which clients check), with
/// a protected access list (nothing inherited) that grants everything to that user and nothing
/// to anyone else. `None` unless `sid` has the form of a SID (`S-1-…`), so nothing else can be
/// spliced into the descriptor.
pub fn user_only_sddl(sid: &str) -> Option<String> {
    let mut parts = sid.split('-');
    let well_formed = parts.next() == Some("S")
        && parts.next() == Some("1")
        && parts.clone().count() >= 2
        && parts.all(|p| !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit()));
    well_formed.then(|| format!("O:{sid}D:P(A;;GA;;;{sid})"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_fresh_name_reads_back() {
        let name = PipeName::from_random([0xab; 16]);
        assert_eq!(
            name.as_str(),
            r"\\.\pipe\claudezilla-abababababababababababababababab"
        );
        assert_eq!(PipeName::parse(&format!("{name}\r\n")).unwrap(), name);
    }

    #[test]
    fn only_our_own_form_is_accepted() {
        let good = "0123456789abcdef0123456789abcdef";
        for bad in [
            String::new(),
            format!(r"\\server\pipe\claudezilla-{good}"),
            format!(r"\\.\pipe\other-{good}"),
            format!(r"\\.\pipe\claudezilla-{}", good.to_uppercase()),
            format!(r"\\.\pipe\claudezilla-{good}0"),
            format!(r"\\.\pipe\claudezilla-{}", &good[1..]),
            format!(r"\\.\pipe\claudezilla-{}\..\x", &good[..29]),
            format!(r"\\.\pipe\claudezilla-{good} x"),
        ] {
            assert_eq!(PipeName::parse(&bad), Err(BadPipeName), "{bad}");
        }
    }

    #[test]
    fn the_access_list_names_the_user_alone() {
        assert_eq!(
            user_only_sddl("S-1-5-21-1004336348-1177238915-682003330-1001").as_deref(),
            Some(
                "O:S-1-5-21-1004336348-1177238915-682003330-1001D:P(A;;GA;;;S-1-5-21-1004336348-1177238915-682003330-1001)"
            )
        );
        for bad in [
            "",
            "S-1",
            "S-1-5",
            "S-2-5-21",
            "S-1-5-21-)(A;;GA;;;WD",
            "S-1-5--1",
            "WD",
        ] {
            assert_eq!(user_only_sddl(bad), None, "{bad}");
        }
    }

    proptest! {
        #[test]
        fn any_random_bytes_make_a_name_that_parses(random in any::<[u8; 16]>()) {
            let name = PipeName::from_random(random);
            prop_assert_eq!(PipeName::parse(name.as_str()), Ok(name));
        }

        #[test]
        fn nothing_but_a_sid_reaches_the_descriptor(s in "[ -~]{0,40}") {
            if let Some(sddl) = user_only_sddl(&s) {
                prop_assert_eq!(sddl.matches('(').count(), 1);
                prop_assert!(s.bytes().all(|c| c.is_ascii_digit() || c == b'-' || c == b'S'));
            }
        }
    }
}
