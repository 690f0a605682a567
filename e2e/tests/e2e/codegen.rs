//! `firefox_trace {action: "stop", test}`: the actions an agent took, as a Playwright test.
//! The file type-checks against the pinned `@playwright/test` types (`tsc --noEmit`), and each
//! of its locators resolves, through our own role-and-name engine (`firefox_find {role,
//! name}`) on the page as it was at that step, to the very element the agent acted on.

use std::collections::HashMap;
use std::sync::Arc;

use anyhow::{Context, ensure};
use claudezilla_e2e::agent::Agent;
use claudezilla_e2e::pages::Page;
use serde_json::{Value, json};

use crate::common::{Shared, call, said};

/// The card number typed from the secrets file: it must never be in the test file.
const CARD: &str = "4242-4242-7f3e-9c1d";

pub fn pages() -> HashMap<&'static str, Page> {
    HashMap::from([
        (
            "/codegen/shop.html",
            Page::html(
                "<!doctype html><html lang=en><title>Shop</title><main><h1>Shop</h1>\
                 <table><tr><td>Ford F-Series</td><td>33850</td><td><button id=edit-ford onclick=\"note('ford')\">Edit</button></td></tr>\
                 <tr><td>Toyota RAV4</td><td>29000</td><td><button id=edit-rav4 onclick=\"note('rav4')\">Edit</button></td></tr></table>\
                 <ul><li><a href=#a onclick=\"note('more1');return false\">More</a></li>\
                 <li><a id=more2 href=#b onclick=\"note('more2');return false\">More</a></li>\
                 <li><a href=#c onclick=\"note('more3');return false\">More</a></li></ul>\
                 <label>Email <input id=email></label>\
                 <label>Size <select id=size><option>S</option><option>M</option></select></label>\
                 <label><input type=checkbox id=gift> Gift wrap</label>\
                 <div class=chip onclick=\"note('chip')\" style='cursor:pointer'>Chip</div>\
                 <div role=dialog aria-label=Confirm><p>Sure?</p><button id=ok-dialog onclick=\"note('ok-dialog')\">OK</button></div>\
                 <button id=ok-page onclick=\"note('ok-page')\">OK</button>\
                 <div id=host></div>\
                 <div id=drag-src draggable=true>Drag me</div><div id=drop-zone>Drop here</div>\
                 <input type=file id=upload>\
                 <div data-testid=4242-4242-7f3e-9c1d class=receipt onclick=\"note('receipt')\">Receipt</div>\
                 <iframe id=card-frame title=Card width=400 height=120></iframe>\
                 <p id=log></p></main>\
                 <script>\
                 function note(w) { document.getElementById('log').textContent += w + ' '; }\
                 const root = document.getElementById('host').attachShadow({mode: 'open'});\
                 root.innerHTML = '<button>Subscribe</button>';\
                 root.querySelector('button').onclick = () => note('subscribed');\
                 document.getElementById('card-frame').src = 'http://localhost:' + location.port + '/codegen/card.html';\
                 </script>",
            ),
        ),
        (
            "/codegen/card.html",
            Page::html(
                "<!doctype html><html lang=en><title>Card</title>\
                 <label>Card number <input id=card></label>\
                 <button onclick=\"document.body.append('Paid')\">Pay</button>",
            ),
        ),
    ])
}

/// A locator the test file must hold: by role and name, in a scope or by position.
struct Expected {
    role: &'static str,
    name: &'static str,
    scope: Option<(&'static str, &'static str)>,
    nth: Option<usize>,
    /// The frame's selector, for an element in the card frame.
    frame: Option<&'static str>,
}

impl Expected {
    const fn role(role: &'static str, name: &'static str) -> Self {
        Self {
            role,
            name,
            scope: None,
            nth: None,
            frame: None,
        }
    }

    /// As the test file writes it, after `page`.
    fn written(&self) -> String {
        let by = |role: &str, name: &str| {
            format!(".getByRole(\"{role}\", {{ name: \"{name}\", exact: true }})")
        };
        let mut out = String::new();
        if let Some(frame) = self.frame {
            out.push_str(&format!(
                ".frameLocator({})",
                serde_json::to_string(frame).unwrap()
            ));
        }
        if let Some((role, name)) = self.scope {
            out.push_str(&by(role, name));
        }
        out.push_str(&by(self.role, self.name));
        if let Some(n) = self.nth {
            out.push_str(&format!(".nth({n})"));
        }
        out
    }

