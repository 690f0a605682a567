//! Pictures of pages.

use claudezilla_protocol::args::ScreenshotArgs;
use claudezilla_protocol::reply::Screenshot;
use claudezilla_protocol::{Command, Reply};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{tool, tool_router};

use super::args::Args;
use super::{respond, text};
use crate::server::Claudezilla;

#[tool_router(router = screenshot_router, vis = "pub(crate)")]
impl Claudezilla {
    #[tool(
        name = "firefox_screenshot",
        description = "JPEG of your tab after the page settles, without switching tabs. purpose presets size and quality; fullPage, or one element (selector/ref); annotate numbers controls with their refs; savePath writes a file instead."
    )]
    async fn screenshot(&self, Parameters(a): Parameters<Args<ScreenshotArgs>>) -> CallToolResult {
        respond(
            self.run(Command::Screenshot(a.args), a.timeout).await,
            |reply| match reply {
                Reply::Screenshot(s) => Ok(render(s)),
                Reply::Saved {
                    path,
                    bytes,
                    width,
                    height,
                    notes,
                } => Ok(text(format!(
                    "Saved {width}×{height}, {} KB to {path}.{}",
                    bytes / 1000,
                    lines(&notes)
                ))),
                other => Err(other),
            },
        )
    }
}

fn lines(notes: &[String]) -> String {
    notes.iter().map(|n| format!("\n{n}")).collect()
}

fn render(s: Screenshot) -> CallToolResult {
    let kind = if s.mime == "image/png" {
        "PNG".to_owned()
    } else {
        format!("JPEG q{}", s.quality)
    };
    let mut caption = format!(
        "Screenshot of tab {}: {}×{} {kind} at scale {:.2}, {} KB.{}",
        s.tab_id,
        s.width,
        s.height,
        s.scale,
        s.data.len() * 3 / 4 / 1000,
        lines(&s.notes)
    );
    if !s.marks.is_empty() {
        caption.push_str("\nNumbered elements (use the ref with firefox_click etc.):");
        for (n, what) in &s.marks {
            caption.push_str(&format!("\n{n}: {what}"));
        }
    }
    CallToolResult::success(vec![
        ContentBlock::text(caption),
        ContentBlock::image(s.data, s.mime),
    ])
}
