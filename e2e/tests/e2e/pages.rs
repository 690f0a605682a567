//! The page tools (issue 4) on the shared browser: snapshots and refs, forms, frames, shadow
//! DOM, dialogs, waiting, keys, hover, drag, upload, Markdown, navigation history.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, ensure};
use claudezilla_e2e::{Agent, eventually};
use serde_json::{Value, json};

use crate::common::{Shared, call, click, hover, press, press_on, said, type_into};

async fn open(a: &Agent, s: &Shared, path: &str) -> anyhow::Result<u32> {
    a.open(&s.pages.url(path)).await
}

async fn snapshot(a: &Agent, tab: u32) -> anyhow::Result<String> {
    Ok(call(a, "firefox_snapshot", json!({"tabId": tab}))
        .await?
        .text)
}

/// The ref on the first snapshot line containing `needle`.
fn ref_of(snapshot: &str, needle: &str) -> anyhow::Result<String> {
    let line = snapshot
        .lines()
        .find(|l| l.contains(needle))
        .with_context(|| format!("no line with {needle:?} in:\n{snapshot}"))?;
    line.split_whitespace()
        .find(|w| {
            let w = w
                .strip_prefix('f')
                .map(|r| r.trim_start_matches(|c: char| c.is_ascii_digit()))
                .unwrap_or(w);
            w.len() > 1 && w.starts_with('e') && w[1..].bytes().all(|b| b.is_ascii_digit())
        })
        .map(str::to_owned)
        .with_context(|| format!("no ref on {line:?}"))
}

async fn content(a: &Agent, tab: u32, selector: &str) -> anyhow::Result<String> {
    Ok(call(
        a,
        "firefox_get_content",
        json!({"tabId": tab, "selector": selector}),
    )
    .await?
    .text)
}

pub async fn refs_from_a_snapshot_drive_every_action(s: Arc<Shared>) -> anyhow::Result<()> {
    let a = s.agent("refs").await?;
    let tab = open(&a, &s, "/form.html").await?;
    let snap = snapshot(&a, tab).await?;
    for want in [
        "textbox \"Name\"",
        "[required]",
        "checkbox \"Newsletter\"",
        "radio \"Large\"",
        "combobox \"Country\"",
        "button \"Send\"",
        "form",
    ] {
        ensure!(snap.contains(want), "snapshot lacks {want:?}:\n{snap}");
    }
    for (control, state) in [
        ("\"Menu\"", "[collapsed]"),
        ("\"Archived\"", "[disabled]"),
        ("\"Remember me\"", "[checked]"),
    ] {
        ensure!(
            snap.lines()
                .any(|l| l.contains(control) && l.contains(state)),
            "{control} is not {state}:\n{snap}"
        );
    }
    // An ARIA checkbox is named by its text, and addressable.
    ref_of(&snap, "checkbox \"Accept the terms\"")?;
    let name = ref_of(&snap, "textbox \"Name\"")?;
    call(
        &a,
        "firefox_type",
        json!({"tabId": tab, "ref": name, "text": "Ada"}),
    )
    .await?;
    call(
        &a,
        "firefox_click",
        json!({"tabId": tab, "ref": ref_of(&snap, "checkbox \"Newsletter\"")?}),
    )
    .await?;
    call(
        &a,
        "firefox_select_option",
        json!({"tabId": tab, "ref": ref_of(&snap, "combobox \"Country\"")?, "values": ["Spain"]}),
    )
    .await?;
    let again = snapshot(&a, tab).await?;
    ensure!(
        again.contains(&format!("textbox \"Name\" {name} =Ada")),
        "refs are stable and values shown:\n{again}"
    );
    ensure!(
        again.contains("[checked]") && again.contains("=Spain"),
        "{again}"
    );
    call(
        &a,
        "firefox_click",
        json!({"tabId": tab, "ref": ref_of(&snap, "button \"Send\"")?}),
    )
    .await?;
    let result = content(&a, tab, "#result").await?;
    ensure!(
        result.contains("name=Ada") && result.contains("news=yes") && result.contains("country=es"),
        "{result}"
    );

    // A ref whose element left the page is stale, and says what to do.
    let temp = ref_of(&snap, "button \"Temporary\"")?;
    click(&a, tab, "#temp").await?;
    a.call(
        "firefox_navigate",
        json!({"tabId": tab, "url": s.pages.url("/form.html")}),
    )
    .await?
    .ok()?;
    let stale = a
        .call("firefox_click", json!({"tabId": tab, "ref": temp}))
        .await?;
    let text = stale.expect_error("ELEMENT_NOT_FOUND")?;
    ensure!(text.contains("firefox_snapshot"), "{text}");
    let bad = a
        .call("firefox_click", json!({"tabId": tab, "ref": "button"}))
        .await?;
    bad.expect_error("INVALID_ARGUMENT")?;
    Ok(())
}

