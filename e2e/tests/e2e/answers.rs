//! Smaller answers: bulky ones written whole to a file on request (`outputFile`), and
//! `firefox_find` instead of a snapshot to learn where something is.

use std::collections::HashMap;
use std::sync::Arc;

use anyhow::ensure;
use claudezilla_e2e::pages::Page;
use serde_json::json;

use crate::common::{Shared, call};

/// Items on the big page: its snapshot is far over the 40,000 characters answered by default.
const ITEMS: usize = 3_000;

pub fn pages() -> HashMap<&'static str, Page> {
    let items: String = (0..ITEMS)
        .map(|n| format!("<li><a href=#i{n}>item {n}</a> <span>note {n}</span></li>"))
        .collect();
    HashMap::from([
        (
            "/answers/big.html",
            Page::html(format!(
                "<!doctype html><title>Big page</title><h1>Catalogue</h1><ul>{items}</ul>\
                 <script>for (let n = 0; n < 600; n++) console.log('message ' + n); fetch('/answers/big.html?again')</script>"
            )),
        ),
        (
            "/answers/find.html",
            Page::html(format!(
                "<!doctype html><title>Find</title><h1>Catalogue</h1>\
                 <p>Hello <b>needle</b> world</p><p style=display:none>needle hidden</p>\
                 <deep-panel></deep-panel><name-card>needle slotted in a card</name-card>\
                 <div style=display:contents><p>needle in contents</p></div><p id=pressed>not pressed</p>\
                 <details><summary>needle in a summary</summary>needle hidden in a closed details<p>needle hidden in its paragraph</p></details>\
                 <div hidden=until-found>needle hidden until found</div><p>a <span hidden>needle hidden in a span</span></p><ul>{items}</ul><iframe id=fr></iframe>\
                 <script>\
                 document.getElementById('fr').src = 'http://localhost:' + location.port + '/answers/frame.html';\
                 customElements.define('deep-panel', class extends HTMLElement {{ constructor() {{ super();\
                   const root = this.attachShadow({{mode: 'open'}});\
                   root.innerHTML = '<div><button>Press the needle</button></div>';\
                   root.querySelector('button').onclick = () => document.getElementById('pressed').textContent = 'pressed';\
                 }} }});\
                 customElements.define('name-card', class extends HTMLElement {{ constructor() {{ super();\
                   this.attachShadow({{mode: 'open'}}).innerHTML = '<div class=card><slot></slot></div>';\
                 }} }});\
                 </script>"
            )),
        ),
        (
            "/answers/perf.html",
            Page::html(
                "<!doctype html><title>Perf</title><h1 id=hero>A large headline that paints</h1>\
                 <p>body text</p><p id=kinds></p><script>kinds.textContent = 'layout shifts ' +\
                 (PerformanceObserver.supportedEntryTypes.includes('layout-shift') ? 'reported' : 'unreported')</script>\
                 <script src=/answers/perf.js></script>",
            ),
        ),
        (
            "/answers/perf.js",
            Page::js(format!("window.padding = '{}';", "x".repeat(20_000)))
                .delayed(std::time::Duration::from_millis(200)),
        ),
        (
            "/answers/trace.html",
            Page::html(
                "<!doctype html><title>Traced page</title><h1 id=h>Before</h1><input id=q aria-label=Query>\
                 <button id=go onclick=\"document.getElementById('h').textContent='After';console.error('clicked-error-7f3d')\">Go</button>",
            ),
        ),
        (
            "/answers/frame.html",
            Page::html(
                "<!doctype html><title>Frame</title><nav><a href=#x>needle in frame</a></nav>",
            ),
        ),
    ])
}

