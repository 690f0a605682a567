//! `firefox_trace`: start recording this agent's actions, and stop to write them as a page the
//! user opens ([`crate::trace`]). The recording itself is done in `call_tool`, after each
//! action's answer is final.

use claudezilla_protocol::args::{ConsoleArgs, ConsoleLevel, ScreenshotArgs, TargetArgs};
use claudezilla_protocol::reply;
use claudezilla_protocol::{ErrorBody, ErrorCode, TabId, asks};
use rmcp::model::CallToolResult;
use rmcp::schemars::{self, JsonSchema};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::{Context, Given, failed, text, text_of};
use crate::files::Written;
use crate::session::Claudezilla;
use crate::trace::replay::{self, Replay};
use crate::trace::{self, Action, Trace};

/// How long each lookup for the trace may take (the shortest timeout a call has).
const LOOKUP_MS: u64 = 5_000;
/// Less time than this left, and an element is not asked to be named.
const MIN_LOOKUP_MS: u128 = 200;

browser_tools! { trace_router;
    trace "firefox_trace" (TraceArgs) => with trace_tool, "start records your actions (tool, target, answer, page, errors, a picture after each change); stop writes them as an HTML page for the user, and JSON (movie: also an animated PNG; test: also a Playwright test).";
}

/// Arguments of `firefox_trace`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TraceArgs {
    action: TraceAction,
    /// stop: the .html to write (default claudezilla-trace-TIME.html).
    #[serde(default)]
    path: Option<String>,
    /// stop: also play the pictures as an animated PNG, written here (.png).
    #[serde(default)]
    movie: Option<String>,
    /// stop: also write the actions as a Playwright test here (.ts; secrets as process.env.NAME).
    #[serde(default)]
    test: Option<String>,
}

#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum TraceAction {
    Start,
    Stop,
}

impl Claudezilla {
    async fn trace_tool(&self, a: Given<TraceArgs>, context: Context) -> CallToolResult {
        let mut slot = self.trace.lock().await;
        match (a.args.action, slot.as_ref()) {
            (TraceAction::Start, Some(t)) => failed(
                ErrorBody::new(
                    ErrorCode::InvalidArgument,
                    format!("a trace is already recording ({} actions so far)", t.len()),
                )
                .with_hint("stop it first (action: stop)"),
            ),
            (TraceAction::Start, None) => {
                *slot = Some(Trace::default());
                text("Recording your actions until firefox_trace {action: \"stop\"}.")
            }
            (TraceAction::Stop, None) => failed(
                ErrorBody::new(ErrorCode::InvalidArgument, "no trace is recording")
                    .with_hint("start one first (action: start)"),
            ),
            (TraceAction::Stop, Some(t)) => {
                let page = a
                    .args
                    .path
                    .unwrap_or_else(|| format!("claudezilla-trace-{}.html", unix_now()));
                let data = format!("{}.trace.json", page.strip_suffix(".html").unwrap_or(&page));
                let allowed = self.allowed(&context.peer).await;
                // Both places are checked before either is written; a refused path keeps the trace.
                let targets = allowed
                    .prepare_save(&page, false, Written::TracePage)
                    .and_then(|p| Ok((p, allowed.prepare_save(&data, false, Written::TraceData)?)));
                let (page_target, data_target) = match targets {
                    Ok(targets) => targets,
                    Err(e) => return failed(e),
                };
                let movie_target = match a
                    .args
                    .movie
                    .as_deref()
                    .map(|path| allowed.prepare_save(path, false, Written::TraceMovie))
                {
                    Some(Err(e)) => return failed(e),
                    Some(Ok(target)) => Some(target),
                    None => None,
                };
                let test_target = match a.args.test.as_deref().map(|path| {
                    Ok::<_, ErrorBody>((
                        path,
                        allowed.prepare_save(path, false, Written::TraceTest)?,
                    ))
                }) {
                    Some(Err(e)) => return failed(e),
                    Some(Ok(target)) => Some(target),
                    None => None,
                };
                // Its words were redacted as they were recorded; its pictures are base64 that a
                // short value could match by chance, so the page is not redacted again.
                let html = t.html();
                let json = t.json();
                let written = page_target
                    .write(html.as_bytes())
                    .and_then(|p| Ok((p, data_target.write(json.as_bytes())?)));
                match written {
                    Ok((p, d)) => {
                        let limits = t
                            .limits_reached()
                            .map(|l| format!(" Note: {l}."))
                            .unwrap_or_default();
                        let movie = match movie_target {
                            Some(target) => write_movie(t.entries().to_vec(), target).await,
                            None => String::new(),
                        };
                        let test = match test_target {
                            Some((path, target)) => {
                                write_test(t.entries(), path, target, &self.secrets)
                            }
                            None => String::new(),
                        };
                        let answer = format!(
                            "Wrote {} action(s) to {} (open it in Firefox to step through them) and {}.{movie}{test}{limits}",
                            t.len(),
                            p.display(),
                            d.display()
                        );
                        *slot = None;
                        text(answer)
                    }
                    Err(e) => failed(e),
                }
            }
        }
    }

