//! Issue 10: hostile pages and clients. Each attack gets its safe answer, and the browser link
//! stays up afterwards: the same host process, and another agent's call still answered.

use claudezilla_protocol::reply;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail, ensure};
use claudezilla_e2e::browser::Options;
use claudezilla_e2e::pages::Page;
use claudezilla_e2e::raw::first_answer;
use claudezilla_e2e::{Agent, Browser, PageServer, RawClient, eventually};
use claudezilla_protocol::{AgentId, Command, ErrorCode, HostMessage, Reply};
use serde_json::json;

use crate::common::{Shared, call, runtime_linked_to, text_of};

use claudezilla_protocol::POOL_LIMIT;

pub fn pages() -> HashMap<&'static str, Page> {
    HashMap::from([
        (
            "/attack/upload.html",
            Page::html(
                "<!doctype html><title>Upload</title><input type=file id=f>\
                 <p id=got>none</p><script>document.getElementById('f').onchange = e => \
                 document.getElementById('got').textContent = [...e.target.files].map(f => f.name + ' ' + f.size).join()</script>",
            ),
        ),
        (
            "/attack/huge.html",
            Page::html(
                "<!doctype html><title>Huge</title><main id=m></main><script>\
                 const pad = n => 'a'.repeat(n); document.title = pad(1000000);\
                 const m = document.getElementById('m');\
                 for (let i = 0; i < 60; i++) { const a = document.createElement('a'); a.href = '/x?' + pad(300000); a.textContent = 'link ' + i; m.append(a);\
                   const b = document.createElement('button'); b.textContent = pad(100000); m.append(b);\
                   const img = document.createElement('img'); img.src = '/i?' + pad(300000); m.append(img); }\
                 const many = document.createElement('div'); many.id = 'many';\
                 for (let i = 0; i < 5000; i++) many.setAttribute('data-a' + i + pad(50), pad(500)); m.append(many);\
                 </script>",
            ),
        ),
        (
            "/attack/foreign-fields.html",
            Page::html(
                r#"<!doctype html><title>Foreign fields</title>
<button id=pay>Pay <math><input><textarea>t</textarea></math> now</button>
<a id=go href=/attack/foreign-fields.html>Go <span id=in-svg></span> there</a>
<script>
const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
svg.appendChild(document.createElementNS('http://www.w3.org/2000/svg', 'input'));
svg.appendChild(document.createElementNS('http://www.w3.org/2000/svg', 'select'));
document.getElementById('in-svg').appendChild(svg);
</script>"#,
            ),
        ),
        (
            "/attack/foreign-slot.html",
            Page::html(
                r#"<!doctype html><title>Foreign slot</title>
<button id=pay>Pay <span id=in-svg></span> now</button>
<script>
const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
svg.appendChild(document.createElementNS('http://www.w3.org/2000/svg', 'slot'));
document.getElementById('in-svg').appendChild(svg);
</script>"#,
            ),
        ),
        (
            "/attack/foreign-controls.html",
            Page::html(
                r##"<!doctype html><title>Foreign controls</title>
<p>Shapes</p>
<svg width=200 height=60>
<button aria-label="Svg button">Delete</button>
<select aria-label="Svg select"></select>
<textarea aria-label="Svg text"></textarea>
<nav aria-label="Svg nav"></nav>
<summary>Svg summary</summary>
<a href="#drawn"><text x=5 y=20>Drawn link</text></a>
<a xlink:href="#old"><text x=5 y=40>Old link</text></a>
</svg>
<math><mi>x</mi><label>Math label</label></math>
<button>Real</button>
<script>
const h = document.createElementNS('http://www.w3.org/2000/svg', 'h2');
h.textContent = 'Svg heading';
document.querySelector('svg').append(h);
</script>"##,
            ),
        ),
        (
            "/attack/leaving-field.html",
            Page::html(
                r#"<!doctype html><title>Leaving field</title>
<svg class="icon sprite" id=logo width=10 height=10><rect width=10 height=10 /></svg>
<span id=l>Your name</span>
<input id=i aria-labelledby=l onclick="this.remove()">"#,
            ),
        ),
        (
            "/attack/deep-name.html",
            Page::html(
                "<!doctype html><title>Deep name</title><main id=m></main><script>\
                 const link = document.createElement('a'); link.href = '#x'; link.id = 'deep';\
                 let at = link; for (let i = 0; i < 5000; i++) { const s = document.createElement('span'); at.append(s); at = s; }\
                 at.textContent = 'bottom words';\
                 document.getElementById('m').append(link);\
                 const b = document.createElement('button'); b.textContent = 'Plain'; document.getElementById('m').append(b);\
                 </script>",
            ),
        ),
        (
            "/attack/odd-tree.html",
            Page::html(
                "<!doctype html><title>Odd tree</title><main id=m></main><script>\
                 const m = document.getElementById('m');\
                 for (let i = 0; i < 1100; i++) { const e = document.createElement('x-odd-' + i); e.textContent = 'odd ' + i; m.append(e); }\
                 const late = document.createElement('h6'); late.textContent = 'Late heading'; m.append(late);\
                 const link = document.createElement('a'); link.href = '#late'; link.textContent = 'late link'; m.append(link);\
                 m.append(document.createProcessingInstruction('input', 'not an element'), document.createComment('input'));\
                 const row = document.createElement('div'); m.append(row);\
                 for (let i = 0; i < 150; i++) { const b = document.createElement('button'); b.textContent = 'wide ' + i; row.append(b); }\
                 const host = document.createElement('div'); m.append(host);\
                 const root = host.attachShadow({mode: 'open'});\
                 root.innerHTML = '<div role=button aria-label=\"shadow marked\">x</div><slot></slot><section></section>';\
                 root.querySelector('section').attachShadow({mode: 'open'}).innerHTML = '<span role=switch aria-label=\"deep marked\" aria-checked=true></span>';\
                 host.innerHTML = '<span role=link tabindex=0>slotted marked</span>';\
                 const table = document.createElement('table'); m.append(table);\
                 table.innerHTML = '<tr aria-expanded=true><td aria-disabled=true>15</td><td required>16</td></tr>';\
                 let deep = m; for (let i = 0; i < 3000; i++) { const d = document.createElement('div'); deep.append(d); deep = d; }\
                 deep.innerHTML = '<button>deep button</button>';\
                 Object.defineProperty(Node.prototype, 'firstChild', {get() { return null; }});\
                 Object.defineProperty(Node.prototype, 'nextSibling', {get() { return null; }});\
                 Object.defineProperty(Node.prototype, 'textContent', {get() { return 'lie'; }});\
                 Element.prototype.getAttribute = () => 'lie';\
                 Element.prototype.checkVisibility = () => false;\
                 Element.prototype.matches = () => true;\
                 </script>",
            ),
        ),
        (
            "/attack/hidden-words.html",
            // Words a person does not see, hidden every way a stylesheet can: each TRAP must
            // stay out of every read. The card's shadow root puts the text read on its path
            // node by node (where `innerText` is not asked).
            Page::html(
                "<!doctype html><title>Hidden words</title>\
                 <style>.gone{display:none} .ghost{visibility:hidden} .back{visibility:visible}</style>\
                 <p>Plain words <span class=gone>TRAP-SPAN</span>shown.</p>\
                 <div class=ghost>TRAP-GHOST <a href=/x>TRAP-GHOST-LINK</a> <b class=back>back in view</b></div>\
                 <h2>Heading words<span class=gone>TRAP-HEADING</span></h2>\
                 <p><a href=/y>Link words<span class=gone>TRAP-LINK</span></a></p>\
                 <pre>code words<span class=gone>TRAP-PRE</span></pre>\
                 <table><tr><th>Name</th><th class=gone>TRAP-CELL</th></tr>\
                 <tr><td>Row words</td></tr><tr class=gone><td>TRAP-ROW</td></tr></table>\
                 <section id=path><details><summary>Summary words</summary>TRAP-DETAILS<x-card></x-card></details>\
                 <div class=ghost>TRAP-PATH-GHOST<x-card></x-card></div></section>\
                 <iframe src=/attack/frame-words.html></iframe><iframe class=ghost src=/attack/frame-trap.html></iframe>\
                 <div id=gone-root class=gone>TRAP-ROOT <span style=display:contents>TRAP-ROOT-CONTENTS</span></div>\
                 <div style=content-visibility:hidden>TRAP-SKIPPED <a href=/z>TRAP-SKIPPED-LINK</a></div>\
                 <div style=content-visibility:hidden>TRAP-SKIPPED-PATH<x-card></x-card></div>\
                 <p>Before the host <x-words style=display:block;content-visibility:hidden></x-words></p>\
                 <p>An inline box <span style=content-visibility:hidden>inline words</span> shows its words.</p>\
                 <div hidden=until-found>TRAP-UNTIL-FOUND</div>\
                 <div style=content-visibility:hidden><span style=display:contents>TRAP-SKIPPED-CONTENTS</span></div>\
                 <script>for (const card of document.querySelectorAll('x-card'))\
                 card.attachShadow({mode: 'open'}).innerHTML = '<i>TRAP-CARD</i>';\
                 document.querySelector('x-words').attachShadow({mode: 'open'}).textContent = 'TRAP-SHADOW-WORDS';</script>",
            ),
        ),
        (
            "/attack/frame-words.html",
            Page::html("<!doctype html><title>Frame</title><p>frame words</p>"),
        ),
        (
            "/attack/frame-trap.html",
            Page::html("<!doctype html><title>Frame</title><p>TRAP-FRAME</p>"),
        ),
        (
            "/attack/huge-net.html",
            Page::html(
                "<!doctype html><title>Huge network</title><p id=done>waiting</p><script>\
                 const pad = 'p'.repeat(60000); Promise.all([...Array(150).keys()].map(i => \
                 fetch('/dev/data.json?n=' + i + '&pad=' + pad).catch(() => 0)))\
                 .then(() => document.getElementById('done').textContent = 'fetched')</script>",
            ),
        ),
        (
            "/attack/frames.html",
            Page::html(format!(
                "<!doctype html><title>Frames</title>{}",
                "<iframe src=/attack/frame-big.html></iframe>".repeat(8)
            )),
        ),
        (
            "/attack/frame-big.html",
            Page::html(format!(
                "<!doctype html><title>Big frame</title>{}",
                (0..3000)
                    .map(|i| format!("<button>frame button {i}</button>"))
                    .collect::<String>()
            )),
        ),
        (
            "/attack/wide.html",
            Page::html(
                "<!doctype html><title>Wide</title>\
                 <div style='width:30000px;height:200000px;background:linear-gradient(red,blue)'></div>",
            ),
        ),
        (
            "/attack/giant.html",
            Page::html(
                "<!doctype html><title>Giant</title>\
                 <div id=giant style='width:20000px;height:1000000px;background:linear-gradient(red,blue)'></div>",
            ),
        ),
        (
            "/attack/ticker.html",
            Page::html(
                "<!doctype html><title>Ticker</title><input id=box><script>\
                 const n = Number(location.search.slice(1)) || 0;\
                 setTimeout(() => location.replace('/attack/ticker.html?' + (n + 1)), 100)</script>",
            ),
        ),
        (
            // One text node past the size cap, and text after it.
            "/attack/find.html",
            Page::html(
                "<!doctype html><title>Find</title><p id=huge></p><p id=after>after-the-cap-6c1d</p><script>\
                 document.getElementById('huge').textContent = 'a '.repeat(2500000) + 'end-of-node-4e2a'</script>",
            ),
        ),
        (
            "/attack/secrets.html",
            Page::html(
                "<!doctype html><title>Secrets</title><p id=done>waiting</p><script>\
                 fetch('/dev/data.json?sid=SID1&PHPSESSID=PHP2&ticket=TKT3&page=4')\
                 .then(() => document.getElementById('done').textContent = 'fetched')</script>",
            ),
        ),
    ])
}

