//! Each agent's routes (`firefox_route`): URL globs over its own tabs' requests, and what
//! happens to a request one matches — its response fulfilled with a body and headers, the
//! request aborted, or delayed. Routes belong to their agent, apply only to its tabs, and end
//! with it; the newest matching route wins.
//!
//! Fulfilling a response the browser runs or shows as a page (a document, frame, script,
//! style sheet, worker) runs the agent's code in the site's origin, and some headers plant
//! cookies or loosen the site's defences: both are as strong as `firefox_evaluate` and need
//! the user's same switch. Data responses (fetch/XHR, images, fonts, media) do not.
//!
//! Also which agent tabs the blocking listeners are added to (`listened`), whose routes a
//! request of one meets (`routed_owner`), and the headers a fulfilled response waits for (`PendingHeaders`),
//! over the pool and plain data; `background/intercept.rs` holds the listeners.

use std::collections::{HashMap, HashSet};

use claudezilla_protocol::args::{RouteAction, RouteArgs};
use claudezilla_protocol::reply::RouteInfo;
use claudezilla_protocol::{AgentId, ErrorBody, ErrorCode, TabId};

use crate::glob::Glob;
use crate::pool::Pool;

/// Most routes one agent holds.
pub const MAX_ROUTES: usize = 50;

/// Request types (webRequest's `ResourceType`) whose responses are data to the page's own
/// code: fulfilling them needs no switch. Every other type is run or rendered by the browser.
const DATA_TYPES: [&str; 7] = [
    "xmlhttprequest",
    "image",
    "imageset",
    "font",
    "media",
    "ping",
    "beacon",
];

/// Response headers that change what the browser stores or lets a site do (prefixes end in
/// `-`): setting them needs the evaluate switch.
const GUARDED_HEADERS: [&str; 13] = [
    "set-cookie",
    "set-cookie2",
    "content-security-policy",
    "access-control-",
    "clear-site-data",
    "refresh",
    "location",
    "link",
    "strict-transport-security",
    "cross-origin-",
    "x-frame-options",
    "permissions-policy",
    "feature-policy",
];

/// Does setting this response header change the site's security or stored state?
pub fn guarded_header(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    GUARDED_HEADERS.iter().any(|g| match g.strip_suffix('-') {
        Some(prefix) => name.starts_with(prefix) && name.len() > prefix.len(),
        None => name == *g || (*g == "content-security-policy" && name.starts_with(g)),
    })
}

/// Does the browser run or render a response of this request type (not only hand it to the
/// page's code as data)?
pub fn runs_as_code(kind: &str) -> bool {
    !DATA_TYPES.contains(&kind)
}

/// Refuses headers that need the evaluate switch while it is off, naming them.
pub fn check_headers(headers: &[(String, String)], code_allowed: bool) -> Result<(), ErrorBody> {
    let guarded: Vec<&str> = headers
        .iter()
        .map(|(name, _)| name.as_str())
        .filter(|name| guarded_header(name))
        .collect();
    if code_allowed || guarded.is_empty() {
        return Ok(());
    }
    Err(ErrorBody::new(
        ErrorCode::Disabled,
        format!(
            "the header(s) {} change what the site stores or trusts (cookies, content security, cross-origin access, redirects): setting them is as strong as firefox_evaluate, which is switched off",
            guarded.join(", ")
        ),
    )
    .with_hint("fulfill without them; or the user can switch firefox_evaluate on in the Claudezilla toolbar popup"))
}

/// The route a `firefox_route` call adds, its pattern and rule (a fulfill's headers checked
/// against the evaluate switch); none when the call only lists the agent's routes.
pub fn asked(
    a: RouteArgs,
    code_allowed: impl FnOnce() -> bool,
) -> Result<Option<(String, Rule)>, ErrorBody> {
    let (Some(pattern), Some(action)) = (a.pattern, a.action) else {
        return Ok(None);
    };
    let rule = match action {
        RouteAction::Fulfill => {
            let headers: Vec<(String, String)> = a.headers.into_iter().collect();
            check_headers(&headers, code_allowed())?;
            Rule::Fulfill {
                body: a.body,
                headers,
            }
        }
        RouteAction::Abort => Rule::Abort,
        RouteAction::Delay => Rule::Delay(a.delay_ms.unwrap_or_default()),
    };
    Ok(Some((pattern, rule)))
}

