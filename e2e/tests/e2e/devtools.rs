//! Issue 6: console, network, evaluate, allowlist, consent banners, viewport, attached tabs
//! and focus loops with the real Stop hook.

use std::collections::HashMap;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, ensure};
use claudezilla_e2e::pages::Page;
use claudezilla_e2e::{Agent, Browser, PageServer, binary, eventually};
use serde_json::json;
use tokio::io::AsyncWriteExt;

use crate::common::{Shared, runtime_linked_to, text_of};

pub fn pages() -> HashMap<&'static str, Page> {
    HashMap::from([
        (
            "/dev/console.html",
            Page::html(
                "<!doctype html><title>Console</title><script>var pageSecret = 'page-world-41';</script>\
                 <button id=log onclick=\"console.log('log-1', {a: 1}, 42, true, null, undefined); console.info('info-2'); console.warn('warn-3');\
                 console.error('error-4'); console.debug('debug-5'); setTimeout(() => { throw new Error('boom-6') });\
                 Promise.reject(new Error('rejected-7'))\">log</button>\
                 <button id=flood onclick=\"for (let i = 0; i < 600; i++) console.log('flood-' + i)\">flood</button>",
            ),
        ),
        (
            "/dev/network.html",
            Page::html(
                "<!doctype html><title>Network</title><p id=done>waiting</p>\
                 <button id=go onclick=\"Promise.all([\
                 fetch('/dev/data.json?token=SECRET123&q=cats', {headers: {Authorization: 'Bearer HIDDEN9'}}),\
                 fetch('/dev/missing.json'), fetch('/dev/data.json?page=2')])\
                 .then(() => document.getElementById('done').textContent = 'fetched')\">go</button>",
            ),
        ),
        ("/dev/data.json", Page::js("{\"ok\": true}")),
        ("/dev/away", Page::redirect_to_localhost("/other.html")),
        (
            "/dev/link.html",
            Page::html(
                "<!doctype html><title>Link</title><a id=out>away</a>\
                 <script>document.getElementById('out').href = 'http://localhost:' + location.port + '/other.html'</script>",
            ),
        ),
        (
            "/dev/onetrust.html",
            Page::html(
                "<!doctype html><title>OneTrust-like</title><p id=state>undecided</p>\
                 <div id=onetrust-banner-sdk role=dialog><p>We use cookies.</p>\
                 <button id=onetrust-reject-all-handler onclick=\"decide('rejected')\">Reject All</button>\
                 <button id=onetrust-accept-btn-handler onclick=\"decide('accepted')\">Accept All Cookies</button></div>\
                 <script>function decide(d){document.getElementById('state').textContent=d;\
                 document.getElementById('onetrust-banner-sdk').remove()}</script>",
            ),
        ),
        (
            "/dev/plain-consent.html",
            // A plain dialog in a shadow root, added after the load, with "Reject" first.
            Page::html(
                "<!doctype html><title>Plain consent</title><p id=state>undecided</p><cookie-box></cookie-box>\
                 <script>function decide(d){document.getElementById('state').textContent=d;\
                 document.querySelector('cookie-box').remove()}\
                 customElements.define('cookie-box', class extends HTMLElement { connectedCallback() {\
                 setTimeout(() => { const r = this.attachShadow({mode: 'open'});\
                 r.innerHTML = '<div role=dialog aria-modal=true><p>Cookies?</p><button id=no>Reject all</button>\
                 <button id=settings>Manage settings</button><button id=yes>Accept all</button></div>';\
                 r.getElementById('no').onclick = () => decide('rejected');\
                 r.getElementById('settings').onclick = () => decide('settings');\
                 r.getElementById('yes').onclick = () => decide('accepted'); }, 300) } })</script>",
            ),
        ),
    ])
}

