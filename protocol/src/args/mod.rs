//! The arguments of each command. They double as the MCP tools' input schemas (feature
//! `schema`): the names an agent writes (`tabId`, `maxLength`, `ref`, …) are the names on the
//! wire, and every check lives here, next to its field.
//!
//! One module per tool group; every type is re-exported here, so callers write `args::ClickArgs`.

use crate::TabId;
use crate::validate::{self, Invalid};

/// Declares an argument struct: the derives every one has, unknown fields refused, and its
/// checks ([`Validate`]) run as it is parsed, so no value of it that came from outside is
/// unchecked. (`remote = "Self"` makes the derives inherent functions the trait impls call.)
macro_rules! args_struct {
    ($(#[$meta:meta])* pub struct $name:ident { $($body:tt)* }) => {
        wire_struct! {
            @then [serde(remote = "Self")]
            $(#[$meta])*
            pub struct $name { $($body)* }
        }
        checked_serde!($name);
    };
}

/// Serde for a struct derived with `remote = "Self"`, its [`Validate`] run as it is parsed.
macro_rules! checked_serde {
    ($name:ident) => {
        impl Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                $name::serialize(self, s)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let parsed = $name::deserialize(d)?;
                Validate::validate(&parsed).map_err(serde::de::Error::custom)?;
                Ok(parsed)
            }
        }
    };
}

