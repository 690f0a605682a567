//! End-to-end tests: real headless Firefox ESR, real extension, real host, real MCP servers.
//!
//! Tests that cannot disturb each other share one browser (each uses its own agents and tabs);
//! tests that stop or crash Firefox get their own. Run with `cargo xtask test`.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use anyhow::{Context, bail, ensure};
use base64::Engine;
use claudezilla_e2e::pages::Page;
use claudezilla_e2e::{Agent, Browser, PageServer, RawClient, eventually};
use claudezilla_protocol::{Command, ErrorCode, HostMessage, Reply};
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::json;

/// Longest any one test may run before it counts as hung.
const TEST_LIMIT: Duration = Duration::from_secs(120);

fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime")
    })
}

/// The browser and page server the shared tests use.
struct Shared {
    browser: Browser,
    pages: PageServer,
}

static SHARED: Mutex<Option<Arc<Shared>>> = Mutex::new(None);

fn shared() -> anyhow::Result<Arc<Shared>> {
    let mut slot = SHARED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(s) = slot.as_ref() {
        return Ok(s.clone());
    }
    let s = Arc::new(runtime().block_on(async {
        let pages = PageServer::start(test_pages()).await?;
        let browser = Browser::start().await?;
        anyhow::Ok(Shared { browser, pages })
    })?);
    *slot = Some(s.clone());
    Ok(s)
}

const BASIC: &str = r#"<!doctype html><html><head><title>Basic page</title>
<style>body{margin:0;font:16px sans-serif} #swatch{position:fixed;inset:0;background:rgb(0,160,80);z-index:-1}</style></head>
<body><div id="swatch"></div>
<h1>Claudezilla test page</h1><p id="marker">marker-7f3a</p>
<button id="btn" onclick="window.n=(window.n||0)+1;document.getElementById('out').textContent='clicked '+window.n">Press me</button>
<p id="out">not clicked</p>
<input id="name" value="pre-"><p id="echo">no input yet</p>
<button id="off" disabled>Off</button>
<script>document.getElementById('name').addEventListener('input',e=>{document.getElementById('echo').textContent='echo:'+e.target.value})</script>
</body></html>"#;

fn test_pages() -> HashMap<&'static str, Page> {
    HashMap::from([
        ("/basic.html", Page::html(BASIC)),
        (
            "/other.html",
            Page::html("<!doctype html><title>Other page</title><p>other-91c2</p>"),
        ),
        (
            "/slow.html",
            Page::html(
                "<!doctype html><title>Slow page</title><p id=late>waiting</p><script src=/slow.js></script>",
            ),
        ),
        (
            "/slow.js",
            Page::js("document.getElementById('late').textContent='late-loaded-55e1'")
                .delayed(Duration::from_millis(800)),
        ),
        (
            "/hang.html",
            Page::html(
                "<!doctype html><title>Hanging page</title><p>partial-3b8d</p><img src=/never.png>",
            ),
        ),
        (
            "/never.png",
            Page::html("").delayed(Duration::from_secs(60)),
        ),
        (
            "/long.html",
            Page::html(format!(
                "<!doctype html><title>Long</title><p>{}</p>",
                "word ".repeat(4000)
            )),
        ),
    ])
}

impl Shared {
    async fn agent(&self, name: &str) -> anyhow::Result<Agent> {
        Agent::spawn(
            self.browser.runtime.path(),
            &self.browser.path().join(format!("mcp-{name}.log")),
        )
        .await
    }
}

// ---------------------------------------------------------------- without a browser

async fn no_browser_agent() -> anyhow::Result<(tempfile::TempDir, Agent)> {
    let dir = tempfile::Builder::new().prefix("cz").tempdir_in("/tmp")?;
    let agent = Agent::spawn(&dir.path().join("rt"), &dir.path().join("mcp.log")).await?;
    Ok((dir, agent))
}