pub async fn console_captures_the_page_world(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("console", "/dev/console.html").await?;
    let first = a
        .call("firefox_get_console", json!({"tabId": tab}))
        .await?
        .ok()?;
    ensure!(first.text.starts_with("No console messages"), "{first:?}");
    a.call("firefox_click", json!({"tabId": tab, "selector": "#log"}))
        .await?
        .ok()?;
    let mut last = None;
    let got = eventually(
        Duration::from_secs(10),
        "seven console entries",
        async || {
            let r = a
                .call("firefox_get_console", json!({"tabId": tab}))
                .await
                .ok()?;
            // The timer's error and the rejection come in either order.
            let done = r.text.contains("rejected-7") && r.text.contains("boom-6");
            last = Some(r.clone());
            done.then_some(r)
        },
    )
    .await
    .with_context(|| format!("last answer: {last:?}"))?;
    let lines: Vec<&str> = got.text.lines().skip(1).collect();
    ensure!(
        lines[..5]
            == [
                "[log] log-1 {\"a\":1} 42 true null undefined",
                "[info] info-2",
                "[warn] warn-3",
                "[error] error-4",
                "[debug] debug-5",
            ],
        "{lines:?}"
    );
    ensure!(
        lines
            .iter()
            .any(|l| l.starts_with("[error] Uncaught") && l.contains("boom-6")),
        "{lines:?}"
    );
    ensure!(
        lines
            .iter()
            .any(|l| l.starts_with("[error] Uncaught (in promise)") && l.contains("rejected-7")),
        "{lines:?}"
    );
    let warn = a
        .call(
            "firefox_get_console",
            json!({"tabId": tab, "level": "warn"}),
        )
        .await?
        .ok()?;
    ensure!(
        warn.text == "1 of 1 message(s):\n[warn] warn-3\n",
        "{warn:?}"
    );

    // The ring keeps the newest 500.
    a.call("firefox_click", json!({"tabId": tab, "selector": "#flood"}))
        .await?
        .ok()?;
    let all = a
        .call(
            "firefox_get_console",
            json!({"tabId": tab, "limit": 500, "clear": true}),
        )
        .await?
        .ok()?;
    let lines: Vec<&str> = all.text.lines().collect();
    ensure!(lines[0] == "500 of 500 message(s):", "{:?}", lines[0]);
    ensure!(lines[500] == "[log] flood-599", "{:?}", lines[500]);
    let cleared = a
        .call("firefox_get_console", json!({"tabId": tab}))
        .await?
        .ok()?;
    ensure!(
        cleared.text.starts_with("No console messages"),
        "{cleared:?}"
    );

    // Capture goes on in the next page the tab loads.
    a.call(
        "firefox_navigate",
        json!({"tabId": tab, "action": "reload"}),
    )
    .await?
    .ok()?;
    a.call("firefox_click", json!({"tabId": tab, "selector": "#log"}))
        .await?
        .ok()?;
    eventually(
        Duration::from_secs(10),
        "entries after reload",
        async || {
            let r = a
                .call("firefox_get_console", json!({"tabId": tab}))
                .await
                .ok()?;
            r.text.contains("[info] info-2").then_some(())
        },
    )
    .await?;
    a.close().await?;
    Ok(())
}

