//! Issue 10: the user's own tabs. Attaching one waits for the user's answer in the toolbar
//! popup — pressed here as the user would, through Marionette — and giving a tab back takes
//! every hook out of its page.

use std::collections::HashMap;
use std::time::Duration;

use anyhow::{Context, ensure};
use claudezilla_e2e::browser::Options;
use claudezilla_e2e::marionette::Marionette;
use claudezilla_e2e::pages::Page;
use claudezilla_e2e::{Agent, Browser, PageServer, ToolResult, eventually};

use crate::common::text_of;
use serde_json::json;

fn pages() -> HashMap<&'static str, Page> {
    HashMap::from([
        (
            "/other.html",
            Page::html("<!doctype html><title>Other page</title><p>other-91c2</p>"),
        ),
        (
            "/mine.html",
            Page::html(
                "<!doctype html><title>The user's mail</title><p id=out>untouched</p>\
             <script>const own = window.confirm;</script>\
             <button id=check onclick=\"document.getElementById('out').textContent = \
             'confirm is the page own: ' + (window.confirm === own)\">check</button>\
             <a id=get href=/report.bin>report</a> <a id=open href=/other.html target=_blank>open</a>\
             <script>const ownFocus = HTMLElement.prototype.focus, ownHasFocus = Document.prototype.hasFocus;</script>\
             <button id=fcheck onclick=\"document.getElementById('out').textContent = \
             'focus is the page own: ' + (HTMLElement.prototype.focus === ownFocus && Document.prototype.hasFocus === ownHasFocus)\">focus check</button>",
            ),
        ),
        (
            "/report.bin",
            Page::download(b"the report".to_vec(), "report.bin"),
        ),
        (
            "/fetcher.html",
            Page::html(
                "<!doctype html><title>Fetcher</title><p id=out>waiting</p><script>\
                 fetch('/data.txt').then(r => r.text()).then(t => document.getElementById('out').textContent = 'got:' + t)</script>",
            ),
        ),
        ("/data.txt", Page::html("real-data")),
    ])
}

struct Setup {
    browser: Browser,
    pages: PageServer,
    ui: Marionette,
    /// Marionette's window handles of the user's tab and of the popup's page.
    user_window: String,
    popup: String,
}

async fn setup() -> anyhow::Result<Setup> {
    let pages = PageServer::start(pages()).await?;
    let browser = Browser::start_with_options(Options {
        marionette: true,
        ..Options::default()
    })
    .await?;
    let mut ui = browser.marionette().await?;
    // The user opens their own page in the first tab.
    ui.command(
        "WebDriver:Navigate",
        json!({"url": pages.url("/mine.html")}),
    )
    .await?;
    let user_window = ui.command("WebDriver:GetWindowHandle", json!({})).await?["value"]
        .as_str()
        .context("no window handle")?
        .to_owned();
    // The toolbar popup's page, in a tab of its own.
    let popup = ui
        .open_tab(&Browser::extension_page("popup/popup.html"))
        .await?;
    Ok(Setup {
        browser,
        pages,
        ui,
        user_window,
        popup,
    })
}

async fn agent(s: &Setup, name: &str) -> anyhow::Result<Agent> {
    s.browser.agent(name).await
}

/// The user's tab id, as the agent sees it.
async fn user_tab(a: &Agent) -> anyhow::Result<u32> {
    user_tab_titled(a, "The user's mail").await
}

/// The id of the user's tab titled `title`, as the agent sees it.
async fn user_tab_titled(a: &Agent, title: &str) -> anyhow::Result<u32> {
    user_tabs_titled(a, title)
        .await?
        .first()
        .copied()
        .with_context(|| format!("no user tab {title:?}"))
}

/// The ids of the user's tabs titled `title`, as the agent sees them.
async fn user_tabs_titled(a: &Agent, title: &str) -> anyhow::Result<Vec<u32>> {
    let all = a.call("firefox_list_all_tabs", json!({})).await?.ok()?;
    Ok(titled(&all.text, title))
}

/// The ids of the user's tabs titled `title` in a `firefox_list_all_tabs` answer.
fn titled(all: &str, title: &str) -> Vec<u32> {
    all.lines()
        .filter(|l| l.contains("the user's") && l.contains(title))
        .filter_map(|l| {
            l.strip_prefix("tab ")?
                .split_whitespace()
                .next()?
                .parse()
                .ok()
        })
        .collect()
}

