//! Issue 21: every power behind the user's word. Routes, downloads, saved states, response
//! bodies and the allowlist, each tried as a hostile page would talk the agent into using it:
//! what is as strong as running code in a site, planting or reading credentials, or writing a
//! file something else runs waits for the user's switch, and the agent never widens what the
//! user set.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use anyhow::ensure;
use claudezilla_e2e::pages::Page;
use claudezilla_e2e::{Agent, Browser, PageServer, eventually};
use serde_json::json;

use crate::common::{Shared, call, click, text_of};

/// A site with a login: a session cookie and a token in local storage.
const SITE: &str = "<!doctype html><title>Site</title><p id=out>loading</p><script>\
document.cookie = 'session=S3CRET-COOKIE; path=/'; localStorage.setItem('t', 'S3CRET-LOCAL');\
document.getElementById('out').textContent = 'ready';</script>";

/// What a route would serve in the site's origin to steal its login.
const STEALER: &str = "<!doctype html><p id=out>stealing</p><script>\
document.getElementById('out').textContent = 'ran:' + document.cookie + ':' + localStorage.t</script>";

/// The page's cookies as it sees them.
const JAR: &str = "<!doctype html><title>Jar</title><p id=cookies></p><script>\
document.getElementById('cookies').textContent = 'cookies:' + document.cookie;</script>";

/// Fetches `data.json` and shows what came back.
const API: &str = "<!doctype html><title>Api</title><p id=out>waiting</p><script>\
fetch('/powers/data.json').then(r => r.text()).then(t => document.getElementById('out').textContent = 'got:' + t)\
.catch(e => document.getElementById('out').textContent = 'failed:' + e.name);</script>";

/// An image of this site and one of another (`localhost`), with their widths once loaded.
const IMAGES: &str = "<!doctype html><title>Images</title><p id=out>waiting</p><script>\
const other = 'http://localhost:' + location.port + '/powers/pixel.svg';\
const load = (src) => new Promise(ok => { const i = new Image(); i.onload = () => ok(i.naturalWidth); i.onerror = () => ok('error'); i.src = src; });\
Promise.all([load('/powers/pixel.svg'), load(other)]).then(([here, there]) => \
document.getElementById('out').textContent = 'here:' + here + ' there:' + there);</script>";

/// A frame of another site (`localhost`), then one of this site: the other site's request
/// goes first, so by the time this site's frame shows, the other one has been decided.
const FRAMED: &str = "<!doctype html><title>Framed</title><p>framed page</p><script>\
for (const src of ['http://localhost:' + location.port + '/powers/other-frame.html', '/powers/own-frame.html']) {\
const f = document.createElement('iframe'); f.src = src; document.body.append(f); }</script>";

/// Credentials in every format a body comes in.
fn credential_bodies() -> Vec<(&'static str, Page)> {
    let big = format!(
        "{{\"pad\":\"{}\",\"access_token\":\"AT-BIG-SECRET\"}}",
        "p".repeat(20_000)
    );
    vec![
        ("/powers/big.json", Page::html(big)),
        (
            "/powers/prefixed.json",
            Page::html(")]}'\n{\"access_token\": \"AT-PREFIX-SECRET\", \"ok\": true}"),
        ),
        (
            "/powers/lines.ndjson",
            Page::html("{\"refresh_token\":\"RT-LINE-SECRET\"}\n{\"n\":2}\n"),
        ),
        (
            "/powers/form.txt",
            Page::html("user=ann&session=SESS-FORM-SECRET&x=1"),
        ),
        (
            "/powers/jsonp.js",
            Page::js("cb({\"id_token\":\"IT-JSONP-SECRET\"})"),
        ),
    ]
}

/// Every value [`credential_bodies`] hides.
const BODY_SECRETS: [&str; 5] = [
    "AT-BIG-SECRET",
    "AT-PREFIX-SECRET",
    "RT-LINE-SECRET",
    "SESS-FORM-SECRET",
    "IT-JSONP-SECRET",
];

/// Fetches every credential body, then says so.
const BODIES: &str = "<!doctype html><title>Bodies</title><p id=out>waiting</p><script>\
Promise.all(['big.json', 'prefixed.json', 'lines.ndjson', 'form.txt', 'jsonp.js'].map(f => fetch('/powers/' + f).then(r => r.text())))\
.then(() => document.getElementById('out').textContent = 'fetched');</script>";