pub async fn network_log_has_statuses_and_no_secrets(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("network", "/dev/network.html").await?;
    a.call("firefox_click", json!({"tabId": tab, "selector": "#go"}))
        .await?
        .ok()?;
    let xhr = eventually(Duration::from_secs(10), "three fetches ended", async || {
        let r = a
            .call(
                "firefox_get_network",
                json!({"tabId": tab, "type": "xmlhttprequest", "includeHeaders": true}),
            )
            .await
            .ok()?;
        // Listed from their start; answered once Firefox reports their end.
        (r.text.starts_with("3 of 3") && !r.text.contains("pending")).then_some(r)
    })
    .await?;
    let t = &xhr.text;
    ensure!(t.contains("token=[redacted]&q=cats"), "{t}");
    ensure!(!t.contains("SECRET123") && !t.contains("HIDDEN9"), "{t}");
    ensure!(
        t.contains("Authorization: [redacted]") || t.contains("authorization: [redacted]"),
        "{t}"
    );
    ensure!(t.contains("/dev/missing.json 404 xmlhttprequest"), "{t}");
    ensure!(t.matches(" 200 xmlhttprequest").count() == 2, "{t}");
    let missing = a
        .call(
            "firefox_get_network",
            json!({"tabId": tab, "status": "4xx", "type": "xmlhttprequest"}),
        )
        .await?
        .ok()?;
    ensure!(
        missing.text.starts_with("1 of 1") && missing.text.contains("missing.json"),
        "{missing:?}"
    );
    let page = a
        .call(
            "firefox_get_network",
            json!({"tabId": tab, "type": "main_frame"}),
        )
        .await?
        .ok()?;
    ensure!(page.text.contains("/dev/network.html 200"), "{page:?}");
    // Another agent cannot read this tab's log.
    let b = s.agent("network-b").await?;
    b.call("firefox_get_network", json!({"tabId": tab}))
        .await?
        .expect_error("OWNERSHIP")?;
    let off = a
        .call(
            "firefox_evaluate",
            json!({"tabId": tab, "expression": "1+1"}),
        )
        .await?;
    off.expect_error("DISABLED")?;
    ensure!(off.text.contains("popup"), "{off:?}");
    b.close().await?;
    a.close().await?;
    Ok(())
}

pub async fn allowlist_holds_for_navigation_and_links(s: Arc<Shared>) -> anyhow::Result<()> {
    let a = s.agent("allow").await?;
    let other = format!("http://localhost:{}/other.html", s.pages.port);
    let set = a
        .call(
            "firefox_set_config",
            json!({"allowedDomains": ["127.0.0.1"]}),
        )
        .await?
        .ok()?;
    ensure!(set.text.contains("127.0.0.1"), "{set:?}");
    a.call("firefox_create_window", json!({"url": other}))
        .await?
        .expect_error("NOT_ALLOWED")?;
    let tab = a.open(&s.pages.url("/basic.html")).await?;
    let refused = a
        .call("firefox_navigate", json!({"tabId": tab, "url": other}))
        .await?;
    let text = refused.expect_error("NOT_ALLOWED")?;
    ensure!(text.contains("firefox_set_config"), "{text}");
    // A followed link is cancelled too: the tab stays on its page.
    a.call(
        "firefox_navigate",
        json!({"tabId": tab, "url": s.pages.url("/dev/link.html")}),
    )
    .await?
    .ok()?;
    a.call("firefox_click", json!({"tabId": tab, "selector": "#out"}))
        .await?
        .ok()?;
    let left = eventually(
        Duration::from_secs(2),
        "the link to be followed",
        async || {
            let r = a.call("firefox_get_tabs", json!({})).await.ok()?;
            r.text.contains("localhost").then_some(r)
        },
    )
    .await;
    ensure!(left.is_err(), "the link left the allowlist: {left:?}");
    // A redirect is refused too, also on a new tab's very first load.
    let redirected = a
        .call(
            "firefox_navigate",
            json!({"tabId": tab, "url": s.pages.url("/dev/away")}),
        )
        .await?;
    ensure!(
        redirected
            .expect_error("NOT_ALLOWED")?
            .contains("localhost"),
        "{redirected:?}"
    );
    let first = a
        .call(
            "firefox_create_window",
            json!({"url": s.pages.url("/dev/away")}),
        )
        .await?;
    ensure!(
        first.expect_error("NOT_ALLOWED")?.contains("localhost"),
        "{first:?}"
    );
    let tabs = a.call("firefox_get_tabs", json!({})).await?.ok()?;
    ensure!(!tabs.text.contains("localhost"), "{tabs:?}");
    // An empty list allows everything again.
    a.call("firefox_set_config", json!({"allowedDomains": []}))
        .await?
        .ok()?;
    a.call("firefox_navigate", json!({"tabId": tab, "url": other}))
        .await?
        .ok()?;
    a.close().await?;
    Ok(())
}

