use std::cell::Cell;

use claudezilla_protocol::ErrorCode;

use super::*;
use crate::agent_config::AgentConfig;
use crate::jars::Jar;

const TAB: TabId = TabId(7);

fn agent(n: u8) -> AgentId {
    AgentId::new([n; 16], 100)
}

fn shown() -> Shown {
    Shown {
        url: "https://a.test/".into(),
        title: "A".into(),
    }
}

/// A precise clock that counts its reads: each waiter told reads it once.
fn clock(reads: &Cell<u32>) -> impl Fn() -> f64 + '_ {
    || {
        reads.set(reads.get() + 1);
        f64::from(reads.get()) * 10.0
    }
}

/// What `tab`'s network log holds (every entry).
fn logged(s: &State, tab: TabId) -> Vec<String> {
    let all = crate::request_log::Filter {
        limit: 100,
        ..Default::default()
    };
    let (entries, _) = s.requests.query(tab, &all, 0.0);
    entries.into_iter().map(|e| e.url).collect()
}

/// Starts request `id` of `tab` in its log at `now`.
fn log_request(s: &mut State, tab: TabId, id: &str, now: f64) {
    let url = format!("https://a.test/{id}");
    s.requests.started(tab, id, "GET", &url, "xhr", now);
}

/// A state whose pool has `TAB`, owned by agent 1.
fn with_agent_tab() -> State {
    let mut s = State::default();
    s.pool.insert(TAB, agent(1), "https://a.test/".into());
    s
}

#[test]
fn an_event_ends_the_waits_it_satisfies_and_keeps_the_others() {
    let mut s = State::default();
    let mut done = s.watch(TAB, LoadWatch::NextComplete);
    let mut moved = s.watch(TAB, LoadWatch::UrlChange);
    let dropped = s.watch(TAB, LoadWatch::UrlChange);
    drop(dropped);
    let reads = Cell::new(0);
    s.wake(
        TAB,
        Some("complete"),
        None,
        "complete",
        &shown(),
        clock(&reads),
    );
    let heard = done.try_recv().unwrap().expect("told");
    assert_eq!(heard.page, Some(shown()));
    assert_eq!(heard.at, 10.0);
    assert_eq!(
        reads.get(),
        1,
        "the clock is read for each waiter told, only"
    );
    assert_eq!(moved.try_recv().unwrap(), None, "still waiting");
    // The waiter whose call went is not kept.
    assert_eq!(s.waiters[&TAB].len(), 1);
    s.wake(
        TAB,
        None,
        Some("https://b.test/"),
        "complete",
        &shown(),
        clock(&reads),
    );
    assert!(moved.try_recv().unwrap().is_some());
    assert!(!s.waiters.contains_key(&TAB), "no empty list is kept");
}

#[test]
fn a_settled_load_tells_every_waiter_with_no_page() {
    let mut s = State::default();
    let mut a = s.watch(TAB, LoadWatch::navigation());
    let mut b = s.watch(TAB, LoadWatch::UrlChange);
    let reads = Cell::new(0);
    s.settle_loads(TAB, clock(&reads));
    assert_eq!(a.try_recv().unwrap().unwrap().page, None);
    assert_eq!(b.try_recv().unwrap().unwrap().at, 20.0);
    assert!(!s.waiters.contains_key(&TAB));
}

#[test]
fn only_a_real_title_ends_the_title_waits() {
    let mut s = State::default();
    let gone = s.title_update(TAB);
    drop(gone);
    let mut waiting = s.title_update(TAB);
    assert_eq!(
        s.title_waiters[&TAB].len(),
        1,
        "a wait that ended is dropped"
    );
    s.titled(TAB, "a.test/", "https://a.test/");
    assert_eq!(
        waiting.try_recv().unwrap(),
        None,
        "a placeholder ends nothing"
    );
    s.titled(TAB, "The page", "https://a.test/");
    assert_eq!(waiting.try_recv().unwrap().as_deref(), Some("The page"));
    assert!(!s.title_waiters.contains_key(&TAB));
}