pub fn pages() -> HashMap<&'static str, Page> {
    let mut pages = HashMap::from([
        ("/powers/site.html", Page::html(SITE)),
        (
            "/powers/x.html",
            Page::html("<!doctype html><title>Real x</title><p id=out>the real page</p>"),
        ),
        ("/powers/jar.html", Page::html(JAR)),
        ("/powers/api.html", Page::html(API)),
        ("/powers/data.json", Page::html("{\"real\":1}")),
        ("/powers/images.html", Page::html(IMAGES)),
        (
            "/powers/pixel.svg",
            Page::svg("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'/>"),
        ),
        ("/powers/framed.html", Page::html(FRAMED)),
        (
            "/powers/own-frame.html",
            Page::html("<!doctype html><p>own-frame-7a1</p>"),
        ),
        (
            "/powers/other-frame.html",
            Page::html("<!doctype html><p>other-frame-5d2</p>"),
        ),
        (
            "/powers/downloads.html",
            Page::html(
                "<!doctype html><title>Downloads</title><a id=build href=/powers/build.rs>build</a>\
                 <a id=away href=/powers/away>away</a>",
            ),
        ),
        (
            "/powers/build.rs",
            Page::download(
                b"fn main() { std::process::Command::new(\"evil\"); }".to_vec(),
                "build.rs",
            ),
        ),
        (
            "/powers/away",
            Page::redirect_to_localhost("/powers/build.rs"),
        ),
        ("/powers/bodies.html", Page::html(BODIES)),
        (
            "/powers/framed-file.html",
            Page::html(
                "<!doctype html><title>Framed file</title><iframe id=f></iframe><script>\
                 document.getElementById('f').src = \
                 'http://localhost:' + location.port + '/powers/build.rs';</script>",
            ),
        ),
    ]);
    pages.extend(credential_bodies());
    pages
}

/// The text of `selector` once it no longer says `waiting`.
async fn settled(a: &Agent, tab: u32, selector: &str) -> anyhow::Result<String> {
    eventually(Duration::from_secs(10), selector, async || {
        text_of(a, tab, selector)
            .await
            .ok()
            .filter(|t| !t.contains("waiting") && !t.contains("loading"))
    })
    .await
}

/// With evaluate switched off, a route cannot run the agent's code in a site nor change its
/// security headers; data responses are still mocked, the user sees each one replaced, and
/// no request waits on the extension once the last route is gone.
pub async fn routes_run_no_code_without_the_switch(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("routes-code", "/powers/site.html").await?;
    ensure!(settled(&a, tab, "#out").await?.contains("ready"));
    let x = s.pages.url("/powers/x.html");
    let set = call(
        &a,
        "firefox_route",
        json!({"pattern": x, "action": "fulfill", "body": STEALER,
               "headers": {"Content-Type": "text/html"}}),
    )
    .await?;
    ensure!(set.text.contains("fulfill"), "{set:?}");
    let went = call(&a, "firefox_navigate", json!({"tabId": tab, "url": x})).await?;
    let shown = text_of(&a, tab, "#out").await?;
    ensure!(
        !shown.contains("S3CRET") && !shown.contains("ran:"),
        "the route ran code in the site: {shown}"
    );
    ensure!(
        shown.contains("the real page"),
        "the real page loads: {shown}"
    );
    let listed = call(&a, "firefox_route", json!({})).await?;
    ensure!(
        listed.text.contains("left alone") && listed.text.contains("evaluate switch"),
        "{listed:?}"
    );
    ensure!(
        went.text.contains("left a main_frame response") || listed.text.contains("1 left alone"),
        "the agent hears why: {went:?}"
    );

    for header in [
        "Set-Cookie",
        "Content-Security-Policy",
        "Access-Control-Allow-Origin",
    ] {
        let planted = a
            .call(
                "firefox_route",
                json!({"pattern": "**/powers/data.json", "action": "fulfill", "body": "{}",
                       "headers": {header: "planted=1"}}),
            )
            .await?;
        ensure!(
            planted.expect_error("DISABLED")?.contains(header),
            "{header}: {planted:?}"
        );
    }

    // Data responses are still the agent's to mock, and the user sees that one was replaced.
    call(
        &a,
        "firefox_route",
        json!({"pattern": "**/powers/data.json", "action": "fulfill", "body": "{\"mocked\":1}",
               "headers": {"Content-Type": "application/json"}}),
    )
    .await?;
    let api = s.pages.url("/powers/api.html");
    call(&a, "firefox_navigate", json!({"tabId": tab, "url": api})).await?;
    let got = settled(&a, tab, "#out").await?;
    ensure!(got.contains("mocked"), "{got}");
    let activity = call(&a, "firefox_get_activity", json!({})).await?;
    ensure!(
        activity.text.contains("route response of http://127.0.0.1")
            && activity.text.contains("data.json → replaced"),
        "{activity:?}"
    );
    let diagnosed = call(&a, "firefox_diagnose", json!({})).await?;
    ensure!(
        diagnosed
            .text
            .contains("wait on Claudezilla (never tabs outside the pool)"),
        "{diagnosed:?}"
    );
    call(&a, "firefox_unroute", json!({})).await?;
    let diagnosed = call(&a, "firefox_diagnose", json!({})).await?;
    ensure!(
        diagnosed.text.contains("no request waits on Claudezilla"),
        "the blocking listeners outlived the last route: {diagnosed:?}"
    );
    a.close().await?;
    Ok(())
}

