//! Many agents, one browser: the 12-tab pool, slot requests and grants, ownership across
//! agents, agent life and the screenshot mutex.

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, ensure};
use claudezilla_e2e::{Agent, Browser, PageServer, RawClient, ToolResult, eventually};
use claudezilla_protocol::{Command, Reply};
use futures_util::future::join_all;
use serde_json::{Value, json};

use crate::common::{COLOURS, Shared, centre_colour, close_to, tabs_gone, test_pages};

/// A browser of its own with its page server and a few agents.
struct Own {
    browser: Browser,
    pages: PageServer,
}

impl Own {
    async fn start(env: &[(&str, &str)]) -> anyhow::Result<Self> {
        Ok(Self {
            browser: Browser::start_with(env).await?,
            pages: PageServer::start(test_pages()).await?,
        })
    }

    async fn agent(&self, name: &str) -> anyhow::Result<Agent> {
        self.agent_with(name, &[]).await
    }

    async fn agent_with(&self, name: &str, env: &[(&str, &str)]) -> anyhow::Result<Agent> {
        let log = self.browser.path().join(format!("mcp-{name}.log"));
        Agent::spawn_with(self.browser.runtime.path(), &log, env).await
    }

    async fn agents(&self, n: usize) -> anyhow::Result<Vec<Agent>> {
        let mut all = Vec::new();
        for i in 0..n {
            all.push(self.agent(&format!("a{i}")).await?);
        }
        Ok(all)
    }
}

async fn diagnose(agent: &Agent) -> anyhow::Result<String> {
    Ok(agent.call("firefox_diagnose", json!({})).await?.ok()?.text)
}

pub async fn a_full_pool_is_shared_by_request_and_grant() -> anyhow::Result<()> {
    let own = Own::start(&[("CLAUDEZILLA_RESERVATION_MS", "3000")]).await?;
    let agents = own.agents(4).await?;
    let other = own.pages.url("/other.html");
    let filled = join_all(agents.iter().map(async |a| {
        let mut tabs = Vec::new();
        for _ in 0..3 {
            tabs.push(a.open(&other).await?);
        }
        anyhow::Ok(tabs)
    }))
    .await;
    let tabs: Vec<Vec<u32>> = filled.into_iter().collect::<Result<_, _>>()?;

    let fifth = own.agent("fifth").await?;
    let full = fifth
        .call("firefox_create_window", json!({ "url": other }))
        .await?;
    let text = full.expect_error("POOL_FULL")?;
    ensure!(
        text.contains("12") && text.matches("holds 3").count() == 4,
        "names the limit and holders: {text}"
    );
    ensure!(
        text.contains("firefox_request_tab_space") && text.contains("firefox_close_tab"),
        "says what to do: {text}"
    );

    let queued = fifth
        .call("firefox_request_tab_space", json!({}))
        .await?
        .ok()?;
    ensure!(queued.text.contains("place 1"), "{}", queued.text);
    let listed = agents[0]
        .call("firefox_get_slot_requests", json!({}))
        .await?
        .ok()?;
    ensure!(listed.text.contains("waiting #1"), "{}", listed.text);

    let refused = agents[1].call("firefox_grant_tab_space", json!({})).await?;
    ensure!(
        !refused.is_error,
        "a holder of 3 may grant: {}",
        refused.text
    );
    ensure!(
        refused
            .text
            .contains(&format!("Closed your tab {}", tabs[1][0])),
        "the oldest tab goes: {}",
        refused.text
    );
    let reserved = agents[2]
        .call("firefox_create_window", json!({ "url": other }))
        .await?;
    ensure!(
        reserved.expect_error("POOL_FULL")?.contains("reserved for"),
        "the slot is held for the waiter"
    );
    fifth
        .open(&other)
        .await
        .context("the waiter gets its reserved slot")?;

    // A reservation nobody uses runs out (3 s here, 30 s by default) and the slot is free again.
    let late = own.agent("late").await?;
    late.call("firefox_request_tab_space", json!({}))
        .await?
        .ok()?;
    agents[0]
        .call("firefox_grant_tab_space", json!({}))
        .await?
        .ok()?;
    agents[2]
        .call("firefox_create_window", json!({ "url": other }))
        .await?
        .expect_error("POOL_FULL")?;
    eventually(
        Duration::from_secs(15),
        "the reservation to expire",
        async || {
            let r = agents[2]
                .call("firefox_get_slot_requests", json!({}))
                .await
                .ok()?;
            (!r.text.contains("reserved:")).then_some(())
        },
    )
    .await?;
    agents[2]
        .open(&other)
        .await
        .context("the expired slot is anyone's")?;
    late.call("firefox_create_window", json!({ "url": other }))
        .await?
        .expect_error("POOL_FULL")?;

    // Every tab-touching tool, from each agent against the next one's tab: all refused.
    for (i, intruder) in agents.iter().enumerate() {
        let victim = tabs[(i + 1) % 4][2];
        for (tool, args) in [
            (
                "firefox_navigate",
                json!({"tabId": victim, "url": own.pages.url("/basic.html")}),
            ),
            ("firefox_get_content", json!({"tabId": victim})),
            ("firefox_click", json!({"tabId": victim, "selector": "p"})),
            (
                "firefox_type",
                json!({"tabId": victim, "selector": "p", "text": "x"}),
            ),
            ("firefox_screenshot", json!({"tabId": victim})),
            ("firefox_close_tab", json!({"tabId": victim})),
        ] {
            let r = intruder.call(tool, args).await?;
            let text = r
                .expect_error("OWNERSHIP")
                .with_context(|| format!("{tool} by agent {i}"))?;
            ensure!(
                text.contains(&format!("tab {victim} (owned by agent_")),
                "{text}"
            );
        }
        intruder
            .call("firefox_close_window", json!({}))
            .await?
            .expect_error("OWNERSHIP")?;
    }
    for (i, owner) in agents.iter().enumerate() {
        let page = owner
            .call("firefox_get_content", json!({"tabId": tabs[i][2]}))
            .await?
            .ok()?;
        ensure!(
            page.text.contains("other-91c2"),
            "agent {i}'s page was changed: {}",
            page.text
        );
    }
    Ok(())
}

