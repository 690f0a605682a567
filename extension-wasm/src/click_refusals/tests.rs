use super::*;

#[test]
fn a_blocked_popup_is_said_with_its_address_and_an_opened_one_kept() {
    let mut seen = Seen::default();
    seen.window_open(Some("https://a.example/".into()), false);
    seen.window_open(Some("https://b.example/".into()), true);
    seen.window_open(Some("https://c.example/".into()), true);
    let (refusals, popped) = seen.heard();
    assert_eq!(refusals.len(), 1);
    assert!(refusals[0].starts_with(
        "the page's window.open(\"https://a.example/\") was blocked by Firefox's popup blocker"
    ));
    assert!(refusals[0].contains("firefox_create_window {url}"));
    // The first popup opened is the one the answer names.
    assert_eq!(popped.as_deref(), Some("https://b.example/"));
}

#[test]
fn a_popup_without_an_address_is_about_blank() {
    for address in [None, Some(String::new())] {
        let mut seen = Seen::default();
        seen.window_open(address, true);
        assert_eq!(seen.heard().1.as_deref(), Some("about:blank"));
    }
}

#[test]
fn a_long_address_is_cut() {
    let mut seen = Seen::default();
    seen.window_open(Some(format!("https://a.example/{}", "x".repeat(500))), true);
    let popped = seen.heard().1.unwrap();
    assert!(popped.chars().count() <= 201, "{popped}");
}

#[test]
fn only_a_refused_copy_or_cut_is_said() {
    let mut seen = Seen::default();
    seen.exec_command("Copy", true);
    seen.exec_command("cut", true);
    seen.exec_command("copy", false);
    seen.exec_command("bold", true);
    let (refusals, _) = seen.heard();
    assert_eq!(refusals.len(), 2);
    assert!(
        refusals[0].starts_with("the page's clipboard copy (document.execCommand) was refused")
    );
    assert!(refusals[1].starts_with("the page's clipboard cut "));
}

#[test]
fn a_file_chooser_names_its_field() {
    let mut seen = Seen::default();
    seen.file_chooser("input \"Photo\"");
    let (refusals, _) = seen.heard();
    assert_eq!(
        refusals,
        [
            "the click asked for a file chooser (input \"Photo\"): Firefox opens none for a synthetic click \
          (it carries no user activation); attach the file with firefox_upload_file on the element you clicked"
        ]
    );
}

#[test]
fn refusals_stop_at_their_bound_with_one_line_for_the_rest() {
    let mut seen = Seen::default();
    for _ in 0..MOST_REFUSALS + 5 {
        seen.window_open(None, false);
    }
    let (refusals, _) = seen.heard();
    assert_eq!(refusals.len(), MOST_REFUSALS + 1);
    assert_eq!(
        refusals.last().unwrap(),
        "the page asked for more of the same during this click; the rest are not listed"
    );
}

#[test]
fn promises_are_pending_until_settled_and_a_rejection_is_said() {
    let mut seen = Seen::default();
    seen.awaiting();
    seen.awaiting();
    assert!(seen.pending());
    seen.fulfilled();
    assert!(seen.pending());
    seen.rejected(rejection(Some("NotAllowedError"), clipboard_write("hello")));
    assert!(!seen.pending());
    seen.awaiting();
    seen.rejected(rejection(None, fullscreen));
    let (refusals, _) = seen.heard();
    assert_eq!(
        refusals,
        [
            "the page's clipboard write was refused (NotAllowedError: Firefox gives a synthetic click no user activation), \
             so \"hello\" is not on the clipboard; read the text from the page instead",
            "the page asked for fullscreen and Firefox refused it (an error: a synthetic click carries no user activation); \
             the page stays as it was, and can be read and driven as it is",
        ]
    );
}

#[test]
fn a_settled_count_never_goes_below_zero() {
    let mut seen = Seen::default();
    seen.fulfilled();
    seen.awaiting();
    assert!(seen.pending());
}

#[test]
fn hearing_empties_what_was_seen() {
    let mut seen = Seen::default();
    seen.window_open(Some("https://a.example/".into()), false);
    seen.window_open(Some("https://b.example/".into()), true);
    let _ = seen.heard();
    assert_eq!(seen.heard(), (Vec::new(), None));
}

#[test]
fn the_links_own_tab_is_named_before_a_popup() {
    let url = |u: &str| Some(u.to_owned());
    assert_eq!(
        new_tab(url("https://a.example/"), url("https://b.example/")),
        Some(reply::NewTab::Asked {
            url: "https://a.example/".into()
        })
    );
    assert_eq!(
        new_tab(None, url("https://b.example/")),
        Some(reply::NewTab::Popped {
            url: "https://b.example/".into()
        })
    );
    assert_eq!(new_tab(None, None), None);
}
