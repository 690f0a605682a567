//! Issue 32: addresses Firefox rewrites before it loads them (the URL standard's
//! percent-encoding, Firefox's own escapes, dot segments, host forms) are answered at once, as
//! loaded; and a wait that runs out says what it waited for.

use std::sync::Arc;

use anyhow::ensure;
use serde_json::json;

use crate::common::Shared;

/// What follows `http://127.0.0.1:PORT` in each address: every class of character the URL
/// standard (or Firefox beside it) writes differently from how an agent types it.
const REWRITTEN: &[&str] = &[
    // Queries: `'` (special schemes), space, `"`, `<>`, `|`, non-ASCII, and what is left alone.
    "/basic.html?q=O'Brien",
    "/basic.html?q=rust async",
    "/basic.html?q=say \"hi\"",
    "/basic.html?q=<b>",
    "/basic.html?q=a|b",
    "/basic.html?q=caf\u{e9}",
    "/basic.html?q=`^{}",
    "/basic.html?q=%7e%2F",
    // Paths: the same classes, and dot segments, and a backslash read as a slash.
    "/a b/\"c\"/<d>/`e`/{f}/^g|h/caf\u{e9}.html",
    "/x/./y/../../basic.html",
    "\\basic.html",
    // Fragments.
    "/basic.html#a b\"<c>`",
    // No path at all.
    "",
    "?q=no path",
];

/// Loads `url` in `tab`, waiting at most 5 s; the answer's text.
async fn navigate(a: &claudezilla_e2e::Agent, tab: u32, url: &str) -> anyhow::Result<String> {
    let r = a
        .call(
            "firefox_navigate",
            json!({"tabId": tab, "url": url, "timeout": 5_000}),
        )
        .await?;
    Ok(r.text)
}

pub async fn rewritten_addresses_answer_at_once(s: Arc<Shared>) -> anyhow::Result<()> {
    let a = s.agent("addresses").await?;
    let tab = a.open(&s.pages.url("/other.html")).await?;
    let port = s.pages.port;
    let mut urls: Vec<String> = REWRITTEN.iter().map(|p| s.pages.url(p)).collect();
    // Hosts written another way: upper case, an IPv4 address as one number and in hex, and an
    // international name under `localhost` (Firefox sends `*.localhost` to the loopback).
    urls.extend([
        format!("HTTP://127.0.0.1:{port}/basic.html?case"),
        format!("http://2130706433:{port}/basic.html?number"),
        format!("http://0x7f.1:{port}/basic.html?hex"),
        format!("http://b\u{fc}cher.localhost:{port}/basic.html?q=O'Brien"),
    ]);
    let mut stuck = Vec::new();
    for url in &urls {
        let said = navigate(&a, tab, url).await?;
        if !said.contains(" loaded in ") {
            stuck.push(format!("{url} → {said}"));
        }
    }
    // The default port, written out: nothing listens there, and the answer says so at once.
    let refused = navigate(&a, tab, "http://127.0.0.1:80/basic.html?q=O'Brien").await?;
    if !refused.starts_with("LOAD_FAILED") && !refused.contains(" loaded in ") {
        stuck.push(format!("port 80 → {refused}"));
    }
    // A new tab waits for its first page the same way.
    for url in [
        s.pages.url("/basic.html?q=O'Brien & \"friends\""),
        s.pages.url(""),
    ] {
        let r = a
            .call(
                "firefox_create_window",
                json!({"url": url, "timeout": 5_000}),
            )
            .await?;
        if !r.text.contains(" loaded in ") {
            stuck.push(format!("new tab {url} → {}", r.text));
        }
    }
    ensure!(
        stuck.is_empty(),
        "not answered as loaded:\n{}",
        stuck.join("\n")
    );
    a.close().await?;
    Ok(())
}

pub async fn a_wait_that_runs_out_says_what_it_waited_for(s: Arc<Shared>) -> anyhow::Result<()> {
    let a = s.agent("waited").await?;
    let tab = a.open(&s.pages.url("/other.html")).await?;
    let hang = s.pages.url("/hang.html");
    let said = navigate(&a, tab, &hang).await?;
    ensure!(said.contains("still loading"), "{said}");
    ensure!(
        said.contains(&format!("waited for {hang}")),
        "the answer does not say what it waited for: {said}"
    );
    let opened = a
        .call(
            "firefox_create_window",
            json!({"url": hang, "timeout": 5_000}),
        )
        .await?
        .ok()?;
    ensure!(
        opened.text.contains(&format!("waited for {hang}")),
        "{}",
        opened.text
    );
    a.close().await?;
    Ok(())
}
