//! A small client of Firefox's own remote protocol (Marionette), to act as the user does in the
//! browser's UI: open the toolbar popup's page and press its buttons. Firefox runs it built in
//! (`--marionette`); a message is `<length>:<JSON>`, a command `[0, id, name, params]`, an
//! answer `[1, id, error, result]`.

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, bail};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::eventually;

pub struct Marionette {
    stream: TcpStream,
    next: u64,
}

/// The element reference key of the WebDriver protocol.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

impl Marionette {
    /// Connects to the port Firefox wrote into the profile, and opens a session.
    pub async fn connect(profile: &Path) -> anyhow::Result<Self> {
        let port_file = profile.join("MarionetteActivePort");
        let port: u16 = eventually(Duration::from_secs(30), "Marionette's port", async || {
            std::fs::read_to_string(&port_file)
                .ok()?
                .trim()
                .parse()
                .ok()
        })
        .await?;
        let stream = TcpStream::connect(("127.0.0.1", port)).await?;
        let mut m = Self { stream, next: 0 };
        let hello = m.read().await.context("Marionette's hello")?;
        if hello["marionetteProtocol"].as_u64() != Some(3) {
            bail!("unexpected Marionette hello {hello}");
        }
        m.command("WebDriver:NewSession", json!({"capabilities": {}}))
            .await?;
        Ok(m)
    }

    async fn read(&mut self) -> anyhow::Result<Value> {
        let mut len = Vec::new();
        loop {
            let b = self.stream.read_u8().await?;
            if b == b':' {
                break;
            }
            len.push(b);
        }
        let len: usize = std::str::from_utf8(&len)?.parse()?;
        let mut body = vec![0; len];
        self.stream.read_exact(&mut body).await?;
        Ok(serde_json::from_slice(&body)?)
    }

    /// Runs one command; its result, or its error as an error.
    pub async fn command(&mut self, name: &str, params: Value) -> anyhow::Result<Value> {
        self.next += 1;
        let id = self.next;
        let body = json!([0, id, name, params]).to_string();
        self.stream
            .write_all(format!("{}:{body}", body.len()).as_bytes())
            .await?;
        loop {
            let answer = self.read().await?;
            if answer[0] != 1 || answer[1].as_u64() != Some(id) {
                continue;
            }
            if !answer[2].is_null() {
                bail!("{name} failed: {}", answer[2]);
            }
            return Ok(answer[3].clone());
        }
    }

    /// Opens `url` in a new tab as the browser's own UI does (an extension page, which a web
    /// page could not open), and switches to it; returns its window handle.
    pub async fn open_tab(&mut self, url: &str) -> anyhow::Result<String> {
        self.command("Marionette:SetContext", json!({"value": "chrome"}))
            .await?;
        let opened = self
            .command(
                "WebDriver:ExecuteScript",
                json!({
                    "script": "const principal = Services.scriptSecurityManager.getSystemPrincipal(); \
                               gBrowser.selectedTab = gBrowser.addTab(arguments[0], {triggeringPrincipal: principal});",
                    "args": [url],
                }),
            )
            .await;
        self.command("Marionette:SetContext", json!({"value": "content"}))
            .await?;
        opened?;
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            let handles = self
                .command("WebDriver:GetWindowHandles", json!({}))
                .await?;
            for handle in handles.as_array().into_iter().flatten() {
                self.command("WebDriver:SwitchToWindow", json!({"handle": handle}))
                    .await?;
                let at = self.command("WebDriver:GetCurrentURL", json!({})).await?;
                if at["value"].as_str() == Some(url) {
                    return Ok(handle.as_str().unwrap_or_default().to_owned());
                }
            }
            if tokio::time::Instant::now() > deadline {
                bail!("no tab shows {url}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Makes the tab of `handle` the one commands act on.
    pub async fn switch_to(&mut self, handle: &str) -> anyhow::Result<()> {
        self.command("WebDriver:SwitchToWindow", json!({"handle": handle}))
            .await?;
        Ok(())
    }

    /// The first element matching `css`, waiting up to 10 s for one to appear.
    pub async fn find(&mut self, css: &str) -> anyhow::Result<String> {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            let found = self
                .command(
                    "WebDriver:FindElements",
                    json!({"using": "css selector", "value": css}),
                )
                .await?;
            if let Some(id) = found
                .as_array()
                .and_then(|a| a.first())
                .and_then(|e| e[ELEMENT].as_str())
            {
                return Ok(id.to_owned());
            }
            if tokio::time::Instant::now() > deadline {
                bail!("no element {css} within 10 s");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    pub async fn click(&mut self, css: &str) -> anyhow::Result<()> {
        let id = self.find(css).await?;
        self.command("WebDriver:ElementClick", json!({"id": id}))
            .await?;
        Ok(())
    }

    /// The visible text of the first element matching `css`.
    pub async fn text(&mut self, css: &str) -> anyhow::Result<String> {
        let id = self.find(css).await?;
        let text = self
            .command("WebDriver:GetElementText", json!({"id": id}))
            .await?;
        Ok(text["value"].as_str().unwrap_or_default().to_owned())
    }

    /// Waits until the page's text under `css` contains `what`. With `reload`, the page is
    /// loaded afresh each time (as a user reopens the popup; a tab in the background may run
    /// its timers only rarely).
    pub async fn wait_text(
        &mut self,
        css: &str,
        what: &str,
        reload: bool,
    ) -> anyhow::Result<String> {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            if reload {
                self.command("WebDriver:Refresh", json!({})).await?;
            }
            let text = self.text(css).await.unwrap_or_default();
            if text.contains(what) {
                return Ok(text);
            }
            if tokio::time::Instant::now() > deadline {
                bail!("{css} never said {what:?}; it says {text:?}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// A PNG of the current page.
    pub async fn screenshot(&mut self) -> anyhow::Result<Vec<u8>> {
        use base64::Engine;
        let shot = self
            .command("WebDriver:TakeScreenshot", json!({"full": true}))
            .await?;
        let data = shot["value"].as_str().context("no screenshot")?;
        Ok(base64::engine::general_purpose::STANDARD.decode(data)?)
    }
}
