//! One `claudezilla-mcp` process, driven as an MCP client would drive it.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use rmcp::model::{CallToolRequestParams, ContentBlock, Tool};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value;

use crate::binary;

/// No step of a test should take this long (a tool call without `timeout` may wait 150 s):
/// past it the step hangs, and the failure says which.
const STEP_LIMIT: Duration = Duration::from_secs(45);

pub struct Agent {
    client: RunningService<RoleClient, ()>,
    pid: u32,
}

/// What a tool answered.
#[derive(Debug, Clone)]
pub struct ToolResult {
    pub text: String,
    /// (mime type, base64 data) of each image block.
    pub images: Vec<(String, String)>,
    pub is_error: bool,
}

impl ToolResult {
    /// The result, or an error carrying the tool's message.
    pub fn ok(self) -> anyhow::Result<Self> {
        if self.is_error {
            bail!("tool error: {}", self.text);
        }
        Ok(self)
    }

    /// The result when it is a tool error whose text starts with `code`.
    pub fn expect_error(&self, code: &str) -> anyhow::Result<&str> {
        if !self.is_error || !self.text.starts_with(code) {
            bail!("expected a {code} error, got: {self:?}");
        }
        Ok(&self.text)
    }

    /// The tab id in "Tab N …" answers.
    pub fn tab_id(&self) -> anyhow::Result<u32> {
        self.text
            .strip_prefix("Tab ")
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .with_context(|| format!("no tab id in {:?}", self.text))
    }
}

impl Agent {
    /// Starts a server for the given runtime dir; its stderr goes to `log`.
    pub async fn spawn(runtime_dir: &Path, log: &Path) -> anyhow::Result<Self> {
        Self::spawn_with(runtime_dir, log, &[]).await
    }

    /// [`spawn`](Self::spawn) with extra environment (e.g. `CLAUDEZILLA_HEARTBEAT_MS`). The
    /// server works in the log's folder (a test's temporary one): that is its project folder,
    /// where files may be read and written.
    pub async fn spawn_with(
        runtime_dir: &Path,
        log: &Path,
        env: &[(&str, &str)],
    ) -> anyhow::Result<Self> {
        let folder = log.parent().context("the log has no folder")?;
        Self::spawn_in(runtime_dir, log, env, folder).await
    }

    /// [`spawn_with`](Self::spawn_with) in a project folder of the test's choosing.
    pub async fn spawn_in(
        runtime_dir: &Path,
        log: &Path,
        env: &[(&str, &str)],
        project: &Path,
    ) -> anyhow::Result<Self> {
        Self::spawn_from(&binary("claudezilla-mcp"), runtime_dir, log, env, project).await
    }

    /// [`spawn_in`](Self::spawn_in) of the MCP server at `mcp` (another build's).
    pub async fn spawn_from(
        mcp: &Path,
        runtime_dir: &Path,
        log: &Path,
        env: &[(&str, &str)],
        project: &Path,
    ) -> anyhow::Result<Self> {
        let mut cmd = tokio::process::Command::new(mcp);
        cmd.current_dir(project)
            .env("CLAUDEZILLA_RUNTIME_DIR", runtime_dir)
            .envs(env.iter().copied());
        Self::spawn_command(cmd, log).await
    }

    /// The server `cmd` starts (another build, or one run under Wine), initialized over its
    /// stdio; its stderr goes to `log`.
    pub async fn spawn_command(
        mut cmd: tokio::process::Command,
        log: &Path,
    ) -> anyhow::Result<Self> {
        cmd.env("CLAUDEZILLA_LOG", "debug");
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)?;
        let (transport, _) = TokioChildProcess::builder(cmd)
            .stderr(Stdio::from(log))
            .spawn()?;
        let pid = transport.id().context("no pid")?;
        let client = tokio::time::timeout(STEP_LIMIT, ().serve(transport))
            .await
            .context("MCP initialize hung")?
            .context("MCP initialize")?;
        Ok(Self { client, pid })
    }

    pub fn pid(&self) -> u32 {
        self.pid
    }

    pub async fn tools(&self) -> anyhow::Result<Vec<Tool>> {
        Ok(self.client.list_all_tools().await?)
    }

    /// Opens `url` in a new tab (`firefox_create_window`) and returns the tab's id.
    pub async fn open(&self, url: &str) -> anyhow::Result<u32> {
        self.call("firefox_create_window", serde_json::json!({ "url": url }))
            .await?
            .ok()?
            .tab_id()
    }

    pub async fn call(&self, tool: &str, args: Value) -> anyhow::Result<ToolResult> {
        let Value::Object(args) = args else {
            bail!("arguments must be an object")
        };
        // The server answers within the call's own timeout; past that plus a margin it hangs.
        let limit = args
            .get("timeout")
            .and_then(Value::as_u64)
            .map_or(STEP_LIMIT, |ms| Duration::from_millis(ms) + STEP_LIMIT);
        let params = CallToolRequestParams::new(tool.to_owned()).with_arguments(args);
        let result = tokio::time::timeout(limit, self.client.call_tool(params))
            .await
            .with_context(|| format!("calling {tool}: no answer in {limit:?}"))?
            .with_context(|| format!("calling {tool}"))?;
        let mut text = Vec::new();
        let mut images = Vec::new();
        for block in result.content {
            match block {
                ContentBlock::Text(t) => text.push(t.text),
                ContentBlock::Image(i) => images.push((i.mime_type, i.data)),
                _ => {}
            }
        }
        Ok(ToolResult {
            text: text.join("\n"),
            images,
            is_error: result.is_error == Some(true),
        })
    }

    /// Closes the server's stdin as a client does at the end of a session; returns how long
    /// the server took to exit.
    pub async fn close(self) -> anyhow::Result<Duration> {
        let started = Instant::now();
        tokio::time::timeout(STEP_LIMIT, self.client.cancel())
            .await
            .context("closing the MCP server hung")??;
        Ok(started.elapsed())
    }

    /// Kills the server without letting it say goodbye.
    pub fn kill(&self) {
        // SAFETY: kill(2) on the child we spawned.
        unsafe { libc::kill(self.pid as i32, libc::SIGKILL) };
    }
}
