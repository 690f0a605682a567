//! Issue 33: composite widgets as an agent meets them. Data grids made of divs, maps, calendars
//! and canvas charts from real npm libraries (pinned in `e2e/widgets/`, served under `/w/`), and
//! a click on what another element covers — each driven through the tools only, with refs read
//! from the snapshot as an agent reads them.
//!
//! Each test has a browser of its own, and the first page it opens is its window's active tab:
//! only that tab gets animation frames, which Chart.js needs to read the mouse (its listeners
//! wait for a frame), OpenLayers to place its overlays and finish a zoom, ag-grid to schedule its
//! rows. The pages opened after it are background tabs, so they are libraries that need no frames
//! (Leaflet with its animations off).

use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, ensure};
use claudezilla_e2e::pages::Page;
use claudezilla_e2e::{Agent, Browser, PageServer, eventually};
use libtest_mimic::{Failed, Trial};
use serde_json::{Value, json};

use crate::common::{TEST_LIMIT, call, press, runtime, said, text_of};

/// Where the pages find the installed widgets.
const MODULES: &str = "/w/node_modules";

/// The cars both grids show, as JavaScript.
const CARS: &str = "[{make: 'Toyota', model: 'Celica', price: 35000}, \
                    {make: 'Ford', model: 'F-Series', price: 33850}, \
                    {make: 'Porsche', model: 'Boxster', price: 72000}]";

/// ag-grid (its UMD build, styles included), the price editable; the rows as shown, in
/// `#state`, after every change of the grid's model or of a value.
fn ag_grid() -> String {
    format!(
        r#"<!doctype html><title>AG Grid</title>
<div id=grid style="width:620px;height:260px"></div><p id=state>waiting</p>
<script src="{MODULES}/ag-grid-community/dist/ag-grid-community.min.js"></script>
<script>
const show = (api) => {{
  const rows = [];
  api.forEachNodeAfterFilterAndSort((n) => rows.push(`${{n.data.make}}=${{n.data.price}}`));
  document.getElementById('state').textContent = 'rows:' + rows.join(',');
}};
agGrid.createGrid(document.getElementById('grid'), {{
  columnDefs: [{{ field: 'make' }}, {{ field: 'model' }}, {{ field: 'price', editable: true }}],
  rowData: {CARS},
  onModelUpdated: (e) => show(e.api),
  onCellValueChanged: (e) => show(e.api),
}});
</script>"#
    )
}

/// react-data-grid (bundled from `e2e/widgets/src/data-grid.js`): the same cars, the same
/// `#state`.
const DATA_GRID: &str = r#"<!doctype html><title>react-data-grid</title>
<link rel=stylesheet href="/w/dist/data-grid.css">
<div id=grid></div><p id=state>waiting</p>
<script src="/w/dist/data-grid.js"></script>"#;

/// OpenLayers (bundled from `e2e/widgets/src/ol-map.js`): no tiles, a marker image button
/// that opens a popup, the zoom in `#state`.
const OL_MAP: &str = r#"<!doctype html><title>OpenLayers</title>
<link rel=stylesheet href="/w/dist/ol-map.css">
<div id=map tabindex=0 style="width:600px;height:400px"></div><p id=state>waiting</p>
<script src="/w/dist/ol-map.js"></script>"#;

/// Leaflet without a tile layer (nothing is fetched; its marker image is the local one), a
/// marker with a popup, the zoom in `#state` after every zoom. Its animations are off: in a
/// background tab they would wait for frames that never come.
fn leaflet() -> String {
    format!(
        r#"<!doctype html><title>Leaflet</title>
<link rel=stylesheet href="{MODULES}/leaflet/dist/leaflet.css">
<div id=map style="width:600px;height:400px"></div><p id=state>waiting</p>
<script src="{MODULES}/leaflet/dist/leaflet.js"></script>
<script>
L.Icon.Default.imagePath = '{MODULES}/leaflet/dist/images/';
const map = L.map('map', {{ zoomAnimation: false, fadeAnimation: false, markerZoomAnimation: false }})
  .setView([48.8584, 2.2945], 13);
L.marker([48.8584, 2.2945], {{ alt: 'Eiffel Tower' }}).addTo(map).bindPopup('Eiffel Tower: open daily from 9:00');
const show = () => {{ document.getElementById('state').textContent = 'zoom:' + map.getZoom(); }};
map.on('zoomend', show);
show();
</script>"#
    )
}