/// Find answers where a text is in a fraction of a snapshot's size, frames and shadow roots
/// included, with refs an agent acts on.
pub async fn find_names_every_match_with_a_ref(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("find", "/answers/find.html").await?;
    // The frame loads after the page: wait for its link.
    let found = wait_found(&a, tab, 6).await?;
    for line in [
        "text: Hello «needle» world",
        "button \"Press the needle\": Press the «needle»",
        "link \"needle in frame\": «needle» in frame",
        // A default slot and a `display: contents` wrapper have no box, but what they hold shows.
        "text: «needle» slotted in a card",
        "text: «needle» in contents",
        // A closed details shows its summary only.
        "«needle» in a summary",
    ] {
        ensure!(found.contains(line), "{line} in {found}");
    }
    let markdown = call(
        &a,
        "firefox_get_content",
        json!({"tabId": tab, "format": "markdown"}),
    )
    .await?;
    for shown in [
        "needle slotted in a card",
        "needle in contents",
        "needle in a summary",
    ] {
        ensure!(
            markdown.text.contains(shown),
            "{shown} in {}",
            markdown.text
        );
    }
    ensure!(!markdown.text.contains("hidden"), "{}", markdown.text);
    ensure!(!found.contains("hidden"), "{found}");
    let button = found
        .lines()
        .find(|l| l.contains("button"))
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or_default()
        .to_owned();
    call(&a, "firefox_click", json!({"tabId": tab, "ref": button})).await?;
    let pressed = call(&a, "firefox_find", json!({"tabId": tab, "text": "pressed"})).await?;
    ensure!(pressed.text.contains("«pressed»"), "{pressed:?}");

    let many = call(
        &a,
        "firefox_find",
        json!({"tabId": tab, "pattern": r"item 29\d\d\b"}),
    )
    .await?;
    ensure!(
        many.text.starts_with("20 of 100 match(es)") && many.text.contains("[80 more;"),
        "{many:?}"
    );
    let snapshot = call(
        &a,
        "firefox_snapshot",
        json!({"tabId": tab, "maxChars": 1_000_000}),
    )
    .await?;
    ensure!(
        many.text.len() * 10 < snapshot.text.len(),
        "find {} vs snapshot {}",
        many.text.len(),
        snapshot.text.len()
    );
    eprintln!(
        "find: 20 of 100 matches in {} characters; the whole snapshot of the same page: {}",
        many.text.len(),
        snapshot.text.len()
    );
    let bad = a
        .call(
            "firefox_find",
            json!({"tabId": tab, "pattern": "(unclosed"}),
        )
        .await?;
    ensure!(
        bad.expect_error("INVALID_ARGUMENT")?.contains("pattern"),
        "{bad:?}"
    );
    let none = call(
        &a,
        "firefox_find",
        json!({"tabId": tab, "text": "absent-4c1f"}),
    )
    .await?;
    ensure!(none.text.starts_with("Not found"), "{none:?}");
    a.close().await?;
    Ok(())
}

