//! The end-to-end benchmark: times each hop and each tool against a real headless Firefox and
//! prints a Markdown table for the README (`cargo xtask bench`). Figures, not assertions.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use claudezilla_e2e::pages::{Page, large_page, table_page};
use claudezilla_e2e::{Agent, Browser, PageServer, RawClient};
use claudezilla_protocol::Command;
use serde_json::json;

struct Row {
    what: String,
    median: f64,
    p95: f64,
    note: String,
}

/// Where one tool's time goes, hop by hop (medians in ms; the MCP server's share is the MCP
/// call's median less the raw socket call's).
struct Breakdown {
    what: String,
    mcp_total: f64,
    hops: Vec<(&'static str, f64)>,
}

const HOPS: [&str; 6] = [
    "MCP server (stdio, JSON-RPC, checks, rendering)",
    "Unix socket + host (both ways)",
    "native messaging, host ⇄ background (both ways)",
    "background (routing, ownership, capture and encoding)",
    "background ⇄ content script messaging",
    "content script (DOM work)",
];

/// `n` sequential traced calls through the raw socket, split into hops.
async fn hops(
    raw: &mut RawClient,
    command: &Command,
    n: usize,
    what: &str,
    mcp_total: f64,
) -> anyhow::Result<Breakdown> {
    let mut split: Vec<Vec<f64>> = vec![Vec::with_capacity(n); HOPS.len()];
    let mut totals = Vec::with_capacity(n);
    for i in 0..n + n / 10 {
        let t = Instant::now();
        let (outcome, times) = raw.call_traced(command.clone()).await?;
        let total = t.elapsed().as_secs_f64() * 1e3;
        outcome.map_err(|e| anyhow::anyhow!("{e}"))?;
        let times = times.ok_or_else(|| anyhow::anyhow!("no trace for {what}"))?;
        if i < n / 10 {
            continue; // warm-up
        }
        let ms = |us: u64| us as f64 / 1e3;
        let parts = [
            total - ms(times.native_us),
            ms(times.native_us.saturating_sub(times.background_us)),
            ms(times.background_us.saturating_sub(times.content_us)),
            ms(times.content_us.saturating_sub(times.page_us)),
            ms(times.page_us),
        ];
        for (k, v) in parts.into_iter().enumerate() {
            split[k + 1].push(v);
        }
        totals.push(total);
    }
    let raw_total = stats(totals).0;
    let mut hops: Vec<(&'static str, f64)> = vec![(HOPS[0], (mcp_total - raw_total).max(0.0))];
    for (k, samples) in split.into_iter().enumerate().skip(1) {
        hops.push((HOPS[k], stats(samples).0));
    }
    Ok(Breakdown {
        what: what.into(),
        mcp_total,
        hops,
    })
}

fn stats(mut samples: Vec<f64>) -> (f64, f64) {
    samples.sort_by(f64::total_cmp);
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.95))
}

async fn time(
    n: usize,
    mut f: impl AsyncFnMut() -> anyhow::Result<()>,
) -> anyhow::Result<(f64, f64)> {
    for _ in 0..n / 10 {
        f().await?; // warm-up
    }
    let mut samples = Vec::with_capacity(n);
    for _ in 0..n {
        let t = Instant::now();
        f().await?;
        samples.push(t.elapsed().as_secs_f64() * 1e3);
    }
    Ok(stats(samples))
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))?
                .split_whitespace()
                .nth(1)?
                .parse()
                .ok()
        })
        .unwrap_or(0)
}

/// utime + stime of a process, in clock ticks.
fn cpu_ticks(pid: i32) -> u64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return 0;
    };
    let Some(rest) = stat.rfind(')').map(|i| &stat[i + 2..]) else {
        return 0;
    };
    let fields: Vec<&str> = rest.split(' ').collect();
    fields
        .get(11)
        .and_then(|u| u.parse::<u64>().ok())
        .unwrap_or(0)
        + fields
            .get(12)
            .and_then(|s| s.parse::<u64>().ok())
            .unwrap_or(0)
}