/// The browser link is still up: the same host process, and another agent's call answered.
async fn link_up(s: &Shared, host: &[i32]) -> anyhow::Result<()> {
    ensure!(
        s.browser.host_pids() == host,
        "the host changed: {host:?} → {:?}",
        s.browser.host_pids()
    );
    let bystander = s.agent("bystander").await?;
    bystander
        .call("firefox_get_tabs", json!({}))
        .await?
        .ok()
        .context("another agent's call after the attack")?;
    bystander.close().await?;
    Ok(())
}

fn host_of(s: &Shared) -> anyhow::Result<Vec<i32>> {
    let pids = s.browser.host_pids();
    ensure!(pids.len() == 1, "one host expected: {pids:?}");
    Ok(pids)
}

pub async fn files_stay_inside_the_allowed_folders(s: Arc<Shared>) -> anyhow::Result<()> {
    let host = host_of(&s)?;
    let project = tempfile::tempdir()?;
    let outside = tempfile::tempdir()?;
    let secret = outside.path().join("id_ed25519");
    std::fs::write(&secret, "PRIVATE KEY")?;
    let home = outside.path().join("home");
    std::fs::create_dir(&home)?;
    std::fs::write(home.join(".bashrc"), "the user's bashrc")?;
    std::os::unix::fs::symlink(&secret, project.path().join("innocent.txt"))?;
    std::os::unix::fs::symlink(outside.path(), project.path().join("out"))?;
    let fifo = project.path().join("pipe");
    let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes())?;
    // SAFETY: a valid path string.
    ensure!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) } == 0);

    let a = s.agent_in("files", project.path()).await?;
    let tab = a.open(&s.pages.url("/attack/upload.html")).await?;
    let upload = async |path: &std::path::Path| {
        a.call(
            "firefox_upload_file",
            json!({"tabId": tab, "selector": "#f", "path": path, "timeout": 10000}),
        )
        .await
    };
    for path in [
        secret.as_path(),
        &project.path().join("innocent.txt"),
        std::path::Path::new("/proc/self/environ"),
        &project.path().join("out/id_ed25519"),
    ] {
        let r = upload(path).await?;
        let text = r.expect_error("NOT_ALLOWED")?;
        ensure!(
            text.contains("--allow-dir"),
            "the refusal says how to allow: {text}"
        );
    }
    // A FIFO would block a reader for ever: refused as not a regular file, at once.
    upload(&fifo).await?.expect_error("INVALID_ARGUMENT")?;
    let got = text_of(&a, tab, "#got").await?;
    ensure!(got.contains("none"), "something was attached: {got:?}");

    let save = async |path: &std::path::Path| {
        a.call(
            "firefox_screenshot",
            json!({"tabId": tab, "savePath": path, "overwrite": true, "skipReadiness": true}),
        )
        .await
    };
    for path in [
        std::path::Path::new("/proc/self/fd/1"),
        &home.join(".bashrc"),
        &project.path().join("out/shot.jpg"),
    ] {
        save(path).await?.expect_error("NOT_ALLOWED")?;
    }
    ensure!(std::fs::read_to_string(home.join(".bashrc"))? == "the user's bashrc");
    ensure!(!outside.path().join("shot.jpg").exists());
    // Inside the project it works, and replaces a symlink rather than writing through it.
    std::os::unix::fs::symlink(&secret, project.path().join("shot.jpg"))?;
    save(&project.path().join("shot.jpg")).await?.ok()?;
    ensure!(std::fs::read_to_string(&secret)? == "PRIVATE KEY");
    ensure!(std::fs::read(project.path().join("shot.jpg"))?.starts_with(&[0xFF, 0xD8]));
    a.close().await?;
    link_up(&s, &host).await
}

