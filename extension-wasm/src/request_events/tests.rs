use claudezilla_protocol::AgentId;

use super::*;
use crate::request_log::Filter;

#[derive(Default)]
struct All {
    network: Network,
    main_frames: MainFrames,
    downloads: Downloads,
    requests: RequestLog,
    pool: Pool,
}

const AGENTS: TabId = TabId(3);
const USERS: TabId = TabId(9);

fn all() -> All {
    let mut all = All::default();
    all.pool
        .insert(AGENTS, AgentId::new([1; 16], 100), String::new());
    all
}

impl All {
    fn hear(&mut self, event: Event, tab: TabId, r: Request, now: f64) -> bool {
        Watchers {
            network: &mut self.network,
            main_frames: &mut self.main_frames,
            downloads: &mut self.downloads,
            requests: &mut self.requests,
            pool: &self.pool,
        }
        .hear(event, tab, r, now)
    }

    fn logged(&self, tab: TabId, now: f64) -> usize {
        let filter = Filter {
            kind: None,
            status: None,
            limit: 50,
            include_headers: true,
            include_body: false,
        };
        self.requests.query(tab, &filter, now).1 as usize
    }
}

fn request(id: &str, kind: &str, url: &str) -> Request {
    Request {
        request_id: id.into(),
        tab_id: 3,
        method: "GET".into(),
        url: url.into(),
        kind: kind.into(),
        status_code: 200,
        ..Request::default()
    }
}

#[test]
fn a_tab_is_that_of_the_request_and_none_for_the_browsers_own() {
    assert_eq!(request("1", "script", "/a").tab(), Some(TabId(3)));
    let own = Request {
        tab_id: -1,
        ..Request::default()
    };
    assert_eq!(own.tab(), None);
}

#[test]
fn critical_requests_keep_the_network_busy_until_they_end() {
    let mut all = all();
    all.network.loaded(USERS, 0.0);
    assert!(!all.hear(Event::Started, USERS, request("1", "script", "/a.js"), 0.0));
    // An image is not waited for.
    all.hear(Event::Started, USERS, request("2", "image", "/a.png"), 0.0);
    assert!(!all.network.quiet(USERS, 10_000.0));
    assert!(!all.hear(
        Event::Completed,
        USERS,
        request("1", "script", "/a.js"),
        10.0
    ));
    assert!(all.network.quiet(USERS, 10_000.0));
    all.hear(
        Event::Started,
        USERS,
        request("3", "xmlhttprequest", "/x"),
        20.0,
    );
    all.hear(
        Event::Failed,
        USERS,
        request("3", "xmlhttprequest", "/x"),
        30.0,
    );
    assert!(
        all.network.quiet(USERS, 10_000.0),
        "a failed request ends too"
    );
}

#[test]
fn main_frame_loads_are_heard_when_they_end_or_first_answer() {
    let mut all = all();
    let page = || request("7", MAIN_FRAME, "https://a.test/");
    assert!(!all.hear(Event::Started, AGENTS, page(), 0.0));
    assert!(!all.main_frames.settled(AGENTS));
    assert!(all.hear(Event::Responded, AGENTS, page(), 5.0));
    assert!(all.hear(Event::Completed, AGENTS, page(), 9.0));
    assert!(all.main_frames.settled(AGENTS));
    // A script's end is no word of a load.
    assert!(!all.hear(
        Event::Completed,
        AGENTS,
        request("8", "script", "/a.js"),
        9.0
    ));
    let failing = Request {
        error: Some("NS_ERROR_CONNECTION_REFUSED".into()),
        ..request("9", MAIN_FRAME, "https://b.test/")
    };
    all.hear(
        Event::Started,
        AGENTS,
        request("9", MAIN_FRAME, "https://b.test/"),
        10.0,
    );
    assert!(all.hear(Event::Failed, AGENTS, failing, 11.0));
    assert!(all.main_frames.settled(AGENTS));
}

