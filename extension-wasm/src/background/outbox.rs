//! What the background sends the host, from wherever it is decided: answers, traces and the
//! notices of what happened to an agent's tabs on their own. It holds the port `native` opens,
//! so the parts that notify (tabs, downloads, routes) never call back into the part that
//! receives commands.

use std::cell::RefCell;

use claudezilla_protocol::{AgentId, FromExtension};

use crate::web::{self, Port};

thread_local! {
    static PORT: RefCell<Option<Port>> = const { RefCell::new(None) };
}

/// The port to send through from now on.
pub fn open(port: Port) {
    PORT.with(|p| *p.borrow_mut() = Some(port));
}

/// The port, taken away (it closed, or is being dropped).
pub fn take() -> Option<Port> {
    PORT.with(|p| p.borrow_mut().take())
}

pub fn is_open() -> bool {
    PORT.with(|p| p.borrow().is_some())
}

/// Sends one message to the host (dropped if the port is down: the host is gone with it).
pub fn send(msg: &FromExtension) {
    let Ok(json) = serde_json::to_string(msg) else {
        return;
    };
    post(&json);
}

/// Sends a message already written as JSON.
pub fn post(json: &str) {
    let Ok(value) = js_sys::JSON::parse(json) else {
        return;
    };
    PORT.with(|p| {
        if let Some(port) = &*p.borrow()
            && let Err(e) = port.post_message(&value)
        {
            web::log(&format!(
                "cannot post to the host: {}",
                web::js_error_message(&e)
            ));
        }
    });
}

/// Tells an agent (through the host and its MCP server, in its next answer) what happened to
/// its tabs on their own.
pub fn notify(agent: &AgentId, note: String) {
    send(&FromExtension::Notice {
        agent_id: agent.clone(),
        notes: vec![note],
    });
}
