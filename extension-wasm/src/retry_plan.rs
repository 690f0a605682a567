//! When the background tries again, and for how long each try may last: a message to a frame
//! whose document went away, a content script that did not start yet, a navigation the page's
//! own replaced or the browser broke. Decided here, apart from the browser; `exchange.rs` and
//! `background/tabs/navigation.rs` carry it out.

use claudezilla_protocol::{ErrorBody, ErrorCode, TabId};

use crate::refusal::Refusal;

/// How much longer than the page's own wait one try of a message to a frame may take.
pub const TRY_SLACK_MS: u64 = 3_000;
/// The pause before the second and last try, in the document that replaced the first one.
pub const RETRY_PAUSE_MS: u32 = 100;
/// Injections of the content script into a frame where nothing listens, and the pause between
/// two (a navigation committing leaves the frame between documents for a moment).
pub const INJECTIONS: u32 = 2;
pub const INJECT_PAUSE_MS: u32 = 150;
/// Navigations asked at most when the page's own navigation replaces ours or the browser
/// breaks it.
pub const NAVIGATIONS: u32 = 3;

/// Answer this long before the caller's own timeout, so a slow page yields a report, not a
/// timeout error.
const ANSWER_MARGIN_MS: u32 = 750;
/// Longest a click or type waits for its element to appear.
const ELEMENT_WAIT_MS: u32 = 5_000;

/// How long a command may take: the whole (`ms`), and the deadlines of waits inside the page
/// (ms since the epoch).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    pub ms: u32,
    /// Waits end early enough to report "not found" within the budget.
    pub until: u64,
    /// An element wait's deadline (at most `ELEMENT_WAIT_MS`).
    pub element_until: u64,
}

impl Budget {
    /// The budget of a command received at `now` with `left_ms` before its caller gives up.
    pub fn of(now: u64, left_ms: u32) -> Self {
        let ms = left_ms.saturating_sub(ANSWER_MARGIN_MS).max(1_000);
        let room = u64::from(ms.saturating_sub(1_000));
        Self {
            ms,
            until: now + room,
            element_until: now + room.min(u64::from(ELEMENT_WAIT_MS)),
        }
    }
}

/// How long one try of a message may last: the page's own wait (until `until`, ms since the
/// epoch) and [`TRY_SLACK_MS`] more, within the call's budget.
pub fn try_ms(until: u64, now: u64, budget_ms: u32) -> u32 {
    (until.saturating_sub(now) + TRY_SLACK_MS).min(u64::from(budget_ms)) as u32
}

/// How the first try of a message ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FirstTry {
    Answered,
    /// The document was replaced while we talked to it.
    Interrupted,
    /// The browser refused the call for another reason.
    Refused,
    /// No answer within the try's time.
    Silent,
}

/// What follows the first try.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterFirst {
    /// Its answer (or its refusal) is the call's.
    Take,
    /// Once more, in the new document; `navigated`: the tab is known to have started another
    /// load (the refusal then says the page navigated away twice).
    Retry { navigated: bool },
    /// The page is still there and busy (its own handlers hold its thread: a click whose
    /// handler opens a dozen tabs): its answer is awaited, as long as the call's budget lets.
    KeepWaiting,
}

/// A document that went away, or a tab that has started another load since the message
/// left (`navigated`), gets one more try; a silent page that stayed is waited for; anything
/// else is the call's answer.
pub fn after_first(first: FirstTry, navigated: bool) -> AfterFirst {
    match (first, navigated) {
        (FirstTry::Interrupted, _) | (FirstTry::Refused | FirstTry::Silent, true) => {
            AfterFirst::Retry { navigated }
        }
        (FirstTry::Answered | FirstTry::Refused, false) | (FirstTry::Answered, true) => {
            AfterFirst::Take
        }
        (FirstTry::Silent, false) => AfterFirst::KeepWaiting,
    }
}

/// Whether a navigation is asked again: where it stands asks for it (`again`: the page's own
/// navigation cancelled or replaced ours, or the browser broke it before any answer), we
/// asked for an address (not back, forward or reload), this was not the last of
/// [`NAVIGATIONS`], and time is left.
pub fn navigate_again(again: bool, to_address: bool, tries: u32, left_ms: f64) -> bool {
    again && to_address && tries < NAVIGATIONS && left_ms > 0.0
}

/// No answer from the page in `tab` within the call's `ms`.
pub fn no_answer(tab: TabId, ms: u32) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::Timeout,
        format!("the page in tab {tab} did not answer within {ms} ms"),
    )
    .with_hint("the page may be frozen; take a screenshot, or retry with a larger timeout")
}

