//! Routes requests from socket clients to the extension and each answer back to the one client
//! that asked. One task owns this state; everything else talks to it through [`Event`]s. It
//! does no I/O of its own but queueing frames: files are the MCP server's business.

use std::collections::HashMap;

use claudezilla_protocol::envelope::{HopTimes, Tuning};
use claudezilla_protocol::framing::{FrameError, MAX_TO_EXTENSION, encode_frame};
use claudezilla_protocol::{
    AgentId, Ask, ErrorBody, ErrorCode, FromExtension, HostMessage, Outcome, RequestId, Response,
    ToExtension,
};
use tokio::sync::OwnedSemaphorePermit;
use tokio::sync::mpsc::UnboundedSender;
use tokio::sync::oneshot;

/// Numbers socket connections for the life of the host.
pub type ConnId = u64;

/// Authenticated connections at once; more are refused with BUSY.
pub const MAX_CONNECTIONS: usize = 64;

pub enum Event {
    /// A client said hello with the token; the router admits it or says why not.
    Connected {
        conn: ConnId,
        agent: AgentId,
        replies: UnboundedSender<Outgoing>,
        admitted: oneshot::Sender<Result<(), ErrorBody>>,
    },
    Request {
        conn: ConnId,
        request: Ask,
        /// The request's in-flight slot, released once its answer is written.
        permit: OwnedSemaphorePermit,
    },
    Disconnected {
        conn: ConnId,
    },
    FromExtension(FromExtension),
    /// A frame from the extension that could not be read, and the request it answered (if its
    /// id could be found).
    BadReply {
        id: Option<RequestId>,
        error: FrameError,
    },
}

/// A message on its way to a client's socket; an answer holds its request's in-flight slot.
pub struct Outgoing {
    pub msg: HostMessage,
    pub permit: Option<OwnedSemaphorePermit>,
}

struct Client {
    agent: AgentId,
    replies: UnboundedSender<Outgoing>,
}

/// A request on its way to the extension: who asked, under which id.
struct Pending {
    conn: ConnId,
    client_id: RequestId,
    permit: OwnedSemaphorePermit,
    /// When it went to the extension (a traced request's native round trip).
    sent: std::time::Instant,
}

pub struct Router {
    clients: HashMap<ConnId, Client>,
    pending: HashMap<RequestId, Pending>,
    next_id: RequestId,
    /// Encoded frames for the extension's stdin, each already checked against 1 MiB.
    to_extension: UnboundedSender<Vec<u8>>,
    tuning: Tuning,
}

impl Router {
    pub fn new(to_extension: UnboundedSender<Vec<u8>>, tuning: Tuning) -> Self {
        Self {
            clients: HashMap::new(),
            pending: HashMap::new(),
            next_id: 1,
            to_extension,
            tuning,
        }
    }

    pub fn handle(&mut self, event: Event) {
        match event {
            Event::Connected {
                conn,
                agent,
                replies,
                admitted,
            } => {
                let admission = self.admit(&agent);
                if admission.is_ok() {
                    tracing::info!(conn, %agent, "agent connected");
                    self.clients.insert(conn, Client { agent, replies });
                }
                let _ = admitted.send(admission);
            }
            Event::Request {
                conn,
                request,
                permit,
            } => self.forward(conn, request, permit),
            Event::Disconnected { conn } => self.disconnect(conn),
            Event::FromExtension(FromExtension::Hello { version }) => {
                tracing::info!(%version, "extension says hello");
                self.to_extension(&ToExtension::Welcome {
                    host_version: claudezilla_protocol::VERSION.into(),
                    tuning: self.tuning.clone(),
                });
            }
            Event::FromExtension(FromExtension::Ping { seq }) => {
                self.to_extension(&ToExtension::Pong { seq });
            }
            Event::FromExtension(FromExtension::Response(response)) => self.answer(response),
            Event::FromExtension(FromExtension::Trace { id, times }) => self.trace(id, times),
            Event::FromExtension(FromExtension::Notice { agent_id, notes }) => {
                self.notify(&agent_id, notes)
            }
            Event::BadReply { id, error } => self.bad_reply(id, error),
        }
    }

    /// An agent id is that MCP process's secret: a second connection presenting a live one is
    /// someone else trying to act as that agent.
    fn admit(&self, agent: &AgentId) -> Result<(), ErrorBody> {
        if self.clients.values().any(|c| c.agent == *agent) {
            return Err(ErrorBody::new(
                ErrorCode::AuthFailed,
                format!("agent {agent} is already connected"),
            )
            .with_hint("each MCP server process must use its own agent id"));
        }
        if self.clients.len() >= MAX_CONNECTIONS {
            return Err(ErrorBody::new(
                ErrorCode::Busy,
                format!("{MAX_CONNECTIONS} agents are connected already"),
            )
            .with_hint("retry when another agent has finished"));
        }
        Ok(())
    }