/// A link whose words lie 5,000 elements deep (past what a name reads): every read and a
/// click on it answer.
pub async fn deep_names_are_answered(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("deep-name", "/attack/deep-name.html").await?;
    let snap = call(&a, "firefox_snapshot", json!({"tabId": tab})).await?;
    ensure!(
        snap.text.contains("link e1") && snap.text.contains("button \"Plain\""),
        "{snap:?}"
    );
    let found = call(&a, "firefox_find", json!({"tabId": tab, "role": "link"})).await?;
    ensure!(found.text.starts_with("1 of 1"), "{found:?}");
    let text = call(&a, "firefox_get_content", json!({"tabId": tab})).await?;
    ensure!(text.text.contains("Plain"), "{text:?}");
    let clicked = call(
        &a,
        "firefox_click",
        json!({"tabId": tab, "selector": "#deep"}),
    )
    .await?;
    ensure!(clicked.text.starts_with("Clicked a#deep"), "{clicked:?}");
    Ok(())
}

/// A selector missed on a page whose SVG has a class (its `className` is no string), and a
/// labelled field that removes itself when clicked: both answered, neither left unanswered.
pub async fn odd_elements_do_not_leave_a_call_unanswered(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("leaving", "/attack/leaving-field.html").await?;
    let missed = a
        .call(
            "firefox_click",
            json!({"tabId": tab, "selector": "#nowhere", "timeout": 5000}),
        )
        .await?;
    ensure!(
        missed.is_error && missed.text.starts_with("ELEMENT_NOT_FOUND"),
        "a miss: {missed:?}"
    );
    let clicked = a
        .call(
            "firefox_click",
            json!({"tabId": tab, "selector": "#i", "timeout": 5000}),
        )
        .await?;
    ensure!(!clicked.text.starts_with("TIMEOUT"), "a click: {clicked:?}");
    Ok(())
}