#[test]
fn the_networks_word_wakes_those_waiting_for_it() {
    let mut s = State::default();
    let mut news = s.main_frame_news(TAB);
    assert_eq!(news.try_recv().unwrap(), None);
    s.main_frame_heard(TAB);
    assert_eq!(news.try_recv().unwrap(), Some(()));
}

#[test]
fn a_tab_that_went_takes_everything_kept_of_it() {
    let mut s = with_agent_tab();
    let mut load = s.watch(TAB, LoadWatch::NextComplete);
    let mut title = s.title_update(TAB);
    let mut news = s.main_frame_news(TAB);
    s.refuse_frame(TAB, 3, "refused".into());
    s.console_tabs.insert(TAB);
    s.body_tabs.insert(TAB);
    s.blocked
        .insert(TAB, ErrorBody::new(ErrorCode::Browser, "x"));
    s.keep_notes(TAB, vec!["note".into()]);
    let alias = s.frames.alias(TAB, 5);
    s.network.started(TAB, "r", 0.0);
    s.requests.claim(TAB);
    log_request(&mut s, TAB, "q", 0.0);
    s.main_frames.started(TAB, "m", "https://a.test/");
    assert!(!s.network.quiet(TAB, 1e6) && !s.main_frames.settled(TAB));
    s.tab_removed(TAB);
    assert!(load.try_recv().is_err(), "its load waiters hear it went");
    assert!(title.try_recv().is_err());
    assert!(news.try_recv().is_err());
    assert!(s.refused_frames.is_empty() && s.console_tabs.is_empty());
    assert!(s.body_tabs.is_empty() && s.blocked.is_empty() && s.page_notes.is_empty());
    assert!(!s.pool.contains(TAB));
    assert!(
        s.frames.frame(TAB, alias).is_err(),
        "its frames' aliases go"
    );
    assert!(s.network.quiet(TAB, 1e6), "its requests in flight go");
    assert!(logged(&s, TAB).is_empty(), "its log goes");
    assert!(s.main_frames.settled(TAB), "its main-frame loads go");
}

#[test]
fn a_load_the_lists_refuse_ends_the_navigation_with_the_refusal() {
    let mut s = with_agent_tab();
    s.user_domains = vec!["a.test".into()];
    s.refuse_frame(TAB, 3, "old page's".into());
    let mut waiting = s.watch(TAB, LoadWatch::navigation());
    let reads = Cell::new(0);
    assert_eq!(
        s.refuse_load(TAB, "https://a.test/next", clock(&reads)),
        None
    );
    assert!(
        s.refused_frames.is_empty(),
        "a new page: the old one's frames go"
    );
    assert_eq!(
        waiting.try_recv().unwrap(),
        None,
        "an allowed load ends nothing"
    );
    let message = s
        .refuse_load(TAB, "https://b.test/", clock(&reads))
        .expect("refused");
    assert_eq!(s.blocked[&TAB].message, message);
    assert!(message.contains("b.test"), "{message}");
    assert_eq!(waiting.try_recv().unwrap().unwrap().page, None);
}

#[test]
fn a_user_tab_load_is_never_refused_but_forgets_its_frames() {
    let mut s = State {
        user_domains: vec!["a.test".into()],
        ..State::default()
    };
    s.refuse_frame(TAB, 3, "x".into());
    assert_eq!(s.refuse_load(TAB, "https://b.test/", || 0.0), None);
    assert!(s.refused_frames.is_empty() && s.blocked.is_empty());
}

#[test]
fn an_agents_own_list_narrows_the_users() {
    let mut s = with_agent_tab();
    let config = AgentConfig {
        allowed_domains: vec!["c.test".into()],
        handle_consent: true,
    };
    s.configs.insert(agent(1), config);
    s.pool.insert(TabId(8), agent(2), "https://a.test/".into());
    s.configs.insert(agent(2), AgentConfig::default());
    assert!(s.refusal(&agent(1), "https://b.test/").is_some());
    assert!(s.refusal(&agent(1), "https://c.test/").is_none());
    assert!(s.refusal(&agent(2), "https://b.test/").is_none());
    assert!(s.handles_consent(TAB));
    assert!(!s.handles_consent(TabId(8)), "its agent's setting is off");
    assert!(!s.handles_consent(TabId(9)), "no agent's tab");
}