#[test]
fn a_main_frame_answer_that_asks_to_be_saved_is_kept_as_a_download() {
    let mut all = all();
    all.hear(
        Event::Started,
        AGENTS,
        request("1", MAIN_FRAME, "https://a.test/"),
        0.0,
    );
    all.hear(
        Event::Completed,
        AGENTS,
        request("1", MAIN_FRAME, "https://a.test/"),
        1.0,
    );
    let mark = all.main_frames.mark();
    let file = || request("2", MAIN_FRAME, "https://a.test/report.bin");
    all.hear(Event::Started, AGENTS, file(), 2.0);
    all.hear(Event::Responded, AGENTS, file(), 3.0);
    let with_headers = Request {
        response_headers: Some(vec![Header {
            name: "Content-Disposition".into(),
            value: Some("attachment".into()),
        }]),
        ..file()
    };
    all.hear(Event::Completed, AGENTS, with_headers, 4.0);
    assert_eq!(
        all.main_frames.reached(
            AGENTS,
            mark,
            Some("https://a.test/report.bin"),
            "https://a.test/"
        ),
        crate::load::Reached::Stayed
    );
}

#[test]
fn a_download_is_traced_to_the_agent_tab_that_asked_even_through_a_redirect() {
    let mut all = all();
    all.hear(
        Event::Started,
        AGENTS,
        request("1", "other", "https://a.test/get"),
        0.0,
    );
    assert_eq!(
        all.downloads.tab_that_requested("https://a.test/get", 10.0),
        Some(AGENTS)
    );
    let moved = Request {
        redirect_url: Some("https://cdn.test/file.zip".into()),
        ..request("2", MAIN_FRAME, "https://a.test/dl")
    };
    all.hear(
        Event::Started,
        AGENTS,
        request("2", MAIN_FRAME, "https://a.test/dl"),
        0.0,
    );
    assert!(!all.hear(Event::Redirected, AGENTS, moved, 1.0));
    assert_eq!(
        all.downloads
            .tab_that_requested("https://cdn.test/file.zip", 10.0),
        Some(AGENTS)
    );
    // The user's tab asked for it too: the download is the user's.
    all.hear(
        Event::Started,
        USERS,
        request("3", "sub_frame", "https://cdn.test/file.zip"),
        2.0,
    );
    assert_eq!(
        all.downloads
            .tab_that_requested("https://cdn.test/file.zip", 10.0),
        None
    );
    // A script is never a download's source.
    all.hear(
        Event::Started,
        AGENTS,
        request("4", "script", "https://a.test/s.js"),
        0.0,
    );
    assert_eq!(
        all.downloads
            .tab_that_requested("https://a.test/s.js", 10.0),
        None
    );
}

#[test]
fn the_agents_tabs_are_logged_with_headers_and_private_browsing_never_held() {
    let mut all = all();
    all.hear(Event::Started, AGENTS, request("1", "script", "/a.js"), 0.0);
    let sent = Request {
        request_headers: Some(vec![Header {
            name: "accept".into(),
            value: Some("*/*".into()),
        }]),
        ..request("1", "script", "/a.js")
    };
    all.hear(Event::Sent, AGENTS, sent, 1.0);
    all.hear(
        Event::Completed,
        AGENTS,
        request("1", "script", "/a.js"),
        2.0,
    );
    assert_eq!(all.logged(AGENTS, 3.0), 1);
    let private = Request {
        incognito: true,
        ..request("2", "script", "/p.js")
    };
    all.hear(Event::Started, USERS, private, 0.0);
    // Another tab's newest request is held, for a tab about to join the pool.
    all.hear(Event::Started, USERS, request("3", "script", "/u.js"), 0.0);
    all.pool
        .insert(USERS, AgentId::new([2; 16], 101), String::new());
    all.hear(Event::Started, USERS, request("4", "script", "/v.js"), 1.0);
    assert_eq!(
        all.logged(USERS, 2.0),
        2,
        "the private request is not among them"
    );
}