/// Firefox's whole process group's CPU use over 10 s of quiet, in % of one core.
async fn idle_cpu(browser: &Browser) -> f64 {
    tokio::time::sleep(Duration::from_secs(2)).await;
    let group: Vec<i32> = browser.group_processes().iter().map(|(p, _)| *p).collect();
    let before: u64 = group.iter().map(|p| cpu_ticks(*p)).sum();
    let window = Duration::from_secs(10);
    tokio::time::sleep(window).await;
    let after: u64 = group.iter().map(|p| cpu_ticks(*p)).sum();
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    (after - before) as f64 / hz / window.as_secs_f64() * 100.0
}

/// `agents` agents, each with its own tab, alternate get_tabs and get_content as fast as they
/// can for 4 s. Returns calls per second and the median and p95 latency.
async fn throughput(
    browser: &Browser,
    pages: &PageServer,
    agents: usize,
) -> anyhow::Result<(f64, f64, f64)> {
    let log = browser.path().join("mcp-throughput.log");
    let mut all = Vec::new();
    for _ in 0..agents {
        let a = Agent::spawn(browser.runtime.path(), &log).await?;
        let tab = a.open(&pages.url("/small.html")).await?;
        all.push((a, tab));
    }
    let window = Duration::from_secs(4);
    let started = Instant::now();
    let runs = futures_util::future::join_all(all.iter().map(async |(a, tab)| {
        let mut samples = Vec::new();
        while started.elapsed() < window {
            for (tool, args) in [
                ("firefox_get_tabs", json!({})),
                ("firefox_get_content", json!({"tabId": tab})),
            ] {
                let t = Instant::now();
                a.call(tool, args).await?.ok()?;
                samples.push(t.elapsed().as_secs_f64() * 1e3);
            }
        }
        anyhow::Ok(samples)
    }))
    .await;
    let elapsed = started.elapsed().as_secs_f64();
    let mut samples = Vec::new();
    for r in runs {
        samples.extend(r?);
    }
    for (a, _) in all {
        a.close().await?;
    }
    let rate = samples.len() as f64 / elapsed;
    let (median, p95) = stats(samples);
    Ok((rate, median, p95))
}