/// A browser with the user's switches set by Firefox's environment, and its own pages.
async fn browser_with(env: &[(&str, &str)]) -> anyhow::Result<(Browser, PageServer)> {
    let pages = PageServer::start(pages()).await?;
    let browser = Browser::start_with(env).await?;
    Ok((browser, pages))
}

/// What works for a user who switched evaluate on keeps working: a route serves a page of the
/// agent's in the site, and sets any header.
pub async fn routes_fulfill_pages_with_the_switch() -> anyhow::Result<()> {
    let (browser, pages) = browser_with(&[("CLAUDEZILLA_ALLOW_EVALUATE", "1")]).await?;
    let project = tempfile::tempdir()?;
    let a = browser.agent_in("routes-on", project.path()).await?;
    let tab = a.open(&pages.url("/powers/site.html")).await?;
    ensure!(settled(&a, tab, "#out").await?.contains("ready"));
    let x = pages.url("/powers/x.html");
    call(
        &a,
        "firefox_route",
        json!({"pattern": x, "action": "fulfill", "body": STEALER,
               "headers": {"Content-Type": "text/html", "Set-Cookie": "planted=1; path=/"}}),
    )
    .await?;
    call(&a, "firefox_navigate", json!({"tabId": tab, "url": x})).await?;
    let shown = eventually(Duration::from_secs(5), "the route's page", async || {
        text_of(&a, tab, "#out")
            .await
            .ok()
            .filter(|t| t.contains("ran:"))
    })
    .await?;
    ensure!(shown.contains("S3CRET-COOKIE"), "{shown}");
    call(&a, "firefox_unroute", json!({})).await?;
    call(
        &a,
        "firefox_navigate",
        json!({"tabId": tab, "url": pages.url("/powers/jar.html")}),
    )
    .await?;
    let jar = text_of(&a, tab, "#cookies").await?;
    ensure!(jar.contains("planted=1"), "{jar}");
    a.close().await?;
    Ok(())
}

/// A page-named `build.rs` never lands where `cargo build` would run it, nor in `.git/hooks`
/// or the project's sources: only under the downloads folder, and kept inert there.
pub async fn downloads_land_only_in_the_downloads_folder(s: Arc<Shared>) -> anyhow::Result<()> {
    let project = tempfile::tempdir()?;
    let a = s.agent_in("dl-rules", project.path()).await?;
    let tab = a.open(&s.pages.url("/powers/downloads.html")).await?;
    let hooks = a
        .call("firefox_downloads", json!({"saveTo": ".git/hooks"}))
        .await?;
    ensure!(
        hooks.expect_error("NOT_ALLOWED")?.contains(".git"),
        "{hooks:?}"
    );
    for (n, (save_to, lands)) in [
        (".", "downloads/build.rs.download"),
        ("src", "downloads/src/build.rs.download"),
    ]
    .into_iter()
    .enumerate()
    {
        click(&a, tab, "#build").await?;
        let listed = eventually(Duration::from_secs(15), "the download", async || {
            let listed = a
                .call(
                    "firefox_downloads",
                    json!({"wait": true, "saveTo": save_to, "timeout": 10000}),
                )
                .await
                .ok()?;
            listed
                .text
                .starts_with(&format!("{} download", n + 1))
                .then_some(listed)
        })
        .await?;
        ensure!(
            project.path().join(lands).exists(),
            "{save_to}: not in {lands}: {listed:?}"
        );
    }
    for never in ["build.rs", "src", ".git"] {
        ensure!(
            !project.path().join(never).exists(),
            "a download wrote {never} in the project"
        );
    }
    a.close().await?;
    Ok(())
}

