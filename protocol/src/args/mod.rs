//! The arguments of each command. They double as the MCP tools' input schemas (feature
//! `schema`): the names an agent writes (`tabId`, `maxLength`, `ref`, …) are the names on the
//! wire, and every check lives here, next to its field.
//!
//! One module per tool group; every type is re-exported here, so callers write `args::ClickArgs`.

use crate::TabId;
use crate::validate::{self, Invalid};

/// Declares an argument struct: the derives every one has, unknown fields refused.
macro_rules! args_struct {
    ($(#[$meta:meta])* pub struct $name:ident { $($body:tt)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[serde(rename_all = "camelCase", deny_unknown_fields)]
        pub struct $name {
            $($body)*
        }
    };
}

/// [`args_struct!`] for a tool that acts on one of the agent's tabs: the optional `tabId`
/// (default: the agent's latest tab), written once.
macro_rules! tab_args {
    ($(#[$meta:meta])* pub struct $name:ident { $($body:tt)* }) => {
        args_struct! {
            $(#[$meta])*
            pub struct $name {
                $($body)*
                /// Default: latest tab.
                #[serde(default, skip_serializing_if = "Option::is_none")]
                #[cfg_attr(feature = "schema", schemars(with = "u32"))]
                pub tab_id: Option<TabId>,
            }
        }
    };
}

/// [`tab_args!`] for arguments that name one element: `selector` (documented per tool) or
/// `ref`, and the one `target()` that reads them together ([`element::target`]); `optional`
/// when naming no element is allowed too. `@with args_struct` makes a struct without `tabId`
/// whose two fields go undocumented (a part of another tool's arguments).
macro_rules! element_args {
    ($(#[$meta:meta])* pub struct $name:ident ($selector:literal $(, $optional:ident)?) { $($body:tt)* }) => {
        element_args! {
            @make tab_args [doc = $selector] [doc = "Ref (e12) from firefox_snapshot."]
            $(#[$meta])* pub struct $name ($($optional)?) { $($body)* }
        }
    };
    (@with $make:ident $(#[$meta:meta])* pub struct $name:ident { $($body:tt)* }) => {
        element_args! { @make $make [] [] $(#[$meta])* pub struct $name () { $($body)* } }
    };
    (@make $make:ident [$($selector:meta)?] [$($reference:meta)?]
        $(#[$meta:meta])* pub struct $name:ident ($($optional:ident)?) { $($body:tt)* }) => {
        $make! {
            $(#[$meta])*
            pub struct $name {
                $(#[$selector])?
                #[serde(default, skip_serializing_if = "Option::is_none")]
                #[cfg_attr(feature = "schema", schemars(with = "String"))]
                pub selector: Option<String>,
                $(#[$reference])?
                #[serde(default, rename = "ref", skip_serializing_if = "Option::is_none")]
                #[cfg_attr(feature = "schema", schemars(with = "String"))]
                pub element_ref: Option<ElementRef>,
                $($body)*
            }
        }
        element_args! { @target $name $($optional)? }
    };
    (@target $name:ident) => {
        impl $name {
            /// The element named: by selector or by ref, exactly one.
            pub fn target(&self) -> Result<ElementTarget, Invalid> {
                element::target(self.selector.as_deref(), self.element_ref)
            }
        }
    };
    (@target $name:ident optional) => {
        impl $name {
            /// The element named, if any (selector or ref, not both).
            pub fn target(&self) -> Result<Option<ElementTarget>, Invalid> {
                element::optional_target(self.selector.as_deref(), self.element_ref)
            }
        }
    };
}

mod activity;
mod config;
mod devtools;
mod downloads;
mod element;
mod interaction;
mod loops;
mod navigation;
mod reading;
mod screenshot;
mod secret;
mod storage;
mod tabs;
#[cfg(test)]
mod tests;

pub use activity::*;
pub use config::*;
pub use devtools::*;
pub use downloads::*;
pub use element::*;
pub use interaction::*;
pub use loops::*;
pub use navigation::*;
pub use reading::*;
pub use screenshot::*;
pub use secret::*;
pub use storage::*;
pub use tabs::*;

/// The checks of one command's arguments, beyond what their types hold. Every argument type
/// of a command implements it (the command's `validate` calls it, generated with the list of
/// commands); the default checks nothing.
pub trait Validate {
    fn validate(&self) -> Result<(), Invalid> {
        Ok(())
    }
}

/// Default and ceiling of `maxLength` for page text.
pub const DEFAULT_MAX_LENGTH: u32 = 50_000;
pub const MAX_MAX_LENGTH: u32 = 1_000_000;
/// Longest text `firefox_type` accepts (keeps every frame toward the extension far under 1 MiB).
pub const MAX_TYPE_TEXT: usize = 100_000;
/// Default size cap of a snapshot answer, in characters.
pub const DEFAULT_SNAPSHOT_CHARS: u32 = 40_000;
/// Largest file `firefox_upload_file` sends: its base64 must fit one 1 MiB native message.
pub const MAX_UPLOAD_BYTES: u64 = crate::framing::MAX_FILE_TO_EXTENSION as u64;
/// Longest expression `firefox_evaluate` runs.
pub const MAX_EXPRESSION: usize = 10_000;
/// Focus-loop limits.
pub const MAX_LOOP_ITERATIONS: u32 = 10_000;
pub const MAX_PROMISE: usize = 1_000;

fn about_blank() -> String {
    "about:blank".into()
}

fn default_max_length() -> u32 {
    DEFAULT_MAX_LENGTH
}

fn check_len(field: &'static str, text: &str, max: usize) -> Result<(), Invalid> {
    let chars = text.chars().count();
    if chars > max {
        return Err(Invalid::new(
            field,
            format!("is {chars} characters; at most {max} are allowed"),
        ));
    }
    Ok(())
}

fn d30() -> u32 {
    30
}
fn d50() -> u32 {
    50
}
fn d20() -> u32 {
    20
}
