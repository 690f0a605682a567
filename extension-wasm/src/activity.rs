//! What agents did in the user's browser, for the user (the popup) and for each agent
//! (`firefox_get_activity`): time, agent, tab, command, target, outcome — never typed text,
//! values, scripts or other secrets. A bounded ring, written once per command after its answer.

use std::collections::VecDeque;

use claudezilla_protocol::args::{Aim, DropTarget, ElementTarget, NavAction, Selector, Typing};
use claudezilla_protocol::reply::{ActivityEntry, Reply};
use claudezilla_protocol::{AgentId, Command, Outcome, TabId};

use crate::redact::redact_url;
use crate::text::cap;

/// Entries kept in all (the oldest go first).
pub const KEPT: usize = 500;
/// Longest target kept.
const MAX_TARGET: usize = 120;
/// The "tool" of an entry a route wrote: not a command, the browser's doing on its behalf.
const REPLACED: &str = "route";

/// One command an agent ran, and whose it was.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub agent: AgentId,
    pub entry: ActivityEntry,
}

#[derive(Debug, Default)]
pub struct Activity {
    entries: VecDeque<Entry>,
}

/// What a command is worth remembering as: its tab (when it names one) and its target.
pub struct Noted {
    pub tool: &'static str,
    pub tab: Option<TabId>,
    pub target: String,
}

impl Activity {
    /// Records the end of a command `note` describes.
    pub fn record(&mut self, agent: &AgentId, note: Noted, outcome: &Outcome, at_ms: f64) {
        if self.entries.len() == KEPT {
            self.entries.pop_front();
        }
        let tab = note.tab.or(match outcome {
            Ok(Reply::Tab(report)) => Some(report.tab_id),
            _ => None,
        });
        self.entries.push_back(Entry {
            agent: agent.clone(),
            entry: ActivityEntry {
                at_ms,
                tab,
                tool: note.tool.to_owned(),
                target: note.target,
                outcome: match outcome {
                    Ok(_) => "ok".to_owned(),
                    Err(e) => e.code.as_str().to_owned(),
                },
            },
        });
    }

    /// A route of `agent`'s replaced the response to `url` in `tab`: the user sees what was
    /// replaced, not only the pattern. Repeats of the newest such entry count up in its
    /// outcome instead of filling the ring.
    pub fn replaced(&mut self, agent: &AgentId, tab: TabId, url: &str, at_ms: f64) {
        let target = cap(&format!("response of {}", redact_url(url)), MAX_TARGET);
        if let Some(last) = self.entries.back_mut()
            && &last.agent == agent
            && last.entry.tool == REPLACED
            && last.entry.tab == Some(tab)
            && last.entry.target == target
        {
            let times = last
                .entry
                .outcome
                .strip_prefix("replaced ×")
                .and_then(|n| n.parse::<u32>().ok())
                .unwrap_or(1);
            last.entry.outcome = format!("replaced ×{}", times.saturating_add(1));
            last.entry.at_ms = at_ms;
            return;
        }
        if self.entries.len() == KEPT {
            self.entries.pop_front();
        }
        self.entries.push_back(Entry {
            agent: agent.clone(),
            entry: ActivityEntry {
                at_ms,
                tab: Some(tab),
                tool: REPLACED.to_owned(),
                target,
                outcome: "replaced".to_owned(),
            },
        });
    }

    /// `agent`'s newest entries, newest first.
    pub fn of(&self, agent: &AgentId, limit: usize) -> Vec<ActivityEntry> {
        self.entries
            .iter()
            .rev()
            .filter(|e| &e.agent == agent)
            .take(limit)
            .map(|e| e.entry.clone())
            .collect()
    }

    /// Everyone's newest entries, newest first (the popup).
    pub fn newest(&self, limit: usize) -> impl Iterator<Item = &Entry> {
        self.entries.iter().rev().take(limit)
    }
}

fn maybe_element(target: &Option<ElementTarget>) -> String {
    target.as_ref().map(ToString::to_string).unwrap_or_default()
}

fn selector(selector: &Option<Selector>) -> String {
    selector.as_deref().unwrap_or_default().to_owned()
}

fn url(u: &str) -> String {
    redact_url(u)
}