    /// The locator as a test file line holds it, read back.
    fn read_back(&self) -> anyhow::Result<Locator> {
        Locator::read(&format!("await page{}.click();", self.written()))
            .with_context(|| format!("unreadable: {}", self.written()))
    }
}

/// A locator of a test file, read back from its line: what `firefox_find` can resolve.
#[derive(Debug, Default)]
struct Locator {
    /// Inside a frame (`frameLocator`).
    framed: bool,
    /// (role, name) of each `getByRole`: a scope, then the element.
    roles: Vec<(String, String)>,
    css: Option<String>,
    nth: Option<usize>,
}

impl Locator {
    /// The locator of `await page….action(…);`, or None for any other line.
    fn read(line: &str) -> Option<Self> {
        let mut rest = line.trim().strip_prefix("await page")?;
        let mut out = Self::default();
        loop {
            if let Some(r) = rest.strip_prefix(".frameLocator(") {
                let (_, r) = json_string(r)?;
                rest = r.strip_prefix(')')?;
                out.framed = true;
            } else if let Some(r) = rest.strip_prefix(".getByRole(") {
                let (role, r) = json_string(r)?;
                let (name, r) = json_string(r.strip_prefix(", { name: ")?)?;
                let r = r.strip_prefix(", exact: true")?;
                let r = match r.strip_prefix(", level: ") {
                    Some(level) => level.trim_start_matches(|c: char| c.is_ascii_digit()),
                    None => r,
                };
                rest = r.strip_prefix(" })")?;
                out.roles.push((role, name));
            } else if let Some(r) = rest.strip_prefix(".locator(") {
                let (css, r) = json_string(r)?;
                rest = r.strip_prefix(')')?;
                out.css = Some(css);
            } else if let Some(r) = rest.strip_prefix(".nth(") {
                let (n, r) = r.split_once(')')?;
                out.nth = Some(n.parse().ok()?);
                rest = r;
            } else {
                break;
            }
        }
        (!out.roles.is_empty() || out.css.is_some()).then_some(out)
    }

    /// The element it finds now, through `firefox_find {role, name}`: the matches in the frame
    /// it names, narrowed to its scope (the one match of the scope's role and name, by the
    /// boxes) and then to its position. A CSS locator is resolved by `firefox_get_element`
    /// when it names one element of the page.
    async fn resolve(&self, a: &Agent, tab: u32) -> anyhow::Result<String> {
        if let Some(css) = &self.css {
            ensure!(
                !self.framed && self.nth.is_none(),
                "a numbered or framed CSS locator"
            );
            return ref_of(a, tab, css).await;
        }
        let in_frame = |r: &String| r.starts_with('f') == self.framed;
        let (role, name) = self.roles.last().context("no role")?;
        let mut refs: Vec<String> = found(a, tab, role, name)
            .await?
            .into_iter()
            .filter(in_frame)
            .collect();
        if let [(role, name), _] = self.roles.as_slice() {
            let scopes: Vec<String> = found(a, tab, role, name)
                .await?
                .into_iter()
                .filter(in_frame)
                .collect();
            ensure!(scopes.len() == 1, "scope {role} {name:?}: {scopes:?}");
            let outer = rect(a, tab, &scopes[0]).await?;
            let mut inside = Vec::new();
            for r in refs {
                let [x, y, w, h] = rect(a, tab, &r).await?;
                let (cx, cy) = (x + w / 2.0, y + h / 2.0);
                if cx >= outer[0]
                    && cx <= outer[0] + outer[2]
                    && cy >= outer[1]
                    && cy <= outer[1] + outer[3]
                {
                    inside.push(r);
                }
            }
            refs = inside;
        }
        match self.nth {
            Some(n) => refs
                .get(n)
                .cloned()
                .with_context(|| format!("no match {n} in {refs:?}")),
            None => {
                ensure!(refs.len() == 1, "{role} {name:?} is not unique: {refs:?}");
                Ok(refs.remove(0))
            }
        }
    }
}

/// The JSON string literal at the start of `text`, and what follows it.
fn json_string(text: &str) -> Option<(String, &str)> {
    let mut values = serde_json::Deserializer::from_str(text).into_iter::<String>();
    let value = values.next()?.ok()?;
    Some((value, &text[values.byte_offset()..]))
}

