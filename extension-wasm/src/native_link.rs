//! The native-messaging link's state: whether the host welcomed the port, the reconnect
//! backoff, the health checks' pings; and the last bound on an answer's size. The glue
//! (`background/native.rs`) opens ports, sends and waits; what each event means is here.

use claudezilla_protocol::framing::MAX_REPLY;
use claudezilla_protocol::{ErrorBody, ErrorCode, FromExtension, Outcome, RequestId, Response};

const FIRST_BACKOFF_MS: u32 = 500;
const MAX_BACKOFF_MS: u32 = 30_000;

#[derive(Debug, Default)]
pub struct Link {
    /// Set when the host welcomed us: the port works end to end.
    welcomed: bool,
    backoff_ms: u32,
    ping_seq: u64,
    /// A ping still unanswered at the next health check means the host is stuck.
    awaiting_pong: Option<u64>,
}

/// What a health check does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Health {
    /// The last ping went unanswered: drop the port and start a fresh one.
    Stuck,
    /// Send this ping.
    Ping(u64),
}

impl Link {
    /// A port was opened: not welcomed yet, no ping outstanding.
    pub fn opened(&mut self) {
        self.welcomed = false;
        self.awaiting_pong = None;
    }

    /// The host welcomed the port: the next loss starts the backoff again.
    pub fn welcome(&mut self) {
        self.welcomed = true;
        self.backoff_ms = 0;
    }

    pub fn is_welcomed(&self) -> bool {
        self.welcomed
    }

    pub fn pong(&mut self, seq: u64) {
        if self.awaiting_pong == Some(seq) {
            self.awaiting_pong = None;
        }
    }

    /// The port closed: how long to wait before connecting again (doubling from half a
    /// second up to 30 s while the host keeps failing).
    pub fn closed(&mut self) -> u32 {
        self.welcomed = false;
        self.backoff_ms = (self.backoff_ms * 2).clamp(FIRST_BACKOFF_MS, MAX_BACKOFF_MS);
        self.backoff_ms
    }

    /// A health check, with the port `open` or not.
    pub fn health_check(&mut self, open: bool) -> Health {
        let stuck = open && self.awaiting_pong.is_some();
        self.ping_seq += 1;
        self.awaiting_pong = open.then_some(self.ping_seq);
        match stuck {
            true => Health::Stuck,
            false => Health::Ping(self.ping_seq),
        }
    }
}

/// The answer's JSON, or a TOO_LARGE error in its place: every answer is built within a limit
/// of its own, and this is the last line that keeps one page from ever sending the host a
/// frame it must refuse.
pub fn bounded(id: RequestId, outcome: Outcome) -> String {
    let json = serde_json::to_string(&FromExtension::Response(Response { id, outcome }))
        .unwrap_or_default();
    if json.len() <= MAX_REPLY {
        return json;
    }
    let error = ErrorBody::new(
        ErrorCode::TooLarge,
        format!(
            "the answer would be {} bytes, over the {MAX_REPLY}-byte limit",
            json.len()
        ),
    )
    .with_hint("ask for less in one call (a selector, a smaller maxLength or limit)");
    let outcome = Err(error);
    serde_json::to_string(&FromExtension::Response(Response { id, outcome })).unwrap_or_default()
}

/// The answer to a message from the host that this extension cannot read (`error`): a
/// request the host let through (its arguments fail a check here, or the two were built from
/// different versions) is answered, not dropped, so the agent learns why at once instead of
/// waiting out its timeout. None when `message` is no request with an id.
pub fn unreadable(message: &str, error: &serde_json::Error) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(message).ok()?;
    let id = value
        .get("id")
        .and_then(serde_json::Value::as_f64)
        .filter(|id| id.fract() == 0.0 && *id >= 0.0)?;
    if value.get("type").and_then(serde_json::Value::as_str) != Some("request") {
        return None;
    }
    let refused = ErrorBody::new(ErrorCode::InvalidArgument, error.to_string())
        .with_hint("the host and the extension may be of different versions: run cargo xtask run");
    Some(bounded(id as RequestId, Err(refused)))
}