pub async fn forms_fill_in_one_call_and_enter_submits(s: Arc<Shared>) -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let a = s.agent_in("forms", dir.path()).await?;
    let tab = open(&a, &s, "/form.html").await?;
    let filled = call(
        &a,
        "firefox_fill_form",
        json!({"tabId": tab, "fields": [
            {"selector": "#name", "value": "Grace"},
            {"selector": "[name=email]", "value": "g@x.org"},
            {"selector": "[name=age]", "value": "36"},
            {"selector": "[name=news]", "value": true},
            {"selector": "[name=size][value=l]", "value": true},
            {"selector": "[name=country]", "value": "fr"},
            {"selector": "[name=notes]", "value": "line"},
        ]}),
    )
    .await?;
    ensure!(filled.text.contains("Filled 7 field(s)"), "{}", filled.text);
    let multi = call(
        &a,
        "firefox_select_option",
        json!({"tabId": tab, "selector": "[name=tags]", "values": ["red", "green"]}),
    )
    .await?;
    ensure!(multi.text.contains("red, green"), "{}", multi.text);
    let wrong = a
        .call(
            "firefox_select_option",
            json!({"tabId": tab, "selector": "[name=country]", "values": ["Narnia"]}),
        )
        .await?;
    ensure!(
        wrong.expect_error("ELEMENT_NOT_FOUND")?.contains("France"),
        "lists the options"
    );
    // A choice with one option the select lacks changes nothing: the tags stay red and green
    // (the form's answer below shows both).
    let partly = a
        .call(
            "firefox_select_option",
            json!({"tabId": tab, "selector": "[name=tags]", "values": ["red", "Narnia"]}),
        )
        .await?;
    partly.expect_error("ELEMENT_NOT_FOUND")?;
    // Enter in a field submits the form the way the browser would.
    let pressed = press_on(&a, tab, "[name=email]", "Enter").await?;
    ensure!(pressed.text.contains("submitted"), "{}", pressed.text);
    let result = content(&a, tab, "#result").await?;
    for part in [
        "name=Grace",
        "email=g%40x.org",
        "age=36",
        "news=yes",
        "size=l",
        "country=fr",
        "tags=red",
        "tags=green",
        "notes=line",
    ] {
        ensure!(result.contains(part), "{part} missing from {result}");
    }

    let path = dir.path().join("report.txt");
    std::fs::write(&path, "twelve bytes")?;
    call(
        &a,
        "firefox_upload_file",
        json!({"tabId": tab, "selector": "#doc", "path": path}),
    )
    .await?;
    ensure!(
        content(&a, tab, "#file").await?.contains("report.txt 12"),
        "the page saw the file"
    );
    let missing = a
        .call(
            "firefox_upload_file",
            json!({"tabId": tab, "selector": "#doc", "path": dir.path().join("no-such-file")}),
        )
        .await?;
    missing.expect_error("INVALID_ARGUMENT")?;
    Ok(())
}

pub async fn a_react_like_page_sees_typing(s: Arc<Shared>) -> anyhow::Result<()> {
    let a = s.agent("react").await?;
    let tab = open(&a, &s, "/react.html").await?;
    type_into(&a, tab, "#controlled", "hello").await?;
    ensure!(
        content(&a, tab, "#state").await?.contains("state: hello"),
        "the page's state missed the typing"
    );
    Ok(())
}

pub async fn frames_and_shadow_roots_are_in_snapshots_and_reachable(
    s: Arc<Shared>,
) -> anyhow::Result<()> {
    let a = s.agent("frames").await?;
    let tab = open(&a, &s, "/frames.html").await?;
    let snap = snapshot(&a, tab).await?;
    ensure!(
        snap.contains("iframe \"same\"") && snap.contains("iframe \"cross\""),
        "{snap}"
    );
    let buttons: Vec<&str> = snap
        .lines()
        .filter(|l| l.contains("button \"Inner button\""))
        .collect();
    ensure!(
        buttons.len() == 2,
        "both frames' buttons are in the snapshot:\n{snap}"
    );
    for line in buttons {
        let r = ref_of(line, "Inner button")?;
        ensure!(r.starts_with('f'), "frame refs carry their frame: {line}");
        call(&a, "firefox_click", json!({"tabId": tab, "ref": r})).await?;
    }
    let after = snapshot(&a, tab).await?;
    ensure!(
        after.matches("button \"inner clicked\"").count() == 2,
        "clicks landed in both frames:\n{after}"
    );

    let tab = open(&a, &s, "/shadow.html").await?;
    let snap = snapshot(&a, tab).await?;
    let r = ref_of(&snap, "button \"Shadow button\"")?;
    call(&a, "firefox_click", json!({"tabId": tab, "ref": r})).await?;
    ensure!(content(&a, tab, "#out").await?.contains("shadow clicked"));
    // Selectors reach into open shadow roots too.
    click(&a, tab, "#inner").await?;
    Ok(())
}

