//! Arguments as they leave the MCP server, with what only it may fill in: a secret's value
//! and sites, a file's bytes, a saved state, the downloads it moved. The agent's forms
//! (`TypeArgs`, `UploadFileArgs`, …) have no field for any of these, so an agent cannot write
//! one; these forms cannot be built without them, so none reaches the extension unfilled.
//! (Two phases of one call, as ripgrep's `LowArgs` become `HiArgs`.)

use serde::{Deserialize, Deserializer, Serialize};

use super::downloads::MAX_PATH;
use super::storage::MAX_KEY;
use super::{
    DownloadsArgs, ElementTarget, FileData, FilledSecret, MAX_DOWNLOADS, MAX_FORM_FIELDS,
    MAX_SAVED, MAX_STORED_VALUE, MAX_TYPE_TEXT, MovedDownload, SavedState, UploadFileArgs,
    Validate, check_len, refuse_if,
};
use crate::TabId;
use crate::validate::{self, Invalid};

/// What the content script types: text, or a secret the MCP server filled in (checked
/// against the frame's site before a key goes in).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Typing {
    Text(String),
    Secret(FilledSecret),
}

/// What the content script sets one form field to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum FieldEntry {
    Checked(bool),
    Typed(#[serde(deserialize_with = "bounded")] Typing),
}

/// A typed text within the length an agent may type.
fn bounded<'de, D: Deserializer<'de>>(d: D) -> Result<Typing, D::Error> {
    let typing = Typing::deserialize(d)?;
    if let Typing::Text(text) = &typing {
        check_len("text", text, MAX_TYPE_TEXT).map_err(serde::de::Error::custom)?;
    }
    Ok(typing)
}

/// `firefox_type`, its secret filled in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResolvedType {
    pub target: ElementTarget,
    #[serde(deserialize_with = "bounded")]
    pub text: Typing,
    pub clear: bool,
    pub tab_id: Option<TabId>,
}

/// `firefox_fill_form`, its secrets filled in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, remote = "Self")]
pub struct ResolvedForm {
    pub fields: Vec<(ElementTarget, FieldEntry)>,
    pub tab_id: Option<TabId>,
}

checked_serde!(ResolvedForm);

impl Validate for ResolvedForm {
    fn validate(&self) -> Result<(), Invalid> {
        refuse_if(
            self.fields.is_empty() || self.fields.len() > MAX_FORM_FIELDS,
            "fields",
            format!("give between 1 and {} fields", MAX_FORM_FIELDS),
        )
    }
}

/// `firefox_upload_file` with the file's bytes, read inside the folders the user allowed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResolvedUpload {
    pub args: UploadFileArgs,
    pub file: FileData,
}

/// `firefox_downloads` with the downloads the MCP server moved since it last looked (none
/// the first time): the browser deletes its copies of those, and lists where each is now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, remote = "Self")]
pub struct ResolvedDownloads {
    pub args: DownloadsArgs,
    pub moved: Vec<MovedDownload>,
}

checked_serde!(ResolvedDownloads);

impl Validate for ResolvedDownloads {
    fn validate(&self) -> Result<(), Invalid> {
        refuse_if(
            self.moved.len() > MAX_DOWNLOADS,
            "moved",
            format!("names more than {MAX_DOWNLOADS} downloads"),
        )?;
        self.moved
            .iter()
            .try_for_each(|m| check_len("moved", &m.path, MAX_PATH))
    }
}

/// A saved state to plant (`firefox_storage_state` load), read by the MCP server from the
/// agent's file: checked where it is read, and again where it arrives.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, remote = "Self")]
pub struct StateToLoad {
    state: SavedState,
}

checked_serde!(StateToLoad);

impl TryFrom<SavedState> for StateToLoad {
    type Error = Invalid;

    fn try_from(state: SavedState) -> Result<Self, Invalid> {
        let checked = Self { state };
        checked.validate()?;
        Ok(checked)
    }
}

impl StateToLoad {
    pub fn into_state(self) -> SavedState {
        self.state
    }
}

impl Validate for StateToLoad {
    /// Refused as the file's (`path`): that is where the agent can fix it.
    fn validate(&self) -> Result<(), Invalid> {
        let state = &self.state;
        refuse_if(
            state.cookies.len() > MAX_SAVED || state.origins.len() > MAX_SAVED,
            "path",
            format!("holds more than {MAX_SAVED} cookies or origins"),
        )?;
        for c in &state.cookies {
            validate::url("path", &c.url)?;
            check_len("path", &c.name, MAX_KEY)?;
            check_len("path", &c.value, MAX_STORED_VALUE)?;
        }
        for o in &state.origins {
            validate::url("path", &o.origin)?;
            refuse_if(
                o.local_storage.len() > MAX_SAVED,
                "path",
                format!("{} holds more than {MAX_SAVED} entries", o.origin),
            )?;
            for (k, v) in &o.local_storage {
                check_len("path", k, MAX_KEY)?;
                check_len("path", v, MAX_STORED_VALUE)?;
            }
        }
        Ok(())
    }
}