/// Saving never replaces a file unasked, never writes a hidden file or into a hidden folder,
/// and a saved state is JSON; loading plants no cookie for a site the agent has no tab on and
/// deletes none with a past expiry.
pub async fn saved_states_plant_and_replace_nothing() -> anyhow::Result<()> {
    let (browser, pages) = browser_with(&[("CLAUDEZILLA_ALLOW_STORAGE", "1")]).await?;
    let project = tempfile::tempdir()?;
    let root = project.path();
    std::fs::write(root.join(".gitignore"), "target/\n.env\n")?;
    std::fs::create_dir(root.join(".claude"))?;
    std::fs::write(root.join(".claude/settings.json"), "{\"permissions\":{}}")?;
    let a = browser.agent_in("state-rules", root).await?;
    let tab = a.open(&pages.url("/powers/site.html")).await?;
    ensure!(settled(&a, tab, "#out").await?.contains("ready"));
    let save = async |path: &str, overwrite: bool| {
        a.call(
            "firefox_storage_state",
            json!({"action": "save", "path": path, "overwrite": overwrite}),
        )
        .await
    };
    for hidden in [".gitignore", ".claude/settings.json", ".env.json"] {
        save(hidden, true).await?.expect_error("NOT_ALLOWED")?;
    }
    ensure!(std::fs::read_to_string(root.join(".gitignore"))? == "target/\n.env\n");
    ensure!(std::fs::read_to_string(root.join(".claude/settings.json"))? == "{\"permissions\":{}}");
    save("notes.txt", false)
        .await?
        .expect_error("INVALID_ARGUMENT")?;
    save("state.json", false).await?.ok()?;
    let again = save("state.json", false).await?;
    ensure!(
        again.expect_error("INVALID_ARGUMENT")?.contains("exists"),
        "{again:?}"
    );
    save("state.json", true).await?.ok()?;
    // Screenshots follow the same rules.
    for (path, code) in [
        (".git/shot.png", "NOT_ALLOWED"),
        ("build.rs", "INVALID_ARGUMENT"),
    ] {
        let shot = a
            .call(
                "firefox_screenshot",
                json!({"tabId": tab, "savePath": path, "skipReadiness": true}),
            )
            .await?;
        shot.expect_error(code)?;
    }
    ensure!(!root.join("build.rs").exists() && !root.join(".git").exists());

    // A state file a page talked the agent into loading.
    let port = pages.port;
    let planted = json!({"cookies": [
        {"url": format!("http://localhost:{port}/"), "name": "fixation", "value": "attacker",
         "domain": "localhost", "path": "/", "hostOnly": true},
        {"url": format!("http://127.0.0.1:{port}/"), "name": "loaded", "value": "1",
         "domain": "127.0.0.1", "path": "/", "hostOnly": true},
        {"url": format!("http://127.0.0.1:{port}/"), "name": "session", "value": "gone",
         "domain": "127.0.0.1", "path": "/", "hostOnly": true, "expires": 1000.0}
    ], "origins": []});
    std::fs::write(root.join("planted.json"), planted.to_string())?;
    let loaded = call(
        &a,
        "firefox_storage_state",
        json!({"action": "load", "path": "planted.json"}),
    )
    .await?;
    ensure!(
        loaded.text.contains("Loaded 1 of 3")
            && loaded.text.contains("no tab of yours")
            && loaded.text.contains("expired"),
        "{loaded:?}"
    );
    call(
        &a,
        "firefox_navigate",
        json!({"tabId": tab, "url": pages.url("/powers/jar.html")}),
    )
    .await?;
    let own = text_of(&a, tab, "#cookies").await?;
    ensure!(
        own.contains("session=S3CRET-COOKIE") && own.contains("loaded=1"),
        "{own}"
    );
    let b = browser.agent_in("state-victim", root).await?;
    let other = b
        .open(&format!("http://localhost:{port}/powers/jar.html"))
        .await?;
    let theirs = text_of(&b, other, "#cookies").await?;
    ensure!(
        !theirs.contains("fixation"),
        "a session was planted: {theirs}"
    );
    b.close().await?;
    a.close().await?;
    Ok(())
}

