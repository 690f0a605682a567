//! Issue 11: input that real apps accept, and reading that misses nothing. Each page below
//! reproduces what failed on real third-party apps (TodoMVC in jQuery, React and Vue; MDN's
//! form examples): it works only if typing, keys and the pointer behave as a person's would.

use std::collections::HashMap;
use std::sync::Arc;

use anyhow::{Context, ensure};
use claudezilla_e2e::pages::Page;
use serde_json::json;

use crate::common::{Shared, call, click, hover, press_on, said, text_of, type_into};

/// A todo list as jQuery TodoMVC writes it: Enter is `e.which === 13` on keyup.
const JQUERY_TODOS: &str = r#"<!doctype html><title>jQuery-style todos</title>
<input id=new placeholder="What needs to be done?"><ul id=list></ul><p id=keys></p>
<script>
document.getElementById('new').addEventListener('keyup', function (e) {
  document.getElementById('keys').textContent += e.type + ':' + e.key + ':' + e.which + ':' + e.keyCode + ' ';
  if (e.which !== 13 || e.keyCode !== 13) return;
  const li = document.createElement('li'); li.textContent = this.value.trim(); document.getElementById('list').append(li);
  this.value = '';
});
document.addEventListener('keydown', e => {
  if (e.ctrlKey && e.key === 'a') document.getElementById('keys').textContent += 'ctrl-a ';
  if (e.key === 'Escape' && e.which === 27) document.getElementById('keys').textContent += 'esc ';
});
document.addEventListener('keyup', e => {
  if (e.key === 'Control' || e.key === 'Shift') document.getElementById('keys').textContent += 'up-' + e.key + ':ctrl=' + e.ctrlKey + ':shift=' + e.shiftKey + ' ';
});
</script>"#;

/// An app that acts on `change`, as many do: one todo per committed edit.
const ON_CHANGE: &str = r#"<!doctype html><title>On change</title>
<input id=todo><button id=elsewhere>elsewhere</button><ul id=list></ul>
<script>
document.getElementById('todo').addEventListener('change', e => {
  const li = document.createElement('li'); li.textContent = e.target.value; document.getElementById('list').append(li);
  e.target.value = '';
});
</script>"#;

/// `maxlength`, `minlength` with a custom validity message, and a form that reports.
const LIMITS: &str = r#"<!doctype html><title>Limits</title>
<form id=f><textarea id=tweet maxlength=140></textarea>
<input id=pw minlength=8 required><button>Send</button></form><p id=out>not sent</p>
<script>
const pw = document.getElementById('pw');
pw.addEventListener('input', () => pw.setCustomValidity(pw.validity.tooShort ? 'At least 8 characters, please' : ''));
document.getElementById('f').addEventListener('submit', e => { e.preventDefault(); document.getElementById('out').textContent = 'sent'; });
document.getElementById('f').addEventListener('invalid', e => { document.getElementById('out').textContent = 'refused: ' + e.target.validationMessage; }, true);
</script>"#;

/// Rows whose delete button shows only on `:hover`, and double-click to edit; a tip whose
/// `:hover` rule is in an `@import`ed sheet.
const ROWS: &str = r#"<!doctype html><title>Rows</title>
<style>@import url(/input/tip.css);</style>
<style>.destroy{display:none} li:hover .destroy{display:inline} li.editing label{display:none}</style>
<p id=tip-host>Help <span id=tip>tip-shown-19</span></p>
<ul id=list>
<li><input class=toggle type=checkbox><label>Buy milk</label><button class=destroy></button></li>
<li><input class=toggle type=checkbox><label>Walk the dog</label><button class=destroy></button></li>
</ul><p id=out>none</p><a id=menu href=#>menu</a>
<script>
for (const li of document.querySelectorAll('li')) {
  li.querySelector('.destroy').addEventListener('click', () => { document.getElementById('out').textContent = 'removed ' + li.textContent; li.remove(); });
  li.querySelector('label').addEventListener('dblclick', () => {
    li.classList.add('editing');
    const edit = document.createElement('input'); edit.className = 'edit'; edit.value = li.textContent; li.append(edit);
  });
}
const menu = document.getElementById('menu');
menu.addEventListener('contextmenu', e => { e.preventDefault(); document.getElementById('out').textContent = 'context menu ' + e.button; });
menu.addEventListener('click', e => { e.preventDefault(); document.getElementById('out').textContent = 'click ctrl=' + e.ctrlKey + ' shift=' + e.shiftKey; });
</script>"#;