/// Elements named like HTML ones in another namespace (`<math><input>`, an SVG `select` or
/// `slot`) inside what is being named: the names are read, not thrown out of.
pub async fn foreign_fields_in_a_name_do_not_break_reads(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("foreign", "/attack/foreign-fields.html").await?;
    for page in ["/attack/foreign-slot.html", "/attack/foreign-fields.html"] {
        let url = s.pages.url(page);
        a.call("firefox_navigate", json!({"tabId": tab, "url": url}))
            .await?
            .ok()?;
        let snap = a
            .call("firefox_snapshot", json!({"tabId": tab, "timeout": 5000}))
            .await?
            .ok()
            .with_context(|| format!("the snapshot of {page}"))?
            .text;
        ensure!(snap.contains("button \"Pay"), "{page}: {snap}");
        if page.ends_with("fields.html") {
            ensure!(snap.contains("link \"Go"), "{page}: {snap}");
        }
        let found = a
            .call(
                "firefox_find",
                json!({"tabId": tab, "role": "button", "timeout": 5000}),
            )
            .await?
            .ok()
            .with_context(|| format!("firefox_find on {page}"))?
            .text;
        ensure!(found.contains("Pay"), "{page}: {found}");
        let text = a
            .call(
                "firefox_get_content",
                json!({"tabId": tab, "timeout": 5000}),
            )
            .await?
            .ok()
            .with_context(|| format!("the text of {page}"))?;
        ensure!(text.text.contains("Pay"), "{page}: {text:?}");
    }
    Ok(())
}

/// Elements of SVG or MathML named like HTML's controls (`<svg><button>`, `<svg><select>`) are
/// no controls: a page cannot list a fake button the agent is given a ref to click. SVG's own
/// link keeps its role (SVG-AAM), and so does MathML's `math`.
pub async fn foreign_elements_are_not_html_controls(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s
        .agent_at("foreign-ctl", "/attack/foreign-controls.html")
        .await?;
    let snap = call(&a, "firefox_snapshot", json!({"tabId": tab}))
        .await?
        .text;
    ensure!(snap.contains("button \"Real\" e"), "{snap}");
    ensure!(snap.contains("link \"Drawn link\" e"), "{snap}");
    ensure!(snap.contains("link \"Old link\" e"), "{snap}");
    for fake in [
        "Svg button",
        "Svg select",
        "Svg text",
        "Svg nav",
        "Svg summary",
        "Svg heading",
        "Math label",
    ] {
        // Named by their author, they are groups; else only their words show. No ref.
        let line = snap.lines().find(|l| l.contains(fake)).map(str::trim);
        let quoted = format!("\"{fake}\"");
        ensure!(
            line.is_some_and(|l| l == quoted || l == format!("group {quoted}")),
            "{fake} listed as {line:?}: {snap}"
        );
    }
    let found = call(&a, "firefox_find", json!({"tabId": tab, "role": "button"}))
        .await?
        .text;
    ensure!(
        found.starts_with("1 of 1") && found.contains("Real"),
        "{found}"
    );
    let fields = a
        .call("firefox_find", json!({"tabId": tab, "role": "combobox"}))
        .await?;
    ensure!(!fields.text.contains("Svg"), "{fields:?}");
    Ok(())
}

/// The snapshot reads a node's children in batches, numbers the tags it meets, and asks which
/// elements are marked of each tree once: a page of more tags than it numbers, of more children
/// than a batch, of nodes that are neither elements nor text, and of marked elements in a
/// shadow root, a nested one and a slot, is read whole and right; a cell marked only by a state
/// stays a cell of its row; 3,000 nested levels stop the walk with a cut, not a crash. The page
/// also patches the DOM prototypes the reads go through: the snapshot reads the real tree.
pub async fn odd_trees_are_read_whole(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("odd", "/attack/odd-tree.html").await?;
    let snap = a
        .call(
            "firefox_snapshot",
            json!({"tabId": tab, "maxChars": 200_000}),
        )
        .await?
        .ok()?
        .text;
    for line in [
        "\"odd 0\"",
        "\"odd 1099\"",
        "h6 \"Late heading\"",
        "link \"late link\"",
        "button \"wide 0\"",
        "button \"wide 149\"",
        "button \"shadow marked\"",
        "link \"slotted marked\"",
        "switch \"deep marked\"",
        "row: \"15\" · \"16\"",
    ] {
        ensure!(
            snap.contains(line),
            "no {line} in:\n{}",
            &snap[snap.len().saturating_sub(3000)..]
        );
    }
    ensure!(
        snap.matches("button \"wide ").count() == 150,
        "every child of a wide parent"
    );
    ensure!(
        !snap.contains("not an element"),
        "a processing instruction is no text"
    );
    Ok(())
}

