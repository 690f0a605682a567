//! `firefox_downloads`: the files an agent's pages downloaded, moved into its project.

use serde::{Deserialize, Serialize};

use super::{Validate, check_len, refuse_if};
use crate::validate::Invalid;

args_struct! {
    /// Arguments of `firefox_downloads`.
    #[derive(Default)]
    pub struct DownloadsArgs {
        /// Wait until they finish (at most timeout).
        #[serde(default)]
        pub wait: bool,
        /// A folder inside the downloads folder (default: downloads/ in your project).
        pub save_to: Option<String>,
    }
}

/// A finished download the MCP server copied into the allowed folders (the browser then
/// deletes its own copy).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MovedDownload {
    pub id: u32,
    /// Where the file is now (absolute).
    pub path: String,
}

/// Most downloads one answer lists (and one call moves).
pub const MAX_DOWNLOADS: usize = 50;
/// Longest `saveTo` or moved path.
pub(super) const MAX_PATH: usize = 4_096;

impl Validate for DownloadsArgs {
    fn validate(&self) -> Result<(), Invalid> {
        if let Some(folder) = &self.save_to {
            refuse_if(folder.is_empty(), "saveTo", "is empty")?;
            check_len("saveTo", folder, MAX_PATH)?;
        }
        Ok(())
    }
}