/// Performance is the page's own, measured in Firefox: navigation timing, LCP with its
/// element, resources by type; what Firefox does not report is said, not made up.
pub async fn performance_is_measured_in_the_page(s: Arc<Shared>) -> anyhow::Result<()> {
    // A tab opened after another is not the active tab of the agents' window.
    let (a, _first) = s.agent_at("performance", "/answers/trace.html").await?;
    let tab = a.open(&s.pages.url("/answers/perf.html")).await?;
    for reload in [false, true] {
        let said = call(
            &a,
            "firefox_performance",
            json!({"tabId": tab, "reload": reload}),
        )
        .await?;
        let text = &said.text;
        let number = |after: &str| -> Option<u32> {
            let rest = &text[text.find(after)? + after.len()..];
            rest.split_whitespace().next()?.parse().ok()
        };
        let (ttfb, dcl, load) = (
            number("TTFB "),
            number("DOMContentLoaded "),
            number("load "),
        );
        ensure!(
            matches!((ttfb, dcl, load), (Some(t), Some(d), Some(l)) if t <= d && d <= l && d >= 200),
            "the script took 200 ms, so did the page: {text}"
        );
        ensure!(
            text.contains("script 1×") && text.contains("/answers/perf.js"),
            "{text}"
        );
        // The headline is the largest paint. Without a reload a hidden tab has painted
        // nothing, and the answer must say so; a reload shows the tab while it loads.
        let named = text.contains("LCP: ") && text.contains("A large headline");
        let hidden = text.contains("LCP: none — the tab was hidden");
        match reload {
            false => ensure!(named || hidden, "{text}"),
            true => ensure!(
                // Which tab is given the window back depends on the other tests' tabs in this
                // shared browser (one may have closed meanwhile): `perf::show_plan`'s tests
                // and the answer's words say the rest.
                named && text.contains("Shown: the tab was the active tab of the agents' window"),
                "a reload shows the agent's tab, so its largest paint is measured: {text}"
            ),
        }
        // Firefox may not report layout shifts; the page itself says whether it does.
        let page = call(&a, "firefox_get_content", json!({"tabId": tab})).await?;
        let reported = page.text.contains("layout shifts reported");
        ensure!(
            reported || page.text.contains("layout shifts unreported"),
            "{page:?}"
        );
        ensure!(
            text.contains("CLS: ") == reported
                && text.contains("Not measured — Cumulative Layout Shift") != reported,
            "the page says layout shifts are {}reported: {text}",
            if reported { "" } else { "un" }
        );
    }
    a.close().await?;
    Ok(())
}

/// A trace records the agent's actions and writes a page the user opens in Firefox: every
/// action listed, pictures shown, typed text never in it.
pub async fn a_trace_is_a_page_the_user_opens(s: Arc<Shared>) -> anyhow::Result<()> {
    let project = tempfile::tempdir_in(s.browser.path())?;
    let a = s.agent_in("trace", project.path()).await?;
    a.call("firefox_trace", json!({"action": "stop"}))
        .await?
        .expect_error("INVALID_ARGUMENT")?;
    call(&a, "firefox_trace", json!({"action": "start"})).await?;
    a.call("firefox_trace", json!({"action": "start"}))
        .await?
        .expect_error("INVALID_ARGUMENT")?;
    let tab = a.open(&s.pages.url("/answers/trace.html")).await?;
    call(&a, "firefox_get_console", json!({"tabId": tab})).await?;
    call(
        &a,
        "firefox_type",
        json!({"tabId": tab, "selector": "#q", "text": "typed-words-5e2a"}),
    )
    .await?;
    call(
        &a,
        "firefox_click",
        json!({"tabId": tab, "selector": "#go"}),
    )
    .await?;
    call(&a, "firefox_snapshot", json!({"tabId": tab})).await?;
    let refused = a
        .call(
            "firefox_trace",
            json!({"action": "stop", "path": "run.txt"}),
        )
        .await?;
    refused.expect_error("INVALID_ARGUMENT")?;
    let refused = a
        .call(
            "firefox_trace",
            json!({"action": "stop", "path": "run.html", "movie": "run.gif"}),
        )
        .await?;
    refused.expect_error("INVALID_ARGUMENT")?;
    let stopped = call(
        &a,
        "firefox_trace",
        json!({"action": "stop", "path": "run.html", "movie": "run.png"}),
    )
    .await?;
    ensure!(
        stopped.text.starts_with("Wrote 5 action(s) to run.html")
            && stopped
                .text
                .contains("Its 3 picture(s) play as an animated PNG in run.png"),
        "{stopped:?}"
    );
    plays_as_the_session_went(&std::fs::read(project.path().join("run.png"))?)?;
    let html = std::fs::read_to_string(project.path().join("run.html"))?;
    let data = std::fs::read_to_string(project.path().join("run.trace.json"))?;
    for file in [&html, &data] {
        ensure!(!file.contains("typed-words"), "typed text stays out");
        ensure!(
            file.contains("clicked-error-7f3d"),
            "the console error is there"
        );
    }

    // The user opens it in Firefox: every action, and the pictures decoded. (Extensions may
    // not open file:// pages, so the file is served as it is.)
    let served = claudezilla_e2e::pages::PageServer::start(HashMap::from([(
        "/run.html",
        Page::html(html.clone()),
    )]))
    .await?;
    call(
        &a,
        "firefox_navigate",
        json!({"tabId": tab, "url": served.url("/run.html")}),
    )
    .await?;
    let content = call(&a, "firefox_get_content", json!({"tabId": tab})).await?;
    for (n, tool) in [
        "firefox_create_window",
        "firefox_get_console",
        "firefox_type",
        "firefox_click",
        "firefox_snapshot",
    ]
    .iter()
    .enumerate()
    {
        ensure!(
            content.text.contains(&format!("{}. {tool}", n + 1)),
            "{tool} in {content:?}"
        );
    }
    ensure!(
        content.text.contains("text=<16 chars>") && content.text.contains("Traced page"),
        "{content:?}"
    );
    let pictures = call(&a, "firefox_get_page_state", json!({"tabId": tab})).await?;
    let state: serde_json::Value = serde_json::from_str(&pictures.text)?;
    let images = state["images"].as_array().cloned().unwrap_or_default();
    ensure!(
        images.len() == 3,
        "a picture after each change: {pictures:?}"
    );
    // Opening the tab, typing and clicking changed the page; reading it did not.
    for n in [1, 3, 4] {
        let selector = format!("img[alt='the page after action {n}']");
        let img = call(
            &a,
            "firefox_get_element",
            json!({"tabId": tab, "selector": selector}),
        )
        .await?;
        let info: serde_json::Value = serde_json::from_str(&img.text)?;
        let width = info["rect"][2].as_f64().unwrap_or(0.0);
        ensure!(width > 100.0, "picture {n} decoded and shown: {info}");
    }

    a.close().await?;
    Ok(())
}

