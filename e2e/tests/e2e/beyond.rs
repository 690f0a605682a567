//! Issue 13: what peers lack or users ask them for — clicks and wheel turns at a point (for
//! canvases and maps), cookies and web storage behind the user's switch.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, ensure};
use claudezilla_e2e::pages::{Page, PageServer};
use claudezilla_e2e::{Agent, Browser, eventually};

use serde_json::json;

use crate::common::{Shared, call, click, said, text_of};

/// A canvas that zooms on the wheel (as maps do), a scrollable box and a button, at fixed
/// places, and a log of what the page saw.
const POINTS: &str = r#"<!doctype html><title>Points</title>
<style>body{margin:0} #c{position:absolute;left:0;top:0;width:400px;height:300px}
#box{position:absolute;left:450px;top:0;width:200px;height:150px;overflow:auto}
#b{position:absolute;left:450px;top:200px;width:100px;height:40px}
#log{position:absolute;left:0;top:400px}</style>
<canvas id=c width=400 height=300></canvas>
<div id=box><div style="height:2000px">tall</div></div>
<button id=b onclick="log('button')">Press</button>
<p id=log></p><div style="height:3000px"></div>
<script>
const log = (s) => document.getElementById('log').textContent += s + ';';
const c = document.getElementById('c');
c.addEventListener('mousedown', e => log(`down:${e.offsetX},${e.offsetY}`));
c.addEventListener('click', e => log(`click:${e.clientX},${e.clientY}`));
c.addEventListener('wheel', e => { e.preventDefault(); log(`zoom:${e.deltaY}:${e.clientX},${e.clientY}`); }, {passive: false});
</script>"#;

/// A page that shows its cookies and storage as it loads, and keeps some of its own.
const STORED: &str = r#"<!doctype html><title>Stored</title>
<p id=cookies></p><p id=local></p>
<script>
if (!localStorage.getItem('mine')) { document.cookie = 'seen=1; path=/'; localStorage.setItem('mine', 'page'); }
document.getElementById('cookies').textContent = 'cookies:' + document.cookie;
document.getElementById('local').textContent = 'local:' + JSON.stringify(Object.entries(localStorage).sort());
</script>"#;

/// Shows the page's cookies; `?set=name=value` sets one first.
const JAR: &str = r#"<!doctype html><title>Jar</title><p id=cookies></p>
<script>
const set = new URLSearchParams(location.search).get('set');
if (set) document.cookie = set + '; path=/';
document.getElementById('cookies').textContent = 'cookies:' + document.cookie;
</script>"#;

/// Fetches `data.txt` as it loads and shows what came back, its `x-mock` header and how long
/// it took.
const API: &str = r#"<!doctype html><title>Api</title><p id=out>waiting</p>
<script>
const t0 = performance.now();
fetch('/beyond/data.txt')
  .then(r => r.text().then(t => 'got:' + r.status + ':' + r.headers.get('x-mock') + ':' + t))
  .catch(e => 'failed:' + e.name)
  .then(t => document.getElementById('out').textContent = t + ':ms=' + Math.round(performance.now() - t0));
</script>"#;

/// A link to a generated file the server sends as an attachment, and a file the page makes.
const DOWNLOADS: &str = r#"<!doctype html><title>Downloads</title>
<a id=file href="/beyond/report.bin">Report</a>
<button id=made onclick="save()">Save notes</button>
<script>
function save() {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob(['made in the page'], {type: 'text/plain'}));
  a.download = 'notes.txt';
  document.body.append(a);
  a.click();
}
</script>"#;

/// The bytes of the generated report: every byte value, four times over.
fn report() -> Vec<u8> {
    (0..1024u32).map(|i| (i * 7 % 256) as u8).collect()
}

