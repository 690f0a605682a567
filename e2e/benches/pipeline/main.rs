//! The end-to-end benchmark: times each hop and each tool against a real headless Firefox and
//! prints a Markdown table for the README (`cargo xtask bench`). Figures, not assertions.

use std::collections::HashMap;

use anyhow::Context as _;
use std::time::{Duration, Instant};

use claudezilla_e2e::pages::{Page, large_page, table_page};
use claudezilla_e2e::{Agent, Browser, PageServer, RawClient};
use claudezilla_protocol::Command;
use serde_json::json;

mod machine;
mod scenarios;
mod table;

use machine::*;
use scenarios::*;
use table::*;

/// Every timed row is measured in this many rounds, one after the other over all rows, so
/// that what the machine does meanwhile shows as a spread instead of moving one row.
const ROUNDS: usize = 3;

/// The benchmark's pages, served locally.
async fn pages() -> anyhow::Result<PageServer> {
    PageServer::start(HashMap::from([
        (
            "/small.html",
            Page::html("<!doctype html><title>Small</title><h1>Hello</h1><p>A small page.</p>"),
        ),
        ("/large.html", Page::html(large_page(2_000))),
        ("/table.html", Page::html(table_page(400))),
        ("/many.html", Page::html(many_resources(50))),
        ("/late.html", Page::html(LATE_PAGE)),
        (
            "/form.html",
            Page::html("<!doctype html><title>Form</title><input id=f>"),
        ),
        (
            "/slow.html",
            Page::html("<!doctype html><title>Slow</title><h1>Hello</h1><img src=/slow.svg>"),
        ),
        (
            "/slow.svg",
            Page::svg("<svg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/>")
                .delayed(std::time::Duration::from_millis(150)),
        ),
        (
            "/px.svg",
            Page::svg("<svg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/>"),
        ),
    ]))
    .await
}

/// The benchmark's Firefox, with `extension` (another build) or this repository's. Evaluate is
/// switched on so it can be timed and the navigation rows can read the page's own timing;
/// timers at 5 µs instead of Firefox's default 1 ms, for those timings and the hop-by-hop
/// breakdown; everything else is as a user has it.
fn options(
    extension: Option<std::path::PathBuf>,
    binaries: Option<std::path::PathBuf>,
) -> claudezilla_e2e::browser::Options {
    claudezilla_e2e::browser::Options {
        extension,
        binaries,
        env: vec![("CLAUDEZILLA_ALLOW_EVALUATE".into(), "1".into())],
        prefs: vec![(TIMER_PRECISION.into(), "5".into())],
        ..Default::default()
    }
}

/// `n` timed screenshots with `args`: the samples and the picture's size in KB.
async fn screenshots(
    agent: &Agent,
    n: usize,
    args: serde_json::Value,
) -> anyhow::Result<(Vec<f64>, f64)> {
    let mut bytes = 0;
    let samples = time(n, async || {
        let r = agent.call("firefox_screenshot", args.clone()).await?.ok()?;
        bytes = r.images[0].1.len() * 3 / 4;
        Ok(())
    })
    .await?;
    Ok((samples, bytes as f64 / 1000.0))
}

/// What every round uses: the browser, its pages, an agent with tabs, a raw client with tabs.
struct Bench {
    browser: Browser,
    pages: PageServer,
    log: std::path::PathBuf,
    agent: Agent,
    raw: RawClient,
    small: u32,
    large: u32,
    table: u32,
    late: u32,
    /// The pushStates the late page made so far.
    moves: u32,
    raw_tabs: [u32; 2],
}

