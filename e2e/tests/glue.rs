//! The content glue's unit tests (`extension-wasm/src/content/glue_tests/`), run where the
//! glue runs. `cargo xtask test` builds them into a test extension (`target/glue-extension`);
//! this installs it into a real headless Firefox beside the real extension, opens the page
//! its content script runs them on, and reports each test as one here, with what it said.

use std::collections::HashMap;
use std::time::Duration;

use anyhow::{Context, bail};
use claudezilla_e2e::browser::Options;
use claudezilla_e2e::pages::Page;
use claudezilla_e2e::{Browser, PageServer, eventually, root};
use libtest_mimic::{Arguments, Trial};
use serde_json::{Value, json};

/// The page the test extension's content script runs on (its manifest matches it).
const PAGE: &str = "/glue-tests.html";

/// Each test's name, and why it failed if it did.
type Said = Vec<(String, Option<String>)>;

fn main() {
    let args = Arguments::from_args();
    let ran = tokio::runtime::Runtime::new()
        .context("no runtime")
        .and_then(|rt| rt.block_on(run_in_firefox()));
    let trials = match ran {
        Ok(said) => said
            .into_iter()
            .map(|(name, failure)| {
                Trial::test(name, move || failure.map_or(Ok(()), |f| Err(f.into())))
            })
            .collect(),
        Err(e) => vec![Trial::test("content::glue_tests_ran", move || {
            Err(format!("{e:#}").into())
        })],
    };
    libtest_mimic::run(&args, trials).exit();
}

async fn run_in_firefox() -> anyhow::Result<Said> {
    let extension = root().join("target/glue-extension");
    if !extension.join("manifest.json").is_file() {
        bail!(
            "{} is missing: `cargo xtask test` builds it",
            extension.display()
        );
    }
    let page = Page::html("<!doctype html><title>Glue tests</title><body></body>");
    let server = PageServer::start(HashMap::from([(PAGE, page)])).await?;
    let browser = Browser::start_with_options(Options {
        marionette: true,
        ..Options::default()
    })
    .await?;
    let mut m = browser.marionette().await?;
    m.command(
        "Addon:Install",
        json!({"path": extension, "temporary": true}),
    )
    .await?;
    m.command("WebDriver:Navigate", json!({"url": server.url(PAGE)}))
        .await?;
    let script = "const r = document.getElementById('glue-results'); return r && r.textContent;";
    let results = eventually(
        Duration::from_secs(120),
        "the glue tests to finish",
        async || {
            let read = m
                .command(
                    "WebDriver:ExecuteScript",
                    json!({"script": script, "args": []}),
                )
                .await
                .ok()?;
            read["value"].as_str().map(str::to_owned)
        },
    )
    .await
    .with_context(|| format!("Firefox log:\n{}", browser.log()))?;
    said(&results)
}

/// The runner's JSON: `[{"name", "failure", "ms"}]`.
fn said(json: &str) -> anyhow::Result<Said> {
    let all: Vec<Value> =
        serde_json::from_str(json).with_context(|| format!("the results are no list: {json}"))?;
    if all.is_empty() {
        bail!("the glue tests ran none");
    }
    all.iter()
        .map(|t| {
            let name = t["name"].as_str().context("a result without a name")?;
            Ok((name.to_owned(), t["failure"].as_str().map(str::to_owned)))
        })
        .collect()
}
