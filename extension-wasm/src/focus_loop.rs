//! Focus loops (`firefox_start_loop`): while one runs, the Claude Code Stop hook keeps the
//! session working on its prompt until the promise is kept, the rounds run out or an hour has
//! passed. Pure, so every rule is tested natively.

use claudezilla_protocol::args::LoopArgs;
use claudezilla_protocol::reply::LoopState;
use claudezilla_protocol::{AgentId, ErrorBody, ErrorCode};

/// Longest a loop runs.
pub const MAX_LOOP_MS: u64 = 60 * 60 * 1_000;

#[derive(Debug, Clone)]
struct FocusLoop {
    owner: AgentId,
    /// The Claude Code process that runs the agent (the MCP server's parent).
    session_pid: u32,
    args: LoopArgs,
    iteration: u32,
    started: u64,
    ended: Option<String>,
}

#[derive(Debug, Default)]
pub struct Loops {
    loops: Vec<FocusLoop>,
}

/// The tag a reply must contain to keep the promise.
pub fn promise_tag(promise: &str) -> String {
    format!("<promise>{promise}</promise>")
}

impl Loops {
    pub fn start(
        &mut self,
        owner: &AgentId,
        args: LoopArgs,
        now: u64,
    ) -> Result<LoopState, ErrorBody> {
        if self.active(owner).is_some() {
            return Err(ErrorBody::new(
                ErrorCode::InvalidArgument,
                "a focus loop is already running",
            )
            .with_hint("firefox_loop_status shows it; firefox_stop_loop ends it"));
        }
        if args.session_pid == 0 {
            return Err(ErrorBody::new(
                ErrorCode::InvalidArgument,
                "the MCP server did not say which session runs the loop",
            ));
        }
        self.loops.retain(|l| &l.owner != owner);
        self.loops.push(FocusLoop {
            owner: owner.clone(),
            session_pid: args.session_pid,
            args,
            iteration: 0,
            started: now,
            ended: None,
        });
        Ok(self.status(owner, now))
    }

    pub fn stop(&mut self, owner: &AgentId, now: u64) -> Result<LoopState, ErrorBody> {
        let Some(l) = self.active_mut(owner) else {
            return Err(
                ErrorBody::new(ErrorCode::InvalidArgument, "no focus loop is running")
                    .with_hint("start one with firefox_start_loop"),
            );
        };
        l.ended = Some("stopped with firefox_stop_loop".into());
        Ok(self.status(owner, now))
    }

    /// The agent's loop, running or the last one that ended.
    pub fn status(&self, owner: &AgentId, now: u64) -> LoopState {
        let Some(l) = self.loops.iter().find(|l| &l.owner == owner) else {
            return LoopState {
                active: false,
                prompt: String::new(),
                iteration: 0,
                max_iterations: 0,
                completion_promise: None,
                running_ms: 0,
                ended: None,
            };
        };
        state(l, now)
    }

    /// The Stop hook's question for a session whose process ancestry is `ancestors`:
    /// `Some(reason)` to keep it working, `None` to let it stop.
    pub fn check(&mut self, ancestors: &[u32], last_message: &str, now: u64) -> Option<String> {
        let l = self
            .loops
            .iter_mut()
            .find(|l| l.ended.is_none() && ancestors.contains(&l.session_pid))?;
        if now.saturating_sub(l.started) >= MAX_LOOP_MS {
            l.ended = Some("ran for an hour, the limit".into());
            return None;
        }
        if let Some(p) = &l.args.completion_promise
            && last_message.contains(&promise_tag(p))
        {
            l.ended = Some("the completion promise was kept".into());
            return None;
        }
        if l.iteration >= l.args.max_iterations {
            l.ended = Some(format!("reached {} iterations", l.args.max_iterations));
            return None;
        }
        l.iteration += 1;
        let finish = match &l.args.completion_promise {
            Some(p) => format!(
                "When the work is truly complete, say so with {} in your reply.",
                promise_tag(p)
            ),
            None => "firefox_stop_loop ends the loop early.".into(),
        };
        Some(format!(
            "Focus loop, round {} of {}. Keep working on: {}\n{finish}",
            l.iteration, l.args.max_iterations, l.args.prompt
        ))
    }

    /// Forgets an agent's loops (it said goodbye or went away).
    pub fn release(&mut self, owner: &AgentId) {
        self.loops.retain(|l| &l.owner != owner);
    }