async fn bench() -> anyhow::Result<(Rows, Vec<Breakdown>)> {
    let pages = pages().await?;
    let browser = Browser::start_with_options(options(None, None)).await?;
    let log = browser.path().join("mcp.log");
    let baseline = idle_cpu(&browser).await;
    let agent = Agent::spawn(browser.runtime.path(), &log).await?;
    let small = agent.open(&pages.url("/small.html")).await?;
    let large = agent.open(&pages.url("/large.html")).await?;
    let table = agent.open(&pages.url("/table.html")).await?;
    let late = agent.open(&pages.url("/late.html")).await?;
    // The raw client is an agent of its own: it needs tabs of its own.
    let mut raw = RawClient::connect(&browser.runtime).await?;
    let mut raw_tabs = [0; 2];
    for (k, path) in ["/small.html", "/large.html"].into_iter().enumerate() {
        let args = serde_json::from_value(json!({"url": pages.url(path)}))?;
        match raw.call(Command::CreateWindow(args)).await? {
            Ok(claudezilla_protocol::Reply::Tab(t)) => raw_tabs[k] = t.tab_id.0,
            other => anyhow::bail!("{other:?}"),
        }
    }
    let mut b = Bench {
        browser,
        pages,
        log,
        agent,
        raw,
        small,
        large,
        table,
        late,
        moves: 0,
        raw_tabs,
    };
    let mut rows = Rows::default();
    for _ in 0..ROUNDS {
        round(&mut b, &mut rows).await?;
    }
    let breakdown = breakdown(&mut b).await?;
    facts(&b, &mut rows).await?;
    let idle = idle_cpu(&b.browser).await;
    rows.fact(
        "idle Firefox with 8 agent tabs open",
        format!("{idle:.1} % of one core (no agent tab: {baseline:.1} %)"),
    );
    b.agent.close().await?;
    Ok((rows, breakdown))
}