/// React DayPicker (bundled from `e2e/widgets/src/day-picker.js`), November 2026; the picked
/// day in `#state`.
const DAY_PICKER: &str = r#"<!doctype html><title>React DayPicker</title>
<link rel=stylesheet href="/w/dist/day-picker.css">
<div id=calendar></div><p id=state>waiting</p>
<script src="/w/dist/day-picker.js"></script>"#;

/// Vanilla Calendar Pro, November 2026; the picked day in `#state`.
fn vanilla_calendar() -> String {
    format!(
        r#"<!doctype html><title>Vanilla Calendar Pro</title>
<link rel=stylesheet href="{MODULES}/vanilla-calendar-pro/styles/index.css">
<div id=calendar></div><p id=state>waiting</p>
<script src="{MODULES}/vanilla-calendar-pro/index.js"></script>
<script>
const calendar = new VanillaCalendarPro.Calendar('#calendar', {{
  selectedMonth: 10,
  selectedYear: 2026,
  onClickDate(self) {{
    document.getElementById('state').textContent = 'picked:' + self.context.selectedDates.join(',');
  }},
}});
calendar.init();
document.getElementById('state').textContent = 'ready';
</script>"#
    )
}

/// A Chart.js bar chart, animation off, tooltips on (drawn on the canvas). `#state` says where
/// the "Wed" bar's middle is in the viewport, and after every drawing what the tooltip shows.
fn chart_js() -> String {
    format!(
        r#"<!doctype html><title>Chart.js</title><style>body {{ margin: 0 }}</style>
<canvas id=chart width=600 height=300></canvas><p id=state>waiting</p>
<script src="{MODULES}/chart.js/dist/chart.umd.min.js"></script>
<script>
const canvas = document.getElementById('chart');
const report = {{ x: 0, y: 0, tip: 'none' }};
const show = () => {{ document.getElementById('state').textContent = JSON.stringify(report); }};
const chart = new Chart(canvas, {{
  type: 'bar',
  data: {{ labels: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'],
          datasets: [{{ label: 'Visitors', data: [1200, 2000, 4321, 800, 1500] }}] }},
  options: {{ animation: false, responsive: false, devicePixelRatio: 1,
             plugins: {{ tooltip: {{ enabled: true }} }} }},
  plugins: [{{ id: 'report', afterDraw(c) {{
    const t = c.tooltip;
    report.tip = t && t.getActiveElements().length
      ? [...t.title, ...t.body.flatMap((b) => b.lines)].join(' ') : 'none';
    show();
  }} }}],
}});
const bar = chart.getDatasetMeta(0).data[2];
const box = canvas.getBoundingClientRect();
report.x = box.left + bar.x;
report.y = box.top + (bar.y + bar.base) / 2;
show();
</script>"#
    )
}

