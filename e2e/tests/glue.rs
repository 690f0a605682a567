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
        Ok(said) => {
            let whole = every_file_ran(&said);
            let mut trials: Vec<Trial> = said
                .into_iter()
                .map(|(name, failure)| {
                    Trial::test(name, move || failure.map_or(Ok(()), |f| Err(f.into())))
                })
                .collect();
            trials.push(Trial::test("content::every_test_file_ran", move || {
                whole.map_err(Into::into)
            }));
            trials
        }
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
    .await;
    let Ok(results) = results else {
        // Which test never ended: the runner marks the one it is running.
        let running = m
            .command(
                "WebDriver:ExecuteScript",
                json!({"script": "return document.documentElement.dataset.glueRunning;", "args": []}),
            )
            .await
            .map(|r| r["value"].to_string())
            .unwrap_or_default();
        bail!(
            "the glue tests did not finish within 120 s (running: {running})\nFirefox log:\n{}",
            browser.log()
        );
    };
    said(&results)
}

/// Whether every test file under `glue_tests/` ran tests, and no name ran twice: a file
/// dropped from its parent's list, or never compiled in, fails here as the file it is.
fn every_file_ran(said: &Said) -> Result<(), String> {
    let ran: Vec<&str> = said
        .iter()
        .filter_map(|(name, _)| name.rsplit_once("::").map(|(module, _)| module))
        .collect();
    let dir = root().join("extension-wasm/src/content/glue_tests");
    let silent: Vec<String> = test_modules(&dir, "content")
        .into_iter()
        .filter(|module| !ran.contains(&module.as_str()))
        .collect();
    if !silent.is_empty() {
        return Err(format!("test files that ran no test: {silent:?}"));
    }
    let mut names: Vec<&str> = said.iter().map(|(n, _)| n.as_str()).collect();
    names.sort_unstable();
    match names.windows(2).find(|w| w[0] == w[1]) {
        Some(twice) => Err(format!("{} ran twice", twice[0])),
        None => Ok(()),
    }
}

/// The modules of the `.rs` files under `dir`, as the runner names them (`content::act`,
/// `content::act::pointer`).
fn test_modules(dir: &std::path::Path, module: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            out.extend(test_modules(&entry.path(), &format!("{module}::{name}")));
        } else if name == "mod.rs" {
            out.push(module.to_owned());
        } else if let Some(stem) = name.strip_suffix(".rs") {
            out.push(format!("{module}::{stem}"));
        }
    }
    out
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