/// What a request meets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// No route of its agent matches: the request goes as it would.
    Pass,
    Apply(Rule),
    /// A fulfill route matched a response the browser would run (or with guarded headers)
    /// while the evaluate switch is off: the request is left alone. `first` the first time
    /// for this route, so its agent hears of it once.
    Held {
        pattern: String,
        first: bool,
    },
}

/// What a matched request gets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rule {
    Fulfill {
        body: Option<String>,
        headers: Vec<(String, String)>,
    },
    Abort,
    Delay(u32),
}

impl Rule {
    /// Would applying this rule to a request of type `kind` need the evaluate switch?
    fn needs_switch(&self, kind: &str) -> bool {
        match self {
            Self::Fulfill { headers, .. } => {
                runs_as_code(kind) || headers.iter().any(|(name, _)| guarded_header(name))
            }
            Self::Abort | Self::Delay(_) => false,
        }
    }

    fn action(&self) -> RouteAction {
        match self {
            Self::Fulfill { .. } => RouteAction::Fulfill,
            Self::Abort => RouteAction::Abort,
            Self::Delay(_) => RouteAction::Delay,
        }
    }
}

#[derive(Debug, Clone)]
struct Route {
    pattern: String,
    glob: Glob,
    rule: Rule,
    hits: u32,
    /// Requests left alone for want of the evaluate switch.
    held: u32,
}

#[derive(Debug, Default)]
pub struct RouteTable {
    agents: HashMap<AgentId, Vec<Route>>,
}

impl RouteTable {
    /// Adds a route (replacing one with the same pattern) as the agent's newest.
    pub fn add(&mut self, agent: &AgentId, pattern: &str, rule: Rule) -> Result<(), ErrorBody> {
        let routes = self.agents.entry(agent.clone()).or_default();
        routes.retain(|r| r.pattern != pattern);
        if routes.len() == MAX_ROUTES {
            return Err(ErrorBody::new(
                ErrorCode::InvalidArgument,
                format!("you have {MAX_ROUTES} routes already"),
            )
            .with_hint("remove some with firefox_unroute"));
        }
        routes.push(Route {
            pattern: pattern.to_owned(),
            glob: Glob::new(pattern),
            rule,
            hits: 0,
            held: 0,
        });
        Ok(())
    }

    /// Removes the agent's route with this pattern, or all of them; how many went.
    pub fn remove(&mut self, agent: &AgentId, pattern: Option<&str>) -> usize {
        let Some(routes) = self.agents.get_mut(agent) else {
            return 0;
        };
        let before = routes.len();
        match pattern {
            Some(p) => routes.retain(|r| r.pattern != p),
            None => routes.clear(),
        }
        let removed = before - routes.len();
        if routes.is_empty() {
            self.agents.remove(agent);
        }
        removed
    }

