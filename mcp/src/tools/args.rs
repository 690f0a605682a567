//! Tool arguments: a protocol argument struct plus the `timeout` every tool takes.

use std::borrow::Cow;

use claudezilla_protocol::validate::Invalid;
use claudezilla_protocol::validate::{MAX_TIMEOUT_MS, MIN_TIMEOUT_MS};
use claudezilla_protocol::{ErrorBody, ErrorCode};

use rmcp::schemars::{self, JsonSchema, Schema, SchemaGenerator};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::{Value, json};

/// `T`'s fields (unknown ones refused, so a misspelt `tabid` is an error, not a silent default)
/// and an optional `timeout` in ms.
#[derive(Debug)]
pub struct Args<T> {
    pub args: T,
    pub timeout: Option<u64>,
}

impl<T: DeserializeOwned> Args<T> {
    /// Reads a call's arguments; a refusal names the field and carries its code
    /// (`BAD_URL` for `url`, else `INVALID_ARGUMENT`) and a hint.
    pub fn parse(arguments: Value) -> Result<Self, ErrorBody> {
        let Value::Object(mut map) = arguments else {
            return Err(refused(
                ErrorCode::InvalidArgument,
                format!(
                    "the arguments are an object of named fields, not {}",
                    arguments.to_string().chars().take(80).collect::<String>()
                ),
            ));
        };
        let timeout = match map.remove("timeout") {
            None | Some(Value::Null) => None,
            Some(v) => Some(v.as_u64().ok_or_else(|| {
                refused(
                    ErrorCode::InvalidArgument,
                    format!(
                        "`timeout` must be a whole number of milliseconds between {MIN_TIMEOUT_MS} and {MAX_TIMEOUT_MS}, got {v}"
                    ),
                )
            })?),
        };
        // Name the field in errors ("tabId: invalid type …"), not just the type.
        let args = serde_path_to_error::deserialize(Value::Object(map)).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            let code = Invalid::code_of_words(&inner.to_string());
            let message = if path == "." {
                inner.to_string()
            } else {
                format!("{path}: {inner}")
            };
            refused(code, message)
        })?;
        Ok(Self { args, timeout })
    }
}

/// A tool's arguments as rmcp hands them over: read by [`Args::parse`], whose refusal stays an
/// `ErrorBody` the tool answers with (rmcp's own words for a failed read never reach the
/// agent, and nothing reads them back).
pub struct Checked<T>(pub Result<Args<T>, ErrorBody>);

impl<'de, T: DeserializeOwned> Deserialize<'de> for Checked<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Self(Args::parse(Value::deserialize(d)?)))
    }
}

impl<T: JsonSchema> JsonSchema for Checked<T> {
    fn schema_name() -> Cow<'static, str> {
        Args::<T>::schema_name()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        Args::<T>::json_schema(generator)
    }
}

/// Arguments the tool refuses, as its error reads.
fn refused(code: ErrorCode, message: String) -> ErrorBody {
    ErrorBody::new(code, message)
        .with_hint("check the field names and allowed values in the tool's input schema")
}

impl<T: JsonSchema> JsonSchema for Args<T> {
    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let timeout = json!({
            "type": "integer",
            "minimum": MIN_TIMEOUT_MS,
            "maximum": MAX_TIMEOUT_MS,
            "description": "ms",
        });
        with_properties(T::json_schema(generator), [("timeout", timeout)])
    }
}

/// `schema` with more properties (fields a wrapper takes off before the tool's own).
pub(crate) fn with_properties<const N: usize>(
    mut schema: Schema,
    added: [(&str, Value); N],
) -> Schema {
    let props = schema
        .ensure_object()
        .entry("properties")
        .or_insert_with(|| json!({}));
    if let Some(props) = props.as_object_mut() {
        for (name, property) in added {
            props.insert(name.into(), property);
        }
    }
    schema
}

/// For tools that take nothing but `timeout`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoArgs {}

/// A command that takes no arguments is sent with none.
impl From<NoArgs> for () {
    fn from(_: NoArgs) -> Self {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use claudezilla_protocol::args::{NavigateArgs, WaitForArgs};

    /// The error refused arguments read as.
    fn refusal<T: serde::de::DeserializeOwned + std::fmt::Debug>(args: Value) -> String {
        Args::<T>::parse(args).unwrap_err().to_string()
    }

    #[test]
    fn timeout_is_split_off_and_unknown_fields_refused() {
        let a =
            Args::<NavigateArgs>::parse(json!({"url": "about:blank", "tabId": 3, "timeout": 9000}))
                .unwrap();
        assert_eq!(
            (a.args.tab_id.map(|t| t.0), a.timeout),
            (Some(3), Some(9000))
        );
        let err = refusal::<NavigateArgs>(json!({"url": "about:blank", "tabid": 3}));
        assert!(err.contains("unknown field `tabid`"), "{err}");
        assert!(err.starts_with("INVALID_ARGUMENT: "), "{err}");
        let err = refusal::<NavigateArgs>(json!({"url": "about:blank", "tabId": "x"}));
        assert!(
            err.starts_with("INVALID_ARGUMENT: tabId: invalid type"),
            "{err}"
        );
        let err = refusal::<NavigateArgs>(json!({"url": "javascript:x"}));
        assert!(err.starts_with("BAD_URL: url: invalid `url`"), "{err}");
        // A refusal of `url` is BAD_URL wherever it is decided; a wrong type is not.
        let err = refusal::<NavigateArgs>(json!({}));
        assert!(
            err.starts_with("BAD_URL: invalid `url`: give either"),
            "{err}"
        );
        let err = refusal::<WaitForArgs>(json!({"url": 5}));
        assert!(
            err.starts_with("INVALID_ARGUMENT: url: invalid type"),
            "{err}"
        );
        let err = refusal::<NoArgs>(json!({"timeout": "soon"}));
        assert!(err.contains("`timeout` must be a whole number"), "{err}");
        assert!(Args::<NoArgs>::parse(json!({"timeout": -5})).is_err());
        // Whatever the read refuses is the tool's answer, never a failed read.
        let checked: Checked<NoArgs> = serde_json::from_value(json!([1, 2])).unwrap();
        let e = checked.0.unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        assert!(e.to_string().contains("an object of named fields"), "{e}");
    }

    #[test]
    fn schema_has_the_fields_and_timeout() {
        let schema = schemars::schema_for!(Args<NavigateArgs>);
        let v = serde_json::to_value(&schema).unwrap();
        assert_eq!(v["type"], "object");
        // An optional one is "or null" here; the server's tool list says only its type.
        assert_eq!(v["properties"]["tabId"]["type"], json!(["integer", "null"]));
        assert_eq!(v["properties"]["timeout"]["maximum"], 300000);
        assert_eq!(
            v["required"],
            json!(null),
            "url or action: neither is required alone"
        );
        let close = serde_json::to_value(schemars::schema_for!(
            Args<claudezilla_protocol::args::CloseTabArgs>
        ))
        .unwrap();
        assert_eq!(close["required"], json!(["tabId"]));
    }
}