#[test]
fn the_environments_list_stands_before_the_popups() {
    let mut s = State {
        user_domains: vec!["a.test".into()],
        ..State::default()
    };
    s.tuning.allowed_domains = vec!["b.test".into()];
    assert!(s.user_allows("https://b.test/"));
    assert!(!s.user_allows("https://a.test/"));
}

#[test]
fn refused_frames_are_kept_to_be_named_up_to_a_bound() {
    let mut s = with_agent_tab();
    assert_eq!(
        s.refuse_frame_load(TAB, 1, "https://b.test/"),
        None,
        "no list"
    );
    s.user_domains = vec!["a.test".into()];
    assert_eq!(s.refuse_frame_load(TAB, 1, "https://a.test/"), None);
    let why = s
        .refuse_frame_load(TAB, 1, "https://b.test/")
        .expect("refused");
    assert_eq!(s.refused_frame(TAB, 1), Some(why));
    assert_eq!(s.refused_frame(TAB, 2), None);
    for frame in 2..40 {
        s.refuse_frame_load(TAB, frame, "https://b.test/");
    }
    assert_eq!(s.refused_frames[&TAB].len(), MAX_REFUSED_FRAMES);
    assert_eq!(s.refused_frame(TAB, 39), None, "refused, not named");
}

#[test]
fn page_notes_are_kept_up_to_a_bound_and_taken_by_their_agent() {
    let mut s = with_agent_tab();
    s.pool.insert(TabId(8), agent(2), "https://a.test/".into());
    s.keep_notes(TAB, Vec::new());
    assert!(s.page_notes.is_empty(), "nothing said, nothing kept");
    s.keep_notes(TAB, (0..15).map(|n| n.to_string()).collect());
    s.keep_notes(TAB, (15..30).map(|n| n.to_string()).collect());
    s.keep_notes(TabId(8), vec!["other's".into()]);
    let notes = s.take_page_notes(&agent(1));
    assert_eq!(notes.len(), MAX_PAGE_NOTES);
    assert_eq!(
        notes.last().map(String::as_str),
        Some("19"),
        "the first kept"
    );
    assert!(s.take_page_notes(&agent(1)).is_empty(), "taken");
    assert_eq!(s.take_page_notes(&agent(2)), vec!["other's".to_owned()]);
}

#[test]
fn a_capture_given_back_wakes_the_next_in_line() {
    let mut s = State::default();
    let first = s.capture.request(&agent(1), 0);
    let next = s.capture.request(&agent(2), 0);
    assert!(
        s.capture
            .verdict(first, 0, 10_000, 60_000)
            .wait_ms()
            .unwrap()
            .is_none()
    );
    let (wake, mut woken) = oneshot::channel();
    s.capture_wakers.insert(next, wake);
    let (own, _) = oneshot::channel();
    s.capture_wakers.insert(first, own);
    let waker = s.capture_done(first, 1).expect("the next waits");
    assert!(!s.capture_wakers.contains_key(&first), "its own waker goes");
    waker.send(()).unwrap();
    assert_eq!(woken.try_recv().unwrap(), Some(()));
    assert!(s.capture_done(next, 2).is_none(), "none after it");
}

#[test]
fn a_download_change_wakes_the_calls_waiting() {
    let mut s = State::default();
    let gone = s.next_download_change();
    drop(gone);
    let mut waiting = s.next_download_change();
    assert_eq!(s.download_waiters.len(), 1, "a call that went is not kept");
    s.downloads_changed();
    assert_eq!(waiting.try_recv().unwrap(), Some(()));
    assert!(s.download_waiters.is_empty());
}

#[test]
fn a_tab_opened_by_a_click_is_told_to_that_click() {
    let mut s = State::default();
    let (heard, mut hears) = futures_channel::mpsc::unbounded();
    s.clicking.insert(TAB, heard);
    let adopted: Adopted = Ok(TabId(9));
    assert!(s.tell_click(TAB, &adopted));
    assert_eq!(hears.try_recv().unwrap(), adopted);
    assert!(!s.tell_click(TabId(8), &adopted), "no click on that opener");
    drop(hears);
    assert!(!s.tell_click(TAB, &adopted), "the click ended");
}