/// The trace's moving picture: an APNG of the three pictures (opening, typing, clicking), each
/// shown for the session's own time (at least half a second, the last two), a page's picture
/// above a dark band with the action's words in white.
fn plays_as_the_session_went(bytes: &[u8]) -> anyhow::Result<()> {
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes)).read_info()?;
    let (width, height) = (reader.info().width as usize, reader.info().height as usize);
    let frames = reader
        .info()
        .animation_control()
        .map(|a| a.num_frames)
        .unwrap_or(0);
    ensure!(frames == 3 && width >= 320, "{frames} frames, {width} wide");
    let mut buf = vec![0; reader.output_buffer_size().unwrap_or(0)];
    let mut delays = Vec::new();
    for n in 0..frames {
        reader.next_frame(&mut buf)?;
        let control = reader.info().frame_control().cloned();
        let ms = control.map_or(0, |c| {
            u32::from(c.delay_num) * 1000 / u32::from(c.delay_den.max(1))
        });
        delays.push(ms);
        // The band's bottom rows: dark, with white dots where words are drawn.
        let band: Vec<&[u8]> = buf[(height - 30) * width * 3..].chunks(3).collect();
        let ink = band.iter().filter(|p| **p == [255, 255, 255]).count();
        let dark = band.iter().filter(|p| p.iter().all(|c| *c < 60)).count();
        ensure!(
            ink > 30 && dark > ink,
            "frame {n}: words in the band ({ink} ink, {dark} dark)"
        );
    }
    ensure!(
        delays[..2].iter().all(|d| (500..=4000).contains(d)) && (2000..=4000).contains(&delays[2]),
        "{delays:?}"
    );
    Ok(())
}

