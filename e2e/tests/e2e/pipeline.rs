//! The whole pipeline on one shared browser: open, read, click, type, screenshot, close.

use claudezilla_protocol::reply;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail, ensure};
use base64::Engine;
use claudezilla_e2e::RawClient;
use claudezilla_protocol::{Command, ErrorCode, HostMessage, Reply};
use serde_json::json;

use crate::common::{Shared, tabs_gone, text_of};

pub async fn reads_clicks_types_screenshots_and_closes(s: Arc<Shared>) -> anyhow::Result<()> {
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
    let out = text_of(&a, tab, "#out").await?;
    ensure!(out.contains("clicked 1"), "{}", out);

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
    let echo = text_of(&a, tab, "#echo").await?;
    ensure!(
        echo.contains("echo:pre-hello"),
        "the page saw the input event: {}",
        echo
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

    let shot = crate::common::screenshot(&a, json!({"tabId": tab})).await?;
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

pub async fn element_errors_are_clear(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("elements", "/basic.html").await?;
    let missing = a
        .call(
            "firefox_click",
            json!({"tabId": tab, "selector": "#nope", "timeout": 10000}),
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

pub async fn other_agents_cannot_touch_my_tab(s: Arc<Shared>) -> anyhow::Result<()> {
    let owner = s.agent("owner").await?;
    let intruder = s.agent("intruder").await?;
    let tab = owner.open(&s.pages.url("/basic.html")).await?;
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
        ("firefox_get_console", json!({"tabId": tab})),
        ("firefox_get_network", json!({"tabId": tab})),
        (
            "firefox_evaluate",
            json!({"tabId": tab, "expression": "document.title = 'pwned'"}),
        ),
        ("firefox_handle_consent", json!({"tabId": tab})),
        (
            "firefox_set_viewport",
            json!({"tabId": tab, "device": "laptop"}),
        ),
        ("firefox_detach_tab", json!({"tabId": tab})),
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

pub async fn navigation_waits_for_the_page(s: Arc<Shared>) -> anyhow::Result<()> {
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
    let late = text_of(&a, tab, "#late").await?;
    ensure!(
        late.contains("late-loaded-55e1"),
        "create_window returned before the load: {}",
        late
    );
    a.call(
        "firefox_navigate",
        json!({"tabId": tab, "url": s.pages.url("/other.html")}),
    )
    .await?
    .ok()?;
    // A load event the page makes up does not end the wait: only the browser's does (Firefox
    // does not even show a page's made-up events to a content script; the script checks).
    for (page, early) in [
        ("/slow.html", "navigate returned before the load"),
        ("/fake-load.html", "a made-up load event ended the wait"),
    ] {
        a.call(
            "firefox_navigate",
            json!({"tabId": tab, "url": s.pages.url(page)}),
        )
        .await?
        .ok()?;
        let late = text_of(&a, tab, "#late").await?;
        ensure!(late.contains("late-loaded-55e1"), "{early}: {late}");
    }
    Ok(())
}

pub async fn a_page_that_never_loads_reports_its_state(s: Arc<Shared>) -> anyhow::Result<()> {
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
    // The image the server holds is listed as in flight, not left out until it ends.
    let log = a
        .call("firefox_get_network", json!({"tabId": tab}))
        .await?
        .ok()?;
    ensure!(
        log.text
            .lines()
            .any(|l| l.contains("/never.png") && l.contains("pending (no answer yet)")),
        "{}",
        log.text
    );
    a.call("firefox_close_tab", json!({"tabId": tab}))
        .await?
        .ok()?;
    Ok(())
}

pub async fn goodbye_releases_tabs(s: Arc<Shared>) -> anyhow::Result<()> {
    let leaving = s.agent("leaving").await?;
    let watcher = s.agent("watcher").await?;
    let mut tabs = Vec::new();
    for _ in 0..2 {
        tabs.push(leaving.open(&s.pages.url("/other.html")).await?);
    }
    let listed = watcher.call("firefox_get_tabs", json!({})).await?.ok()?;
    ensure!(
        tabs.iter()
            .all(|t| listed.text.contains(&format!("tab {t} "))),
        "{}",
        listed.text
    );
    leaving.close().await?;
    tabs_gone(&watcher, &tabs, "the leaving agent's tabs to close").await
}

pub async fn the_real_host_refuses_a_wrong_token(s: Arc<Shared>) -> anyhow::Result<()> {
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
    ensure!(
        matches!(pong, Ok(Reply::Pong(reply::Pong { .. }))),
        "{pong:?}"
    );
    Ok(())
}

/// A traced request (the benchmark's hop table) hears where its time went, through the real
/// host and extension.
pub async fn traced_requests_say_where_their_time_went(s: Arc<Shared>) -> anyhow::Result<()> {
    let mut client = RawClient::connect(&s.browser.runtime).await?;
    let (pong, times) = client.call_traced(Command::Ping).await?;
    ensure!(
        matches!(pong, Ok(Reply::Pong(reply::Pong { .. }))),
        "{pong:?}"
    );
    let times = times.context("no trace for a traced request")?;
    // Firefox's own clock is coarse (1 ms by default): the extension's figures are compared
    // with that much slack.
    ensure!(
        times.native_us > 0
            && times.native_us + 1_000 >= times.background_us
            && times.content_us == 0,
        "{times:?}"
    );
    let tab = client
        .call(Command::CreateWindow(serde_json::from_value(
            json!({"url": s.pages.url("/form.html")}),
        )?))
        .await?;
    let Ok(Reply::Tab(tab)) = tab else {
        bail!("{tab:?}")
    };
    let read = Command::GetContent(serde_json::from_value(json!({"tabId": tab.tab_id.0}))?);
    let (_, times) = client.call_traced(read.clone()).await?;
    let times = times.context("no trace")?;
    ensure!(
        times.native_us + 1_000 >= times.background_us
            && times.background_us + 1_000 >= times.content_us,
        "the hops nest: {times:?}"
    );
    Ok(())
}

pub async fn diagnose_reports_every_link(s: Arc<Shared>) -> anyhow::Result<()> {
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

/// Firefox refuses file: URLs from every extension; the answer must say so and what to do.
pub async fn file_pages_are_refused_with_a_way_out(s: Arc<Shared>) -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let page = dir.path().join("local.html");
    std::fs::write(
        &page,
        "<!doctype html><title>Local file</title><p>from-disk</p>",
    )?;
    let a = s.agent("file").await?;
    let r = a
        .call(
            "firefox_create_window",
            json!({"url": format!("file://{}", page.display())}),
        )
        .await?;
    let text = r.expect_error("BAD_URL")?;
    ensure!(text.contains("http.server"), "no way out offered: {text}");
    let tabs = a.call("firefox_get_tabs", json!({})).await?.ok()?;
    ensure!(
        !tabs.text.contains("(yours)"),
        "a refused open left a tab behind: {}",
        tabs.text
    );
    Ok(())
}