/// `agent` asks to attach `tab`, waiting at most `timeout` ms, while the test goes on.
fn ask_for(
    agent: Agent,
    tab: u32,
    timeout: u64,
) -> tokio::task::JoinHandle<(Agent, anyhow::Result<ToolResult>)> {
    tokio::spawn(async move {
        let r = agent
            .call(
                "firefox_attach_tab",
                json!({"tabId": tab, "timeout": timeout}),
            )
            .await;
        (agent, r)
    })
}

pub async fn attaching_waits_for_the_users_answer() -> anyhow::Result<()> {
    let mut s = setup().await?;
    let a = agent(&s, "attach").await?;
    let tab = user_tab(&a).await?;

    // Nobody answers: refused once the agent stops waiting, and the tab is not the agent's.
    let unanswered = a
        .call("firefox_attach_tab", json!({"tabId": tab, "timeout": 5000}))
        .await?;
    ensure!(
        unanswered
            .expect_error("DENIED")?
            .contains("did not answer"),
        "{unanswered:?}"
    );
    let not_mine = a.call("firefox_get_content", json!({"tabId": tab})).await?;
    not_mine.expect_error("NO_SUCH_TAB")?;

    // The user refuses in the popup.
    let asking = tokio::spawn({
        let a = agent(&s, "attach-2").await?;
        async move {
            let r = a.call("firefox_attach_tab", json!({"tabId": tab})).await;
            (a, r)
        }
    });
    let request = s.ui.wait_text("#approvals", "wants tab", true).await?;
    ensure!(request.contains("The user's mail"), "{request}");
    s.ui.click("button.deny").await?;
    let (b, refused) = asking.await?;
    ensure!(
        refused?.expect_error("DENIED")?.contains("refused"),
        "the user's no is a refusal"
    );

    // The user allows: the agent drives the tab.
    let asking = tokio::spawn(async move {
        let r = b.call("firefox_attach_tab", json!({"tabId": tab})).await;
        (b, r)
    });
    s.ui.wait_text("#approvals", "wants tab", true).await?;
    s.ui.click("button.allow").await?;
    let (b, allowed) = asking.await?;
    ensure!(allowed?.ok()?.tab_id()? == tab);
    b.call("firefox_click", json!({"tabId": tab, "selector": "#check"}))
        .await?
        .ok()?;
    let text = text_of(&b, tab, "#out").await?;
    ensure!(
        text.contains("own: false"),
        "while attached, dialogs are ours: {text:?}"
    );

    // Given back: the page's own confirm is back, and the agent cannot read it any more.
    b.call("firefox_detach_tab", json!({"tabId": tab}))
        .await?
        .ok()?;
    b.call("firefox_get_content", json!({"tabId": tab}))
        .await?
        .expect_error("NO_SUCH_TAB")?;
    s.ui.switch_to(&s.user_window).await?;
    s.ui.click("#check").await?;
    s.ui.wait_text("#out", "own: true", false).await?;
    s.ui.switch_to(&s.popup).await?;
    drop(s.pages);
    Ok(())
}

/// Starts `attach` by `agent` and allows it in the popup, as the user would.
async fn attach_allowed(s: &mut Setup, agent: Agent, tab: u32) -> anyhow::Result<Agent> {
    let asking = tokio::spawn(async move {
        let r = agent
            .call("firefox_attach_tab", json!({"tabId": tab}))
            .await;
        (agent, r)
    });
    s.ui.wait_text("#approvals", "wants tab", true).await?;
    s.ui.click("button.allow").await?;
    let (agent, allowed) = asking.await?;
    ensure!(allowed?.ok()?.tab_id()? == tab);
    Ok(agent)
}

