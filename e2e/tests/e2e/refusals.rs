//! Issue 33: what Firefox refuses a script, done as a person would do it or said plainly. Real
//! libraries from npm, pinned in `e2e/widgets/package.json` and served under `/w/`: file
//! fields a page hides behind drop zones (Dropzone, FilePond), clicks the popup blocker and
//! the clipboard refuse without a real user's gesture (links, `window.open`, `@github/
//! clipboard-copy-element`, clipboard.js), sign-in popups where the user allows them and where
//! the blocker refuses them (oidc-client-ts, hello.js), and editors that apply typing in their
//! own update cycle (Lexical, Slate).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, ensure};
use claudezilla_e2e::pages::Page;
use claudezilla_e2e::{Agent, PageServer, ToolResult, eventually};
use serde_json::{Value, json};

use crate::common::{Shared, call, said, text_of};

/// Where the pages find the installed libraries.
const MODULES: &str = "/w/node_modules";

/// Two Dropzone zones, each listing its files in a container of its own (so that its message
/// button stays where a person clicks): "photos" opens the file chooser when clicked (Dropzone
/// appends a hidden `<input type=file>` to the body and calls its `click()`); "invoice" is
/// `clickable: false`, so it has no file input at all and only takes drops. Every file
/// Dropzone's `addedfile` event reports, with its size, in `#state`.
fn dropzone() -> String {
    format!(
        r#"<!doctype html><title>Dropzone</title>
<link rel=stylesheet href="{MODULES}/dropzone/dist/dropzone.css">
<h2>Photos</h2><div id=photos class=dropzone></div><div id=photos-files></div>
<h2>Invoice</h2><div id=invoice class=dropzone></div><div id=invoice-files></div>
<p id=state>waiting</p>
<script src="{MODULES}/dropzone/dist/dropzone-min.js"></script>
<script>
const added = [];
const zone = (id, clickable, dictDefaultMessage) => new Dropzone('#' + id, {{
  url: '/upload', autoProcessQueue: false, clickable, dictDefaultMessage, previewsContainer: '#' + id + '-files',
}}).on('addedfile', file => {{
  added.push(`${{id}}:${{file.name}} ${{file.size}}`);
  document.getElementById('state').textContent = 'added ' + added.join(', ');
}});
zone('photos', true, 'Drop photos here or click to choose');
zone('invoice', false, 'Drop your invoice here');
document.getElementById('state').textContent = 'ready';
</script>"#
    )
}

/// drag-drop (bundled from `e2e/widgets/src/drop-files.js`): a zone that only takes dropped
/// files, read through `dataTransfer.items` and `webkitGetAsEntry`; each file's name and size
/// in `#state`.
const DROP_FILES: &str = r#"<!doctype html><title>Drop files</title>
<div id=zone style="width:300px;height:120px;border:2px dashed #999">Drop files to share</div>
<p id=state>waiting</p>
<script src="/w/dist/drop-files.js"></script>"#;

/// FilePond over a file field: it replaces the field with its own root, which holds a file
/// input and a `<label for>` naming it ("Drag & Drop your files or Browse"). Its files, as
/// `getFiles()` lists them with their sizes, in `#state` after each `onaddfile`.
fn filepond() -> String {
    format!(
        r#"<!doctype html><title>FilePond</title>
<link rel=stylesheet href="{MODULES}/filepond/dist/filepond.min.css">
<input type=file id=docs name=docs>
<p id=state>waiting</p>
<script src="{MODULES}/filepond/dist/filepond.min.js"></script>
<script>
const state = document.getElementById('state');
const pond = FilePond.create(document.getElementById('docs'), {{
  allowMultiple: true, credits: false,
  oninit: () => state.textContent = 'ready',
  onaddfile: () => state.textContent = 'files ' + pond.getFiles().map(f => `${{f.filename}} ${{f.fileSize}}`).join(', '),
}});
</script>"#
    )
}