    /// The agent's routes, newest first.
    pub fn list(&self, agent: &AgentId) -> Vec<RouteInfo> {
        self.agents
            .get(agent)
            .map(|routes| {
                routes
                    .iter()
                    .rev()
                    .map(|r| RouteInfo {
                        pattern: r.pattern.clone(),
                        action: r.rule.action(),
                        hits: r.hits,
                        held: r.held,
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// What happens to a request (of type `kind`) of one of `owner`'s tabs: its newest
    /// matching route's rule, unless that would run code in the site without the switch.
    pub fn hit(&mut self, owner: &AgentId, url: &str, kind: &str, code_allowed: bool) -> Verdict {
        let Some(route) = self
            .agents
            .get_mut(owner)
            .and_then(|routes| routes.iter_mut().rev().find(|r| r.glob.matches(url)))
        else {
            return Verdict::Pass;
        };
        if !code_allowed && route.rule.needs_switch(kind) {
            route.held = route.held.saturating_add(1);
            return Verdict::Held {
                pattern: route.pattern.clone(),
                first: route.held == 1,
            };
        }
        route.hits = route.hits.saturating_add(1);
        Verdict::Apply(route.rule.clone())
    }

    /// Has the agent any route?
    pub fn has_routes(&self, agent: &AgentId) -> bool {
        self.agents.contains_key(agent)
    }
}

/// The agent tabs whose requests the blocking listeners hear, and only those: the tabs of an
/// agent with a route, and those whose bodies an agent reads (`body_tabs`); never a tab
/// attached from the user.
pub fn listened(pool: &Pool, routes: &RouteTable, body_tabs: &HashSet<TabId>) -> Vec<TabId> {
    let needs = |tab: &TabId| {
        let routed = pool.owner(*tab).is_some_and(|o| routes.has_routes(o));
        !pool.is_attached(*tab) && (routed || body_tabs.contains(tab))
    };
    pool.tab_ids().into_iter().filter(needs).collect()
}

/// The agent whose routes a request of `tab` meets: none for a tab outside the pool, a tab
/// attached from the user, or an address the user's allowlist refuses (`user_allows`, asked
/// only of an agent's own tab).
pub fn routed_owner(
    pool: &Pool,
    tab: TabId,
    user_allows: impl FnOnce() -> bool,
) -> Option<AgentId> {
    let owner = pool.owner(tab)?;
    (!pool.is_attached(tab) && user_allows()).then(|| owner.clone())
}

/// Fulfilled responses whose headers are still to come, at most.
const MAX_PENDING: usize = 256;

/// Headers to set on fulfilled responses still to come, by request id.
#[derive(Debug, Default)]
pub struct PendingHeaders(HashMap<String, Vec<(String, String)>>);

impl PendingHeaders {
    pub fn hold(&mut self, request_id: String, headers: Vec<(String, String)>) {
        // Requests that fail before their headers leave entries: bounded.
        if self.0.len() >= MAX_PENDING {
            self.0.clear();
        }
        self.0.insert(request_id, headers);
    }

    /// The headers a response's arrival sets, given once.
    pub fn take(&mut self, request_id: &str) -> Option<Vec<(String, String)>> {
        self.0.remove(request_id)
    }
}

/// A webRequest `HttpHeaders` entry.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Header {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

/// A fulfilled response's headers: the server's, less each the route sets and its length
/// (the body is the route's now), then the route's.
pub fn fulfilled_headers(server: Vec<Header>, set: Vec<(String, String)>) -> Vec<Header> {
    let replaced = |name: &str| {
        name.eq_ignore_ascii_case("content-length")
            || set.iter().any(|(n, _)| n.eq_ignore_ascii_case(name))
    };
    let mut headers: Vec<Header> = server.into_iter().filter(|h| !replaced(&h.name)).collect();
    headers.extend(set.into_iter().map(|(name, value)| Header {
        name,
        value: Some(value),
    }));
    headers
}

/// What the background does with a request of an agent tab, by its verdict.
#[derive(Debug, PartialEq, Eq)]
pub enum Handling {
    /// Cancelled; for a frame's own load, the words reading that frame later shows.
    Cancel { frame_note: Option<String> },
    /// Held this long, then let go.
    Delay(u32),
    /// The response's body (if given) and headers replaced.
    Fulfill {
        body: Option<String>,
        headers: Vec<(String, String)>,
    },
    /// Let go as it is; the first time a route held back, what its agent hears of it.
    Pass { notice: Option<String> },
}

impl Handling {
    /// Does the request go on to the server (its body read where an agent asked)?
    pub fn goes_on(&self) -> bool {
        matches!(self, Self::Delay(_) | Self::Pass { .. })
    }
}

/// The handling of a request of type `kind` to `url` that met `verdict`.
pub fn handling(verdict: Verdict, kind: &str, url: &str) -> Handling {
    match verdict {
        Verdict::Apply(Rule::Abort) => Handling::Cancel {
            frame_note: (kind == "sub_frame").then(|| {
                format!(
                    "a frame of {} was not loaded: a route of yours aborts it (firefox_route {{}} lists them)",
                    crate::redact::shown_url(url, 300)
                )
            }),
        },
        Verdict::Apply(Rule::Delay(ms)) => Handling::Delay(ms),
        Verdict::Apply(Rule::Fulfill { body, headers }) => Handling::Fulfill { body, headers },
        Verdict::Held { pattern, first } => Handling::Pass {
            notice: first.then(|| {
                format!(
                    "Your route {pattern} left a {kind} response ({}) alone: fulfilling what the browser runs or shows as a page, or setting headers that plant cookies or change the site's security, runs your content in the site, which needs the user's evaluate switch (the Claudezilla popup). Data requests (fetch, XHR, images, fonts, media) are fulfilled.",
                    crate::redact::shown_url(url, 200)
                )
            }),
        },
        Verdict::Pass => Handling::Pass { notice: None },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent(n: u8) -> AgentId {
        AgentId::new([n; 16], 0)
    }

    #[test]
    fn routes_are_their_agents_alone_and_the_newest_wins() {
        let (a, b) = (agent(1), agent(2));
        let mut t = RouteTable::default();
        t.add(&a, "**/api/*", Rule::Abort).unwrap();
        t.add(&a, "**/api/data", Rule::Delay(5)).unwrap();
        let hit = |t: &mut RouteTable, who: &AgentId, url: &str| t.hit(who, url, "script", false);
        assert_eq!(
            hit(&mut t, &a, "http://x/api/data"),
            Verdict::Apply(Rule::Delay(5))
        );
        assert_eq!(
            hit(&mut t, &a, "http://x/api/other"),
            Verdict::Apply(Rule::Abort)
        );
        assert_eq!(hit(&mut t, &a, "http://x/page"), Verdict::Pass);
        // Another agent's requests never meet a's routes.
        assert_eq!(hit(&mut t, &b, "http://x/api/data"), Verdict::Pass);
        let listed = t.list(&a);
        assert_eq!(listed[0].pattern, "**/api/data");
        assert_eq!((listed[0].hits, listed[1].hits), (1, 1));
        // The same pattern again replaces the route and makes it the newest.
        t.add(
            &a,
            "**/api/*",
            Rule::Fulfill {
                body: Some("x".into()),
                headers: vec![],
            },
        )
        .unwrap();
        assert_eq!(t.list(&a).len(), 2);
        assert!(t.has_routes(&a) && !t.has_routes(&b));
        assert!(matches!(
            t.hit(&a, "http://x/api/data", "xmlhttprequest", false),
            Verdict::Apply(Rule::Fulfill { .. })
        ));
        assert_eq!(t.remove(&b, None), 0);
        assert_eq!(t.remove(&a, Some("**/api/*")), 1);
        assert_eq!(t.remove(&a, None), 1);
        // Its last route gone, its tabs' requests need wait on nothing of ours.
        assert!(!t.has_routes(&a));
    }

    #[test]
    fn an_agent_holds_a_bounded_number() {
        let a = agent(1);
        let mut t = RouteTable::default();
        for i in 0..MAX_ROUTES {
            t.add(&a, &format!("**/{i}"), Rule::Abort).unwrap();
        }
        assert!(t.add(&a, "**/one-more", Rule::Abort).is_err());
        // Replacing one is still allowed.
        t.add(&a, "**/7", Rule::Delay(1)).unwrap();
    }

    fn fulfill(headers: &[(&str, &str)]) -> Rule {
        Rule::Fulfill {
            body: Some("<script>steal()</script>".into()),
            headers: headers
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect(),
        }
    }

    #[test]
    fn fulfilling_what_the_browser_runs_waits_for_the_switch() {
        let a = agent(1);
        let mut t = RouteTable::default();
        t.add(&a, "**/*", fulfill(&[("Content-Type", "text/html")]))
            .unwrap();
        for kind in [
            "main_frame",
            "sub_frame",
            "script",
            "stylesheet",
            "object",
            "xslt",
            "other",
            "web_manifest",
        ] {
            assert!(
                matches!(
                    t.hit(&a, "http://site/x", kind, false),
                    Verdict::Held { .. }
                ),
                "{kind}"
            );
            assert!(matches!(
                t.hit(&a, "http://site/x", kind, true),
                Verdict::Apply(_)
            ));
        }
        for kind in DATA_TYPES {
            assert!(
                matches!(t.hit(&a, "http://site/x", kind, false), Verdict::Apply(_)),
                "{kind}"
            );
        }
        // The agent hears of the first held request only; the listing counts them all.
        let mut t = RouteTable::default();
        t.add(&a, "**/x", fulfill(&[])).unwrap();
        let firsts: Vec<bool> = (0..3)
            .map(|_| match t.hit(&a, "http://site/x", "main_frame", false) {
                Verdict::Held { first, .. } => first,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(firsts, [true, false, false]);
        assert_eq!((t.list(&a)[0].held, t.list(&a)[0].hits), (3, 0));
        // Abort and delay never run anything: no switch needed for a page.
        t.add(&a, "**/y", Rule::Abort).unwrap();
        assert_eq!(
            t.hit(&a, "http://site/y", "main_frame", false),
            Verdict::Apply(Rule::Abort)
        );
    }

    #[test]
    fn headers_that_change_state_or_trust_need_the_switch() {
        for name in [
            "Set-Cookie",
            "set-cookie2",
            "Content-Security-Policy",
            "content-security-policy-report-only",
            "Access-Control-Allow-Origin",
            "Clear-Site-Data",
            "Refresh",
            "Location",
            "Link",
            "Strict-Transport-Security",
            "Cross-Origin-Opener-Policy",
            "X-Frame-Options",
        ] {
            assert!(guarded_header(name), "{name}");
        }
        for name in ["Content-Type", "x-mock", "Cache-Control", "Linked", "ETag"] {
            assert!(!guarded_header(name), "{name}");
        }
        let headers = vec![
            ("x-mock".to_string(), "1".to_string()),
            ("Set-Cookie".to_string(), "planted=1".to_string()),
        ];
        let e = check_headers(&headers, false).unwrap_err();
        assert_eq!(e.code, ErrorCode::Disabled);
        assert!(
            e.message.contains("Set-Cookie") && !e.message.contains("x-mock"),
            "{e}"
        );
        assert!(check_headers(&headers, true).is_ok());
        // A data response with such a header is held too, should the switch go off later.
        let a = agent(1);
        let mut t = RouteTable::default();
        t.add(&a, "**/api", fulfill(&[("Set-Cookie", "planted=1")]))
            .unwrap();
        assert!(matches!(
            t.hit(&a, "http://site/api", "xmlhttprequest", false),
            Verdict::Held { .. }
        ));
    }

    #[test]
    fn a_fulfilled_response_keeps_the_servers_headers_the_route_does_not_set() {
        let header = |name: &str, value: &str| Header {
            name: name.into(),
            value: Some(value.into()),
        };
        let server = vec![
            header("Content-Type", "text/html"),
            header("Content-Length", "5120"),
            header("X-Served-By", "cache-1"),
            Header {
                name: "Set-Cookie".into(),
                value: None,
            },
        ];
        let set = vec![("content-type".to_owned(), "application/json".to_owned())];
        assert_eq!(
            fulfilled_headers(server, set),
            [
                header("X-Served-By", "cache-1"),
                Header {
                    name: "Set-Cookie".into(),
                    value: None,
                },
                header("content-type", "application/json"),
            ]
        );
    }

    #[test]
    fn each_verdict_has_its_handling() {
        let url = "https://api.example/v1?token=abc";
        assert_eq!(
            handling(Verdict::Apply(Rule::Abort), "xmlhttprequest", url),
            Handling::Cancel { frame_note: None }
        );
        let Handling::Cancel {
            frame_note: Some(note),
        } = handling(Verdict::Apply(Rule::Abort), "sub_frame", url)
        else {
            panic!("an aborted frame is noted");
        };
        assert!(
            note.starts_with("a frame of https://api.example/v1"),
            "{note}"
        );
        assert!(
            !note.contains("abc"),
            "the address is shown redacted: {note}"
        );
        assert_eq!(
            handling(Verdict::Apply(Rule::Delay(300)), "script", url),
            Handling::Delay(300)
        );
        let fulfill = Rule::Fulfill {
            body: Some("{}".into()),
            headers: vec![("x-a".into(), "1".into())],
        };
        assert_eq!(
            handling(Verdict::Apply(fulfill), "xmlhttprequest", url),
            Handling::Fulfill {
                body: Some("{}".into()),
                headers: vec![("x-a".into(), "1".into())]
            }
        );
        assert_eq!(
            handling(Verdict::Pass, "image", url),
            Handling::Pass { notice: None }
        );
        assert!(Handling::Delay(1).goes_on() && Handling::Pass { notice: None }.goes_on());
        assert!(!Handling::Cancel { frame_note: None }.goes_on());
        // A fulfilled response's body is ours: it is never also read as the server's.
        let fulfilled = Handling::Fulfill {
            body: None,
            headers: Vec::new(),
        };
        assert!(!fulfilled.goes_on());
    }

    #[test]
    fn a_held_route_is_said_to_its_agent_once() {
        let held = |first| Verdict::Held {
            pattern: "**/app.js".into(),
            first,
        };
        let Handling::Pass {
            notice: Some(notice),
        } = handling(held(true), "script", "https://a.example/app.js")
        else {
            panic!("the first hold is said");
        };
        assert!(
            notice.starts_with(
                "Your route **/app.js left a script response (https://a.example/app.js) alone"
            ),
            "{notice}"
        );
        assert_eq!(
            handling(held(false), "script", "https://a.example/app.js"),
            Handling::Pass { notice: None }
        );
    }

    fn route_args(json: serde_json::Value) -> RouteArgs {
        serde_json::from_value(json).expect("valid arguments")
    }

    #[test]
    fn a_route_call_adds_its_rule_or_only_lists() {
        let asked_of = |json, code: bool| asked(route_args(json), || code);
        // The switch is read for a fulfill alone.
        let unread = || -> bool { panic!("the evaluate switch read") };
        assert_eq!(asked(route_args(serde_json::json!({})), unread), Ok(None));
        assert_eq!(
            asked(
                route_args(
                    serde_json::json!({"pattern": "**/a", "action": "delay", "delayMs": 40})
                ),
                unread
            ),
            Ok(Some(("**/a".into(), Rule::Delay(40))))
        );
        assert_eq!(
            asked(
                route_args(serde_json::json!({"pattern": "**/a", "action": "abort"})),
                unread
            ),
            Ok(Some(("**/a".into(), Rule::Abort)))
        );
        let fulfill = serde_json::json!({"pattern": "**/a", "action": "fulfill", "body": "x",
            "headers": {"set-cookie": "a=1", "content-type": "text/plain"}});
        let refused = asked_of(fulfill.clone(), false).unwrap_err();
        assert_eq!(refused.code, ErrorCode::Disabled);
        assert!(
            refused
                .message
                .starts_with("the header(s) set-cookie change"),
            "{}",
            refused.message
        );
        let headers = vec![
            ("content-type".to_owned(), "text/plain".to_owned()),
            ("set-cookie".to_owned(), "a=1".to_owned()),
        ];
        assert_eq!(
            asked_of(fulfill, true),
            Ok(Some((
                "**/a".into(),
                Rule::Fulfill {
                    body: Some("x".into()),
                    headers
                }
            )))
        );
    }

    /// A pool of three tabs: 1 of an agent with routes, 2 of one without, 3 attached from the
    /// user to the routed agent.
    fn three_tabs() -> (Pool, RouteTable, AgentId) {
        let (routed, plain) = (agent(1), agent(2));
        let mut pool = Pool::new();
        pool.insert(TabId(1), routed.clone(), "http://a/".into());
        pool.insert(TabId(2), plain, "http://b/".into());
        pool.attach(TabId(3), &routed, "http://c/".into()).unwrap();
        let mut routes = RouteTable::default();
        routes.add(&routed, "**", Rule::Abort).unwrap();
        (pool, routes, routed)
    }

    #[test]
    fn listeners_go_on_routed_and_read_tabs_never_on_attached_ones() {
        let (pool, routes, _) = three_tabs();
        let listened_to = |body_tabs: &[u32]| {
            let reads = body_tabs.iter().map(|t| TabId(*t)).collect();
            let mut tabs = listened(&pool, &routes, &reads);
            tabs.sort_by_key(|t| t.0);
            tabs
        };
        assert_eq!(listened_to(&[]), vec![TabId(1)]);
        assert_eq!(listened_to(&[2, 3]), vec![TabId(1), TabId(2)]);
        assert_eq!(listened_to(&[9]), vec![TabId(1)]);
    }

    #[test]
    fn only_an_agent_tab_within_the_allowlist_meets_routes() {
        let (pool, _, routed) = three_tabs();
        let met = |tab, allows: bool| routed_owner(&pool, TabId(tab), || allows);
        assert_eq!(met(1, true), Some(routed));
        assert_eq!(met(2, true), Some(agent(2)));
        assert_eq!(met(1, false), None, "outside the user's allowlist");
        // The allowlist is asked only of an agent's own tab.
        let unasked = || -> bool { panic!("the allowlist asked") };
        assert_eq!(
            routed_owner(&pool, TabId(3), unasked),
            None,
            "attached from the user"
        );
        assert_eq!(
            routed_owner(&pool, TabId(4), unasked),
            None,
            "not an agent tab"
        );
    }

    #[test]
    fn pending_headers_are_given_once_and_bounded() {
        let mut pending = PendingHeaders::default();
        let set = vec![("x".to_owned(), "1".to_owned())];
        pending.hold("a".into(), set.clone());
        assert_eq!(pending.take("a"), Some(set.clone()));
        assert_eq!(pending.take("a"), None);
        for n in 0..MAX_PENDING {
            pending.hold(n.to_string(), Vec::new());
        }
        // As many as the bound are all held (the first one given back, then held again).
        assert_eq!(pending.take("0"), Some(Vec::new()));
        pending.hold("0".into(), Vec::new());
        // Full: the next one clears those whose headers never came.
        pending.hold("b".into(), set.clone());
        assert_eq!(pending.take("1"), None);
        assert_eq!(pending.take("b"), Some(set));
    }
}
