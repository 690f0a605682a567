//! The tools, one module per group. Each tool turns its arguments into a protocol
//! [`claudezilla_protocol::Command`], runs it through [`crate::server::Claudezilla::run`], and
//! renders the typed reply as text (or an image) for the model.

pub mod args;
mod config;
mod devtools;
mod diagnostics;
mod downloads;
mod interaction;
mod loops;
mod navigation;
mod pool;
mod reading;
mod screenshot;
mod storage;
mod tabs;

use claudezilla_protocol::{ErrorBody, ErrorCode, Reply};
use rmcp::model::{CallToolResult, ContentBlock};

/// Renders a successful reply, or the error as a tool error the model can read.
pub(crate) fn respond<T>(
    outcome: Result<T, ErrorBody>,
    render: impl FnOnce(T) -> Result<CallToolResult, Reply>,
) -> CallToolResult {
    match outcome.map(render) {
        Ok(Ok(result)) => result,
        Ok(Err(unexpected)) => failed(unexpected_reply(unexpected)),
        Err(e) => failed(e),
    }
}

/// An error as a tool error the model can read.
pub(crate) fn failed(error: ErrorBody) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(error.to_string())])
}

fn unexpected_reply(reply: Reply) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::Internal,
        format!("unexpected reply from the extension: {reply:?}"),
    )
}

/// Renders the plain "what happened" answers of actions.
pub(crate) fn acted(reply: Reply) -> Result<CallToolResult, Reply> {
    match reply {
        Reply::Acted { what } => Ok(text(what)),
        other => Err(other),
    }
}

pub(crate) fn text(s: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(s.into())])
}