async fn lists_the_tools() -> anyhow::Result<()> {
    let (_dir, agent) = no_browser_agent().await?;
    let tools = agent.tools().await?;
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    for want in [
        "firefox_create_window",
        "firefox_navigate",
        "firefox_get_content",
        "firefox_click",
        "firefox_type",
        "firefox_screenshot",
        "firefox_get_tabs",
        "firefox_close_tab",
        "firefox_diagnose",
    ] {
        ensure!(names.contains(&want), "{want} missing from {names:?}");
    }
    for tool in &tools {
        let timeout = &tool.input_schema["properties"]["timeout"];
        ensure!(
            timeout["minimum"] == 5000 && timeout["maximum"] == 300000,
            "{} lacks timeout: {timeout}",
            tool.name
        );
        ensure!(
            tool.description.as_deref().is_some_and(|d| !d.is_empty()),
            "{} has no description",
            tool.name
        );
    }
    Ok(())
}

async fn refuses_bad_arguments() -> anyhow::Result<()> {
    let (_dir, agent) = no_browser_agent().await?;
    let cases = [
        (
            "firefox_navigate",
            json!({"url": "javascript:alert(1)"}),
            "BAD_URL",
            "javascript",
        ),
        (
            "firefox_create_window",
            json!({"url": "data:text/html,hi"}),
            "BAD_URL",
            "\"data\"",
        ),
        (
            "firefox_create_window",
            json!({"url": "about:config"}),
            "BAD_URL",
            "about:blank",
        ),
        (
            "firefox_navigate",
            json!({"url": "moz-extension://x/y"}),
            "BAD_URL",
            "moz-extension",
        ),
        (
            "firefox_get_tabs",
            json!({"timeout": 4999}),
            "INVALID_ARGUMENT",
            "5000–300000",
        ),
        (
            "firefox_get_tabs",
            json!({"timeout": 300001}),
            "INVALID_ARGUMENT",
            "5000–300000",
        ),
        (
            "firefox_click",
            json!({"selector": "a".repeat(1001)}),
            "INVALID_ARGUMENT",
            "at most 1000",
        ),
        (
            "firefox_click",
            json!({"selector": ""}),
            "INVALID_ARGUMENT",
            "empty",
        ),
        (
            "firefox_get_content",
            json!({"maxLength": 0}),
            "INVALID_ARGUMENT",
            "maxLength",
        ),
        (
            "firefox_type",
            json!({"selector": "#a", "text": "x".repeat(100_001)}),
            "INVALID_ARGUMENT",
            "text",
        ),
    ];
    for (tool, args, code, detail) in cases {
        let r = agent.call(tool, args).await?;
        let text = r.expect_error(code).with_context(|| tool.to_owned())?;
        ensure!(
            text.contains(detail),
            "{tool}: {text:?} does not mention {detail:?}"
        );
    }
    // Shape errors come from the schema check: unknown fields, wrong types, missing fields.
    for (tool, args, detail) in [
        (
            "firefox_navigate",
            json!({"url": "about:blank", "tabid": 3}),
            "unknown field `tabid`",
        ),
        ("firefox_close_tab", json!({"tabId": "three"}), "tabId"),
        ("firefox_close_tab", json!({}), "tabId"),
        ("firefox_get_tabs", json!({"timeout": "soon"}), "timeout"),
    ] {
        let r = agent.call(tool, args).await?;
        ensure!(
            r.is_error && r.text.contains(detail),
            "{tool}: {r:?} should mention {detail:?}"
        );
    }
    Ok(())
}

async fn exits_promptly_on_stdin_close() -> anyhow::Result<()> {
    let (_dir, agent) = no_browser_agent().await?;
    let pid = agent.pid();
    let took = agent.close().await?;
    // rmcp's client escalates to SIGTERM after 3 s: a server that honours EOF exits well before.
    ensure!(
        took < Duration::from_millis(2500),
        "server took {took:?} to exit after stdin closed"
    );
    ensure!(
        !std::path::Path::new(&format!("/proc/{pid}")).exists(),
        "server {pid} still running"
    );
    Ok(())
}

// ---------------------------------------------------------------- one shared browser