/// The page the links lead to.
const LINKED: &str = "<!doctype html><title>Linked page</title><p>linked-page-5e1d</p>";

/// Links a person opens in a new tab (one with `target=_blank`; plain ones with the middle
/// button or Control), and a "Sign in" button whose handler opens a popup window, as sign-in
/// buttons do.
const LINKS: &str = r#"<!doctype html><title>Links</title><p>links-page-b07c</p>
<p><a href="/refusals/linked.html?blank" target=_blank>Read the terms</a></p>
<p><a href="/refusals/linked.html?middle">Pricing</a></p>
<p><a href="/refusals/linked.html?control">Documentation</a></p>
<button id=signin onclick="window.open('/refusals/signin.html', 'signin', 'width=500')">Sign in</button>
<div id=player><p>a video</p><button id=full>Watch fullscreen</button></div>
<input type=file id=photo hidden><button id=choose>Choose a photo</button>
<button id=flood onclick="for (let i = 0; i < 500; i++) window.open('/refusals/signin.html?' + i)">Open many</button>
<p id=state>waiting</p>
<script>
// Whether the page sees a user's activation during each click (navigator.userActivation, where
// Firefox has it), then what each button asks for.
const said = [];
for (const b of document.querySelectorAll('button')) b.addEventListener('click', () => {
  said.push(`${b.id}:${navigator.userActivation ? navigator.userActivation.isActive : 'none'}`);
  document.getElementById('state').textContent = said.join(' ');
});
document.getElementById('full').onclick = () => document.getElementById('player').requestFullscreen().catch(() => {});
document.getElementById('choose').onclick = () => document.getElementById('photo').click();
</script>"#;

/// Copy buttons: GitHub's `<clipboard-copy>` (which calls `navigator.clipboard.writeText`
/// where the browser has it) and clipboard.js (which calls `document.execCommand('copy')`).
/// What each says it did in `#state`: clipboard.js reports "success" whenever it selected
/// text, whatever `execCommand` answered.
fn copy() -> String {
    format!(
        r#"<!doctype html><title>Copy</title>
<p>Your token: <code id=token>tok-8f2a</code> <clipboard-copy for=token>Copy token</clipboard-copy></p>
<p>Share: <button class=share data-clipboard-text="https://example.test/share/42">Copy link</button></p>
<p id=state>waiting</p>
<script src="{MODULES}/clipboard/dist/clipboard.min.js"></script>
<script type=module src="{MODULES}/@github/clipboard-copy-element/dist/bundle.js"></script>
<script type=module>
const state = document.getElementById('state');
const said = [];
const say = what => {{ said.push(what); state.textContent = said.join(' '); }};
document.addEventListener('clipboard-copy', () => say('element:copied'));
const share = new ClipboardJS('.share');
share.on('success', () => say('clipboard.js:success'));
share.on('error', () => say('clipboard.js:error'));
await customElements.whenDefined('clipboard-copy');
state.textContent = 'ready';
</script>"#
    )
}

/// Lexical (bundled from `e2e/widgets/src/refusals-lexical.js`) on a contenteditable named as
/// Lexical's own `ContentEditable` names it (a textbox); its model's text in `#out`.
const LEXICAL: &str = r#"<!doctype html><title>Lexical</title>
<div id=lexical contenteditable=true role=textbox aria-label="Lexical note" style="min-height:3em;border:1px solid #999"></div>
<p id=out>waiting</p>
<script src="/w/dist/refusals-lexical.js"></script>"#;

/// Slate with React (bundled from `e2e/widgets/src/refusals-slate.js`); its model's text in
/// `#out`.
const SLATE: &str = r#"<!doctype html><title>Slate</title><div id=app></div><p id=out>waiting</p>
<script src="/w/dist/refusals-slate.js"></script>"#;