pub async fn attached_tabs_are_given_back_open() -> anyhow::Result<()> {
    let mut s = setup().await?;
    let a = agent(&s, "attach").await?;
    let user_tab = user_tab(&a).await?;
    let a = attach_allowed(&mut s, a, user_tab).await?;
    a.call("firefox_close_tab", json!({"tabId": user_tab}))
        .await?
        .expect_error("OWNERSHIP")?;
    a.call(
        "firefox_navigate",
        json!({"tabId": user_tab, "url": s.pages.url("/other.html")}),
    )
    .await?
    .ok()?;
    let b = agent(&s, "attach-b").await?;
    b.call("firefox_get_content", json!({"tabId": user_tab}))
        .await?
        .expect_error("OWNERSHIP")?;
    b.call("firefox_attach_tab", json!({"tabId": user_tab}))
        .await?
        .expect_error("OWNERSHIP")?;
    let mine = a.call("firefox_get_tabs", json!({})).await?.ok()?;
    ensure!(mine.text.contains("yours, attached"), "{mine:?}");
    a.call("firefox_detach_tab", json!({"tabId": user_tab}))
        .await?
        .ok()?;
    a.call("firefox_get_content", json!({"tabId": user_tab}))
        .await?
        .expect_error("NO_SUCH_TAB")?;
    // Goodbye gives an attached tab back too, open.
    let b = attach_allowed(&mut s, b, user_tab).await?;
    b.close().await?;
    let after = a.call("firefox_list_all_tabs", json!({})).await?.ok()?;
    let line = format!("tab {user_tab} ");
    ensure!(
        after
            .text
            .lines()
            .any(|l| l.starts_with(&line) && l.contains("the user's") && l.contains("Other page")),
        "the user's tab is not back, open: {after:?}"
    );
    a.close().await?;
    Ok(())
}

/// The popup's switches, pressed as the user presses them: `firefox_evaluate` and the cookie
/// and storage tools are refused until switched on, and again once switched off.
pub async fn the_users_switches_turn_tools_on_and_off() -> anyhow::Result<()> {
    let mut s = setup().await?;
    let a = agent(&s, "switches").await?;
    let tab = a.open(&s.pages.url("/mine.html")).await?;
    let evaluate = json!({"tabId": tab, "expression": "1 + 1"});
    let cookies = json!({"tabId": tab, "action": "get"});
    let refused = async |tool: &str, args: &serde_json::Value| {
        a.call(tool, args.clone())
            .await
            .ok()
            .filter(|r| r.expect_error("DISABLED").is_ok())
    };
    ensure!(refused("firefox_evaluate", &evaluate).await.is_some());
    ensure!(refused("firefox_cookies", &cookies).await.is_some());

    s.ui.switch_to(&s.popup).await?;
    s.ui.click("#evaluate").await?;
    s.ui.click("#storage").await?;
    let allowed = async |tool: &str, args: &serde_json::Value| {
        a.call(tool, args.clone())
            .await
            .ok()
            .filter(|r| !r.is_error)
    };
    let two = eventually(Duration::from_secs(5), "evaluate switched on", async || {
        allowed("firefox_evaluate", &evaluate).await
    })
    .await?;
    ensure!(two.text.contains("(number) 2"), "{two:?}");
    eventually(Duration::from_secs(5), "cookies switched on", async || {
        allowed("firefox_cookies", &cookies).await
    })
    .await?;

    s.ui.click("#evaluate").await?;
    eventually(
        Duration::from_secs(5),
        "evaluate switched off",
        async || refused("firefox_evaluate", &evaluate).await,
    )
    .await?;
    // The other switch is the user's own: still on.
    ensure!(allowed("firefox_cookies", &cookies).await.is_some());
    a.close().await?;
    Ok(())
}

