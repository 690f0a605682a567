//! The agent's session with the browser, below every tool: its link to the host, the folders
//! it may use, the user's secrets, its trace, and `Claudezilla::ask`, the one path every
//! tool's command takes. `crate::server` builds it with the tools' router and serves it.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use claudezilla_protocol::reply::Answer;
use claudezilla_protocol::{Asking, ErrorBody, ErrorCode, Reply, validate};
use rmcp::RoleServer;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::Tool;
use rmcp::service::Peer;

use crate::files::{self, Allowed};
use crate::link::HostLink;
use crate::secrets::Secrets;

/// How long the client may take to list its roots.
const ROOTS_TIMEOUT: Duration = Duration::from_secs(5);

/// Where files may be read and written: the client's roots (asked once, again when they
/// change), else the working directory; plus the folders the user named, and where
/// downloads land.
pub struct Folders {
    options: files::Options,
    cwd: PathBuf,
    roots: tokio::sync::Mutex<Option<Vec<PathBuf>>>,
}

impl Folders {
    pub fn new(options: files::Options, cwd: PathBuf) -> Self {
        Self {
            options,
            cwd,
            roots: tokio::sync::Mutex::new(None),
        }
    }

    /// The client's roots changed: asked again at the next call that needs them.
    pub(crate) async fn forget_roots(&self) {
        *self.roots.lock().await = None;
    }
}

#[derive(Clone)]
pub struct Claudezilla {
    pub(crate) link: Arc<HostLink>,
    pub(crate) folders: Arc<Folders>,
    /// The user's secrets: filled into the commands that name them, hidden from every answer.
    pub(crate) secrets: Arc<Secrets>,
    /// This agent's trace, while one is recording (`firefox_trace`).
    pub(crate) trace: Arc<tokio::sync::Mutex<Option<crate::trace::Trace>>>,
    pub(crate) tool_router: ToolRouter<Self>,
    /// `tools/list`, computed once and trimmed of schema noise (every token counts).
    pub(crate) listed: Arc<Vec<Tool>>,
}

impl Claudezilla {
    /// The folders files may be read from and written to, for this call.
    pub(crate) async fn allowed(&self, peer: &Peer<RoleServer>) -> Allowed {
        let mut cached = self.folders.roots.lock().await;
        if cached.is_none() {
            *cached = Some(client_roots(peer).await);
        }
        let roots = cached.clone().unwrap_or_default();
        let base = if roots.is_empty() {
            vec![self.folders.cwd.clone()]
        } else {
            roots
        };
        let named = self.folders.options.allow_dirs.iter().cloned();
        Allowed::new(base.into_iter().chain(named))
            .with_downloads(self.folders.options.downloads_dir.clone())
    }

    /// The one path every tool takes (its arguments were checked as they were parsed): the
    /// timeout's range, then the browser, then the reply as the command's own answer type.
    pub(crate) async fn ask<A: Asking>(
        &self,
        args: A::Args,
        timeout: Option<u64>,
    ) -> Result<A::Answer, ErrorBody> {
        let timeout_ms = validate::timeout(timeout)?;
        let reply = self.link.call(A::command(args), timeout_ms).await?;
        A::Answer::from_reply(reply).map_err(unexpected_reply)
    }
}

/// The client's `file://` roots, if it has roots and answers in time (protocol versions that
/// forbid server-to-client requests answer an error: the working directory then stands in).
/// Roots are deprecated in the newest MCP revision (SEP-2577) but are what older clients send.
#[allow(deprecated)]
async fn client_roots(peer: &Peer<RoleServer>) -> Vec<PathBuf> {
    let has_roots = peer
        .peer_info()
        .is_some_and(|info| info.capabilities.roots.is_some());
    if !has_roots {
        return Vec::new();
    }
    let listed = tokio::time::timeout(ROOTS_TIMEOUT, peer.list_roots()).await;
    match listed {
        Ok(Ok(result)) => result
            .roots
            .iter()
            .filter_map(|r| files::root_path(&r.uri))
            .collect(),
        Ok(Err(e)) => {
            tracing::info!("the client did not list its roots: {e}");
            Vec::new()
        }
        Err(_) => {
            tracing::warn!("the client did not list its roots within {ROOTS_TIMEOUT:?}");
            Vec::new()
        }
    }
}

/// The extension answered with a reply its command never gives: a bug on our side, said
/// here, in the one place a reply becomes its command's answer type.
fn unexpected_reply(reply: Reply) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::Internal,
        format!("unexpected reply from the extension: {reply:?}"),
    )
}