/// How `command` is remembered; None for the plumbing no user needs to see (pings,
/// heartbeats, the Stop hook's question, reading the log itself).
pub fn note(command: &Command) -> Option<Noted> {
    let (tab, target): (Option<TabId>, String) = match command {
        Command::CreateWindow(a) => (None, url(&a.url)),
        Command::Navigate(a) => (
            a.tab_id,
            match (&a.url, a.action) {
                (Some(u), _) => url(u),
                (None, Some(NavAction::Back)) => "back".into(),
                (None, Some(NavAction::Forward)) => "forward".into(),
                (None, Some(NavAction::Reload)) => "reload".into(),
                (None, None) => String::new(),
            },
        ),
        Command::GetContent(a) => (a.tab_id, selector(&a.selector)),
        Command::Click(a) => (a.tab_id, aimed(&a.aim)),
        Command::Hover(a) => (a.tab_id, aimed(&a.aim)),
        // The text typed is the user's business, not the log's: only how much, or which secret.
        Command::Type(a) => (
            a.tab_id,
            match &a.text {
                Typing::Secret(secret) => format!("{} (secret {})", a.target, secret.name),
                Typing::Text(text) => {
                    format!("{} ({} characters)", a.target, text.chars().count())
                }
            },
        ),
        Command::PressKey(a) => (a.tab_id, a.key.as_str().to_owned()),
        Command::Scroll(a) => (a.tab_id, maybe_element(&a.target)),
        Command::GetElement(a) | Command::Locate(a) => (a.tab_id, a.target.to_string()),
        Command::SelectOption(a) => (a.tab_id, a.target.to_string()),
        Command::FillForm(a) => (a.tab_id, format!("{} fields", a.fields.len())),
        Command::UploadFile(u) => (u.args.tab_id, u.args.target.to_string()),
        Command::Drag(a) => (
            a.tab_id,
            match &a.to {
                DropTarget::Element { target, .. } => format!("{} → {target}", a.from),
                DropTarget::Point(point) => format!("{} → {point}", a.from),
            },
        ),
        Command::HandleDialog(a) => (a.tab_id, if a.accept { "accept" } else { "dismiss" }.into()),
        Command::WaitFor(a) => (
            a.tab_id,
            a.selector
                .as_deref()
                .map(str::to_owned)
                .or_else(|| a.url.as_deref().map(url))
                .unwrap_or_else(|| "text".into()),
        ),
        Command::GetPageState(a) => (a.tab_id, String::new()),
        Command::Snapshot(a) => (a.tab_id, selector(&a.selector)),
        Command::Performance(a) => (a.tab_id, String::new()),
        Command::Audit(a) => (a.tab_id, String::new()),
        Command::Find(a) => (
            a.tab_id,
            cap(
                a.text
                    .as_deref()
                    .or(a.pattern.as_deref())
                    .unwrap_or_default(),
                80,
            ),
        ),
        Command::AccessibilitySnapshot(a) => (a.tab_id, selector(&a.selector)),
        Command::Screenshot(a) => (a.tab_id, maybe_element(&a.target)),
        Command::CloseTab(a) => (Some(a.tab_id), String::new()),
        Command::GetConsole(a) => (a.tab_id, String::new()),
        Command::GetNetwork(a) => (a.tab_id, String::new()),
        // Scripts may hold secrets: only their size.
        Command::Evaluate(a) => (
            a.tab_id,
            format!("{} characters of script", a.expression.chars().count()),
        ),
        Command::Cookies(a) => (
            a.tab_id,
            format!("{:?} {}", a.action, a.name.as_deref().unwrap_or("")).to_lowercase(),
        ),
        Command::Storage(a) => (
            a.tab_id,
            format!("{:?} {}", a.action, a.key.as_deref().unwrap_or("")).to_lowercase(),
        ),
        Command::SaveState | Command::LoadState(_) => (None, String::new()),
        Command::Route(a) => (None, a.pattern.clone().unwrap_or_default()),
        Command::Unroute(a) => (None, a.pattern.clone().unwrap_or_else(|| "all".into())),
        Command::Downloads(_) => (None, String::new()),
        Command::SetConfig(_) => (None, String::new()),
        Command::HandleConsent(a) => (a.tab_id, String::new()),
        Command::SetViewport(a) => (a.tab_id, String::new()),
        Command::ResizeWindow(a) => (None, format!("{}×{}", a.width, a.height)),
        Command::SetPrivateMode(a) => (None, if a.enabled { "on" } else { "off" }.into()),
        Command::AttachTab(a) | Command::DetachTab(a) => (Some(a.tab_id), String::new()),
        Command::StartLoop(a) => (None, format!("{} rounds", a.max_iterations)),
        Command::GetTabs
        | Command::Goodbye
        | Command::RequestTabSpace
        | Command::GrantTabSpace
        | Command::GetSlotRequests
        | Command::CloseWindow
        | Command::ListAllTabs
        | Command::StopLoop
        | Command::LoopStatus => (None, String::new()),
        Command::Ping
        | Command::Diagnose
        | Command::Heartbeat
        | Command::LoopCheck(_)
        | Command::ReloadExtension
        | Command::GetActivity(_) => return None,
    };
    Some(Noted {
        tool: command.name(),
        tab,
        target: cap(&target, MAX_TARGET),
    })
}