#[test]
fn a_container_is_its_agents() {
    let mut s = State::default();
    let jar = Jar {
        cookie_store_id: "firefox-container-3".into(),
        name: "Claudezilla".into(),
        keep: false,
    };
    s.containers.insert(agent(1), jar);
    assert_eq!(s.container_owner("firefox-container-3"), Some(agent(1)));
    assert_eq!(s.container_owner("firefox-default"), None);
}

#[test]
fn a_tab_given_back_is_no_longer_logged() {
    let mut s = with_agent_tab();
    s.console_tabs.insert(TAB);
    s.body_tabs.insert(TAB);
    s.requests.claim(TAB);
    log_request(&mut s, TAB, "q", 0.0);
    s.stop_logging(TAB);
    assert!(s.console_tabs.is_empty() && s.body_tabs.is_empty());
    assert!(logged(&s, TAB).is_empty(), "its log goes");
}

fn tab_after(url: &str, title: &str, status: &str) -> Tab {
    Tab {
        id: TAB.0,
        window_id: 1,
        url: url.into(),
        title: title.into(),
        status: status.into(),
        active: false,
        group_id: None,
        opener_tab_id: None,
        incognito: false,
        cookie_store_id: None,
    }
}

fn change(status: Option<&str>, url: Option<&str>, title: Option<&str>) -> TabChange {
    TabChange {
        status: status.map(Into::into),
        url: url.map(Into::into),
        title: title.map(Into::into),
    }
}

#[test]
fn a_tabs_update_feeds_its_page_its_network_and_its_waits() {
    let mut s = with_agent_tab();
    let mut load = s.watch(TAB, LoadWatch::NextComplete);
    let mut moved = s.watch(TAB, LoadWatch::UrlChange);
    let mut title = s.title_update(TAB);
    let after = tab_after("https://a.test/next", "a.test/next", "loading");
    let loading = change(Some("loading"), Some("https://a.test/next"), None);
    let no_clock = || panic!("the epoch clock is read for a complete load only");
    s.tab_updated(TAB, loading, &after, no_clock, || 1.0);
    assert_eq!(load.try_recv().unwrap(), None);
    assert!(moved.try_recv().unwrap().is_some(), "its address changed");
    assert_eq!(s.pool.entries(&agent(1))[0].url, "https://a.test/next");
    // The tab as read after the event may show an older title than the event's.
    let after = tab_after("https://a.test/next", "Before", "complete");
    let complete = change(Some("complete"), None, Some("Next"));
    s.tab_updated(TAB, complete, &after, || 1_000.0, || 2.0);
    assert!(
        !s.network.quiet(TAB, 1_000.0),
        "a page just loaded is young"
    );
    assert_eq!(s.pool.entries(&agent(1))[0].title, "Next");
    assert_eq!(title.try_recv().unwrap().as_deref(), Some("Next"));
    let heard = load.try_recv().unwrap().expect("the load ended");
    assert_eq!(heard.at, 2.0);
    let page = heard.page.expect("the page shown");
    assert_eq!(
        (page.url.as_str(), page.title.as_str()),
        ("https://a.test/next", "Before")
    );
}

#[test]
fn running_code_waits_for_the_users_switch() {
    let mut s = State::default();
    let refused = ErrorBody::new(
        ErrorCode::Disabled,
        "running JavaScript in pages is switched off",
    )
    .with_hint(
        "the user can switch it on in the Claudezilla toolbar popup (\"Allow firefox_evaluate\"); \
         until then, read pages with firefox_get_content or firefox_snapshot",
    );
    assert_eq!(s.code_switch(), Err(refused));
    s.evaluate_switch = true;
    assert!(s.code_switch().is_ok());
    s.evaluate_switch = false;
    s.tuning.allow_evaluate = true;
    assert!(s.code_switch().is_ok());
}

