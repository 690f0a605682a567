//! Issue 22: widgets as people drive them.

use std::collections::HashMap;
use std::sync::Arc;

use claudezilla_e2e::pages::Page;
use serde_json::json;

use crate::common::{Shared, call, text_of};

const PROBE: &str = r#"<!doctype html><title>Probe</title>
<style>#f:focus{outline: 3px solid rgb(255,0,0)} #f:focus-visible{background: rgb(0,0,255)}</style>
<input id=f><p id=out>waiting</p>
<script>
const f = document.getElementById('f'); const log = [];
for (const t of ['focus','blur','focusin','focusout']) f.addEventListener(t, e => log.push(t));
function report(){ document.getElementById('out').textContent = JSON.stringify({log, has: document.hasFocus(), active: document.activeElement && document.activeElement.id, matches: f.matches(':focus'), fv: f.matches(':focus-visible'), outline: getComputedStyle(f).outlineColor, bg: getComputedStyle(f).backgroundColor}); }
</script><button id=go onclick="f.focus(); setTimeout(report, 50)">go</button>
<button id=rep onclick="report()">report</button>"#;

pub fn pages() -> HashMap<&'static str, Page> {
    HashMap::from([("/widgets/probe.html", Page::html(PROBE))])
}

pub async fn probe(s: Arc<Shared>) -> anyhow::Result<()> {
    let a = s.agent("probe").await?;
    let tab = a.open(&s.pages.url("/widgets/probe.html")).await?;
    call(&a, "firefox_click", json!({"tabId": tab, "selector": "#go"})).await?;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    eprintln!("after page focus(): {}", text_of(&a, tab, "#out").await?);
    call(&a, "firefox_click", json!({"tabId": tab, "selector": "#f"})).await?;
    call(&a, "firefox_click", json!({"tabId": tab, "selector": "#rep"})).await?;
    eprintln!("after click on field then report: {}", text_of(&a, tab, "#out").await?);
    call(&a, "firefox_type", json!({"tabId": tab, "selector": "#f", "text": "abc"})).await?;
    call(&a, "firefox_click", json!({"tabId": tab, "selector": "#rep"})).await?;
    eprintln!("after type: {}", text_of(&a, tab, "#out").await?);
    anyhow::bail!("probe done")
}