/// The refs `firefox_find {role, name}` lists, in its order.
async fn found(a: &Agent, tab: u32, role: &str, name: &str) -> anyhow::Result<Vec<String>> {
    let answer = said(
        a,
        "firefox_find",
        json!({"tabId": tab, "role": role, "name": name, "limit": 200}),
    )
    .await?;
    Ok(answer
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|r| is_ref(r))
        .map(str::to_owned)
        .collect())
}

fn is_ref(text: &str) -> bool {
    let index = match text.strip_prefix('f') {
        Some(rest) => rest
            .split_once('e')
            .filter(|(f, _)| f.parse::<u32>().is_ok())
            .map(|(_, i)| i),
        None => text.strip_prefix('e'),
    };
    index.is_some_and(|i| i.parse::<u32>().is_ok())
}

/// The element's box, from `firefox_get_element`.
async fn rect(a: &Agent, tab: u32, r: &str) -> anyhow::Result<[f64; 4]> {
    let info = element(a, json!({"tabId": tab, "ref": r})).await?;
    let rect: Vec<f64> = serde_json::from_value(info["rect"].clone())
        .with_context(|| format!("no rect in {info}"))?;
    ensure!(rect.len() == 4, "{info}");
    Ok([rect[0], rect[1], rect[2], rect[3]])
}

async fn element(a: &Agent, args: Value) -> anyhow::Result<Value> {
    let answer = said(a, "firefox_get_element", args).await?;
    serde_json::from_str(&answer).with_context(|| format!("not JSON: {answer}"))
}

/// The ref of the element a selector names (`firefox_get_element` says it).
async fn ref_of(a: &Agent, tab: u32, selector: &str) -> anyhow::Result<String> {
    let info = element(a, json!({"tabId": tab, "selector": selector})).await?;
    let described = info["element"].as_str().unwrap_or_default();
    described
        .rsplit('(')
        .next()
        .and_then(|r| r.strip_suffix(')'))
        .filter(|r| is_ref(r))
        .map(str::to_owned)
        .with_context(|| format!("no ref in {info}"))
}

/// The ref on the snapshot's line holding `words`.
fn ref_on_line(snapshot: &str, words: &str) -> anyhow::Result<String> {
    let line = snapshot
        .lines()
        .find(|l| l.contains(words))
        .with_context(|| format!("{words:?} not in {snapshot}"))?;
    line.split_whitespace()
        .find(|w| is_ref(w))
        .map(str::to_owned)
        .with_context(|| format!("no ref on {line:?}"))
}

