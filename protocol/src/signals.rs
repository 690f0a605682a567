//! When a process is asked to end: SIGTERM or SIGINT on Unix, Ctrl+C on Windows. The host
//! and the MCP server stop the same way.

/// Completes when the process is asked to end (never, if the signals cannot be watched).
#[cfg(unix)]
pub async fn asked_to_end() {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut int)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) else {
        return std::future::pending().await;
    };
    tokio::select! {
        _ = term.recv() => {}
        _ = int.recv() => {}
    }
}

/// Completes when the process is asked to end (never, if Ctrl+C cannot be watched).
#[cfg(windows)]
pub async fn asked_to_end() {
    if tokio::signal::ctrl_c().await.is_err() {
        std::future::pending().await
    }
}
