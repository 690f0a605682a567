//! Settings and the window: allowlist, consent banners, viewport, window size, private mode.

use claudezilla_protocol::args::{
    PrivateModeArgs, ResizeArgs, SetConfigArgs, TabArgs, ViewportArgs,
};
use claudezilla_protocol::{Command, Reply};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{tool, tool_router};

use super::args::Args;
use super::{acted, respond, text};
use crate::server::Claudezilla;

#[tool_router(router = config_router, vis = "pub(crate)")]
impl Claudezilla {
    #[tool(
        name = "firefox_set_config",
        description = "Your settings: allowedDomains narrows where your tabs may go (within the user's allowlist); handleConsent dismisses cookie banners after each load."
    )]
    async fn set_config(&self, Parameters(a): Parameters<Args<SetConfigArgs>>) -> CallToolResult {
        respond(
            self.run(Command::SetConfig(a.args), a.timeout).await,
            |reply| match reply {
                Reply::Config {
                    allowed_domains,
                    handle_consent,
                    user_domains,
                } => {
                    let domains = match (allowed_domains.is_empty(), user_domains.is_empty()) {
                        (true, true) => "any domain".to_owned(),
                        (true, false) => format!("the user's list: {}", user_domains.join(", ")),
                        (false, true) => allowed_domains.join(", "),
                        (false, false) => format!(
                            "{} (within the user's list: {})",
                            allowed_domains.join(", "),
                            user_domains.join(", ")
                        ),
                    };
                    Ok(text(format!(
                        "Your tabs may load: {domains}. Consent banners: {}.",
                        if handle_consent {
                            "dismissed after each load"
                        } else {
                            "left alone"
                        }
                    )))
                }
                other => Err(other),
            },
        )
    }

    #[tool(
        name = "firefox_handle_consent",
        description = "Dismiss the page's cookie/consent banner by accepting it (known consent managers, or a dialog's accept button); never clicks reject or settings."
    )]
    async fn handle_consent(&self, Parameters(a): Parameters<Args<TabArgs>>) -> CallToolResult {
        respond(
            self.run(Command::HandleConsent(a.args), a.timeout).await,
            acted,
        )
    }

    #[tool(
        name = "firefox_set_viewport",
        description = "Size your tab's viewport: a device preset or width and height (CSS px). Resizes the shared agent window."
    )]
    async fn set_viewport(&self, Parameters(a): Parameters<Args<ViewportArgs>>) -> CallToolResult {
        respond(
            self.run(Command::SetViewport(a.args), a.timeout).await,
            acted,
        )
    }

    #[tool(
        name = "firefox_resize_window",
        description = "Set the outer size of the window holding your latest tab."
    )]
    async fn resize_window(&self, Parameters(a): Parameters<Args<ResizeArgs>>) -> CallToolResult {
        respond(
            self.run(Command::ResizeWindow(a.args), a.timeout).await,
            acted,
        )
    }

    #[tool(
        name = "firefox_set_private_mode",
        description = "Open the agents' window as a private window (needs the user's permission for Claudezilla in private windows)."
    )]
    async fn set_private_mode(
        &self,
        Parameters(a): Parameters<Args<PrivateModeArgs>>,
    ) -> CallToolResult {
        respond(
            self.run(Command::SetPrivateMode(a.args), a.timeout).await,
            acted,
        )
    }
}
