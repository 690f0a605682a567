//! One authenticated connection to the host per MCP server process, shared by every tool call,
//! re-established on the next call after it drops.
//!
//! A call never hangs on a missing browser: connecting fails at once when no host listens, a
//! dropped connection fails every call in flight at once, and every call is bounded by its
//! timeout (after which its late answer is dropped).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use claudezilla_protocol::codec::FrameCodec;
use claudezilla_protocol::framing::MAX_SOCKET_FRAME;
use claudezilla_protocol::handshake::{self, Checked};
use claudezilla_protocol::paths::RuntimeDir;
use claudezilla_protocol::validate::MAX_TIMEOUT_MS;
use claudezilla_protocol::{
    AgentId, Ask, ClientMessage, Command, ErrorBody, ErrorCode, HostMessage, Outcome, RequestId,
    Response,
};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{mpsc, oneshot};
use tokio_util::codec::{FramedRead, FramedWrite};
use tokio_util::sync::CancellationToken;

/// How long connecting and authenticating may take before the call gives up.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

pub const START_HINT: &str = "Start Firefox with the Claudezilla extension installed and enabled \
(from the repository: `cargo xtask run`), then call the tool again. \
`claudezilla-host status` says what is missing.";

type Waiters = Arc<Mutex<HashMap<RequestId, oneshot::Sender<Outcome>>>>;

/// Notes the host passed on (things that happened to this agent's tabs on their own), waiting
/// for the next tool answer. Bounded: past the limit only a count is kept.
#[derive(Default)]
struct Notes {
    kept: Vec<String>,
    dropped: usize,
}

const NOTES_KEPT: usize = 20;

impl Notes {
    fn add(&mut self, notes: Vec<String>) {
        for note in notes {
            if self.kept.len() < NOTES_KEPT {
                self.kept.push(note);
            } else {
                self.dropped += 1;
            }
        }
    }

    fn take(&mut self) -> Vec<String> {
        let mut out = std::mem::take(&mut self.kept);
        if self.dropped > 0 {
            out.push(format!("… and {} more like these", self.dropped));
            self.dropped = 0;
        }
        out
    }
}

/// A live, authenticated connection.
struct Connection {
    to_host: mpsc::UnboundedSender<ClientMessage>,
    waiters: Waiters,
    /// Cancelled when the connection ends, from either side.
    alive: CancellationToken,
    /// What the host said in its welcome.
    host_version: String,
}

impl Connection {
    fn is_open(&self) -> bool {
        !self.alive.is_cancelled()
    }
}

/// What `firefox_diagnose` reports about the link itself.
pub struct LinkInfo {
    pub runtime_dir: std::path::PathBuf,
    pub connected: bool,
    pub host_version: Option<String>,
}

pub struct HostLink {
    runtime: RuntimeDir,
    agent: AgentId,
    next_id: AtomicU64,
    conn: tokio::sync::Mutex<Option<Connection>>,
    notes: Arc<Mutex<Notes>>,
}

impl HostLink {
    pub fn new(runtime: RuntimeDir, agent: AgentId) -> Self {
        Self {
            runtime,
            agent,
            next_id: AtomicU64::new(1),
            conn: tokio::sync::Mutex::new(None),
            notes: Arc::default(),
        }
    }

    /// What happened to this agent's tabs since the last answer (and is not in it).
    pub fn take_notes(&self) -> Vec<String> {
        self.notes.lock().expect("notes lock").take()
    }

    pub fn agent(&self) -> &AgentId {
        &self.agent
    }

    pub async fn info(&self) -> LinkInfo {
        let conn = self.conn.lock().await;
        let live = conn.as_ref().filter(|c| c.is_open());
        LinkInfo {
            runtime_dir: self.runtime.path().to_owned(),
            connected: live.is_some(),
            host_version: live.map(|c| c.host_version.clone()),
        }
    }

