//! `outputFile`: a bulky answer written whole to a file instead of sent, and answered with its
//! path, size and first lines, so an agent can search a 200,000-character page rather than
//! read it. The file goes into `claudezilla-output/` of the project, apart from its own files,
//! under a name no runner picks up (`files::Written::Output`).

use std::borrow::Cow;

use claudezilla_protocol::args::{
    AuditArgs, ConsoleArgs, GetContentArgs, MAX_AUDIT_PER_RULE, MAX_MAX_LENGTH, NetworkArgs,
    SnapshotArgs,
};
use claudezilla_protocol::{Asking, reply};
use rmcp::model::CallToolResult;
use rmcp::schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value, json};

use super::{Context, Given, failed, respond, text, text_of};
use crate::files::Written;
use crate::session::Claudezilla;

/// Lines of the file shown in the answer.
const FIRST_LINES: usize = 12;
/// Characters of each line shown.
const LINE_CHARS: usize = 200;

/// `T`'s fields plus `outputFile` and `overwrite`.
#[derive(Debug)]
pub struct ToFile<T> {
    pub args: T,
    pub output_file: Option<String>,
    pub overwrite: bool,
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for ToFile<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut map = Map::<String, Value>::deserialize(d)?;
        let output_file = match map.remove("outputFile") {
            None | Some(Value::Null) => None,
            Some(Value::String(path)) => Some(path),
            Some(other) => {
                return Err(D::Error::custom(format!(
                    "outputFile: a file name such as \"page.txt\", got {other}"
                )));
            }
        };
        let overwrite = match map.remove("overwrite") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => b,
            Some(other) => {
                return Err(D::Error::custom(format!(
                    "overwrite: true or false, got {other}"
                )));
            }
        };
        let args = serde_json::from_value(Value::Object(map)).map_err(D::Error::custom)?;
        Ok(Self {
            args,
            output_file,
            overwrite,
        })
    }
}

impl<T: JsonSchema> JsonSchema for ToFile<T> {
    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let file = json!({"type": "string", "description": "Write it all to this .txt file in claudezilla-output/ instead; answers path, size, first lines."});
        let overwrite = json!({"type": "boolean", "description": "Replace outputFile."});
        super::args::with_properties(
            T::json_schema(generator),
            [("outputFile", file), ("overwrite", overwrite)],
        )
    }
}

/// Arguments whose answer (`A`) can go to a file: asked for all of it then.
pub trait Whole<A> {
    /// Asks for all of it, for the file at `path`.
    fn ask_all(&mut self, path: &str);
    /// The file's own form of the answer, where the file's kind has one; None: the answer's
    /// text.
    fn file_form(_answer: &A, _path: &str) -> Option<String> {
        None
    }
}

impl<A> Whole<A> for SnapshotArgs {
    fn ask_all(&mut self, _path: &str) {
        self.max_chars = MAX_MAX_LENGTH;
    }
}

impl<A> Whole<A> for GetContentArgs {
    fn ask_all(&mut self, _path: &str) {
        self.max_length = MAX_MAX_LENGTH;
    }
}

impl<A> Whole<A> for ConsoleArgs {
    fn ask_all(&mut self, _path: &str) {
        self.limit = claudezilla_protocol::args::MAX_CONSOLE_LIMIT;
    }
}

impl<A> Whole<A> for AuditArgs {
    fn ask_all(&mut self, _path: &str) {
        self.per_rule = MAX_AUDIT_PER_RULE;
    }
}

/// Is `path` a HAR file?
fn is_har(path: &str) -> bool {
    path.rsplit('.')
        .next()
        .is_some_and(|kind| kind.eq_ignore_ascii_case("har"))
}

impl Whole<reply::Network> for NetworkArgs {
    fn ask_all(&mut self, path: &str) {
        self.limit = claudezilla_protocol::args::MAX_NETWORK_LIMIT;
        // A HAR without headers would say little; bodies only where the agent asked.
        self.include_headers |= is_har(path);
    }

