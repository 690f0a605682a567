//! The end-to-end benchmark: times each hop and each tool against a real headless Firefox and
//! prints a Markdown table for the README (`cargo xtask bench`). Figures, not assertions.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use claudezilla_e2e::pages::{Page, large_page, table_page};
use claudezilla_e2e::{Agent, Browser, PageServer, RawClient};
use claudezilla_protocol::Command;
use serde_json::json;

/// One timed row: every sample of every round, each round's median, and a note.
struct Row {
    what: String,
    samples: Vec<f64>,
    round_medians: Vec<f64>,
    note: String,
}

impl Row {
    /// Median and p95 of every sample, and the lowest and highest round median.
    fn summary(&self) -> (f64, f64, f64, f64) {
        let (median, p95) = stats(self.samples.clone());
        let (low, high) = self
            .round_medians
            .iter()
            .fold((f64::MAX, 0.0f64), |(l, h), m| (l.min(*m), h.max(*m)));
        (median, p95, low, high)
    }
}

/// The table's rows in the order first measured; a row measured again (the next round) gathers
/// its samples with the earlier ones.
#[derive(Default)]
struct Rows(Vec<Row>);

impl Rows {
    fn add(&mut self, what: &str, samples: Vec<f64>, note: String) {
        let median = stats(samples.clone()).0;
        match self.0.iter_mut().find(|r| r.what == what) {
            Some(r) => {
                r.samples.extend(samples);
                r.round_medians.push(median);
                r.note = note;
            }
            None => self.0.push(Row {
                what: what.into(),
                samples,
                round_medians: vec![median],
                note,
            }),
        }
    }

    /// A row with a figure that is not a time (sizes, memory).
    fn fact(&mut self, what: &str, note: String) {
        self.add(what, Vec::new(), note);
    }
}

/// Where one tool's time goes, hop by hop (medians in ms; the MCP server's share is the MCP
/// call's median less the raw socket call's).
struct Breakdown {
    what: String,
    mcp_total: f64,
    hops: Vec<(&'static str, f64)>,
}

/// Firefox's pref for the precision of the page's clocks (1 ms by default).
const TIMER_PRECISION: &str = "privacy.resistFingerprinting.reduceTimerPrecision.microseconds";

/// Every timed row is measured in this many rounds, one after the other over all rows, so
/// that what the machine does meanwhile shows as a spread instead of moving one row.
const ROUNDS: usize = 3;

const HOPS: [&str; 7] = [
    "MCP server (stdio, JSON-RPC, checks, rendering)",
    "Unix socket + host (both ways)",
    "native messaging, host ⇄ background (both ways)",
    "background (routing, ownership, capture and encoding)",
    "the browser loading the page (asked → its load event heard)",
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
            ms(times
                .background_us
                .saturating_sub(times.content_us + times.load_us)),
            ms(times.load_us),
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

/// Median and p95 (zeros for no samples).
fn stats(mut samples: Vec<f64>) -> (f64, f64) {
    if samples.is_empty() {
        return (0.0, 0.0);
    }
    samples.sort_by(f64::total_cmp);
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.95))
}