/// The popup as the user sees it: the pool with each tab's owner, and what each agent did (its
/// clicks and reads, never what it typed); an agent reads only its own activity. Leaves a
/// picture of the popup in `target/popup.png` (the README's).
pub async fn the_popup_shows_the_pool_and_what_agents_did() -> anyhow::Result<()> {
    let mut s = setup().await?;
    let a = agent(&s, "pool-a").await?;
    let b = agent(&s, "pool-b").await?;
    let mine = a.open(&s.pages.url("/mine.html")).await?;
    let other = a.open(&s.pages.url("/other.html")).await?;
    let theirs = b.open(&s.pages.url("/other.html")).await?;
    a.call(
        "firefox_click",
        json!({"tabId": mine, "selector": "#check"}),
    )
    .await?
    .ok()?;
    a.call(
        "firefox_type",
        json!({"tabId": mine, "selector": "#check", "text": "secret-typed-7f"}),
    )
    .await?;
    b.call("firefox_get_content", json!({"tabId": theirs}))
        .await?
        .ok()?;

    s.ui.switch_to(&s.popup).await?;
    s.ui.wait_text("#count", "(3 of 12)", true).await?;
    let tabs = s.ui.text("#tabs").await?;
    for tab in [mine, other, theirs] {
        ensure!(tabs.contains(&format!("{tab} · agent_")), "{tab} in {tabs}");
    }
    ensure!(
        tabs.contains("The user's mail") && tabs.contains("Other page"),
        "{tabs}"
    );
    let activity = s.ui.wait_text("#activity", "getContent", true).await?;
    ensure!(
        activity.contains(&format!("tab {mine} · click \"#check\" → ok")),
        "{activity}"
    );
    ensure!(
        !activity.contains("secret-typed-7f"),
        "typed text in the log: {activity}"
    );
    ensure!(activity.contains("15 characters"), "{activity}");
    let shot = s.ui.screenshot().await?;
    std::fs::write(claudezilla_e2e::root().join("target/popup.png"), shot)?;

    let own = a.call("firefox_get_activity", json!({})).await?.ok()?;
    ensure!(
        own.text
            .contains(&format!("tab {mine}: click \"#check\" → ok"))
            && !own.text.contains("getContent")
            && !own.text.contains("secret-typed-7f"),
        "{own:?}"
    );
    let theirs_own = b
        .call("firefox_get_activity", json!({"limit": 5}))
        .await?
        .ok()?;
    ensure!(
        theirs_own.text.contains("getContent") && !theirs_own.text.contains("click"),
        "{theirs_own:?}"
    );
    b.call("firefox_get_activity", json!({"limit": 0}))
        .await?
        .expect_error("INVALID_ARGUMENT")?;
    b.close().await?;
    a.close().await?;
    Ok(())
}

/// An attach request that ends (answered or not) stays where it was in the popup, struck
/// through with its buttons disabled, so a click meant for it never lands on the request
/// below; and the user's allowlist, set in the popup, holds for every agent.
pub async fn popup_rows_stay_put_and_the_user_sets_the_allowlist() -> anyhow::Result<()> {
    let mut s = setup().await?;
    s.ui.open_tab(&s.pages.url("/other.html")).await?;
    s.ui.switch_to(&s.popup).await?;
    let a = agent(&s, "rows-a").await?;
    let mail = user_tab(&a).await?;
    let other = user_tab_titled(&a, "Other page").await?;
    let soon = ask_for(a, mail, 5_000);
    s.ui.wait_text("#approvals", "The user's mail", false)
        .await?;
    let later = ask_for(agent(&s, "rows-b").await?, other, 60_000);
    s.ui.wait_text("#approvals", "Other page", false).await?;
    let (a, expired) = soon.await?;
    expired?.expect_error("DENIED")?;
    // The ended request keeps its row, first; the live one stays second.
    s.ui.find("#approvals li.gone:first-child button.allow:disabled")
        .await?;
    let first = s.ui.text("#approvals li:first-child").await?;
    ensure!(first.contains("The user's mail"), "{first}");
    let live = s.ui.text("#approvals li:nth-child(2)").await?;
    ensure!(live.contains("Other page"), "{live}");
    // A click on the old row's Allow does nothing.
    let _ = s.ui.click("#approvals li:first-child button.allow").await;
    s.ui.click("#approvals li:nth-child(2) button.allow")
        .await?;
    let (b, attached) = later.await?;
    ensure!(attached?.ok()?.tab_id()? == other);
    // An attached tab is the user's: the agent's routes never touch it.
    b.call(
        "firefox_route",
        json!({"pattern": "**/data.txt", "action": "fulfill", "body": "mocked"}),
    )
    .await?
    .ok()?;
    b.call(
        "firefox_navigate",
        json!({"tabId": other, "url": s.pages.url("/fetcher.html")}),
    )
    .await?
    .ok()?;
    let fetched = eventually(Duration::from_secs(5), "the fetch", async || {
        text_of(&b, other, "#out")
            .await
            .ok()
            .filter(|t| t.contains("got:"))
    })
    .await?;
    ensure!(
        fetched.contains("real-data"),
        "a route touched the user's tab: {fetched}"
    );

    // The user's allowlist, typed into the popup.
    let field = s.ui.find("#domains").await?;
    s.ui.command("WebDriver:ElementClear", json!({"id": field}))
        .await?;
    s.ui.command(
        "WebDriver:ElementSendKeys",
        json!({"id": field, "text": "127.0.0.1"}),
    )
    .await?;
    s.ui.click("#save-domains").await?;
    s.ui.wait_text("#domains-note", "stay on these", false)
        .await?;
    let port = s.pages.port;
    let away = format!("http://localhost:{port}/other.html");
    let refused = a
        .call("firefox_create_window", json!({"url": away}))
        .await?;
    ensure!(
        refused.expect_error("NOT_ALLOWED")?.contains("user's"),
        "{refused:?}"
    );
    let wider = a
        .call(
            "firefox_set_config",
            json!({"allowedDomains": ["localhost"]}),
        )
        .await?;
    wider.expect_error("NOT_ALLOWED")?;
    let field = s.ui.find("#domains").await?;
    s.ui.command("WebDriver:ElementClear", json!({"id": field}))
        .await?;
    s.ui.click("#save-domains").await?;
    s.ui.wait_text("#domains-note", "anywhere", false).await?;
    a.open(&away).await?;
    b.close().await?;
    a.close().await?;
    Ok(())
}

