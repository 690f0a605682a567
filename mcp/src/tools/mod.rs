//! The tools, one module per group. Each tool turns its arguments into a protocol
//! [`claudezilla_protocol::Command`], runs it through [`crate::server::Claudezilla::run`], and
//! renders the typed reply as text (or an image) for the model.

/// Declares tools that send one command and render its answer: each entry is the whole tool
/// (its name, description, argument type, the command it sends and how each expected reply
/// reads), and the one fallback arm turns a reply the command never gives into `INTERNAL`.
///
/// ```text
/// fn_name "tool_name" (ArgsType) "description" => CommandConstructor;
///     Reply::Pattern { .. } => rendered_tool_result,
/// ```
macro_rules! browser_tools {
    ($router:ident; $(
        $fn_name:ident $name:tt ($args:ty) $description:tt => $command:expr;
            $($reply:pat => $render:expr),+ ;
    )*) => {
        #[rmcp::tool_router(router = $router, vis = "pub(crate)")]
        impl crate::server::Claudezilla {
            $(
                #[rmcp::tool(name = $name, description = $description)]
                async fn $fn_name(
                    &self,
                    rmcp::handler::server::wrapper::Parameters(a):
                        rmcp::handler::server::wrapper::Parameters<crate::tools::args::Args<$args>>,
                ) -> rmcp::model::CallToolResult {
                    #[allow(clippy::redundant_closure_call)]
                    let command = ($command)(a.args);
                    crate::tools::respond(self.run(command, a.timeout).await, |reply| match reply {
                        $( $reply => Ok($render), )+
                        other => Err(other),
                    })
                }
            )*
        }
    };
}

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
