//! What the tests share: the runtime, the shared browser and its pages, the trial wrappers.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use anyhow::Context;
use claudezilla_e2e::pages::Page;
use claudezilla_e2e::{Agent, Browser, PageServer, ToolResult};
use libtest_mimic::{Failed, Trial};
use serde_json::{Value, json};

pub const TEST_LIMIT: Duration = Duration::from_secs(120);

/// A tool call that must succeed (the error names the tool).
pub async fn call(a: &Agent, tool: &str, args: Value) -> anyhow::Result<ToolResult> {
    a.call(tool, args)
        .await?
        .ok()
        .with_context(|| tool.to_owned())
}

/// A screenshot that must succeed, taken as an agent would: when another test's capture holds
/// the lock past the busy limit (`MUTEX_BUSY`, which a loaded machine reaches), asked again
/// after the pause its hint names, a few times. The lock's own tests call the tool directly.
pub async fn screenshot(a: &Agent, args: Value) -> anyhow::Result<ToolResult> {
    for _ in 0..5 {
        let r = a.call("firefox_screenshot", args.clone()).await?;
        if !(r.is_error && r.text.starts_with("MUTEX_BUSY")) {
            return r.ok();
        }
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    }
    a.call("firefox_screenshot", args).await?.ok()
}

/// The text a tool call that must succeed answers.
pub async fn said(a: &Agent, tool: &str, args: Value) -> anyhow::Result<String> {
    Ok(call(a, tool, args).await?.text)
}

/// What a tool call answers.
type Answer = anyhow::Result<ToolResult>;

/// A tool call on the element a selector names, with one more argument if given.
async fn on(a: &Agent, tool: &str, tab: u32, selector: &str, more: Option<(&str, &str)>) -> Answer {
    let mut args = json!({"tabId": tab, "selector": selector});
    if let Some((name, value)) = more {
        args[name] = json!(value);
    }
    call(a, tool, args).await
}

/// `firefox_type` of `text` into the element a selector names.
pub async fn type_into(a: &Agent, tab: u32, selector: &str, text: &str) -> Answer {
    on(a, "firefox_type", tab, selector, Some(("text", text))).await
}

/// `firefox_press_key` on the focused element.
pub async fn press(a: &Agent, tab: u32, key: &str) -> Answer {
    call(a, "firefox_press_key", json!({"tabId": tab, "key": key})).await
}

/// `firefox_press_key` on the element a selector names.
pub async fn press_on(a: &Agent, tab: u32, selector: &str, key: &str) -> Answer {
    on(a, "firefox_press_key", tab, selector, Some(("key", key))).await
}

/// `firefox_hover` over the element a selector names.
pub async fn hover(a: &Agent, tab: u32, selector: &str) -> Answer {
    on(a, "firefox_hover", tab, selector, None).await
}

/// The text of one element of a tab's page.
pub async fn text_of(a: &Agent, tab: u32, selector: &str) -> anyhow::Result<String> {
    said(
        a,
        "firefox_get_content",
        json!({"tabId": tab, "selector": selector}),
    )
    .await
}

/// `firefox_click` on the element a selector names.
pub async fn click(a: &Agent, tab: u32, selector: &str) -> Answer {
    on(a, "firefox_click", tab, selector, None).await
}

/// Waits (10 s at most) until `watcher` no longer sees any of `tabs` in `firefox_get_tabs`.
pub async fn tabs_gone(watcher: &Agent, tabs: &[u32], what: &str) -> anyhow::Result<()> {
    claudezilla_e2e::eventually(Duration::from_secs(10), what, async || {
        let now = watcher.call("firefox_get_tabs", json!({})).await.ok()?;
        tabs.iter()
            .all(|t| !now.text.contains(&format!("tab {t} ")))
            .then_some(())
    })
    .await
}

/// A runtime folder of its own (`mode`) whose socket is a link to the shared browser's host.
pub fn runtime_linked_to(
    s: &Shared,
    prefix: &str,
    mode: u32,
) -> std::io::Result<tempfile::TempDir> {
    let fake = tempfile::Builder::new().prefix(prefix).tempdir_in("/tmp")?;
    std::fs::set_permissions(
        fake.path(),
        std::os::unix::fs::PermissionsExt::from_mode(mode),
    )?;
    let link = fake.path().join("claudezilla.sock");
    std::os::unix::fs::symlink(s.browser.runtime.socket(), link)?;
    Ok(fake)
}