pub async fn dialogs_never_block_and_follow_the_policy(s: Arc<Shared>) -> anyhow::Result<()> {
    let a = s.agent("dialogs").await?;
    let tab = open(&a, &s, "/dialogs.html").await?;
    click(&a, tab, "#a").await?;
    ensure!(
        content(&a, tab, "#out").await?.contains("after alert"),
        "the alert blocked the page"
    );
    click(&a, tab, "#c").await?;
    ensure!(
        content(&a, tab, "#out").await?.contains("confirm: false"),
        "confirm is dismissed by default"
    );
    let report = call(
        &a,
        "firefox_handle_dialog",
        json!({"tabId": tab, "accept": true, "promptText": "Ada"}),
    )
    .await?;
    ensure!(
        report.text.contains("alert(\"hello\")")
            && report.text.contains("confirm(\"sure?\") → cancel"),
        "{}",
        report.text
    );
    click(&a, tab, "#p").await?;
    ensure!(content(&a, tab, "#out").await?.contains("prompt: Ada"));
    click(&a, tab, "#c").await?;
    ensure!(content(&a, tab, "#out").await?.contains("confirm: true"));
    Ok(())
}

pub async fn waiting_inspecting_and_page_state(s: Arc<Shared>) -> anyhow::Result<()> {
    let a = s.agent("wait").await?;
    let tab = open(&a, &s, "/delayed.html").await?;
    let before = said(&a, "firefox_get_page_state", json!({"tabId": tab})).await?;
    click(&a, tab, "#start").await?;
    call(
        &a,
        "firefox_wait_for",
        json!({"tabId": tab, "selector": "#late"}),
    )
    .await?;
    call(
        &a,
        "firefox_wait_for",
        json!({"tabId": tab, "text": "eagle has landed"}),
    )
    .await?;
    let url = call(
        &a,
        "firefox_wait_for",
        json!({"tabId": tab, "url": "**#done"}),
    )
    .await?;
    ensure!(url.text.contains("matches"), "{}", url.text);
    let never = a
        .call(
            "firefox_wait_for",
            json!({"tabId": tab, "selector": "#never", "timeout": 5000}),
        )
        .await?;
    never.expect_error("TIMEOUT")?;

    click(&a, tab, "#boom").await?;
    let after = eventually(
        Duration::from_secs(5),
        "the page's uncaught error in its state",
        async || {
            let state = a
                .call("firefox_get_page_state", json!({"tabId": tab}))
                .await
                .ok()?
                .text;
            state.contains("delayed boom").then_some(state)
        },
    )
    .await?;
    let state: Value = serde_json::from_str(&after)?;
    let diff = call(
        &a,
        "firefox_diff_page_state",
        json!({"before": before, "after": state}),
    )
    .await?;
    ensure!(
        diff.text.contains("+ buttons: button#late")
            && diff.text.contains("url:")
            && diff.text.contains("+ errors:"),
        "{}",
        diff.text
    );

    let el = call(
        &a,
        "firefox_get_element",
        json!({"tabId": tab, "selector": "#late"}),
    )
    .await?;
    let info: Value = serde_json::from_str(&el.text)?;
    ensure!(
        info["tag"] == "button" && info["visible"] == true && info["text"] == "Late button",
        "{info}"
    );

    let typo = a
        .call("firefox_click", json!({"tabId": tab, "selector": "#lat"}))
        .await?;
    let text = typo.expect_error("ELEMENT_NOT_FOUND")?;
    ensure!(
        text.contains("did you mean") && text.contains("#late"),
        "{text}"
    );
    Ok(())
}