/// One round of every timed row.
async fn round(b: &mut Bench, rows: &mut Rows) -> anyhow::Result<()> {
    let (browser, pages, log, agent) = (&b.browser, &b.pages, &b.log, &b.agent);
    let (small, large, table, raw_tabs) = (b.small, b.large, b.table, b.raw_tabs);
    let raw = &mut b.raw;
    let mut spawned = Vec::new();
    let init = time(7, async || {
        spawned.push(Agent::spawn(browser.runtime.path(), log).await?);
        Ok(())
    })
    .await?;
    for a in spawned {
        a.close().await?;
    }
    rows.add(
        "MCP spawn → initialized",
        init,
        "process start + initialize handshake".into(),
    );
    let ping = time(100, async || {
        raw.call(Command::Ping)
            .await?
            .map(|_| ())
            .map_err(|e| anyhow::anyhow!("{e}"))
    })
    .await?;
    rows.add(
        "raw socket ping (→ host → extension → back)",
        ping,
        "no MCP server".into(),
    );
    let call = async |n: usize, tool: &str, args: serde_json::Value| {
        time(n, async || {
            agent.call(tool, args.clone()).await?.ok().map(|_| ())
        })
        .await
    };
    rows.add(
        "`firefox_get_tabs`",
        call(100, "firefox_get_tabs", json!({})).await?,
        String::new(),
    );
    rows.add(
        "`firefox_get_content`, small page",
        call(70, "firefox_get_content", json!({"tabId": small})).await?,
        String::new(),
    );
    let chars = agent
        .call("firefox_get_content", json!({"tabId": large}))
        .await?
        .ok()?
        .text
        .chars()
        .count();
    rows.add(
        "`firefox_get_content`, 2,000-element page",
        call(35, "firefox_get_content", json!({"tabId": large})).await?,
        format!("answer {chars} chars"),
    );
    // Six: the pool holds 12 tabs, and this agent and the raw client hold six.
    for agents in [1, 4, 6] {
        let (rate, samples) = throughput(browser, pages, agents).await?;
        rows.add(
            &format!("throughput, {agents} agent(s): `get_tabs` + `get_content`"),
            samples,
            format!("{rate:.0} calls/s"),
        );
    }
    let snapshot = async |args: serde_json::Value| {
        let text = agent
            .call("firefox_snapshot", args.clone())
            .await?
            .ok()?
            .text;
        anyhow::Ok((call(10, "firefox_snapshot", args).await?, text))
    };
    let (samples, snap) = snapshot(json!({"tabId": large})).await?;
    rows.add(
        "`firefox_snapshot`, 2,000-element page",
        samples,
        format!("{} chars ≈ {} tokens", snap.len(), snap.len() / 4),
    );
    let (samples, snap) = snapshot(json!({"tabId": table})).await?;
    let refs = snap
        .split_whitespace()
        .filter(|w| w.len() > 1 && w.starts_with('e') && w[1..].bytes().all(|b| b.is_ascii_digit()))
        .count();
    rows.add(
        "`firefox_snapshot`, 400-row table (link, button, text per row)",
        samples,
        format!(
            "{} chars, {} lines, {refs} refs",
            snap.len(),
            snap.lines().count()
        ),
    );
    let (samples, snap) = snapshot(json!({"tabId": large, "interactiveOnly": true})).await?;
    rows.add(
        "`firefox_snapshot interactiveOnly`, 2,000-element page",
        samples,
        format!("{} chars", snap.len()),
    );
    // The first audit of a document injects axe-core; the rest find it there.
    let audit = json!({"tabId": large});
    let started = std::time::Instant::now();
    let first = agent
        .call("firefox_audit", audit.clone())
        .await?
        .ok()
        .context("the first audit")?
        .text;
    let first_ms = started.elapsed().as_secs_f64() * 1e3;
    rows.add(
        "`firefox_audit` (axe-core), 2,000-element page",
        call(5, "firefox_audit", audit)
            .await
            .context("the timed audits")?,
        format!(
            "first in the document {first_ms:.0} ms (axe injected); {} chars",
            first.len()
        ),
    );
    let md = json!({"tabId": large, "format": "markdown"});
    let chars = agent
        .call("firefox_get_content", md.clone())
        .await?
        .ok()?
        .text
        .len();
    rows.add(
        "`firefox_get_content` markdown, same page",
        call(10, "firefox_get_content", md).await?,
        format!("{chars} chars"),
    );
    rows.add(
        "`firefox_click`",
        call(
            35,
            "firefox_click",
            json!({"tabId": large, "selector": "#s10 button"}),
        )
        .await?,
        String::new(),
    );
    rows.add(
        "`firefox_type`",
        call(
            35,
            "firefox_type",
            json!({"tabId": large, "selector": "#s10 input", "text": "hi", "clear": true}),
        )
        .await?,
        String::new(),
    );
    let (shot, kb) = screenshots(agent, 17, json!({"tabId": small})).await?;
    rows.add(
        "`firefox_screenshot`, small page, default (with readiness)",
        shot,
        format!("{kb:.1} KB JPEG"),
    );
    // Side by side, without MCP and without readiness: our Rust pipeline, the browser's JPEG.
    for (what, encoder) in [
        ("Rust/wasm pipeline", false),
        ("browser's own JPEG encoder", true),
    ] {
        for (page, tab) in [("small", raw_tabs[0]), ("2,000-element", raw_tabs[1])] {
            let mut size = 0;
            let args: claudezilla_protocol::args::ScreenshotArgs = serde_json::from_value(
                json!({"tabId": tab, "skipReadiness": true, "browserEncoder": encoder}),
            )?;
            let timed = time(14, async || {
                match raw.call(Command::Screenshot(args.clone())).await? {
                    Ok(claudezilla_protocol::Reply::Screenshot(s)) => size = s.data.len() * 3 / 4,
                    other => anyhow::bail!("{other:?}"),
                }
                Ok(())
            })
            .await?;
            rows.add(
                &format!("screenshot read-text, {page} page, {what} (raw socket)"),
                timed,
                format!("{:.1} KB", size as f64 / 1000.0),
            );
        }
    }
    for purpose in ["quick-glance", "inspect-ui", "full-detail"] {
        let args = json!({"tabId": large, "purpose": purpose});
        let (timed, kb) = screenshots(agent, 7, args).await?;
        rows.add(
            &format!("`firefox_screenshot {purpose}`, 2,000-element page"),
            timed,
            format!("{kb:.1} KB"),
        );
    }
    navigation(agent, pages, small, rows).await?;
    content_startup(raw, raw_tabs[0], &pages.url("/small.html"), rows).await?;
    waits(agent, b.late, &mut b.moves, rows).await?;
    routes(browser, pages, log, agent, rows).await?;
    for (tool, args, note) in [
        ("firefox_get_console", json!({"tabId": large}), "capture on"),
        (
            "firefox_get_network",
            json!({"tabId": small}),
            "the tab's request log",
        ),
        (
            "firefox_evaluate",
            json!({"tabId": large, "expression": "document.querySelectorAll('*').length"}),
            "counts the large page's elements",
        ),
    ] {
        rows.add(
            &format!("`{tool}`"),
            call(35, tool, args).await?,
            note.to_owned(),
        );
    }
    Ok(())
}