#[test]
fn an_attached_tab_is_the_users_until_given_back() {
    let mut s = State::default();
    s.attach_tab(&agent(1), TAB, "https://u.test/", 0).unwrap();
    assert!(
        !s.read_bodies(TAB),
        "an attached tab's bodies are never read"
    );
    assert!(s.body_tabs.is_empty());
    assert!(s.attach_tab(&agent(2), TAB, "https://u.test/", 0).is_err());
    let acted = s.detach(&agent(1), TAB).unwrap();
    assert_eq!(acted.what, "Gave tab 7 back to the user; it stays open.");
    assert!(!s.pool.contains(TAB));
    assert!(!s.user_takes_back(TAB), "given back already");
    s.attach_tab(&agent(1), TAB, "https://u.test/", 0).unwrap();
    assert!(s.user_takes_back(TAB));
    assert!(!s.pool.contains(TAB));
}

#[test]
fn an_attached_tabs_log_starts_at_the_attachment() {
    let mut s = State::default();
    log_request(&mut s, TAB, "before", 0.0);
    s.attach_tab(&agent(1), TAB, "https://u.test/", 0).unwrap();
    assert!(logged(&s, TAB).is_empty(), "what the user browsed goes");
    log_request(&mut s, TAB, "after", 0.0);
    // Another tab's request long after: an unclaimed log would be forgotten by now.
    log_request(&mut s, TabId(8), "other", 60_000.0);
    assert_eq!(logged(&s, TAB), vec!["https://a.test/after".to_owned()]);
}

#[test]
fn an_agent_tab_is_read_for_bodies_and_never_given_back_by_the_user() {
    let mut s = with_agent_tab();
    assert!(s.read_bodies(TAB));
    assert!(s.body_tabs.contains(&TAB));
    assert!(!s.user_takes_back(TAB), "only an attached tab goes back");
    assert!(s.pool.contains(TAB));
    assert!(s.detach(&agent(1), TAB).is_err());
}

#[test]
fn an_agent_that_leaves_takes_its_settings_and_lets_its_tabs_go() {
    let mut s = with_agent_tab();
    s.attach_tab(&agent(1), TabId(9), "https://u.test/", 0)
        .unwrap();
    s.pool.insert(TabId(8), agent(2), "https://a.test/".into());
    s.configs.insert(agent(1), AgentConfig::default());
    s.configs.insert(agent(2), AgentConfig::default());
    s.typed.insert(agent(1), Default::default());
    let round = claudezilla_protocol::args::LoopArgs {
        prompt: "work".into(),
        max_iterations: 3,
        completion_promise: None,
        session_pid: 42,
    };
    s.loops.start(&agent(1), round, 0).unwrap();
    let released = s.agent_leaves(&agent(1));
    assert_eq!(released.closed, vec![TAB]);
    assert_eq!(released.given_back, vec![TabId(9)]);
    assert!(!s.configs.contains_key(&agent(1)) && s.configs.contains_key(&agent(2)));
    assert!(s.typed.is_empty());
    assert!(!s.loops.status(&agent(1), 0).active, "its loop goes");
    assert!(s.pool.contains(TabId(8)));
}

#[test]
fn a_download_is_the_agent_whose_tab_asked_for_it() {
    let mut s = with_agent_tab();
    s.downloads
        .requested(TAB, true, "https://a.test/file.zip", 100.0);
    s.downloads
        .requested(TabId(8), true, "https://a.test/other.zip", 100.0);
    assert_eq!(
        s.requested_by("https://a.test/file.zip", 200.0),
        Some((agent(1), TAB))
    );
    assert_eq!(
        s.requested_by("https://a.test/other.zip", 200.0),
        None,
        "no agent's tab"
    );
}

