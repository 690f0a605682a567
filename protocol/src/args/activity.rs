//! `firefox_get_activity`: what the agent itself did in the browser.

use serde::{Deserialize, Serialize};

use super::Validate;

args_struct! {
    /// Arguments of `firefox_get_activity`.
    pub struct ActivityArgs {
        /// Newest entries to list (default 50, at most 500).
        #[serde(default = "super::d50")]
        pub limit: u32,
    }
}

/// Most entries one answer lists.
pub const MAX_ACTIVITY: u32 = 500;

impl Validate for ActivityArgs {
    fn validate(&self) -> Result<(), crate::validate::Invalid> {
        crate::validate::within("limit", self.limit, 1..=MAX_ACTIVITY)
    }
}
