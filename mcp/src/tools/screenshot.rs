//! Pictures of pages.

use claudezilla_protocol::args::ScreenshotArgs;
use claudezilla_protocol::{Command, Reply};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{tool, tool_router};

use super::args::Args;
use super::respond;
use crate::server::Claudezilla;

#[tool_router(router = screenshot_router, vis = "pub(crate)")]
impl Claudezilla {
    #[tool(
        name = "firefox_screenshot",
        description = "Capture what your tab shows as a JPEG image (half scale, quality 60)."
    )]
    async fn screenshot(&self, Parameters(a): Parameters<Args<ScreenshotArgs>>) -> CallToolResult {
        respond(
            self.run(Command::Screenshot(a.args), a.timeout).await,
            |reply| match reply {
                Reply::Screenshot(s) => {
                    let kib = s.data.len() * 3 / 4 / 1024;
                    let caption = format!(
                        "Screenshot of tab {}: {}×{} JPEG, {kib} KiB",
                        s.tab_id, s.width, s.height
                    );
                    Ok(CallToolResult::success(vec![
                        ContentBlock::text(caption),
                        ContentBlock::image(s.data, s.mime),
                    ]))
                }
                other => Err(other),
            },
        )
    }
}