/// The user allowed the site they were shown: a tab that moved to another site while they
/// decided is not attached. And a download the user starts on an address an agent's page just
/// loaded stays the user's.
pub async fn consent_follows_the_site_and_user_downloads_stay_theirs() -> anyhow::Result<()> {
    let mut s = setup().await?;
    let a = agent(&s, "moved").await?;
    let tab = user_tab(&a).await?;
    let asking = ask_for(a, tab, 60_000);
    s.ui.wait_text("#approvals", "The user's mail", true)
        .await?;
    // Meanwhile the tab goes to another site (`localhost`, not 127.0.0.1).
    s.ui.switch_to(&s.user_window).await?;
    let port = s.pages.port;
    s.ui.command(
        "WebDriver:Navigate",
        json!({"url": format!("http://localhost:{port}/other.html")}),
    )
    .await?;
    s.ui.switch_to(&s.popup).await?;
    s.ui.click("button.allow").await?;
    let (a, moved) = asking.await?;
    let moved = moved?;
    ensure!(moved.expect_error("DENIED")?.contains("moved"), "{moved:?}");
    a.call("firefox_get_content", json!({"tabId": tab}))
        .await?
        .expect_error("NO_SUCH_TAB")?;

    // The agent's page loads the report (a download, the agent's).
    let project = tempfile::tempdir()?;
    let b = s.browser.agent_in("downloads", project.path()).await?;
    let mine = b.open(&s.pages.url("/other.html")).await?;
    b.call(
        "firefox_navigate",
        json!({"tabId": mine, "url": s.pages.url("/report.bin")}),
    )
    .await?
    .ok()?;
    // The user, in their own tab, downloads the same address.
    s.ui.switch_to(&s.user_window).await?;
    s.ui.command(
        "WebDriver:Navigate",
        json!({"url": s.pages.url("/mine.html")}),
    )
    .await?;
    s.ui.command(
        "WebDriver:ExecuteScript",
        json!({"script": "document.getElementById('get').click()", "args": []}),
    )
    .await?;
    s.ui.switch_to(&s.popup).await?;
    eventually(Duration::from_secs(10), "the user's download", async || {
        let found = crate::beyond::files_named(s.browser.path(), &["report"]);
        (found.len() >= 2).then_some(found)
    })
    .await?;
    let listed = b
        .call("firefox_downloads", json!({"wait": true, "timeout": 15000}))
        .await?
        .ok()?;
    ensure!(listed.text.starts_with("1 download"), "{listed:?}");
    ensure!(project.path().join("downloads/report.bin").exists());
    ensure!(
        !project.path().join("downloads/report (2).bin").exists(),
        "the user's download was taken"
    );
    let left = crate::beyond::files_named(s.browser.path(), &["report"]);
    ensure!(
        left.len() == 1,
        "the user's copy, and only it, stays: {left:?}"
    );
    b.close().await?;
    Ok(())
}

