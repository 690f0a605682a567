//! Tools that name a tab and nothing else.

use serde::{Deserialize, Serialize};

use super::*;

args_struct! {
    /// Arguments of `firefox_close_tab`.
    pub struct CloseTabArgs {
        /// The tab to close (one of yours).
        #[cfg_attr(feature = "schema", schemars(with = "u32"))]
        pub tab_id: TabId,
    }
}

tab_args! {
    /// Arguments of the tools that name one tab only.
    pub struct TabArgs {
    }
}

args_struct! {
    /// Arguments of `firefox_attach_tab` and `firefox_detach_tab`.
    pub struct AttachArgs {
        /// A tab from firefox_list_all_tabs.
        #[cfg_attr(feature = "schema", schemars(with = "u32"))]
        pub tab_id: TabId,
    }
}

/// Nothing to check beyond the types: ownership is the pool's.
impl Validate for CloseTabArgs {}
impl Validate for TabArgs {}
impl Validate for AttachArgs {}
