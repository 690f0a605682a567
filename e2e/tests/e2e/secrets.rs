//! Secrets the model never sees: typed by name from the user's file, only into the sites they
//! are bound to and the fields a login form uses (the frame holding the field decides), and
//! never in any answer: the frame hides them wherever its page shows them (`<secret:NAME>`),
//! and the MCP server's last pass catches what the browser reports otherwise
//! (`<redacted:NAME>`) — the two are told apart, so each is tested on its own.

use std::collections::HashMap;
use std::sync::Arc;

use anyhow::ensure;
use claudezilla_e2e::agent::Agent;
use claudezilla_e2e::pages::Page;
use serde_json::json;

use crate::common::{Shared, call};

/// With `'` and `&`: browsers never escape `'` in HTML, and the server's own escaping does.
const TOKEN: &str = "tok 3f9a&<secret>+value'x";
const PASSWORD: &str = "pw-7c1e-correct-horse";
const ELSEWHERE: &str = "other-site-9d2b-value";
/// Longer than a field's line, with spaces a line would fold: no part of it may show.
const LONG: &str = "long-4e7c  token with  doubled spaces and more words 0123456789";

pub fn pages() -> HashMap<&'static str, Page> {
    HashMap::from([
        (
            "/secrets/login.html",
            Page::html(
                r#"<!doctype html><title>Sign in</title>
<label>Token <input id=token></label>
<label>Password <input id=pw type=password></label>
<label>User <input id=user autocomplete="section-a username"></label>
<label>Comment <textarea id=comment></textarea></label>
<input id=bare><input id=go2 type=submit value=Send>
<button id=go type=button>Sign in</button>
<p id=echo></p><p id=check></p>
<iframe id=fr></iframe>
<script>
document.getElementById('fr').src = 'http://127.0.0.1:' + location.port + '/secrets/frame.html';
const t = document.getElementById('token');
t.addEventListener('input', () => {
  document.getElementById('echo').textContent = 'You typed ' + t.value;
  // As a React-controlled field does: the value mirrored into the attribute (outerHTML).
  t.setAttribute('value', t.value);
  sessionStorage.setItem('token', t.value);
});
const sum = v => [...v].reduce((a, c) => a + c.codePointAt(0), 0);
document.getElementById('go').onclick = () => {
  const pw = document.getElementById('pw').value;
  console.log('signing in with ' + t.value + ' and ' + pw);
  fetch('/secrets/echo?q=' + encodeURIComponent(t.value) + '&r=' + encodeURIComponent(pw));
  document.getElementById('check').textContent =
    'check ' + [...t.value].length + ':' + sum(t.value) + ' ' + [...pw].length + ':' + sum(pw);
};
</script>"#,
            ),
        ),
        (
            "/secrets/frame.html",
            Page::html(
                "<!doctype html><title>Frame</title><input id=inframe aria-label=\"frame field\">",
            ),
        ),
        ("/secrets/echo", Page::html("ok")),
        (
            "/secrets/shown.html",
            Page::html(
                r#"<!doctype html><title>Welcome</title><p id=shown></p>
<script>
document.getElementById('shown').textContent = 'Welcome back, ' + sessionStorage.getItem('token');
</script>"#,
            ),
        ),
    ])
}

/// What the page's check line says for the values typed: characters and their code sum.
fn check(value: &str) -> String {
    let sum: u32 = value.chars().map(|c| c as u32).sum();
    format!("{}:{sum}", value.chars().count())
}

