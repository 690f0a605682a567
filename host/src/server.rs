//! The socket (or pipe) server: authenticates each client, then relays its requests to the router.
//!
//! Every queue is bounded: at most [`MAX_UNAUTHENTICATED`] connections may be saying hello at
//! once (each with a small frame limit until it has; past the limit the oldest is closed, so a
//! flood of silent connections cannot keep a real agent out), each connection has at most
//! [`IN_FLIGHT`] requests between arrival and the writing of their answers, and a client that
//! sends more gets `BUSY` — so a client that never reads cannot grow the host's memory.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use claudezilla_protocol::codec::{BadFrame, FrameCodec, request_id};
use claudezilla_protocol::framing::{FrameError, MAX_SOCKET_FRAME, encode_frame};
use claudezilla_protocol::{
    AgentId, ClientMessage, Command, ErrorBody, ErrorCode, HostMessage, Response,
};
use futures_util::StreamExt;
use tokio::io::AsyncWriteExt;
use tokio::sync::mpsc::{self, UnboundedSender};
use tokio::sync::{Semaphore, oneshot};
use tokio_util::codec::FramedRead;
use tokio_util::sync::CancellationToken;

use crate::auth::Token;
use crate::listener::{Accepted, Listener, ReadHalf, WriteHalf};
use crate::router::{ConnId, Event, Outgoing};

/// Connections accepted but not yet authenticated; more are closed at once.
pub const MAX_UNAUTHENTICATED: usize = 128;
/// Requests of one connection between arrival and the writing of their answer.
pub const IN_FLIGHT: usize = 16;
/// A hello is small; nothing bigger is read from a client that has not authenticated.
const HELLO_MAX: usize = 16 * 1024;
/// Answers the connection's own reader makes (refusals, BUSY) waiting to be written.
const LOCAL_QUEUE: usize = 8;
/// How long a refusal may take to write to a client that does not read.
const REFUSAL_WRITE: Duration = Duration::from_secs(1);

type Codec = FrameCodec<ClientMessage, HostMessage>;