/// Response bodies show no credential, whatever their format or length.
pub async fn bodies_are_redacted_in_every_format(s: Arc<Shared>) -> anyhow::Result<()> {
    let a = s.agent("bodies-redacted").await?;
    let url = s.pages.url("/powers/bodies.html");
    let tab = a.open(&url).await?;
    call(
        &a,
        "firefox_get_network",
        json!({"tabId": tab, "includeBody": true}),
    )
    .await?;
    call(&a, "firefox_navigate", json!({"tabId": tab, "url": url})).await?;
    ensure!(settled(&a, tab, "#out").await?.contains("fetched"));
    let shown = eventually(Duration::from_secs(5), "five bodies", async || {
        let net = a
            .call(
                "firefox_get_network",
                json!({"tabId": tab, "includeBody": true, "type": "xmlhttprequest"}),
            )
            .await
            .ok()?;
        (net.text.matches("body:").count() >= 5).then_some(net.text)
    })
    .await?;
    for secret in BODY_SECRETS {
        ensure!(!shown.contains(secret), "{secret} shown:\n{shown}");
    }
    // The big body's token lies past the cut: redacted, then cut away.
    ensure!(shown.matches("[redacted]").count() >= 4, "{shown}");
    ensure!(
        shown.contains("\"pad\":\"ppp"),
        "the long body is text: {shown}"
    );
    a.close().await?;
    Ok(())
}