#[cfg(test)]
mod tests {
    use claudezilla_protocol::Reply;
    use claudezilla_protocol::reply::Acted;
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn the_backoff_doubles_to_its_cap_and_a_welcome_resets_it() {
        let mut link = Link::default();
        let delays: Vec<u32> = (0..9).map(|_| link.closed()).collect();
        assert_eq!(
            delays,
            [
                500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000
            ]
        );
        link.opened();
        assert!(!link.is_welcomed());
        link.welcome();
        assert!(link.is_welcomed());
        assert_eq!(link.closed(), 500);
        assert!(!link.is_welcomed());
    }

    #[test]
    fn an_unanswered_ping_means_the_host_is_stuck() {
        let mut link = Link::default();
        assert_eq!(link.health_check(true), Health::Ping(1));
        link.pong(1);
        assert_eq!(link.health_check(true), Health::Ping(2));
        link.pong(1); // an old pong answers nothing
        assert_eq!(link.health_check(true), Health::Stuck);
        // A new port starts clean; a closed one is never stuck.
        link.opened();
        assert_eq!(link.health_check(false), Health::Ping(4));
        assert_eq!(link.health_check(true), Health::Ping(5));
    }

    #[test]
    fn an_answer_over_the_limit_becomes_too_large() {
        let small = bounded(7, Ok(Reply::Acted(Acted { what: "ok".into() })));
        assert!(small.contains("\"ok\""), "{small}");
        let huge = bounded(
            7,
            Ok(Reply::Acted(Acted {
                what: "x".repeat(MAX_REPLY),
            })),
        );
        assert!(huge.len() <= MAX_REPLY);
        assert!(huge.contains("TOO_LARGE"), "{huge}");
        assert!(huge.contains("\"id\":7"), "{huge}");
    }

    proptest! {
        /// Whatever the order of losses, welcomes and opens: the first loss after a welcome
        /// (or ever) waits half a second, each further one twice the last up to 30 s, and an
        /// open alone resets nothing (a port that never got welcomed proves nothing).
        #[test]
        fn the_delay_doubles_from_half_a_second_until_a_welcome(
            events in proptest::collection::vec(0u8..3, 1..60),
        ) {
            let mut link = Link::default();
            let mut last: Option<u32> = None;
            for e in events {
                match e {
                    0 => {
                        let delay = link.closed();
                        let expected = match last {
                            None => 500,
                            Some(d) => (d * 2).min(30_000),
                        };
                        prop_assert_eq!(delay, expected);
                        last = Some(delay);
                    }
                    1 => {
                        link.welcome();
                        last = None;
                    }
                    _ => link.opened(),
                }
            }
        }
    }

    fn refusal_of(message: &str) -> Option<String> {
        let error = serde_json::from_str::<claudezilla_protocol::ToExtension>(message).unwrap_err();
        unreadable(message, &error)
    }

    #[test]
    fn an_unreadable_request_is_answered_with_why() {
        let answer = refusal_of(r#"{"type":"request","id":7,"agentId":1}"#).unwrap();
        let parsed: serde_json::Value = serde_json::from_str(&answer).unwrap();
        assert_eq!(parsed["id"], 7);
        assert_eq!(parsed["outcome"]["Err"]["code"], "INVALID_ARGUMENT");
        assert_eq!(
            parsed["outcome"]["Err"]["hint"],
            "the host and the extension may be of different versions: run cargo xtask run"
        );
    }

    #[test]
    fn what_is_no_request_with_an_id_is_not_answered() {
        assert_eq!(refusal_of(r#"{"type":"request","id":-1}"#), None);
        assert_eq!(refusal_of(r#"{"type":"request","id":1.5}"#), None);
        assert_eq!(refusal_of(r#"{"type":"request"}"#), None);
        assert_eq!(refusal_of(r#"{"type":"welcome","id":3}"#), None);
        assert_eq!(refusal_of(r#"{"type":"request","id":"3"}"#), None);
    }
}
