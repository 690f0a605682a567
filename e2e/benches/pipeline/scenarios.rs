//! The measured scenarios beyond one call a row: hop splits, navigation against the page's
//! own timing, routes, waits, throughput with several agents, and facts about the pipeline.

use super::*;

/// Firefox's pref for the precision of the page's clocks (1 ms by default).
pub(crate) const TIMER_PRECISION: &str =
    "privacy.resistFingerprinting.reduceTimerPrecision.microseconds";

pub(crate) const HOPS: [&str; 7] = [
    "MCP server (stdio, JSON-RPC, checks, rendering)",
    "Unix socket + host (both ways)",
    "native messaging, host ⇄ background (both ways)",
    "background (routing, ownership, capture and encoding)",
    "the browser loading the page (asked → its load event heard)",
    "background ⇄ content script messaging",
    "content script (DOM work)",
];

/// `n` sequential traced calls through the raw socket, split into hops.
pub(crate) async fn hops(
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

/// `n` timed calls of `f` after a warm-up of a tenth as many (at least one): the samples in ms.
pub(crate) async fn time(
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

/// `agents` agents, each with its own tab, alternate get_tabs and get_content as fast as they
/// can for 4 s. Returns calls per second and the latencies.
pub(crate) async fn throughput(
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

/// Navigation: the call alone, the call and a read of the page (what an agent does next), and
/// how long after the page's own load event the answer reached the client (the page's
/// navigation timing against the client's clock: one machine, one clock).
pub(crate) async fn navigation(
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
        let [load_end, load] = load_timing(agent, tab).await?;
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
    // Navigate, then read: where every task begins. The page's own load (navigation start to
    // its load event) in the same row, since the rest is ours. Twice: a page whose load is
    // all CPU, and one whose load waits for the network (an image that takes 150 ms), where
    // the content module can be ready before the load event.
    for (path, what) in [
        ("/small.html", "local page"),
        ("/slow.html", "a page whose image takes 150 ms"),
    ] {
        let navigate = json!({"tabId": tab, "url": pages.url(path)});
        let (mut read, mut loads) = (Vec::new(), Vec::new());
        for k in 0..11 {
            let t = Instant::now();
            agent
                .call("firefox_navigate", navigate.clone())
                .await?
                .ok()?;
            agent
                .call("firefox_get_content", json!({"tabId": tab}))
                .await?
                .ok()?;
            let took = t.elapsed().as_secs_f64() * 1e3;
            // The first was the warm-up.
            if k > 0 {
                read.push(took);
                loads.push(load_timing(agent, tab).await?[1]);
            }
        }
        rows.add(
            &format!("{NAVIGATE_AND_READ}, {what}"),
            read,
            format!(
                "the page's own load (navigation start → load event): {:.1} ms",
                stats(loads).0
            ),
        );
    }
    // Back to the small page: later rows read this tab's request log.
    let back = json!({"tabId": tab, "url": pages.url("/small.html")});
    agent.call("firefox_navigate", back).await?.ok()?;
    Ok(())
}

/// The rows of a navigation and the first read after it (the page follows).
pub(crate) const NAVIGATE_AND_READ: &str =
    "navigate + first read (`firefox_navigate`, then `firefox_get_content`)";

/// The page's navigation timing: when its load event ended (on the client's clock: one
/// machine, one clock) and how long from navigation start (ms).
async fn load_timing(agent: &Agent, tab: u32) -> anyhow::Result<[f64; 2]> {
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
    serde_json::from_str(json.trim())
        .map_err(|e| anyhow::anyhow!("navigation timing {timing:?}: {e}"))
}

/// The content module's start in a new document, from the document's first byte to ready to
/// answer, as the first read after each navigation reports it (a traced call through the raw
/// socket; a build that does not report it adds no samples).
pub(crate) async fn content_startup(
    raw: &mut RawClient,
    tab: u32,
    url: &str,
    rows: &mut Rows,
) -> anyhow::Result<()> {
    let mut samples = Vec::new();
    for _ in 0..6 {
        let go = json!({"tabId": tab, "url": url});
        raw.call(Command::Navigate(serde_json::from_value(go)?))
            .await?
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let read = Command::GetContent(serde_json::from_value(json!({"tabId": tab}))?);
        let (_, times) = raw.call_traced(read).await?;
        if let Some(t) = times.filter(|t| t.startup_us > 0) {
            samples.push(t.startup_us as f64 / 1e3);
        }
    }
    rows.add(
        "content-script startup (the document's first byte → ready to answer)",
        samples,
        String::new(),
    );
    Ok(())
}

/// The content module's size in an extension folder, in bytes.
pub(crate) fn module_size(extension: &std::path::Path) -> u64 {
    std::fs::metadata(extension.join("wasm/content_bg.wasm")).map_or(0, |m| m.len())
}

/// What routes cost the pages they do not touch: a page of 50 images loaded in another agent's
/// tab (as a user's tab would load it), with no route anywhere, then while this agent holds 50
/// routes (the blocking listeners make every request ask the background).
pub(crate) async fn routes(
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
pub(crate) async fn breakdown(b: &mut Bench) -> anyhow::Result<Vec<Breakdown>> {
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
pub(crate) async fn facts(b: &Bench, rows: &mut Rows) -> anyhow::Result<()> {
    let agent = &b.agent;
    let args = json!({"tabId": b.large, "fullPage": true});
    let (full, kb) = screenshots(agent, 4, args).await?;
    rows.add(
        "`firefox_screenshot fullPage`, 2,000-element page",
        full,
        format!("{kb:.1} KB (one round)"),
    );
    rows.fact(
        "content module (`content_bg.wasm`)",
        format!(
            "{} bytes",
            module_size(&claudezilla_e2e::root().join("extension-shell"))
        ),
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
pub(crate) const LATE_PAGE: &str = "<!doctype html><title>Late</title><script>let n = 0</script>\
    <button id=add onclick=\"document.getElementById('late')?.remove(); \
      fetch('/px.svg').then(r => r.text()).then(() => { \
        const p = document.createElement('p'); p.id = 'late'; p.textContent = 'late'; \
        document.body.append(p); })\">add</button>\
    <button id=move onclick=\"fetch('/px.svg').then(r => r.text()).then(() => \
      history.pushState(null, '', '?n=' + ++n))\">move</button>";

/// Waits for what a page does a moment after a click: an element it adds, an address it moves
/// to (its number counted alike by the page and here, in `moves`). The agent tab is a
/// background tab, where a poll on a timer runs once a second.
pub(crate) async fn waits(
    agent: &Agent,
    tab: u32,
    moves: &mut u32,
    rows: &mut Rows,
) -> anyhow::Result<()> {
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

pub(crate) const WAIT_ELEMENT: &str =
    "`firefox_click` + `firefox_wait_for {selector}` of what the page adds after a fetch";
pub(crate) const WAIT_URL: &str =
    "`firefox_click` + `firefox_wait_for {url}` of the page's pushState";

/// A page of `n` images, each its own request.
pub(crate) fn many_resources(n: usize) -> String {
    let images: String = (0..n).map(|i| format!("<img src=/px.svg?n={i}>")).collect();
    format!("<!doctype html><title>Many</title>{images}")
}

/// The user's own page loads (navigation start → load event, the page's timing), driven in
/// the user's first tab through Marionette, while an agent's full-page screenshots keep the
/// background busy: the user's loads must not wait on the background.
pub(crate) async fn user_loads_while_busy(
    agent: &Agent,
    ui: &mut claudezilla_e2e::marionette::Marionette,
    pages: &PageServer,
    busy_tab: u32,
    rows: &mut Rows,
) -> anyhow::Result<()> {
    let done = std::sync::atomic::AtomicBool::new(false);
    let busy = async {
        let shot = json!({"tabId": busy_tab, "fullPage": true});
        while !done.load(std::sync::atomic::Ordering::Relaxed) {
            agent.call("firefox_screenshot", shot.clone()).await?.ok()?;
        }
        anyhow::Ok(())
    };
    let loads = async {
        let samples = user_loads(ui, pages).await;
        // The screenshots stop whatever the loads came to, or the row would never end.
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        samples
    };
    let (busy, samples) = tokio::join!(busy, loads);
    busy?;
    rows.add(
        "a user's page load (their own tab) while an agent's full-page screenshots run",
        samples?,
        "navigation start → load event, the page's timing".into(),
    );
    Ok(())
}

/// Eight of the user's page loads, timed by the page (the first, a warm-up, left out).
async fn user_loads(
    ui: &mut claudezilla_e2e::marionette::Marionette,
    pages: &PageServer,
) -> anyhow::Result<Vec<f64>> {
    let mut samples = Vec::new();
    for i in 0..9 {
        let url = pages.url(&format!("/small.html?user{i}"));
        ui.command("WebDriver:Navigate", json!({"url": url}))
            .await?;
        let script =
            "const n = performance.getEntriesByType('navigation')[0]; return n.loadEventEnd;";
        let took = ui
            .command(
                "WebDriver:ExecuteScript",
                json!({"script": script, "args": []}),
            )
            .await?["value"]
            .as_f64()
            .context("no load timing")?;
        // The first runs before the screenshots are under way.
        if i > 0 {
            samples.push(took);
        }
    }
    Ok(samples)
}
