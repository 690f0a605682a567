//! The Firefox extension's logic, compiled to wasm and loaded by thin JS shims.
//!
//! Pure policy lives in plain modules that build and test natively (`cargo test`):
//! * [`pool`]: the shared tab pool and who owns which tab — the only place ownership is decided —
//!   with slot requests, reservations and idle agents.
//! * [`approvals`]: the user's consent before an agent drives one of the user's tabs.
//! * [`capture_lock`]: the screenshot mutex, granted in arrival order.
//! * [`capture_plan`]: what a screenshot captures, capped whatever the page measures.
//! * [`load`]: when a navigation counts as finished.
//! * [`text`]: cutting text and naming elements for answers.
//! * [`jpeg`]: reading a JPEG's dimensions.
//! * [`request_log`]: each tab's network log, redacted on the way in.
//! * [`allowlist`]: the per-agent domain allowlists.
//! * [`focus_loop`]: focus loops and the Stop hook's verdict.
//! * [`downloads`]: which agent a download belongs to.
//! * [`activity`]: what agents did, for the user and for each agent (no secrets).
//!
//! The browser glue is wasm-only:
//! * `web`: bindings to `browser.*` APIs and timers.
//! * `background`: the native port, command dispatch and tab management.
//! * `content`: DOM operations, one coarse call per command.

pub mod a11y;
pub mod activity;
pub mod allowlist;
pub mod approvals;
pub mod capture_lock;
pub mod capture_plan;
pub mod consent_words;
pub mod downloads;
pub mod focus_loop;
pub mod glob;
pub mod jpeg;
pub mod load;
pub mod markdown;
pub mod network;
pub mod pixels;
pub mod pool;
pub mod redact;
pub mod request_log;
pub mod request_routes;
pub mod route;
pub mod saved_state;
pub mod suggest;
pub mod text;

#[cfg(target_arch = "wasm32")]
mod background;
#[cfg(target_arch = "wasm32")]
mod content;
#[cfg(target_arch = "wasm32")]
mod web;