/// Nothing listened after every injection: the document went before the script started.
pub fn not_started() -> ErrorBody {
    ErrorBody::new(
        ErrorCode::PageError,
        "the content script did not start in this page",
    )
    .with_hint("the page may be navigating; retry, or take a screenshot to see it")
}

/// What the agent hears when the second try failed too: that the page navigated away twice
/// if its document went again (or, while the tab navigates, a page between documents took no
/// script), else the second try's own error.
pub fn second_failure(
    tab: TabId,
    error: ErrorBody,
    refusal: Refusal,
    navigated: bool,
) -> ErrorBody {
    let between = navigated && refusal == Refusal::NotScriptable;
    if refusal != Refusal::DocumentGone && !between {
        return error;
    }
    ErrorBody::new(
        ErrorCode::PageError,
        format!(
            "the page in tab {tab} navigated away twice while we acted on it ({})",
            error.message
        ),
    )
    .with_hint("the page keeps navigating by itself; firefox_get_tabs shows where it is, firefox_wait_for {url} waits for it to settle")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_commands_budget_leaves_room_to_answer() {
        let b = Budget::of(1_000, 30_000);
        assert_eq!(b.ms, 29_250);
        assert_eq!(b.until, 1_000 + 28_250);
        assert_eq!(b.element_until, 1_000 + 5_000);
        // A caller in a hurry still gets a second, and waits that end at once.
        let hurry = Budget::of(1_000, 300);
        assert_eq!(
            (hurry.ms, hurry.until, hurry.element_until),
            (1_000, 1_000, 1_000)
        );
        let short = Budget::of(0, 3_750);
        assert_eq!((short.until, short.element_until), (2_000, 2_000));
    }

    #[test]
    fn a_try_lasts_the_pages_wait_and_a_little_more_within_the_budget() {
        assert_eq!(try_ms(10_000, 9_000, 30_000), 4_000);
        assert_eq!(try_ms(10_000, 9_000, 2_500), 2_500);
        // A wait already over still gets the slack.
        assert_eq!(try_ms(5_000, 9_000, 30_000), 3_000);
    }

    #[test]
    fn only_a_document_that_went_away_gets_a_second_try() {
        use AfterFirst::*;
        use FirstTry::*;
        assert_eq!(after_first(Answered, false), Take);
        assert_eq!(after_first(Answered, true), Take);
        assert_eq!(after_first(Interrupted, false), Retry { navigated: false });
        assert_eq!(after_first(Interrupted, true), Retry { navigated: true });
        assert_eq!(after_first(Refused, false), Take);
        assert_eq!(after_first(Refused, true), Retry { navigated: true });
        assert_eq!(after_first(Silent, false), KeepWaiting);
        assert_eq!(after_first(Silent, true), Retry { navigated: true });
    }

    #[test]
    fn a_second_failure_says_the_page_navigated_away_only_when_it_did() {
        let own = || ErrorBody::new(ErrorCode::PageError, "tab 2: boom");
        let gone = second_failure(TabId(2), own(), Refusal::DocumentGone, false);
        assert!(
            gone.message
                .starts_with("the page in tab 2 navigated away twice")
        );
        assert!(gone.message.ends_with("(tab 2: boom)"));
        let between = second_failure(TabId(2), own(), Refusal::NotScriptable, true);
        assert!(between.message.contains("navigated away twice"));
        // Unscriptable with no navigation is about:blank and the like: its own error.
        assert_eq!(
            second_failure(TabId(2), own(), Refusal::NotScriptable, false).message,
            "tab 2: boom"
        );
        assert_eq!(
            second_failure(TabId(2), own(), Refusal::Other, true).message,
            "tab 2: boom"
        );
        assert_eq!(no_answer(TabId(2), 900).code, ErrorCode::Timeout);
        assert!(no_answer(TabId(2), 900).message.contains("900 ms"));
    }

    #[test]
    fn a_replaced_navigation_is_asked_again_at_most_twice_while_time_is_left() {
        assert!(navigate_again(true, true, 1, 500.0));
        assert!(navigate_again(true, true, 2, 500.0));
        assert!(!navigate_again(true, true, NAVIGATIONS, 500.0));
        assert!(
            !navigate_again(true, false, 1, 500.0),
            "back/forward/reload"
        );
        assert!(!navigate_again(false, true, 1, 500.0));
        assert!(!navigate_again(true, true, 1, 0.0));
    }
}