pub async fn secrets_go_only_where_bound_and_never_show(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, _folder) = with_secrets(
        &s,
        &format!(
            "SITE_TOKEN=\"{TOKEN}\" @localhost:any-field\nPASSWORD={PASSWORD} @localhost\nELSEWHERE={ELSEWHERE} @example.com\nLONG=\"{LONG}\" @localhost:any-field\n"
        ),
        "mcp-secrets.log",
    )
    .await?;
    let login = s
        .pages
        .url("/secrets/login.html")
        .replace("127.0.0.1", "localhost");
    let tab = a.open(&login).await?;
    let mut answers = Vec::new();
    // Console capture starts with the first call that reads it.
    call(&a, "firefox_get_console", json!({"tabId": tab})).await?;

    let typed = call(
        &a,
        "firefox_type",
        json!({"tabId": tab, "selector": "#token", "secret": "SITE_TOKEN"}),
    )
    .await?;
    ensure!(
        !typed.is_error && typed.text.contains("characters long"),
        "{typed:?}"
    );
    answers.push(typed.text);
    let filled = call(
        &a,
        "firefox_fill_form",
        json!({"tabId": tab, "fields": [{"selector": "#pw", "value": {"secret": "PASSWORD"}}]}),
    )
    .await?;
    ensure!(
        !filled.is_error && filled.text.contains("<secret:PASSWORD>"),
        "{filled:?}"
    );
    answers.push(filled.text);
    answers.push(
        call(
            &a,
            "firefox_click",
            json!({"tabId": tab, "selector": "#go"}),
        )
        .await?
        .text,
    );

    // A field with no name is described by nothing of its secret; a button takes none.
    let bare = call(
        &a,
        "firefox_type",
        json!({"tabId": tab, "selector": "#bare", "secret": "LONG"}),
    )
    .await?;
    answers.push(bare.text);
    let button = refused(
        &a,
        json!({"tabId": tab, "selector": "#go2", "secret": "LONG"}),
        "INVALID_ARGUMENT",
    )
    .await?;
    answers.push(button);
    answers.push(
        call(
            &a,
            "firefox_press_key",
            json!({"tabId": tab, "selector": "#bare", "key": "End"}),
        )
        .await?
        .text,
    );
    let bare_element = call(
        &a,
        "firefox_get_element",
        json!({"tabId": tab, "selector": "#bare"}),
    )
    .await?;
    ensure!(
        bare_element.text.contains("<secret:LONG>"),
        "{bare_element:?}"
    );
    answers.push(bare_element.text);

    // The page got the values: its own check of them matches.
    let content = call(&a, "firefox_get_content", json!({"tabId": tab})).await?;
    let expected = format!("check {} {}", check(TOKEN), check(PASSWORD));
    ensure!(
        content.text.contains(&expected),
        "wanted {expected}: {content:?}"
    );
    ensure!(
        content.text.contains("You typed <secret:SITE_TOKEN>"),
        "{content:?}"
    );
    answers.push(content.text);
    let snapshot = call(&a, "firefox_snapshot", json!({"tabId": tab})).await?;
    ensure!(
        snapshot.text.contains("<secret:SITE_TOKEN>")
            && snapshot.text.contains("<secret:PASSWORD>")
            && snapshot.text.contains("<secret:LONG>"),
        "{snapshot:?}"
    );
    // Every other read that could show it shows the placeholder.
    for (tool, args, shows) in [
        (
            "firefox_get_element",
            json!({"tabId": tab, "selector": "#token"}),
            "<secret:SITE_TOKEN>",
        ),
        (
            "firefox_get_console",
            json!({"tabId": tab}),
            "signing in with <secret:SITE_TOKEN>",
        ),
        // The background hid it too, before it cut the address.
        (
            "firefox_get_network",
            json!({"tabId": tab}),
            "/secrets/echo?q=<secret:SITE_TOKEN>",
        ),
        ("firefox_get_activity", json!({}), "secret SITE_TOKEN"),
    ] {
        let answer = call(&a, tool, args).await?;
        ensure!(answer.text.contains(shows), "{tool}: {answer:?}");
        answers.push(answer.text);
    }

    // Its frame from another site is not where the secret is bound.
    let line = snapshot
        .text
        .lines()
        .find(|l| l.contains("frame field"))
        .ok_or_else(|| anyhow::anyhow!("no frame field in {snapshot:?}"))?;
    let frame_ref = line
        .split_whitespace()
        .last()
        .filter(|r| r.starts_with('f'))
        .ok_or_else(|| anyhow::anyhow!("no frame ref in {line}"))?;
    answers.push(snapshot.text.clone());
    let in_frame = refused(
        &a,
        json!({"tabId": tab, "ref": frame_ref, "secret": "SITE_TOKEN"}),
        "NOT_ALLOWED",
    )
    .await?;
    ensure!(in_frame.contains("this frame is 127.0.0.1"), "{in_frame}");
    answers.push(in_frame);
    // Nor is the same page on another host, nor a secret bound elsewhere.
    let other = a.open(&s.pages.url("/secrets/login.html")).await?;
    for (args, says) in [
        (
            json!({"tabId": other, "selector": "#token", "secret": "SITE_TOKEN"}),
            "bound to localhost",
        ),
        (
            json!({"tabId": tab, "selector": "#token", "secret": "ELSEWHERE"}),
            "bound to example.com",
        ),
    ] {
        let refusal = refused(&a, args, "NOT_ALLOWED").await?;
        ensure!(refusal.contains(says), "{refusal}");
        answers.push(refusal);
    }
    let untouched = call(
        &a,
        "firefox_get_element",
        json!({"tabId": other, "selector": "#token"}),
    )
    .await?;
    ensure!(
        !untouched.text.contains("<secret:"),
        "nothing was typed: {untouched:?}"
    );
    answers.push(untouched.text);
    // Unknown names list the names; a value the agent writes out itself is refused.
    let unknown = refused(
        &a,
        json!({"tabId": tab, "selector": "#token", "secret": "NOPE"}),
        "INVALID_ARGUMENT",
    )
    .await?;
    ensure!(
        unknown.contains("SITE_TOKEN, PASSWORD, ELSEWHERE"),
        "{unknown}"
    );
    answers.push(unknown);
    let forged = json!({"name": "SITE_TOKEN", "value": "typed-anywhere", "sites": []});
    let forged = refused(
        &a,
        json!({"tabId": tab, "selector": "#token", "secret": forged}),
        "INVALID_ARGUMENT",
    )
    .await?;
    answers.push(forged);

    let shots = call(&a, "firefox_get_page_state", json!({"tabId": tab})).await?;
    answers.push(shots.text);
    for answer in &answers {
        no_value_in(answer)?;
        ensure!(
            !answer.contains("<redacted:"),
            "the frame hid none: {answer}"
        );
    }
    a.close().await?;
    Ok(())
}

