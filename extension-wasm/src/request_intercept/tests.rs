use serde_json::json;

use super::*;
use crate::request_routes::Rule;

fn agent(n: u8) -> AgentId {
    AgentId::new([n; 16], 100)
}

/// Tab 1 is agent 1's own, tab 2 attached from the user to agent 1; agent 1 routes `pattern`.
fn routed(pattern: &str, rule: Rule) -> State {
    let mut s = State::default();
    s.pool.insert(TabId(1), agent(1), "https://a.test/".into());
    s.pool
        .attach(TabId(2), &agent(1), "https://b.test/".into())
        .unwrap();
    s.routes.add(&agent(1), pattern, rule).unwrap();
    s
}

fn request(tab: i64, url: &str, kind: &str) -> Request {
    serde_json::from_value(json!({
        "tabId": tab, "url": url, "requestId": "r1", "type": kind, "frameId": 4,
    }))
    .unwrap()
}

/// A clock no handling but a fulfilment may read.
fn unread() -> f64 {
    panic!("the clock was read")
}

fn fulfil(body: Option<&str>) -> Rule {
    Rule::Fulfill {
        body: body.map(str::to_owned),
        headers: vec![("x-mock".into(), "1".into())],
    }
}

#[test]
fn a_request_outside_an_agents_own_tabs_goes_on_untouched() {
    let mut s = routed("**", Rule::Abort);
    for (tab, why) in [(2, "attached from the user"), (3, "not an agent tab")] {
        let got = intercept(
            &mut s,
            &request(tab, "https://a.test/x", "xmlhttprequest"),
            unread,
        );
        assert_eq!(
            got,
            Intercepted {
                read_body: Some(TabId(tab as u32)),
                answer: Answer::Go,
            },
            "{why}"
        );
    }
    // No tab (a request of the browser's own): nothing to read either.
    let none = intercept(&mut s, &request(-1, "https://a.test/x", "other"), unread);
    assert_eq!(none.read_body, None);
    assert_eq!(none.answer, Answer::Go);
    assert_eq!(s.routes.list(&agent(1))[0].hits, 0, "no route met");
}

#[test]
fn an_address_the_users_allowlist_refuses_meets_no_route() {
    let mut s = routed("**", Rule::Abort);
    s.user_domains = vec!["a.test".into()];
    let got = intercept(
        &mut s,
        &request(1, "https://elsewhere.test/", "script"),
        unread,
    );
    assert_eq!(got.answer, Answer::Go);
    let met = intercept(&mut s, &request(1, "https://a.test/", "script"), unread);
    assert_eq!(met.answer, Answer::Cancel);
}

#[test]
fn an_aborted_frame_is_named_for_its_later_reads_and_its_body_never_read() {
    let mut s = routed("**", Rule::Abort);
    let got = intercept(
        &mut s,
        &request(1, "https://a.test/ad", "sub_frame"),
        unread,
    );
    assert_eq!(
        got,
        Intercepted {
            read_body: None,
            answer: Answer::Cancel,
        }
    );
    let why = s.refused_frame(TabId(1), 4).expect("the frame named");
    assert!(why.contains("a route of yours aborts it"), "{why}");
    // Anything else aborted leaves no note.
    intercept(
        &mut s,
        &request(1, "https://a.test/x", "xmlhttprequest"),
        unread,
    );
    assert_eq!(s.refused_frames[&TabId(1)].len(), 1);
}

#[test]
fn a_delayed_request_is_held_and_its_body_read_where_asked() {
    let mut s = routed("**", Rule::Delay(300));
    let got = intercept(
        &mut s,
        &request(1, "https://a.test/x", "xmlhttprequest"),
        unread,
    );
    assert_eq!(
        got,
        Intercepted {
            read_body: Some(TabId(1)),
            answer: Answer::Delay(300),
        }
    );
}