/// The environment variable naming another build of the extension to compare with.
const BASELINE: &str = "CLAUDEZILLA_BENCH_BASELINE";
/// With it, that build's `target/release` folder, for a build whose MCP server speaks another
/// wire to its extension: its host and MCP server then run its side.
const BASELINE_BIN: &str = "CLAUDEZILLA_BENCH_BASELINE_BIN";
/// With a baseline: only the calls whose row names hold these words (`snapshot`; the word
/// `navigation` alone: the navigation rows and the content script's startup), in as many
/// rounds as `CLAUDEZILLA_BENCH_ROUNDS` says, to see a small change in one call.
const ONLY: &str = "CLAUDEZILLA_BENCH_ONLY";
const ROUNDS_ASKED: &str = "CLAUDEZILLA_BENCH_ROUNDS";

/// Two builds side by side: this one and the extension folder `baseline`, each in its own
/// Firefox, the same calls on the same pages in interleaved rounds (A B, B A, …), so that what
/// the machine does meanwhile falls on both alike. Prints each call's median and p95 per build.
async fn compare(baseline: std::path::PathBuf) -> anyhow::Result<()> {
    let pages = pages().await?;
    let mut sides = Vec::new();
    let sizes = [
        module_size(&claudezilla_e2e::root().join("extension-shell")),
        module_size(&baseline),
    ];
    let binaries = std::env::var_os(BASELINE_BIN).map(std::path::PathBuf::from);
    for (extension, binaries) in [(None, None), (Some(baseline), binaries)] {
        // Marionette drives the user's own tab (a row times the user's loads).
        let browser = Browser::start_with_options(claudezilla_e2e::browser::Options {
            marionette: true,
            ..options(extension, binaries)
        })
        .await?;
        let mut ui = browser.marionette().await?;
        ui.command("Marionette:SetContext", json!({"value": "content"}))
            .await?;
        let agent = browser.agent("compare").await?;
        // The raw client is an agent of its own, with a tab of its own.
        let mut raw = RawClient::connect(&browser.runtime).await?;
        let args = serde_json::from_value(json!({"url": pages.url("/small.html")}))?;
        let raw_tab = match raw.call(Command::CreateWindow(args)).await? {
            Ok(claudezilla_protocol::Reply::Tab(t)) => t.tab_id.0,
            other => anyhow::bail!("{other:?}"),
        };
        let mut tabs = [0; 5];
        for (k, path) in [
            "/small.html",
            "/large.html",
            "/table.html",
            "/form.html",
            "/late.html",
        ]
        .into_iter()
        .enumerate()
        {
            tabs[k] = agent.open(&pages.url(path)).await?;
        }
        sides.push((
            browser,
            agent,
            tabs,
            0u32,
            Rows::default(),
            raw,
            raw_tab,
            ui,
        ));
    }
    let only = std::env::var(ONLY).ok();
    let rounds = std::env::var(ROUNDS_ASKED)
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(ROUNDS);
    for round in 0..rounds * 2 {
        for k in 0..2 {
            let side = if round % 2 == 0 { k } else { 1 - k };
            let (_, agent, [small, large, table, form, late], moves, rows, raw, raw_tab, ui) =
                &mut sides[side];
            let calls = [
                (
                    "`firefox_snapshot`, 2,000-element page",
                    "firefox_snapshot",
                    json!({"tabId": large}),
                ),
                (
                    "`firefox_snapshot`, 400-row table",
                    "firefox_snapshot",
                    json!({"tabId": table}),
                ),
                (
                    "`firefox_snapshot interactiveOnly`, 2,000-element page",
                    "firefox_snapshot",
                    json!({"tabId": large, "interactiveOnly": true}),
                ),
                (
                    "`firefox_get_content` markdown, 2,000-element page",
                    "firefox_get_content",
                    json!({"tabId": large, "format": "markdown"}),
                ),
                (
                    "`firefox_find` text, 2,000-element page",
                    "firefox_find",
                    json!({"tabId": large, "text": "Button 2"}),
                ),
                (
                    "`firefox_type`",
                    "firefox_type",
                    json!({"tabId": form, "selector": "#f", "text": "hello", "clear": true}),
                ),
                (
                    "`firefox_click`",
                    "firefox_click",
                    json!({"tabId": form, "selector": "#f"}),
                ),
                (
                    "`firefox_screenshot`, small page, default (with readiness)",
                    "firefox_screenshot",
                    json!({"tabId": small}),
                ),
                (
                    "`firefox_screenshot fullPage`, 2,000-element page",
                    "firefox_screenshot",
                    json!({"tabId": large, "fullPage": true}),
                ),
            ];
            let wanted = |what: &str| only.as_deref().is_none_or(|o| what.contains(o));
            for (what, tool, args) in calls.into_iter().filter(|c| wanted(c.0)) {
                let samples = time(5, async || {
                    agent.call(tool, args.clone()).await?.ok().map(|_| ())
                })
                .await?;
                rows.add(what, samples, String::new());
            }
            if only.as_deref().is_none_or(|o| o == "navigation") {
                navigation(agent, &pages, *small, rows).await?;
                content_startup(raw, *raw_tab, &pages.url("/small.html"), rows).await?;
                user_loads_while_busy(agent, ui, &pages, *large, rows).await?;
            }
            if only.is_none() {
                waits(agent, *late, moves, rows).await?;
            }
        }
    }
    println!(
        "| call | this build: median / p95 ms (spread of round medians) | baseline: median / p95 ms (spread) |\n|---|---|---|"
    );
    let cell = |row: &Row| {
        let (m, p, low, high) = row.summary();
        let note = match row.note.as_str() {
            "" => String::new(),
            note => format!("; {note}"),
        };
        format!("{m:.2} / {p:.2} ({low:.2}–{high:.2}){note}")
    };
    let [this, base] = [&sides[0].4, &sides[1].4];
    for (row, other) in this.0.iter().zip(&base.0) {
        println!("| {} | {} | {} |", row.what, cell(row), cell(other));
    }
    println!(
        "| content module (`content_bg.wasm`) bytes | {} | {} |",
        sizes[0], sizes[1]
    );
    // What each build's snapshots hold: a change may trade characters for time.
    for (what, page) in [("2,000-element page", 1), ("400-row table", 2)] {
        let mut sizes = Vec::new();
        for (_, agent, tabs, ..) in &sides {
            let args = json!({"tabId": tabs[page]});
            let text = agent.call("firefox_snapshot", args).await?.ok()?.text;
            sizes.push(text.chars().count());
        }
        println!(
            "| `firefox_snapshot` characters, {what} | {} | {} |",
            sizes[0], sizes[1]
        );
    }
    for (browser, agent, ..) in sides {
        agent.close().await?;
        drop(browser);
    }
    Ok(())
}

