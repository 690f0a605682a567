//! `firefox_handle_consent`: dismisses a cookie/consent banner by accepting, never by
//! rejecting or opening settings. Known consent managers first (by their accept buttons), then
//! any dialog-like banner with an "accept" button, in the document and open shadow roots.

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::reply;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

use super::dom::{self, is_visible};
use super::find::{self, describe, query_all_in};
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
const CONTAINERS: &str = "[role=dialog],[role=alertdialog],[aria-modal=true],dialog,\
    [id*=cookie i],[class*=cookie i],[id*=consent i],[class*=consent i],[id*=gdpr i],\
    [class*=gdpr i],[id*=cmp i],[class*=banner i]";
const BUTTONS: &str = "button,a,[role=button],input[type=button],input[type=submit]";

pub fn dismiss() -> Result<reply::Acted, ErrorBody> {
    for (manager, selector) in KNOWN {
        if let Ok(Some(button)) = find::query(selector)
            && usable(&button)
        {
            return Ok(click(&button, &format!("{manager}'s accept button")));
        }
    }
    let Some((button, _)) = candidates()
        .into_iter()
        .filter_map(|b| rank(&label(&b)).map(|r| (b, r)))
        .min_by_key(|(_, r)| *r)
    else {
        return Ok(reply::Acted {
            what: "No consent banner with an accept button was found.".into(),
        });
    };
    Ok(click(&button, "the banner's accept button"))
}

fn click(button: &Element, what: &str) -> reply::Acted {
    let name = describe(button);
    if let Some(html) = button.dyn_ref::<HtmlElement>() {
        html.click();
    }
    reply::Acted {
        what: format!("Dismissed the consent banner: clicked {what} {name}."),
    }
}

/// What a container is about: its id, classes and text, lower-case.
fn topic(el: &Element) -> String {
    let text = el.text_content().unwrap_or_default();
    format!("{} {} {}", el.id(), el.class_name(), text).to_lowercase()
}

fn usable(el: &Element) -> bool {
    is_visible(el) && !el.matches(":disabled").unwrap_or(false)
}

fn label(el: &Element) -> String {
    let text = el
        .dyn_ref::<HtmlElement>()
        .map(HtmlElement::inner_text)
        .filter(|t| !t.trim().is_empty())
        .or_else(|| el.get_attribute("value"))
        .or_else(|| el.get_attribute("aria-label"))
        .unwrap_or_default();
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Visible buttons inside banner-like containers, in the document and open shadow roots.
fn candidates() -> Vec<Element> {
    let Ok(doc) = dom::document() else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for root in find::open_roots(&doc) {
        for container in query_all_in(&root, CONTAINERS) {
            if !is_visible(&container) || !about_consent(&topic(&container)) {
                continue;
            }
            found.extend(query_all_in(&container, BUTTONS).into_iter().filter(usable));
        }
    }
    found
}