/// Accepts clients until the listener fails or the task is dropped.
pub async fn serve(
    mut listener: Listener,
    token: Arc<Token>,
    events: UnboundedSender<Event>,
    auth_timeout: Duration,
) {
    let mut saying_hello = HelloQueue::default();
    let mut next_conn: ConnId = 1;
    loop {
        let (rd, wr) = match listener.accept().await {
            Ok(Accepted::Client(rd, wr)) => (rd, wr),
            #[cfg(unix)]
            Ok(Accepted::Refused(why)) => {
                tracing::warn!("socket client refused: {why}");
                continue;
            }
            Err(e) => {
                // Out of file descriptors, typically: wait for some to close.
                tracing::error!("socket accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let hello_slot = saying_hello.admit();
        let conn = next_conn;
        next_conn += 1;
        tokio::spawn(client(
            rd,
            wr,
            conn,
            token.clone(),
            events.clone(),
            auth_timeout,
            hello_slot,
        ));
    }
}

/// The connections still saying hello, oldest first. A new one past the limit closes the
/// oldest: a silent flood ages out, while a real client says hello at once.
#[derive(Default)]
struct HelloQueue {
    waiting: VecDeque<HelloSlot>,
}

#[derive(Clone)]
struct HelloSlot {
    /// Cancelled to close the connection (evicted).
    evict: CancellationToken,
    /// Set once it has said hello (or given up): no longer counted.
    done: Arc<AtomicBool>,
}

impl HelloQueue {
    fn admit(&mut self) -> HelloSlot {
        self.waiting.retain(|s| !s.done.load(Ordering::Relaxed));
        if self.waiting.len() >= MAX_UNAUTHENTICATED
            && let Some(oldest) = self.waiting.pop_front()
        {
            tracing::debug!(
                "closing the oldest silent connection: {MAX_UNAUTHENTICATED} say hello"
            );
            oldest.evict.cancel();
        }
        let slot = HelloSlot {
            evict: CancellationToken::new(),
            done: Arc::default(),
        };
        self.waiting.push_back(slot.clone());
        slot
    }
}

async fn client(
    rd: ReadHalf,
    mut wr: WriteHalf,
    conn: ConnId,
    token: Arc<Token>,
    events: UnboundedSender<Event>,
    auth_timeout: Duration,
    hello_slot: HelloSlot,
) {
    let mut reader = FramedRead::new(rd, Codec::new(HELLO_MAX, MAX_SOCKET_FRAME));
    let authenticated = tokio::select! {
        a = authenticate(&mut reader, &token, auth_timeout) => Some(a),
        () = hello_slot.evict.cancelled() => None,
    };
    hello_slot.done.store(true, Ordering::Relaxed);
    let Some(authenticated) = authenticated else {
        return;
    };
    let agent = match authenticated {
        Ok(agent) => agent,
        Err(why) => {
            tracing::warn!(conn, why, "socket client refused");
            let refusal = ErrorBody::new(ErrorCode::AuthFailed, format!("connection refused: {why}"))
                .with_hint("read the token from the runtime directory's claudezilla.token and send it in the first (hello) message");
            refuse(&mut wr, refusal).await;
            return;
        }
    };
    reader.decoder_mut().set_max_in(MAX_SOCKET_FRAME);

    let (replies, replies_rx) = mpsc::unbounded_channel();
    let (admitted, admission) = oneshot::channel();
    let connected = Event::Connected {
        conn,
        agent,
        replies,
        admitted,
    };
    if events.send(connected).is_err() {
        return;
    }
    match admission.await {
        Ok(Ok(())) => {}
        Ok(Err(refusal)) => {
            tracing::warn!(conn, "socket client refused: {}", refusal.message);
            refuse(&mut wr, refusal).await;
            return;
        }
        Err(_) => return,
    }
    let (local, local_rx) = mpsc::channel(LOCAL_QUEUE);
    let welcome = HostMessage::Welcome {
        host_version: claudezilla_protocol::VERSION.into(),
        host_pid: std::process::id(),
    };
    let _ = local.send(welcome).await;
    let write_task = tokio::spawn(write(wr, replies_rx, local_rx, conn));

    let in_flight = Arc::new(Semaphore::new(IN_FLIGHT));
    while let Some(frame) = reader.next().await {
        let answer = match frame {
            Ok(Ok(ClientMessage::Request(request))) => {
                match in_flight.clone().try_acquire_owned() {
                    Ok(permit) => {
                        let request = Event::Request {
                            conn,
                            request,
                            permit,
                        };
                        let _ = events.send(request);
                        continue;
                    }
                    Err(_) => busy(request.id),
                }
            }
            Ok(Ok(ClientMessage::Hello { .. })) => {
                tracing::warn!(conn, "second hello ignored");
                continue;
            }
            Ok(Err(bad)) => answer_bad_frame(&bad),
            Err(e) => {
                tracing::warn!(conn, "connection broken: {e}");
                break;
            }
        };
        // Waits when the client does not read its answers: it then stops being read too.
        if local.send(answer).await.is_err() {
            break;
        }
    }
    drop(local);
    let _ = events.send(Event::Disconnected { conn });
    let _ = write_task.await;
}

/// Reads the hello; the agent it names, or why the client is refused.
async fn authenticate(
    reader: &mut FramedRead<ReadHalf, Codec>,
    token: &Token,
    auth_timeout: Duration,
) -> Result<AgentId, &'static str> {
    match tokio::time::timeout(auth_timeout, reader.next()).await {
        Ok(Some(Ok(Ok(ClientMessage::Hello {
            token: presented,
            agent_id,
            client,
        })))) => {
            if !token.matches(&presented) {
                return Err("wrong token");
            }
            tracing::debug!(%agent_id, client, "authenticated");
            Ok(agent_id)
        }
        Err(_) => Err("no hello within the authentication deadline"),
        Ok(Some(Ok(Ok(_)))) => Err("first message was not a hello with the token"),
        Ok(Some(Ok(Err(_)))) | Ok(Some(Err(_))) => Err("malformed first frame"),
        Ok(None) => Err("closed before authenticating"),
    }
}

/// Writes a refusal, giving up on a client that does not read.
async fn refuse(wr: &mut WriteHalf, refusal: ErrorBody) {
    let frame = encode(HostMessage::Refused(refusal));
    let _ = tokio::time::timeout(REFUSAL_WRITE, wr.write_all(&frame)).await;
}

/// Writes the router's answers (each releasing its request's in-flight slot once written)
/// and the reader's own, until both queues close.
async fn write(
    mut wr: WriteHalf,
    mut replies: mpsc::UnboundedReceiver<Outgoing>,
    mut local: mpsc::Receiver<HostMessage>,
    conn: ConnId,
) {
    loop {
        let (msg, permit) = tokio::select! {
            Some(Outgoing { msg, permit }) = replies.recv() => (msg, permit),
            Some(msg) = local.recv() => (msg, None),
            else => return,
        };
        if let Err(e) = wr.write_all(&encode(msg)).await {
            tracing::debug!(conn, "socket write failed: {e}");
            return;
        }
        drop(permit);
    }
}

/// One frame for the client. An answer too large for a frame becomes a TOO_LARGE error for
/// that request (the extension bounds its answers, so this is the last line, not the first).
fn encode(msg: HostMessage) -> Vec<u8> {
    let error = match encode_frame(&msg, MAX_SOCKET_FRAME) {
        Ok(frame) => return frame,
        Err(e) => e,
    };
    let err = ErrorBody::new(
        ErrorCode::TooLarge,
        format!("the answer is too large: {error}"),
    )
    .with_hint("ask for less in one call (a selector, a smaller maxLength or limit)");
    let msg = match msg {
        HostMessage::Response(r) => HostMessage::Response(Response {
            id: r.id,
            outcome: Err(err),
        }),
        _ => HostMessage::Error(err),
    };
    encode_frame(&msg, MAX_SOCKET_FRAME).unwrap_or_default()
}

fn busy(id: u64) -> HostMessage {
    let err = ErrorBody::new(
        ErrorCode::Busy,
        format!("{IN_FLIGHT} requests of this connection are already waiting for answers"),
    )
    .with_hint("wait for some answers, then retry");
    HostMessage::Response(Response {
        id,
        outcome: Err(err),
    })
}

/// Answers a frame that is not a valid message, with the request's id when it can be found,
/// and says whether it was too large, the command is unknown or its arguments are wrong.
fn answer_bad_frame(bad: &BadFrame) -> HostMessage {
    let id = request_id(&bad.payload);
    let err = match &bad.error {
        FrameError::TooLarge { len, max } => ErrorBody::new(
            ErrorCode::TooLarge,
            format!("the request is {len} bytes, over the {max}-byte limit"),
        )
        .with_hint("send less in one call"),
        error => {
            let value: Option<serde_json::Value> = serde_json::from_slice(&bad.payload).ok();
            let name = value
                .as_ref()
                .and_then(|v| v.get("command")?.get("name")?.as_str());
            match name {
                Some(name) if !Command::NAMES.contains(&name) => ErrorBody::new(
                    ErrorCode::UnknownCommand,
                    format!(
                        "unknown command {name:?}; allowed: {}",
                        Command::NAMES.join(", ")
                    ),
                ),
                Some(name) => ErrorBody::new(
                    ErrorCode::InvalidArgument,
                    format!("bad arguments for {name}: {error}"),
                ),
                None => ErrorBody::new(ErrorCode::Malformed, error.to_string()),
            }
        }
    };
    tracing::warn!(?id, "bad frame from client: {err}");
    match id {
        Some(id) => HostMessage::Response(Response {
            id,
            outcome: Err(err),
        }),
        None => HostMessage::Error(err),
    }
}
