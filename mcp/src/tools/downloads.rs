//! `firefox_downloads`: what the agent's pages downloaded, moved into its project.

use std::path::Path;

use claudezilla_protocol::args::{DownloadsArgs, MovedDownload, ResolvedDownloads};
use claudezilla_protocol::reply::{DownloadInfo, DownloadState, Downloads as Listed};
use claudezilla_protocol::{ErrorBody, asks};
use rmcp::model::CallToolResult;

use super::{Context, Given, failed, respond, text};
use crate::files::{Allowed, Downloads, Taken};
use crate::session::Claudezilla;

browser_tools! { downloads_router;
    downloads "firefox_downloads" (DownloadsArgs) => with list_and_move, "Files your pages downloaded (state, size, type); finished ones move into your project (saveTo).";
}

impl Claudezilla {
    async fn list_and_move(&self, a: Given<DownloadsArgs>, context: Context) -> CallToolResult {
        let allowed = self.allowed(&context.peer).await;
        // Only under the downloads folder, apart from the project's own files, so a page
        // cannot drop a `build.rs` or a git hook where tools would run it.
        let folder = match allowed.downloads_folder(a.args.save_to.as_deref()) {
            Ok(folder) => folder,
            Err(e) => return failed(e),
        };
        let look = ResolvedDownloads {
            args: a.args,
            moved: Vec::new(),
        };
        let downloads = match self.ask::<asks::Downloads>(look, a.timeout).await {
            Ok(Listed { downloads }) => downloads,
            Err(e) => return failed(e),
        };
        let (moved, notes) = take_finished(&allowed, &folder, &downloads);
        if moved.is_empty() {
            return text(render(&downloads, &notes));
        }
        // The browser deletes its copies of what was moved, and lists where each is now.
        let told = ResolvedDownloads {
            args: DownloadsArgs::default(),
            moved,
        };
        respond(
            self.ask::<asks::Downloads>(told, None).await,
            |Listed { downloads }| text(render(&downloads, &notes)),
        )
    }
}

/// Copies each finished download not moved yet into `folder`; what could not be, and what was
/// kept inert, in words.
fn take_finished(
    allowed: &Allowed,
    folder: &Downloads,
    downloads: &[DownloadInfo],
) -> (Vec<MovedDownload>, Vec<String>) {
    let mut moved = Vec::new();
    let mut notes = Vec::new();
    let finished = downloads
        .iter()
        .filter(|d| d.state == DownloadState::Complete && d.moved_to.is_none());
    for d in finished {
        match allowed.take_download(folder, Path::new(&d.file), d.bytes) {
            Ok(Taken { path, inert_for }) => {
                let path = path.display().to_string();
                if let Some(tool) = inert_for {
                    notes.push(inert_note(d.id, &d.file, &path, tool));
                }
                moved.push(MovedDownload { id: d.id, path });
            }
            Err(ErrorBody { message, .. }) => notes.push(format!("Not moved #{}: {message}", d.id)),
        }
    }
    (moved, notes)
}

/// Why a download has a name other than its own, and what the user does to use it.
fn inert_note(id: u32, file: &str, path: &str, tool: &str) -> String {
    let name = file.rsplit(['/', '\\']).next().unwrap_or(file);
    format!(
        "Kept #{id} inert as {path}: {tool} picks up a file named {name} by itself. Read it as it is; only the user renames it, if they mean it to run."
    )
}

fn render(downloads: &[DownloadInfo], notes: &[String]) -> String {
    if downloads.is_empty() {
        return "No downloads from your pages yet (wait: true waits for one to start and finish)."
            .into();
    }
    let mut out = format!("{} download(s), newest first:", downloads.len());
    for d in downloads {
        out.push('\n');
        out.push_str(&line(d));
    }
    for note in notes {
        out.push('\n');
        out.push_str(note);
    }
    out
}

fn line(d: &DownloadInfo) -> String {
    let name = d
        .moved_to
        .as_deref()
        .unwrap_or(&d.file)
        .rsplit('/')
        .next()
        .unwrap_or_default();
    let mime = if d.mime.is_empty() {
        "unknown type"
    } else {
        &d.mime
    };
    let state = match (d.state, d.total) {
        (DownloadState::Complete, _) => format!("complete, {} bytes, {mime}", d.bytes),
        (DownloadState::InProgress, Some(total)) => {
            format!("downloading, {} of {total} bytes, {mime}", d.bytes)
        }
        (DownloadState::InProgress, None) => {
            format!("downloading, {} bytes so far, {mime}", d.bytes)
        }
        (DownloadState::Interrupted, _) => format!(
            "interrupted ({})",
            d.error.as_deref().unwrap_or("no reason given")
        ),
    };
    let place = match &d.moved_to {
        Some(path) => format!("in your project: {path}"),
        None => format!("in the browser's folder: {}", d.file),
    };
    format!("#{} {name}: {state}; {place}; from {}", d.id, d.url)
}
