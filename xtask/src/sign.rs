//! `sign`: a signed XPI for release Firefox (which refuses unsigned add-ons), through
//! addons.mozilla.org's unlisted channel: signed for the user, not listed publicly.

use crate::sh::{self, Result, cmd};

/// The AMO API credentials `web-ext sign` reads from the environment.
const CREDENTIALS: [&str; 2] = ["WEB_EXT_API_KEY", "WEB_EXT_API_SECRET"];

/// The credentials missing from `lookup`, by name.
fn missing(lookup: impl Fn(&str) -> Option<String>) -> Vec<&'static str> {
    CREDENTIALS
        .into_iter()
        .filter(|name| lookup(name).is_none_or(|v| v.trim().is_empty()))
        .collect()
}

/// Builds are already done by the caller; signs `extension-shell/` into `target/web-ext/`.
pub fn sign() -> Result {
    let missing = missing(|name| std::env::var(name).ok());
    if !missing.is_empty() {
        return Err(format!(
            "cargo xtask sign needs your addons.mozilla.org API credentials in {} \
             (create them at https://addons.mozilla.org/developers/addon/api/key/); nothing was signed",
            missing.join(" and ")
        ));
    }
    let mut web_ext = cmd(
        "npx",
        &["--no-install", "web-ext", "sign", "--channel", "unlisted"],
    );
    web_ext.env("NO_UPDATE_NOTIFIER", "1");
    sh::run(web_ext)?;
    println!(
        "The signed .xpi is in target/web-ext/. Install it in Firefox: about:addons → the gear \
         → Install Add-on From File…"
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signing_refuses_without_both_credentials() {
        let none = missing(|_| None);
        assert_eq!(none, CREDENTIALS);
        let blank = missing(|name| (name == "WEB_EXT_API_KEY").then(|| " ".to_owned()));
        assert_eq!(blank, CREDENTIALS, "a blank value is missing too");
        let key_only = missing(|name| (name == "WEB_EXT_API_KEY").then(|| "user:1:2".to_owned()));
        assert_eq!(key_only, ["WEB_EXT_API_SECRET"]);
        assert!(missing(|_| Some("x".to_owned())).is_empty());
    }
}