    /// While a trace records: what a test does for this call, its elements named by the
    /// browser now, before the call changes the page. None when no trace records or a test
    /// does not replay the call.
    pub(crate) async fn replay_before(
        &self,
        tool: &str,
        args: &Map<String, Value>,
    ) -> Option<Replay> {
        if self.trace.lock().await.as_ref().is_none_or(Trace::full) {
            return None;
        }
        let (asked, step) = replay::step_of(tool, args)?;
        // The tab it acts on, named even when the agent left `tabId` out (its latest): a test
        // has one page per tab. A new window's tab is known only after the call.
        let (tab, url) = match step {
            replay::Step::Open(_) => (None, String::new()),
            _ => match self.tab_of(asked).await {
                Some((id, url)) => (Some(id), url),
                None => (asked, String::new()),
            },
        };
        // Naming the elements has one lookup's time in all (a form may name many).
        let until = std::time::Instant::now() + std::time::Duration::from_millis(LOOKUP_MS);
        let mut located = Vec::new();
        for target in step.targets() {
            let left = until.saturating_duration_since(std::time::Instant::now());
            if left.as_millis() < MIN_LOOKUP_MS {
                located.push(Err("the time to name it ran out".to_owned()));
                continue;
            }
            let args = TargetArgs {
                target,
                tab_id: tab,
            };
            // A call's timeout is at least 5 s: the rest of the time is kept here.
            let asked = self.ask::<asks::Locate>(args, Some(LOOKUP_MS));
            let answer = match tokio::time::timeout(left, asked).await {
                Ok(answer) => answer.map(|l| *l).map_err(|e| e.message),
                Err(_) => Err("the time to name it ran out".to_owned()),
            };
            located.push(answer);
        }
        let mut located = located.into_iter();
        let step = step.map(&mut |_| {
            located
                .next()
                .unwrap_or_else(|| Err("the element was not named".to_owned()))
        });
        Some(Replay { tab, url, step })
    }

    /// The agent's tab named `tabId`, else its latest (what a call without one acts on).
    async fn my_tab(&self, asked: Option<TabId>) -> Option<reply::TabEntry> {
        let reply::Tabs { tabs } = self.ask::<asks::GetTabs>((), Some(LOOKUP_MS)).await.ok()?;
        tabs.into_iter()
            .filter(|t| t.mine)
            .rfind(|t| asked.is_none_or(|id| t.tab_id == id))
    }

    /// The tab ([`Self::my_tab`]) and its address, secrets by name.
    async fn tab_of(&self, tab: Option<TabId>) -> Option<(TabId, String)> {
        let tab = self.my_tab(tab).await?;
        Some((tab.tab_id, self.secrets.redact(&tab.url).into_owned()))
    }