pub async fn huge_answers_are_bounded(s: Arc<Shared>) -> anyhow::Result<()> {
    let host = host_of(&s)?;
    let (a, tab) = s.agent_at("huge", "/attack/huge.html").await?;
    let state = a
        .call("firefox_get_page_state", json!({"tabId": tab}))
        .await?
        .ok()?;
    ensure!(
        state.text.len() < 1_000_000,
        "page state of {} bytes",
        state.text.len()
    );
    ensure!(state.text.contains("link 49"), "{}", &state.text[..300]);
    let element = a
        .call(
            "firefox_get_element",
            json!({"tabId": tab, "selector": "#many"}),
        )
        .await?
        .ok()?;
    ensure!(
        element.text.len() < 100_000,
        "element of {} bytes",
        element.text.len()
    );
    let tabs = a.call("firefox_list_all_tabs", json!({})).await?.ok()?;
    ensure!(
        tabs.text.len() < 20_000,
        "tab list of {} bytes",
        tabs.text.len()
    );

    let net = a.open(&s.pages.url("/attack/huge-net.html")).await?;
    a.call(
        "firefox_wait_for",
        json!({"tabId": net, "text": "fetched", "timeout": 30000}),
    )
    .await?
    .ok()?;
    let log = a
        .call("firefox_get_network", json!({"tabId": net, "limit": 200}))
        .await?
        .ok()?;
    ensure!(
        log.text.len() < 2_000_000,
        "network log of {} bytes",
        log.text.len()
    );
    // Each request's URL is cut (60,000 characters asked, at most 2,000 kept).
    let longest = log.text.lines().map(str::len).max().unwrap_or(0);
    ensure!(longest < 2_300, "a line of {longest} bytes");
    ensure!(
        log.text.matches("data.json").count() >= 10,
        "{}",
        &log.text[..500]
    );

    let frames = a.open(&s.pages.url("/attack/frames.html")).await?;
    let snap = a
        .call(
            "firefox_snapshot",
            json!({"tabId": frames, "maxChars": 20000}),
        )
        .await?
        .ok()?;
    // The limit is for the whole answer, all frames together (a caption line comes on top).
    ensure!(
        snap.text.len() < 23_000,
        "snapshot of {} bytes",
        snap.text.len()
    );
    ensure!(
        snap.text.contains("frame button 0"),
        "{}",
        &snap.text[..300]
    );

    let wide = a.open(&s.pages.url("/attack/wide.html")).await?;
    let full = a
        .call(
            "firefox_screenshot",
            json!({"tabId": wide, "fullPage": true, "skipReadiness": true, "timeout": 60000}),
        )
        .await?
        .ok()?;
    ensure!(full.text.contains("cut to"), "{}", full.text);
    ensure!(full.images.len() == 1);
    let giant = a.open(&s.pages.url("/attack/giant.html")).await?;
    let element = a
        .call(
            "firefox_screenshot",
            json!({"tabId": giant, "selector": "#giant", "skipReadiness": true, "timeout": 60000}),
        )
        .await?
        .ok()?;
    ensure!(
        element.text.contains("cut to") && element.text.contains("million pixels"),
        "{}",
        element.text
    );
    // The background survived: its next answer comes.
    a.call("firefox_get_tabs", json!({})).await?.ok()?;
    a.close().await?;
    link_up(&s, &host).await
}

pub async fn a_pathological_glob_does_not_stall_others(s: Arc<Shared>) -> anyhow::Result<()> {
    let host = host_of(&s)?;
    let a = s.agent("glob").await?;
    let b = s.agent("glob-b").await?;
    let long = format!("{}?{}", s.pages.url("/other.html"), "a/".repeat(15_000));
    let tab = a.open(&long).await?;
    // A URL longer than an answer shows is still the page asked for: no reloads, no note.
    let went = a
        .call("firefox_navigate", json!({"tabId": tab, "url": long}))
        .await?
        .ok()?;
    let start: String = went.text.chars().take(300).collect();
    ensure!(!went.text.contains("Note:"), "{start}");
    let pattern = format!("{}b", "**a".repeat(660));
    let waiting = async {
        let r = a
            .call(
                "firefox_wait_for",
                json!({"tabId": tab, "url": pattern, "timeout": 5000}),
            )
            .await;
        (r, Instant::now())
    };
    let pinging = async {
        // Start once the glob is being matched.
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let r = b.call("firefox_get_tabs", json!({})).await;
        (r, Instant::now())
    };
    let ((waited, waited_at), (pinged, pinged_at)) = tokio::join!(waiting, pinging);
    waited?.expect_error("TIMEOUT")?;
    pinged?.ok()?;
    ensure!(
        pinged_at < waited_at,
        "the other agent was answered only after the glob"
    );
    a.close().await?;
    b.close().await?;
    link_up(&s, &host).await
}

pub async fn hostile_hellos_are_refused(s: Arc<Shared>) -> anyhow::Result<()> {
    let host = host_of(&s)?;
    let rt = &s.browser.runtime;
    let token = rt.read_token()?;
    let multibyte = format!(
        r#"{{"type":"hello","token":"{token}","agentId":"agent_{}é_1","client":"x"}}"#,
        "a".repeat(31)
    );
    match first_answer(rt, &multibyte).await? {
        Some(HostMessage::Refused(e)) => ensure!(e.code == ErrorCode::AuthFailed, "{e}"),
        other => bail!("a multi-byte id must be refused, not {other:?}"),
    }
    // An agent id already connected is that agent's secret: a second hello with it is refused.
    let mut first = RawClient::connect(rt).await?;
    let id: AgentId = first.agent().clone();
    match RawClient::hello_as(rt, &token, id).await?.1 {
        HostMessage::Refused(e) => {
            ensure!(
                e.code == ErrorCode::AuthFailed && e.message.contains("already"),
                "{e}"
            )
        }
        other => bail!("a duplicate id must be refused, not {other:?}"),
    }
    ensure!(matches!(
        first.call(Command::Ping).await?,
        Ok(Reply::Pong(reply::Pong { .. }))
    ));
    // A thousand silent connections: live agents are still served, new ones after.
    let live = s.agent("flooded").await?;
    let mut idle = Vec::new();
    for _ in 0..1_000 {
        idle.push(tokio::net::UnixStream::connect(rt.socket()).await?);
    }
    live.call("firefox_get_tabs", json!({})).await?.ok()?;
    ensure!(matches!(
        first.call(Command::Ping).await?,
        Ok(Reply::Pong(reply::Pong { .. }))
    ));
    drop(idle);
    live.close().await?;
    link_up(&s, &host).await
}

pub async fn clients_refuse_a_runtime_folder_that_is_not_private(
    s: Arc<Shared>,
) -> anyhow::Result<()> {
    // Another local user's folder, posing as the host's: it leads to the real socket, but it
    // is open to others, so no client sends its token or commands there.
    let fake = runtime_linked_to(&s, "czp", 0o755)?;
    std::fs::copy(
        s.browser.runtime.token(),
        fake.path().join("claudezilla.token"),
    )?;
    let log = s.browser.path().join("mcp-fake-rt.log");
    let a = Agent::spawn_with(
        fake.path(),
        &log,
        &[(
            "CLAUDEZILLA_RUNTIME_DIR",
            fake.path().to_str().context("path")?,
        )],
    )
    .await?;
    let r = a.call("firefox_get_tabs", json!({})).await?;
    ensure!(
        r.expect_error("NOT_CONNECTED")?.contains("not private"),
        "{r:?}"
    );
    a.close().await?;
    let status = std::process::Command::new(claudezilla_e2e::binary("claudezilla-host"))
        .arg("status")
        .env("CLAUDEZILLA_RUNTIME_DIR", fake.path())
        .env("HOME", s.browser.home())
        .output()?;
    let report = String::from_utf8_lossy(&status.stdout);
    ensure!(
        !status.status.success() && report.contains("not private"),
        "{report}"
    );
    Ok(())
}