/// `n` timed calls of `f` after a warm-up of a tenth as many (at least one): the samples in ms.
async fn time(
    n: usize,
    mut f: impl AsyncFnMut() -> anyhow::Result<()>,
) -> anyhow::Result<Vec<f64>> {
    for _ in 0..(n / 10).max(1) {
        f().await?; // warm-up
    }
    let mut samples = Vec::with_capacity(n);
    for _ in 0..n {
        let t = Instant::now();
        f().await?;
        samples.push(t.elapsed().as_secs_f64() * 1e3);
    }
    Ok(samples)
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
/// can for 4 s. Returns calls per second and the latencies.
async fn throughput(
    browser: &Browser,
    pages: &PageServer,
    agents: usize,
) -> anyhow::Result<(f64, Vec<f64>)> {
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
    Ok((samples.len() as f64 / elapsed, samples))
}

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
fn options(extension: Option<std::path::PathBuf>) -> claudezilla_e2e::browser::Options {
    claudezilla_e2e::browser::Options {
        extension,
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
    let browser = Browser::start_with_options(options(None)).await?;
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
    let Bench {
        browser,
        pages,
        log,
        agent,
        raw,
        small,
        large,
        table,
        late,
        moves,
        raw_tabs,
    } = b;
    let (small, large, table, agent) = (*small, *large, *table, &*agent);
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
    waits(agent, *late, moves, rows).await?;
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

/// Navigation: the call alone, the call and a read of the page (what an agent does next), and
/// how long after the page's own load event the answer reached the client (the page's
/// navigation timing against the client's clock: one machine, one clock).
async fn navigation(
    agent: &Agent,
    pages: &PageServer,
    tab: u32,
    rows: &mut Rows,
) -> anyhow::Result<()> {
    let url = pages.url("/small.html");
    let navigate = json!({"tabId": tab, "url": url});
    // Per navigation: the call, the browser's load within it, and the answer after it.
    let mut parts: Vec<[f64; 3]> = Vec::new();
    time(10, async || {
        let t = Instant::now();
        agent
            .call("firefox_navigate", navigate.clone())
            .await?
            .ok()?;
        let took = t.elapsed().as_secs_f64() * 1e3;
        let answered = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH)?;
        let timing = agent
            .call(
                "firefox_evaluate",
                json!({"tabId": tab, "expression":
                    "(() => { const n = performance.getEntriesByType('navigation')[0]; \
                     return [performance.timeOrigin + n.loadEventEnd, n.loadEventEnd - n.startTime]; })()"}),
            )
            .await?
            .ok()?
            .text;
        // Answered as "(object) [end, load]".
        let json = timing.split_once(") ").map_or(timing.as_str(), |(_, v)| v);
        let [load_end, load]: [f64; 2] = serde_json::from_str(json.trim())
            .map_err(|e| anyhow::anyhow!("navigation timing {timing:?}: {e}"))?;
        parts.push([took, load, answered.as_secs_f64() * 1e3 - load_end]);
        Ok(())
    })
    .await?;
    // The first was the warm-up.
    let part = |k: usize| parts.iter().skip(1).map(|p| p[k]).collect::<Vec<_>>();
    let before = parts
        .iter()
        .skip(1)
        .map(|[took, load, after]| took - load - after);
    rows.add(
        "`firefox_navigate`, local page, until loaded",
        part(0),
        String::new(),
    );
    rows.add(
        "… before the page's navigation started",
        before.collect(),
        "our call reaching the browser, the old page unloading".into(),
    );
    rows.add(
        "… the browser's load (navigation start → load event, the page's timing)",
        part(1),
        String::new(),
    );
    rows.add(
        "… the answer at the client after the page's load event",
        part(2),
        "background, native messaging, host, MCP".into(),
    );
    let read = time(10, async || {
        agent
            .call("firefox_navigate", navigate.clone())
            .await?
            .ok()?;
        agent
            .call("firefox_get_content", json!({"tabId": tab}))
            .await?
            .ok()
            .map(|_| ())
    })
    .await?;
    rows.add(
        "`firefox_navigate` + `firefox_get_content`, local page",
        read,
        "navigate until the page is readable".into(),
    );
    Ok(())
}

/// What routes cost the pages they do not touch: a page of 50 images loaded in another agent's
/// tab (as a user's tab would load it), with no route anywhere, then while this agent holds 50
/// routes (the blocking listeners make every request ask the background).
async fn routes(
    browser: &Browser,
    pages: &PageServer,
    log: &std::path::Path,
    agent: &Agent,
    rows: &mut Rows,
) -> anyhow::Result<()> {
    let other = Agent::spawn(browser.runtime.path(), log).await?;
    let theirs = other.open(&pages.url("/small.html")).await?;
    let many = pages.url("/many.html");
    let mut load = async || {
        other
            .call("firefox_navigate", json!({"tabId": theirs, "url": many}))
            .await?
            .ok()
            .map(|_| ())
    };
    let quiet = time(10, &mut load).await?;
    for i in 0..50 {
        agent
            .call(
                "firefox_route",
                json!({"pattern": format!("**/never-{i}/*"), "action": "abort"}),
            )
            .await?
            .ok()?;
    }
    let routed = time(10, &mut load).await?;
    agent.call("firefox_unroute", json!({})).await?.ok()?;
    other.close().await?;
    let added = stats(routed.clone()).0 - stats(quiet.clone()).0;
    rows.add(
        "page of 50 images in another tab, no routes",
        quiet,
        "no request waits on the extension".into(),
    );
    rows.add(
        "the same, while an agent holds 50 routes",
        routed,
        format!("{added:+.2} ms median per load (last round)"),
    );
    Ok(())
}

/// Hop by hop: calls traced through the raw socket, one at a time, and through MCP on tabs the
/// agent opened at the same moment (a tab's age changes what it costs).
async fn breakdown(b: &mut Bench) -> anyhow::Result<Vec<Breakdown>> {
    let fresh_small = b.agent.open(&b.pages.url("/small.html")).await?;
    let fresh_large = b.agent.open(&b.pages.url("/large.html")).await?;
    let agent = &b.agent;
    let mcp_median = async |tool: &str, args: serde_json::Value, n: usize| {
        time(n, async || {
            agent.call(tool, args.clone()).await?.ok().map(|_| ())
        })
        .await
        .map(|t| stats(t).0)
    };
    let small_url = b.pages.url("/small.html");
    let content = mcp_median("firefox_get_content", json!({"tabId": fresh_large}), 100).await?;
    let shot = mcp_median("firefox_screenshot", json!({"tabId": fresh_small}), 50).await?;
    let nav = mcp_median(
        "firefox_navigate",
        json!({"tabId": fresh_small, "url": small_url}),
        30,
    )
    .await?;
    let [raw_small, raw_large] = b.raw_tabs;
    let get_content = Command::GetContent(serde_json::from_value(json!({"tabId": raw_large}))?);
    let screenshot = Command::Screenshot(serde_json::from_value(json!({"tabId": raw_small}))?);
    let navigate = Command::Navigate(serde_json::from_value(
        json!({"tabId": raw_small, "url": small_url}),
    )?);
    Ok(vec![
        hops(
            &mut b.raw,
            &get_content,
            100,
            "`get_content`, 2,000-element page",
            content,
        )
        .await?,
        hops(
            &mut b.raw,
            &screenshot,
            50,
            "`screenshot`, small page",
            shot,
        )
        .await?,
        hops(&mut b.raw, &navigate, 30, "`navigate`, small page", nav).await?,
    ])
}

/// The rows measured once: the slow full-page screenshot, and sizes.
async fn facts(b: &Bench, rows: &mut Rows) -> anyhow::Result<()> {
    let agent = &b.agent;
    let args = json!({"tabId": b.large, "fullPage": true});
    let (full, kb) = screenshots(agent, 4, args).await?;
    rows.add(
        "`firefox_screenshot fullPage`, 2,000-element page",
        full,
        format!("{kb:.1} KB (one round)"),
    );
    let list = serde_json::to_string(&json!({"tools": agent.tools().await?}))?;
    let chars = list.chars().count();
    rows.fact(
        "`tools/list`",
        format!("{chars} chars ≈ {} tokens", chars / 4),
    );
    let mcp_rss = rss_kib(agent.pid());
    let host_rss = b
        .browser
        .host_pids()
        .first()
        .map(|p| rss_kib(*p as u32))
        .unwrap_or(0);
    rows.fact(
        "resident memory",
        format!(
            "MCP server {:.1} MiB, host {:.1} MiB",
            mcp_rss as f64 / 1024.0,
            host_rss as f64 / 1024.0
        ),
    );
    Ok(())
}

/// A page that changes a moment after a click, when an answer from the network arrives (no
/// timer of the page's own): it adds `#late`, or moves to `?n=…` by `history.pushState`.
const LATE_PAGE: &str = "<!doctype html><title>Late</title><script>let n = 0</script>\
    <button id=add onclick=\"document.getElementById('late')?.remove(); \
      fetch('/px.svg').then(r => r.text()).then(() => { \
        const p = document.createElement('p'); p.id = 'late'; p.textContent = 'late'; \
        document.body.append(p); })\">add</button>\
    <button id=move onclick=\"fetch('/px.svg').then(r => r.text()).then(() => \
      history.pushState(null, '', '?n=' + ++n))\">move</button>";

/// Waits for what a page does a moment after a click: an element it adds, an address it moves
/// to (its number counted alike by the page and here, in `moves`). The agent tab is a
/// background tab, where a poll on a timer runs once a second.
async fn waits(agent: &Agent, tab: u32, moves: &mut u32, rows: &mut Rows) -> anyhow::Result<()> {
    let click_and_wait = async |button: &str, wait: serde_json::Value| {
        agent
            .call("firefox_click", json!({"tabId": tab, "selector": button}))
            .await?
            .ok()?;
        agent.call("firefox_wait_for", wait).await?.ok().map(|_| ())
    };
    let added = time(10, async || {
        click_and_wait("#add", json!({"tabId": tab, "selector": "#late"})).await
    })
    .await?;
    rows.add(
        WAIT_ELEMENT,
        added,
        "in a background tab, as every agent tab".into(),
    );
    let made = std::cell::Cell::new(*moves);
    let moved = time(10, async || {
        made.set(made.get() + 1);
        let glob = format!("**?n={}", made.get());
        click_and_wait("#move", json!({"tabId": tab, "url": glob})).await
    })
    .await?;
    *moves = made.get();
    rows.add(WAIT_URL, moved, String::new());
    Ok(())
}

const WAIT_ELEMENT: &str =
    "`firefox_click` + `firefox_wait_for {selector}` of what the page adds after a fetch";
const WAIT_URL: &str = "`firefox_click` + `firefox_wait_for {url}` of the page's pushState";

/// A page of `n` images, each its own request.
fn many_resources(n: usize) -> String {
    let images: String = (0..n).map(|i| format!("<img src=/px.svg?n={i}>")).collect();
    format!("<!doctype html><title>Many</title>{images}")
}

/// What the machine was and did while the benchmark ran: its processor, the load average,
/// and the time the hypervisor gave to others (steal), which moves every figure on a shared VM.
struct Machine {
    load: String,
    /// The first line of /proc/stat: user, nice, system, idle, iowait, irq, softirq, steal.
    cpu: Vec<u64>,
}

impl Machine {
    fn now() -> Self {
        let load = std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ");
        let cpu = std::fs::read_to_string("/proc/stat")
            .unwrap_or_default()
            .lines()
            .next()
            .unwrap_or_default()
            .split_whitespace()
            .skip(1)
            .take(8)
            .filter_map(|v| v.parse().ok())
            .collect();
        Self { load, cpu }
    }

    fn describe(&self, after: &Machine) -> String {
        let model = std::fs::read_to_string("/proc/cpuinfo")
            .unwrap_or_default()
            .lines()
            .find_map(|l| l.strip_prefix("model name")?.split(':').nth(1))
            .unwrap_or("unknown processor")
            .trim()
            .to_owned();
        let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
        let delta: Vec<u64> = after
            .cpu
            .iter()
            .zip(&self.cpu)
            .map(|(a, b)| a.saturating_sub(*b))
            .collect();
        let total: u64 = delta.iter().sum();
        let share =
            |k: usize| delta.get(k).copied().unwrap_or(0) as f64 * 100.0 / total.max(1) as f64;
        format!(
            "Machine: {model}, {cores} cores. Load average (1/5/15 min) {} before, {} after. \
             While it ran: CPU busy {:.0} %, stolen by the hypervisor {:.1} %.",
            self.load,
            after.load,
            100.0 - share(3) - share(4),
            share(7),
        )
    }
}

/// The environment variable naming another build of the extension to compare with.
const BASELINE: &str = "CLAUDEZILLA_BENCH_BASELINE";

/// Two builds side by side: this one and the extension folder `baseline`, each in its own
/// Firefox, the same calls on the same pages in interleaved rounds (A B, B A, …), so that what
/// the machine does meanwhile falls on both alike. Prints each call's median and p95 per build.
async fn compare(baseline: std::path::PathBuf) -> anyhow::Result<()> {
    let pages = pages().await?;
    let mut sides = Vec::new();
    for extension in [None, Some(baseline)] {
        let browser = Browser::start_with_options(options(extension)).await?;
        let agent = Agent::spawn(browser.runtime.path(), &browser.path().join("mcp.log")).await?;
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
        sides.push((browser, agent, tabs, 0u32, Rows::default()));
    }
    for round in 0..ROUNDS * 2 {
        for k in 0..2 {
            let side = if round % 2 == 0 { k } else { 1 - k };
            let (_, agent, [small, large, table, form, late], moves, rows) = &mut sides[side];
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
                    "`firefox_type`",
                    "firefox_type",
                    json!({"tabId": form, "selector": "#f", "text": "hello", "clear": true}),
                ),
                (
                    "`firefox_click`",
                    "firefox_click",
                    json!({"tabId": form, "selector": "#f"}),
                ),
            ];
            for (what, tool, args) in calls {
                let samples = time(5, async || {
                    agent.call(tool, args.clone()).await?.ok().map(|_| ())
                })
                .await?;
                rows.add(what, samples, String::new());
            }
            navigation(agent, &pages, *small, rows).await?;
            waits(agent, *late, moves, rows).await?;
        }
    }
    println!(
        "| call | this build: median / p95 ms (spread of round medians) | baseline: median / p95 ms (spread) |\n|---|---|---|"
    );
    let cell = |row: &Row| {
        let (m, p, low, high) = row.summary();
        format!("{m:.2} / {p:.2} ({low:.2}–{high:.2})")
    };
    let [this, base] = [&sides[0].4, &sides[1].4];
    for (row, other) in this.0.iter().zip(&base.0) {
        println!("| {} | {} | {} |", row.what, cell(row), cell(other));
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