/// An agent's actions on a shop page (rows, a list, a form, a dialog, a shadow root, a card
/// form in a frame of another origin) become a test file that names every element by role
/// and name, scoped or numbered where a person would; each locator resolves to the element
/// acted on; the file type-checks; its secret is an environment variable; a name that a test
/// runner collects is refused.
pub async fn a_trace_becomes_a_playwright_test(s: Arc<Shared>) -> anyhow::Result<()> {
    let project = tempfile::tempdir_in(s.browser.path())?;
    std::fs::write(
        project.path().join("agent.secrets"),
        format!("CARD=\"{CARD}\" @localhost:any-field\n"),
    )?;
    let secrets = project
        .path()
        .join("agent.secrets")
        .to_string_lossy()
        .into_owned();
    let a = Agent::spawn_with(
        s.browser.runtime.path(),
        &project.path().join("mcp-codegen.log"),
        &[("CLAUDEZILLA_SECRETS_FILE", &secrets)],
    )
    .await?;
    call(&a, "firefox_trace", json!({"action": "start"})).await?;
    let url = s.pages.url("/codegen/shop.html");
    let tab = a.open(&url).await?;
    let snapshot = said(&a, "firefox_snapshot", json!({"tabId": tab})).await?;
    ensure!(
        snapshot.contains("Pay"),
        "the card frame is in the snapshot: {snapshot}"
    );

    // Each step: the locator expected, the element acted on, and the call.
    let steps: Vec<(Expected, String, &str, Value)> = vec![
        (
            Expected::role("textbox", "Email"),
            ref_of(&a, tab, "#email").await?,
            "firefox_type",
            json!({"selector": "#email", "text": "kim@shop.example"}),
        ),
        (
            Expected {
                scope: Some(("row", "Toyota RAV4 29000 Edit")),
                ..Expected::role("button", "Edit")
            },
            ref_of(&a, tab, "#edit-rav4").await?,
            "firefox_click",
            json!({"selector": "#edit-rav4"}),
        ),
        (
            Expected {
                nth: Some(1),
                ..Expected::role("link", "More")
            },
            ref_of(&a, tab, "#more2").await?,
            "firefox_click",
            json!({"ref": ref_of(&a, tab, "#more2").await?}),
        ),
        (
            Expected::role("combobox", "Size"),
            ref_of(&a, tab, "#size").await?,
            "firefox_select_option",
            json!({"selector": "#size", "values": ["M"]}),
        ),
        (
            Expected::role("checkbox", "Gift wrap"),
            ref_of(&a, tab, "#gift").await?,
            "firefox_fill_form",
            json!({"fields": [{"selector": "#gift", "value": true}]}),
        ),
        (
            Expected {
                scope: Some(("dialog", "Confirm")),
                ..Expected::role("button", "OK")
            },
            ref_of(&a, tab, "#ok-dialog").await?,
            "firefox_click",
            json!({"selector": "#ok-dialog"}),
        ),
        (
            Expected::role("button", "Subscribe"),
            ref_on_line(&snapshot, "button \"Subscribe\"")?,
            "firefox_click",
            json!({"ref": ref_on_line(&snapshot, "button \"Subscribe\"")?}),
        ),
        (
            Expected {
                frame: Some("#card-frame"),
                ..Expected::role("textbox", "Card number")
            },
            ref_on_line(&snapshot, "textbox \"Card number\"")?,
            "firefox_type",
            json!({"ref": ref_on_line(&snapshot, "textbox \"Card number\"")?, "secret": "CARD"}),
        ),
        (
            Expected {
                frame: Some("#card-frame"),
                ..Expected::role("button", "Pay")
            },
            ref_on_line(&snapshot, "button \"Pay\"")?,
            "firefox_click",
            json!({"ref": ref_on_line(&snapshot, "button \"Pay\"")?}),
        ),
    ];
    let mut failures = Vec::new();
    for (expected, acted, tool, mut args) in steps {
        // Resolved on the page as it is now, before the action changes it.
        match expected.read_back()?.resolve(&a, tab).await {
            Ok(r) if r == acted => {}
            Ok(r) => failures.push(format!("{} finds {r}, not {acted}", expected.written())),
            Err(e) => failures.push(format!("{}: {e:#}", expected.written())),
        }
        args["tabId"] = json!(tab);
        call(&a, tool, args).await?;
    }
    ensure!(failures.is_empty(), "{failures:#?}");
    // The chip has no role: a CSS selector names it.
    call(
        &a,
        "firefox_click",
        json!({"tabId": tab, "selector": "div.chip"}),
    )
    .await?;
    // A test id holding the typed secret (the page wrote it there) is never the selector.
    call(
        &a,
        "firefox_click",
        json!({"tabId": tab, "selector": "div.receipt"}),
    )
    .await?;
    call(
        &a,
        "firefox_wait_for",
        json!({"tabId": tab, "text": "ok-dialog"}),
    )
    .await?;
    call(
        &a,
        "firefox_press_key",
        json!({"tabId": tab, "selector": "#email", "key": "Enter"}),
    )
    .await?;
    // Every other kind of step, each with the statement it must become.
    std::fs::write(project.path().join("receipt.txt"), "paid")?;
    for (tool, args) in [
        (
            "firefox_click",
            json!({"selector": "#email", "clickCount": 2}),
        ),
        (
            "firefox_click",
            json!({"selector": "#ok-page", "button": "right"}),
        ),
        ("firefox_click", json!({"x": 5, "y": 5})),
        ("firefox_hover", json!({"x": 10, "y": 10})),
        (
            "firefox_drag",
            json!({"from": "#drag-src", "to": "#drop-zone"}),
        ),
        (
            "firefox_upload_file",
            json!({"selector": "#upload", "path": "receipt.txt"}),
        ),
    ] {
        let mut args = args;
        args["tabId"] = json!(tab);
        call(&a, tool, args).await?;
    }
    ensure!(
        a.call("firefox_click", json!({"tabId": tab, "ref": "e999"}))
            .await?
            .is_error,
        "an unknown ref fails"
    );
    call(
        &a,
        "firefox_navigate",
        json!({"tabId": tab, "url": format!("{url}?again")}),
    )
    .await?;
    call(
        &a,
        "firefox_navigate",
        json!({"tabId": tab, "action": "back"}),
    )
    .await?;
    call(
        &a,
        "firefox_wait_for",
        json!({"tabId": tab, "url": "**/shop.html"}),
    )
    .await?;

    let refused = a
        .call(
            "firefox_trace",
            json!({"action": "stop", "path": "run.html", "test": "checkout.spec.ts"}),
        )
        .await?;
    refused.expect_error("NOT_ALLOWED")?;
    let stopped = call(
        &a,
        "firefox_trace",
        json!({"action": "stop", "path": "run.html", "test": "checkout.ts"}),
    )
    .await?;
    ensure!(
        stopped.text.contains("a Playwright test in checkout.ts"),
        "{stopped:?}"
    );
    let spec = std::fs::read_to_string(project.path().join("checkout.ts"))?;
    let written = [
        "import { test, expect } from '@playwright/test';".to_owned(),
        "test(\"checkout\", async ({ page, context }) => {".to_owned(),
        format!("await page.goto({});", serde_json::to_string(&url)?),
        "await page.getByRole(\"textbox\", { name: \"Email\", exact: true }).pressSequentially(\"kim@shop.example\");".to_owned(),
        "await page.getByRole(\"row\", { name: \"Toyota RAV4 29000 Edit\", exact: true }).getByRole(\"button\", { name: \"Edit\", exact: true }).click();".to_owned(),
        "await page.getByRole(\"link\", { name: \"More\", exact: true }).nth(1).click();".to_owned(),
        "await page.getByRole(\"combobox\", { name: \"Size\", exact: true }).selectOption([\"M\"]);".to_owned(),
        "await page.getByRole(\"checkbox\", { name: \"Gift wrap\", exact: true }).setChecked(true);".to_owned(),
        "await page.getByRole(\"dialog\", { name: \"Confirm\", exact: true }).getByRole(\"button\", { name: \"OK\", exact: true }).click();".to_owned(),
        "await page.getByRole(\"button\", { name: \"Subscribe\", exact: true }).click();".to_owned(),
        "await page.frameLocator(\"#card-frame\").getByRole(\"textbox\", { name: \"Card number\", exact: true }).fill(process.env.CARD ?? '');".to_owned(),
        "await page.frameLocator(\"#card-frame\").getByRole(\"button\", { name: \"Pay\", exact: true }).click();".to_owned(),
        "await expect(page.getByText(\"ok-dialog\").first()).toBeVisible();".to_owned(),
        "await page.getByRole(\"textbox\", { name: \"Email\", exact: true }).press(\"Enter\");".to_owned(),
        "// (it failed, so it is not replayed)".to_owned(),
        format!("await page.goto({});", serde_json::to_string(&format!("{url}?again"))?),
        "await page.getByRole(\"textbox\", { name: \"Email\", exact: true }).dblclick();".to_owned(),
        "await page.getByRole(\"button\", { name: \"OK\", exact: true }).nth(1).click({ button: 'right' });".to_owned(),
        "await page.mouse.click(5, 5);".to_owned(),
        "await page.mouse.move(10, 10);".to_owned(),
        "await page.locator(\"#drag-src\").dragTo(page.locator(\"#drop-zone\"));".to_owned(),
        "await page.locator(\"#upload\").setInputFiles(\"receipt.txt\");".to_owned(),
        "await page.goBack();".to_owned(),
        "await expect(page).toHaveURL(new RegExp(\"^.*\\\\/shop\\\\.html$\"));".to_owned(),
    ];
    for line in &written {
        ensure!(spec.contains(line.as_str()), "{line}\nnot in\n{spec}");
    }
    ensure!(
        spec.contains("await page.locator(\"div.chip\").click();"),
        "the chip by its class, as a person writes it: {spec}"
    );
    ensure!(
        spec.contains("await page.locator(\"div.receipt\").click();"),
        "the receipt by its class, not by its test id (the secret): {spec}"
    );
    ensure!(
        !spec.contains(CARD) && !spec.contains("7f3e"),
        "the secret's value: {spec}"
    );
    type_checks(std::slice::from_ref(&spec))?;
    a.close().await?;
    Ok(())
}