/// Web components: text in an open shadow root, slotted light DOM, and a frame of another site.
fn components(other_origin: &str) -> String {
    format!(
        r#"<!doctype html><title>Components</title>
<p>before-11</p>
<x-card><span>slotted-22</span></x-card>
<iframe src="{other_origin}/frame-text.html"></iframe>
<p>after-33</p>
<script>
customElements.define('x-card', class extends HTMLElement {{
  constructor() {{ super(); this.attachShadow({{mode: 'open'}}).innerHTML = '<h2>shadow-heading-44</h2><p>shadow-text-77</p><slot></slot>'; }}
}});
</script>"#
    )
}

/// A page that logs, alerts and guards its unload while it loads.
const LOADING: &str = r#"<!doctype html><title>Loading</title>
<script>console.log('early-log-1'); alert('early-alert-2'); window.onbeforeunload = e => { e.preventDefault(); e.returnValue = 'stay'; };</script>
<p>loaded</p><button id=ask onclick="document.getElementById('name').textContent = String(prompt('Your name?'))">Ask</button><p id=name>-</p>"#;

/// A click whose handler holds the page's thread for 9 s: longer than a try's first part
/// (the element wait's 5 s and 3 s more), within the call's timeout.
const BUSY: &str = r#"<!doctype html><title>Busy</title>
<button id=slow onclick="const end = Date.now() + 9000; while (Date.now() < end) {} document.getElementById('done').textContent = 'handled'">Slow</button><p id=done>-</p>"#;

pub fn pages(other_origin: &str) -> HashMap<&'static str, Page> {
    HashMap::from([
        ("/input/jquery.html", Page::html(JQUERY_TODOS)),
        ("/input/change.html", Page::html(ON_CHANGE)),
        ("/input/limits.html", Page::html(LIMITS)),
        ("/input/rows.html", Page::html(ROWS)),
        (
            "/input/tip.css",
            Page::css("#tip{display:none} #tip-host:hover #tip{display:inline}"),
        ),
        (
            "/input/components.html",
            Page::html(components(other_origin)),
        ),
        ("/input/loading.html", Page::html(LOADING)),
        ("/input/busy.html", Page::html(BUSY)),
    ])
}

pub async fn enter_carries_which_and_key_code(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("jquery", "/input/jquery.html").await?;
    type_into(&a, tab, "#new", "Buy milk").await?;
    press_on(&a, tab, "#new", "Enter").await?;
    let list = text_of(&a, tab, "#list").await?;
    ensure!(
        list.contains("Buy milk"),
        "jQuery's e.which === 13 never saw Enter: {list}"
    );
    let keys = text_of(&a, tab, "#keys").await?;
    ensure!(keys.contains("keyup:Enter:13:13"), "{keys}");
    for key in ["Control+a", "Escape", "Shift+Tab"] {
        press_on(&a, tab, "#new", key).await?;
    }
    let keys = text_of(&a, tab, "#keys").await?;
    ensure!(keys.contains("ctrl-a") && keys.contains("esc"), "{keys}");
    // A modifier's own keyup no longer holds it, as a keyboard reports.
    ensure!(
        keys.contains("up-Control:ctrl=false:shift=false")
            && keys.contains("up-Shift:ctrl=false:shift=false"),
        "a modifier's keyup says it is still held: {keys}"
    );
    let bad = a
        .call("firefox_press_key", json!({"tabId": tab, "key": "Hyper+q"}))
        .await?;
    ensure!(
        bad.expect_error("INVALID_ARGUMENT")?.contains("Control+a"),
        "{bad:?}"
    );
    a.close().await?;
    Ok(())
}

