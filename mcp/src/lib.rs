//! Claudezilla's MCP server: browser tools for an AI agent, spoken over stdio with `rmcp`, sent
//! to Firefox through the native host's authenticated socket.
//!
//! * [`server`]: the `ServerHandler`: the session and the tools' router, served.
//! * [`session`]: the agent's session (link, folders, secrets, trace) and `ask`, the single
//!   path every tool's command takes.
//! * [`tools`]: one module per group of tools.
//! * [`link`]: the persistent, reconnecting connection to the host.
//! * [`agent`]: this process's agent id.
//! * [`files`]: the folders files may be read from and written to, and that reading/writing.
//! * [`har`]: a tab's network log as HAR 1.2.
//! * [`text`]: text cut to a length and escaped for HTML.
//! * [`trace`]: what the agent did, recorded while a trace is on, as an HTML page and JSON.
//! * [`secrets`]: the user's secrets file: values typed by name, hidden from every answer.

pub mod agent;
pub mod files;
pub mod har;
pub mod link;
pub mod secrets;
pub mod server;
pub mod session;
pub mod text;
pub mod tools;
pub mod trace;

pub use session::Claudezilla;