pub async fn consent_banners_are_accepted_never_rejected(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("consent", "/dev/onetrust.html").await?;
    let done = a
        .call("firefox_handle_consent", json!({"tabId": tab}))
        .await?
        .ok()?;
    ensure!(done.text.contains("OneTrust"), "{done:?}");
    let state = text_of(&a, tab, "#state").await?;
    ensure!(state.contains("accepted"), "{state:?}");
    // Automatic after each load, for a banner in a shadow root that appears late.
    a.call("firefox_set_config", json!({"handleConsent": true}))
        .await?
        .ok()?;
    a.call(
        "firefox_navigate",
        json!({"tabId": tab, "url": s.pages.url("/dev/plain-consent.html")}),
    )
    .await?
    .ok()?;
    let state = eventually(
        Duration::from_secs(10),
        "the banner to be decided",
        async || {
            let r = a
                .call(
                    "firefox_get_content",
                    json!({"tabId": tab, "selector": "#state"}),
                )
                .await
                .ok()?;
            (!r.text.contains("undecided")).then_some(r)
        },
    )
    .await?;
    ensure!(state.text.contains("accepted"), "{state:?}");
    a.close().await?;
    Ok(())
}

/// Runs the Stop hook as Claude Code does: a shell command, the hook's JSON on stdin.
async fn stop_hook(
    runtime: &std::path::Path,
    transcript: &std::path::Path,
) -> anyhow::Result<(String, String)> {
    stop_hook_with(runtime, transcript, None).await
}

/// [`stop_hook`] with Claude Code's `last_assistant_message` in the input.
async fn stop_hook_with(
    runtime: &std::path::Path,
    transcript: &std::path::Path,
    last: Option<&str>,
) -> anyhow::Result<(String, String)> {
    let command = format!("'{}' stop-hook", binary("claudezilla-host").display());
    let mut child = tokio::process::Command::new("sh")
        .args(["-c", &command])
        .env("CLAUDEZILLA_RUNTIME_DIR", runtime)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut input = json!({
        "session_id": "e2e",
        "transcript_path": transcript,
        "hook_event_name": "Stop",
        "stop_hook_active": false,
    });
    if let Some(last) = last {
        input["last_assistant_message"] = json!(last);
    }
    let mut stdin = child.stdin.take().context("stdin")?;
    stdin.write_all(input.to_string().as_bytes()).await?;
    drop(stdin);
    let out = child.wait_with_output().await?;
    ensure!(out.status.success(), "the hook failed: {out:?}");
    Ok((
        String::from_utf8(out.stdout)?,
        String::from_utf8(out.stderr)?,
    ))
}