pub async fn first_tabs_opened_together_share_one_window() -> anyhow::Result<()> {
    let own = Own::start(&[]).await?;
    let agents = own.agents(4).await?;
    let before = diagnose(&agents[0]).await?;
    ensure!(
        before.contains("agent window not open (1 browser window(s) open)"),
        "{before}"
    );
    let url = own.pages.url("/other.html");
    let opened: Vec<anyhow::Result<u32>> = join_all(agents.iter().map(|a| a.open(&url))).await;
    for r in opened {
        r?;
    }
    let after = diagnose(&agents[3]).await?;
    ensure!(
        after.contains("4 of 12 tabs in use by 4 agent(s)"),
        "every agent's tab is tracked: {after}"
    );
    ensure!(
        after.contains("(2 browser window(s) open)"),
        "one agent window, not four: {after}"
    );
    for a in &agents {
        let tabs = a.call("firefox_get_tabs", json!({})).await?.ok()?;
        ensure!(
            tabs.text.lines().count() == 4 && tabs.text.matches("(yours)").count() == 1,
            "{}",
            tabs.text
        );
    }
    Ok(())
}

/// An agent whose very first tab is in a container of its own: no agents' window exists yet,
/// so the window is opened with the tab, in that container; and the browser answers every
/// agent after it (a browser call that threw once left the window's lock held for good).
pub async fn a_first_tab_in_an_own_container_opens_the_window() -> anyhow::Result<()> {
    let own = Own::start(&[]).await?;
    let url = own.pages.url("/other.html");
    let jarred = own.agent("jarred").await?;
    let opened = jarred
        .call(
            "firefox_create_window",
            json!({"url": url, "container": "own", "timeout": 10000}),
        )
        .await?
        .ok()?;
    ensure!(opened.text.contains("Container: "), "{}", opened.text);
    let other = own.agent("plain").await?;
    other.open(&url).await?;
    let after = diagnose(&other).await?;
    ensure!(
        after.contains("2 of 12 tabs in use by 2 agent(s)")
            && after.contains("(2 browser window(s) open)"),
        "one agents' window, both tabs in it: {after}"
    );
    Ok(())
}