/// The derives of an argument struct as it is written on the wire: unknown fields refused, an
/// `Option` field optional (absent when none: `skip_serializing_none`; and in the schema).
macro_rules! wire_struct {
    ($(#[$meta:meta])* pub struct $name:ident { $($body:tt)* }) => {
        wire_struct! { @then [] $(#[$meta])* pub struct $name { $($body)* } }
    };
    (@then [$($after:meta)?] $(#[$meta:meta])* pub struct $name:ident { $($body:tt)* }) => {
        $(#[$meta])*
        #[serde_with_macros::skip_serializing_none]
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[serde(rename_all = "camelCase", deny_unknown_fields)]
        $(#[$after])?
        pub struct $name {
            $($body)*
        }
    };
}

/// [`args_struct!`] (or the maker named after `@with`: `element_args!` uses `wire_struct!`)
/// for a tool that acts on one of the agent's tabs: the optional `tabId` (default: the agent's
/// latest tab), written once.
macro_rules! tab_args {
    ($(#[$meta:meta])* pub struct $name:ident { $($body:tt)* }) => {
        tab_args! { @with args_struct $(#[$meta])* pub struct $name { $($body)* } }
    };
    (@with $make:ident $(#[$meta:meta])* pub struct $name:ident { $($body:tt)* }) => {
        $make! {
            $(#[$meta])*
            pub struct $name {
                $($body)*
                /// Default: latest tab.
                #[cfg_attr(feature = "schema", schemars(with = "Option<u32>"))]
                pub tab_id: Option<TabId>,
            }
        }
    };
}

/// Arguments that name one element. On the wire (and in the input schema) they are
/// `selector` (documented per tool) or `ref`; once parsed they are one typed `target`
/// ([`ElementTarget`], or `Option` when naming no element is allowed too), read in one place
/// ([`element::target`]), and the struct's own checks have run. `@part` makes a struct
/// without `tabId` whose two fields go undocumented (a part of another tool's arguments).
macro_rules! element_args {
    ($(#[$meta:meta])* pub struct $name:ident ($selector:literal $(, $optional:ident)?) {
        $($(#[$field_meta:meta])* pub $field:ident : $ty:ty,)*
    }) => {
        element_args! {
            @make [tab_args @with wire_struct] [doc = $selector] [doc = "Ref (e12) from firefox_snapshot."]
            [tab_id] $(#[$meta])* pub struct $name ($($optional)?)
            { $($(#[$field_meta])* pub $field : $ty,)* }
        }
    };
    (@part $(#[$meta:meta])* pub struct $name:ident {
        $($(#[$field_meta:meta])* pub $field:ident : $ty:ty,)*
    }) => {
        element_args! {
            @make [wire_struct] [] [] [] $(#[$meta])* pub struct $name ()
            { $($(#[$field_meta])* pub $field : $ty,)* }
        }
    };
    (@make [$make:ident $($pre:tt)*] [$($selector:meta)?] [$($reference:meta)?] [$($tab:ident)?]
        $(#[$meta:meta])* pub struct $name:ident ($($optional:ident)?)
        { $($(#[$field_meta:meta])* pub $field:ident : $ty:ty,)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq)]
        pub struct $name {
            /// The element named (selector or ref).
            pub target: element_args!(@target $($optional)?),
            $(pub $field: $ty,)*
            $(pub $tab: Option<TabId>,)?
        }

        // The wire form, private to these impls.
        const _: () = {
            $make! {
                $($pre)*
                $(#[$meta])*
                pub struct Wire {
                    $(#[$selector])?
                    pub selector: Option<Selector>,
                    $(#[$reference])?
                    #[serde(rename = "ref")]
                    #[cfg_attr(feature = "schema", schemars(with = "Option<String>"))]
                    pub element_ref: Option<ElementRef>,
                    $($(#[$field_meta])* pub $field : $ty,)*
                }
            }

            impl Serialize for $name {
                fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    let (selector, element_ref) = element::split(self.target.clone());
                    Wire {
                        selector,
                        element_ref,
                        $($field: self.$field.clone(),)*
                        $($tab: self.$tab,)?
                    }
                    .serialize(s)
                }
            }

            impl<'de> Deserialize<'de> for $name {
                fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    let wire = Wire::deserialize(d)?;
                    let parsed = $name {
                        target: element_args!(@read $($optional)?)(wire.selector, wire.element_ref)
                            .map_err(serde::de::Error::custom)?,
                        $($field: wire.$field,)*
                        $($tab: wire.$tab,)?
                    };
                    Validate::validate(&parsed).map_err(serde::de::Error::custom)?;
                    Ok(parsed)
                }
            }

            #[cfg(feature = "schema")]
            impl schemars::JsonSchema for $name {
                fn schema_name() -> std::borrow::Cow<'static, str> {
                    stringify!($name).into()
                }

                fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
                    Wire::json_schema(generator)
                }
            }
        };
    };
    (@target) => { ElementTarget };
    (@target optional) => { Option<ElementTarget> };
    (@read) => { element::target };
    (@read optional) => { element::optional_target };
}

/// A text argument that holds only valid values: made only through `TryFrom`, which runs
/// the check; it reads (`Deref`, `Display`, `Debug`) and travels (serde, the input schema) as
/// the text itself.
macro_rules! checked_text {
    ($(#[$meta:meta])* $name:ident($check:expr)) => {
        $(#[$meta])*
        #[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(try_from = "String", into = "String")]
        pub struct $name(String);

        impl $name {
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl TryFrom<String> for $name {
            type Error = Invalid;

            fn try_from(text: String) -> Result<Self, Invalid> {
                let check: fn(&str) -> Result<(), Invalid> = $check;
                check(&text)?;
                Ok(Self(text))
            }
        }

        impl TryFrom<&str> for $name {
            type Error = Invalid;

            fn try_from(text: &str) -> Result<Self, Invalid> {
                Self::try_from(text.to_owned())
            }
        }

        impl From<$name> for String {
            fn from(checked: $name) -> Self {
                checked.0
            }
        }

        impl std::ops::Deref for $name {
            type Target = str;

            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Debug::fmt(&self.0, f)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        #[cfg(feature = "schema")]
        impl schemars::JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                String::schema_name()
            }

            fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
                String::json_schema(generator)
            }

            fn inline_schema() -> bool {
                true
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
mod resolved;
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
pub use resolved::*;
pub use screenshot::*;
pub use secret::*;
pub use storage::*;
pub use tabs::*;

/// The checks of one argument struct, beyond what its fields' types hold. Every struct the
/// macros above write implements it (an empty impl where there is nothing more to check) and
/// runs it as it is parsed; the default checks nothing.
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
/// Most fields one `firefox_fill_form` sets.
pub const MAX_FORM_FIELDS: usize = 200;
/// Default size cap of a snapshot answer, in characters.
pub const DEFAULT_SNAPSHOT_CHARS: u32 = 40_000;
/// Largest file `firefox_upload_file` sends: its base64 must fit one 1 MiB native message.
pub const MAX_UPLOAD_BYTES: u64 = crate::framing::MAX_FILE_TO_EXTENSION as u64;
/// Longest expression `firefox_evaluate` runs.
pub const MAX_EXPRESSION: usize = 10_000;
/// Focus-loop limits.
pub const MAX_LOOP_ITERATIONS: u32 = 10_000;
pub const MAX_PROMISE: usize = 1_000;

fn about_blank() -> PageUrl {
    PageUrl::blank()
}

fn default_max_length() -> u32 {
    DEFAULT_MAX_LENGTH
}

/// Refuses `field` with `message` when `refused` holds.
fn refuse_if(
    refused: bool,
    field: &'static str,
    message: impl Into<String>,
) -> Result<(), Invalid> {
    match refused {
        true => Err(Invalid::new(field, message)),
        false => Ok(()),
    }
}

fn check_len(field: &'static str, text: &str, max: usize) -> Result<(), Invalid> {
    let chars = text.chars().count();
    refuse_if(
        chars > max,
        field,
        format!("is {chars} characters; at most {max} are allowed"),
    )?;
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
