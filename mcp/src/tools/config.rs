//! Settings and the window: allowlist, consent banners, viewport, window size, private mode.

use claudezilla_protocol::args::{
    PrivateModeArgs, ResizeArgs, SetConfigArgs, TabArgs, ViewportArgs,
};
use claudezilla_protocol::asks;
use claudezilla_protocol::reply;

use super::text;

browser_tools! { config_router;
    set_config "firefox_set_config" (SetConfigArgs) => asks::SetConfig, "Your settings: allowedDomains narrows where your tabs may go (within the user's allowlist); handleConsent dismisses cookie banners after each load.";
        reply::Config { allowed_domains, handle_consent, user_domains } => text(render_config(&allowed_domains, handle_consent, &user_domains));
    handle_consent "firefox_handle_consent" (TabArgs) => asks::HandleConsent, "Dismiss the page's cookie/consent banner by accepting it (known consent managers, or a dialog's accept button); never clicks reject or settings."; reply::Acted { what } => text(what);
    set_viewport "firefox_set_viewport" (ViewportArgs) => asks::SetViewport, "Size your tab's viewport: a device preset or width and height (CSS px). Resizes the shared agent window."; reply::Acted { what } => text(what);
    resize_window "firefox_resize_window" (ResizeArgs) => asks::ResizeWindow, "Set the outer size of the window holding your latest tab."; reply::Acted { what } => text(what);
    set_private_mode "firefox_set_private_mode" (PrivateModeArgs) => asks::SetPrivateMode, "Open the agents' window as a private window (needs the user's permission for Claudezilla in private windows)."; reply::Acted { what } => text(what);
}

fn render_config(allowed: &[String], handle_consent: bool, user: &[String]) -> String {
    let domains = match (allowed.is_empty(), user.is_empty()) {
        (true, true) => "any domain".to_owned(),
        (true, false) => format!("the user's list: {}", user.join(", ")),
        (false, true) => allowed.join(", "),
        (false, false) => format!(
            "{} (within the user's list: {})",
            allowed.join(", "),
            user.join(", ")
        ),
    };
    let consent = if handle_consent {
        "dismissed after each load"
    } else {
        "left alone"
    };
    format!("Your tabs may load: {domains}. Consent banners: {consent}.")
}
