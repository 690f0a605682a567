//! Pictures of pages.

use base64::Engine;
use claudezilla_protocol::args::ScreenshotArgs;
use claudezilla_protocol::reply::{ImageMime, Screenshot};
use claudezilla_protocol::{ErrorBody, ErrorCode, asks};
use rmcp::model::{CallToolResult, ContentBlock};

use super::{Context, Given, failed, respond, text};
use crate::files::{SaveTarget, Written};
use crate::session::Claudezilla;

browser_tools! { screenshot_router;
    screenshot "firefox_screenshot" (ScreenshotArgs) => with capture, "JPEG of your tab after the page settles, without switching tabs. purpose presets size and quality; fullPage, or one element (selector/ref); annotate numbers controls with their refs; savePath writes a file instead.";
}

impl Claudezilla {
    async fn capture(&self, a: Given<ScreenshotArgs>, context: Context) -> CallToolResult {
        // The destination is checked before the capture, and written by this process: only
        // inside the allowed folders.
        let target = match &a.args.save_path {
            Some(path) => match self.allowed(&context.peer).await.prepare_save(
                path,
                a.args.overwrite,
                Written::Screenshot,
            ) {
                Ok(target) => Some(target),
                Err(e) => return failed(e),
            },
            None => None,
        };
        let shot = self.ask::<asks::Screenshot>(a.args, a.timeout).await;
        match target {
            Some(target) => respond(shot.and_then(|s| save(s, target)), text),
            None => respond(shot, render),
        }
    }
}

/// Writes the picture to `target`; the answer says where, and how big.
fn save(shot: Screenshot, target: SaveTarget) -> Result<String, ErrorBody> {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(&shot.data)
        .map_err(|e| ErrorBody::new(ErrorCode::Internal, format!("screenshot data: {e}")))?;
    let path = target.write(&bytes)?;
    Ok(format!(
        "Saved {}×{}, {} KB to {}.{}",
        shot.width,
        shot.height,
        bytes.len() / 1000,
        path.display(),
        lines(&shot.notes)
    ))
}

fn lines(notes: &[String]) -> String {
    notes.iter().map(|n| format!("\n{n}")).collect()
}

fn render(s: Screenshot) -> CallToolResult {
    let kind = if s.mime == ImageMime::Png {
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
    caption.push_str(&format!(
        "\nTo click what you see at image pixel (px, py): firefox_click {{x: {} + px / {:.4}, y: {} + py / {:.4}}}.",
        s.origin[0].round(),
        s.scale,
        s.origin[1].round(),
        s.scale
    ));
    if !s.marks.is_empty() {
        caption.push_str("\nNumbered elements (use the ref with firefox_click etc.):");
        for (n, what) in &s.marks {
            caption.push_str(&format!("\n{n}: {what}"));
        }
    }
    CallToolResult::success(vec![
        ContentBlock::text(caption),
        ContentBlock::image(s.data, s.mime.as_str()),
    ])
}