pub fn pages() -> HashMap<&'static str, Page> {
    HashMap::from([
        ("/beyond/downloads.html", Page::html(DOWNLOADS)),
        ("/beyond/report.bin", Page::download(report(), "report.bin")),
        ("/beyond/api.html", Page::html(API)),
        ("/beyond/data.txt", Page::html("real-data")),
        (
            "/beyond/framed.html",
            Page::html(
                "<!doctype html><title>Framed</title><p>framed-top-2c4e</p>\
                 <iframe src=/beyond/inner.html></iframe>",
            ),
        ),
        ("/beyond/inner.html", Page::html("<p>inner-words-9d1a</p>")),
        (
            "/beyond/login.json",
            Page::html(r#"{"user":"ann","password":"hunter2"}"#),
        ),
        ("/beyond/jar.html", Page::html(JAR)),
        ("/beyond/points.html", Page::html(POINTS)),
        ("/beyond/stored.html", Page::html(STORED)),
    ])
}

pub async fn clicks_and_wheels_at_a_point(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("points", "/beyond/points.html").await?;
    let clicked = call(
        &a,
        "firefox_click",
        json!({"tabId": tab, "x": 100, "y": 50}),
    )
    .await?;
    ensure!(
        clicked.text.contains("canvas") && clicked.text.contains("at (100, 50)"),
        "the answer names what was there: {clicked:?}"
    );
    let seen = text_of(&a, tab, "#log").await?;
    ensure!(seen.contains("down:100,50;click:100,50;"), "{seen}");
    call(
        &a,
        "firefox_click",
        json!({"tabId": tab, "x": 500, "y": 220}),
    )
    .await?;
    ensure!(text_of(&a, tab, "#log").await?.contains("button;"));

    // The map's own wheel handler takes the turn; nothing scrolls.
    let zoomed = call(
        &a,
        "firefox_scroll",
        json!({"tabId": tab, "deltaY": 120, "x": 100, "y": 50}),
    )
    .await?;
    ensure!(zoomed.text.contains("the page handled it"), "{zoomed:?}");
    ensure!(text_of(&a, tab, "#log").await?.contains("zoom:120:100,50;"));
    // Over the box, the box scrolls; elsewhere the page does.
    let boxed = call(
        &a,
        "firefox_scroll",
        json!({"tabId": tab, "deltaY": 300, "x": 500, "y": 50}),
    )
    .await?;
    ensure!(boxed.text.contains("scrolled to 0, 300"), "{boxed:?}");
    let paged = call(&a, "firefox_scroll", json!({"tabId": tab, "deltaY": 200})).await?;
    ensure!(
        paged.text.contains("the page scrolled to 0, 200"),
        "{paged:?}"
    );
    // Scrolling to a position still works as before.
    call(&a, "firefox_scroll", json!({"tabId": tab, "y": 0})).await?;

    let shot = crate::common::screenshot(&a, json!({"tabId": tab})).await?;
    ensure!(
        shot.text.contains("firefox_click {x: 0 + px / "),
        "the screenshot says how its pixels map to points: {shot:?}"
    );
    let outside = a
        .call("firefox_click", json!({"tabId": tab, "x": 5000, "y": 10}))
        .await?;
    ensure!(
        outside
            .expect_error("PAGE_ERROR")?
            .contains("outside the viewport"),
        "{outside:?}"
    );
    let half = a
        .call("firefox_click", json!({"tabId": tab, "x": 10}))
        .await?;
    half.expect_error("INVALID_ARGUMENT")?;
    let b = s.agent("points-b").await?;
    for (tool, args) in [
        ("firefox_click", json!({"tabId": tab, "x": 10, "y": 10})),
        ("firefox_scroll", json!({"tabId": tab, "deltaY": 10})),
    ] {
        b.call(tool, args).await?.expect_error("OWNERSHIP")?;
    }
    ensure!(
        !text_of(&a, tab, "#log").await?.contains("down:10,10"),
        "another agent's click reached the page"
    );
    b.close().await?;
    a.close().await?;
    Ok(())
}

/// In the shared browser nobody switched cookies and storage on: both refuse, and say how.
pub async fn cookies_and_storage_wait_for_the_users_switch(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("stored-off", "/beyond/stored.html").await?;
    for (tool, args) in [
        ("firefox_cookies", json!({"tabId": tab, "action": "get"})),
        ("firefox_storage", json!({"tabId": tab, "action": "get"})),
        (
            "firefox_storage_state",
            json!({"action": "save", "path": "off.json"}),
        ),
    ] {
        let off = a.call(tool, args).await?;
        ensure!(off.expect_error("DISABLED")?.contains("popup"), "{off:?}");
    }
    let b = s.agent("stored-off-b").await?;
    for (tool, args) in [
        ("firefox_cookies", json!({"tabId": tab, "action": "get"})),
        ("firefox_storage", json!({"tabId": tab, "action": "clear"})),
    ] {
        b.call(tool, args).await?.expect_error("OWNERSHIP")?;
    }
    b.close().await?;
    a.close().await?;
    Ok(())
}