async fn reads_clicks_types_screenshots_and_closes(s: Arc<Shared>) -> anyhow::Result<()> {
    let a = s.agent("rcts").await?;
    let opened = a
        .call(
            "firefox_create_window",
            json!({"url": s.pages.url("/basic.html")}),
        )
        .await?
        .ok()?;
    ensure!(
        opened.text.contains("loaded") && opened.text.contains("Basic page"),
        "{}",
        opened.text
    );
    let tab = opened.tab_id()?;

    let content = a
        .call("firefox_get_content", json!({"tabId": tab}))
        .await?
        .ok()?;
    ensure!(
        content.text.contains("marker-7f3a") && content.text.contains("not clicked"),
        "{}",
        content.text
    );

    let clicked = a
        .call("firefox_click", json!({"tabId": tab, "selector": "#btn"}))
        .await?
        .ok()?;
    ensure!(clicked.text.contains("button#btn"), "{}", clicked.text);
    let out = a
        .call(
            "firefox_get_content",
            json!({"tabId": tab, "selector": "#out"}),
        )
        .await?
        .ok()?;
    ensure!(out.text.contains("clicked 1"), "{}", out.text);

    let typed = a
        .call(
            "firefox_type",
            json!({"tabId": tab, "selector": "#name", "text": "hello"}),
        )
        .await?
        .ok()?;
    ensure!(
        typed.text.contains("9 characters"),
        "appends to the value: {}",
        typed.text
    );
    let echo = a
        .call(
            "firefox_get_content",
            json!({"tabId": tab, "selector": "#echo"}),
        )
        .await?
        .ok()?;
    ensure!(
        echo.text.contains("echo:pre-hello"),
        "the page saw the input event: {}",
        echo.text
    );
    let typed = a
        .call(
            "firefox_type",
            json!({"tabId": tab, "selector": "#name", "text": "bye", "clear": true}),
        )
        .await?
        .ok()?;
    ensure!(typed.text.contains("3 characters"), "{}", typed.text);
    let echo = a
        .call("firefox_get_content", json!({"selector": "#echo"}))
        .await?
        .ok()?;
    ensure!(
        echo.text.contains("echo:bye"),
        "no tabId means my most recent tab: {}",
        echo.text
    );

    let shot = a
        .call("firefox_screenshot", json!({"tabId": tab}))
        .await?
        .ok()?;
    let (mime, data) = shot.images.first().context("no image block")?;
    ensure!(mime == "image/jpeg", "mime {mime}");
    let bytes = base64::engine::general_purpose::STANDARD.decode(data)?;
    let mut decoder = jpeg_decoder::Decoder::new(&bytes[..]);
    let pixels = decoder.decode()?;
    let info = decoder.info().context("jpeg info")?;
    // Half scale of the 1280-pixel-wide viewport (its height is the window's less the toolbars).
    ensure!(
        info.width == 640 && (300..=400).contains(&info.height),
        "size {}×{}",
        info.width,
        info.height
    );
    ensure!(
        shot.text
            .contains(&format!("{}×{}", info.width, info.height)),
        "{}",
        shot.text
    );
    // Bottom-right corner: only the page's green swatch is there.
    let (w, h) = (info.width as usize, info.height as usize);
    let px = &pixels[((h - 20) * w + (w - 40)) * 3..][..3];
    ensure!(
        px[0] < 40 && (120..200).contains(&px[1]) && (50..110).contains(&px[2]),
        "corner pixel {px:?} is not the page's green"
    );

    let closed = a
        .call("firefox_close_tab", json!({"tabId": tab}))
        .await?
        .ok()?;
    ensure!(
        closed.text.contains(&format!("Closed tab {tab}")),
        "{}",
        closed.text
    );
    let tabs = a.call("firefox_get_tabs", json!({})).await?.ok()?;
    ensure!(
        !tabs.text.contains(&format!("tab {tab} ")),
        "closed tab still listed: {}",
        tabs.text
    );
    let gone = a.call("firefox_get_content", json!({"tabId": tab})).await?;
    gone.expect_error("NO_SUCH_TAB")?;
    Ok(())
}

