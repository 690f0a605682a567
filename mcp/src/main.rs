//! `claudezilla-mcp`: an MCP server on stdio. Claude Code starts one per session.

use std::sync::Arc;
use std::time::Duration;

use claudezilla_mcp::Claudezilla;
use claudezilla_mcp::agent::new_agent_id;
use claudezilla_mcp::files::Options;
use claudezilla_mcp::link::HostLink;
use claudezilla_mcp::secrets::Secrets;
use claudezilla_mcp::session::Folders;
use claudezilla_protocol::Command;
use claudezilla_protocol::paths::RuntimeDir;
use rmcp::ServiceExt;

/// How often a live server says so (overridable with `CLAUDEZILLA_HEARTBEAT_MS`).
const HEARTBEAT_MS: u64 = 60_000;
/// How long shutdown may spend telling the browser to release our tabs.
const GOODBYE_TIMEOUT: Duration = Duration::from_secs(2);

fn main() -> anyhow::Result<()> {
    if std::env::args()
        .nth(1)
        .is_some_and(|a| a == "--version" || a == "-V")
    {
        println!("claudezilla-mcp {}", claudezilla_protocol::VERSION);
        return Ok(());
    }
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("CLAUDEZILLA_LOG")
                .unwrap_or_else(|_| "warn".into()),
        )
        .init();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    rt.block_on(serve())?;
    // tokio's stdin reader may be parked in a blocking read: exit without waiting for it.
    std::process::exit(0)
}

async fn serve() -> anyhow::Result<()> {
    let options = Options::parse(std::env::args_os().skip(1), |k| std::env::var_os(k))
        .map_err(anyhow::Error::msg)?;
    let secrets = match &options.secrets_file {
        Some(path) => Secrets::load(path)?,
        None => Secrets::default(),
    };
    for name in secrets.unbound() {
        tracing::warn!("secret {name} is bound to no site: it may be typed into any https page");
    }
    for name in secrets.guessable() {
        tracing::warn!(
            "secret {name} is short: an agent could guess it through the answers' redaction"
        );
    }
    let folders = Folders::new(options, std::env::current_dir()?);
    let link = Arc::new(HostLink::new(RuntimeDir::from_env(), new_agent_id()?));
    tracing::info!(agent = %link.agent(), "starting");
    let warm = link.clone();
    tokio::spawn(async move { warm.warm_up().await });
    tokio::spawn(heartbeats(link.clone()));

    let server = Claudezilla::new(link.clone(), folders, secrets);
    let running = match server.serve(rmcp::transport::stdio_pipes()).await {
        Ok(running) => running,
        // The client left before initializing: nothing to clean up.
        Err(e) => {
            tracing::info!("no session: {e}");
            return Ok(());
        }
    };
    tokio::select! {
        reason = running.waiting() => tracing::info!(?reason, "client closed the session"),
        () = claudezilla_protocol::signals::asked_to_end() => tracing::info!("signal received"),
    }
    goodbye(&link).await;
    Ok(())
}

/// Tells the extension this agent is alive, so its tabs outlive a quiet spell (the extension
/// releases the tabs of agents silent for 10 minutes).
async fn heartbeats(link: Arc<HostLink>) {
    let every = std::env::var("CLAUDEZILLA_HEARTBEAT_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(HEARTBEAT_MS);
    let mut ticks = tokio::time::interval(Duration::from_millis(every));
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    ticks.tick().await;
    loop {
        ticks.tick().await;
        let _ = link.call(Command::Heartbeat, 5_000).await;
    }
}

/// Releases this agent's tabs, without letting a dead browser hold up the exit.
async fn goodbye(link: &HostLink) {
    if !link.is_connected().await {
        return;
    }
    let bye = link.call(Command::Goodbye, 5_000);
    match tokio::time::timeout(GOODBYE_TIMEOUT, bye).await {
        Ok(Ok(_)) => tracing::info!("goodbye acknowledged"),
        Ok(Err(e)) => tracing::warn!("goodbye failed: {e}"),
        Err(_) => tracing::warn!("goodbye timed out"),
    }
}