/// A download from outside the agent's own list (a frame of another site, which only the
/// user's list keeps from loading) is cancelled and lands nowhere: not in the project, and not
/// in the browser's folder either — a small file may finish before the cancel reaches it.
pub async fn a_download_the_agents_list_refuses_lands_nowhere() -> anyhow::Result<()> {
    let (browser, pages) = browser_with(&[]).await?;
    let project = tempfile::tempdir()?;
    let a = browser.agent_in("refused-download", project.path()).await?;
    call(
        &a,
        "firefox_set_config",
        json!({"allowedDomains": ["127.0.0.1"]}),
    )
    .await?;
    a.open(&pages.url("/powers/framed-file.html")).await?;
    eventually(
        Duration::from_secs(10),
        "the agent told of the cancel",
        async || {
            let r = call(&a, "firefox_get_tabs", json!({})).await.ok()?;
            r.text
                .contains("A download was cancelled (build.rs)")
                .then_some(())
        },
    )
    .await?;
    // The browser's folder is looked at a while: a file landing late would show.
    for _ in 0..10 {
        let landed = crate::beyond::files_named(browser.path(), &["build"]);
        ensure!(landed.is_empty(), "the refused file landed: {landed:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let listed = call(&a, "firefox_downloads", json!({})).await?;
    ensure!(listed.text.starts_with("No download"), "{listed:?}");
    let in_project = crate::beyond::files_named(project.path(), &["build"]);
    ensure!(in_project.is_empty(), "in the project: {in_project:?}");
    a.close().await?;
    drop(pages);
    Ok(())
}

/// With a user allowlist, an agent can narrow it but never widen or lift it, and it holds for
/// frames, routes, downloads and saved-state loads, not only top-level loads.
pub async fn the_allowlist_is_the_users() -> anyhow::Result<()> {
    let (browser, pages) = browser_with(&[
        ("CLAUDEZILLA_ALLOWED_DOMAINS", "127.0.0.1"),
        ("CLAUDEZILLA_ALLOW_STORAGE", "1"),
    ])
    .await?;
    let project = tempfile::tempdir()?;
    let a = browser.agent_in("allowlist", project.path()).await?;
    let port = pages.port;
    let lifted = call(&a, "firefox_set_config", json!({"allowedDomains": []})).await?;
    ensure!(
        lifted.text.contains("the user's list: 127.0.0.1"),
        "{lifted:?}"
    );
    let wider = a
        .call(
            "firefox_set_config",
            json!({"allowedDomains": ["localhost"]}),
        )
        .await?;
    ensure!(
        wider.expect_error("NOT_ALLOWED")?.contains("user's"),
        "{wider:?}"
    );
    call(
        &a,
        "firefox_set_config",
        json!({"allowedDomains": ["127.0.0.1"]}),
    )
    .await?;
    let outside = a
        .call(
            "firefox_create_window",
            json!({"url": format!("http://localhost:{port}/powers/x.html")}),
        )
        .await?;
    ensure!(
        outside.expect_error("NOT_ALLOWED")?.contains("user's"),
        "{outside:?}"
    );

    // Frames: the page's own loads, the other site's does not.
    let tab = a.open(&pages.url("/powers/framed.html")).await?;
    // The other site's frame is refused (its read says why) or, were the list not kept,
    // loaded: wait for either, as well as for this site's frame.
    let text = eventually(Duration::from_secs(5), "both frames decided", async || {
        let t = call(&a, "firefox_get_content", json!({"tabId": tab}))
            .await
            .ok()?;
        let other = t.text.contains("outside the user's allowed domains")
            || t.text.contains("other-frame-5d2");
        (t.text.contains("own-frame-7a1") && other).then_some(t.text)
    })
    .await?;
    ensure!(!text.contains("other-frame-5d2"), "{text}");
    // Every read says why the frame is empty, the snapshot too.
    let snapshot = call(&a, "firefox_snapshot", json!({"tabId": tab})).await?;
    ensure!(
        snapshot.text.contains("outside the user's allowed domains"),
        "{snapshot:?}"
    );

    // Routes: a request outside the list meets none.
    call(
        &a,
        "firefox_route",
        json!({"pattern": "**/powers/pixel.svg", "action": "fulfill",
               "body": "<svg xmlns='http://www.w3.org/2000/svg' width='77' height='10'/>",
               "headers": {"Content-Type": "image/svg+xml"}}),
    )
    .await?;
    call(
        &a,
        "firefox_navigate",
        json!({"tabId": tab, "url": pages.url("/powers/images.html")}),
    )
    .await?;
    let widths = settled(&a, tab, "#out").await?;
    ensure!(widths.contains("here:77 there:10"), "{widths}");

    // Downloads: one that leads outside never lands.
    call(
        &a,
        "firefox_navigate",
        json!({"tabId": tab, "url": pages.url("/powers/downloads.html")}),
    )
    .await?;
    // The one that leads outside first, then one of this site: once that is listed, the
    // first had its chance to start.
    a.call("firefox_click", json!({"tabId": tab, "selector": "#away"}))
        .await?;
    click(&a, tab, "#build").await?;
    let listed = eventually(
        Duration::from_secs(15),
        "this site's download",
        async || {
            let listed = a
                .call("firefox_downloads", json!({"wait": true, "timeout": 10000}))
                .await
                .ok()?;
            listed.text.starts_with("1 download").then_some(listed)
        },
    )
    .await;
    ensure!(listed.is_ok(), "one download, this site's: {listed:?}");
    ensure!(
        std::fs::read_dir(project.path().join("downloads"))?.count() == 1,
        "only this site's download lands"
    );

    // Saved-state loads: no cookie for a site outside the list.
    let planted = json!({"cookies": [
        {"url": format!("http://localhost:{port}/"), "name": "fixation", "value": "x",
         "domain": "localhost", "path": "/", "hostOnly": true}], "origins": []});
    std::fs::write(project.path().join("planted.json"), planted.to_string())?;
    let loaded = call(
        &a,
        "firefox_storage_state",
        json!({"action": "load", "path": "planted.json"}),
    )
    .await?;
    ensure!(
        loaded.text.contains("Loaded 0 of 1") && loaded.text.contains("outside the allowed"),
        "{loaded:?}"
    );
    a.close().await?;
    drop(pages);
    Ok(())
}
