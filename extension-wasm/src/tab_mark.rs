//! The mark an agent tab carries in the browser's session store (it outlives the background's
//! state, so a restarted background re-adopts its tabs): the owner's fingerprint in hex, never
//! the agent's id itself (the store is written to disk).

use claudezilla_protocol::AgentId;

use crate::pool::fingerprint;

/// The mark of a tab `owner` drives.
pub fn of(owner: &AgentId) -> String {
    fingerprint(owner)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The fingerprint a mark holds; none for anything else (a store value may be anything).
pub fn parse(mark: &str) -> Option<[u8; 16]> {
    // Hex digits only: `from_str_radix` alone would take a sign ("+1").
    if mark.len() != 32 || !mark.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut out = [0; 16];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&mark[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn a_mark_reads_back_as_its_owners_fingerprint_and_hides_the_id() {
        let owner = AgentId::new([7; 16], 7);
        let mark = of(&owner);
        assert_eq!(mark.len(), 32);
        assert!(!mark.contains(owner.secret()), "{mark}");
        assert_eq!(parse(&mark), Some(fingerprint(&owner)));
        assert_eq!(parse(&mark.to_uppercase()), Some(fingerprint(&owner)));
    }

    #[test]
    fn anything_else_is_no_mark() {
        for bad in [
            "",
            "00",
            &"0".repeat(31),
            &"g".repeat(32),
            &"+1".repeat(16),
            &"é".repeat(16),
        ] {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
    }

    proptest! {
        /// Whatever a store holds, reading it never panics, and a mark it accepts is 32 hex digits.
        #[test]
        fn any_text_is_read_safely(text in "\\\\PC{0,40}") {
            if parse(&text).is_some() {
                prop_assert!(text.len() == 32 && text.bytes().all(|b| b.is_ascii_hexdigit()));
            }
        }
    }
}
