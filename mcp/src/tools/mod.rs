//! The tools, one module per group. Each tool turns its arguments into a protocol
//! [`claudezilla_protocol::Command`], runs it through `crate::session::Claudezilla::ask`, and
//! renders the typed reply as text (or an image) for the model.

/// Declares a group's tools, one entry each, as a table: its name, argument type, what it runs
/// and its description. A tool that sends one command names it (`asks::Click`: the command as
/// a type, paired with its answer's type) and renders that answer: its arms match the answer
/// type, so the compiler checks they cover every answer the command gives, and no other can
/// reach them. A tool that does more (files, several calls) names the method that does it,
/// `with method`.
///
/// A tool whose answer may go to a file instead (`outputFile`, [`output`]) says `whole`; one
/// whose arguments may name a secret says how they become the command's, the secret's value
/// filled in (`resolved by`).
///
/// ```text
/// fn_name "tool_name" (ArgsType) => asks::Command, "description"; Pattern => result;
/// fn_name "tool_name" (ArgsType) => asks::Command, resolved by resolve_fn, "description"; Pattern => result;
/// fn_name "tool_name" (ArgsType) => whole asks::Command, "description"; Pattern => result;
/// fn_name "tool_name" (ArgsType) => with method, "description";
/// ```
macro_rules! browser_tools {
    ($router:ident; $($entries:tt)*) => {
        browser_tools! { @munch $router [] $($entries)* }
    };
    (@munch $router:ident [$($done:tt)*]
        $fn_name:ident $name:literal ($args:ty) => with $method:ident, $description:literal;
        $($rest:tt)*) => {
        browser_tools! {
            @tool $router [$($done)*] $fn_name $name ($args) $description
            (self, a, context) { self.$method(a, context).await }
            $($rest)*
        }
    };
    (@munch $router:ident [$($done:tt)*]
        $fn_name:ident $name:literal ($args:ty) => whole $ask:ty, $description:literal;
        $($answer:pat => $render:expr),+ ;
        $($rest:tt)*) => {
        browser_tools! {
            @tool $router [$($done)*] $fn_name $name (crate::tools::output::ToFile<$args>) $description
            (self, a, context) {
                #[allow(clippy::match_single_binding)]
                self.answer_or_file::<$ask, _>(a, context, |answer: <$ask as claudezilla_protocol::Asking>::Answer| match answer {
                    $( $answer => $render, )+
                })
                .await
            }
            $($rest)*
        }
    };
    (@munch $router:ident [$($done:tt)*]
        $fn_name:ident $name:literal ($args:ty) => $ask:ty, resolved by $resolve:path, $description:literal;
        $($answer:pat => $render:expr),+ ;
        $($rest:tt)*) => {
        browser_tools! {
            @tool $router [$($done)*] $fn_name $name ($args) $description
            (self, a, _context) {
                let answer = match $resolve(&self.secrets, a.args) {
                    Ok(args) => self.ask::<$ask>(args, a.timeout).await,
                    Err(e) => Err(e),
                };
                #[allow(clippy::match_single_binding)]
                crate::tools::respond(answer, |answer| match answer {
                    $( $answer => $render, )+
                })
            }
            $($rest)*
        }
    };
    (@munch $router:ident [$($done:tt)*]
        $fn_name:ident $name:literal ($args:ty) => $ask:ty, $description:literal;
        $($answer:pat => $render:expr),+ ;
        $($rest:tt)*) => {
        browser_tools! {
            @tool $router [$($done)*] $fn_name $name ($args) $description
            (self, a, _context) {
                let answer = self.ask::<$ask>(a.args.into(), a.timeout).await;
                #[allow(clippy::match_single_binding)]
                crate::tools::respond(answer, |answer| match answer {
                    $( $answer => $render, )+
                })
            }
            $($rest)*
        }
    };
    // One tool method; the names its body uses come with it (macro hygiene).
    (@tool $router:ident [$($done:tt)*] $fn_name:ident $name:literal ($args:ty) $description:literal
        ($this:ident, $a:ident, $context:ident) $body:block $($rest:tt)*) => {
        browser_tools! { @munch $router [$($done)*
            #[rmcp::tool(name = $name, description = $description)]
            async fn $fn_name(
                &$this,
                rmcp::handler::server::wrapper::Parameters(checked):
                    rmcp::handler::server::wrapper::Parameters<crate::tools::args::Checked<$args>>,
                $context: crate::tools::Context,
            ) -> rmcp::model::CallToolResult {
                let $a = match checked.0 {
                    Ok(args) => args,
                    Err(refused) => return crate::tools::failed(refused),
                };
                $body
            }
        ] $($rest)* }
    };
    (@munch $router:ident [$($done:tt)*]) => {
        #[rmcp::tool_router(router = $router, vis = "pub(crate)")]
        impl crate::session::Claudezilla {
            $($done)*
        }
    };
}

/// A tool's arguments, as the methods behind `with` entries take them.
pub(crate) type Given<T> = args::Args<T>;
/// The call's context (the client's roots), for `with` entries.
pub(crate) type Context = rmcp::service::RequestContext<rmcp::RoleServer>;

pub mod args;
mod audit;
mod config;
mod devtools;
mod diagnostics;
mod downloads;
mod interaction;
mod loops;
mod navigation;
mod output;
mod pool;
mod reading;
mod screenshot;
mod storage;
mod tabs;
mod trace;

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::reply;
use rmcp::model::{CallToolResult, ContentBlock};

/// Renders a command's answer, or the error as a tool error the model can read.
pub(crate) fn respond<T>(
    outcome: Result<T, ErrorBody>,
    render: impl FnOnce(T) -> CallToolResult,
) -> CallToolResult {
    outcome.map_or_else(failed, render)
}

/// An error as a tool error the model can read.
pub(crate) fn failed(error: ErrorBody) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(error.to_string())])
}

/// Renders the plain "what happened" answers of actions.
pub(crate) fn acted(reply::Acted { what }: reply::Acted) -> CallToolResult {
    text(what)
}

/// An answer's text blocks, one after another (its pictures left out).
pub(crate) fn text_of(result: &CallToolResult) -> String {
    let texts: Vec<&str> = result
        .content
        .iter()
        .filter_map(|block| match block {
            ContentBlock::Text(t) => Some(t.text.as_str()),
            _ => None,
        })
        .collect();
    texts.join("\n")
}

pub(crate) fn text(s: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(s.into())])
}
