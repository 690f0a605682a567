//! What a rejected browser call means. Firefox rejects `browser.*` promises with words, not
//! codes: they are read here, once, into a [`Refusal`], and the glue matches on that.

use claudezilla_protocol::{ErrorBody, ErrorCode, TabId};

/// Why the browser refused a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The tab is gone (closed, or never was).
    TabGone,
    /// The window is gone.
    WindowGone,
    /// The frame is gone (its document replaced, or the iframe removed).
    FrameGone,
    /// The page takes no script: `about:` pages, add-on pages, or a document between loads.
    NotScriptable,
    /// No content script listens in the frame yet (a fresh document).
    NobodyListens,
    /// The document went away while we talked to it (the page navigated).
    DocumentGone,
    /// The browser will not open this address (e.g. `file:` from an extension).
    UrlRefused,
    /// Anything else: reported as the browser said it.
    Other,
}

/// The words of each refusal, as Firefox writes them; the first that matches decides.
const WORDS: &[(Refusal, &[&str])] = &[
    (Refusal::TabGone, &["Invalid tab ID", "No tab with id"]),
    (
        Refusal::WindowGone,
        &["Invalid window ID", "No window with id"],
    ),
    (
        Refusal::NotScriptable,
        &["Missing host permission", "non-structured-clonable"],
    ),
    (Refusal::FrameGone, &["Frame not found", "No frame with id"]),
    (Refusal::NobodyListens, &["Receiving end does not exist"]),
    (
        Refusal::DocumentGone,
        &["disconnected", "destroyed", "navigat"],
    ),
    (Refusal::UrlRefused, &["Illegal URL", "not allowed"]),
];

impl Refusal {
    /// Reads a rejection's message.
    pub fn of(message: &str) -> Self {
        WORDS
            .iter()
            .find(|(_, words)| words.iter().any(|w| message.contains(w)))
            .map_or(Self::Other, |(refusal, _)| *refusal)
    }

    /// A refused call on `tab`'s page, for the agent: the tab or frame gone, a page that takes
    /// no script, or the browser's words (`e`).
    pub fn on_page(self, tab: TabId, e: ErrorBody) -> ErrorBody {
        match self {
            Refusal::TabGone => ErrorBody::new(ErrorCode::NoSuchTab, format!("tab {tab} is gone")),
            Refusal::NotScriptable => ErrorBody::new(
                ErrorCode::PageError,
                format!("the page in tab {tab} cannot be scripted ({})", e.message),
            )
            .with_hint(
                "about:blank, about: and addons pages cannot be read; navigate to an http(s) page",
            ),
            Refusal::FrameGone => ErrorBody::new(
                ErrorCode::ElementNotFound,
                format!("tab {tab}: {}", e.message),
            )
            .with_hint("the frame is gone; call firefox_snapshot again"),
            Refusal::WindowGone
            | Refusal::NobodyListens
            | Refusal::DocumentGone
            | Refusal::UrlRefused
            | Refusal::Other => {
                ErrorBody::new(ErrorCode::PageError, format!("tab {tab}: {}", e.message))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn firefox_words_read_as_refusals() {
        for (message, refusal) in [
            ("Invalid tab ID: 41", Refusal::TabGone),
            ("No tab with id: 41.", Refusal::TabGone),
            ("Invalid window ID: 3", Refusal::WindowGone),
            (
                "Frame not found, or missing host permission",
                Refusal::FrameGone,
            ),
            (
                "Missing host permission for the tab",
                Refusal::NotScriptable,
            ),
            (
                "Could not establish connection. Receiving end does not exist.",
                Refusal::NobodyListens,
            ),
            ("Message manager disconnected", Refusal::DocumentGone),
            (
                "Actor 'Conduits' destroyed before query",
                Refusal::DocumentGone,
            ),
            ("Illegal URL: file:///etc/passwd", Refusal::UrlRefused),
            ("Something else entirely", Refusal::Other),
            ("", Refusal::Other),
        ] {
            assert_eq!(Refusal::of(message), refusal, "{message}");
        }
    }

    #[test]
    fn a_refusal_on_a_page_is_said_in_the_agents_terms() {
        let e = || ErrorBody::new(ErrorCode::Browser, "Missing host permission for the tab");
        let tab = TabId(7);
        assert_eq!(Refusal::TabGone.on_page(tab, e()).message, "tab 7 is gone");
        assert_eq!(
            Refusal::TabGone.on_page(tab, e()).code,
            ErrorCode::NoSuchTab
        );
        let blank = Refusal::NotScriptable.on_page(tab, e());
        assert!(
            blank
                .message
                .starts_with("the page in tab 7 cannot be scripted")
        );
        assert!(blank.hint.unwrap().contains("http(s)"));
        assert_eq!(
            Refusal::FrameGone.on_page(tab, e()).code,
            ErrorCode::ElementNotFound
        );
        assert_eq!(
            Refusal::Other.on_page(tab, e()).message,
            "tab 7: Missing host permission for the tab"
        );
    }
}
