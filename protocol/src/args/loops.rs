//! Focus loops and the Stop hook's question.

use serde::{Deserialize, Serialize};

use super::*;

args_struct! {
    /// Arguments of `firefox_start_loop`.
    pub struct LoopArgs {
        /// What to keep working on: fed back each time the session tries to stop.
        pub prompt: String,
        /// Stop after this many rounds (≤ 10000).
        pub max_iterations: u32,
        /// Stop once your reply contains this text (≤ 1000 characters).
        pub completion_promise: Option<String>,
        /// Filled by the MCP server: the pid of the session that runs it.
        #[serde(default)]
        #[cfg_attr(feature = "schema", schemars(skip))]
        pub session_pid: u32,
    }
}

/// What the Stop hook asks: is a loop running for a session among `ancestors`, and did the
/// last reply keep its promise?
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LoopCheckArgs {
    pub ancestors: Vec<u32>,
    pub last_message: String,
}

impl Validate for LoopArgs {
    fn validate(&self) -> Result<(), Invalid> {
        refuse_if(self.prompt.trim().is_empty(), "prompt", "is empty")?;
        check_len("prompt", &self.prompt, MAX_EXPRESSION)?;
        validate::within(
            "maxIterations",
            self.max_iterations,
            1..=MAX_LOOP_ITERATIONS,
        )?;
        self.completion_promise
            .as_deref()
            .map_or(Ok(()), |p| check_len("completionPromise", p, MAX_PROMISE))
    }
}
