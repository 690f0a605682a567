//! `firefox_audit`: axe-core's findings on pages with known violations, in every frame, each
//! element a ref the agent can act on; the page itself never sees axe; another agent's tab is
//! refused; the whole audit goes to a file on request.

use std::collections::HashMap;
use std::sync::Arc;

use anyhow::ensure;
use claudezilla_e2e::pages::Page;
use serde_json::json;

use crate::common::{Shared, call, said};
use crate::composite::Site;

/// Images without a text alternative on the broken page (more than one answer lists).
const BARE_IMAGES: usize = 7;

pub fn pages() -> HashMap<&'static str, Page> {
    let images: String = (0..BARE_IMAGES)
        .map(|n| format!("<img id=bare{n} src=/audit/px.svg width=8 height=8>"))
        .collect();
    HashMap::from([
        (
            "/audit/broken.html",
            Page::html(format!(
                "<!doctype html><html lang=en><title>Broken</title>\
                 <p>Words outside every landmark</p><main><h1>Shop</h1>{images}\
                 <button id=icon><svg width=10 height=10></svg></button>\
                 <input id=unlabelled><input type=password value=hunter2-5f1c>\
                 <p id=faint style='color:#ccc;background:#fff'>Barely readable words</p>\
                 <p id=seen>page world sees axe: unknown</p>\
                 <iframe id=fr title=Embedded></iframe><div id=shadowhost></div></main>\
                 <script>\
                 document.getElementById('fr').src = 'http://localhost:' + location.port + '/audit/framed.html';\
                 document.getElementById('shadowhost').attachShadow({{mode: 'open'}}).innerHTML =\
                   '<iframe title=Shadowed src=/audit/shadowed.html></iframe>';\
                 setInterval(() => document.getElementById('seen').textContent =\
                   'page world sees axe: ' + typeof window.axe, 50);\
                 </script>"
            )),
        ),
        (
            "/audit/framed.html",
            Page::html(
                "<!doctype html><html lang=en><title>Framed</title><main>\
                 <img id=inner src=/audit/px.svg width=8 height=8><a href=/x id=empty></a></main>",
            ),
        ),
        (
            "/audit/shadowed.html",
            Page::html(
                "<!doctype html><html lang=en><title>Shadowed</title><main>\
                 <button id=shadowed-btn></button></main>",
            ),
        ),
        (
            "/audit/clean.html",
            Page::html(
                "<!doctype html><html lang=en><title>Clean</title><main><h1>All fine</h1>\
                 <img src=/audit/px.svg alt='A dot' width=8 height=8>\
                 <label>Name <input></label><button>Send</button></main>",
            ),
        ),
        (
            "/audit/px.svg",
            Page::svg("<svg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/>"),
        ),
    ])
}

/// The refs listed under a rule's heading line (`[impact] rule: …`), up to the next rule.
fn refs_of(answer: &str, rule: &str) -> Vec<String> {
    let Some(at) = answer.find(&format!("] {rule}: ")) else {
        return Vec::new();
    };
    answer[at..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|r| r.chars().last().is_some_and(|c| c.is_ascii_digit()))
        .map(str::to_owned)
        .collect()
}

/// Known violations in the page and in its frame from another origin, by impact, each element
/// a ref that resolves to the element axe flagged; the rule sets filter; the page's own world
/// never sees axe; a clean page says so.
pub async fn finds_known_violations_in_every_frame(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("audit", "/audit/broken.html").await?;
    call(
        &a,
        "firefox_wait_for",
        json!({"tabId": tab, "text": "page world sees axe: undefined"}),
    )
    .await?;
    let answer = said(&a, "firefox_audit", json!({"tabId": tab})).await?;
    ensure!(
        answer.starts_with("Accessibility audit of http://127.0.0.1:")
            && answer.contains("axe-core 4.")
            && answer.contains("3 frame(s)"),
        "{answer}"
    );
    for (impact, rule) in [
        ("critical", "image-alt"),
        ("critical", "button-name"),
        ("critical", "label"),
        ("serious", "color-contrast"),
        ("serious", "link-name"),
    ] {
        ensure!(
            answer.contains(&format!("[{impact}] {rule}: ")),
            "{rule} is {impact}: {answer}"
        );
    }
    // A password field's markup (its value attribute here) is never shown.
    ensure!(
        !answer.contains("hunter2") && answer.contains("<input> (holds a password field"),
        "{answer}"
    );
    // Most harmful first; only WCAG and best-practice tags; each frame audited by us, so
    // axe's reminder to test frames is not passed on.
    let first_serious = answer.find("[serious]").unwrap_or(0);
    ensure!(
        answer
            .rfind("[critical]")
            .is_some_and(|c| c < first_serious)
            && answer.contains("(wcag2a, wcag111)")
            && !answer.contains("frame-tested"),
        "{answer}"
    );
    // The page's seven bare images and the frame's one: five listed, the rest counted.
    let images = refs_of(&answer, "image-alt");
    ensure!(
        answer.contains(&format!("— {} element(s)", BARE_IMAGES + 1))
            && images.len() == 5
            && answer.contains("… 3 more (raise perRule to list them)"),
        "{images:?} {answer}"
    );
    let element = said(
        &a,
        "firefox_get_element",
        json!({"tabId": tab, "ref": images[0]}),
    )
    .await?;
    ensure!(element.contains("bare0"), "{element}");
    // The frame's own link, by a ref into that frame.
    let links = refs_of(&answer, "link-name");
    ensure!(
        links.len() == 1 && links[0].starts_with('f'),
        "{links:?} {answer}"
    );
    let link = said(
        &a,
        "firefox_get_element",
        json!({"tabId": tab, "ref": links[0]}),
    )
    .await?;
    ensure!(link.contains("empty"), "{link}");
    let button = refs_of(&answer, "button-name");
    // The frame inside an open shadow root is audited too.
    let shadowed = button.iter().find(|r| r.starts_with('f'));
    let shadowed = match shadowed {
        Some(r) => said(&a, "firefox_get_element", json!({"tabId": tab, "ref": r})).await?,
        None => anyhow::bail!("no button-name finding in the shadow root's frame: {answer}"),
    };
    ensure!(shadowed.contains("shadowed-btn"), "{shadowed}");
    let clicked = said(&a, "firefox_click", json!({"tabId": tab, "ref": button[0]})).await?;
    ensure!(clicked.contains("button"), "{clicked}");

    // axe ran in the content scripts' world: the page's never saw it.
    let seen = said(
        &a,
        "firefox_get_content",
        json!({"tabId": tab, "selector": "#seen"}),
    )
    .await?;
    ensure!(seen.contains("page world sees axe: undefined"), "{seen}");

    // Only the rule sets asked for: best practices have no image-alt (a WCAG A rule).
    let practices = said(
        &a,
        "firefox_audit",
        json!({"tabId": tab, "rules": ["best-practice"], "perRule": 1}),
    )
    .await?;
    ensure!(
        !practices.contains("image-alt") && practices.contains("best-practice"),
        "{practices}"
    );
    let clean = a.open(&s.pages.url("/audit/clean.html")).await?;
    let fine = said(&a, "firefox_audit", json!({"tabId": clean})).await?;
    ensure!(fine.contains("No rule broken among those run."), "{fine}");
    a.close().await?;
    Ok(())
}