/// An agent whose MCP server reads `secrets` as its secrets file (kept in the folder
/// returned), logging to `log` in the browser's folder.
async fn with_secrets(
    s: &Shared,
    secrets: &str,
    log: &str,
) -> anyhow::Result<(Agent, tempfile::TempDir)> {
    let folder = tempfile::tempdir_in(s.browser.path())?;
    let file = folder.path().join("agent.secrets");
    std::fs::write(&file, secrets)?;
    let file_env = file.to_string_lossy().into_owned();
    let a = Agent::spawn_with(
        s.browser.runtime.path(),
        &s.browser.path().join(log),
        &[("CLAUDEZILLA_SECRETS_FILE", &file_env)],
    )
    .await?;
    Ok((a, folder))
}

/// No value, nor a telling part of one, in `answer`.
fn no_value_in(answer: &str) -> anyhow::Result<()> {
    for value in [
        TOKEN,
        PASSWORD,
        ELSEWHERE,
        "tok%203f9a",
        "tok 3f9a",
        "3f9a",
        "7c1e",
        "correct-horse",
        "4e7c",
    ] {
        ensure!(!answer.contains(value), "{value:?} shown in {answer}");
    }
    Ok(())
}

/// Every text the frame returns hides a typed value before it cuts, collapses or matches,
/// also in a document the value was never typed into; the fields a secret goes into by
/// default are a login form's; and no argument may carry a value out.
pub async fn secrets_are_hidden_wherever_the_page_shows_them(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, _folder) = with_secrets(
        &s,
        &format!("SITE_TOKEN=\"{TOKEN}\" @localhost:any-field\nPASSWORD={PASSWORD} @localhost\n"),
        "mcp-secrets-hidden.log",
    )
    .await?;
    let local = |path: &str| s.pages.url(path).replace("127.0.0.1", "localhost");
    let tab = a.open(&local("/secrets/login.html")).await?;
    let mut answers = Vec::new();
    call(
        &a,
        "firefox_type",
        json!({"tabId": tab, "selector": "#token", "secret": "SITE_TOKEN"}),
    )
    .await?;

    // The frame hides it (`<secret:`), so the server's pass never sees it (`<redacted:`):
    // in text cut through the value, in HTML as the browser serialises it, in find's text.
    for (tool, args, shows) in [
        (
            "firefox_get_content",
            json!({"tabId": tab, "selector": "#echo", "maxLength": 20}),
            "You typed <secret:SI",
        ),
        (
            "firefox_get_content",
            json!({"tabId": tab, "selector": "#token", "format": "html"}),
            "value=\"<secret:SITE_TOKEN>\"",
        ),
        (
            "firefox_get_content",
            json!({"tabId": tab, "format": "markdown"}),
            "You typed <secret:SITE_TOKEN>",
        ),
        (
            "firefox_find",
            json!({"tabId": tab, "pattern": "typed ."}),
            "You «typed <»secret:SITE_TOKEN>",
        ),
        (
            "firefox_find",
            json!({"tabId": tab, "pattern": "3f9."}),
            "Not found on the page",
        ),
    ] {
        let answer = call(&a, tool, args.clone()).await?;
        ensure!(
            answer.text.contains(shows),
            "{tool} {args}: wanted {shows:?} in {answer:?}"
        );
        answers.push(answer.text);
    }

    // A page of the same site that shows the value after a navigation: the frame knows it.
    call(
        &a,
        "firefox_navigate",
        json!({"tabId": tab, "url": local("/secrets/shown.html")}),
    )
    .await?;
    let shown = call(&a, "firefox_get_content", json!({"tabId": tab})).await?;
    ensure!(
        shown.text.contains("Welcome back, <secret:SITE_TOKEN>"),
        "{shown:?}"
    );
    answers.push(shown.text);

    // A login form's fields take a secret by default; a comment box does not.
    call(
        &a,
        "firefox_navigate",
        json!({"tabId": tab, "url": local("/secrets/login.html")}),
    )
    .await?;
    for selector in ["#pw", "#user"] {
        let typed = call(
            &a,
            "firefox_type",
            json!({"tabId": tab, "selector": selector, "secret": "PASSWORD"}),
        )
        .await?;
        answers.push(typed.text);
    }
    let comment = refused(
        &a,
        json!({"tabId": tab, "selector": "#comment", "secret": "PASSWORD"}),
        "NOT_ALLOWED",
    )
    .await?;
    ensure!(
        comment.contains("password fields") && comment.contains("@site:any-field"),
        "{comment}"
    );
    answers.push(comment);

    // Arguments that carry a value, in any form, are refused before anything is sent.
    let encoded: String = url::form_urlencoded::byte_serialize(TOKEN.as_bytes()).collect();
    for (tool, args, names) in [
        (
            "firefox_navigate",
            json!({"tabId": tab, "url": format!("http://127.0.0.1:9/?p={encoded}")}),
            "SITE_TOKEN",
        ),
        (
            "firefox_type",
            json!({"tabId": tab, "selector": "#comment", "text": format!("my {PASSWORD}")}),
            "PASSWORD",
        ),
        (
            "firefox_find",
            json!({"tabId": tab, "text": PASSWORD.to_uppercase()}),
            "PASSWORD",
        ),
    ] {
        let answer = a.call(tool, args).await?;
        let refusal = answer.expect_error("NOT_ALLOWED")?;
        ensure!(refusal.contains(names), "{tool}: {refusal}");
        answers.push(refusal.to_owned());
    }
    let comment = call(
        &a,
        "firefox_get_element",
        json!({"tabId": tab, "selector": "#comment"}),
    )
    .await?;
    ensure!(
        !comment.text.contains("my "),
        "nothing was typed: {comment:?}"
    );

    for answer in &answers {
        no_value_in(answer)?;
        ensure!(
            !answer.contains("<redacted:"),
            "the frame hid none: {answer}"
        );
    }
    a.close().await?;
    Ok(())
}