pub async fn a_killed_agent_frees_its_tabs(s: Arc<Shared>) -> anyhow::Result<()> {
    let doomed = s.agent("doomed").await?;
    let watcher = s.agent("watcher2").await?;
    let tabs = [
        doomed.open(&s.pages.url("/other.html")).await?,
        doomed.open(&s.pages.url("/other.html")).await?,
    ];
    // SIGKILL: no goodbye; the host sees the connection drop and tells the extension.
    doomed.kill();
    tabs_gone(&watcher, &tabs, "the killed agent's tabs to be released").await
}

pub async fn concurrent_screenshots_each_show_their_own_page(s: Arc<Shared>) -> anyhow::Result<()> {
    let mut agents = Vec::new();
    for (name, _) in COLOURS {
        agents.push(s.agent(&format!("shot-{name}")).await?);
    }
    let mut tabs = Vec::new();
    for (agent, (name, _)) in agents.iter().zip(COLOURS) {
        tabs.push(
            agent
                .open(&s.pages.url(&format!("/colour/{name}.html")))
                .await?,
        );
    }
    let runs = join_all(agents.iter().zip(tabs).zip(COLOURS).map(
        async |((agent, tab), (name, rgb))| {
            for i in 0..25 {
                let shot = agent
                    .call("firefox_screenshot", json!({ "tabId": tab }))
                    .await?;
                let shot = shot.ok().with_context(|| format!("{name} shot {i}"))?;
                let (_, data) = shot.images.first().context("no image")?;
                let seen = centre_colour(data)?;
                ensure!(
                    close_to(seen, rgb, 24),
                    "{name} agent's shot {i} shows {seen:?}, not its {rgb:?}"
                );
            }
            anyhow::Ok(())
        },
    ))
    .await;
    runs.into_iter().collect()
}

pub async fn the_capture_lock_survives_failures_and_busy_waiters() -> anyhow::Result<()> {
    let own = Own::start(&[("CLAUDEZILLA_MUTEX_BUSY_MS", "1")]).await?;
    let agents = own.agents(4).await?;
    let mut tabs = Vec::new();
    for (agent, (name, _)) in agents.iter().zip(COLOURS) {
        tabs.push(
            agent
                .open(&own.pages.url(&format!("/colour/{name}.html")))
                .await?,
        );
    }
    // With a 1 ms busy limit, agents that find the lock taken give up with MUTEX_BUSY.
    let mut busy = 0;
    for _ in 0..5 {
        let round: Vec<anyhow::Result<ToolResult>> = join_all(
            agents
                .iter()
                .zip(&tabs)
                .map(|(a, t)| a.call("firefox_screenshot", json!({ "tabId": t }))),
        )
        .await;
        for r in round {
            let r = r?;
            if r.is_error {
                let text = r.expect_error("MUTEX_BUSY")?;
                ensure!(
                    text.contains("retry"),
                    "a busy answer says to retry: {text}"
                );
                busy += 1;
            }
        }
    }
    ensure!(
        busy > 0,
        "20 simultaneous screenshots never found the lock taken"
    );

    // Captures that fail because their tab closes mid-way must not keep the lock.
    let racer = &agents[0];
    for _ in 0..8 {
        let tab = racer.open(&own.pages.url("/other.html")).await?;
        let (shot, closed) = tokio::join!(
            racer.call("firefox_screenshot", json!({ "tabId": tab })),
            racer.call("firefox_close_tab", json!({ "tabId": tab }))
        );
        closed?.ok()?;
        let shot = shot?;
        ensure!(
            !shot.is_error
                || shot.text.starts_with("NO_SUCH_TAB")
                || shot.text.starts_with("BROWSER"),
            "{}",
            shot.text
        );
    }
    for (agent, tab) in agents.iter().zip(&tabs) {
        agent
            .call("firefox_screenshot", json!({ "tabId": tab }))
            .await?
            .ok()
            .context("the lock was left held")?;
    }
    Ok(())
}