/// `tsc --noEmit --strict` against the pinned `@playwright/test` and `@types/node` types,
/// each file named as Playwright runs it; one run for them all (each of tsc's runs starts
/// Node and reads the types: a second or two).
fn type_checks(specs: &[String]) -> anyhow::Result<()> {
    let modules = claudezilla_e2e::widgets_dir().join("node_modules");
    let tsc = modules.join(".bin/tsc");
    ensure!(
        tsc.exists(),
        "{} is missing: cargo xtask test installs it",
        tsc.display()
    );
    let dir = tempfile::tempdir()?;
    let files: Vec<String> = (1..=specs.len())
        .map(|n| format!("step{n}.spec.ts"))
        .collect();
    for (file, spec) in files.iter().zip(specs) {
        std::fs::write(dir.path().join(file), spec)?;
    }
    std::os::unix::fs::symlink(&modules, dir.path().join("node_modules"))?;
    let config = json!({
        "compilerOptions": {"strict": true, "noEmit": true, "target": "es2022",
            "module": "esnext", "moduleResolution": "bundler", "types": ["node"],
            "skipLibCheck": true},
        "files": files,
    });
    std::fs::write(dir.path().join("tsconfig.json"), config.to_string())?;
    let out = std::process::Command::new(&tsc)
        .args(["-p", "tsconfig.json"])
        .current_dir(dir.path())
        .output()?;
    // tsc names the file of each error: stepN is the Nth spec.
    ensure!(
        out.status.success(),
        "tsc: {}{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
        files
            .iter()
            .zip(specs)
            .map(|(file, spec)| format!("--- {file}\n{spec}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    Ok(())
}

/// Widget pages whose controls the real-widgets test names.
const WIDGETS: [&str; 7] = [
    "/composite/ag-grid.html",
    "/composite/data-grid.html",
    "/composite/leaflet.html",
    "/composite/ol.html",
    "/composite/day-picker.html",
    "/composite/vanilla-calendar.html",
    "/composite/micromodal.html",
];
/// Controls named on each widget page (spread over its snapshot).
const PER_PAGE: usize = 8;

/// Controls of real widget libraries (two data grids, two maps, two calendars, a modal), each
/// hovered in a trace of its own: its test file's locator resolves, through `firefox_find`
/// right after, to the control hovered, and every file type-checks.
pub async fn real_widgets_get_locators_that_resolve(
    s: Arc<crate::composite::Site>,
) -> anyhow::Result<()> {
    let project = tempfile::tempdir_in(s.browser.path())?;
    let a = s
        .browser
        .agent_in("codegen-widgets", project.path())
        .await?;
    let (mut specs, mut failures) = (Vec::new(), Vec::new());
    let (mut by_role, mut by_css, mut unchecked) = (0, 0, 0);
    for path in WIDGETS {
        let tab = a.open(&s.url(path)).await?;
        let snapshot = said(&a, "firefox_snapshot", json!({"tabId": tab})).await?;
        let mut refs: Vec<&str> = snapshot.split_whitespace().filter(|w| is_ref(w)).collect();
        refs.dedup();
        let step = refs.len().div_ceil(PER_PAGE).max(1);
        for r in refs.iter().step_by(step) {
            call(&a, "firefox_trace", json!({"action": "start"})).await?;
            let hovered = a
                .call("firefox_hover", json!({"tabId": tab, "ref": r}))
                .await?;
            let file = format!("step{}.ts", specs.len() + 1);
            call(
                &a,
                "firefox_trace",
                json!({"action": "stop", "path": format!("step{}.html", specs.len() + 1), "test": file}),
            )
            .await?;
            let spec = std::fs::read_to_string(project.path().join(&file))?;
            if hovered.is_error {
                specs.push(spec);
                continue;
            }
            let locator = spec.lines().find_map(Locator::read);
            match locator {
                None => failures.push(format!("{path} {r}: no locator in\n{spec}")),
                Some(l) => match l.resolve(&a, tab).await {
                    Ok(found) if found == *r => {
                        if l.css.is_some() {
                            by_css += 1;
                        } else {
                            by_role += 1;
                        }
                    }
                    Ok(found) => failures.push(format!("{path}: {l:?} finds {found}, not {r}")),
                    // A CSS path numbered among its matches: firefox_find cannot check it.
                    Err(_) if l.css.is_some() && l.nth.is_some() => unchecked += 1,
                    Err(e) => failures.push(format!("{path} {r}: {l:?}: {e:#}")),
                },
            }
            specs.push(spec);
        }
    }
    ensure!(failures.is_empty(), "{failures:#?}");
    ensure!(
        by_role >= 30,
        "most controls are named by role: {by_role} by role, {by_css} by CSS, {unchecked} unchecked"
    );
    type_checks(&specs)?;
    a.close().await?;
    Ok(())
}