    /// One line per running loop, for the popup.
    pub fn summary(&self, now: u64) -> Vec<String> {
        self.loops
            .iter()
            .filter(|l| l.ended.is_none())
            .map(|l| {
                format!(
                    "{}: round {}/{}, {} s",
                    l.owner.short(),
                    l.iteration,
                    l.args.max_iterations,
                    now.saturating_sub(l.started) / 1_000
                )
            })
            .collect()
    }

    fn active(&self, owner: &AgentId) -> Option<&FocusLoop> {
        self.loops
            .iter()
            .find(|l| &l.owner == owner && l.ended.is_none())
    }

    fn active_mut(&mut self, owner: &AgentId) -> Option<&mut FocusLoop> {
        self.loops
            .iter_mut()
            .find(|l| &l.owner == owner && l.ended.is_none())
    }
}

fn state(l: &FocusLoop, now: u64) -> LoopState {
    LoopState {
        active: l.ended.is_none(),
        prompt: l.args.prompt.clone(),
        iteration: l.iteration,
        max_iterations: l.args.max_iterations,
        completion_promise: l.args.completion_promise.clone(),
        running_ms: now.saturating_sub(l.started),
        ended: l.ended.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent(n: u8) -> AgentId {
        AgentId::new([n; 16], n.into())
    }

    fn args(max: u32, promise: Option<&str>) -> LoopArgs {
        LoopArgs {
            prompt: "fix the tests".into(),
            max_iterations: max,
            completion_promise: promise.map(Into::into),
            session_pid: 77,
        }
    }

    #[test]
    fn blocks_until_the_rounds_run_out() {
        let mut loops = Loops::default();
        loops.start(&agent(1), args(2, None), 0).unwrap();
        assert!(
            loops
                .check(&[5, 77, 1], "", 10)
                .unwrap()
                .contains("round 1 of 2")
        );
        assert!(loops.check(&[77], "", 20).unwrap().contains("round 2 of 2"));
        assert_eq!(loops.check(&[77], "", 30), None);
        let s = loops.status(&agent(1), 40);
        assert!(!s.active);
        assert_eq!(s.ended.as_deref(), Some("reached 2 iterations"));
        // Ended loops no longer hold the session.
        assert_eq!(loops.check(&[77], "", 50), None);
    }

    #[test]
    fn only_the_loops_own_session_is_held() {
        let mut loops = Loops::default();
        loops.start(&agent(1), args(5, None), 0).unwrap();
        assert_eq!(loops.check(&[1, 2, 3], "", 10), None);
        assert_eq!(loops.status(&agent(1), 10).iteration, 0);
    }

    #[test]
    fn a_kept_promise_or_an_hour_ends_it() {
        let mut loops = Loops::default();
        loops
            .start(&agent(1), args(100, Some("ALL GREEN")), 0)
            .unwrap();
        let reason = loops.check(&[77], "still failing", 10).unwrap();
        assert!(reason.contains("<promise>ALL GREEN</promise>"));
        // Naming the promise without the tag does not end it.
        assert!(loops.check(&[77], "not ALL GREEN yet", 20).is_some());
        assert_eq!(
            loops.check(&[77], "done <promise>ALL GREEN</promise>", 30),
            None
        );
        assert_eq!(
            loops.status(&agent(1), 30).ended.as_deref(),
            Some("the completion promise was kept")
        );

        loops.start(&agent(1), args(100, None), 0).unwrap();
        assert_eq!(loops.check(&[77], "", MAX_LOOP_MS), None);
    }

    #[test]
    fn one_loop_per_agent_stop_and_release() {
        let mut loops = Loops::default();
        loops.start(&agent(1), args(3, None), 0).unwrap();
        assert_eq!(
            loops.start(&agent(1), args(3, None), 0).unwrap_err().code,
            ErrorCode::InvalidArgument
        );
        assert_eq!(
            loops.summary(2_000),
            vec![format!("{}: round 0/3, 2 s", agent(1).short())]
        );
        assert!(!loops.stop(&agent(1), 5).unwrap().active);
        assert!(loops.stop(&agent(1), 5).is_err());
        loops.start(&agent(1), args(3, None), 6).unwrap();
        loops.release(&agent(1));
        assert_eq!(loops.check(&[77], "", 7), None);
        assert!(loops.summary(7).is_empty());
    }
}