pub async fn a_restarted_extension_readopts_its_window() -> anyhow::Result<()> {
    let own = Own::start(&[]).await?;
    let agent = own.agent("keeper").await?;
    let first = agent.open(&own.pages.url("/basic.html")).await?;
    let second = agent.open(&own.pages.url("/other.html")).await?;
    let before = diagnose(&agent).await?;

    let mut raw = RawClient::connect(&own.browser.runtime).await?;
    ensure!(matches!(
        raw.call(Command::ReloadExtension).await?,
        Ok(Reply::Ack)
    ));
    // The old host exits with the old background; the new background starts a new one.
    eventually(Duration::from_secs(20), "the old host to go", async || {
        raw.next().await.ok().flatten().is_none().then_some(())
    })
    .await?;
    eventually(
        Duration::from_secs(30),
        "the extension to reconnect",
        async || own.browser.status_ok().then_some(()),
    )
    .await?;

    let tabs = agent.call("firefox_get_tabs", json!({})).await?.ok()?;
    for t in [first, second] {
        ensure!(
            tabs.text.contains(&format!("tab {t} (yours)")),
            "tab {t} was not re-adopted: {}\n{}",
            tabs.text,
            own.browser
                .log()
                .lines()
                .filter(|l| l.contains("Claudezilla"))
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
    let page = agent
        .call("firefox_get_content", json!({ "tabId": first }))
        .await?
        .ok()?;
    ensure!(page.text.contains("marker-7f3a"), "{}", page.text);
    agent.open(&own.pages.url("/other.html")).await?;
    let after = diagnose(&agent).await?;
    let window = |d: &str| d.split("agent window ").nth(1).map(|w| w.to_owned());
    ensure!(
        window(&before) == window(&after),
        "a new window was opened:\nbefore: {before}\nafter: {after}"
    );
    ensure!(after.contains("3 of 12 tabs"), "{after}");
    Ok(())
}

pub async fn silent_agents_lose_their_tabs_live_ones_keep_them() -> anyhow::Result<()> {
    let own = Own::start(&[("CLAUDEZILLA_IDLE_RELEASE_MS", "2000")]).await?;
    let live = own
        .agent_with("live", &[("CLAUDEZILLA_HEARTBEAT_MS", "300")])
        .await?;
    let silent = own
        .agent_with("silent", &[("CLAUDEZILLA_HEARTBEAT_MS", "3600000")])
        .await?;
    let observer = own
        .agent_with("observer", &[("CLAUDEZILLA_HEARTBEAT_MS", "300")])
        .await?;
    let kept = live.open(&own.pages.url("/other.html")).await?;
    // A call in flight is not silence: the page takes longer than the idle limit to answer,
    // and the tab must still be the agent's when it comes.
    let dropped = silent.open(&own.pages.url("/late-other.html")).await?;
    eventually(
        Duration::from_secs(15),
        "the silent agent's tab to be released",
        async || {
            let tabs = observer.call("firefox_get_tabs", json!({})).await.ok()?;
            (!tabs.text.contains(&format!("tab {dropped} "))).then_some(tabs)
        },
    )
    .await?;
    // The live agent made no call all this while; its heartbeats kept its tab.
    let tabs = observer.call("firefox_get_tabs", json!({})).await?.ok()?;
    ensure!(
        tabs.text.contains(&format!("tab {kept} ")),
        "the live agent lost its tab: {}",
        tabs.text
    );
    let r: Value = json!({});
    live.call("firefox_get_tabs", r).await?.ok()?;
    Ok(())
}