fn main() -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    if let Some(baseline) = std::env::var_os(BASELINE) {
        return rt.block_on(compare(baseline.into()));
    }
    let before = Machine::now();
    let (rows, breakdown) = rt.block_on(bench())?;
    let after = Machine::now();
    println!("{}\n", before.describe(&after));
    println!(
        "| what | median ms | p95 ms | spread of the {ROUNDS} rounds' medians | note |\n|---|---|---|---|---|"
    );
    for r in rows.0 {
        let (median, p95, low, high) = r.summary();
        let cells = if median == 0.0 {
            [String::new(), String::new(), String::new()]
        } else {
            [
                format!("{median:.2}"),
                format!("{p95:.2}"),
                format!("{low:.2}–{high:.2}"),
            ]
        };
        println!(
            "| {} | {} | {} | {} | {} |",
            r.what, cells[0], cells[1], cells[2], r.note
        );
    }
    let heads: Vec<&str> = breakdown.iter().map(|b| b.what.as_str()).collect();
    println!("\n| hop (median ms) | {} |", heads.join(" | "));
    println!("|---|{}", "---|".repeat(heads.len()));
    for (k, hop) in HOPS.iter().enumerate() {
        let cells: Vec<String> = breakdown
            .iter()
            .map(|b| format!("{:.2}", b.hops[k].1))
            .collect();
        println!("| {hop} | {} |", cells.join(" | "));
    }
    let totals: Vec<String> = breakdown
        .iter()
        .map(|b| format!("{:.2}", b.mcp_total))
        .collect();
    println!("| **total through MCP** | {} |", totals.join(" | "));
    Ok(())
}
