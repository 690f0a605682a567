//! The Windows binaries, run under Wine as separate processes: `claudezilla-host.exe` started
//! as Firefox starts it (native messaging on its stdio, the manifest path and extension id as
//! arguments) with this test in the extension's place, `claudezilla-mcp.exe` driven over MCP
//! stdio, and `install`, `status` and `uninstall` against Wine's registry.
//!
//! Wine is not Windows, and there is no Firefox here: this proves the Windows build's own
//! parts work together (named pipe, owner check, async pipe client, stdio, registry), nothing
//! about Firefox for Windows. `cargo xtask test` runs it with `--ignored`, after the Windows unit
//! tests, with `CLAUDEZILLA_WINE` (the launcher) and `CLAUDEZILLA_WINDOWS_BIN` (the build).

use claudezilla_protocol::reply;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, ensure};
use claudezilla_e2e::Agent;
use claudezilla_protocol::codec::FrameCodec;
use claudezilla_protocol::framing::{MAX_SOCKET_FRAME, MAX_TO_EXTENSION};
use claudezilla_protocol::{
    EXTENSION_ID, ErrorBody, ErrorCode, FromExtension, Reply, Response, ToExtension,
};
use futures_util::{SinkExt, StreamExt};
use tokio::process::Command;
use tokio_util::codec::{FramedRead, FramedWrite};

type Codec = FrameCodec<ToExtension, FromExtension>;

const LIMIT: Duration = Duration::from_secs(60);

struct Wine {
    launcher: PathBuf,
    bin: PathBuf,
    /// The runtime folder, as Windows programs under Wine name it (`Z:\…`).
    runtime: String,
}

impl Wine {
    fn new(runtime: &Path) -> anyhow::Result<Self> {
        let var = |name| std::env::var_os(name).map(PathBuf::from).context(name);
        Ok(Self {
            launcher: var("CLAUDEZILLA_WINE")?,
            bin: var("CLAUDEZILLA_WINDOWS_BIN")?,
            runtime: format!("Z:{}", runtime.display()).replace('/', "\\"),
        })
    }

    fn command(&self, exe: &str) -> Command {
        let mut c = Command::new(&self.launcher);
        c.arg(self.bin.join(format!("{exe}.exe")))
            .env("CLAUDEZILLA_RUNTIME_DIR", &self.runtime)
            .env("WINEDEBUG", "-all")
            .kill_on_drop(true);
        c
    }

    /// `claudezilla-host <args>`: its exit and its output.
    async fn host(&self, args: &[&str]) -> anyhow::Result<(bool, String)> {
        let out = tokio::time::timeout(LIMIT, self.command("claudezilla-host").args(args).output())
            .await
            .context("the host command hung")??;
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        Ok((out.status.success(), text))
    }
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs Wine and the Windows build: cargo xtask test runs it"]
async fn the_windows_binaries_relay_between_an_agent_and_the_extension() -> anyhow::Result<()> {
    let tmp = tempfile::tempdir()?;
    let wine = Wine::new(&tmp.path().join("rt"))?;

    let (ok, said) = wine.host(&["install"]).await?;
    ensure!(ok && said.contains("Registered"), "install: {said}");

    // The host as Firefox starts it; this test is the extension.
    let log = std::fs::File::create(tmp.path().join("host.log"))?;
    let mut host = wine
        .command("claudezilla-host")
        .args([r"C:\claudezilla.json", EXTENSION_ID])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(log)
        .spawn()?;
    let codec = || Codec::new(MAX_TO_EXTENSION, MAX_SOCKET_FRAME);
    let mut to_host = FramedWrite::new(host.stdin.take().context("stdin")?, codec());
    let mut from_host = FramedRead::new(host.stdout.take().context("stdout")?, codec());
    to_host
        .send(FromExtension::Hello {
            version: "wine-test".into(),
        })
        .await?;
    let first = tokio::time::timeout(LIMIT, from_host.next()).await?;
    ensure!(
        matches!(first, Some(Ok(Ok(ToExtension::Welcome { .. })))),
        "the host's first frame: {first:?}"
    );

    // Answers a ping with a pong and anything else with an error naming it.
    let seen = Arc::new(Mutex::new(Vec::<String>::new()));
    let heard = seen.clone();
    let extension = tokio::spawn(async move {
        while let Some(Ok(Ok(frame))) = from_host.next().await {
            let ToExtension::Request(req) = frame else {
                heard.lock().unwrap().push(format!("{frame:?}"));
                continue;
            };
            let name = req.command.name();
            heard.lock().unwrap().push(name.to_owned());
            let outcome = match name {
                "ping" => Ok(Reply::Pong(reply::Pong {
                    version: "wine-test".into(),
                })),
                _ => Err(ErrorBody::new(
                    ErrorCode::PageError,
                    format!("the test's extension saw {name}"),
                )),
            };
            let answer = FromExtension::Response(Response {
                id: req.id,
                outcome,
            });
            if to_host.send(answer).await.is_err() {
                break;
            }
        }
    });

    // `status` reaches the extension through the pipe, and finds the registration.
    let (ok, said) = wine.host(&["status"]).await?;
    ensure!(ok, "status: {said}");
    ensure!(
        said.contains(r"listening at \\.\pipe\claudezilla-"),
        "{said}"
    );
    ensure!(said.contains("extension wine-test connected"), "{said}");

    // An agent's tool call crosses the MCP server, the pipe and the host to the extension.
    let mut mcp = wine.command("claudezilla-mcp");
    mcp.current_dir(tmp.path());
    let agent = Agent::spawn_command(mcp, &tmp.path().join("mcp.log")).await?;
    let result = agent
        .call("firefox_get_tabs", serde_json::json!({}))
        .await?;
    ensure!(
        result.is_error && result.text.contains("the test's extension saw"),
        "{}",
        result.text
    );
    agent.close().await?;

    // The agent's leaving reaches the extension.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !seen.lock().unwrap().iter().any(|s| s.contains("AgentGone")) {
        ensure!(
            tokio::time::Instant::now() < deadline,
            "the host never said the agent left: {:?}",
            seen.lock().unwrap()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // Firefox closing the port (the host's stdin, whose writer the extension task holds) ends
    // the host, which takes its pipe's name with it.
    extension.abort();
    let _ = extension.await;
    let exit = tokio::time::timeout(LIMIT, host.wait()).await??;
    let log = std::fs::read_to_string(tmp.path().join("host.log")).unwrap_or_default();
    ensure!(exit.success(), "the host exited with {exit}: {log}");
    ensure!(
        !tmp.path().join("rt").join("claudezilla.pipe").exists(),
        "the pipe's name was left behind"
    );

    let (ok, said) = wine.host(&["uninstall"]).await?;
    ensure!(
        ok && said.contains("Removed the registration"),
        "uninstall: {said}"
    );
    let (ok, said) = wine.host(&["status"]).await?;
    ensure!(
        !ok && said.contains("manifest"),
        "status after uninstall: {said}"
    );
    Ok(())
}