/// An audit is a read of the agent's own tabs: another agent's is refused; bad arguments are
/// said; the whole audit goes to a file, every element listed.
pub async fn audits_stay_in_the_agents_tabs_and_go_to_files(s: Arc<Shared>) -> anyhow::Result<()> {
    let project = tempfile::tempdir_in(s.browser.path())?;
    let a = s.agent_in("auditor", project.path()).await?;
    let tab = a.open(&s.pages.url("/audit/broken.html")).await?;
    let other = s.agent("bystander").await?;
    let refused = other.call("firefox_audit", json!({"tabId": tab})).await?;
    ensure!(
        refused.is_error && refused.text.contains("owned by"),
        "{refused:?}"
    );
    let bad = a
        .call("firefox_audit", json!({"tabId": tab, "rules": ["wcag9"]}))
        .await?;
    ensure!(
        bad.is_error && bad.text.contains("wcag2aa"),
        "the error names the sets there are: {bad:?}"
    );
    let written = said(
        &a,
        "firefox_audit",
        json!({"tabId": tab, "outputFile": "audit.txt"}),
    )
    .await?;
    let out = project.path().canonicalize()?.join("claudezilla-output");
    let file = std::fs::read_to_string(out.join("audit.txt"))?;
    ensure!(written.starts_with("Wrote "), "{written}");
    ensure!(
        refs_of(&file, "image-alt").len() == BARE_IMAGES + 1 && !file.contains("more (raise"),
        "every element in the file: {file}"
    );
    other.close().await?;
    a.close().await?;
    Ok(())
}

/// Every ref an audit lists names the element axe flagged: its markup (`<tag …`) is the
/// element's that `firefox_get_element` describes.
async fn refs_resolve(a: &claudezilla_e2e::Agent, tab: u32, answer: &str) -> anyhow::Result<usize> {
    let mut checked = 0;
    for line in answer.lines().filter(|l| l.starts_with("  ")) {
        let mut words = line.split_whitespace();
        let (Some(reference), Some(markup)) = (words.next(), words.next()) else {
            continue;
        };
        let Some(tag) = markup.strip_prefix('<') else {
            continue;
        };
        let tag: String = tag
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        let element = said(
            a,
            "firefox_get_element",
            json!({"tabId": tab, "ref": reference}),
        )
        .await?;
        ensure!(
            element.contains(&format!("\"tag\": \"{tag}\"")),
            "{reference} is the <{tag}> axe flagged: {element}\n{answer}"
        );
        checked += 1;
    }
    Ok(checked)
}

/// Real widget libraries (ag-grid, Leaflet, React DayPicker) and the WPT accname pages, none
/// written for an audit: each is audited, and every element listed is the one its ref names.
pub async fn real_pages_are_audited_with_refs_that_resolve(s: Arc<Site>) -> anyhow::Result<()> {
    const WPT: [&str; 3] = [
        "comp_embedded_control.html",
        "comp_labelledby.html",
        "comp_tooltip.html",
    ];
    let mut pages = HashMap::new();
    for page in WPT {
        let html = std::fs::read_to_string(crate::accname::suite_dir().join(page))?;
        pages.insert(format!("/wpt/{page}").leak() as &str, Page::html(html));
    }
    let wpt = claudezilla_e2e::PageServer::start(pages).await?;
    let widgets = [
        "/composite/ag-grid.html",
        "/composite/leaflet.html",
        "/composite/day-picker.html",
    ]
    .map(|path| s.url(path));
    let urls = widgets
        .into_iter()
        .chain(WPT.map(|page| wpt.url(&format!("/wpt/{page}"))));
    let a = s.browser.agent("audit-widgets").await?;
    let mut checked = 0;
    for url in urls {
        let tab = a.open(&url).await?;
        let answer = said(&a, "firefox_audit", json!({"tabId": tab, "perRule": 3})).await?;
        ensure!(answer.starts_with("Accessibility audit of "), "{answer}");
        checked += refs_resolve(&a, tab, &answer).await?;
    }
    ensure!(
        checked >= 6,
        "some elements were flagged and checked: {checked}"
    );
    a.close().await?;
    Ok(())
}