    /// Sends one command and waits for its answer, at most `timeout_ms`.
    pub async fn call(&self, command: Command, timeout_ms: u32) -> Outcome {
        let name = command.name();
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        let waiters = {
            let mut guard = self.conn.lock().await;
            let conn = match guard.as_ref().filter(|c| c.is_open()) {
                Some(conn) => conn,
                None => guard.insert(self.connect().await?),
            };
            conn.waiters.lock().expect("waiters lock").insert(id, tx);
            let request = Ask::new(id, timeout_ms, command);
            // The reader cancels `alive` before clearing the waiters: checking after inserting
            // means a waiter can never be left behind by a connection that just ended.
            if !conn.is_open() || conn.to_host.send(ClientMessage::Request(request)).is_err() {
                conn.waiters.lock().expect("waiters lock").remove(&id);
                return Err(lost());
            }
            conn.waiters.clone()
        };
        match tokio::time::timeout(Duration::from_millis(timeout_ms.into()), rx).await {
            Ok(Ok(outcome)) => outcome,
            Ok(Err(_)) => Err(lost()),
            Err(_) => {
                // Forget the call: its answer, if it ever comes, is dropped by the reader.
                waiters.lock().expect("waiters lock").remove(&id);
                Err(ErrorBody::new(ErrorCode::Timeout, format!("{name} got no answer within {timeout_ms} ms"))
                    .with_hint(format!("the page or browser may be busy; retry, or pass a larger `timeout` (up to {MAX_TIMEOUT_MS} ms)")))
            }
        }
    }

    /// Connects only if not connected yet (used to warm up at start; errors are ignored).
    pub async fn warm_up(&self) {
        let mut guard = self.conn.lock().await;
        if guard.as_ref().is_none_or(|c| !c.is_open()) {
            *guard = self.connect().await.ok();
        }
    }

    /// True when a connection is open (so `goodbye` has someone to tell).
    pub async fn is_connected(&self) -> bool {
        self.conn
            .lock()
            .await
            .as_ref()
            .is_some_and(Connection::is_open)
    }

    async fn connect(&self) -> Result<Connection, ErrorBody> {
        tokio::time::timeout(CONNECT_TIMEOUT, self.handshake_retrying())
            .await
            .unwrap_or_else(|_| Err(not_connected("the host did not answer within 3 s")))
    }

