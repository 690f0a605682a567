//! Browsers of their own: starting late, quitting, crashing.

use std::time::{Duration, Instant};

use anyhow::{Context, ensure};
use claudezilla_e2e::{Browser, eventually};
use serde_json::json;

pub async fn fails_fast_without_firefox_then_reconnects() -> anyhow::Result<()> {
    let mut browser = Browser::prepare(Default::default())?;
    let agent = browser.agent("a").await?;
    let started = Instant::now();
    let r = agent.call("firefox_get_tabs", json!({})).await?;
    let text = r.expect_error("NOT_CONNECTED")?;
    ensure!(
        text.contains("cargo xtask run") && text.contains("claudezilla-host status"),
        "no fix in {text}"
    );
    ensure!(
        started.elapsed() < Duration::from_secs(2),
        "took {:?} to fail",
        started.elapsed()
    );

    browser.launch().await?;
    let r = agent.call("firefox_get_tabs", json!({})).await?;
    ensure!(
        !r.is_error,
        "the next call after Firefox started should work: {}",
        r.text
    );

    // Firefox quits normally: the host sees EOF, exits and removes its socket and token.
    let hosts = browser.host_pids();
    ensure!(
        hosts.len() == 1,
        "expected one host process, found {hosts:?}"
    );
    browser.signal(libc::SIGTERM);
    ensure!(
        browser.wait_exit(Duration::from_secs(20)).await,
        "Firefox did not quit"
    );
    expect_clean_exit(&browser).await?;
    let r = agent.call("firefox_get_tabs", json!({})).await?;
    r.expect_error("NOT_CONNECTED")?;
    Ok(())
}

pub async fn a_crashed_firefox_takes_the_host_down() -> anyhow::Result<()> {
    let mut browser = Browser::start().await?;
    let agent = browser.agent("a").await?;
    agent
        .call("firefox_create_window", json!({"url": "about:blank"}))
        .await?
        .ok()?;
    browser.signal(libc::SIGKILL);
    ensure!(
        browser.wait_exit(Duration::from_secs(10)).await,
        "Firefox survived SIGKILL"
    );
    expect_clean_exit(&browser).await?;
    let started = Instant::now();
    agent
        .call("firefox_get_tabs", json!({}))
        .await?
        .expect_error("NOT_CONNECTED")?;
    ensure!(
        started.elapsed() < Duration::from_secs(2),
        "took {:?} to fail",
        started.elapsed()
    );
    Ok(())
}

/// After Firefox is gone: the host exited, its files are removed, and no process is left.
pub async fn expect_clean_exit(browser: &Browser) -> anyhow::Result<()> {
    eventually(Duration::from_secs(10), "the host to exit", async || {
        browser.host_pids().is_empty().then_some(())
    })
    .await?;
    ensure!(
        !browser.runtime.socket().exists(),
        "socket file left behind"
    );
    ensure!(!browser.runtime.token().exists(), "token file left behind");
    eventually(
        Duration::from_secs(10),
        "Firefox's processes to end",
        async || browser.group_processes().is_empty().then_some(()),
    )
    .await
    .with_context(|| format!("left: {:?}", browser.group_processes()))
}