pub fn runtime() -> &'static tokio::runtime::Runtime {
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
pub struct Shared {
    pub browser: Browser,
    pub pages: PageServer,
    /// A second origin serving the cross-origin frames; held only to keep it running.
    _other: Option<PageServer>,
}

pub static SHARED: Mutex<Option<Arc<Shared>>> = Mutex::new(None);

fn shared() -> anyhow::Result<Arc<Shared>> {
    let mut slot = SHARED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(s) = slot.as_ref() {
        return Ok(s.clone());
    }
    let s = Arc::new(runtime().block_on(async {
        let other = PageServer::start(crate::page_set::pages("")).await?;
        let mut all = test_pages();
        all.extend(crate::shots::pages());
        all.extend(crate::devtools::pages());
        all.extend(crate::attacks::pages());
        all.extend(crate::beyond::pages());
        all.extend(crate::powers::pages());
        all.extend(crate::secrets::pages());
        all.extend(crate::answers::pages());
        all.extend(crate::audit::pages());
        all.extend(crate::codegen::pages());
        all.extend(crate::input::pages(&format!(
            "http://127.0.0.1:{}",
            other.port
        )));
        all.extend(crate::page_set::pages(&format!(
            "http://127.0.0.1:{}",
            other.port
        )));
        let pages = PageServer::start(all).await?;
        let browser = Browser::start().await?;
        anyhow::Ok(Shared {
            browser,
            pages,
            _other: Some(other),
        })
    })?);
    *slot = Some(s.clone());
    Ok(s)
}

/// A browser of its own for one widget test. In a shared one, another test closing the active
/// tab of the agents' window makes Firefox activate a neighbour, whose page then gets the
/// browser's real focus and blur events in the middle of an edit (as a real page would).
fn widgets() -> anyhow::Result<Arc<Shared>> {
    runtime().block_on(async {
        Ok(Arc::new(Shared {
            pages: PageServer::start(crate::widgets::pages()).await?,
            browser: Browser::start().await?,
            _other: None,
        }))
    })
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

/// Solid colours, one per agent, that screenshots are checked against.
pub const COLOURS: [(&str, [u8; 3]); 4] = [
    ("red", [220, 30, 30]),
    ("green", [30, 180, 60]),
    ("blue", [30, 60, 220]),
    ("yellow", [230, 200, 20]),
];

fn colour_page(rgb: [u8; 3]) -> Page {
    let [r, g, b] = rgb;
    Page::html(format!(
        "<!doctype html><title>Colour {r},{g},{b}</title>\
         <style>html,body{{margin:0;height:100%;background:rgb({r},{g},{b})}}</style><p>colour</p>"
    ))
}

pub fn test_pages() -> HashMap<&'static str, Page> {
    let colours = [
        ("/colour/red.html", colour_page(COLOURS[0].1)),
        ("/colour/green.html", colour_page(COLOURS[1].1)),
        ("/colour/blue.html", colour_page(COLOURS[2].1)),
        ("/colour/yellow.html", colour_page(COLOURS[3].1)),
    ];
    let mut pages = HashMap::from(colours);
    pages.extend([
        ("/basic.html", Page::html(BASIC)),
        (
            "/other.html",
            Page::html("<!doctype html><title>Other page</title><p>other-91c2</p>"),
        ),
        (
            // Answers after longer than the short idle limit some tests set.
            "/late-other.html",
            Page::html("<!doctype html><title>Late page</title><p>late-7e20</p>")
                .delayed(Duration::from_millis(3_000)),
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
            // A page that fakes its load event before its late script has come.
            "/fake-load.html",
            Page::html(
                "<!doctype html><title>Fake load</title><p id=late>waiting</p>\
                 <script>fetch('/other.html').then(() => document.dispatchEvent(new Event('load')))</script>\
                 <script src=/slow.js></script>",
            ),
        ),
        (
            "/hang.html",
            Page::html(
                // Each load asks for its own never-ending image: Firefox shares one request
                // for an image among the documents that want it, and a test closing its tab
                // cancels that request, which ended another test's load early.
                "<!doctype html><title>Hanging page</title><p>partial-3b8d</p>\
                 <script>document.write('<img src=/never.png?' + Math.random() + '>')</script>",
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
    ]);
    pages
}

/// Decodes a screenshot and returns the colour at its centre.
pub fn centre_colour(base64_jpeg: &str) -> anyhow::Result<[u8; 3]> {
    use base64::Engine;
    let bytes = base64::engine::general_purpose::STANDARD.decode(base64_jpeg)?;
    let mut decoder = jpeg_decoder::Decoder::new(&bytes[..]);
    let pixels = decoder.decode()?;
    let info = decoder
        .info()
        .ok_or_else(|| anyhow::anyhow!("no JPEG info"))?;
    let (w, h) = (info.width as usize, info.height as usize);
    let at = ((h / 2) * w + w / 2) * 3;
    Ok([pixels[at], pixels[at + 1], pixels[at + 2]])
}

/// True when two colours differ by at most `tolerance` per channel (JPEG is lossy).
pub fn close_to(a: [u8; 3], b: [u8; 3], tolerance: u8) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= tolerance)
}

