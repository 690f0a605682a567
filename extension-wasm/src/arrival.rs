//! What a navigation's answer says of where it arrived: a note when the tab is not simply at
//! the page asked for, the error a failed load is, and Firefox's refusals in the agent's terms.

use claudezilla_protocol::{ErrorBody, ErrorCode, TabId};

use crate::load::Reached;
use crate::refusal::Refusal;

/// A finished load of `asked` in `tab`, now at `now`: the answer's note, or the error a
/// failed load is (not Firefox's error page reported as loaded).
pub fn verdict(
    reached: &Reached,
    tab: TabId,
    asked: &str,
    now: &str,
) -> Result<Option<String>, ErrorBody> {
    let note = match reached {
        Reached::Asked | Reached::Arriving => return Ok(None),
        Reached::Unrequested => format!(
            "no request for {asked} was seen and the page did not answer within the timeout: it may be Firefox's error page (firefox_get_content shows what is there)"
        ),
        Reached::Pending => format!(
            "the page keeps loading pages of its own; the load of {asked} had not arrived yet"
        ),
        Reached::Failed(why) | Reached::Broke(why) => {
            return Err(ErrorBody::new(
                ErrorCode::LoadFailed,
                format!("tab {tab} could not load {asked}: {why}"),
            )
            .with_hint(
                "check the address and that the server is running; the tab stays open (on Firefox's error page) for another firefox_navigate",
            ));
        }
        Reached::Stayed => format!(
            "{asked} did not replace the page, the tab stays at {now}: the address is a download (firefox_downloads gets it) or an empty answer (HTTP 204)"
        ),
        Reached::Elsewhere | Reached::Superseded => format!(
            "the tab is at {now} now, not at {asked}: the page navigated on by itself after the load (or another load replaced it)"
        ),
    };
    Ok(Some(note))
}

/// What a navigation that ran out of time waited for, and where the tab is instead.
pub fn waited_for(asked: &str, reached: &Reached, now: &str) -> String {
    match reached {
        Reached::Pending => format!(
            "waited for {asked} to load until the timeout; the tab loaded {now} meanwhile (the page loads pages of its own), and {asked} had not arrived"
        ),
        _ => format!(
            "waited for {asked} to finish loading (the page's load event) until the timeout; the tab is at {now}"
        ),
    }
}

/// Back or forward (`way`) refused: the tab has no page there.
pub fn no_history(e: ErrorBody, way: &str) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::PageError,
        format!("cannot go {way}: {}", e.message),
    )
    .with_hint("the tab has no page to go to in that direction")
}

/// Firefox refuses some URLs that pass our scheme check (e.g. file: from an extension).
pub fn refine_url_error(e: ErrorBody, url: &str) -> ErrorBody {
    if Refusal::of(&e.message) != Refusal::UrlRefused {
        return e;
    }
    let refused = ErrorBody::new(
        ErrorCode::BadUrl,
        format!("Firefox refused to open {url}: {}", e.message),
    );
    if url
        .get(..5)
        .is_some_and(|s| s.eq_ignore_ascii_case("file:"))
    {
        // Firefox lets no extension open file: pages (tabs.create/update refuse them).
        return refused.with_hint(
            "Firefox does not let extensions open file:// pages; serve the folder over http instead, \
             e.g. `python3 -m http.server 8000` there, then open http://127.0.0.1:8000/…",
        );
    }
    refused
}

#[cfg(test)]
mod tests {
    use super::*;

    const ASKED: &str = "http://a.test/x";
    const NOW: &str = "http://a.test/y";

    fn note(reached: Reached) -> Option<String> {
        verdict(&reached, TabId(3), ASKED, NOW).unwrap()
    }

    #[test]
    fn arriving_where_asked_says_nothing() {
        assert_eq!(note(Reached::Asked), None);
        assert_eq!(note(Reached::Arriving), None);
    }

    #[test]
    fn a_failed_load_is_an_error_naming_the_tab_and_why() {
        let e = verdict(
            &Reached::Failed("connection refused".into()),
            TabId(3),
            ASKED,
            NOW,
        )
        .unwrap_err();
        assert_eq!(e.code, ErrorCode::LoadFailed);
        assert_eq!(
            e.message,
            format!("tab 3 could not load {ASKED}: connection refused")
        );
        assert!(e.hint.is_some());
    }

    #[test]
    fn every_other_end_says_where_the_tab_is() {
        for reached in [Reached::Stayed, Reached::Elsewhere, Reached::Superseded] {
            let said = note(reached.clone()).unwrap();
            assert!(
                said.contains(NOW) && said.contains(ASKED),
                "{reached:?}: {said}"
            );
        }
        assert!(note(Reached::Stayed).unwrap().contains("firefox_downloads"));
        assert!(note(Reached::Pending).unwrap().contains("had not arrived"));
        assert!(note(Reached::Unrequested).unwrap().contains("error page"));
    }

    #[test]
    fn a_timeout_says_what_it_waited_for() {
        assert!(waited_for(ASKED, &Reached::Pending, NOW).contains("loads pages of its own"));
        assert!(waited_for(ASKED, &Reached::Asked, NOW).contains("the page's load event"));
    }

    #[test]
    fn firefox_refusing_a_file_url_says_how_to_serve_it() {
        let refused = ErrorBody::new(ErrorCode::Browser, "Illegal URL: file:///tmp/a.html");
        let e = refine_url_error(refused, "file:///tmp/a.html");
        assert_eq!(e.code, ErrorCode::BadUrl);
        assert!(e.hint.unwrap().contains("http.server"));
        let other = ErrorBody::new(ErrorCode::Browser, "No tab with id: 4");
        assert_eq!(
            refine_url_error(other, "http://a.test").code,
            ErrorCode::Browser
        );
        let e = no_history(ErrorBody::new(ErrorCode::Browser, "no entry"), "back");
        assert_eq!(e.message, "cannot go back: no entry");
    }
}