async fn bench() -> anyhow::Result<(Vec<Row>, Vec<Breakdown>)> {
    let mut rows = Vec::new();
    let mut row = |what: &str, (median, p95): (f64, f64), note: String| {
        rows.push(Row {
            what: what.into(),
            median,
            p95,
            note,
        });
    };
    let pages = PageServer::start(HashMap::from([
        (
            "/small.html",
            Page::html("<!doctype html><title>Small</title><h1>Hello</h1><p>A small page.</p>"),
        ),
        ("/large.html", Page::html(large_page(2_000))),
        ("/table.html", Page::html(table_page(400))),
        ("/many.html", Page::html(many_resources(50))),
        (
            "/px.svg",
            Page::svg("<svg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/>"),
        ),
    ]))
    .await?;
    // Evaluate is switched on so it can be timed; everything else is as a user has it.
    // Timers at 5 µs instead of Firefox's default 1 ms, for the hop-by-hop breakdown only.
    let browser = Browser::start_with_options(claudezilla_e2e::browser::Options {
        env: vec![("CLAUDEZILLA_ALLOW_EVALUATE".into(), "1".into())],
        prefs: vec![(
            "privacy.resistFingerprinting.reduceTimerPrecision.microseconds".into(),
            "5".into(),
        )],
        ..Default::default()
    })
    .await?;
    let log = browser.path().join("mcp.log");
    let baseline = idle_cpu(&browser).await;

    let mut spawned = Vec::new();
    let init = time(20, async || {
        spawned.push(Agent::spawn(browser.runtime.path(), &log).await?);
        Ok(())
    })
    .await?;
    for agent in spawned {
        agent.close().await?;
    }
    row(
        "MCP spawn → initialized",
        init,
        "process start + initialize handshake".into(),
    );

    let mut raw = RawClient::connect(&browser.runtime).await?;
    let ping = time(300, async || {
        raw.call(Command::Ping)
            .await?
            .map(|_| ())
            .map_err(|e| anyhow::anyhow!("{e}"))
    });
    row(
        "raw socket ping (→ host → extension → back)",
        ping.await?,
        "no MCP server".into(),
    );

    let agent = Agent::spawn(browser.runtime.path(), &log).await?;
    let small = agent.open(&pages.url("/small.html")).await?;
    let large = agent.open(&pages.url("/large.html")).await?;

    let tabs = time(300, async || {
        agent
            .call("firefox_get_tabs", json!({}))
            .await?
            .ok()
            .map(|_| ())
    })
    .await?;
    row("firefox_get_tabs", tabs, String::new());
    let content = time(200, async || {
        agent
            .call("firefox_get_content", json!({"tabId": small}))
            .await?
            .ok()
            .map(|_| ())
    });
    row(
        "firefox_get_content, small page",
        content.await?,
        String::new(),
    );
    let chars = agent
        .call("firefox_get_content", json!({"tabId": large}))
        .await?
        .ok()?
        .text
        .chars()
        .count();
    let content = time(100, async || {
        agent
            .call("firefox_get_content", json!({"tabId": large}))
            .await?
            .ok()
            .map(|_| ())
    })
    .await?;
    let content_large = content.0;
    row(
        "firefox_get_content, 2,000-element page",
        content,
        format!("answer {chars} chars"),
    );
    for agents in [1, 4, 8] {
        let (rate, median, p95) = throughput(&browser, &pages, agents).await?;
        row(
            &format!("throughput, {agents} agent(s): get_tabs + get_content"),
            (median, p95),
            format!("{rate:.0} calls/s"),
        );
    }

    let snap = agent
        .call("firefox_snapshot", json!({"tabId": large}))
        .await?
        .ok()?
        .text;
    let snapshot = time(30, async || {
        agent
            .call("firefox_snapshot", json!({"tabId": large}))
            .await?
            .ok()
            .map(|_| ())
    });
    row(
        "firefox_snapshot, 2,000-element page",
        snapshot.await?,
        format!("{} chars ≈ {} tokens", snap.len(), snap.len() / 4),
    );
    let table = agent.open(&pages.url("/table.html")).await?;
    let table_snap = agent
        .call("firefox_snapshot", json!({"tabId": table}))
        .await?
        .ok()?
        .text;
    let refs = table_snap
        .split_whitespace()
        .filter(|w| w.len() > 1 && w.starts_with('e') && w[1..].bytes().all(|b| b.is_ascii_digit()))
        .count();
    let table_time = time(30, async || {
        agent
            .call("firefox_snapshot", json!({"tabId": table}))
            .await?
            .ok()
            .map(|_| ())
    });
    row(
        "firefox_snapshot, 400-row table (link, button, text per row)",
        table_time.await?,
        format!(
            "{} chars ≈ {} tokens, {} lines, {refs} refs",
            table_snap.len(),
            table_snap.len() / 4,
            table_snap.lines().count()
        ),
    );
    let small_snap = agent
        .call(
            "firefox_snapshot",
            json!({"tabId": large, "interactiveOnly": true}),
        )
        .await?
        .ok()?
        .text;
    let interactive = time(30, async || {
        agent
            .call(
                "firefox_snapshot",
                json!({"tabId": large, "interactiveOnly": true}),
            )
            .await?
            .ok()
            .map(|_| ())
    });
    row(
        "firefox_snapshot interactiveOnly, same page",
        interactive.await?,
        format!("{} chars", small_snap.len()),
    );
    let md = agent
        .call(
            "firefox_get_content",
            json!({"tabId": large, "format": "markdown"}),
        )
        .await?
        .ok()?
        .text;
    let markdown = time(30, async || {
        agent
            .call(
                "firefox_get_content",
                json!({"tabId": large, "format": "markdown"}),
            )
            .await?
            .ok()
            .map(|_| ())
    });
    row(
        "firefox_get_content markdown, same page",
        markdown.await?,
        format!("{} chars", md.len()),
    );
    let click = time(100, async || {
        agent
            .call(
                "firefox_click",
                json!({"tabId": large, "selector": "#s10 button"}),
            )
            .await?
            .ok()
            .map(|_| ())
    });
    row("firefox_click", click.await?, String::new());
    let typing = time(100, async || {
        agent
            .call(
                "firefox_type",
                json!({"tabId": large, "selector": "#s10 input", "text": "hi", "clear": true}),
            )
            .await?
            .ok()
            .map(|_| ())
    });
    row("firefox_type", typing.await?, String::new());
    let mut bytes = 0;
    let shot = time(50, async || {
        let r = agent
            .call("firefox_screenshot", json!({"tabId": small}))
            .await?
            .ok()?;
        bytes = r.images[0].1.len() * 3 / 4;
        Ok(())
    });
    let shot = shot.await?;
    let shot_small = shot.0;
    row(
        "firefox_screenshot, small page (default read-text, with readiness)",
        shot,
        format!("{:.1} KB JPEG", bytes as f64 / 1000.0),
    );
    // The raw client is an agent of its own: it needs tabs of its own.
    let mut raw_tabs = Vec::new();
    for path in ["/small.html", "/large.html"] {
        let args = serde_json::from_value(json!({"url": pages.url(path)}))?;
        match raw.call(Command::CreateWindow(args)).await? {
            Ok(claudezilla_protocol::Reply::Tab(t)) => raw_tabs.push(t.tab_id.0),
            other => anyhow::bail!("{other:?}"),
        }
    }
    // Hop by hop: the same calls traced through the raw socket, one at a time, and through
    // MCP on tabs the agent opened at the same moment (a tab's age changes what it costs).
    let fresh_small = agent.open(&pages.url("/small.html")).await?;
    let fresh_large = agent.open(&pages.url("/large.html")).await?;
    let mcp_median = async |tool: &str, tab: u32, n: usize| {
        time(n, async || {
            agent
                .call(tool, json!({"tabId": tab}))
                .await?
                .ok()
                .map(|_| ())
        })
        .await
        .map(|t| t.0)
    };
    let content_fresh = mcp_median("firefox_get_content", fresh_large, 100).await?;
    let shot_fresh = mcp_median("firefox_screenshot", fresh_small, 50).await?;
    let get_content = Command::GetContent(serde_json::from_value(json!({"tabId": raw_tabs[1]}))?);
    let screenshot = Command::Screenshot(serde_json::from_value(json!({"tabId": raw_tabs[0]}))?);
    let breakdown = vec![
        hops(
            &mut raw,
            &get_content,
            100,
            "get_content, 2,000-element page",
            content_fresh,
        )
        .await?,
        hops(
            &mut raw,
            &screenshot,
            50,
            "screenshot, small page",
            shot_fresh,
        )
        .await?,
    ];
    eprintln!(
        "(the first MCP timings of these: get_content {content_large:.2} ms, screenshot {shot_small:.2} ms)"
    );
    // Side by side, without MCP and without readiness: our Rust pipeline, the browser's JPEG.
    for (what, browser) in [
        ("Rust/wasm pipeline", false),
        ("browser's own JPEG encoder", true),
    ] {
        for (page, tab) in [("small", raw_tabs[0]), ("large", raw_tabs[1])] {
            let mut size = 0;
            let args: claudezilla_protocol::args::ScreenshotArgs = serde_json::from_value(
                json!({"tabId": tab, "skipReadiness": true, "browserEncoder": browser}),
            )?;
            let timed = time(40, async || {
                match raw.call(Command::Screenshot(args.clone())).await? {
                    Ok(claudezilla_protocol::Reply::Screenshot(s)) => size = s.data.len() * 3 / 4,
                    other => anyhow::bail!("{other:?}"),
                }
                Ok(())
            });
            row(
                &format!("screenshot read-text, {page} page, {what} (raw socket)"),
                timed.await?,
                format!("{:.1} KB", size as f64 / 1000.0),
            );
        }
    }
    for purpose in ["quick-glance", "inspect-ui", "full-detail"] {
        let mut size = 0;
        let timed = time(20, async || {
            let r = agent
                .call(
                    "firefox_screenshot",
                    json!({"tabId": large, "purpose": purpose}),
                )
                .await?
                .ok()?;
            size = r.images[0].1.len() * 3 / 4;
            Ok(())
        });
        row(
            &format!("firefox_screenshot {purpose}, large page"),
            timed.await?,
            format!("{:.1} KB", size as f64 / 1000.0),
        );
    }
    let mut size = 0;
    let timed = time(10, async || {
        let r = agent
            .call(
                "firefox_screenshot",
                json!({"tabId": large, "fullPage": true}),
            )
            .await?
            .ok()?;
        size = r.images[0].1.len() * 3 / 4;
        Ok(())
    });
    row(
        "firefox_screenshot fullPage, large page",
        timed.await?,
        format!("{:.1} KB", size as f64 / 1000.0),
    );
    let nav = time(30, async || {
        agent
            .call(
                "firefox_navigate",
                json!({"tabId": small, "url": pages.url("/small.html")}),
            )
            .await?
            .ok()
            .map(|_| ())
    });
    row(
        "firefox_navigate (local page, until loaded)",
        nav.await?,
        String::new(),
    );

    // What routes cost the pages they do not touch: a page of 50 images loaded in another
    // agent's tab (as a user's tab would load it), with no route anywhere, then while this
    // agent holds 50 routes (the blocking listeners make every request ask the background).
    let other = Agent::spawn(browser.runtime.path(), &log).await?;
    let theirs = other.open(&pages.url("/small.html")).await?;
    let many = pages.url("/many.html");
    let mut load = async || {
        other
            .call("firefox_navigate", json!({"tabId": theirs, "url": many}))
            .await?
            .ok()
            .map(|_| ())
    };
    let quiet = time(30, &mut load).await?;
    for i in 0..50 {
        agent
            .call(
                "firefox_route",
                json!({"pattern": format!("**/never-{i}/*"), "action": "abort"}),
            )
            .await?
            .ok()?;
    }
    let routed = time(30, &mut load).await?;
    agent.call("firefox_unroute", json!({})).await?.ok()?;
    row(
        "page of 50 images in another tab, no routes",
        quiet,
        "no request waits on the extension".into(),
    );
    row(
        "the same, while an agent holds 50 routes",
        routed,
        format!("+{:.2} ms median per load", routed.0 - quiet.0),
    );
    other.close().await?;

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
        let timed = time(100, async || {
            agent.call(tool, args.clone()).await?.ok().map(|_| ())
        });
        row(tool, timed.await?, note.to_owned());
    }

    let list = serde_json::to_string(&json!({"tools": agent.tools().await?}))?;
    row(
        "tools/list",
        (0.0, 0.0),
        format!(
            "{} chars ≈ {} tokens",
            list.chars().count(),
            list.chars().count() / 4
        ),
    );

    let mcp_rss = rss_kib(agent.pid());
    let host_rss = browser
        .host_pids()
        .first()
        .map(|p| rss_kib(*p as u32))
        .unwrap_or(0);
    row(
        "resident memory",
        (0.0, 0.0),
        format!(
            "MCP server {:.1} MiB, host {:.1} MiB",
            mcp_rss as f64 / 1024.0,
            host_rss as f64 / 1024.0
        ),
    );

    // Idle cost: agent tabs open, nobody calling (compare with the baseline before any tab).
    let idle = idle_cpu(&browser).await;
    row(
        "idle Firefox with 2 agent tabs open",
        (0.0, 0.0),
        format!("{idle:.1} % of one core (no agent tab: {baseline:.1} %)"),
    );
    agent.close().await?;
    Ok((rows, breakdown))
}