    /// A handshake that failed after connecting is tried again a few times: a refusal right
    /// after a drop is usually the host still holding this agent's old connection (or a token
    /// replaced by a restarting host), a reset the host shedding a flood of silent clients.
    /// Where nothing listens, it fails at once.
    async fn handshake_retrying(&self) -> Result<Connection, ErrorBody> {
        let mut attempt = 0;
        loop {
            match self.handshake().await {
                Ok(conn) => return Ok(conn),
                Err((e, true)) if attempt < 3 => {
                    tracing::info!("handshake failed, trying again: {e}");
                    attempt += 1;
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err((e, _)) => return Err(e),
            }
        }
    }

    /// The connection, or why not and whether another try may work.
    async fn handshake(&self) -> Result<Connection, (ErrorBody, bool)> {
        let last = |e: ErrorBody| (e, false);
        let again = |e: ErrorBody| (e, true);
        // Nothing is read or sent unless the folder is ours and private and the socket's other
        // end runs as us: another local user could have made either, to pose as the host.
        let Checked { stream, token } = connect(&self.runtime).await.map_err(|e| {
            let message = match e {
                handshake::ConnectError::NoHost { .. } => format!("Firefox is not connected: {e}"),
                other => other.to_string(),
            };
            last(not_connected(message))
        })?;
        let (rd, wr) = split(stream);
        let mut reader = FramedRead::new(rd, codec());
        let mut writer = FramedWrite::new(wr, codec());
        let client = format!("claudezilla-mcp {}", claudezilla_protocol::VERSION);
        writer
            .send(handshake::hello(token, self.agent.clone(), client))
            .await
            .map_err(|e| again(not_connected(format!("host connection failed: {e}"))))?;
        let first = match reader.next().await {
            Some(Ok(Ok(msg))) => Some(msg),
            _ => None,
        };
        let host_version = handshake::welcomed(first).map_err(|e| {
            // Right after a drop the host may still hold this agent's old connection (or be
            // shedding a flood): worth another try.
            let transient = matches!(
                e.code,
                ErrorCode::AuthFailed | ErrorCode::Busy | ErrorCode::NotConnected
            );
            (e, transient)
        })?;
        tracing::info!(%host_version, "connected to the host");

        let waiters: Waiters = Arc::default();
        let alive = CancellationToken::new();
        let (to_host, mut outbox) = mpsc::unbounded_channel::<ClientMessage>();
        let writer_alive = alive.clone();
        tokio::spawn(async move {
            loop {
                let msg = tokio::select! {
                    msg = outbox.recv() => msg,
                    () = writer_alive.cancelled() => None,
                };
                let Some(msg) = msg else { break };
                if let Err(e) = writer.send(msg).await {
                    tracing::warn!("host connection write failed: {e}");
                    break;
                }
            }
            writer_alive.cancel();
        });
        let reader_waiters = waiters.clone();
        let reader_alive = alive.clone();
        let notes = self.notes.clone();
        tokio::spawn(async move {
            tokio::select! {
                () = read_answers(reader, &reader_waiters, &notes) => {}
                () = reader_alive.cancelled() => {}
            }
            reader_alive.cancel();
            // Fail every call in flight now rather than at its timeout.
            reader_waiters.lock().expect("waiters lock").clear();
        });
        Ok(Connection {
            to_host,
            waiters,
            alive,
            host_version,
        })
    }
}

type Reader = FramedRead<ReadHalf, FrameCodec<HostMessage, ClientMessage>>;

#[cfg(unix)]
type Stream = tokio::net::UnixStream;
#[cfg(unix)]
type ReadHalf = tokio::net::unix::OwnedReadHalf;

/// The host's socket, checked as every client checks it, then handed to the I/O reactor.
#[cfg(unix)]
async fn connect(runtime: &RuntimeDir) -> Result<Checked<Stream>, handshake::ConnectError> {
    let Checked { stream, token } = handshake::connect(runtime)?;
    let stream = stream
        .set_nonblocking(true)
        .and_then(|()| Stream::from_std(stream))
        .map_err(|source| handshake::ConnectError::NoHost {
            at: runtime.socket().display().to_string(),
            source,
        })?;
    Ok(Checked { stream, token })
}

#[cfg(unix)]
fn split(stream: Stream) -> (ReadHalf, tokio::net::unix::OwnedWriteHalf) {
    stream.into_split()
}

#[cfg(windows)]
type Stream = tokio::net::windows::named_pipe::NamedPipeClient;
#[cfg(windows)]
type ReadHalf = tokio::io::ReadHalf<Stream>;

/// The host's pipe, opened at the identification level only (the host may learn who we are,
/// not act as us), and checked as every client checks it. Every instance is taken only
/// between a client's connection and the host's next instance: worth a few short waits.
#[cfg(windows)]
async fn connect(runtime: &RuntimeDir) -> Result<Checked<Stream>, handshake::ConnectError> {
    use tokio::net::windows::named_pipe::ClientOptions;
    use windows_sys::Win32::Foundation::ERROR_PIPE_BUSY;
    use windows_sys::Win32::Storage::FileSystem::SECURITY_IDENTIFICATION;
    let mut waits = 0;
    loop {
        let opened = handshake::connect_with(runtime, |pipe| {
            ClientOptions::new()
                .security_qos_flags(SECURITY_IDENTIFICATION)
                .open(pipe.as_str())
        });
        match opened {
            Err(handshake::ConnectError::NoHost { source, .. })
                if source.raw_os_error() == Some(ERROR_PIPE_BUSY as i32) && waits < 50 =>
            {
                waits += 1;
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            other => return other,
        }
    }
}

#[cfg(windows)]
fn split(stream: Stream) -> (ReadHalf, tokio::io::WriteHalf<Stream>) {
    tokio::io::split(stream)
}

async fn read_answers(mut reader: Reader, waiters: &Waiters, notes: &Mutex<Notes>) {
    while let Some(frame) = reader.next().await {
        match frame {
            Ok(Ok(HostMessage::Response(Response { id, outcome }))) => {
                if let Some(tx) = waiters.lock().expect("waiters lock").remove(&id) {
                    let _ = tx.send(outcome);
                }
            }
            Ok(Ok(HostMessage::Refused(e))) => tracing::warn!("host refused: {e}"),
            Ok(Ok(HostMessage::Error(e))) => tracing::warn!("host error: {e}"),
            // Never asked for here (the benchmark's own client traces).
            Ok(Ok(HostMessage::Welcome { .. } | HostMessage::Trace { .. })) => {}
            Ok(Ok(HostMessage::Notice { notes: new })) => {
                notes.lock().expect("notes lock").add(new);
            }
            Ok(Err(bad)) => tracing::warn!("unreadable frame from the host: {}", bad.error),
            Err(e) => {
                tracing::warn!("host connection broken: {e}");
                return;
            }
        }
    }
    tracing::info!("host connection closed");
}

fn codec() -> FrameCodec<HostMessage, ClientMessage> {
    FrameCodec::new(MAX_SOCKET_FRAME, MAX_SOCKET_FRAME)
}

fn not_connected(message: impl Into<String>) -> ErrorBody {
    ErrorBody::new(ErrorCode::NotConnected, message).with_hint(START_HINT)
}

fn lost() -> ErrorBody {
    not_connected("the connection to Firefox was lost (Firefox closed or the extension restarted)")
}