fn write_transcript(path: &std::path::Path, last_reply: &str) -> anyhow::Result<()> {
    let lines = [
        json!({"type": "user", "message": {"role": "user", "content": "fix it"}}),
        json!({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": last_reply}]}}),
    ];
    let text: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    std::fs::write(path, text.join("\n"))?;
    Ok(())
}

pub async fn focus_loops_run_through_the_stop_hook(s: Arc<Shared>) -> anyhow::Result<()> {
    let a = s.agent("loop").await?;
    let dir = tempfile::tempdir()?;
    let transcript = dir.path().join("transcript.jsonl");
    write_transcript(&transcript, "still working")?;
    let runtime = s.browser.runtime.path();

    // No loop: the session may stop.
    let (out, _) = stop_hook(runtime, &transcript).await?;
    ensure!(out.is_empty(), "blocked without a loop: {out}");

    let started = a
        .call(
            "firefox_start_loop",
            json!({"prompt": "make the tests pass", "maxIterations": 2, "completionPromise": "ALL GREEN"}),
        )
        .await?
        .ok()?;
    ensure!(started.text.contains("running"), "{started:?}");
    let (out, _) = stop_hook(runtime, &transcript).await?;
    let decision: serde_json::Value = serde_json::from_str(&out).with_context(|| out.clone())?;
    ensure!(decision["decision"] == "block", "{decision}");
    let reason = decision["reason"].as_str().unwrap_or_default();
    ensure!(
        reason.contains("make the tests pass")
            && reason.contains("round 1 of 2")
            && reason.contains("<promise>ALL GREEN</promise>"),
        "{reason}"
    );
    // The promise kept ends it.
    write_transcript(&transcript, "Done. <promise>ALL GREEN</promise>")?;
    let (out, _) = stop_hook(runtime, &transcript).await?;
    ensure!(out.is_empty(), "blocked after the promise: {out}");
    let status = a.call("firefox_loop_status", json!({})).await?.ok()?;
    ensure!(
        status
            .text
            .contains("ended: the completion promise was kept"),
        "{status:?}"
    );

    // The reply Claude Code hands the hook counts, even before the transcript holds it.
    write_transcript(&transcript, "working")?;
    a.call(
        "firefox_start_loop",
        json!({"prompt": "finish", "maxIterations": 5, "completionPromise": "SHIPPED"}),
    )
    .await?
    .ok()?;
    let (out, _) = stop_hook_with(
        runtime,
        &transcript,
        Some("Done <promise>SHIPPED</promise>"),
    )
    .await?;
    ensure!(
        out.is_empty(),
        "the hook ignored last_assistant_message: {out}"
    );

    // The round limit ends it; stop_loop ends it early.
    write_transcript(&transcript, "working")?;
    a.call(
        "firefox_start_loop",
        json!({"prompt": "again", "maxIterations": 1}),
    )
    .await?
    .ok()?;
    ensure!(stop_hook(runtime, &transcript).await?.0.contains("block"));
    ensure!(stop_hook(runtime, &transcript).await?.0.is_empty());
    a.call(
        "firefox_start_loop",
        json!({"prompt": "more", "maxIterations": 5}),
    )
    .await?
    .ok()?;
    a.call("firefox_stop_loop", json!({})).await?.ok()?;
    ensure!(stop_hook(runtime, &transcript).await?.0.is_empty());

    // The hook authenticates: with a wrong token it is refused, and lets the session stop.
    a.call(
        "firefox_start_loop",
        json!({"prompt": "held", "maxIterations": 5}),
    )
    .await?
    .ok()?;
    // Private, as a real runtime folder is (clients refuse any other).
    let fake = runtime_linked_to(&s, "czf", 0o700)?;
    std::fs::write(fake.path().join("claudezilla.token"), "not-the-token")?;
    let (out, err) = stop_hook(fake.path(), &transcript).await?;
    ensure!(
        out.is_empty() && err.contains("AUTH_FAILED"),
        "out {out:?} err {err:?}"
    );
    a.call("firefox_stop_loop", json!({})).await?.ok()?;
    a.close().await?;
    Ok(())
}

const SIZE_PAGE: &str = "<!doctype html><title>Size</title><p id=size></p><script>\
    const show = () => document.getElementById('size').textContent = innerWidth + 'x' + innerHeight;\
    show(); addEventListener('resize', show); var pageVar = {list: [1, 2], name: 'page'};</script>";

/// Its own browser: evaluate switched on from the start, and window sizes that would disturb
/// the shared browser's screenshots.
pub async fn evaluate_viewport_and_private_mode() -> anyhow::Result<()> {
    let pages = PageServer::start(HashMap::from([
        ("/size.html", Page::html(SIZE_PAGE)),
        (
            "/csp.html",
            Page::html(
                "<!doctype html><meta http-equiv=Content-Security-Policy content=\"script-src 'self'\"><title>No eval</title>",
            ),
        ),
    ]))
    .await?;
    let browser = Browser::start_with(&[("CLAUDEZILLA_ALLOW_EVALUATE", "1")]).await?;
    let a = browser.agent("a").await?;
    let result = evaluate_viewport_private(&a, &pages).await;
    if result.is_err() {
        eprintln!("--- Firefox log ---\n{}", browser.log());
    }
    result
}

async fn evaluate_viewport_private(a: &Agent, pages: &PageServer) -> anyhow::Result<()> {
    let tab = a.open(&pages.url("/size.html")).await?;
    let eval = async |expression: &str| {
        a.call(
            "firefox_evaluate",
            json!({"tabId": tab, "expression": expression}),
        )
        .await
    };
    for (expression, want) in [
        ("1 + 2", "(number) 3"),
        ("document.title", "(string) \"Size\""),
        ("pageVar", "(object) {\"list\":[1,2],\"name\":\"page\"}"),
        ("Promise.resolve(pageVar.list.length * 21)", "(number) 42"),
        ("undefined", "(undefined) undefined"),
        ("document.body", "(object) [element body"),
        (
            "(() => { const o = {}; o.self = o; return o })()",
            "(object) [not JSON: ",
        ),
    ] {
        let r = eval(expression).await?.ok()?;
        ensure!(r.text.starts_with(want), "{expression}: {r:?}");
    }
    let thrown = eval("(() => { throw new TypeError('bad input') })()").await?;
    ensure!(
        thrown
            .expect_error("PAGE_ERROR")?
            .contains("TypeError: bad input"),
        "{thrown:?}"
    );
    let syntax = eval("1 +").await?;
    ensure!(
        syntax.expect_error("PAGE_ERROR")?.contains("SyntaxError"),
        "{syntax:?}"
    );
    let rejected = eval("Promise.reject(new Error('nope'))").await?;
    ensure!(
        rejected.expect_error("PAGE_ERROR")?.contains("nope"),
        "{rejected:?}"
    );
    // The policy's refusal is told by the error's type, not by words a page could throw.
    let worded = eval("(() => { throw new Error('Content Security Policy') })()").await?;
    ensure!(
        !worded.expect_error("PAGE_ERROR")?.contains("forbids eval"),
        "{worded:?}"
    );
    let csp = a.open(&pages.url("/csp.html")).await?;
    let refused = a
        .call(
            "firefox_evaluate",
            json!({"tabId": csp, "expression": "1 + 1"}),
        )
        .await?;
    ensure!(
        refused
            .expect_error("PAGE_ERROR")?
            .contains("Content Security Policy forbids eval"),
        "{refused:?}"
    );

    // Viewport presets set the page's innerWidth.
    for (device, size) in [("ipad-mini", "768x1024"), ("laptop", "1366x768")] {
        let r = a
            .call(
                "firefox_set_viewport",
                json!({"tabId": tab, "device": device}),
            )
            .await?
            .ok()?;
        ensure!(r.text.contains(&size.replace('x', "×")), "{device}: {r:?}");
        let mut last = None;
        eventually(
            Duration::from_secs(5),
            "the page to see its size",
            async || {
                let r = eval("innerWidth + 'x' + innerHeight").await.ok()?;
                let done = r.text.contains(size);
                last = Some(r.text);
                done.then_some(())
            },
        )
        .await
        .with_context(|| format!("{device}: the page saw {last:?}"))?;
    }
    let custom = a
        .call(
            "firefox_set_viewport",
            json!({"tabId": tab, "width": 900, "height": 700}),
        )
        .await?
        .ok()?;
    ensure!(custom.text.contains("900×700"), "{custom:?}");
    // A phone is narrower than Firefox allows a window: the answer says what the page gets.
    let phone = a
        .call(
            "firefox_set_viewport",
            json!({"tabId": tab, "device": "iphone-se"}),
        )
        .await?
        .ok()?;
    let width = eval("innerWidth").await?.ok()?.text;
    let width = width.trim_start_matches("(number) ");
    ensure!(
        phone.text.contains(&format!("now {width}×667"))
            && (width == "375" || phone.text.contains("cannot be narrower")),
        "{phone:?} vs innerWidth {width}"
    );
    let resized = a
        .call(
            "firefox_resize_window",
            json!({"width": 1000, "height": 800}),
        )
        .await?
        .ok()?;
    ensure!(resized.text.contains("1000×800"), "{resized:?}");

    // Private windows need the user's permission, which a fresh profile does not give.
    let private = a
        .call("firefox_set_private_mode", json!({"enabled": true}))
        .await?;
    ensure!(
        private
            .expect_error("DISABLED")?
            .contains("Run in Private Windows"),
        "{private:?}"
    );
    a.call("firefox_set_private_mode", json!({"enabled": false}))
        .await?
        .ok()?;
    Ok(())
}