    fn forward(&mut self, conn: ConnId, request: Ask, permit: OwnedSemaphorePermit) {
        let Some(client) = self.clients.get(&conn) else {
            return;
        };
        let client_id = request.id;
        let id = self.next_id;
        self.next_id += 1;
        let name = request.command.name();
        // The agent is the one this connection said hello as: stamped here, never compared.
        let request = request.from_agent(id, client.agent.clone());
        let frame = encode_frame(&ToExtension::Request(request), MAX_TO_EXTENSION);
        let frame = match frame {
            Ok(frame) => frame,
            Err(e) => {
                let err = ErrorBody::new(ErrorCode::TooLarge, format!("{name}: {e}"))
                    .with_hint("send less data in one call (Firefox refuses messages over 1 MiB)");
                return reply(client, client_id, Err(err), permit);
            }
        };
        tracing::debug!(conn, id, client_id, name, "→ extension");
        if self.to_extension.send(frame).is_err() {
            let err = ErrorBody::new(ErrorCode::NotConnected, "the extension's port is closed");
            return reply(client, client_id, Err(err), permit);
        }
        let pending = Pending {
            conn,
            client_id,
            permit,
            sent: std::time::Instant::now(),
        };
        self.pending.insert(id, pending);
    }

    /// Passes a traced request's times on to its client, with the native round trip so far.
    fn trace(&self, id: RequestId, mut times: HopTimes) {
        let Some(p) = self.pending.get(&id) else {
            return;
        };
        times.native_us = p.sent.elapsed().as_micros() as u64;
        if let Some(client) = self.clients.get(&p.conn) {
            let msg = HostMessage::Trace {
                id: p.client_id,
                times,
            };
            let _ = client.replies.send(Outgoing { msg, permit: None });
        }
    }

    fn answer(&mut self, response: Response) {
        self.settle(response.id, response.outcome);
    }

    /// The extension's answer could not be read: the request it belonged to gets an error,
    /// the other requests and agents carry on.
    fn bad_reply(&mut self, id: Option<RequestId>, error: FrameError) {
        tracing::error!(?id, "unreadable answer from the extension: {error}");
        let Some(id) = id else {
            return;
        };
        let err = match error {
            FrameError::TooLarge { len, max } => ErrorBody::new(
                ErrorCode::TooLarge,
                format!("the browser's answer was {len} bytes, over the {max}-byte limit"),
            )
            .with_hint("ask for less in one call (a selector, a smaller maxLength or limit)"),
            other => ErrorBody::new(
                ErrorCode::Internal,
                format!("the browser's answer could not be read: {other}"),
            ),
        };
        self.settle(id, Err(err));
    }

    fn settle(&mut self, id: RequestId, outcome: Outcome) {
        let Some(Pending {
            conn,
            client_id,
            permit,
            ..
        }) = self.pending.remove(&id)
        else {
            tracing::warn!(id, "answer to no pending request");
            return;
        };
        match self.clients.get(&conn) {
            Some(client) => reply(client, client_id, outcome, permit),
            // The client left while waiting: its answer is dropped, never sent to someone else.
            None => tracing::debug!(conn, client_id, "answer for a departed client dropped"),
        }
    }

    /// Passes notes on to the agent's connection (none: the agent is gone, and so are they).
    fn notify(&self, agent: &AgentId, notes: Vec<String>) {
        let Some(client) = self.clients.values().find(|c| c.agent == *agent) else {
            return;
        };
        let msg = HostMessage::Notice { notes };
        let _ = client.replies.send(Outgoing { msg, permit: None });
    }

    fn disconnect(&mut self, conn: ConnId) {
        let Some(client) = self.clients.remove(&conn) else {
            return;
        };
        self.pending.retain(|_, p| p.conn != conn);
        tracing::info!(conn, agent = %client.agent, "agent disconnected");
        self.to_extension(&ToExtension::AgentGone {
            agent_id: client.agent,
        });
    }

    /// Sends a small message of the host's own (never over the limit).
    fn to_extension(&self, msg: &ToExtension) {
        if let Ok(frame) = encode_frame(msg, MAX_TO_EXTENSION) {
            let _ = self.to_extension.send(frame);
        }
    }
}

fn reply(client: &Client, id: RequestId, outcome: Outcome, permit: OwnedSemaphorePermit) {
    let msg = HostMessage::Response(Response { id, outcome });
    // A send error means the client's writer is gone; its Disconnected event follows.
    let _ = client.replies.send(Outgoing {
        msg,
        permit: Some(permit),
    });
}