pub fn pages() -> HashMap<&'static str, Page> {
    HashMap::from([
        ("/refusals/dropzone.html", Page::html(dropzone())),
        ("/refusals/filepond.html", Page::html(filepond())),
        ("/refusals/drop-files.html", Page::html(DROP_FILES)),
        ("/refusals/links.html", Page::html(LINKS)),
        ("/refusals/linked.html", Page::html(LINKED)),
        (
            "/refusals/signin.html",
            Page::html("<!doctype html><title>Sign in</title><p>signin-page</p>"),
        ),
        ("/refusals/copy.html", Page::html(copy())),
        ("/refusals/lexical.html", Page::html(LEXICAL)),
        ("/refusals/slate.html", Page::html(SLATE)),
    ])
}

/// A site serving these pages (and the libraries under `/w/`, as every page server does) to a
/// widget test's browser, whose own server serves only the widgets' pages.
async fn site() -> anyhow::Result<PageServer> {
    PageServer::start(pages()).await
}

/// The text of `selector` once it says `what`.
async fn shows(a: &Agent, tab: u32, selector: &str, what: &str) -> anyhow::Result<String> {
    eventually(Duration::from_secs(10), what, async || {
        text_of(a, tab, selector)
            .await
            .ok()
            .filter(|t| t.contains(what))
    })
    .await
}

/// The ref of the first snapshot line that starts with `line` (after the indent).
fn ref_of(snapshot: &str, line: &str) -> Option<String> {
    snapshot
        .lines()
        .map(str::trim_start)
        .find(|l| l.starts_with(line))?
        .split_whitespace()
        .find(|w| w.len() > 1 && w.starts_with('e') && w[1..].chars().all(|c| c.is_ascii_digit()))
        .map(str::to_owned)
}

/// The ref of the control on `line`, once the page's script has made it (5 s at most).
async fn ref_when(a: &Agent, tab: u32, line: &str) -> anyhow::Result<String> {
    let found = eventually(Duration::from_secs(5), line, async || {
        let snap = said(a, "firefox_snapshot", json!({"tabId": tab}))
            .await
            .ok()?;
        ref_of(&snap, line)
    })
    .await;
    match found {
        Ok(r) => Ok(r),
        Err(e) => {
            let snap = said(a, "firefox_snapshot", json!({"tabId": tab})).await?;
            Err(e.context(format!("{line} in {snap}")))
        }
    }
}

/// A file of `text` in the agent's project folder, and what a page reports of it: its name
/// and size.
fn file(project: &Path, name: &str, text: &str) -> anyhow::Result<(PathBuf, String)> {
    let path = project.join(name);
    std::fs::write(&path, text)?;
    Ok((path, format!("{name} {}", text.len())))
}

/// `firefox_upload_file` of `path` onto the element `target` names (`{"ref": …}` or
/// `{"selector": …}`).
async fn upload(a: &Agent, tab: u32, target: Value, path: &Path) -> anyhow::Result<ToolResult> {
    call(a, "firefox_upload_file", upload_args(tab, target, path)?).await
}

fn upload_args(tab: u32, target: Value, path: &Path) -> anyhow::Result<Value> {
    let mut args = json!({"tabId": tab, "path": path});
    args.as_object_mut()
        .context("arguments")?
        .extend(target.as_object().cloned().unwrap_or_default());
    Ok(args)
}