/// An ECharts bar chart on a canvas, animation off; its tooltip is a box it adds to the chart
/// under the pointer. `#state` says where the "Wed" bar's middle is in the viewport, and which
/// bar the chart last saw the pointer over.
fn echarts() -> String {
    format!(
        r#"<!doctype html><title>ECharts</title><style>body {{ margin: 0 }}</style>
<div id=chart style="width:600px;height:300px"></div><p id=state>waiting</p>
<script src="{MODULES}/echarts/dist/echarts.min.js"></script>
<script>
const chart = echarts.init(document.getElementById('chart'), null, {{ renderer: 'canvas' }});
chart.setOption({{
  animation: false,
  tooltip: {{ trigger: 'item', transitionDuration: 0 }},
  xAxis: {{ type: 'category', data: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'] }},
  yAxis: {{ type: 'value' }},
  series: [{{ name: 'Visitors', type: 'bar', data: [1200, 2000, 4321, 800, 1500] }}],
}});
const [x, high] = chart.convertToPixel({{ seriesIndex: 0 }}, [2, 4321]);
const [, base] = chart.convertToPixel({{ seriesIndex: 0 }}, [2, 0]);
const box = chart.getDom().getBoundingClientRect();
const report = {{ x: box.left + x, y: box.top + (high + base) / 2, over: '' }};
const show = () => {{ document.getElementById('state').textContent = JSON.stringify(report); }};
chart.on('mouseover', (p) => {{ report.over = p.name; show(); }});
show();
</script>"#
    )
}

/// A shop under a cookie wall (a fixed layer over the whole page, its text and button at the
/// bottom), and controls whose middle is one of their children (a padded span holding an icon
/// and a label, a link's padded span holding its bold title). What was clicked, in `#state`.
const COVERED: &str = r##"<!doctype html><title>Covered</title>
<style>body { margin: 0; font: 16px sans-serif } main { padding: 20px }
#cookie-banner { position: fixed; inset: 0; background: rgba(0, 0, 0, .55); z-index: 10 }
#cookie-banner .box { position: absolute; left: 0; right: 0; bottom: 0; background: #fff; padding: 16px }
#save { padding: 0 } #save span, #details span { display: inline-block; padding: 12px 20px }</style>
<main>
<h1>Shop</h1>
<p><button id=buy onclick="note('bought')">Buy now</button></p>
<p><button id=save onclick="note('saved')"><span><svg width=16 height=16 aria-hidden=true><rect width=16 height=16 /></svg> Save for later</span></button></p>
<p><a href="#details" id=details onclick="note('details'); return false"><span><b>Product details</b></span></a></p>
<p id=state>nothing yet</p>
</main>
<div id=cookie-banner><div class=box>We use cookies to run this shop.
<button id=accept onclick="document.getElementById('cookie-banner').remove()">Accept cookies</button></div></div>
<script>
const done = [];
function note(what) { done.push(what); document.getElementById('state').textContent = done.join(','); }
</script>"##;

/// A shop under vanilla-cookieconsent's consent box with page interaction disabled: its
/// overlay (the wrapper's `::before`, fixed over the whole page) covers every button until a
/// choice is made.
fn cookie_consent() -> String {
    format!(
        r#"<!doctype html><title>Cookie consent</title>
<link rel=stylesheet href="{MODULES}/vanilla-cookieconsent/dist/cookieconsent.css">
<h1>Shop</h1><p><button onclick="note('bought')">Buy now</button></p><p id=state>nothing yet</p>
<script src="{MODULES}/vanilla-cookieconsent/dist/cookieconsent.umd.js"></script>
<script>
function note(what) {{ document.getElementById('state').textContent = what; }}
CookieConsent.run({{
  disablePageInteraction: true,
  guiOptions: {{consentModal: {{layout: 'box', position: 'middle center'}}}},
  categories: {{necessary: {{enabled: true, readOnly: true}}}},
  language: {{default: 'en', translations: {{en: {{
    consentModal: {{title: 'We use cookies', description: 'To run this shop.', acceptAllBtn: 'Accept all', acceptNecessaryBtn: 'Reject all'}},
    preferencesModal: {{title: 'Preferences', sections: []}},
  }}}}}},
}});
</script>"#
    )
}

/// A shop that opens a Micromodal newsletter dialog over itself at load: the dialog's overlay
/// (the page's own styles, as Micromodal asks) covers the page until "No thanks".
fn micromodal() -> String {
    format!(
        r#"<!doctype html><title>Micromodal</title>
<style>.modal {{ display: none }} .modal.is-open {{ display: block }}
.modal__overlay {{ position: fixed; inset: 0; background: rgba(0, 0, 0, .6); display: flex; align-items: center; justify-content: center }}
.modal__container {{ background: #fff; padding: 24px; max-width: 300px }}</style>
<h1>Shop</h1><p><button onclick="note('bought')">Buy now</button></p><p id=state>nothing yet</p>
<div class=modal id=newsletter aria-hidden=true>
<div class=modal__overlay tabindex=-1 data-micromodal-close>
<div class=modal__container role=dialog aria-modal=true aria-labelledby=newsletter-title>
<h2 id=newsletter-title>Join our newsletter</h2><button data-micromodal-close>No thanks</button>
</div></div></div>
<script src="{MODULES}/micromodal/dist/micromodal.min.js"></script>
<script>
function note(what) {{ document.getElementById('state').textContent = what; }}
MicroModal.init();
MicroModal.show('newsletter');
</script>"#
    )
}

pub fn pages() -> HashMap<&'static str, Page> {
    HashMap::from([
        ("/composite/ag-grid.html", Page::html(ag_grid())),
        ("/composite/data-grid.html", Page::html(DATA_GRID)),
        ("/composite/ol.html", Page::html(OL_MAP)),
        ("/composite/leaflet.html", Page::html(leaflet())),
        ("/composite/day-picker.html", Page::html(DAY_PICKER)),
        (
            "/composite/vanilla-calendar.html",
            Page::html(vanilla_calendar()),
        ),
        ("/composite/chartjs.html", Page::html(chart_js())),
        ("/composite/echarts.html", Page::html(echarts())),
        ("/composite/covered.html", Page::html(COVERED)),
        (
            "/composite/cookie-consent.html",
            Page::html(cookie_consent()),
        ),
        ("/composite/micromodal.html", Page::html(micromodal())),
    ])
}

// ---------------------------------------------------------------- fixture

/// A browser of its own, and the pages above.
pub struct Site {
    pub browser: Browser,
    pages: PageServer,
}

impl Site {
    async fn start() -> anyhow::Result<Self> {
        Ok(Self {
            pages: PageServer::start(pages()).await?,
            browser: Browser::start().await?,
        })
    }

    /// An agent with a tab open on the page at `path`.
    async fn agent_at(&self, name: &str, path: &str) -> anyhow::Result<(Agent, u32)> {
        let a = self.browser.agent(name).await?;
        let tab = a.open(&self.pages.url(path)).await?;
        Ok((a, tab))
    }

    /// The address of the page at `path` on this site.
    pub fn url(&self, path: &str) -> String {
        self.pages.url(path)
    }

    async fn open(&self, a: &Agent, path: &str) -> anyhow::Result<u32> {
        a.open(&self.pages.url(path)).await
    }
}

/// A test on a site of its own (see the module's doc); a failure ends with Firefox's log.
pub fn on_own_browser<F, Fut>(name: &str, test: F) -> Trial
where
    F: FnOnce(Arc<Site>) -> Fut + Send + 'static,
    Fut: Future<Output = anyhow::Result<()>>,
{
    crate::common::timed(name, move || {
        let site = runtime()
            .block_on(Site::start())
            .map_err(|e| Failed::from(format!("{e:#}")))?;
        let site = Arc::new(site);
        let result = runtime()
            .block_on(async { tokio::time::timeout(TEST_LIMIT, test(site.clone())).await });
        let error = match result {
            Ok(Ok(())) => return Ok(()),
            Ok(Err(e)) => format!("{e:#}"),
            Err(_) => format!("hung for more than {TEST_LIMIT:?}"),
        };
        let tail = crate::common::tail(&site.browser.log(), 40);
        Err(format!("{error}\n--- Firefox log (last lines) ---\n{tail}").into())
    })
}

// ---------------------------------------------------------------- reading answers

/// The text of `selector` once it says `what` (10 s at most); else what it said last.
async fn shows(a: &Agent, tab: u32, selector: &str, what: &str) -> anyhow::Result<String> {
    let mut last = String::new();
    let found = eventually(Duration::from_secs(10), what, async || {
        let text = text_of(a, tab, selector).await.ok()?;
        if text.contains(what) {
            return Some(text);
        }
        last = text;
        None
    })
    .await;
    found.with_context(|| format!("{selector} says {last:?}"))
}

/// The snapshot of a tab.
async fn snapshot(a: &Agent, tab: u32) -> anyhow::Result<String> {
    said(a, "firefox_snapshot", json!({"tabId": tab})).await
}

/// The visible text of a whole page.
async fn page_text(a: &Agent, tab: u32) -> anyhow::Result<String> {
    said(a, "firefox_get_content", json!({"tabId": tab})).await
}

/// The JSON a page reports in `#state`.
async fn reported(a: &Agent, tab: u32) -> anyhow::Result<Value> {
    let state = text_of(a, tab, "#state").await?;
    let json = state
        .lines()
        .find(|l| l.trim_start().starts_with('{'))
        .with_context(|| format!("no JSON in #state: {state}"))?;
    Ok(serde_json::from_str(json.trim())?)
}

/// Is a snapshot's word a ref: `e12`, or `f1e3` in a frame?
fn is_ref(word: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    match word.strip_prefix('f').and_then(|w| w.split_once('e')) {
        Some((frame, element)) => digits(frame) && digits(element),
        None => word.strip_prefix('e').is_some_and(digits),
    }
}

/// Every control a snapshot names and gives a ref, as (role, name, ref), wherever it stands:
/// alone on its line, or one cell of a row's line (`row: gridcell "Ford" e5 · gridcell …`).
/// A name never holds a double quote (the snapshot writes it as `'`).
fn controls(snapshot: &str) -> Vec<(&str, &str, &str)> {
    let mut found = Vec::new();
    for line in snapshot.lines() {
        let pieces: Vec<&str> = line.split('"').collect();
        // Odd pieces are names: the word before one is its role, the word after it its ref.
        for around in pieces.windows(3).step_by(2) {
            let &[before, name, after] = around else {
                continue;
            };
            let role = before.trim_end().rsplit([' ', ':']).next().unwrap_or("");
            let reference = after
                .split_whitespace()
                .next()
                .unwrap_or("")
                .trim_end_matches([':', ',']);
            if before.ends_with(' ') && !role.is_empty() && is_ref(reference) {
                found.push((role, name, reference));
            }
        }
    }
    found
}

/// The ref of the control `role "name"` (that whole name).
fn ref_of(snapshot: &str, role: &str, name: &str) -> Option<String> {
    controls(snapshot)
        .into_iter()
        .find(|(r, n, _)| *r == role && *n == name)
        .map(|(_, _, reference)| reference.to_owned())
}

/// The ref of the first control `role` whose name holds `words`.
fn ref_naming(snapshot: &str, role: &str, words: &str) -> Option<String> {
    controls(snapshot)
        .into_iter()
        .find(|(r, n, _)| *r == role && n.contains(words))
        .map(|(_, _, reference)| reference.to_owned())
}

/// The ref of the text field (named or not) whose value is `value`: an editor a grid opened.
/// It is the first ref after the field's role, outside quotes (a name could hold anything).
fn field_holding(snapshot: &str, value: &str) -> Option<String> {
    let shown = format!("={value}");
    snapshot
        .lines()
        .flat_map(|l| l.split(" · "))
        .filter(|part| part.split_whitespace().any(|w| w == shown))
        .find_map(|part| {
            let mut field = false;
            for word in part.split('"').step_by(2).flat_map(str::split_whitespace) {
                let word = word.trim_end_matches([':', ',']);
                if word == "textbox" || word == "spinbutton" {
                    field = true;
                } else if field && is_ref(word) {
                    return Some(word.to_owned());
                }
            }
            None
        })
}

/// `firefox_click` on a ref, `count` times in a row (2: a double-click).
async fn click_ref(a: &Agent, tab: u32, reference: &str, count: u8) -> anyhow::Result<String> {
    let mut args = json!({"tabId": tab, "ref": reference});
    if count > 1 {
        args["clickCount"] = json!(count);
    }
    said(a, "firefox_click", args).await
}

// ---------------------------------------------------------------- 1. grids

/// The rows both grids start with, in `#state`.
const START: &str = "rows:Toyota=35000,Ford=33850,Porsche=72000";

/// A grid of divs read and driven as an agent does. Its snapshot prints each row as one line of
/// cells — the header row too — each cell and column header with a ref, and names keep the
/// space between a row's cells (never "FordF-Series33850"). The price cell, double-clicked by
/// its ref, opens the grid's own editor; typed into by its ref and Enter, the grid's data has
/// the new price. The "Price" header clicked by its ref sorts the rows by price.
async fn drive_grid(a: &Agent, tab: u32, grid: &str) -> anyhow::Result<()> {
    shows(a, tab, "#state", START).await?;
    let snap = snapshot(a, tab).await?;
    for glued in ["FordF-Series", "F-Series33850", "ToyotaCelica", "MakeModel"] {
        ensure!(
            !snap.contains(glued),
            "{grid}: the words of a row's cells are run together ({glued}):\n{snap}"
        );
    }
    for (role, first, cells) in [
        ("columnheader", "Make", ["Make", "Model", "Price"]),
        ("gridcell", "Ford", ["Ford", "F-Series", "33850"]),
        ("gridcell", "Toyota", ["Toyota", "Celica", "35000"]),
        ("gridcell", "Porsche", ["Porsche", "Boxster", "72000"]),
    ] {
        let cell = format!("{role} \"{first}\"");
        let line = snap.lines().find(|l| l.contains(&cell)).unwrap_or_default();
        ensure!(
            line.trim_start().starts_with("row"),
            "{grid}: the row holding {cell} is one line of cells, as a table's rows are:\n{snap}"
        );
        for name in cells {
            ensure!(
                ref_of(line, role, name).is_some(),
                "{grid}: {role} \"{name}\" has a ref, on its row's line ({line:?}):\n{snap}"
            );
        }
    }

    let price = ref_of(&snap, "gridcell", "33850").unwrap_or_default();
    let opened = click_ref(a, tab, &price, 2).await?;
    let editor = eventually(Duration::from_secs(5), "the grid's editor", async || {
        field_holding(&snapshot(a, tab).await.ok()?, "33850")
    })
    .await;
    let Ok(field) = editor else {
        anyhow::bail!(
            "{grid}: a double-click on the price ({opened:?}) opens an editor with a ref:\n{}",
            snapshot(a, tab).await?
        );
    };
    call(
        a,
        "firefox_type",
        json!({"tabId": tab, "ref": field, "text": "99000", "clear": true}),
    )
    .await?;
    press(a, tab, "Enter").await?;
    shows(a, tab, "#state", "Ford=99000")
        .await
        .with_context(|| format!("{grid}: the edit reaches the grid's data"))?;

    let snap = snapshot(a, tab).await?;
    let header = ref_of(&snap, "columnheader", "Price");
    ensure!(header.is_some(), "{grid}: the Price header's ref:\n{snap}");
    let sorted = click_ref(a, tab, header.as_deref().unwrap_or_default(), 1).await?;
    shows(
        a,
        tab,
        "#state",
        "rows:Toyota=35000,Porsche=72000,Ford=99000",
    )
    .await
    .with_context(|| format!("{grid}: a click on the Price header ({sorted:?}) sorts"))?;
    Ok(())
}

/// Data grids made of divs with grid roles (ag-grid, react-data-grid): rows of cells, every
/// cell and header with a ref, a cell edited in the grid's editor, a column sorted.
pub async fn grids_read_as_rows_of_cells_that_edit_and_sort(s: Arc<Site>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("grids", "/composite/ag-grid.html").await?;
    drive_grid(&a, tab, "ag-grid").await?;
    let tab = s.open(&a, "/composite/data-grid.html").await?;
    drive_grid(&a, tab, "react-data-grid").await?;
    a.close().await?;
    Ok(())
}

// ---------------------------------------------------------------- 2. maps

/// The ref of a map's zoom-in button: named "Zoom in" (Leaflet's aria-label; OpenLayers' title)
/// or by its "+".
fn zoom_in(snapshot: &str) -> Option<String> {
    ref_of(snapshot, "button", "Zoom in").or_else(|| ref_of(snapshot, "button", "+"))
}

/// A map whose element is focusable still shows what is clicked inside it: its zoom-in button
/// zooms (the zoom the map reports in `#state` goes from `zoom` to `zoom + 1`), and its marker,
/// an image button named by its alt, opens its popup.
async fn drive_map(
    a: &Agent,
    tab: u32,
    map: &str,
    zoom: u32,
    marker: &str,
    popup: &str,
) -> anyhow::Result<()> {
    shows(a, tab, "#state", &format!("zoom:{zoom}")).await?;
    let snap = snapshot(a, tab).await?;
    let (Some(plus), Some(pin)) = (zoom_in(&snap), ref_of(&snap, "button", marker)) else {
        anyhow::bail!(
            "{map}: the zoom-in button and the marker {marker:?} inside the focusable map have refs:\n{snap}"
        );
    };
    let zoomed = click_ref(a, tab, &plus, 1).await?;
    shows(a, tab, "#state", &format!("zoom:{}", zoom + 1))
        .await
        .with_context(|| format!("{map}: Zoom in ({zoomed:?}) zooms"))?;
    let before = page_text(a, tab).await?;
    ensure!(
        !before.contains(popup),
        "{map}: the popup shows only once the marker is clicked:\n{before}"
    );
    let clicked = click_ref(a, tab, &pin, 1).await?;
    let opened = eventually(Duration::from_secs(5), "the popup", async || {
        let text = page_text(a, tab).await.ok()?;
        text.contains(popup).then_some(text)
    })
    .await;
    ensure!(
        opened.is_ok(),
        "{map}: a click on the marker ({clicked:?}) opens its popup {popup:?}:\n{}",
        page_text(a, tab).await?
    );
    Ok(())
}

/// Maps (OpenLayers, Leaflet) whose element is focusable (tabindex=0) do not hide the markers
/// and zoom buttons inside them: each has a ref, and clicking them zooms and opens a popup.
pub async fn maps_show_their_markers_and_zoom_buttons(s: Arc<Site>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("maps", "/composite/ol.html").await?;
    drive_map(
        &a,
        tab,
        "OpenLayers",
        4,
        "Lighthouse",
        "Lighthouse: open on Sundays",
    )
    .await?;
    let tab = s.open(&a, "/composite/leaflet.html").await?;
    drive_map(
        &a,
        tab,
        "Leaflet",
        13,
        "Eiffel Tower",
        "Eiffel Tower: open daily from 9:00",
    )
    .await?;
    a.close().await?;
    Ok(())
}

// ---------------------------------------------------------------- 3. calendars

/// Calendars whose day cells are gridcells holding a button (React DayPicker: a td, Vanilla
/// Calendar Pro: a div): the ref is the button's, named by its date, and clicking it picks the
/// day (the library's own callback writes `#state`). A ref on the cell alone would miss: Vanilla
/// Calendar Pro picks a day only when the click's target is in its button.
pub async fn calendar_days_are_their_buttons(s: Arc<Site>) -> anyhow::Result<()> {
    let (a, first) = s
        .agent_at("calendars", "/composite/day-picker.html")
        .await?;
    let second = s.open(&a, "/composite/vanilla-calendar.html").await?;
    for (tab, calendar) in [(first, "React DayPicker"), (second, "Vanilla Calendar Pro")] {
        shows(&a, tab, "#state", "ready").await?;
        let snap = snapshot(&a, tab).await?;
        let day = ref_naming(&snap, "button", "November 18");
        ensure!(
            day.is_some(),
            "{calendar}: the 18th's button has a ref, named by its date:\n{snap}"
        );
        let picked = click_ref(&a, tab, day.as_deref().unwrap_or_default(), 1).await?;
        shows(&a, tab, "#state", "picked:2026-11-18")
            .await
            .with_context(|| format!("{calendar}: a click on the 18th ({picked:?}) picks it"))?;
    }
    a.close().await?;
    Ok(())
}

// ---------------------------------------------------------------- 4. hover at a point

/// The viewport point a chart page reports in `#state`.
async fn reported_point(a: &Agent, tab: u32) -> anyhow::Result<(f64, f64)> {
    let state = eventually(Duration::from_secs(10), "the chart", async || {
        reported(a, tab)
            .await
            .ok()
            .filter(|s| s["x"].as_f64() > Some(0.0))
    })
    .await?;
    Ok((
        state["x"].as_f64().unwrap_or_default(),
        state["y"].as_f64().unwrap_or_default(),
    ))
}

/// `firefox_hover` at a viewport point.
async fn hover_at(a: &Agent, tab: u32, (x, y): (f64, f64)) -> anyhow::Result<String> {
    said(a, "firefox_hover", json!({"tabId": tab, "x": x, "y": y})).await
}

/// A Chart.js chart draws its tooltip on its canvas, only while the pointer is over a bar:
/// `firefox_hover` at the bar's point (the page says where it is) shows it, as the chart's own
/// tooltip reports.
pub async fn hover_at_a_point_shows_a_canvas_charts_tooltip(s: Arc<Site>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("chartjs", "/composite/chartjs.html").await?;
    let bar = reported_point(&a, tab).await?;
    let before = reported(&a, tab).await?;
    ensure!(
        before["tip"] == "none",
        "no tooltip before the hover: {before}"
    );
    let hovered = hover_at(&a, tab, bar).await?;
    let shown = eventually(Duration::from_secs(5), "the tooltip", async || {
        let state = reported(&a, tab).await.ok()?;
        let tip = state["tip"].as_str()?.to_owned();
        (tip != "none").then_some(tip)
    })
    .await;
    let tip = match shown {
        Ok(tip) => tip,
        Err(_) => anyhow::bail!(
            "hovering at {bar:?} ({hovered:?}) shows the chart's tooltip: {}",
            reported(&a, tab).await?
        ),
    };
    ensure!(
        tip.contains("Wed") && tip.contains("Visitors"),
        "the tooltip is the Wed bar's: {tip:?}"
    );
    a.close().await?;
    Ok(())
}

/// An ECharts chart (canvas renderer) adds its tooltip box only while the pointer is over a
/// bar: `firefox_hover` at the bar's point shows the bar's series, name and value.
pub async fn hover_at_a_point_shows_an_echarts_tooltip(s: Arc<Site>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("echarts", "/composite/echarts.html").await?;
    let bar = reported_point(&a, tab).await?;
    let before = text_of(&a, tab, "#chart").await?;
    ensure!(
        !before.contains("Visitors"),
        "no tooltip before the hover: {before:?}"
    );
    let hovered = hover_at(&a, tab, bar).await?;
    let tip = eventually(Duration::from_secs(5), "the tooltip", async || {
        let text = text_of(&a, tab, "#chart").await.ok()?;
        (text.contains("Visitors") && text.contains("4,321")).then_some(text)
    })
    .await;
    ensure!(
        tip.is_ok(),
        "hovering at {bar:?} ({hovered:?}) shows the Wed bar's tooltip: {:?}, {}",
        text_of(&a, tab, "#chart").await?,
        text_of(&a, tab, "#state").await?
    );
    a.close().await?;
    Ok(())
}

// ---------------------------------------------------------------- 5. hit-testing

/// A click on a ref whose middle another element covers (a cookie wall) is not carried through
/// to it: nothing is clicked, and the answer says what covers it. Once the wall is gone the same
/// ref clicks; and a ref whose middle is one of its own children (an icon and a label, a link's
/// bold title) clicks as a person's click there does.
pub async fn a_covered_ref_is_not_clicked_through(s: Arc<Site>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("covered", "/composite/covered.html").await?;
    shows(&a, tab, "#state", "nothing yet").await?;
    let snap = snapshot(&a, tab).await?;
    let (Some(buy), Some(accept)) = (
        ref_of(&snap, "button", "Buy now"),
        ref_of(&snap, "button", "Accept cookies"),
    ) else {
        anyhow::bail!("the page's buttons have refs:\n{snap}");
    };
    let answer = a
        .call("firefox_click", json!({"tabId": tab, "ref": buy}))
        .await?;
    let state = text_of(&a, tab, "#state").await?;
    ensure!(
        state.contains("nothing yet"),
        "a click on a covered button does not reach it ({answer:?}): {state}"
    );
    ensure!(
        answer.text.to_lowercase().contains("cookie"),
        "the answer says the cookie wall covers the button: {answer:?}"
    );

    click_ref(&a, tab, &accept, 1).await?;
    let again = click_ref(&a, tab, &buy, 1).await?;
    shows(&a, tab, "#state", "bought")
        .await
        .with_context(|| format!("uncovered, the button clicks: {again:?}"))?;

    let snap = snapshot(&a, tab).await?;
    let (Some(save), Some(details)) = (
        ref_naming(&snap, "button", "Save for later"),
        ref_naming(&snap, "link", "Product details"),
    ) else {
        anyhow::bail!("the button and the link have refs:\n{snap}");
    };
    let saved = click_ref(&a, tab, &save, 1).await?;
    shows(&a, tab, "#state", "bought,saved")
        .await
        .with_context(|| format!("a click whose middle is the button's label: {saved:?}"))?;
    let opened = click_ref(&a, tab, &details, 1).await?;
    shows(&a, tab, "#state", "bought,saved,details")
        .await
        .with_context(|| format!("a click whose middle is the link's title: {opened:?}"))?;
    a.close().await?;
    Ok(())
}

/// The same on two overlay libraries (vanilla-cookieconsent, Micromodal): a click on a button
/// their overlay covers is refused with what covers it, and clicks once the overlay is
/// dismissed through its own button.
pub async fn library_overlays_are_not_clicked_through(s: Arc<Site>) -> anyhow::Result<()> {
    for (page, dismiss) in [
        ("/composite/cookie-consent.html", "Accept all"),
        ("/composite/micromodal.html", "No thanks"),
    ] {
        let (a, tab) = s.agent_at("overlaid", page).await?;
        let snap = eventually(
            Duration::from_secs(10),
            "the overlay's button",
            async || {
                snapshot(&a, tab)
                    .await
                    .ok()
                    .filter(|snap| ref_of(snap, "button", dismiss).is_some())
            },
        )
        .await?;
        let (Some(buy), Some(close)) = (
            ref_of(&snap, "button", "Buy now"),
            ref_of(&snap, "button", dismiss),
        ) else {
            anyhow::bail!("{page}: the buttons have refs:\n{snap}");
        };
        let answer = a
            .call("firefox_click", json!({"tabId": tab, "ref": buy}))
            .await?;
        ensure!(
            answer.is_error && answer.text.contains("is covered at its centre"),
            "{page}: the answer says what covers the button: {answer:?}"
        );
        ensure!(
            text_of(&a, tab, "#state").await?.contains("nothing yet"),
            "{page}: the covered button was not clicked ({answer:?})"
        );
        click_ref(&a, tab, &close, 1).await?;
        let bought = eventually(Duration::from_secs(10), "the overlay to go", async || {
            let answer = a
                .call("firefox_click", json!({"tabId": tab, "ref": buy}))
                .await
                .ok()?;
            (!answer.is_error).then_some(answer)
        })
        .await?;
        shows(&a, tab, "#state", "bought")
            .await
            .with_context(|| format!("{page}: uncovered, the button clicks: {bought:?}"))?;
        a.close().await?;
    }
    Ok(())
}