/// `firefox_find` for "needle" once it finds at least `want` matches (frames load late).
async fn wait_found(
    a: &claudezilla_e2e::agent::Agent,
    tab: u32,
    want: u32,
) -> anyhow::Result<String> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let found = call(a, "firefox_find", json!({"tabId": tab, "text": "needle"})).await?;
        let total: u32 = found
            .text
            .split(" match(es)")
            .next()
            .and_then(|head| head.rsplit(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        if total >= want || std::time::Instant::now() > deadline {
            return Ok(found.text);
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

pub async fn bulky_answers_go_whole_to_a_file(s: Arc<Shared>) -> anyhow::Result<()> {
    let project = tempfile::tempdir_in(s.browser.path())?;
    let a = s.agent_in("output", project.path()).await?;
    let tab = a.open(&s.pages.url("/answers/big.html")).await?;
    let inline = call(&a, "firefox_snapshot", json!({"tabId": tab})).await?;
    ensure!(
        !inline.text.contains(&format!("item {}", ITEMS - 1)),
        "the answer is cut"
    );

    let said = call(
        &a,
        "firefox_snapshot",
        json!({"tabId": tab, "outputFile": "snap.txt"}),
    )
    .await?;
    // Answers go into a folder of their own, apart from the project's files.
    let out = project.path().canonicalize()?.join("claudezilla-output");
    let file = std::fs::read_to_string(out.join("snap.txt"))?;
    ensure!(
        file.contains(&format!("link \"item {}\"", ITEMS - 1)),
        "the whole page"
    );
    ensure!(file.len() > 100_000, "{}", file.len());
    ensure!(
        said.text
            .starts_with(&format!("Wrote {} characters", file.chars().count()))
            && said
                .text
                .contains(&format!("to {}.", out.join("snap.txt").display()))
            && said.text.contains("Catalogue")
            && said.text.len() < 3_000,
        "{said:?}"
    );

    call(
        &a,
        "firefox_get_content",
        json!({"tabId": tab, "outputFile": "page.txt", "maxLength": 100}),
    )
    .await?;
    let page = std::fs::read_to_string(out.join("page.txt"))?;
    ensure!(
        page.contains(&format!("item {} note {}", ITEMS - 1, ITEMS - 1)),
        "maxLength does not cut a file"
    );

    // Console capture starts with the first call; the page logs 600 again on a reload, and
    // the file holds all a tab keeps (an answer lists 100 by default).
    call(&a, "firefox_get_console", json!({"tabId": tab})).await?;
    call(
        &a,
        "firefox_navigate",
        json!({"tabId": tab, "url": s.pages.url("/answers/big.html")}),
    )
    .await?;
    call(
        &a,
        "firefox_get_console",
        json!({"tabId": tab, "outputFile": "console.log"}),
    )
    .await?;
    let console = std::fs::read_to_string(out.join("console.log"))?;
    ensure!(
        console.matches("[log] message ").count() == 500,
        "{}",
        &console[..console.len().min(1_500)]
    );
    call(
        &a,
        "firefox_get_network",
        json!({"tabId": tab, "outputFile": "network.txt"}),
    )
    .await?;
    let network = std::fs::read_to_string(out.join("network.txt"))?;
    ensure!(network.contains("/answers/big.html?again"), "{network}");

    // The rules of every file the server writes.
    for (args, code, words) in [
        (
            json!({"outputFile": "snap.txt"}),
            "INVALID_ARGUMENT",
            "exists",
        ),
        (
            json!({"outputFile": "CLAUDE.md"}),
            "INVALID_ARGUMENT",
            ".txt, .log",
        ),
        (
            json!({"outputFile": ".claude/notes.txt"}),
            "NOT_ALLOWED",
            "hidden",
        ),
        (json!({"outputFile": "../outside.txt"}), "NOT_ALLOWED", ""),
        (json!({"outputFile": 7}), "INVALID_ARGUMENT", "outputFile"),
    ] {
        let mut args = args;
        args["tabId"] = json!(tab);
        let answer = a.call("firefox_snapshot", args.clone()).await?;
        ensure!(
            answer.expect_error(code)?.contains(words),
            "{args}: {answer:?}"
        );
    }
    ensure!(!project.path().join("CLAUDE.md").exists());
    call(
        &a,
        "firefox_snapshot",
        json!({"tabId": tab, "outputFile": "snap.txt", "overwrite": true}),
    )
    .await?;
    a.close().await?;
    Ok(())
}
