//! Reading pages.

use claudezilla_protocol::command::GetContentArgs;
use claudezilla_protocol::reply::PageContent;
use claudezilla_protocol::{Command, Reply};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{tool, tool_router};

use super::args::Args;
use super::{respond, text};
use crate::server::Claudezilla;

#[tool_router(router = reading_router, vis = "pub(crate)")]
impl Claudezilla {
    #[tool(
        name = "firefox_get_content",
        description = "Read the visible text of your tab, or of the element matching selector. Cut at maxLength."
    )]
    async fn get_content(&self, Parameters(a): Parameters<Args<GetContentArgs>>) -> CallToolResult {
        let max_length = a.args.max_length;
        respond(
            self.run(Command::GetContent(a.args), a.timeout).await,
            |reply| match reply {
                Reply::Content(c) => Ok(text(render_content(&c, max_length))),
                other => Err(other),
            },
        )
    }
}

fn render_content(c: &PageContent, max_length: u32) -> String {
    let mut out = format!("{} — {}\n\n{}", c.title, c.url, c.text);
    if c.truncated {
        out.push_str(&format!(
            "\n\n[Truncated: showing the first {max_length} of {} characters. Pass a larger maxLength, or a selector to read one part.]",
            c.total_length
        ));
    }
    out
}