/// A page of `n` images, each its own request.
fn many_resources(n: usize) -> String {
    let images: String = (0..n).map(|i| format!("<img src=/px.svg?n={i}>")).collect();
    format!("<!doctype html><title>Many</title>{images}")
}

/// The environment variable naming another build of the extension to compare with.
const BASELINE: &str = "CLAUDEZILLA_BENCH_BASELINE";

/// Two builds side by side: this one and the extension folder `baseline`, each in its own
/// Firefox, the same calls on the same pages in interleaved rounds (A B, B A, …), so that what
/// the machine does meanwhile falls on both alike. Prints each call's median and p95 per build.
async fn compare(baseline: std::path::PathBuf) -> anyhow::Result<()> {
    let pages = PageServer::start(HashMap::from([
        ("/large.html", Page::html(large_page(2_000))),
        ("/table.html", Page::html(table_page(400))),
        (
            "/form.html",
            Page::html("<!doctype html><title>Form</title><input id=f>"),
        ),
    ]))
    .await?;
    let mut sides = Vec::new();
    for extension in [None, Some(baseline)] {
        let browser = Browser::start_with_options(claudezilla_e2e::browser::Options {
            extension,
            ..Default::default()
        })
        .await?;
        let agent = Agent::spawn(browser.runtime.path(), &browser.path().join("mcp.log")).await?;
        let large = agent.open(&pages.url("/large.html")).await?;
        let table = agent.open(&pages.url("/table.html")).await?;
        let form = agent.open(&pages.url("/form.html")).await?;
        sides.push((browser, agent, [large, table, form]));
    }
    let calls = |[large, table, form]: [u32; 3]| {
        [
            (
                "firefox_snapshot, 2,000-element page",
                "firefox_snapshot",
                json!({"tabId": large}),
            ),
            (
                "firefox_snapshot, 400-row table",
                "firefox_snapshot",
                json!({"tabId": table}),
            ),
            (
                "firefox_snapshot interactiveOnly, 2,000-element page",
                "firefox_snapshot",
                json!({"tabId": large, "interactiveOnly": true}),
            ),
            (
                "firefox_type",
                "firefox_type",
                json!({"tabId": form, "selector": "#f", "text": "hello", "clear": true}),
            ),
            (
                "firefox_click",
                "firefox_click",
                json!({"tabId": form, "selector": "#f"}),
            ),
        ]
    };
    let mut samples: Vec<[Vec<f64>; 2]> = vec![[Vec::new(), Vec::new()]; 5];
    for round in 0..8 {
        for k in 0..2 {
            let side = if round % 2 == 0 { k } else { 1 - k };
            let (_, agent, tabs) = &sides[side];
            for (row, (_, tool, args)) in calls(*tabs).into_iter().enumerate() {
                for i in 0..6 {
                    let t = Instant::now();
                    agent.call(tool, args.clone()).await?.ok()?;
                    if i > 0 {
                        samples[row][side].push(t.elapsed().as_secs_f64() * 1e3);
                    }
                }
            }
        }
    }
    println!("| call | this build: median / p95 ms | baseline: median / p95 ms |\n|---|---|---|");
    for (row, (what, _, _)) in calls([0, 0, 0]).into_iter().enumerate() {
        let [this, base] = samples[row].clone();
        let ((m, p), (bm, bp)) = (stats(this), stats(base));
        println!("| {what} | {m:.2} / {p:.2} | {bm:.2} / {bp:.2} |");
    }
    for (browser, agent, _) in sides {
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
    let (rows, breakdown) = rt.block_on(bench())?;
    println!("| what | median ms | p95 ms | note |\n|---|---|---|---|");
    for r in rows {
        let (m, p) = if r.median == 0.0 {
            ("".into(), "".into())
        } else {
            (format!("{:.2}", r.median), format!("{:.2}", r.p95))
        };
        println!("| {} | {m} | {p} | {} |", r.what, r.note);
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
