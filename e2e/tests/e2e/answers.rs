//! Bulky answers: written whole to a file on request (`outputFile`).

use std::collections::HashMap;
use std::sync::Arc;

use anyhow::ensure;
use claudezilla_e2e::pages::Page;
use serde_json::json;

use crate::common::{Shared, call};

/// Items on the big page: its snapshot is far over the 40,000 characters answered by default.
const ITEMS: usize = 3_000;

pub fn pages() -> HashMap<&'static str, Page> {
    let items: String = (0..ITEMS)
        .map(|n| format!("<li><a href=#i{n}>item {n}</a> <span>note {n}</span></li>"))
        .collect();
    HashMap::from([(
        "/answers/big.html",
        Page::html(format!(
            "<!doctype html><title>Big page</title><h1>Catalogue</h1><ul>{items}</ul>\
             <script>for (let n = 0; n < 600; n++) console.log('message ' + n); fetch('/answers/big.html?again')</script>"
        )),
    )])
}

pub async fn bulky_answers_go_whole_to_a_file(s: Arc<Shared>) -> anyhow::Result<()> {
    let project = tempfile::tempdir_in(s.browser.path())?;
    let a = s.agent_in("output", project.path()).await?;
    let tab = a.open(&s.pages.url("/answers/big.html")).await?;
    let inline = call(&a, "firefox_snapshot", json!({"tabId": tab})).await?;
    ensure!(
        !inline.text.contains(&format!("item {}", ITEMS - 1)),
        "the answer is cut"
    );

    let said = call(
        &a,
        "firefox_snapshot",
        json!({"tabId": tab, "outputFile": "snap.txt"}),
    )
    .await?;
    let file = std::fs::read_to_string(project.path().join("snap.txt"))?;
    ensure!(
        file.contains(&format!("link \"item {}\"", ITEMS - 1)),
        "the whole page"
    );
    ensure!(file.len() > 100_000, "{}", file.len());
    ensure!(
        said.text
            .starts_with(&format!("Wrote {} characters", file.chars().count()))
            && said.text.contains("to snap.txt")
            && said.text.contains("Catalogue")
            && said.text.len() < 3_000,
        "{said:?}"
    );

    call(
        &a,
        "firefox_get_content",
        json!({"tabId": tab, "outputFile": "page.txt", "maxLength": 100}),
    )
    .await?;
    let page = std::fs::read_to_string(project.path().join("page.txt"))?;
    ensure!(
        page.contains(&format!("item {} note {}", ITEMS - 1, ITEMS - 1)),
        "maxLength does not cut a file"
    );

    // Console capture starts with the first call; the page logs 600 again on a reload, and
    // the file holds all a tab keeps (an answer lists 100 by default).
    call(&a, "firefox_get_console", json!({"tabId": tab})).await?;
    call(
        &a,
        "firefox_navigate",
        json!({"tabId": tab, "url": s.pages.url("/answers/big.html")}),
    )
    .await?;
    call(
        &a,
        "firefox_get_console",
        json!({"tabId": tab, "outputFile": "console.log"}),
    )
    .await?;
    let console = std::fs::read_to_string(project.path().join("console.log"))?;
    ensure!(
        console.matches("[log] message ").count() == 500,
        "{}",
        &console[..console.len().min(1_500)]
    );
    call(
        &a,
        "firefox_get_network",
        json!({"tabId": tab, "outputFile": "network.txt"}),
    )
    .await?;
    let network = std::fs::read_to_string(project.path().join("network.txt"))?;
    ensure!(network.contains("/answers/big.html?again"), "{network}");

    // The rules of every file the server writes.
    for (args, code, words) in [
        (
            json!({"outputFile": "snap.txt"}),
            "INVALID_ARGUMENT",
            "exists",
        ),
        (
            json!({"outputFile": "CLAUDE.md"}),
            "INVALID_ARGUMENT",
            ".txt, .log",
        ),
        (
            json!({"outputFile": ".claude/notes.txt"}),
            "NOT_ALLOWED",
            "hidden",
        ),
        (json!({"outputFile": "../outside.txt"}), "NOT_ALLOWED", ""),
        (json!({"outputFile": 7}), "INVALID_ARGUMENT", "outputFile"),
    ] {
        let mut args = args;
        args["tabId"] = json!(tab);
        let answer = a.call("firefox_snapshot", args.clone()).await?;
        ensure!(
            answer.expect_error(code)?.contains(words),
            "{args}: {answer:?}"
        );
    }
    ensure!(!project.path().join("CLAUDE.md").exists());
    call(
        &a,
        "firefox_snapshot",
        json!({"tabId": tab, "outputFile": "snap.txt", "overwrite": true}),
    )
    .await?;
    a.close().await?;
    Ok(())
}