/// The agent's focus emulation is only in its tabs: a tab of the user's keeps the page's own
/// focus() and hasFocus(), gets them while attached, and has them back once given back.
pub async fn focus_emulation_leaves_with_the_tab() -> anyhow::Result<()> {
    let mut s = setup().await?;
    let a = agent(&s, "focus-owner").await?;
    let tab = user_tab(&a).await?;
    let mine = a.open(&s.pages.url("/mine.html")).await?;
    a.call(
        "firefox_click",
        json!({"tabId": mine, "selector": "#fcheck"}),
    )
    .await?
    .ok()?;
    ensure!(
        text_of(&a, mine, "#out").await?.contains("own: false"),
        "the agent's own tab is emulated"
    );
    s.ui.switch_to(&s.user_window).await?;
    s.ui.click("#fcheck").await?;
    s.ui.wait_text("#out", "focus is the page own: true", false)
        .await?;
    s.ui.switch_to(&s.popup).await?;
    let a = attach_allowed(&mut s, a, tab).await?;
    a.call(
        "firefox_click",
        json!({"tabId": tab, "selector": "#fcheck"}),
    )
    .await?
    .ok()?;
    ensure!(text_of(&a, tab, "#out").await?.contains("own: false"));
    a.call("firefox_detach_tab", json!({"tabId": tab}))
        .await?
        .ok()?;
    s.ui.switch_to(&s.user_window).await?;
    s.ui.click("#fcheck").await?;
    s.ui.wait_text("#out", "focus is the page own: true", false)
        .await?;
    a.close().await?;
    Ok(())
}

/// Tabs opened from the user's attached tab stay the user's, whoever opened them: the user (a
/// click in their own tab, as a middle-click or a sign-in popup would) or the agent's own click
/// (the browser does not say which). The agent cannot act on them, is told they opened, and
/// leaving does not close them.
pub async fn tabs_opened_from_an_attached_tab_stay_the_users() -> anyhow::Result<()> {
    let mut s = setup().await?;
    let a = agent(&s, "opener").await?;
    let tab = user_tab(&a).await?;
    let a = attach_allowed(&mut s, a, tab).await?;
    s.ui.switch_to(&s.user_window).await?;
    s.ui.click("#open").await?;
    s.ui.switch_to(&s.popup).await?;
    let by_user = eventually(Duration::from_secs(10), "the user's new tab", async || {
        let tabs = user_tabs_titled(&a, "Other page").await.ok()?;
        (tabs.len() == 1).then(|| tabs[0])
    })
    .await?;
    // The agent's own click on the same link: its answer, or a later one, tells of the tab.
    let mut heard = a
        .call("firefox_click", json!({"tabId": tab, "selector": "#open"}))
        .await?
        .ok()?
        .text;
    let tabs = eventually(Duration::from_secs(10), "the second new tab", async || {
        let all = a.call("firefox_list_all_tabs", json!({})).await.ok()?.text;
        heard.push_str(&all);
        let tabs = titled(&all, "Other page");
        (tabs.len() == 2).then_some(tabs)
    })
    .await?;
    let mine = a.call("firefox_get_tabs", json!({})).await?.ok()?;
    ensure!(
        mine.text.lines().filter(|l| l.contains("(yours")).count() == 1,
        "only the attached tab is the agent's: {mine:?}"
    );
    heard.push_str(&mine.text);
    let opened_by_agent = tabs.iter().find(|t| **t != by_user).copied().unwrap_or(0);
    let notice = format!("opened tab {opened_by_agent}");
    eventually(
        Duration::from_secs(10),
        "the agent to be told",
        async || {
            let r = a.call("firefox_get_tabs", json!({})).await.ok()?;
            heard.push_str(&r.text);
            heard.contains(&notice).then_some(())
        },
    )
    .await
    .with_context(|| format!("the answers said: {heard}"))?;
    ensure!(heard.contains("is the user's"), "{heard}");
    for opened in &tabs {
        a.call("firefox_get_content", json!({"tabId": opened}))
            .await?
            .expect_error("NO_SUCH_TAB")?;
    }
    ensure!(tabs.contains(&by_user));
    // The agent leaves: the user's tabs stay open.
    a.close().await?;
    let b = agent(&s, "watcher").await?;
    let left = user_tabs_titled(&b, "Other page").await?;
    ensure!(left == tabs, "the user's tabs closed: {left:?} of {tabs:?}");
    Ok(())
}