#[test]
fn a_fulfilled_response_is_logged_for_the_user_at_the_clocks_time() {
    let mut s = routed("**", fulfil(Some("{}")));
    let reads = std::cell::Cell::new(0);
    let clock = || {
        reads.set(reads.get() + 1);
        1_000.0
    };
    let got = intercept(
        &mut s,
        &request(1, "https://a.test/api", "xmlhttprequest"),
        clock,
    );
    assert_eq!(
        got,
        Intercepted {
            read_body: None,
            answer: Answer::Fulfil {
                body: Some("{}".into()),
                headers: vec![("x-mock".into(), "1".into())],
            },
        }
    );
    assert_eq!(reads.get(), 1);
    let logged = s.activity.of(&agent(1), 10);
    assert_eq!(logged.len(), 1);
    assert_eq!(logged[0].tab, Some(TabId(1)));
    assert_eq!(logged[0].at_ms, 1_000.0);
    assert!(logged[0].target.contains("a.test/api"), "{:?}", logged[0]);
}

#[test]
fn a_route_held_back_is_told_its_agent_once_and_the_request_goes_on() {
    let mut s = routed("**", fulfil(None));
    let page = request(1, "https://a.test/", "main_frame");
    let first = intercept(&mut s, &page, unread);
    assert_eq!(first.read_body, Some(TabId(1)));
    let Answer::Notify {
        agent: told,
        notice,
    } = first.answer
    else {
        panic!("{:?}", first.answer)
    };
    assert_eq!(told, agent(1));
    assert!(
        notice.contains("needs the user's evaluate switch"),
        "{notice}"
    );
    assert_eq!(intercept(&mut s, &page, unread).answer, Answer::Go);
    assert!(s.activity.of(&agent(1), 10).is_empty(), "nothing replaced");
}

#[test]
fn a_request_reads_as_webrequest_tells_it() {
    let bare: Request = serde_json::from_value(json!({
        "tabId": 3, "url": "https://a.test/", "requestId": "9",
    }))
    .unwrap();
    assert_eq!((bare.kind.as_str(), bare.frame_id), ("", 0));
}

#[test]
fn a_fulfilled_responses_headers_are_set_once_with_its_own_length_gone() {
    let mut pending = PendingHeaders::default();
    pending.hold("r1".into(), vec![("x-mock".into(), "1".into())]);
    let response = || -> Response {
        serde_json::from_value(json!({
            "requestId": "r1",
            "responseHeaders": [{"name": "Content-Length", "value": "10"}, {"name": "date", "value": "d"}],
        }))
        .unwrap()
    };
    let set = headers(&mut pending, response()).expect("fulfilled");
    assert_eq!(
        serde_json::to_value(&set).unwrap(),
        json!({"responseHeaders": [{"name": "date", "value": "d"}, {"name": "x-mock", "value": "1"}]})
    );
    assert_eq!(headers(&mut pending, response()), None, "given once");
    let bare: Response = serde_json::from_value(json!({"requestId": "r2"})).unwrap();
    assert_eq!(headers(&mut pending, bare), None, "not fulfilled");
}

#[test]
fn with_the_users_evaluate_switch_on_a_document_route_is_fulfilled() {
    let mut s = routed("**", fulfil(Some("<p>mock</p>")));
    s.evaluate_switch = true;
    let page = request(1, "https://a.test/", "main_frame");
    let got = intercept(&mut s, &page, || 5.0);
    assert!(
        matches!(got.answer, Answer::Fulfil { .. }),
        "{:?}",
        got.answer
    );
}

#[test]
fn one_agents_routes_never_touch_another_agents_tab() {
    let mut s = routed("**", Rule::Abort);
    s.pool.insert(TabId(5), agent(2), "https://c.test/".into());
    let got = intercept(&mut s, &request(5, "https://a.test/x", "script"), unread);
    let untouched = Intercepted {
        read_body: Some(TabId(5)),
        answer: Answer::Go,
    };
    assert_eq!(got, untouched);
    assert_eq!(s.routes.list(&agent(1))[0].hits, 0, "no route met");
}

#[test]
fn a_routed_tabs_request_no_route_matches_still_has_its_body_read() {
    let mut s = routed("https://a.test/api/**", Rule::Abort);
    let got = intercept(&mut s, &request(1, "https://a.test/page", "script"), unread);
    let read = Intercepted {
        read_body: Some(TabId(1)),
        answer: Answer::Go,
    };
    assert_eq!(got, read);
}
