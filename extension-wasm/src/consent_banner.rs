//! `firefox_handle_consent`'s choice of the button that dismisses a consent banner, by
//! accepting (never by rejecting or opening settings): the accept button of a known consent
//! manager first, else the best accept button ([`crate::consent_words::rank`]) among the visible,
//! enabled buttons of the visible banner-like containers about consent, in the document and
//! open shadow roots; and the answer's words. Over [`Banners`], which `content/consent.rs`
//! implements; tested on a page of the tests' own.

use crate::consent_words::{about_consent, rank};

/// Accept buttons of widespread consent managers.
const KNOWN: &[(&str, &str)] = &[
    ("OneTrust", "#onetrust-accept-btn-handler"),
    (
        "Cookiebot",
        "#CybotCookiebotDialogBodyLevelButtonLevelOptinAllowAll",
    ),
    ("Cookiebot", "#CybotCookiebotDialogBodyButtonAccept"),
    ("Didomi", "#didomi-notice-agree-button"),
    ("Usercentrics", "[data-testid='uc-accept-all-button']"),
    (
        "Quantcast",
        ".qc-cmp2-summary-buttons button[mode='primary']",
    ),
    ("Google Funding Choices", ".fc-cta-consent"),
    ("TrustArc", "#truste-consent-button"),
    ("Osano", ".osano-cm-accept-all"),
    ("iubenda", ".iubenda-cs-accept-btn"),
    ("CookieYes", ".cky-btn-accept"),
    ("Complianz", ".cmplz-accept"),
    ("Cookie Consent", ".cc-allow"),
    ("Klaro", ".cm-btn-accept-all"),
    ("Termly", "[data-tid='banner-accept']"),
];

/// Where a banner lives, when no known manager matched.
pub const CONTAINERS: &str = "[role=dialog],[role=alertdialog],[aria-modal=true],dialog,\
    [id*=cookie i],[class*=cookie i],[id*=consent i],[class*=consent i],[id*=gdpr i],\
    [class*=gdpr i],[id*=cmp i],[class*=banner i]";
/// What counts as a button inside one.
pub const BUTTONS: &str = "button,a,[role=button],input[type=button],input[type=submit]";

/// What the choice asks of the page.
pub trait Banners {
    type Element;

    /// The first element `selector` matches in the document, else in its open shadow roots.
    fn query(&self, selector: &str) -> Option<Self::Element>;
    /// The elements [`CONTAINERS`] matches in the document and each open shadow root, in turn.
    fn containers(&self) -> Vec<Self::Element>;
    /// The elements [`BUTTONS`] matches inside `container`.
    fn buttons(&self, container: &Self::Element) -> Vec<Self::Element>;
    fn visible(&self, el: &Self::Element) -> bool;
    fn disabled(&self, el: &Self::Element) -> bool;
    /// The element's id, its classes and its text content.
    fn about(&self, el: &Self::Element) -> [String; 3];
    /// The text it shows (`innerText`).
    fn shown_text(&self, el: &Self::Element) -> String;
    fn attribute(&self, el: &Self::Element, name: &str) -> Option<String>;
    /// Clicks it (its `click()`).
    fn click(&self, el: &Self::Element);
    fn describe(&self, el: &Self::Element) -> String;
}

/// Dismisses the page's consent banner by accepting; the answer's words.
pub fn dismiss<B: Banners>(page: &B) -> String {
    for (manager, selector) in KNOWN {
        if let Some(button) = page.query(selector)
            && usable(page, &button)
        {
            return click(page, &button, &format!("{manager}'s accept button"));
        }
    }
    let Some((button, _)) = candidates(page)
        .into_iter()
        .filter_map(|b| rank(&label(page, &b)).map(|r| (b, r)))
        .min_by_key(|(_, r)| *r)
    else {
        return "No consent banner with an accept button was found.".into();
    };
    click(page, &button, "the banner's accept button")
}

fn click<B: Banners>(page: &B, button: &B::Element, what: &str) -> String {
    // Named before the click, which may take it away.
    let name = page.describe(button);
    page.click(button);
    format!("Dismissed the consent banner: clicked {what} {name}.")
}

fn usable<B: Banners>(page: &B, el: &B::Element) -> bool {
    page.visible(el) && !page.disabled(el)
}

/// What a container is about: its id, classes and text, lower-case.
fn topic<B: Banners>(page: &B, el: &B::Element) -> String {
    let [id, classes, text] = page.about(el);
    format!("{id} {classes} {text}").to_lowercase()
}

/// A button's words, lower-case and single-spaced: the text it shows, else its value, else
/// its `aria-label`.
fn label<B: Banners>(page: &B, el: &B::Element) -> String {
    let text = Some(page.shown_text(el))
        .filter(|t| !t.trim().is_empty())
        .or_else(|| page.attribute(el, "value"))
        .or_else(|| page.attribute(el, "aria-label"))
        .unwrap_or_default();
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Usable buttons inside visible containers about consent.
fn candidates<B: Banners>(page: &B) -> Vec<B::Element> {
    let mut found = Vec::new();
    for container in page.containers() {
        if !page.visible(&container) || !about_consent(&topic(page, &container)) {
            continue;
        }
        found.extend(
            page.buttons(&container)
                .into_iter()
                .filter(|b| usable(page, b)),
        );
    }
    found
}

#[cfg(test)]
mod tests;