/// A page busy in its own handler is waited for as long as the agent's timeout says, not cut
/// at the element wait's bound; meanwhile it holds only that call, not the background.
pub async fn a_busy_handler_is_waited_for_within_the_timeout(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("busy", "/input/busy.html").await?;
    let other = s.agent("busy-neighbour").await?;
    let click = a.call(
        "firefox_click",
        json!({"tabId": tab, "selector": "#slow", "timeout": 20_000}),
    );
    let neighbour = async {
        // Started once the click has surely reached the page (its handler holds it 9 s).
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        let heard = other.call("firefox_list_all_tabs", json!({})).await;
        (heard, std::time::Instant::now())
    };
    let (clicked, (heard, heard_at)) = tokio::join!(
        async { (click.await, std::time::Instant::now()) },
        neighbour
    );
    let (clicked, clicked_at) = clicked;
    let clicked = clicked?;
    heard?.ok()?;
    ensure!(
        heard_at < clicked_at,
        "another agent's call waited for the busy page"
    );
    other.close().await?;
    ensure!(
        !clicked.is_error,
        "the click was cut short: {}",
        clicked.text
    );
    let done = text_of(&a, tab, "#done").await?;
    ensure!(
        done.contains("handled"),
        "the handler did not finish: {done}"
    );
    a.close().await?;
    Ok(())
}

pub async fn change_fires_when_the_edit_is_committed(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("change", "/input/change.html").await?;
    type_into(&a, tab, "#todo", "Call").await?;
    let typed = type_into(&a, tab, "#todo", " mom").await?;
    ensure!(
        typed.text.contains("8 characters"),
        "the value is the whole edit: {typed:?}"
    );
    ensure!(
        !text_of(&a, tab, "#list").await?.contains("Call"),
        "change fired while typing"
    );
    // The field loses focus: now the browser commits the edit, once.
    click(&a, tab, "#elsewhere").await?;
    let list = text_of(&a, tab, "#list").await?;
    ensure!(
        list.contains("Call mom") && list.matches("Call").count() == 1,
        "{list}"
    );
    a.close().await?;
    Ok(())
}

pub async fn lengths_are_enforced_as_from_a_keyboard(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("limits", "/input/limits.html").await?;
    let typed = type_into(&a, tab, "#tweet", &"x".repeat(150)).await?;
    ensure!(
        typed.text.contains("140 characters") && typed.text.contains("kept 140 of 150"),
        "{typed:?}"
    );
    type_into(&a, tab, "#pw", "abc").await?;
    press_on(&a, tab, "#pw", "Enter").await?;
    let out = text_of(&a, tab, "#out").await?;
    ensure!(
        out.contains("refused: At least 8"),
        "a too-short field was submitted: {out}"
    );
    type_into(&a, tab, "#pw", "defghij").await?;
    press_on(&a, tab, "#pw", "Enter").await?;
    ensure!(text_of(&a, tab, "#out").await?.contains("sent"));
    a.close().await?;
    Ok(())
}

