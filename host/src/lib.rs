//! The native-messaging host: Firefox starts it; it relays between the extension (stdin/stdout)
//! and any number of authenticated MCP servers on a Unix socket (a named pipe on Windows).
//!
//! **Invariants:** stdout carries frames and nothing else (logs go to stderr); no frame toward
//! the extension exceeds 1 MiB (the router refuses the request instead); an answer reaches only
//! the client that asked; only commands on [`claudezilla_protocol::Command::NAMES`] pass; no
//! frame, from a client or from the extension, ends the host (a bad one gets an error answer);
//! every queue is bounded by connection and in-flight limits; the host reads and writes no
//! user files (uploads and saved screenshots are the MCP server's, inside its allowed folders).

pub mod auth;
pub mod client;
mod listener;
pub mod manifest;
mod router;
mod server;
pub mod status;
pub mod stop_hook;

pub use router::MAX_CONNECTIONS;
pub use server::{IN_FLIGHT, MAX_UNAUTHENTICATED};

use std::future::Future;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use claudezilla_protocol::FromExtension;
use claudezilla_protocol::codec::FrameCodec;
use claudezilla_protocol::envelope::Tuning;
use claudezilla_protocol::framing::MAX_SOCKET_FRAME;
use claudezilla_protocol::paths::{PathError, RuntimeDir};
use futures_util::StreamExt;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use tokio_util::codec::FramedRead;

use crate::auth::Token;
use crate::listener::{Claim, ListenError, Listener};
use crate::router::{Event, Router};

/// How long a socket client has to present the token.
pub const AUTH_TIMEOUT: Duration = Duration::from_secs(5);

pub struct Config {
    pub runtime: RuntimeDir,
    pub auth_timeout: Duration,
    /// Passed on to the extension in its welcome.
    pub tuning: Tuning,
}

impl Config {
    pub fn from_env() -> Self {
        Self {
            runtime: RuntimeDir::from_env(),
            auth_timeout: AUTH_TIMEOUT,
            tuning: tuning_from_env(|k| std::env::var(k).ok()),
        }
    }
}

/// The default timings, each overridable by an environment variable (in ms).
pub fn tuning_from_env(var: impl Fn(&str) -> Option<String>) -> Tuning {
    let ms = |name: &str, default: u64| var(name).and_then(|v| v.parse().ok()).unwrap_or(default);
    let d = Tuning::default();
    Tuning {
        reservation_ms: ms("CLAUDEZILLA_RESERVATION_MS", d.reservation_ms),
        idle_release_ms: ms("CLAUDEZILLA_IDLE_RELEASE_MS", d.idle_release_ms),
        mutex_busy_ms: ms("CLAUDEZILLA_MUTEX_BUSY_MS", d.mutex_busy_ms),
        allow_evaluate: var("CLAUDEZILLA_ALLOW_EVALUATE").as_deref() == Some("1"),
        allow_storage: var("CLAUDEZILLA_ALLOW_STORAGE").as_deref() == Some("1"),
        allowed_domains: var("CLAUDEZILLA_ALLOWED_DOMAINS")
            .map(|v| claudezilla_protocol::validate::domain_list(&v))
            .unwrap_or_default(),
    }
}

#[derive(Debug, thiserror::Error)]
pub enum HostError {
    #[error(transparent)]
    Path(#[from] PathError),
    #[error(transparent)]
    Listen(#[from] ListenError),
    #[error("cannot write the token file: {0}")]
    Token(io::Error),
    #[error("the extension sent a stream that cannot be read: {0}")]
    ExtensionStream(claudezilla_protocol::codec::CodecError),
}

/// Runs until the extension closes stdin (Firefox is gone) or `shutdown` completes, then removes
/// the socket (or pipe name) and token file it created.
pub async fn run(
    config: Config,
    ext_in: impl AsyncRead + Unpin,
    ext_out: impl AsyncWrite + Unpin + Send + 'static,
    shutdown: impl Future<Output = ()>,
) -> Result<(), HostError> {
    let rt = &config.runtime;
    rt.ensure()?;
    let token = Arc::new(Token::generate().map_err(HostError::Token)?);
    let (listener, claim) = Listener::bind(rt)?;
    let _files = OwnFiles::claim(rt, &token, claim)?;

    let tuning = config.tuning;
    let (frames_tx, frames_rx) = mpsc::unbounded_channel();
    let (events_tx, mut events_rx) = mpsc::unbounded_channel();
    let writer = tokio::spawn(write_frames(ext_out, frames_rx));
    let accept = tokio::spawn(server::serve(
        listener,
        token,
        events_tx.clone(),
        config.auth_timeout,
    ));
    let route = tokio::spawn(async move {
        let mut router = Router::new(frames_tx, tuning);
        while let Some(event) = events_rx.recv().await {
            router.handle(event);
        }
    });

    let result = tokio::select! {
        r = read_extension(ext_in, events_tx) => r,
        () = shutdown => Ok(()),
    };
    accept.abort();
    route.abort();
    writer.abort();
    result
}

/// Reads the extension's frames until EOF. A frame that cannot be read (too large, not JSON)
/// fails the one request it answered; only a broken pipe ends the host (Firefox then sees the
/// port close, and the extension reconnects).
async fn read_extension(
    ext_in: impl AsyncRead + Unpin,
    events: mpsc::UnboundedSender<Event>,
) -> Result<(), HostError> {
    let mut frames = FramedRead::new(
        ext_in,
        FrameCodec::<FromExtension, ()>::new(MAX_SOCKET_FRAME, 0),
    );
    while let Some(frame) = frames.next().await {
        match frame {
            Ok(Ok(msg)) => {
                let _ = events.send(Event::FromExtension(msg));
            }
            Ok(Err(bad)) => {
                let id = claudezilla_protocol::codec::request_id(&bad.payload);
                let _ = events.send(Event::BadReply {
                    id,
                    error: bad.error,
                });
            }
            Err(e) => return Err(HostError::ExtensionStream(e)),
        }
    }
    tracing::info!("extension closed stdin; exiting");
    Ok(())
}

async fn write_frames(
    mut out: impl AsyncWrite + Unpin,
    mut frames: mpsc::UnboundedReceiver<Vec<u8>>,
) {
    while let Some(frame) = frames.recv().await {
        if out.write_all(&frame).await.is_err() || out.flush().await.is_err() {
            tracing::error!("cannot write to the extension");
            return;
        }
    }
}

/// The endpoint and token this host created; removed on drop unless a newer host replaced them.
struct OwnFiles {
    _endpoint: Claim,
    token_path: std::path::PathBuf,
    token: String,
}

impl OwnFiles {
    fn claim(rt: &RuntimeDir, token: &Token, endpoint: Claim) -> Result<Self, HostError> {
        rt.write_token(token.as_str()).map_err(HostError::Token)?;
        Ok(Self {
            _endpoint: endpoint,
            token_path: rt.token(),
            token: token.as_str().to_owned(),
        })
    }
}

impl Drop for OwnFiles {
    // The token this host wrote, removed only if it is still this host's.
    #[allow(clippy::disallowed_methods)]
    fn drop(&mut self) {
        if std::fs::read_to_string(&self.token_path).is_ok_and(|t| t.trim() == self.token) {
            let _ = std::fs::remove_file(&self.token_path);
        }
    }
}