    fn file_form(answer: &reply::Network, path: &str) -> Option<String> {
        is_har(path).then(|| {
            serde_json::to_string_pretty(&crate::har::document(&answer.entries)).unwrap_or_default()
        })
    }
}

impl Claudezilla {
    /// Runs the command and renders its reply; with `outputFile`, asks for all of it, writes
    /// the rendered text (secrets hidden) to the file and answers with where and how much.
    pub(crate) async fn answer_or_file<A, T>(
        &self,
        a: Given<ToFile<T>>,
        context: Context,
        render: impl FnOnce(A::Answer) -> CallToolResult,
    ) -> CallToolResult
    where
        A: Asking<Args = T>,
        T: Whole<A::Answer>,
    {
        let ToFile {
            mut args,
            output_file,
            overwrite,
        } = a.args;
        let Some(path) = output_file else {
            return respond(self.ask::<A>(args, a.timeout).await, render);
        };
        // The destination is checked before the page is read.
        let allowed = self.allowed(&context.peer).await;
        let target = match allowed.prepare_save(&path, overwrite, Written::Output) {
            Ok(target) => target,
            Err(e) => return failed(e),
        };
        args.ask_all(&path);
        let answer = match self.ask::<A>(args, a.timeout).await {
            Ok(answer) => answer,
            Err(e) => return failed(e),
        };
        let whole = match T::file_form(&answer, &path) {
            Some(form) => form,
            None => {
                let rendered = render(answer);
                if rendered.is_error == Some(true) {
                    return rendered;
                }
                text_of(&rendered)
            }
        };
        // The file is no answer `call_tool` redacts: its secrets are hidden here.
        let whole = self.secrets.redact(&whole);
        match target.write(whole.as_bytes()) {
            Ok(written) => text(summary(&written.display().to_string(), &whole)),
            Err(e) => failed(e),
        }
    }
}

/// Where the answer went, how big it is, and how it starts.
fn summary(path: &str, whole: &str) -> String {
    let lines = whole.lines().count();
    let first: Vec<String> = whole
        .lines()
        .take(FIRST_LINES)
        .map(|l| crate::text::cap(l, LINE_CHARS))
        .collect();
    let more = lines.saturating_sub(FIRST_LINES);
    let rest = if more > 0 {
        format!("\n[… {more} more lines in the file]")
    } else {
        String::new()
    };
    format!(
        "Wrote {} characters ({lines} lines, {} bytes) to {path}. It begins:\n{}{rest}",
        whole.chars().count(),
        whole.len(),
        first.join("\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_file_and_overwrite_come_off_the_tools_own_arguments() {
        let a: ToFile<SnapshotArgs> = serde_json::from_value(
            json!({"outputFile": "page.txt", "overwrite": true, "maxChars": 500}),
        )
        .unwrap();
        assert_eq!(a.output_file.as_deref(), Some("page.txt"));
        assert!(a.overwrite);
        assert_eq!(a.args.max_chars, 500);
        let plain: ToFile<SnapshotArgs> = serde_json::from_value(json!({})).unwrap();
        assert_eq!((plain.output_file, plain.overwrite), (None, false));
        for bad in [
            json!({"outputFile": 3}),
            json!({"overwrite": "yes"}),
            json!({"outputfile": "x.txt"}),
        ] {
            assert!(
                serde_json::from_value::<ToFile<SnapshotArgs>>(bad.clone()).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn the_summary_says_where_how_much_and_how_it_starts() {
        let whole: String = (0..40)
            .map(|n| format!("line {n} {}\n", "é".repeat(300)))
            .collect();
        let said = summary("out/page.txt", &whole);
        assert!(
            said.starts_with("Wrote 12350 characters (40 lines, 24350 bytes) to out/page.txt."),
            "{said}"
        );
        assert!(
            said.contains("line 11") && !said.contains("line 12 "),
            "{said}"
        );
        assert!(said.ends_with("[… 28 more lines in the file]"), "{said}");
        assert!(said.len() < 12 * (LINE_CHARS * 2 + 20) + 200);
    }
}