pub async fn unreachable_addresses_are_load_failures(s: Arc<Shared>) -> anyhow::Result<()> {
    let a = s.agent("unreachable").await?;
    // A port nothing listens on (not one of the ports Firefox blocks outright).
    let closed = std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port();
    let refused = a
        .call(
            "firefox_create_window",
            json!({"url": format!("http://127.0.0.1:{closed}/")}),
        )
        .await?;
    ensure!(
        refused.expect_error("LOAD_FAILED")?.contains("refused"),
        "{refused:?}"
    );
    // A port Firefox refuses outright: no request is made, only its error page shows.
    let blocked = a
        .call(
            "firefox_create_window",
            json!({"url": "http://127.0.0.1:1/"}),
        )
        .await?;
    ensure!(
        blocked
            .expect_error("LOAD_FAILED")?
            .contains("refused the address"),
        "{blocked:?}"
    );
    // TLS to a server that speaks plain HTTP: Firefox's secure-connection error page.
    let tls = a
        .call(
            "firefox_create_window",
            json!({"url": s.pages.url("/other.html").replace("http:", "https:")}),
        )
        .await?;
    ensure!(
        tls.expect_error("LOAD_FAILED")?
            .contains("secure connection"),
        "{tls:?}"
    );
    let tab = a.open(&s.pages.url("/other.html")).await?;
    let unknown = a
        .call(
            "firefox_navigate",
            json!({"tabId": tab, "url": "http://no-such-host.invalid/"}),
        )
        .await?;
    unknown.expect_error("LOAD_FAILED")?;
    // A good address still loads in the same tab.
    let back = a
        .call(
            "firefox_navigate",
            json!({"tabId": tab, "url": s.pages.url("/other.html")}),
        )
        .await?
        .ok()?;
    ensure!(back.text.contains("Other page"), "{back:?}");
    a.close().await?;
    Ok(())
}

pub async fn a_self_navigating_page_is_reported_truly(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("ticker", "/attack/ticker.html").await?;
    for _ in 0..8 {
        let typed = a
            .call(
                "firefox_type",
                json!({"tabId": tab, "selector": "#box", "text": "hi"}),
            )
            .await?;
        ensure!(
            !typed.is_error || typed.text.contains("navigated away"),
            "an interrupted action says so: {typed:?}"
        );
    }
    // Navigate answers with the page it reached: the one asked for, or — when the page's own
    // navigation won the race — where the tab really is, said so in a note.
    let mut reached = 0;
    for _ in 0..3 {
        let other = s.pages.url("/other.html");
        let went = a
            .call("firefox_navigate", json!({"tabId": tab, "url": other}))
            .await?
            .ok()?;
        let url = went
            .text
            .lines()
            .find_map(|l| l.strip_prefix("URL: "))
            .context("no URL in the answer")?;
        if went.text.contains("Other page") && url.ends_with("/other.html") {
            reached += 1;
        } else {
            // Either the page's own navigation won after ours, or (on a loaded machine) it
            // kept winning past the loads a navigation waits through: both are said.
            let moved_on = format!("Note: the tab is at {url} now");
            let still_coming = format!("the load of {other} had not arrived yet");
            ensure!(
                went.text.contains(&moved_on) || went.text.contains(&still_coming),
                "a page other than the one asked for, without saying so: {went:?}"
            );
        }
        a.call(
            "firefox_navigate",
            json!({"tabId": tab, "url": s.pages.url("/attack/ticker.html")}),
        )
        .await?
        .ok()?;
    }
    ensure!(reached >= 1, "the asked-for page was never reached");
    a.close().await?;
    Ok(())
}

pub async fn other_agents_tabs_show_only_their_origin(s: Arc<Shared>) -> anyhow::Result<()> {
    let a = s.agent("origin-a").await?;
    let b = s.agent("origin-b").await?;
    a.open(&s.pages.url("/other.html?account=SECRET42")).await?;
    let seen = b.call("firefox_get_tabs", json!({})).await?.ok()?;
    let origin = s.pages.url("");
    ensure!(seen.text.contains(&origin), "{seen:?}");
    ensure!(
        !seen.text.contains("SECRET42") && !seen.text.contains("Other page"),
        "another agent's path, query or title leaked: {seen:?}"
    );
    let all = b.call("firefox_list_all_tabs", json!({})).await?.ok()?;
    ensure!(!all.text.contains("SECRET42"), "{all:?}");
    a.close().await?;
    b.close().await?;
    Ok(())
}

pub async fn session_parameters_are_redacted_and_backslashes_do_not_pass(
    s: Arc<Shared>,
) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("redact", "/attack/secrets.html").await?;
    a.call("firefox_wait_for", json!({"tabId": tab, "text": "fetched"}))
        .await?
        .ok()?;
    // Firefox tells the background a request ended after the page may have its answer: the
    // fetch is listed within moments, not always at once (seen once in a full run).
    let log = eventually(Duration::from_secs(5), "the fetch in the log", async || {
        let log = a
            .call("firefox_get_network", json!({"tabId": tab}))
            .await
            .ok()?;
        log.text.contains("page=4").then_some(log)
    })
    .await?;
    for secret in ["SID1", "PHP2", "TKT3"] {
        ensure!(!log.text.contains(secret), "{secret} in {log:?}");
    }
    a.call(
        "firefox_set_config",
        json!({"allowedDomains": ["127.0.0.1"]}),
    )
    .await?
    .ok()?;
    let port = s.pages.port;
    let sneaky = format!("http://localhost:{port}\\@127.0.0.1:{port}/other.html");
    a.call("firefox_navigate", json!({"tabId": tab, "url": sneaky}))
        .await?
        .expect_error("NOT_ALLOWED")?;
    a.close().await?;
    Ok(())
}