pub async fn keys_scroll_hover_and_drag(s: Arc<Shared>) -> anyhow::Result<()> {
    let a = s.agent("keys").await?;
    let tab = open(&a, &s, "/keys.html").await?;
    type_into(&a, tab, "#q", "rust").await?;
    let enter = press(&a, tab, "Enter").await?;
    ensure!(
        enter.text.contains("submitted"),
        "Enter on the focused field: {}",
        enter.text
    );
    ensure!(content(&a, tab, "#out").await?.contains("searched rust"));
    press_on(&a, tab, "#one", "x").await?;
    // Shift over a character types the shifted one, as a keyboard does.
    let shifted = press_on(&a, tab, "#one", "Shift+y").await?;
    ensure!(shifted.text.contains("Pressed Y"), "{}", shifted.text);
    let tabbed = press(&a, tab, "Tab").await?;
    ensure!(
        tabbed.text.contains("moved focus to input#two"),
        "{}",
        tabbed.text
    );
    let el = call(
        &a,
        "firefox_get_element",
        json!({"tabId": tab, "selector": "#one"}),
    )
    .await?;
    ensure!(
        el.text.contains("\"value\": \"xY\""),
        "typed a key: {}",
        el.text
    );

    let top = call(&a, "firefox_scroll", json!({"tabId": tab, "x": 0, "y": 0})).await?;
    ensure!(top.text.contains("nothing moved"), "{}", top.text);
    let down = call(
        &a,
        "firefox_scroll",
        json!({"tabId": tab, "selector": "#bottom"}),
    )
    .await?;
    ensure!(!down.text.contains("nothing moved"), "{}", down.text);

    let tab = open(&a, &s, "/hover.html").await?;
    ensure!(
        !snapshot(&a, tab).await?.contains("Secret item"),
        "hidden until hovered"
    );
    hover(&a, tab, "#menu").await?;
    ensure!(
        snapshot(&a, tab).await?.contains("link \"Secret item\""),
        "the menu opened"
    );
    call(
        &a,
        "firefox_drag",
        json!({"tabId": tab, "from": "#item", "to": "#bin"}),
    )
    .await?;
    ensure!(content(&a, tab, "#bin").await?.contains("dropped item"));
    Ok(())
}

pub async fn markdown_html_and_history(s: Arc<Shared>) -> anyhow::Result<()> {
    let a = s.agent("md").await?;
    let tab = open(&a, &s, "/doc.html").await?;
    let md = said(
        &a,
        "firefox_get_content",
        json!({"tabId": tab, "format": "markdown"}),
    )
    .await?;
    for want in [
        "# Guide",
        "## Steps",
        "[the basics](http",
        "- One",
        "| Name | Size |",
        "| alpha | 3 |",
    ] {
        ensure!(md.contains(want), "markdown lacks {want:?}:\n{md}");
    }
    ensure!(
        !md.contains("never shown") && !md.contains("var hidden"),
        "{md}"
    );
    let html = said(
        &a,
        "firefox_get_content",
        json!({"tabId": tab, "selector": "h1", "format": "html"}),
    )
    .await?;
    ensure!(html.contains("<h1>Guide</h1>"), "{html}");

    call(
        &a,
        "firefox_navigate",
        json!({"tabId": tab, "url": s.pages.url("/other.html")}),
    )
    .await?;
    // Each history step lands where it should and says it loaded.
    for (action, lands_on) in [
        ("back", "doc.html"),
        ("forward", "other.html"),
        ("reload", "other.html"),
    ] {
        let args = json!({"tabId": tab, "action": action});
        let moved = call(&a, "firefox_navigate", args).await?;
        ensure!(
            moved.text.contains(lands_on) && moved.text.contains("loaded"),
            "{action}: {}",
            moved.text
        );
    }
    Ok(())
}

pub async fn a_large_page_snapshot_addresses_every_control_compactly(
    s: Arc<Shared>,
) -> anyhow::Result<()> {
    let a = s.agent("large").await?;
    let tab = open(&a, &s, "/large.html").await?;
    let started = Instant::now();
    let snap = snapshot(&a, tab).await?;
    let took = started.elapsed();
    // 2,000 elements in sections of 7: every link, field and button needs a ref.
    let controls = (2_000 / 7) * 3;
    let refs = snap.lines().filter(|l| ref_of(l, "").is_ok()).count();
    ensure!(refs == controls, "{refs} refs for {controls} controls");
    ensure!(
        !snap.contains("[Cut:"),
        "the default limit holds the whole page"
    );
    let body = snap.split("\n[").next().unwrap_or_default();
    ensure!(
        body.len() < 34_000,
        "snapshot is {} chars; the target is a third of Playwright's 102,000",
        body.len()
    );
    eprintln!(
        "large snapshot: {} chars, {refs} refs, {took:?} round trip",
        body.len()
    );
    let small = said(
        &a,
        "firefox_snapshot",
        json!({"tabId": tab, "interactiveOnly": true}),
    )
    .await?;
    ensure!(small.len() < body.len(), "interactiveOnly shrinks it");
    let cut = said(
        &a,
        "firefox_snapshot",
        json!({"tabId": tab, "maxChars": 2000}),
    )
    .await?;
    ensure!(
        cut.contains("[Cut:") && cut.contains("selector"),
        "a cut answer says how to get the rest:\n{}",
        &cut[cut.len().saturating_sub(400)..]
    );
    let limited = said(
        &a,
        "firefox_get_accessibility_snapshot",
        json!({"tabId": tab, "maxNodes": 20}),
    )
    .await?;
    ensure!(
        limited.lines().filter(|l| !l.starts_with('[')).count() <= 21,
        "{limited}"
    );
    Ok(())
}
