//! The Unix socket server: authenticates each client, then relays its requests to the router.

use std::sync::Arc;
use std::time::Duration;

use claudezilla_protocol::codec::{BadFrame, FrameCodec};
use claudezilla_protocol::framing::MAX_SOCKET_FRAME;
use claudezilla_protocol::{ClientMessage, Command, ErrorBody, ErrorCode, HostMessage, Response};
use futures_util::{SinkExt, StreamExt};
use tokio::net::{UnixListener, UnixStream};
use tokio::sync::mpsc::{self, UnboundedSender};
use tokio_util::codec::{FramedRead, FramedWrite};

use crate::auth::Token;
use crate::router::{ConnId, Event};

type Codec = FrameCodec<ClientMessage, HostMessage>;

fn codec() -> Codec {
    FrameCodec::new(MAX_SOCKET_FRAME, MAX_SOCKET_FRAME)
}

/// Accepts clients until the listener fails or the task is dropped.
pub async fn serve(
    listener: UnixListener,
    token: Arc<Token>,
    events: UnboundedSender<Event>,
    auth_timeout: Duration,
) {
    let mut next_conn: ConnId = 1;
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                tracing::error!("socket accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let conn = next_conn;
        next_conn += 1;
        tokio::spawn(client(
            stream,
            conn,
            token.clone(),
            events.clone(),
            auth_timeout,
        ));
    }
}

async fn client(
    stream: UnixStream,
    conn: ConnId,
    token: Arc<Token>,
    events: UnboundedSender<Event>,
    auth_timeout: Duration,
) {
    let (rd, wr) = stream.into_split();
    let mut reader = FramedRead::new(rd, codec());
    let mut writer = FramedWrite::new(wr, codec());

    let agent = match tokio::time::timeout(auth_timeout, reader.next()).await {
        Ok(Some(Ok(Ok(ClientMessage::Hello {
            token: presented,
            agent_id,
            client,
        }))))
            if token.matches(&presented) =>
        {
            tracing::debug!(conn, %agent_id, client, "authenticated");
            agent_id
        }
        outcome => {
            let why = match outcome {
                Err(_) => "no hello within the authentication deadline",
                Ok(Some(Ok(Ok(ClientMessage::Hello { .. })))) => "wrong token",
                Ok(Some(Ok(Ok(_)))) => "first message was not a hello with the token",
                Ok(Some(Ok(Err(_)))) | Ok(Some(Err(_))) => "malformed first frame",
                Ok(None) => "closed before authenticating",
            };
            tracing::warn!(conn, why, "socket client refused");
            let refusal = ErrorBody::new(ErrorCode::AuthFailed, format!("connection refused: {why}"))
                .with_hint("read the token from the runtime directory's claudezilla.token and send it in the first (hello) message");
            let _ = writer.send(HostMessage::Refused(refusal)).await;
            return;
        }
    };

    let (tx, mut rx) = mpsc::unbounded_channel();
    let _ = tx.send(HostMessage::Welcome {
        host_version: claudezilla_protocol::VERSION.into(),
        host_pid: std::process::id(),
    });
    let replies = tx.clone();
    if events.send(Event::Connected { conn, agent, tx }).is_err() {
        return;
    }
    let write_task = tokio::spawn(async move {
        while let Some(msg) = rx.recv().await {
            if let Err(e) = writer.send(msg).await {
                tracing::debug!(conn, "socket write failed: {e}");
                break;
            }
        }
    });

    while let Some(frame) = reader.next().await {
        match frame {
            Ok(Ok(ClientMessage::Request(request))) => {
                let _ = events.send(Event::Request { conn, request });
            }
            Ok(Ok(ClientMessage::Hello { .. })) => {
                tracing::warn!(conn, "second hello ignored");
            }
            Ok(Err(bad)) => {
                let _ = replies.send(answer_bad_frame(&bad));
            }
            Err(e) => {
                // Bad framing: the stream is out of step and cannot be read further.
                tracing::warn!(conn, "closing connection: {e}");
                let err = ErrorBody::new(ErrorCode::Malformed, format!("connection closed: {e}"));
                let _ = replies.send(HostMessage::Refused(err));
                break;
            }
        }
    }
    drop(replies);
    let _ = events.send(Event::Disconnected { conn });
    let _ = write_task.await;
}

/// Answers a frame that is not a valid message, with the request's id when it can be found,
/// and says whether the command is unknown or its arguments are wrong.
fn answer_bad_frame(bad: &BadFrame) -> HostMessage {
    let value: Option<serde_json::Value> = serde_json::from_slice(&bad.payload).ok();
    let id = value.as_ref().and_then(|v| v.get("id")?.as_u64());
    let name = value
        .as_ref()
        .and_then(|v| v.get("command")?.get("name")?.as_str());
    let err = match name {
        Some(name) if !Command::NAMES.contains(&name) => ErrorBody::new(
            ErrorCode::UnknownCommand,
            format!(
                "unknown command {name:?}; allowed: {}",
                Command::NAMES.join(", ")
            ),
        ),
        Some(name) => ErrorBody::new(
            ErrorCode::InvalidArgument,
            format!("bad arguments for {name}: {}", bad.error),
        ),
        None => ErrorBody::new(ErrorCode::Malformed, bad.error.to_string()),
    };
    tracing::warn!(?id, "bad frame from client: {err}");
    match id {
        Some(id) => HostMessage::Response(Response {
            id,
            outcome: Err(err),
        }),
        None => HostMessage::Refused(err),
    }
}