/// Files go where a person would put them, whatever the page hides its file field behind:
/// Dropzone's zone and its button open the chooser of a hidden input elsewhere in the document
/// (the file reaches the input Dropzone listens to), a zone with no file input is refused with
/// the reason (Firefox hides a file an extension drops from the page), and FilePond's label and
/// root lead to the file input they name or hold.
pub async fn files_go_where_a_person_would_put_them(s: Arc<Shared>) -> anyhow::Result<()> {
    let site = site().await?;
    let project = tempfile::tempdir()?;
    let a = s.agent_in("uploads", project.path()).await?;
    let tab = a.open(&site.url("/refusals/dropzone.html")).await?;
    shows(&a, tab, "#state", "ready").await?;

    let (report, report_seen) = file(project.path(), "report.txt", "twelve bytes")?;
    let button = ref_when(&a, tab, "button \"Drop photos here or click to choose\"").await?;
    let chose = upload(&a, tab, json!({"ref": button}), &report).await?;
    ensure!(
        chose
            .text
            .contains("through the file field its click opens the file chooser of"),
        "Dropzone's button: {chose:?}"
    );
    shows(&a, tab, "#state", &format!("photos:{report_seen}")).await?;
    let (receipt, receipt_seen) = file(project.path(), "receipt.txt", "a receipt for May")?;
    let zone = upload(&a, tab, json!({"selector": "#photos"}), &receipt).await?;
    ensure!(
        zone.text
            .contains("through the file field its click opens the file chooser of"),
        "Dropzone's clickable zone: {zone:?}"
    );
    shows(&a, tab, "#state", &format!("photos:{receipt_seen}")).await?;

    // A zone that only takes drops gets the file as a drag from the desktop brings it.
    let (invoice, invoice_seen) = file(project.path(), "invoice.txt", "invoice 2026-11, paid")?;
    let dropped = upload(&a, tab, json!({"selector": "#invoice"}), &invoice).await?;
    ensure!(
        dropped.text.contains("Dropped invoice.txt") && dropped.text.contains("took the drop"),
        "Dropzone's drop-only zone: {dropped:?}"
    );
    let state = shows(&a, tab, "#state", &format!("invoice:{invoice_seen}")).await?;
    ensure!(
        state.matches("photos:").count() == 2 && state.matches("invoice:").count() == 1,
        "each file arrived once, where it was put: {state}"
    );
    // A paragraph takes no drop: refused, saying why.
    let refused = a
        .call(
            "firefox_upload_file",
            upload_args(tab, json!({"selector": "#state"}), &invoice)?,
        )
        .await?;
    ensure!(
        refused.is_error
            && refused.text.contains("was not attached")
            && refused.text.contains("takes no drop"),
        "no file field and no drop zone: {refused:?}"
    );

    let tab = a.open(&site.url("/refusals/drop-files.html")).await?;
    shows(&a, tab, "#state", "ready").await?;
    let (notes, notes_seen) = file(project.path(), "notes.txt", "notes from the call")?;
    let dropped = upload(&a, tab, json!({"selector": "#zone"}), &notes).await?;
    ensure!(
        dropped.text.contains("Dropped notes.txt"),
        "drag-drop's zone: {dropped:?}"
    );
    shows(&a, tab, "#state", &format!("dropped {notes_seen}")).await?;

    let tab = a.open(&site.url("/refusals/filepond.html")).await?;
    shows(&a, tab, "#state", "ready").await?;
    let (minutes, minutes_seen) = file(project.path(), "minutes.txt", "meeting minutes")?;
    let labelled = upload(
        &a,
        tab,
        json!({"selector": ".filepond--drop-label label"}),
        &minutes,
    )
    .await?;
    ensure!(
        labelled
            .text
            .contains("through the file field its label names"),
        "FilePond's label: {labelled:?}"
    );
    shows(&a, tab, "#state", &minutes_seen).await?;
    let (agenda, agenda_seen) = file(project.path(), "agenda.txt", "agenda: the launch")?;
    let inside = upload(&a, tab, json!({"selector": ".filepond--root"}), &agenda).await?;
    ensure!(
        inside.text.contains("through the file field inside it"),
        "FilePond's root: {inside:?}"
    );
    let files = shows(&a, tab, "#state", &agenda_seen).await?;
    ensure!(
        files.contains(&minutes_seen),
        "both files are FilePond's: {files}"
    );
    a.close().await?;
    Ok(())
}