/// Where a click or hover aimed, as the log says it.
fn aimed(aim: &Aim) -> String {
    match aim {
        Aim::Point(point) => point.to_string(),
        Aim::Element(target) => target.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use claudezilla_protocol::args::ClickArgs;
    use claudezilla_protocol::reply;
    use claudezilla_protocol::{ErrorBody, ErrorCode};

    fn agent(n: u8) -> AgentId {
        AgentId::new([n; 16], u32::from(n) + 100)
    }

    fn typed(text: &str) -> Command {
        Command::Type(
            serde_json::from_value(
                serde_json::json!({"target": {"selector": "#pw"}, "text": {"text": text},
                                   "clear": false, "tabId": 4}),
            )
            .unwrap(),
        )
    }

    #[test]
    fn typed_text_and_scripts_never_reach_the_log() {
        let noted = note(&typed("hunter2")).unwrap();
        assert_eq!(noted.tab, Some(TabId(4)));
        assert!(!noted.target.contains("hunter2"), "{}", noted.target);
        assert!(noted.target.contains("#pw") && noted.target.contains("7 characters"));
        let script = Command::Evaluate(
            serde_json::from_value(serde_json::json!({"expression": "fetch('/x?token=abc')"}))
                .unwrap(),
        );
        assert!(!note(&script).unwrap().target.contains("token"));
        let nav = Command::Navigate(
            serde_json::from_value(serde_json::json!({"url": "https://x.test/cb?code=s3cret&x=1"}))
                .unwrap(),
        );
        assert!(!note(&nav).unwrap().target.contains("s3cret"));
        assert!(note(&Command::Heartbeat).is_none());
    }

    #[test]
    fn each_agent_reads_its_own_newest_first_and_the_ring_is_bounded() {
        let (a, b) = (agent(1), agent(2));
        let mut log = Activity::default();
        let click: ClickArgs =
            serde_json::from_value(serde_json::json!({"selector": "#go"})).unwrap();
        for i in 0..(KEPT + 10) {
            let who = if i % 2 == 0 { &a } else { &b };
            let outcome = if i == KEPT + 8 {
                Err(ErrorBody::new(ErrorCode::Ownership, "not yours"))
            } else {
                Ok(Reply::Acted(reply::Acted {
                    what: String::new(),
                }))
            };
            log.record(
                who,
                note(&Command::Click(click.clone())).unwrap(),
                &outcome,
                i as f64,
            );
        }
        assert_eq!(log.entries.len(), KEPT);
        let mine = log.of(&a, 3);
        assert_eq!(mine.len(), 3);
        assert_eq!(mine[0].at_ms, (KEPT + 8) as f64);
        assert_eq!(mine[0].outcome, "OWNERSHIP");
        assert_eq!(mine[1].outcome, "ok");
        assert_eq!(mine[0].tool, "click");
        assert!(log.of(&b, 10_000).iter().all(|e| e.at_ms as usize % 2 == 1));
    }

    #[test]
    fn replaced_responses_are_logged_once_per_run_of_repeats() {
        let (a, b) = (agent(1), agent(2));
        let mut log = Activity::default();
        for at in 0..3 {
            log.replaced(&a, TabId(4), "http://site/api?token=s3cret", f64::from(at));
        }
        log.replaced(&b, TabId(5), "http://site/api", 4.0);
        log.replaced(&a, TabId(4), "http://site/api?token=s3cret", 5.0);
        let mine = log.of(&a, 10);
        assert_eq!(mine.len(), 2, "{mine:?}");
        assert_eq!(mine[1].outcome, "replaced ×3");
        assert_eq!(mine[1].at_ms, 2.0);
        assert_eq!(mine[0].outcome, "replaced");
        assert_eq!(mine[0].tool, "route");
        assert!(
            mine[0]
                .target
                .starts_with("response of http://site/api?token=[redacted]"),
            "{}",
            mine[0].target
        );
    }
}