/// With the user's permission (here from Firefox's environment): read, set and delete, seen
/// by the page itself; another agent is still refused.
pub async fn cookies_and_storage_when_allowed() -> anyhow::Result<()> {
    let pages = PageServer::start(pages()).await?;
    let browser = Browser::start_with(&[("CLAUDEZILLA_ALLOW_STORAGE", "1")]).await?;
    let a = browser.agent("a").await?;
    let b = browser.agent("b").await?;
    let mut result = allowed(&a, &b, &pages).await;
    if result.is_ok() {
        let c = browser.agent("c").await?;
        result = state_moves_between_sessions(&a, &c, &pages, browser.path()).await;
    }
    if result.is_err() {
        eprintln!("--- Firefox log ---\n{}", browser.log());
    }
    result
}

async fn allowed(a: &Agent, b: &Agent, pages: &PageServer) -> anyhow::Result<()> {
    let url = pages.url("/beyond/stored.html");
    let tab = a.open(&url).await?;
    let cookies = call(a, "firefox_cookies", json!({"tabId": tab, "action": "get"})).await?;
    ensure!(cookies.text.contains("seen=1"), "{cookies:?}");
    call(
        a,
        "firefox_cookies",
        json!({"tabId": tab, "action": "set", "name": "token", "value": "abc"}),
    )
    .await?;
    call(
        a,
        "firefox_cookies",
        json!({"tabId": tab, "action": "delete", "name": "seen"}),
    )
    .await?;
    let local = call(a, "firefox_storage", json!({"tabId": tab, "action": "get"})).await?;
    ensure!(local.text.contains("mine = page"), "{local:?}");
    call(
        a,
        "firefox_storage",
        json!({"tabId": tab, "action": "set", "key": "agent", "value": "was here"}),
    )
    .await?;
    call(
        a,
        "firefox_storage",
        json!({"tabId": tab, "action": "set", "area": "session", "key": "s", "value": "1"}),
    )
    .await?;
    let session = call(
        a,
        "firefox_storage",
        json!({"tabId": tab, "action": "get", "area": "session", "key": "s"}),
    )
    .await?;
    ensure!(session.text.contains("s = 1"), "{session:?}");
    // The page, loaded again, sees what the agent changed.
    call(a, "firefox_navigate", json!({"tabId": tab, "url": url})).await?;
    let seen = text_of(a, tab, "#cookies").await?;
    ensure!(
        seen.contains("token=abc") && !seen.contains("seen=1"),
        "{seen}"
    );
    let local = text_of(a, tab, "#local").await?;
    ensure!(local.contains(r#"["agent","was here"]"#), "{local}");
    call(
        a,
        "firefox_storage",
        json!({"tabId": tab, "action": "clear"}),
    )
    .await?;
    let cleared = call(a, "firefox_storage", json!({"tabId": tab, "action": "get"})).await?;
    ensure!(cleared.text.contains("nothing stored"), "{cleared:?}");

    for (args, field) in [
        (json!({"tabId": tab, "action": "set", "name": "x"}), "value"),
        (json!({"tabId": tab, "action": "delete"}), "name"),
    ] {
        let bad = a.call("firefox_cookies", args).await?;
        ensure!(
            bad.expect_error("INVALID_ARGUMENT")?.contains(field),
            "{bad:?}"
        );
    }
    b.call("firefox_cookies", json!({"tabId": tab, "action": "get"}))
        .await?
        .expect_error("OWNERSHIP")?;
    b.call(
        "firefox_storage",
        json!({"tabId": tab, "action": "set", "key": "k", "value": "v"}),
    )
    .await?
    .expect_error("OWNERSHIP")?;
    Ok(())
}

/// An agent in a container of its own does not see the user's cookies, the user does not see
/// its cookies, another agent in its own container sees neither, and no agent can name another
/// agent's container.
pub async fn an_own_container_keeps_cookies_apart(s: Arc<Shared>) -> anyhow::Result<()> {
    let jar = s.pages.url("/beyond/jar.html");
    let user = s.agent("jar-user").await?;
    let mine = user.open(&format!("{jar}?set=user_secret=42")).await?;
    ensure!(
        text_of(&user, mine, "#cookies")
            .await?
            .contains("user_secret=42")
    );

    let own = s.agent("jar-own").await?;
    let opened = call(
        &own,
        "firefox_create_window",
        json!({"url": format!("{jar}?set=agent_only=1"), "container": "own"}),
    )
    .await?;
    let name = opened
        .text
        .lines()
        .find_map(|l| l.strip_prefix("Container: "))
        .and_then(|l| l.split(" (").next())
        .context("the answer names the container")?
        .to_owned();
    let tab = opened.tab_id()?;
    let seen = text_of(&own, tab, "#cookies").await?;
    ensure!(
        seen.contains("agent_only=1") && !seen.contains("user_secret"),
        "{seen}"
    );
    // Its later tabs stay in its container.
    let again = call(&own, "firefox_create_window", json!({"url": jar})).await?;
    ensure!(again.text.contains(&name), "{again:?}");
    ensure!(
        text_of(&own, again.tab_id()?, "#cookies")
            .await?
            .contains("agent_only=1")
    );

    let other = s.agent("jar-other").await?;
    let theirs = call(
        &other,
        "firefox_create_window",
        json!({"url": format!("{jar}?set=kept=1"), "container": "own", "keepContainer": true}),
    )
    .await?;
    let seen = text_of(&other, theirs.tab_id()?, "#cookies").await?;
    ensure!(
        !seen.contains("agent_only") && !seen.contains("user_secret"),
        "{seen}"
    );
    // Kept: its last tab closed, the next one finds its logins still there.
    call(
        &other,
        "firefox_close_tab",
        json!({"tabId": theirs.tab_id()?}),
    )
    .await?;
    let back = call(
        &other,
        "firefox_create_window",
        json!({"url": jar, "container": "own"}),
    )
    .await?;
    let seen = text_of(&other, back.tab_id()?, "#cookies").await?;
    ensure!(
        seen.contains("kept=1"),
        "the kept container lost its cookie: {seen}"
    );
    let borrowed = other
        .call(
            "firefox_create_window",
            json!({"url": jar, "container": name}),
        )
        .await?;
    borrowed.expect_error("OWNERSHIP")?;
    let missing = user
        .call(
            "firefox_create_window",
            json!({"url": jar, "container": "no-such-container-5e1"}),
        )
        .await?;
    missing.expect_error("INVALID_ARGUMENT")?;

    call(
        &user,
        "firefox_navigate",
        json!({"tabId": mine, "url": jar}),
    )
    .await?;
    let seen = text_of(&user, mine, "#cookies").await?;
    ensure!(
        seen.contains("user_secret=42") && !seen.contains("agent_only"),
        "{seen}"
    );
    other.close().await?;
    own.close().await?;
    user.close().await?;
    Ok(())
}

/// The page's fetch once it finished, as the page showed it.
async fn fetched(a: &Agent, tab: u32) -> anyhow::Result<String> {
    eventually(Duration::from_secs(5), "the page's fetch", async || {
        text_of(a, tab, "#out")
            .await
            .ok()
            .filter(|out| !out.contains("waiting"))
    })
    .await
}

/// Routes mock, block and slow an agent's own requests, and never touch another agent's tab.
pub async fn routes_fulfill_abort_and_delay_only_their_agents_requests(
    s: Arc<Shared>,
) -> anyhow::Result<()> {
    let api = s.pages.url("/beyond/api.html");
    let a = s.agent("routes").await?;
    let b = s.agent("routes-b").await?;
    let tab = a.open(&api).await?;
    ensure!(fetched(&a, tab).await?.contains("got:200:null:real-data"));
    let set = call(
        &a,
        "firefox_route",
        json!({"pattern": "**/beyond/data.txt", "action": "fulfill",
               "body": "mocked", "headers": {"x-mock": "yes"}}),
    )
    .await?;
    ensure!(set.text.contains("**/beyond/data.txt → fulfill"), "{set:?}");
    call(&a, "firefox_navigate", json!({"tabId": tab, "url": api})).await?;
    let mocked = fetched(&a, tab).await?;
    ensure!(mocked.contains("got:200:yes:mocked:"), "{mocked}");
    // A tab the agent opens after the route meets it from its first page on.
    let fresh = a.open(&api).await?;
    let first = fetched(&a, fresh).await?;
    ensure!(first.contains("got:200:yes:mocked:"), "{first}");
    // The other agent's tab on the same page meets no route.
    let theirs = b.open(&api).await?;
    let real = fetched(&b, theirs).await?;
    ensure!(real.contains("got:200:null:real-data"), "{real}");

    call(
        &a,
        "firefox_route",
        json!({"pattern": "**/data.txt", "action": "abort"}),
    )
    .await?;
    call(&a, "firefox_navigate", json!({"tabId": tab, "url": api})).await?;
    let aborted = fetched(&a, tab).await?;
    ensure!(aborted.contains("failed:TypeError"), "{aborted}");
    // A frame a route aborts reads as such, not as a page that cannot be scripted.
    call(
        &a,
        "firefox_route",
        json!({"pattern": "**/beyond/inner.html", "action": "abort"}),
    )
    .await?;
    let framed = s.pages.url("/beyond/framed.html");
    call(&a, "firefox_navigate", json!({"tabId": tab, "url": framed})).await?;
    let read = eventually(
        Duration::from_secs(5),
        "the aborted frame named",
        async || {
            said(&a, "firefox_get_content", json!({"tabId": tab}))
                .await
                .ok()
                .filter(|t| t.contains("a route of yours aborts it"))
        },
    )
    .await;
    let content = said(&a, "firefox_get_content", json!({"tabId": tab})).await?;
    ensure!(
        read.is_ok() && content.contains("framed-top-2c4e") && !content.contains("inner-words"),
        "{content}"
    );
    call(
        &a,
        "firefox_unroute",
        json!({"pattern": "**/beyond/inner.html"}),
    )
    .await?;
    call(
        &a,
        "firefox_route",
        json!({"pattern": "**/data.txt", "action": "delay", "delayMs": 600}),
    )
    .await?;
    call(&a, "firefox_navigate", json!({"tabId": tab, "url": api})).await?;
    let delayed = fetched(&a, tab).await?;
    let ms: u32 = delayed
        .rsplit("ms=")
        .next()
        .and_then(|m| m.trim().parse().ok())
        .context("no time")?;
    ensure!(delayed.contains("real-data") && ms >= 550, "{delayed}");
    let listed = call(&a, "firefox_route", json!({})).await?;
    ensure!(
        listed
            .text
            .contains("**/data.txt → delay (1 requests so far)")
            && listed.text.contains("**/beyond/data.txt → fulfill"),
        "{listed:?}"
    );
    let status = a
        .call(
            "firefox_route",
            json!({"pattern": "**/x", "action": "fulfill", "status": 404}),
        )
        .await?;
    ensure!(status.expect_error("INVALID_ARGUMENT")?.contains("status"));
    // Others see none of a's routes and cannot remove them.
    let none = call(&b, "firefox_unroute", json!({})).await?;
    ensure!(none.text.contains("no routes"), "{none:?}");
    ensure!(
        said(&a, "firefox_route", json!({}))
            .await?
            .contains("delay")
    );
    let left = call(&a, "firefox_unroute", json!({"pattern": "**/data.txt"})).await?;
    ensure!(
        left.text.contains("fulfill") && !left.text.contains("delay"),
        "{left:?}"
    );
    call(&a, "firefox_unroute", json!({})).await?;
    call(&a, "firefox_navigate", json!({"tabId": tab, "url": api})).await?;
    ensure!(fetched(&a, tab).await?.contains("got:200:null:real-data"));
    b.close().await?;
    a.close().await?;
    Ok(())
}

/// Waits for `a`'s downloads; `name` must be listed complete and be, in the project's
/// `downloads/`, the report byte for byte. Returns the listing.
async fn report_collected(a: &Agent, project: &Path, name: &str) -> anyhow::Result<String> {
    let listed = call(
        a,
        "firefox_downloads",
        json!({"wait": true, "timeout": 15000}),
    )
    .await?;
    ensure!(
        listed.text.contains(&format!("{name}: complete")),
        "{listed:?}"
    );
    let moved = project.join("downloads").join(name);
    ensure!(
        std::fs::read(&moved)? == report(),
        "{}, byte for byte",
        moved.display()
    );
    Ok(listed.text)
}

/// A download an agent's page starts is listed to that agent alone, waited for, and moved into
/// its project byte for byte; the browser keeps no copy; navigating to a file does not hang.
pub async fn downloads_land_in_the_project(s: Arc<Shared>) -> anyhow::Result<()> {
    let project = tempfile::tempdir()?;
    // A site of its own: a file a page makes is told apart by the page's origin.
    let site = PageServer::start_on([127, 0, 0, 2], pages()).await?;
    let a = s.agent_in("downloads", project.path()).await?;
    let tab = a.open(&site.url("/beyond/downloads.html")).await?;
    let none = call(&a, "firefox_downloads", json!({})).await?;
    ensure!(none.text.contains("No downloads"), "{none:?}");
    click(&a, tab, "#file").await?;
    let listed = report_collected(&a, project.path(), "report.bin").await?;
    let moved = project.path().join("downloads").join("report.bin");
    ensure!(
        listed.contains("report.bin: complete, 1024 bytes")
            && listed.contains(&moved.display().to_string()),
        "{listed}"
    );

    // Another agent on the same page: the file is still the one whose click made it.
    let b = s.agent("downloads-b").await?;
    b.open(&site.url("/beyond/downloads.html")).await?;
    click(&a, tab, "#made").await?;
    let made = eventually(Duration::from_secs(15), "the page-made file", async || {
        let listed = call(&a, "firefox_downloads", json!({"wait": true}))
            .await
            .ok()?;
        listed
            .text
            .contains("notes.txt: complete")
            .then_some(listed)
    })
    .await?;
    let notes = project.path().join("downloads").join("notes.txt");
    ensure!(
        std::fs::read_to_string(&notes)? == "made in the page",
        "{made:?}"
    );

    // Straight to a file: the navigation answers (the tab stays where it was).
    let report_url = site.url("/beyond/report.bin");
    let went = a
        .call(
            "firefox_navigate",
            json!({"tabId": tab, "url": report_url, "timeout": 20000}),
        )
        .await?;
    ensure!(
        !went.is_error && went.text.contains("did not replace the page"),
        "{went:?}"
    );
    report_collected(&a, project.path(), "report (2).bin").await?;
    // A new tab opened on a file answers too.
    let opened = a
        .call(
            "firefox_create_window",
            json!({"url": report_url, "timeout": 20000}),
        )
        .await?;
    ensure!(
        !opened.is_error && !opened.text.contains("still loading"),
        "{opened:?}"
    );
    report_collected(&a, project.path(), "report (3).bin").await?;

    let theirs = call(&b, "firefox_downloads", json!({"wait": false})).await?;
    ensure!(
        theirs.text.contains("No downloads"),
        "b sees none of a's: {theirs:?}"
    );
    a.call("firefox_downloads", json!({"saveTo": "/etc"}))
        .await?
        .expect_error("NOT_ALLOWED")?;
    let left = files_named(s.browser.path(), &["report", "notes"]);
    ensure!(left.is_empty(), "the browser kept copies: {left:?}");
    b.close().await?;
    a.close().await?;
    Ok(())
}

/// Files under `dir` whose names start with any of `prefixes`.
pub fn files_named(dir: &std::path::Path, prefixes: &[&str]) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .flat_map(|e| {
            let path = e.path();
            if path.is_dir() {
                return files_named(&path, prefixes);
            }
            let name = e.file_name().to_string_lossy().into_owned();
            if prefixes.iter().any(|p| name.starts_with(p)) {
                vec![path]
            } else {
                Vec::new()
            }
        })
        .collect()
}

/// Response bodies only once the agent asks, for that tab, with credentials redacted.
pub async fn bodies_are_captured_for_the_tabs_whose_agent_asked(
    s: Arc<Shared>,
) -> anyhow::Result<()> {
    let api = s.pages.url("/beyond/api.html");
    let a = s.agent("bodies").await?;
    let tab = a.open(&api).await?;
    fetched(&a, tab).await?;
    // Firefox tells the background of a request after the page may already have its answer
    // (webRequest's events are not waited for): the fetch is listed within moments.
    let first = eventually(Duration::from_secs(5), "the fetch in the log", async || {
        said(
            &a,
            "firefox_get_network",
            json!({"tabId": tab, "includeBody": true}),
        )
        .await
        .ok()
        .filter(|t| t.contains("/beyond/data.txt"))
    })
    .await?;
    ensure!(
        !first.contains("body:"),
        "bodies start with the first call that asks: {first:?}"
    );
    loads_with_bodies(&s, &a, tab).await?;
    let bodies = call(
        &a,
        "firefox_get_network",
        json!({"tabId": tab, "includeBody": true}),
    )
    .await?;
    ensure!(bodies.text.contains("body: real-data"), "{bodies:?}");
    ensure!(
        bodies.text.contains(r#""password":"[redacted]""#) && !bodies.text.contains("hunter2"),
        "{bodies:?}"
    );
    let plain = call(&a, "firefox_get_network", json!({"tabId": tab})).await?;
    ensure!(!plain.text.contains("body:"), "{plain:?}");
    let b = s.agent("bodies-b").await?;
    b.call(
        "firefox_get_network",
        json!({"tabId": tab, "includeBody": true}),
    )
    .await?
    .expect_error("OWNERSHIP")?;
    b.close().await?;
    a.close().await?;
    Ok(())
}

/// With the tab's bodies captured: the API page again (its fetch's body is data), then a
/// login answer whose password must stay redacted.
async fn loads_with_bodies(s: &Shared, a: &Agent, tab: u32) -> anyhow::Result<()> {
    let api = s.pages.url("/beyond/api.html");
    call(a, "firefox_navigate", json!({"tabId": tab, "url": api})).await?;
    fetched(a, tab).await?;
    call(
        a,
        "firefox_navigate",
        json!({"tabId": tab, "url": s.pages.url("/beyond/login.json")}),
    )
    .await?;
    Ok(())
}

/// The network log as HAR 1.2: valid by the HAR schema (npm `har-validator`), with the
/// requests' headers and the bodies captured, credentials redacted as in the answers.
pub async fn the_network_log_writes_a_har(s: Arc<Shared>) -> anyhow::Result<()> {
    let project = tempfile::tempdir()?;
    let a = s.agent_in("har", project.path()).await?;
    let api = s.pages.url("/beyond/api.html");
    let tab = a.open(&api).await?;
    call(
        &a,
        "firefox_get_network",
        json!({"tabId": tab, "includeBody": true}),
    )
    .await?;
    loads_with_bodies(&s, &a, tab).await?;
    let written = eventually(Duration::from_secs(5), "the log with both loads", async || {
        let said = said(
            &a,
            "firefox_get_network",
            json!({"tabId": tab, "includeBody": true, "outputFile": "session.har", "overwrite": true}),
        )
        .await
        .ok()?;
        let har = std::fs::read_to_string(project.path().join("claudezilla-output/session.har"))
            .ok()?;
        (har.contains("/beyond/login.json") && har.contains("/beyond/data.txt"))
            .then_some((said, har))
    })
    .await;
    let (said, har) = written?;
    ensure!(said.starts_with("Wrote "), "{said}");
    ensure!(
        har.contains("[redacted]") && !har.contains("hunter2"),
        "credentials stay redacted in the file: {har}"
    );
    let doc: serde_json::Value = serde_json::from_str(&har)?;
    let entries = doc["log"]["entries"].as_array().context("entries")?;
    // The newest fetch: the one after the capture began.
    let data = entries
        .iter()
        .rev()
        .find(|e| {
            e["request"]["url"]
                .as_str()
                .is_some_and(|u| u.ends_with("/beyond/data.txt"))
        })
        .context("the fetch's entry")?;
    ensure!(
        data["response"]["content"]["text"]
            .as_str()
            .is_some_and(|t| t.contains("real-data"))
            && data["response"]["status"] == 200
            && data["request"]["headers"]
                .as_array()
                .is_some_and(|h| !h.is_empty())
            && data["response"]["headers"]
                .as_array()
                .is_some_and(|h| !h.is_empty()),
        "{data}"
    );
    let started: Vec<&str> = entries
        .iter()
        .filter_map(|e| e["startedDateTime"].as_str())
        .collect();
    ensure!(
        started.len() == entries.len() && started.is_sorted(),
        "every entry has its start, oldest first: {started:?}"
    );
    // The schema's own check, by the library HAR tools use.
    let validator = claudezilla_e2e::widgets_dir().join("node_modules/har-validator");
    let check = format!(
        "require({validator:?}).har(JSON.parse(require('fs').readFileSync({file:?}, 'utf8')))\
         .then(() => console.log('valid'))\
         .catch(e => {{ console.log(JSON.stringify(e.errors || e.message)); process.exit(1); }})",
        validator = validator.display().to_string(),
        file = project
            .path()
            .join("claudezilla-output/session.har")
            .display()
            .to_string(),
    );
    let out = std::process::Command::new("node")
        .args(["-e", &check])
        .output()?;
    ensure!(
        out.status.success() && String::from_utf8_lossy(&out.stdout).contains("valid"),
        "har-validator: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    a.close().await?;
    Ok(())
}

/// Log in once, reuse it: a's cookies and local storage saved to a file in the project, loaded
/// by an agent in a container of its own (which saw none of them before).
async fn state_moves_between_sessions(
    a: &Agent,
    c: &Agent,
    pages: &PageServer,
    project: &std::path::Path,
) -> anyhow::Result<()> {
    let url = pages.url("/beyond/stored.html");
    let tab = a.open(&url).await?;
    call(
        a,
        "firefox_cookies",
        json!({"tabId": tab, "action": "set", "name": "login", "value": "ann-7"}),
    )
    .await?;
    call(
        a,
        "firefox_storage",
        json!({"tabId": tab, "action": "set", "key": "profile", "value": "ann"}),
    )
    .await?;
    let saved = call(
        a,
        "firefox_storage_state",
        json!({"action": "save", "path": "state.json"}),
    )
    .await?;
    ensure!(saved.text.contains("Saved"), "{saved:?}");
    let file = std::fs::read_to_string(project.join("state.json"))?;
    ensure!(file.contains("ann-7") && file.contains("profile"), "{file}");
    let opened = call(
        c,
        "firefox_create_window",
        json!({"url": url, "container": "own"}),
    )
    .await?;
    let theirs = opened.tab_id()?;
    ensure!(!text_of(c, theirs, "#cookies").await?.contains("login="));
    let loaded = call(
        c,
        "firefox_storage_state",
        json!({"action": "load", "path": "state.json"}),
    )
    .await?;
    ensure!(loaded.text.contains("your container"), "{loaded:?}");
    call(c, "firefox_navigate", json!({"tabId": theirs, "url": url})).await?;
    ensure!(
        text_of(c, theirs, "#cookies")
            .await?
            .contains("login=ann-7"),
        "the cookie came with the state"
    );
    let local = text_of(c, theirs, "#local").await?;
    ensure!(local.contains(r#"["profile","ann"]"#), "{local}");
    let outside = c
        .call(
            "firefox_storage_state",
            json!({"action": "load", "path": "/etc/passwd"}),
        )
        .await?;
    outside.expect_error("NOT_ALLOWED")?;
    std::fs::write(project.join("bad.json"), "not json")?;
    let bad = c
        .call(
            "firefox_storage_state",
            json!({"action": "load", "path": "bad.json"}),
        )
        .await?;
    ensure!(
        bad.expect_error("INVALID_ARGUMENT")?
            .contains("not a saved storage state"),
        "{bad:?}"
    );
    Ok(())
}