async fn element_errors_are_clear(s: Arc<Shared>) -> anyhow::Result<()> {
    let a = s.agent("elements").await?;
    let tab = a
        .call(
            "firefox_create_window",
            json!({"url": s.pages.url("/basic.html")}),
        )
        .await?
        .ok()?
        .tab_id()?;
    let missing = a
        .call(
            "firefox_click",
            json!({"tabId": tab, "selector": "#nope", "timeout": 5000}),
        )
        .await?;
    missing.expect_error("ELEMENT_NOT_FOUND")?;
    let invalid = a
        .call("firefox_click", json!({"tabId": tab, "selector": "##"}))
        .await?;
    let text = invalid.expect_error("INVALID_ARGUMENT")?;
    ensure!(text.contains("not valid CSS"), "{text}");
    let disabled = a
        .call("firefox_click", json!({"tabId": tab, "selector": "#off"}))
        .await?;
    ensure!(
        disabled.expect_error("PAGE_ERROR")?.contains("disabled"),
        "{disabled:?}"
    );
    let not_editable = a
        .call(
            "firefox_type",
            json!({"tabId": tab, "selector": "#out", "text": "x"}),
        )
        .await?;
    ensure!(
        not_editable
            .expect_error("PAGE_ERROR")?
            .contains("not editable"),
        "{not_editable:?}"
    );
    let no_part = a
        .call(
            "firefox_get_content",
            json!({"tabId": tab, "selector": "#nope"}),
        )
        .await?;
    no_part.expect_error("ELEMENT_NOT_FOUND")?;

    let long = a
        .call(
            "firefox_navigate",
            json!({"tabId": tab, "url": s.pages.url("/long.html")}),
        )
        .await?
        .ok()?;
    ensure!(long.text.contains("loaded"), "{}", long.text);
    let cut = a
        .call(
            "firefox_get_content",
            json!({"tabId": tab, "maxLength": 100}),
        )
        .await?
        .ok()?;
    ensure!(
        cut.text.contains("[Truncated: showing the first 100 of"),
        "{}",
        cut.text
    );

    let blank = a
        .call(
            "firefox_navigate",
            json!({"tabId": tab, "url": "about:blank"}),
        )
        .await?
        .ok()?;
    ensure!(blank.text.contains("about:blank"), "{}", blank.text);
    let unscriptable = a.call("firefox_get_content", json!({"tabId": tab})).await?;
    unscriptable.expect_error("PAGE_ERROR")?;
    Ok(())
}

async fn other_agents_cannot_touch_my_tab(s: Arc<Shared>) -> anyhow::Result<()> {
    let owner = s.agent("owner").await?;
    let intruder = s.agent("intruder").await?;
    let tab = owner
        .call(
            "firefox_create_window",
            json!({"url": s.pages.url("/basic.html")}),
        )
        .await?
        .ok()?
        .tab_id()?;
    let attempts = [
        (
            "firefox_navigate",
            json!({"tabId": tab, "url": s.pages.url("/other.html")}),
        ),
        ("firefox_click", json!({"tabId": tab, "selector": "#btn"})),
        (
            "firefox_type",
            json!({"tabId": tab, "selector": "#name", "text": "pwned"}),
        ),
        ("firefox_get_content", json!({"tabId": tab})),
        ("firefox_screenshot", json!({"tabId": tab})),
        ("firefox_close_tab", json!({"tabId": tab})),
    ];
    for (tool, args) in attempts {
        let r = intruder.call(tool, args).await?;
        let text = r
            .expect_error("OWNERSHIP")
            .with_context(|| tool.to_owned())?;
        ensure!(
            text.contains("Cannot") && text.contains(&format!("tab {tab} (owned by agent_")),
            "{tool}: {text}"
        );
    }
    // Naming no tab never falls through to someone else's (or the active) tab.
    for tool in ["firefox_get_content", "firefox_screenshot"] {
        intruder
            .call(tool, json!({}))
            .await?
            .expect_error("NO_SUCH_TAB")
            .with_context(|| tool.to_owned())?;
    }
    let page = owner
        .call("firefox_get_content", json!({"tabId": tab}))
        .await?
        .ok()?;
    ensure!(
        page.text.contains("marker-7f3a")
            && page.text.contains("not clicked")
            && page.text.contains("no input yet"),
        "the intruder changed the page: {}",
        page.text
    );
    let tabs = intruder.call("firefox_get_tabs", json!({})).await?.ok()?;
    ensure!(
        tabs.text.contains(&format!("tab {tab} (owned by agent_")),
        "{}",
        tabs.text
    );
    Ok(())
}