impl Shared {
    pub async fn agent(&self, name: &str) -> anyhow::Result<Agent> {
        self.browser.agent(name).await
    }

    /// An agent with a tab open on the test page at `path`.
    pub async fn agent_at(&self, name: &str, path: &str) -> anyhow::Result<(Agent, u32)> {
        let a = self.agent(name).await?;
        let tab = a.open(&self.pages.url(path)).await?;
        Ok((a, tab))
    }

    /// An agent whose project folder (where files may be read and written) is `project`.
    pub async fn agent_in(&self, name: &str, project: &std::path::Path) -> anyhow::Result<Agent> {
        self.browser.agent_in(name, project).await
    }
}

// ---------------------------------------------------------------- harness

pub fn plain<F, Fut>(name: &str, test: F) -> Trial
where
    F: FnOnce() -> Fut + Send + 'static,
    Fut: Future<Output = anyhow::Result<()>>,
{
    timed(name, move || {
        finish(
            runtime().block_on(async { tokio::time::timeout(TEST_LIMIT, test()).await }),
            None,
        )
    })
}

pub fn with_shared<F, Fut>(name: &str, test: F) -> Trial
where
    F: FnOnce(Arc<Shared>) -> Fut + Send + 'static,
    Fut: Future<Output = anyhow::Result<()>>,
{
    with_fixture(name, shared, test)
}

/// A widget test, in a browser of its own.
pub fn with_widgets<F, Fut>(name: &str, test: F) -> Trial
where
    F: FnOnce(Arc<Shared>) -> Fut + Send + 'static,
    Fut: Future<Output = anyhow::Result<()>>,
{
    with_fixture(name, widgets, test)
}

fn with_fixture<F, Fut>(name: &str, fixture: fn() -> anyhow::Result<Arc<Shared>>, test: F) -> Trial
where
    F: FnOnce(Arc<Shared>) -> Fut + Send + 'static,
    Fut: Future<Output = anyhow::Result<()>>,
{
    timed(name, move || {
        let s = fixture().map_err(|e| Failed::from(format!("{e:#}")))?;
        let result =
            runtime().block_on(async { tokio::time::timeout(TEST_LIMIT, test(s.clone())).await });
        finish(result, Some(&s.browser))
    })
}

/// How long each test took, so a slow suite shows where its time goes (`slowest`).
static TIMES: Mutex<Vec<(String, Duration)>> = Mutex::new(Vec::new());

pub fn timed(name: &str, test: impl FnOnce() -> Result<(), Failed> + Send + 'static) -> Trial {
    let owned = name.to_owned();
    Trial::test(name, move || {
        let started = std::time::Instant::now();
        let result = test();
        let took = started.elapsed();
        TIMES
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((owned, took));
        result
    })
}

/// The `count` slowest tests of the run, slowest first, one per line.
pub fn slowest(count: usize) -> String {
    let mut times = TIMES.lock().unwrap_or_else(|e| e.into_inner()).clone();
    times.sort_by_key(|(_, took)| std::cmp::Reverse(*took));
    times
        .iter()
        .take(count)
        .map(|(name, took)| format!("  {:>6.1} s  {name}", took.as_secs_f64()))
        .collect::<Vec<_>>()
        .join("\n")
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

/// The last `lines` lines of Firefox's log that are not a page's `console.log` (one test's page
/// can log hundreds of lines and push the browser's and our own warnings out of view).
pub fn tail(text: &str, lines: usize) -> String {
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with("console.log: "))
        .collect();
    let skipped = text.lines().count() - kept.len();
    let last = kept[kept.len().saturating_sub(lines)..].join("\n");
    format!("({skipped} lines of pages' console.log left out)\n{last}")
}