/// A `firefox_type` that must fail with `code`; what it said.
async fn refused(a: &Agent, args: serde_json::Value, code: &str) -> anyhow::Result<String> {
    let answer = a.call("firefox_type", args).await?;
    Ok(answer.expect_error(code)?.to_owned())
}

/// React's TodoMVC: a controlled field (React mirrors its value into the `value` attribute)
/// and the list that shows what was saved — the secret is hidden in both, by the frame.
pub async fn a_react_app_shows_no_secret(s: Arc<Shared>) -> anyhow::Result<()> {
    const NOTE: &str = "walk-9e2f the 'cat' & co";
    let (a, _folder) = with_secrets(
        &s,
        &format!("NOTE=\"{NOTE}\" @127.0.0.1:any-field\n"),
        "mcp-secrets-react.log",
    )
    .await?;
    let tab = a.open(&s.pages.url("/widgets/todo-react.html")).await?;
    let state = async || {
        call(
            &a,
            "firefox_get_content",
            json!({"tabId": tab, "selector": "#state"}),
        )
        .await
        .map(|answer| answer.text)
    };
    claudezilla_e2e::eventually(std::time::Duration::from_secs(10), "the app", async || {
        state().await.ok().filter(|t| t.contains("Buy milk"))
    })
    .await?;
    let mut answers = Vec::new();
    call(
        &a,
        "firefox_click",
        json!({"tabId": tab, "selector": "li:first-child label", "clickCount": 2}),
    )
    .await?;
    call(
        &a,
        "firefox_type",
        json!({"tabId": tab, "selector": "li.editing .edit", "secret": "NOTE", "clear": true}),
    )
    .await?;
    let field = call(
        &a,
        "firefox_get_content",
        json!({"tabId": tab, "selector": "li.editing", "format": "html"}),
    )
    .await?;
    answers.push(field.text);
    call(
        &a,
        "firefox_press_key",
        json!({"tabId": tab, "key": "Enter"}),
    )
    .await?;
    let saved = claudezilla_e2e::eventually(
        std::time::Duration::from_secs(5),
        "the saved todo",
        async || state().await.ok().filter(|t| t.contains("<secret:NOTE>")),
    )
    .await?;
    answers.push(saved);
    for tool in ["firefox_snapshot", "firefox_get_page_state"] {
        answers.push(call(&a, tool, json!({"tabId": tab})).await?.text);
    }
    for answer in &answers {
        for part in ["9e2f", "walk-", "'cat'", "&#39;cat", "&amp; co"] {
            ensure!(!answer.contains(part), "{part:?} shown in {answer}");
        }
        ensure!(
            !answer.contains("<redacted:"),
            "the frame hid none: {answer}"
        );
    }
    a.close().await?;
    Ok(())
}