async fn navigation_waits_for_the_page(s: Arc<Shared>) -> anyhow::Result<()> {
    let a = s.agent("nav").await?;
    let opened = a
        .call(
            "firefox_create_window",
            json!({"url": s.pages.url("/slow.html")}),
        )
        .await?
        .ok()?;
    let tab = opened.tab_id()?;
    // The page's script arrives 800 ms late; the call returned only once it had run.
    let late = a
        .call(
            "firefox_get_content",
            json!({"tabId": tab, "selector": "#late"}),
        )
        .await?
        .ok()?;
    ensure!(
        late.text.contains("late-loaded-55e1"),
        "create_window returned before the load: {}",
        late.text
    );
    a.call(
        "firefox_navigate",
        json!({"tabId": tab, "url": s.pages.url("/other.html")}),
    )
    .await?
    .ok()?;
    a.call(
        "firefox_navigate",
        json!({"tabId": tab, "url": s.pages.url("/slow.html")}),
    )
    .await?
    .ok()?;
    let late = a
        .call(
            "firefox_get_content",
            json!({"tabId": tab, "selector": "#late"}),
        )
        .await?
        .ok()?;
    ensure!(
        late.text.contains("late-loaded-55e1"),
        "navigate returned before the load: {}",
        late.text
    );
    Ok(())
}

async fn a_page_that_never_loads_reports_its_state(s: Arc<Shared>) -> anyhow::Result<()> {
    let a = s.agent("hang").await?;
    let started = Instant::now();
    let r = a
        .call(
            "firefox_create_window",
            json!({"url": s.pages.url("/hang.html"), "timeout": 5000}),
        )
        .await?
        .ok()?;
    ensure!(
        r.text.contains("still loading") && r.text.contains("Hint:"),
        "{}",
        r.text
    );
    ensure!(
        started.elapsed() < Duration::from_secs(6),
        "answered after the timeout: {:?}",
        started.elapsed()
    );
    let tab = r.tab_id()?;
    let partial = a
        .call("firefox_get_content", json!({"tabId": tab}))
        .await?
        .ok()?;
    ensure!(partial.text.contains("partial-3b8d"), "{}", partial.text);
    a.call("firefox_close_tab", json!({"tabId": tab}))
        .await?
        .ok()?;
    Ok(())
}

async fn goodbye_releases_tabs(s: Arc<Shared>) -> anyhow::Result<()> {
    let leaving = s.agent("leaving").await?;
    let watcher = s.agent("watcher").await?;
    let mut tabs = Vec::new();
    for _ in 0..2 {
        tabs.push(
            leaving
                .call(
                    "firefox_create_window",
                    json!({"url": s.pages.url("/other.html")}),
                )
                .await?
                .ok()?
                .tab_id()?,
        );
    }
    let listed = watcher.call("firefox_get_tabs", json!({})).await?.ok()?;
    ensure!(
        tabs.iter()
            .all(|t| listed.text.contains(&format!("tab {t} "))),
        "{}",
        listed.text
    );
    leaving.close().await?;
    eventually(
        Duration::from_secs(10),
        "the leaving agent's tabs to close",
        async || {
            let now = watcher.call("firefox_get_tabs", json!({})).await.ok()?;
            tabs.iter()
                .all(|t| !now.text.contains(&format!("tab {t} ")))
                .then_some(())
        },
    )
    .await
}

async fn the_real_host_refuses_a_wrong_token(s: Arc<Shared>) -> anyhow::Result<()> {
    let (mut client, first) = RawClient::hello(&s.browser.runtime, &"f".repeat(64)).await?;
    match first {
        HostMessage::Refused(e) => ensure!(e.code == ErrorCode::AuthFailed, "{e}"),
        other => bail!("expected a refusal, got {other:?}"),
    }
    ensure!(
        client.next().await?.is_none(),
        "connection left open after a wrong token"
    );
    // The right token still works.
    let mut client = RawClient::connect(&s.browser.runtime).await?;
    let pong = client.call(Command::Ping).await?;
    ensure!(matches!(pong, Ok(Reply::Pong { .. })), "{pong:?}");
    Ok(())
}

async fn diagnose_reports_every_link(s: Arc<Shared>) -> anyhow::Result<()> {
    let a = s.agent("diag").await?;
    let r = a.call("firefox_diagnose", json!({})).await?.ok()?;
    for want in [
        "host 0.1.0 connected",
        "extension 0.1.0 answered ping",
        "tab pool:",
        "Everything works.",
    ] {
        ensure!(
            r.text.contains(want),
            "diagnosis lacks {want:?}: {}",
            r.text
        );
    }
    Ok(())
}

