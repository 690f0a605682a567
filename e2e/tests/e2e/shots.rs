//! Screenshots (issue 5): presets, readiness, full page, one element, the byte budget,
//! numbered badges and saving to disk — checked by decoding the pictures.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, ensure};
use base64::Engine;
use claudezilla_e2e::pages::Page;
use claudezilla_e2e::{Agent, ToolResult};
use serde_json::{Value, json};

use crate::common::{Shared, close_to, text_of};

pub fn pages() -> HashMap<&'static str, Page> {
    HashMap::from([
        (
            "/shots/late-image.html",
            // Like a single-page app: fetch data (which does not hold up the load event), then
            // show an image it names.
            Page::html(
                "<!doctype html><title>Late image</title><style>body{margin:0}</style><div id=slot></div>\
                 <script>fetch('/shots/late.json').then(r => r.json()).then(d => {\
                 const i = new Image(); i.src = d.src; i.width = 2000; i.height = 2000;\
                 document.getElementById('slot').append(i); });</script>",
            ),
        ),
        (
            "/shots/late.json",
            Page::js("{\"src\": \"/shots/late.svg\"}").delayed(Duration::from_millis(800)),
        ),
        (
            "/shots/late.svg",
            Page::svg("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect width='10' height='10' fill='rgb(200,0,200)'/></svg>")
                .delayed(Duration::from_millis(800)),
        ),
        (
            "/shots/tall.html",
            Page::html(
                "<!doctype html><title>Tall</title><style>body{margin:0;background:rgb(240,240,240)}\
                 #bottom{height:200px;background:rgb(0,120,255)}</style><div style='height:4800px'>top</div><div id=bottom></div>",
            ),
        ),
        (
            "/shots/element.html",
            Page::html(
                "<!doctype html><title>Element</title><style>body{margin:0}#box{margin:40px;width:300px;height:120px;background:rgb(255,140,0)}</style><div id=box></div>",
            ),
        ),
        (
            "/shots/noise.html",
            Page::html(
                "<!doctype html><title>Noise</title><style>body{margin:0}</style><canvas id=c width=1280 height=3000></canvas><script>\
                 const c = document.getElementById('c').getContext('2d'); const d = c.createImageData(1280, 3000);\
                 for (let i = 0; i < d.data.length; i++) d.data[i] = (i % 4 == 3) ? 255 : Math.random() * 256;\
                 c.putImageData(d, 0, 0);</script>",
            ),
        ),
        (
            "/shots/buttons.html",
            Page::html(
                "<!doctype html><title>Buttons</title><button id=a onclick=\"document.getElementById('out').textContent='pressed a'\">Alpha</button>\
                 <button id=b onclick=\"document.getElementById('out').textContent='pressed b'\">Beta</button><p id=out>none</p>",
            ),
        ),
    ])
}

struct Picture {
    width: usize,
    height: usize,
    rgb: Vec<u8>,
    bytes: usize,
}

impl Picture {
    fn at(&self, x: usize, y: usize) -> [u8; 3] {
        let i = (y * self.width + x) * 3;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }
}

fn picture(r: &ToolResult) -> anyhow::Result<Picture> {
    let (mime, data) = r
        .images
        .first()
        .with_context(|| format!("no image in {}", r.text))?;
    ensure!(mime == "image/jpeg", "{mime}");
    let bytes = base64::engine::general_purpose::STANDARD.decode(data)?;
    let mut d = jpeg_decoder::Decoder::new(&bytes[..]);
    let rgb = d.decode()?;
    let info = d.info().context("no jpeg info")?;
    Ok(Picture {
        width: info.width.into(),
        height: info.height.into(),
        rgb,
        bytes: bytes.len(),
    })
}

async fn shot(a: &Agent, args: Value) -> anyhow::Result<ToolResult> {
    crate::common::screenshot(a, args).await
}

async fn open(a: &Agent, s: &Shared, path: &str) -> anyhow::Result<u32> {
    a.open(&s.pages.url(path)).await
}

pub async fn presets_set_the_size(s: Arc<Shared>) -> anyhow::Result<()> {
    let a = s.agent("presets").await?;
    let tab = open(&a, &s, "/colour/green.html").await?;
    let mut widths = Vec::new();
    for purpose in ["quick-glance", "read-text", "inspect-ui", "full-detail"] {
        let r = shot(&a, json!({"tabId": tab, "purpose": purpose})).await?;
        let p = picture(&r)?;
        ensure!(
            close_to(p.at(p.width / 2, p.height / 2), [30, 180, 60], 24),
            "{purpose}: not the page"
        );
        widths.push((purpose, p.width, p.bytes));
    }
    // The viewport is 1280 CSS pixels wide: 0.25, 0.5, 0.75 and 1 of it.
    let expected = [320, 640, 960, 1280];
    for ((purpose, w, _), want) in widths.iter().zip(expected) {
        ensure!(
            w.abs_diff(want) <= 2,
            "{purpose}: {w} px wide, expected {want}"
        );
    }
    let overridden = picture(&shot(&a, json!({"tabId": tab, "scale": 0.2, "quality": 50})).await?)?;
    ensure!(
        overridden.width.abs_diff(256) <= 2,
        "scale overrides the preset: {}",
        overridden.width
    );
    Ok(())
}

