//! Cookies and web storage of an agent's tab: off until the user allows them in the popup.

use claudezilla_protocol::args::{
    CookiesArgs, MAX_SAVED, MAX_STORED_VALUE, SavedState, StateAction, StateToLoad, StorageArea,
    StorageArgs, StorageStateArgs,
};
use claudezilla_protocol::reply::{self, CookieInfo, CookiesAnswer, StorageAnswer};
use claudezilla_protocol::{ErrorBody, ErrorCode, asks};
use rmcp::model::CallToolResult;

use super::{Context, Given, acted, failed, respond, text};
use crate::files::Written;
use crate::session::Claudezilla;

browser_tools! { storage_router;
    cookies "firefox_cookies" (CookiesArgs) => asks::Cookies, "Get, set or delete the cookies of your tab's page (its own cookie jar). Off unless the user switched cookies and storage on in the Claudezilla popup: they hold logins.";
        CookiesAnswer::Cookies(reply::Cookies { url, cookies }) => text(render_cookies(&url, &cookies)),
        CookiesAnswer::Acted(done) => acted(done);
    storage "firefox_storage" (StorageArgs) => asks::Storage, "Get, set or clear your tab's localStorage (or sessionStorage: area). Off unless the user switched cookies and storage on in the Claudezilla popup.";
        StorageAnswer::Stored(reply::Stored { origin, area, entries, total }) => text(render_storage(&origin, area, &entries, total)),
        StorageAnswer::Acted(done) => acted(done);
    storage_state "firefox_storage_state" (StorageStateArgs) => with save_or_load_state, "Save the cookies and localStorage of your open sites to a JSON file in your project, or load one into your session (log in once, reuse it; the file holds logins). Off unless the user switched cookies and storage on.";
}

impl Claudezilla {
    /// The state file is written or read here, in the allowed folders; the browser only
    /// gathers or plants what it holds.
    async fn save_or_load_state(
        &self,
        a: Given<StorageStateArgs>,
        context: Context,
    ) -> CallToolResult {
        let allowed = self.allowed(&context.peer).await;
        let path = a.args.path.clone();
        if a.args.action == StateAction::Save {
            let target = match allowed.prepare_save(&path, a.args.overwrite, Written::State) {
                Ok(target) => target,
                Err(e) => return failed(e),
            };
            let saved = self
                .ask::<asks::SaveState>((), a.timeout)
                .await
                .and_then(|state| {
                    let json = serde_json::to_vec_pretty(&state)
                        .map_err(|e| ErrorBody::new(ErrorCode::Internal, e.to_string()))?;
                    let written = target.write(&json)?;
                    Ok(format!(
                        "Saved {} cookies and the local storage of {} site(s) to {}.",
                        state.cookies.len(),
                        state.origins.len(),
                        written.display()
                    ))
                });
            return respond(saved, text);
        }
        let state = allowed.read(&path).and_then(|(_, bytes)| {
            let state =
                serde_json::from_slice::<SavedState>(&bytes).map_err(|e| not_a_state(&path, e))?;
            StateToLoad::try_from(state).map_err(|e| {
                ErrorBody::from(e).with_hint(format!(
                    "a saved state holds at most {MAX_SAVED} cookies and {MAX_SAVED} sites, each value at most {MAX_STORED_VALUE} characters"
                ))
            })
        });
        let outcome = match state {
            Ok(state) => self.ask::<asks::LoadState>(state, a.timeout).await,
            Err(e) => Err(e),
        };
        respond(outcome, acted)
    }
}

fn not_a_state(path: &str, e: impl std::fmt::Display) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::InvalidArgument,
        format!("{path} is not a saved storage state: {e}"),
    )
    .with_hint("load a file that firefox_storage_state {action: \"save\"} wrote")
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