/// The tab a click's answer says it opened ("It opened tab N: <url>").
fn opened_tab(answer: &str) -> Option<u32> {
    answer
        .split("It opened tab ")
        .nth(1)?
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

/// What Firefox's popup blocker and clipboard refuse a script's click (a page sees no real
/// user's gesture) is done as a person's click would do it, or said: a `target=_blank` link,
/// a middle click and a Control-click on a plain link each open the linked page in a tab of
/// the agent's own (the first page stays); a "Sign in" button's `window.open` popup and the
/// two copy buttons are refused, and the answer names what was refused.
pub async fn clicks_firefox_refuses_a_script_open_tabs_or_say_so(
    s: Arc<Shared>,
) -> anyhow::Result<()> {
    let site = site().await?;
    let a = s.agent("refused-clicks").await?;
    let tab = a.open(&site.url("/refusals/links.html")).await?;
    for (name, how, query) in [
        ("Read the terms", json!({}), "blank"),
        ("Pricing", json!({"button": "middle"}), "middle"),
        (
            "Documentation",
            json!({"modifiers": ["Control"]}),
            "control",
        ),
    ] {
        let link = ref_when(&a, tab, &format!("link \"{name}\"")).await?;
        let mut args = json!({"tabId": tab, "ref": link});
        args.as_object_mut()
            .context("arguments")?
            .extend(how.as_object().cloned().unwrap_or_default());
        let clicked = call(&a, "firefox_click", args).await?;
        let url = format!("/refusals/linked.html?{query}");
        let Some(opened) = opened_tab(&clicked.text).filter(|_| clicked.text.contains(&url)) else {
            anyhow::bail!("{name} ({how}): no tab of {url} in {clicked:?}");
        };
        let tabs = said(&a, "firefox_get_tabs", json!({})).await?;
        ensure!(
            tabs.contains(&format!("tab {opened} (yours")),
            "{name}: tab {opened} is the agent's: {tabs}"
        );
        let page = eventually(Duration::from_secs(10), "the linked page", async || {
            said(&a, "firefox_get_content", json!({"tabId": opened}))
                .await
                .ok()
                .filter(|t| t.contains("linked-page-5e1d"))
        })
        .await;
        ensure!(page.is_ok(), "{name}: tab {opened} shows the linked page");
        ensure!(
            text_of(&a, tab, "body").await?.contains("links-page-b07c"),
            "{name}: the first tab stays on its page"
        );
    }

    let signin = ref_when(&a, tab, "button \"Sign in\"").await?;
    let refused = a
        .call("firefox_click", json!({"tabId": tab, "ref": signin}))
        .await?;
    ensure!(
        ["Refused:", "window.open", "/refusals/signin.html"]
            .iter()
            .all(|w| refused.text.contains(w)),
        "the sign-in popup: {refused:?}"
    );
    let tabs = said(&a, "firefox_get_tabs", json!({})).await?;
    ensure!(!tabs.contains("signin.html"), "no popup opened: {tabs}");
    for (name, words) in [
        ("Watch fullscreen", ["Refused:", "fullscreen"]),
        ("Choose a photo", ["Refused:", "file chooser"]),
    ] {
        let button = ref_when(&a, tab, &format!("button \"{name}\"")).await?;
        let refused = a
            .call("firefox_click", json!({"tabId": tab, "ref": button}))
            .await?;
        ensure!(
            words.iter().all(|w| refused.text.contains(w)),
            "{name}: {refused:?}"
        );
    }
    // A page that asks again and again does not grow the answer: eight refusals, then a line.
    let flood = ref_when(&a, tab, "button \"Open many\"").await?;
    let flooded = a
        .call("firefox_click", json!({"tabId": tab, "ref": flood}))
        .await?;
    ensure!(
        flooded.text.matches("Refused:").count() == 9
            && flooded.text.contains("the rest are not listed"),
        "500 blocked popups: {} characters, {} refusals",
        flooded.text.len(),
        flooded.text.matches("Refused:").count()
    );
    // What the README says: the page sees no user activation in an agent's click.
    let state = text_of(&a, tab, "#state").await?;
    ensure!(
        ["signin:", "full:", "choose:"]
            .iter()
            .all(|b| state.contains(b))
            && !state.contains("true"),
        "no click of the agent's is a user's activation to the page: {state}"
    );

    let tab = a.open(&site.url("/refusals/copy.html")).await?;
    shows(&a, tab, "#state", "ready").await?;
    for (name, api) in [
        ("Copy token", "navigator.clipboard.writeText"),
        ("Copy link", "document.execCommand('copy')"),
    ] {
        let button = ref_when(&a, tab, &format!("button \"{name}\"")).await?;
        let refused = a
            .call("firefox_click", json!({"tabId": tab, "ref": button}))
            .await?;
        ensure!(
            refused.text.contains("Refused:") && refused.text.contains("clipboard"),
            "{name} ({api}): {refused:?}"
        );
    }
    a.close().await?;
    Ok(())
}

/// The identity provider's consent page, on a site of its own: "Authorize" sends the browser
/// back to the client's `redirect_uri` as OAuth 2 does, with a code (the code flow) or a token
/// in the fragment (the implicit flow), and the client's `state` echoed.
const AUTHORIZE: &str = r#"<!doctype html><title>Example accounts</title>
<p>Shop wants your name.</p>
<button id=yes>Authorize</button>
<script>
const asked = new URLSearchParams(location.search);
document.getElementById('yes').onclick = () => {
  const back = new URLSearchParams({state: asked.get('state')});
  const implicit = asked.get('response_type') === 'token';
  back.set(implicit ? 'access_token' : 'code', implicit ? 'token-ada-77c1' : 'code-ada-77c1');
  if (implicit) back.set('expires_in', '3600');
  location.href = asked.get('redirect_uri') + (implicit ? '#' : '?') + back;
};
</script>"#;

/// oidc-client-ts (code flow with PKCE): `signinPopup` opens a blank popup and sends it to the
/// provider; the callback page posts the answer to its opener, which redeems the code at the
/// token endpoint.
fn oidc_shop(provider: &str) -> String {
    format!(
        r#"<!doctype html><title>Shop (oidc-client-ts)</title>
<button id=go>Sign in with Example</button><p id=state>signed out</p>
<script src="{MODULES}/oidc-client-ts/dist/browser/oidc-client-ts.min.js"></script>
<script>
const manager = new oidc.UserManager({{
  authority: '{provider}', client_id: 'shop', scope: 'profile', response_type: 'code',
  redirect_uri: location.origin + '/popup/oidc-callback.html',
  metadata: {{
    issuer: '{provider}', authorization_endpoint: '{provider}/popup/authorize.html',
    token_endpoint: location.origin + '/popup/token.json',
  }},
}});
const state = document.getElementById('state');
document.getElementById('go').onclick = () => manager.signinPopup().then(
  user => state.textContent = 'signed in with ' + user.access_token,
  e => state.textContent = 'failed: ' + e.message);
</script>"#
    )
}

const OIDC_CALLBACK: &str = r#"<!doctype html><title>Signing in</title>
<script src="/w/node_modules/oidc-client-ts/dist/browser/oidc-client-ts.min.js"></script>
<script>
new oidc.UserManager({authority: location.origin, client_id: 'shop', redirect_uri: location.href})
  .signinPopupCallback();
</script>"#;

const TOKEN: &str = r#"{"access_token":"token-ada-77c1","token_type":"Bearer","expires_in":3600}"#;

/// hello.js (the implicit flow): `login` opens the provider in a popup; the callback page,
/// which loads hello.js too, calls the opener's own callback function through `window.opener`.
fn hello_shop(provider: &str) -> String {
    format!(
        r#"<!doctype html><title>Shop (hello.js)</title>
<button id=go>Sign in with Example</button><p id=state>signed out</p>
<script src="{MODULES}/hellojs/dist/hello.js"></script>
<script>
hello.init({{example: {{name: 'Example', oauth: {{version: 2, auth: '{provider}/popup/authorize.html'}}}}}});
hello.init({{example: 'shop'}}, {{redirect_uri: '/popup/hello-callback.html'}});
const state = document.getElementById('state');
document.getElementById('go').onclick = () => hello('example').login({{display: 'popup'}}).then(
  r => state.textContent = 'signed in with ' + r.authResponse.access_token,
  e => state.textContent = 'failed: ' + JSON.stringify(e));
</script>"#
    )
}

/// A page that opens its popup blank and sends it on after a second and a half (as a sign-in
/// library does once it has fetched the provider's settings).
fn slow_shop(provider: &str) -> String {
    format!(
        r#"<!doctype html><title>Slow shop</title><button id=go>Sign in with Example</button>
<script>
document.getElementById('go').onclick = () => {{
  const popup = window.open('');
  setTimeout(() => popup.location = '{provider}/popup/authorize.html?slow=1', 1500);
}};
</script>"#
    )
}

const HELLO_CALLBACK: &str = r#"<!doctype html><title>Signing in</title>
<script src="/w/node_modules/hellojs/dist/hello.js"></script>"#;

/// The sign-in pages of both libraries, and the provider on a site of its own.
async fn sign_in_sites() -> anyhow::Result<(PageServer, PageServer)> {
    let provider = PageServer::start_on(
        [127, 0, 0, 2],
        HashMap::from([("/popup/authorize.html", Page::html(AUTHORIZE))]),
    )
    .await?;
    let origin = provider.url("");
    let shop = PageServer::start(HashMap::from([
        ("/popup/oidc.html", Page::html(oidc_shop(&origin))),
        ("/popup/oidc-callback.html", Page::html(OIDC_CALLBACK)),
        (
            "/popup/token.json",
            Page {
                content_type: "application/json",
                ..Page::html(TOKEN)
            },
        ),
        ("/popup/hello.html", Page::html(hello_shop(&origin))),
        ("/popup/hello-callback.html", Page::html(HELLO_CALLBACK)),
        ("/popup/slow.html", Page::html(slow_shop(&origin))),
    ]))
    .await?;
    Ok((provider, shop))
}

/// With Firefox's popup blocker on (its default), the sign-in libraries' popups are refused
/// to a synthetic click, and the click's answer says so: what was blocked and what to do.
pub async fn sign_in_popups_the_blocker_refuses_are_said(s: Arc<Shared>) -> anyhow::Result<()> {
    let (_provider, shop) = sign_in_sites().await?;
    let a = s.agent("blocked-sign-in").await?;
    for (page, url) in [
        ("/popup/oidc.html", "about:blank"),
        ("/popup/hello.html", "/popup/authorize.html?"),
    ] {
        let tab = a.open(&shop.url(page)).await?;
        let sign_in = ref_when(&a, tab, "button \"Sign in with Example\"").await?;
        let clicked = call(&a, "firefox_click", json!({"tabId": tab, "ref": sign_in})).await?;
        ensure!(
            ["Refused:", "window.open", url, "popup blocker"]
                .iter()
                .all(|w| clicked.text.contains(w))
                && opened_tab(&clicked.text).is_none(),
            "{page}: {clicked:?}"
        );
    }
    a.close().await?;
    Ok(())
}

/// Where the user allows popups (the popup blocker off), a sign-in library's popup opens as the
/// agent's own tab, named in the click's own answer: the agent drives the provider's page in
/// it, and the library's way back to the page through `window.opener` still works
/// (oidc-client-ts posts a message to it, hello.js calls a function of it). A popup the page
/// sends on a second and a half after opening it blank is named by where it went.
pub async fn popups_the_user_allows_open_as_the_agents_tabs() -> anyhow::Result<()> {
    let (_provider, shop) = sign_in_sites().await?;
    let browser = claudezilla_e2e::Browser::start_with_options(claudezilla_e2e::browser::Options {
        prefs: vec![("dom.disable_open_during_load".into(), "false".into())],
        ..Default::default()
    })
    .await?;
    let a = browser.agent("popup").await?;
    for page in ["/popup/oidc.html", "/popup/hello.html"] {
        let tab = a.open(&shop.url(page)).await?;
        let sign_in = ref_when(&a, tab, "button \"Sign in with Example\"").await?;
        let clicked = call(&a, "firefox_click", json!({"tabId": tab, "ref": sign_in})).await?;
        let popup = opened_tab(&clicked.text)
            .filter(|_| !clicked.text.contains("Refused"))
            .with_context(|| format!("{page}: the click names the popup's tab: {clicked:?}"))?;
        // oidc-client-ts opens its popup blank and sends it on: the answer says where.
        ensure!(
            clicked.text.contains("/popup/authorize.html?"),
            "{page}: the click names where the popup went: {}",
            clicked.text
        );
        let tabs = said(&a, "firefox_get_tabs", json!({})).await?;
        ensure!(
            tabs.contains(&format!("tab {popup} (yours")),
            "{page}: the popup is the agent's: {tabs}"
        );
        let authorize = ref_when(&a, popup, "button \"Authorize\"").await?;
        call(
            &a,
            "firefox_click",
            json!({"tabId": popup, "ref": authorize}),
        )
        .await?;
        shows(&a, tab, "#state", "signed in with token-ada-77c1").await?;
        eventually(
            Duration::from_secs(10),
            "the popup to close itself",
            async || {
                let tabs = said(&a, "firefox_get_tabs", json!({})).await.ok()?;
                (!tabs.contains(&format!("tab {popup} "))).then_some(())
            },
        )
        .await?;
    }
    let tab = a.open(&shop.url("/popup/slow.html")).await?;
    let sign_in = ref_when(&a, tab, "button \"Sign in with Example\"").await?;
    let clicked = call(&a, "firefox_click", json!({"tabId": tab, "ref": sign_in})).await?;
    ensure!(
        clicked.text.contains("/popup/authorize.html?slow=1"),
        "a popup sent on late is named by where it went: {}",
        clicked.text
    );
    a.close().await?;
    Ok(())
}

/// How long the answer of a `firefox_type` says the field's value is.
fn typed_length(answer: &str) -> Option<u64> {
    answer
        .split("is now ")
        .nth(1)?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Editors that apply typing in their own update cycle (Lexical reconciles its DOM from its
/// model after the input; Slate takes `beforeinput` into its model and React renders it): the
/// answer counts what the editor holds once it has settled (4 for "Oops", nothing "kept"
/// short), the page shows it, and the editor's own model holds it.
pub async fn editors_that_settle_later_are_counted_when_settled(
    s: Arc<Shared>,
) -> anyhow::Result<()> {
    let site = site().await?;
    let a = s.agent("settling").await?;
    for (page, name, selector) in [
        ("lexical", "Lexical note", "#lexical"),
        ("slate", "Slate note", "[data-slate-editor]"),
    ] {
        let tab = a.open(&site.url(&format!("/refusals/{page}.html"))).await?;
        shows(&a, tab, "#out", "\"text\":\"\"").await?;
        let editor = ref_when(&a, tab, &format!("textbox \"{name}\"")).await?;
        let typed = call(
            &a,
            "firefox_type",
            json!({"tabId": tab, "ref": editor, "text": "Oops"}),
        )
        .await?;
        ensure!(
            typed_length(&typed.text) == Some(4) && !typed.text.contains("kept"),
            "{page}: {typed:?}"
        );
        let model = shows(&a, tab, "#out", "Oops").await?;
        ensure!(
            model.contains("\"text\":\"Oops\""),
            "{page}: the editor's model: {model}"
        );
        let shown = text_of(&a, tab, selector).await?;
        ensure!(shown.contains("Oops"), "{page}: the page shows {shown:?}");
    }
    a.close().await?;
    Ok(())
}
