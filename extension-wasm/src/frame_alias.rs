//! Frame ids are large numbers; refs name frames by a short per-tab alias instead (`f1e3`):
//! alias `n` is the `n`th frame of the tab seen, 0 the top document.

use std::collections::HashMap;

use claudezilla_protocol::{ErrorBody, ErrorCode, TabId};

#[derive(Debug, Default)]
pub struct FrameAliases(HashMap<TabId, Vec<u64>>);

impl FrameAliases {
    /// The alias of `frame` in `tab`, given now if it has none.
    pub fn alias(&mut self, tab: TabId, frame: u64) -> u32 {
        let known = self.0.entry(tab).or_default();
        let at = known.iter().position(|f| *f == frame).unwrap_or_else(|| {
            known.push(frame);
            known.len() - 1
        });
        at as u32 + 1
    }

    /// The frame an alias names.
    pub fn frame(&self, tab: TabId, alias: u32) -> Result<u64, ErrorBody> {
        if alias == 0 {
            return Ok(0);
        }
        self.0
            .get(&tab)
            .and_then(|f| f.get(alias as usize - 1))
            .copied()
            .ok_or_else(|| {
                ErrorBody::new(
                    ErrorCode::ElementNotFound,
                    format!("frame f{alias} is unknown in tab {tab}"),
                )
                .with_hint("call firefox_snapshot again and use the new refs")
            })
    }

    /// The tab is gone: its aliases with it.
    pub fn forget(&mut self, tab: TabId) {
        self.0.remove(&tab);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_are_stable_per_tab_and_zero_is_the_top() {
        let mut a = FrameAliases::default();
        let (one, two) = (TabId(1), TabId(2));
        assert_eq!(a.alias(one, 40_000_000_001), 1);
        assert_eq!(a.alias(one, 40_000_000_002), 2);
        assert_eq!(
            a.alias(one, 40_000_000_001),
            1,
            "the same frame, the same alias"
        );
        assert_eq!(a.alias(two, 40_000_000_002), 1, "each tab counts its own");
        assert_eq!(a.frame(one, 2).unwrap(), 40_000_000_002);
        assert_eq!(a.frame(one, 0).unwrap(), 0);
        let e = a.frame(one, 3).unwrap_err();
        assert_eq!(e.code, ErrorCode::ElementNotFound);
        assert_eq!(e.message, "frame f3 is unknown in tab 1");
        a.forget(one);
        assert!(a.frame(one, 1).is_err());
        assert_eq!(a.frame(two, 1).unwrap(), 40_000_000_002);
    }
}