// ---------------------------------------------------------------- browsers of their own

async fn fails_fast_without_firefox_then_reconnects() -> anyhow::Result<()> {
    let mut browser = Browser::prepare()?;
    let agent = Agent::spawn(browser.runtime.path(), &browser.path().join("mcp.log")).await?;
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

async fn a_crashed_firefox_takes_the_host_down() -> anyhow::Result<()> {
    let mut browser = Browser::start().await?;
    let agent = Agent::spawn(browser.runtime.path(), &browser.path().join("mcp.log")).await?;
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
async fn expect_clean_exit(browser: &Browser) -> anyhow::Result<()> {
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

// ---------------------------------------------------------------- harness

fn plain<F, Fut>(name: &str, test: F) -> Trial
where
    F: FnOnce() -> Fut + Send + 'static,
    Fut: Future<Output = anyhow::Result<()>>,
{
    Trial::test(name, move || {
        finish(
            runtime().block_on(async { tokio::time::timeout(TEST_LIMIT, test()).await }),
            None,
        )
    })
}

fn with_shared<F, Fut>(name: &str, test: F) -> Trial
where
    F: FnOnce(Arc<Shared>) -> Fut + Send + 'static,
    Fut: Future<Output = anyhow::Result<()>>,
{
    Trial::test(name, move || {
        let s = shared().map_err(|e| Failed::from(format!("{e:#}")))?;
        let result =
            runtime().block_on(async { tokio::time::timeout(TEST_LIMIT, test(s.clone())).await });
        finish(result, Some(&s.browser))
    })
}

fn finish(
    result: Result<anyhow::Result<()>, tokio::time::error::Elapsed>,
    browser: Option<&Browser>,
) -> Result<(), Failed> {
    let error = match result {
        Ok(Ok(())) => return Ok(()),
        Ok(Err(e)) => format!("{e:#}"),
        Err(_) => format!("hung for more than {TEST_LIMIT:?}"),
    };
    let log = browser.map(|b| tail(&b.log(), 40)).unwrap_or_default();
    Err(format!("{error}\n--- Firefox log (last lines) ---\n{log}").into())
}

fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

fn main() {
    let mut args = Arguments::from_args();
    // Two cores: a few Firefox tabs at a time keep the suite steady.
    args.test_threads.get_or_insert(3);
    let trials = vec![
        plain("mcp::lists_the_tools_with_timeouts", lists_the_tools),
        plain("mcp::refuses_bad_arguments_clearly", refuses_bad_arguments),
        plain(
            "mcp::exits_promptly_when_stdin_closes",
            exits_promptly_on_stdin_close,
        ),
        with_shared(
            "pipeline::reads_clicks_types_screenshots_and_closes",
            reads_clicks_types_screenshots_and_closes,
        ),
        with_shared(
            "pipeline::element_and_page_errors_are_clear",
            element_errors_are_clear,
        ),
        with_shared(
            "pipeline::navigation_waits_for_the_page",
            navigation_waits_for_the_page,
        ),
        with_shared(
            "pipeline::a_page_that_never_loads_reports_its_state",
            a_page_that_never_loads_reports_its_state,
        ),
        with_shared(
            "pipeline::diagnose_reports_every_link",
            diagnose_reports_every_link,
        ),
        with_shared(
            "isolation::other_agents_cannot_touch_my_tab",
            other_agents_cannot_touch_my_tab,
        ),
        with_shared(
            "isolation::goodbye_releases_the_agents_tabs",
            goodbye_releases_tabs,
        ),
        with_shared(
            "security::the_real_host_refuses_a_wrong_token",
            the_real_host_refuses_a_wrong_token,
        ),
        plain(
            "lifecycle::fails_fast_without_firefox_then_reconnects",
            fails_fast_without_firefox_then_reconnects,
        ),
        plain(
            "lifecycle::a_crashed_firefox_takes_the_host_down",
            a_crashed_firefox_takes_the_host_down,
        ),
    ];
    let conclusion = libtest_mimic::run(&args, trials);
    // Tear the shared browser down before exiting (statics are not dropped).
    let shared = SHARED.lock().unwrap_or_else(|e| e.into_inner()).take();
    drop(shared);
    conclusion.exit();
}