pub async fn hover_double_click_and_buttons(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("rows", "/input/rows.html").await?;
    let before = said(&a, "firefox_snapshot", json!({"tabId": tab})).await?;
    ensure!(
        before.contains(r#"checkbox e"#) && before.contains(r#"(in "Buy milk")"#),
        "unnamed controls take their row's words: {before}"
    );
    ensure!(
        !before.contains("button e"),
        "the hover-only buttons are hidden: {before}"
    );
    hover(&a, tab, "li:nth-child(2)").await?;
    let after = said(&a, "firefox_snapshot", json!({"tabId": tab})).await?;
    let line = after
        .lines()
        .find(|l| l.contains("button e") && l.contains("Walk the dog"))
        .with_context(|| format!("the row's × did not show on hover: {after}"))?;
    let reference = line
        .split_whitespace()
        .find(|w| w.starts_with('e') && w[1..].chars().all(|c| c.is_ascii_digit()))
        .context("no ref")?;
    call(&a, "firefox_click", json!({"tabId": tab, "ref": reference})).await?;
    ensure!(
        text_of(&a, tab, "#out")
            .await?
            .contains("removed Walk the dog")
    );
    // Double-click to edit.
    call(
        &a,
        "firefox_click",
        json!({"tabId": tab, "selector": "li label", "clickCount": 2}),
    )
    .await?;
    let edit = call(
        &a,
        "firefox_get_element",
        json!({"tabId": tab, "selector": "li .edit"}),
    )
    .await?;
    ensure!(edit.text.contains("Buy milk"), "{edit:?}");
    // Right click, and a click with modifiers.
    let right = call(
        &a,
        "firefox_click",
        json!({"tabId": tab, "selector": "#menu", "button": "right"}),
    )
    .await?;
    ensure!(right.text.contains("right-clicked"), "{right:?}");
    ensure!(text_of(&a, tab, "#out").await?.contains("context menu 2"));
    call(
        &a,
        "firefox_click",
        json!({"tabId": tab, "selector": "#menu", "modifiers": ["Control", "Shift"]}),
    )
    .await?;
    ensure!(
        text_of(&a, tab, "#out")
            .await?
            .contains("click ctrl=true shift=true")
    );
    // A `:hover` rule of an imported sheet shows too.
    ensure!(
        !said(&a, "firefox_get_content", json!({"tabId": tab}))
            .await?
            .contains("tip-shown-19")
    );
    hover(&a, tab, "#tip-host").await?;
    let tip = said(&a, "firefox_get_content", json!({"tabId": tab})).await?;
    ensure!(
        tip.contains("tip-shown-19"),
        "the imported :hover rule was not applied: {tip}"
    );
    a.close().await?;
    Ok(())
}

pub async fn page_text_includes_shadow_roots_and_frames(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("components", "/input/components.html").await?;
    let frames_loaded = async || {
        let text = call(&a, "firefox_get_content", json!({"tabId": tab}))
            .await
            .ok()?
            .text;
        text.contains("frame-text-55").then_some(text)
    };
    let text = claudezilla_e2e::eventually(
        std::time::Duration::from_secs(10),
        "the frame's text",
        frames_loaded,
    )
    .await?;
    let order = [
        "before-11",
        "shadow-heading-44",
        "shadow-text-77",
        "slotted-22",
        "frame-text-55",
        "after-33",
    ];
    let mut at = 0;
    for word in order {
        let found = text[at..]
            .find(word)
            .with_context(|| format!("{word} missing or out of order in {text}"))?;
        at += found;
    }
    ensure!(
        text.contains("frame from another origin"),
        "the frame is marked: {text}"
    );
    let md = said(
        &a,
        "firefox_get_content",
        json!({"tabId": tab, "format": "markdown"}),
    )
    .await?;
    ensure!(
        md.contains("## shadow-heading-44") && md.contains("frame-text-55"),
        "{md}"
    );
    let short = said(
        &a,
        "firefox_get_content",
        json!({"tabId": tab, "maxLength": 30}),
    )
    .await?;
    ensure!(
        !short.contains("after-33"),
        "one maxLength for all frames: {short}"
    );
    a.close().await?;
    Ok(())
}

pub async fn load_time_console_dialogs_and_unload(s: Arc<Shared>) -> anyhow::Result<()> {
    let a = s.agent("loading").await?;
    let opened = call(
        &a,
        "firefox_create_window",
        json!({"url": s.pages.url("/input/loading.html")}),
    )
    .await?;
    let tab = opened.tab_id()?;
    let console = call(&a, "firefox_get_console", json!({"tabId": tab})).await?;
    ensure!(console.text.contains("early-log-1"), "{console:?}");
    // The alert raised while the page loaded is told in the next answers.
    let told = format!("{}\n{}", opened.text, console.text);
    ensure!(
        told.contains(r#"alert("early-alert-2")"#),
        "the load-time alert is reported: {told}"
    );
    // A dialog an action raises is in that action's answer.
    let asked = click(&a, tab, "#ask").await?;
    ensure!(
        asked.text.contains(r#"prompt("Your name?")"#)
            && asked.text.contains("firefox_handle_dialog"),
        "{asked:?}"
    );
    // beforeunload does not hold the navigation.
    let away = call(
        &a,
        "firefox_navigate",
        json!({"tabId": tab, "url": s.pages.url("/other.html")}),
    )
    .await?;
    ensure!(away.text.contains("Other page"), "{away:?}");
    a.close().await?;
    Ok(())
}