/// A page whose content process hangs while its screenshot is taken: the capture is abandoned
/// after its deadline and the lock passes on, so other agents' screenshots go through.
pub async fn a_hung_page_does_not_hold_the_capture_lock() -> anyhow::Result<()> {
    let frame_server = PageServer::start(HashMap::from([(
        "/hang.html",
        Page::html(
            "<!doctype html><title>Hang</title><p>hanging</p><script>\
             setTimeout(() => { const end = Date.now() + 40000; while (Date.now() < end) {} }, 50)</script>",
        ),
    )]))
    .await?;
    // The frame comes from another site, so its (hung) process is not the top page's.
    let hang_top = format!(
        "<!doctype html><title>Top</title><p>top</p>\
         <iframe src='http://localhost:{}/hang.html'></iframe>",
        frame_server.port
    );
    let mut pages = crate::common::test_pages();
    pages.insert("/hang-top.html", Page::html(hang_top));
    let server = PageServer::start(pages).await?;
    let browser = Browser::start_with_options(Options::default()).await?;
    let stuck = browser.agent("stuck").await?;
    let tab = stuck.open(&server.url("/hang-top.html")).await?;
    let mut others = Vec::new();
    for (i, (colour, _)) in crate::common::COLOURS.iter().take(2).enumerate() {
        let agent = browser.agent(&format!("other-{i}")).await?;
        let tab = agent
            .open(&server.url(&format!("/colour/{colour}.html")))
            .await?;
        others.push((agent, tab));
    }
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let hung = async {
        let started = Instant::now();
        let r = stuck
            .call(
                "firefox_screenshot",
                json!({"tabId": tab, "skipReadiness": true, "timeout": 60000}),
            )
            .await;
        (r, started.elapsed())
    };
    let rest = async {
        let mut done = Vec::new();
        for (agent, tab) in &others {
            // MUTEX_BUSY while the stuck capture holds the lock; then it passes on.
            loop {
                let r = agent
                    .call(
                        "firefox_screenshot",
                        json!({"tabId": tab, "skipReadiness": true}),
                    )
                    .await?;
                if r.is_error && r.text.starts_with("MUTEX_BUSY") {
                    tokio::time::sleep(std::time::Duration::from_millis(250)).await;
                    continue;
                }
                done.push(r.ok()?);
                break;
            }
        }
        anyhow::Ok(done)
    };
    let ((hung, took), rest) = tokio::join!(hung, rest);
    let hung = hung?;
    ensure!(
        hung.is_error && hung.text.contains("did not paint"),
        "the stuck capture is abandoned with a clear error: {hung:?}"
    );
    ensure!(took.as_secs() < 30, "abandoned only after {took:?}");
    ensure!(
        rest?.len() == 2,
        "the other agents' screenshots went through"
    );
    drop(frame_server);
    Ok(())
}

/// Tabs an agent's page opens are that agent's: counted against the pool (over the limit they
/// are closed, and it is told), and closed with its other tabs.
pub async fn opened_tabs_belong_to_the_opener() -> anyhow::Result<()> {
    let mut pages = HashMap::new();
    pages.insert(
        "/opener.html",
        Page::html(
            "<!doctype html><title>Opener</title>\
             <a id=blank href=/other.html target=_blank>new tab</a>\
             <button id=many onclick=\"for (let i = 0; i < 20; i++) window.open('/other.html?' + i)\">many</button>",
        ),
    );
    pages.insert(
        "/other.html",
        Page::html("<!doctype html><title>Other page</title><p>other</p>"),
    );
    let server = PageServer::start(pages).await?;
    let browser = Browser::start_with_options(Options {
        prefs: vec![
            ("dom.disable_open_during_load".into(), "false".into()),
            ("dom.popup_maximum".into(), "-1".into()),
            ("browser.link.open_newwindow".into(), "3".into()),
        ],
        ..Options::default()
    })
    .await?;
    let a = browser.agent("opener").await?;
    let tab = a.open(&server.url("/opener.html")).await?;
    let mut notes = String::new();
    let clicked = a
        .call("firefox_click", json!({"tabId": tab, "selector": "#blank"}))
        .await?
        .ok()?;
    notes.push_str(&clicked.text);
    let count_mine = async || -> anyhow::Result<(usize, String)> {
        let r = a.call("firefox_get_tabs", json!({})).await?.ok()?;
        Ok((
            r.text.lines().filter(|l| l.contains("(yours")).count(),
            r.text,
        ))
    };
    let (two, _) = claudezilla_e2e::eventually(
        std::time::Duration::from_secs(10),
        "the link's tab to be the agent's",
        async || count_mine().await.ok().filter(|(n, _)| *n == 2),
    )
    .await?;
    ensure!(two == 2);
    // The page's handler holds its thread while Firefox makes each tab (about 60 ms a tab
    // here, several times that on a loaded machine), so this click gets time to answer.
    let many = a
        .call(
            "firefox_click",
            json!({"tabId": tab, "selector": "#many", "timeout": 30_000}),
        )
        .await?
        .ok()?;
    notes.push_str(&many.text);
    let all_tabs = async || -> anyhow::Result<usize> {
        let b = browser.agent("watcher").await?;
        let all = b.call("firefox_list_all_tabs", json!({})).await?.ok()?;
        b.close().await?;
        Ok(all.text.lines().count())
    };
    // The pool fills at once; the tabs over the limit close, and the agent hears of them, a
    // moment later. Later answers carry what happened meanwhile.
    let full = claudezilla_e2e::eventually(
        std::time::Duration::from_secs(20),
        "the popups to be adopted or closed",
        async || {
            let (n, text) = count_mine().await.ok()?;
            notes.push_str(&text);
            let settled = n == POOL_LIMIT
                && notes.contains("was closed")
                && all_tabs().await.ok()? <= POOL_LIMIT + 2;
            settled.then_some(text)
        },
    )
    .await?;
    ensure!(notes.contains("opened tab"), "the agent was told: {notes}");
    ensure!(count_mine().await?.0 == POOL_LIMIT, "{full}");
    // The agent leaves: every tab its pages opened goes with it.
    a.close().await?;
    let left = claudezilla_e2e::eventually(
        std::time::Duration::from_secs(10),
        "the agent's tabs to close",
        async || all_tabs().await.ok().filter(|n| *n <= 1),
    )
    .await?;
    ensure!(left <= 1);
    Ok(())
}