    /// Records one action while a trace is on: its answer, the page it left, console errors
    /// raised meanwhile and, after an action that changes the page, a small picture. The
    /// browser is asked without holding the trace, so other calls do not wait on it.
    pub(crate) async fn trace_action(
        &self,
        tool: &str,
        args: &Map<String, Value>,
        result: &CallToolResult,
        replay: Option<Replay>,
    ) {
        let full = match self.trace.lock().await.as_ref() {
            None => return,
            Some(trace) => trace.full(),
        };
        // `call_tool` has hidden the answer's secrets already.
        let answer = text_of(result);
        // Secrets by name only, even in the places the trace shows as given (a URL).
        let args: Map<String, Value> = args
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => (
                    k.clone(),
                    Value::String(self.secrets.redact(s).into_owned()),
                ),
                other => (k.clone(), other.clone()),
            })
            .collect();
        let failed = result.is_error == Some(true);
        let replay = replay.map(|r| match tool {
            "firefox_find" => Replay {
                step: replay::after_find(r.step, &answer),
                ..r
            },
            _ => r,
        });
        let mut action = Action {
            tool,
            args: &args,
            answer: &answer,
            failed,
            url: String::new(),
            title: String::new(),
            errors: Vec::new(),
            picture: None,
            replay,
        };
        if !full && let Some(tab) = self.traced_tab(&args, &mut action).await {
            // A new window's tab is known only now.
            if let Some(Replay {
                tab: at @ None,
                step: replay::Step::Open(_),
                ..
            }) = &mut action.replay
            {
                *at = Some(tab);
            }
            action.errors = self.console_errors(tab).await;
            if trace::pictured(tool, &args) && !failed {
                action.picture = self.small_picture(tab).await;
            }
        }
        // Stopped meanwhile: nothing to record into.
        if let Some(trace) = self.trace.lock().await.as_mut() {
            trace.record(action);
        }
    }

    /// The tab the action was on (its `tabId`, else the agent's latest), with its URL and title.
    async fn traced_tab(
        &self,
        args: &Map<String, Value>,
        action: &mut Action<'_>,
    ) -> Option<TabId> {
        // A `tabId` that is not one names no tab (not the latest).
        let asked = match args.get("tabId") {
            None => None,
            Some(id) => Some(TabId(u32::try_from(id.as_u64()?).ok()?)),
        };
        let tab = self.my_tab(asked).await?;
        action.url = self.secrets.redact(&tab.url).into_owned();
        action.title = self.secrets.redact(&tab.title).into_owned();
        Some(tab.tab_id)
    }

    async fn console_errors(&self, tab: TabId) -> Vec<String> {
        let args = ConsoleArgs {
            tab_id: Some(tab),
            level: Some(ConsoleLevel::Error),
            clear: false,
            limit: 50,
        };
        match self.ask::<asks::GetConsole>(args, Some(LOOKUP_MS)).await {
            Ok(reply::Console { entries, .. }) => entries
                .into_iter()
                .map(|e| self.secrets.redact(&e.message).into_owned())
                .collect(),
            Err(_) => Vec::new(),
        }
    }

    async fn small_picture(&self, tab: TabId) -> Option<String> {
        let args: ScreenshotArgs = serde_json::from_value(json!({
            "tabId": tab, "quality": 40, "scale": 0.4, "maxWait": 1000
        }))
        .ok()?;
        let shot = self.ask::<asks::Screenshot>(args, Some(LOOKUP_MS)).await;
        shot.ok().map(|s| s.data)
    }
}

/// Writes the trace's actions as a Playwright test; says where, or why not.
/// A page's words in its locators were named in the page, past the answers' redaction:
/// the file is redacted as a whole (a secret a page echoed into a name breaks that locator,
/// and never reaches the file).
fn write_test(
    entries: &[trace::Entry],
    path: &str,
    target: crate::files::SaveTarget,
    secrets: &crate::secrets::Secrets,
) -> String {
    let title = std::path::Path::new(path)
        .file_stem()
        .map_or_else(|| "recorded".into(), |s| s.to_string_lossy().into_owned());
    let replayed = entries.iter().filter(|e| e.replay.is_some()).count();
    let spec = trace::spec(entries, &title);
    match target.write(secrets.redact(&spec).as_bytes()) {
        Ok(path) => format!(
            " Its {replayed} replayable action(s) are a Playwright test in {} (read it, then name it *.spec.ts to run it).",
            path.display()
        ),
        Err(e) => format!(" The test was not written: {}.", e.message),
    }
}

/// Writes the trace's pictures as an animated PNG; says where, or why not. Decoding and
/// encoding take seconds for a long trace: off the thread that serves the other calls.
async fn write_movie(entries: Vec<trace::Entry>, target: crate::files::SaveTarget) -> String {
    let made = tokio::task::spawn_blocking(move || trace::movie_of(&entries)).await;
    let Ok(made) = made else {
        return " The animated PNG could not be made.".into();
    };
    match made {
        Ok(Some((bytes, frames, ms))) => match target.write(&bytes) {
            Ok(path) => format!(
                " Its {frames} picture(s) play as an animated PNG in {} ({:.1} s, the session's own pace).",
                path.display(),
                ms as f64 / 1000.0
            ),
            Err(e) => format!(" The animated PNG was not written: {}.", e.message),
        },
        Ok(None) => " No picture was taken (no action changed a page), so none plays.".into(),
        Err(e) => format!(" The animated PNG could not be made: {e}."),
    }
}

fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}
