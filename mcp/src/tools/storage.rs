//! Cookies and web storage of an agent's tab: off until the user allows them in the popup.

use claudezilla_protocol::args::{CookiesArgs, StorageArea, StorageArgs};
use claudezilla_protocol::reply::CookieInfo;
use claudezilla_protocol::{Command, Reply};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{tool, tool_router};

use super::args::Args;
use super::{acted, respond, text};
use crate::server::Claudezilla;

#[tool_router(router = storage_router, vis = "pub(crate)")]
impl Claudezilla {
    #[tool(
        name = "firefox_cookies",
        description = "Get, set or delete the cookies of your tab's page (its own cookie jar). Off unless the user switched cookies and storage on in the Claudezilla popup: they hold logins."
    )]
    async fn cookies(&self, Parameters(a): Parameters<Args<CookiesArgs>>) -> CallToolResult {
        respond(
            self.run(Command::Cookies(a.args), a.timeout).await,
            |reply| match reply {
                Reply::Cookies { url, cookies } => Ok(text(render_cookies(&url, &cookies))),
                other => acted(other),
            },
        )
    }

    #[tool(
        name = "firefox_storage",
        description = "Get, set or clear your tab's localStorage (or sessionStorage: area). Off unless the user switched cookies and storage on in the Claudezilla popup."
    )]
    async fn storage(&self, Parameters(a): Parameters<Args<StorageArgs>>) -> CallToolResult {
        respond(
            self.run(Command::Storage(a.args), a.timeout).await,
            |reply| match reply {
                Reply::Stored {
                    origin,
                    area,
                    entries,
                    total,
                } => Ok(text(render_storage(&origin, area, &entries, total))),
                other => acted(other),
            },
        )
    }
}

fn render_cookies(url: &str, cookies: &[CookieInfo]) -> String {
    if cookies.is_empty() {
        return format!("No cookies for {url}.");
    }
    let mut out = format!("{} cookies for {url}:", cookies.len());
    for c in cookies {
        let mut flags = vec![format!("{}{}", c.domain, c.path)];
        if c.secure {
            flags.push("secure".into());
        }
        if c.http_only {
            flags.push("httpOnly".into());
        }
        flags.push(match c.expires {
            Some(t) => format!("expires {t:.0}"),
            None => "session".into(),
        });
        out.push_str(&format!("\n{}={} ({})", c.name, c.value, flags.join(", ")));
    }
    out
}

fn render_storage(
    origin: &str,
    area: StorageArea,
    entries: &[(String, String)],
    total: u32,
) -> String {
    let name = match area {
        StorageArea::Local => "localStorage",
        StorageArea::Session => "sessionStorage",
    };
    if entries.is_empty() {
        return format!("{name} of {origin}: nothing stored (under that key).");
    }
    let mut out = format!("{name} of {origin}, {} of {total} entries:", entries.len());
    for (k, v) in entries {
        out.push_str(&format!("\n{k} = {v}"));
    }
    out
}