/// What a page's style hides from a person is not read to the agent either, in any read:
/// a page cannot whisper to the agent in text its user never sees. (Text made invisible other
/// ways — off-screen, zero-sized, the colour of its background — is still read.)
pub async fn text_the_page_hides_is_not_read(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s
        .agent_at("hidden-words", "/attack/hidden-words.html")
        .await?;
    let read = |args: serde_json::Value| crate::common::said(&a, "firefox_get_content", args);
    // Both frames are on the page once the one a person sees is read.
    let text = eventually(Duration::from_secs(10), "the frame's words", async || {
        let text = read(json!({"tabId": tab})).await.ok()?;
        text.contains("frame words").then_some(text)
    })
    .await?;
    let markdown = read(json!({"tabId": tab, "format": "markdown"})).await?;
    let found = crate::common::said(
        &a,
        "firefox_find",
        json!({"tabId": tab, "pattern": "words|TRAP|view"}),
    )
    .await?;
    let snapshot = crate::common::said(&a, "firefox_snapshot", json!({"tabId": tab})).await?;
    ensure!(
        !snapshot.contains("TRAP"),
        "the snapshot read hidden words: {snapshot}"
    );
    for shown in [
        "Plain words",
        "back in view",
        "Row words",
        "Summary words",
        "inline words",
    ] {
        ensure!(
            snapshot.contains(shown),
            "the snapshot lacks {shown}: {snapshot}"
        );
    }
    for (what, answer) in [("text", &text), ("markdown", &markdown), ("find", &found)] {
        ensure!(
            !answer.contains("TRAP"),
            "{what} read hidden words: {answer}"
        );
        for shown in [
            "Plain words",
            "back in view",
            "Heading words",
            "Row words",
            "Summary words",
            "inline words",
        ] {
            // find marks its match: "Plain «words»".
            let marked = shown
                .replace(" words", " «words»")
                .replace(" view", " «view»");
            ensure!(
                answer.contains(shown) || answer.contains(&marked),
                "{what} lacks {shown}: {answer}"
            );
        }
    }
    for shown in [
        "## Heading words",
        "[Link words](",
        "code words",
        "| Row words |",
        "frame words",
    ] {
        ensure!(markdown.contains(shown), "{shown} in {markdown}");
    }
    // A part the page does not render, asked for by its selector, shows nothing: a box-less
    // one inside it too (the browser says such an element shows, whatever holds it).
    for selector in ["#gone-root", "#gone-root span"] {
        for format in ["text", "markdown"] {
            let args = json!({"tabId": tab, "selector": selector, "format": format});
            let part = read(args).await?;
            ensure!(
                !part.contains("TRAP"),
                "{format} of {selector}, not rendered: {part}"
            );
        }
    }
    Ok(())
}

/// `firefox_find`'s work is bounded by size and by time, whatever the page and the pattern,
/// and the answer says what was searched; the page's process is free again after it.
pub async fn find_is_bounded_by_size_and_time(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("finder", "/attack/find.html").await?;
    // One huge text node: searched up to the cap, not past it. Alone this takes about 0.9 s
    // here; with the whole suite on two cores it can reach the 2 s bound first, and then the
    // clock must have stopped it short of the cap.
    let capped = a
        .call(
            "firefox_find",
            json!({"tabId": tab, "text": "end-of-node-4e2a", "timeout": 30_000}),
        )
        .await?
        .ok()?;
    let by_size = capped.text.contains("searched 4000000 characters")
        && capped.text.contains("longer than 4000000 bytes");
    // "[searched N characters in 1 frame(s), M ms]"
    let number_after = |mark: &str| -> Option<u64> {
        let rest = capped.text.split(mark).nth(1)?;
        rest.split([' ', ']']).next()?.parse().ok()
    };
    let searched = number_after("[searched ").unwrap_or(0);
    let ms = number_after("frame(s), ").unwrap_or(0);
    // Stopped by the clock: after the search's 2 s, part of the way through.
    let by_time = (1..4_000_000).contains(&searched)
        && ms >= 1_900
        && capped.text.contains("the time ran out");
    ensure!(
        capped.text.starts_with("Not found") && (by_size || by_time),
        "{}",
        capped.text
    );
    // A costly counted repeat: stopped by the clock, with what it got through.
    let costly = a
        .call(
            "firefox_find",
            json!({"tabId": tab, "pattern": "[a ]{600}x", "timeout": 20_000}),
        )
        .await?
        .ok()?;
    ensure!(
        costly.text.contains("stopped early: the time ran out"),
        "{}",
        costly.text
    );
    let after = text_of(&a, tab, "#after").await?;
    ensure!(after.contains("after-the-cap-6c1d"), "{after}");
    // A larger one is refused before it runs.
    let refused = a
        .call("firefox_find", json!({"tabId": tab, "pattern": ".{2000}"}))
        .await?;
    ensure!(
        refused
            .expect_error("INVALID_ARGUMENT")?
            .contains("pattern"),
        "{refused:?}"
    );
    a.close().await?;
    Ok(())
}
