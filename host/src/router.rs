//! Routes requests from socket clients to the extension and each answer back to the one client
//! that asked. One task owns this state; everything else talks to it through [`Event`]s.

use std::collections::HashMap;

use claudezilla_protocol::envelope::Tuning;
use claudezilla_protocol::framing::{MAX_TO_EXTENSION, encode_frame};
use claudezilla_protocol::{
    AgentId, Command, ErrorBody, ErrorCode, FromExtension, HostMessage, Request, RequestId,
    Response, ToExtension,
};
use tokio::sync::mpsc::UnboundedSender;

use crate::save;

/// Numbers socket connections for the life of the host.
pub type ConnId = u64;

pub enum Event {
    Connected {
        conn: ConnId,
        agent: AgentId,
        tx: UnboundedSender<HostMessage>,
    },
    Request {
        conn: ConnId,
        request: Request,
    },
    Disconnected {
        conn: ConnId,
    },
    FromExtension(FromExtension),
}

struct Client {
    agent: AgentId,
    tx: UnboundedSender<HostMessage>,
}

/// A request on its way to the extension: who asked, under which id, and where its
/// screenshot goes if it is to be saved rather than returned.
struct Pending {
    conn: ConnId,
    client_id: RequestId,
    save: Option<save::Target>,
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
            Event::Connected { conn, agent, tx } => {
                tracing::info!(conn, %agent, "agent connected");
                self.clients.insert(conn, Client { agent, tx });
            }
            Event::Request { conn, request } => self.forward(conn, request),
            Event::Disconnected { conn } => self.disconnect(conn),
            Event::FromExtension(FromExtension::Hello { version }) => {
                tracing::info!(%version, "extension says hello");
                self.to_extension(&ToExtension::Welcome {
                    host_version: claudezilla_protocol::VERSION.into(),
                    tuning: self.tuning,
                });
            }
            Event::FromExtension(FromExtension::Ping { seq }) => {
                self.to_extension(&ToExtension::Pong { seq });
            }
            Event::FromExtension(FromExtension::Response(response)) => self.answer(response),
        }
    }

    fn forward(&mut self, conn: ConnId, mut request: Request) {
        let Some(client) = self.clients.get(&conn) else {
            return;
        };
        let client_id = request.id;
        if request.agent_id != client.agent {
            let err = ErrorBody::new(
                ErrorCode::InvalidArgument,
                format!(
                    "request agentId {} differs from the agent this connection said hello as",
                    request.agent_id
                ),
            );
            return reply(client, client_id, Err(err));
        }
        if let Command::UploadFile(args) = &mut request.command
            && let Err(err) = crate::upload::attach(args)
        {
            return reply(client, client_id, Err(err));
        }
        let save = match &request.command {
            Command::Screenshot(a) => match a
                .save_path
                .as_deref()
                .map(|p| save::Target::check(p, a.overwrite))
            {
                Some(Err(err)) => return reply(client, client_id, Err(err)),
                checked => checked.and_then(Result::ok),
            },
            _ => None,
        };
        let id = self.next_id;
        self.next_id += 1;
        let name = request.command.name();
        let frame = encode_frame(
            &ToExtension::Request(Request { id, ..request }),
            MAX_TO_EXTENSION,
        );
        let frame = match frame {
            Ok(frame) => frame,
            Err(e) => {
                let err = ErrorBody::new(ErrorCode::TooLarge, format!("{name}: {e}"))
                    .with_hint("send less data in one call (Firefox refuses messages over 1 MiB)");
                return reply(client, client_id, Err(err));
            }
        };
        tracing::debug!(conn, id, client_id, name, "→ extension");
        self.pending.insert(
            id,
            Pending {
                conn,
                client_id,
                save,
            },
        );
        if self.to_extension.send(frame).is_err() {
            self.pending.remove(&id);
            let err = ErrorBody::new(ErrorCode::NotConnected, "the extension's port is closed");
            reply(client, client_id, Err(err));
        }
    }

    fn answer(&mut self, response: Response) {
        let Some(Pending {
            conn,
            client_id,
            save,
        }) = self.pending.remove(&response.id)
        else {
            tracing::warn!(id = response.id, "answer to no pending request");
            return;
        };
        let outcome = match save {
            Some(target) => response.outcome.and_then(|reply| target.write(reply)),
            None => response.outcome,
        };
        match self.clients.get(&conn) {
            Some(client) => reply(client, client_id, outcome),
            // The client left while waiting: its answer is dropped, never sent to someone else.
            None => tracing::debug!(conn, client_id, "answer for a departed client dropped"),
        }
    }

    fn disconnect(&mut self, conn: ConnId) {
        let Some(client) = self.clients.remove(&conn) else {
            return;
        };
        self.pending.retain(|_, p| p.conn != conn);
        tracing::info!(conn, agent = %client.agent, "agent disconnected");
        // Another live connection of the same agent keeps its tabs.
        if self.clients.values().any(|c| c.agent == client.agent) {
            return;
        }
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

fn reply(client: &Client, id: RequestId, outcome: claudezilla_protocol::Outcome) {
    // A send error means the client's writer is gone; its Disconnected event follows.
    let _ = client
        .tx
        .send(HostMessage::Response(Response { id, outcome }));
}