pub async fn a_late_image_is_waited_for(s: Arc<Shared>) -> anyhow::Result<()> {
    let a = s.agent("late-image").await?;
    let tab = open(&a, &s, "/shots/late-image.html").await?;
    // The data arrives 0.8 s after the page starts, the image it names 0.8 s after that.
    let r = shot(&a, json!({"tabId": tab})).await?;
    ensure!(
        r.text.contains("waited") && r.text.contains("images"),
        "says what it waited for: {}",
        r.text
    );
    let p = picture(&r)?;
    ensure!(
        close_to(p.at(p.width / 2, p.height / 2), [200, 0, 200], 30),
        "the late image is missing: {:?} ({})",
        p.at(p.width / 2, p.height / 2),
        r.text
    );
    Ok(())
}

pub async fn full_page_and_element_shots(s: Arc<Shared>) -> anyhow::Result<()> {
    let a = s.agent("full-page").await?;
    let tab = open(&a, &s, "/shots/tall.html").await?;
    let p = picture(&shot(&a, json!({"tabId": tab, "fullPage": true})).await?)?;
    ensure!(
        p.height.abs_diff(2500) <= 2,
        "5000 px page at half scale: {} high",
        p.height
    );
    ensure!(
        close_to(p.at(p.width / 2, p.height - 20), [0, 120, 255], 24),
        "bottom marker: {:?}",
        p.at(p.width / 2, p.height - 20)
    );
    ensure!(
        close_to(p.at(p.width / 2, 20), [240, 240, 240], 24),
        "top of the page"
    );

    let tab = open(&a, &s, "/shots/element.html").await?;
    let p = picture(&shot(&a, json!({"tabId": tab, "selector": "#box", "scale": 1.0})).await?)?;
    ensure!(
        (p.width, p.height) == (300, 120),
        "the element's size: {}×{}",
        p.width,
        p.height
    );
    ensure!(
        close_to(p.at(150, 60), [255, 140, 0], 24),
        "the element itself"
    );
    let both = a
        .call(
            "firefox_screenshot",
            json!({"tabId": tab, "selector": "#box", "fullPage": true}),
        )
        .await?;
    both.expect_error("INVALID_ARGUMENT")?;
    Ok(())
}

pub async fn noise_stays_under_the_budget(s: Arc<Shared>) -> anyhow::Result<()> {
    let a = s.agent("noise").await?;
    let tab = open(&a, &s, "/shots/noise.html").await?;
    let r = shot(
        &a,
        json!({"tabId": tab, "purpose": "full-detail", "fullPage": true}),
    )
    .await?;
    let p = picture(&r)?;
    ensure!(p.bytes <= 700_000, "{} bytes over the budget", p.bytes);
    ensure!(
        r.text.contains("stepped down"),
        "says it shrank the picture: {}",
        r.text
    );
    Ok(())
}

pub async fn badges_map_to_refs_that_work(s: Arc<Shared>) -> anyhow::Result<()> {
    let a = s.agent("badges").await?;
    let tab = open(&a, &s, "/shots/buttons.html").await?;
    let r = shot(&a, json!({"tabId": tab, "annotate": true, "scale": 1.0})).await?;
    let line = r
        .text
        .lines()
        .find(|l| l.contains("button#b"))
        .with_context(|| format!("no badge for Beta: {}", r.text))?;
    let reference = line.split_whitespace().nth(1).context("no ref")?;
    a.call("firefox_click", json!({"tabId": tab, "ref": reference}))
        .await?
        .ok()?;
    let out = text_of(&a, tab, "#out").await?;
    ensure!(
        out.contains("pressed b"),
        "the badge's ref clicked something else: {}",
        out
    );
    let p = picture(&r)?;
    let crimson = (0..p.height)
        .flat_map(|y| (0..p.width).map(move |x| (x, y)))
        .any(|(x, y)| close_to(p.at(x, y), [220, 20, 60], 40));
    ensure!(crimson, "no badge drawn on the picture");
    Ok(())
}

pub async fn saving_to_disk(s: Arc<Shared>) -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let a = s.agent_in("save", dir.path()).await?;
    let tab = open(&a, &s, "/colour/blue.html").await?;
    let path = dir.path().join("shot.jpg");
    let r = shot(&a, json!({"tabId": tab, "savePath": path})).await?;
    ensure!(
        r.images.is_empty() && r.text.contains("Saved") && r.text.contains("shot.jpg"),
        "{r:?}"
    );
    let bytes = std::fs::read(&path)?;
    ensure!(bytes.starts_with(&[0xFF, 0xD8]), "not a JPEG on disk");
    let again = a
        .call(
            "firefox_screenshot",
            json!({"tabId": tab, "savePath": path}),
        )
        .await?;
    ensure!(
        again
            .expect_error("INVALID_ARGUMENT")?
            .contains("overwrite"),
        "refuses to overwrite"
    );
    shot(
        &a,
        json!({"tabId": tab, "savePath": path, "overwrite": true}),
    )
    .await?;
    // A relative path starts in the project folder.
    shot(&a, json!({"tabId": tab, "savePath": "sub-shot.jpg"})).await?;
    ensure!(std::fs::read(dir.path().join("sub-shot.jpg"))?.starts_with(&[0xFF, 0xD8]));
    Ok(())
}