#[test]
fn a_content_request_carries_its_frame_its_console_and_its_agents_secrets() {
    use claudezilla_protocol::args::{FilledSecret, FrameTarget, SecretName, Typing};
    let pin = FilledSecret {
        name: SecretName::try_from("pin".to_owned()).unwrap(),
        value: "1234".into(),
        sites: Vec::new(),
    };
    let typing = || PageOp::Type {
        target: FrameTarget::Ref(1),
        text: Typing::Secret(pin.clone()),
        clear: false,
    };
    let mut s = with_agent_tab();
    let far = s.frames.alias(TAB, 40_000_000_001);
    assert!(s.content_request(TAB, far + 1, 9, typing()).is_err());
    assert!(
        s.typed.is_empty(),
        "nothing kept of a request that never goes"
    );
    let (frame, request) = s.content_request(TAB, 0, 9, PageOp::Performance).unwrap();
    assert_eq!((frame, request.frame, request.until), (0, 0, 9));
    assert!(!request.console && request.hide.is_empty());
    s.console_tabs.insert(TAB);
    let (_, typed) = s.content_request(TAB, 0, 9, typing()).unwrap();
    assert_eq!(typed.hide, vec![pin.clone()], "what it types is hidden");
    assert_eq!(
        s.typed[&agent(1)].secrets(),
        std::slice::from_ref(&pin),
        "and kept"
    );
    let (_, top) = s.content_request(TAB, 0, 9, PageOp::Performance).unwrap();
    assert!(top.console, "a top frame's operation restarts the console");
    assert_eq!(
        top.hide,
        vec![pin.clone()],
        "what its agent typed is hidden"
    );
    let (frame, inner) = s.content_request(TAB, far, 9, PageOp::Performance).unwrap();
    assert_eq!((frame, inner.frame), (40_000_000_001, far));
    assert!(!inner.console, "only the top frame's");
    assert_eq!(inner.hide, vec![pin], "every frame of the tab hides them");
    let (_, other) = s
        .content_request(TabId(8), 0, 9, PageOp::Performance)
        .unwrap();
    assert!(other.hide.is_empty(), "no agent's tab, nothing to hide");
}

#[test]
fn a_grant_reserves_the_slot_for_the_tunings_time() {
    let mut s = with_agent_tab();
    s.tuning.reservation_ms = 7_000;
    assert!(s.grant(&agent(1), 0).is_err(), "nobody waits");
    for t in 20..22 {
        s.pool.insert(TabId(t), agent(1), "https://a.test/".into());
    }
    s.pool.request_space(&agent(2), 0);
    let (released, granted) = s.grant(&agent(1), 10).unwrap();
    assert!(s.pool.owner(released).is_none(), "its tab left the pool");
    assert_eq!(granted.reserved_ms, 7_000);
    let held = s.pool.slot_requests(&agent(2), 10).reserved[0].waited_ms;
    assert_eq!(held, 7_000, "reserved for the tuning's time from now");
}

/// A load of `tab` (`frameId` 2) as webRequest tells of it.
fn load(tab: i64, url: &str) -> Load {
    serde_json::from_value(serde_json::json!({
        "tabId": tab, "url": url, "frameId": 2, "type": "sub_frame",
    }))
    .unwrap()
}

#[test]
fn the_allowlists_listeners_refuse_only_an_agent_tabs_loads() {
    let mut s = with_agent_tab();
    s.user_domains = vec!["a.test".into()];
    s.refuse_frame(TabId(8), 3, "kept".into());
    let unread = || -> f64 { panic!("the clock was read") };
    for tab in [8, -1] {
        assert_eq!(
            s.refuse_top_load(&load(tab, "https://b.test/"), unread),
            None
        );
        assert_eq!(s.refuse_frame_of(&load(tab, "https://b.test/")), None);
    }
    assert_eq!(
        s.refused_frames.len(),
        1,
        "another tab's frames are not ours"
    );
    let reads = Cell::new(0);
    let refused = s.refuse_top_load(&load(7, "https://b.test/"), clock(&reads));
    assert_eq!(refused, Some(s.blocked[&TAB].message.clone()));
    let why = s.refuse_frame_of(&load(7, "https://b.test/ad"));
    assert_eq!(s.refused_frame(TAB, 2), why);
    assert!(why.is_some());
}

#[test]
fn a_load_reads_as_webrequest_tells_it() {
    let top: Load =
        serde_json::from_value(serde_json::json!({"tabId": 7, "url": "https://a.test/"})).unwrap();
    assert_eq!(top.frame_id, 0);
}

#[test]
fn a_tab_given_back_has_every_frame_take_its_hooks_out_within_the_bound() {
    let request = release_request(10_000);
    assert_eq!(request.until, 12_000);
    assert!(matches!(request.op, PageOp::Release));
    assert!(!request.console && request.frame == 0 && request.hide.is_empty());
}
