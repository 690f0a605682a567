//! The end-to-end harness: a real headless Firefox ESR with the real (unpacked) extension, the
//! real host started by Firefox through native messaging, and real `claudezilla-mcp` processes
//! spoken to over stdio with an MCP client. Nothing is mocked.
//!
//! Every [`Browser`] is hermetic: its own HOME (with the native-messaging manifest written by
//! `claudezilla-host install`), profile and runtime directory, under one short temp folder.

pub mod agent;
pub mod browser;
pub mod marionette;
pub mod pages;
pub mod raw;

pub use agent::{Agent, ToolResult};
pub use browser::Browser;
pub use pages::PageServer;
pub use raw::RawClient;

use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("e2e has a parent")
        .to_owned()
}

/// The third-party widgets `cargo xtask test` installs from npm and bundles (see
/// `e2e/widgets/`), which the page server serves under `/w/`.
pub fn widgets_dir() -> PathBuf {
    root().join("target/widgets")
}

/// A release binary built by `cargo xtask build`.
pub fn binary(name: &str) -> PathBuf {
    let path = root().join("target/release").join(name);
    assert!(
        path.is_file(),
        "{} is missing: run `cargo xtask build` (or `cargo xtask test`) first",
        path.display()
    );
    path
}

/// Polls `check` every 20 ms until it returns `Some`, or fails with `what` after `limit`.
pub async fn eventually<T>(
    limit: Duration,
    what: &str,
    mut check: impl AsyncFnMut() -> Option<T>,
) -> anyhow::Result<T> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(v) = check().await {
            return Ok(v);
        }
        if Instant::now() > deadline {
            anyhow::bail!("timed out after {limit:?} waiting for {what}");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
