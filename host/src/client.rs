//! A one-shot client of a running host (`status`, `stop-hook`): hello with the token, one
//! command, its answer. Blocking, all of it within 5 s.

use std::io::{Read, Write};
use std::time::Duration;

use claudezilla_protocol::framing::{FrameDecoder, MAX_SOCKET_FRAME, encode_frame};
use claudezilla_protocol::handshake::{self, Checked, ConnectError};
use claudezilla_protocol::paths::{PathError, RuntimeDir};
use claudezilla_protocol::reply::Answer;
use claudezilla_protocol::{
    AgentId, Ask, Asking, ClientMessage, Command, ErrorBody, HostMessage, Outcome, Response,
};

/// Why a call failed.
#[derive(Debug, thiserror::Error)]
pub enum CallError {
    /// Nothing was sent: the runtime folder, or the socket's or pipe's other end, is not ours.
    #[error(transparent)]
    Untrusted(PathError),
    #[error("{0}")]
    Failed(String),
}

impl From<String> for CallError {
    fn from(message: String) -> Self {
        Self::Failed(message)
    }
}

const TIMEOUT: Duration = Duration::from_secs(5);
/// The host's own limit for the command: shorter, so its timeout answer arrives in time.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(4);

/// Authenticates as `client`, asks `A` with `args`, and returns the host's version and `A`'s
/// answer (the browser's refusal as its `ErrorBody`). The runtime folder is checked first
/// (ours and private), and the other end after connecting (this user): the token and the
/// command go to our own host or nowhere.
pub fn ask<A: Asking>(
    runtime: &RuntimeDir,
    client: &str,
    args: A::Args,
) -> Result<(String, Result<A::Answer, ErrorBody>), CallError> {
    let (version, outcome) = call(runtime, client, A::command(args))?;
    let answer = match outcome {
        Ok(reply) => Ok(A::Answer::from_reply(reply)
            .map_err(|other| CallError::Failed(format!("unexpected answer {other:?}")))?),
        Err(e) => Err(e),
    };
    Ok((version, answer))
}

/// One command and its untyped outcome, within the deadline.
fn call(
    runtime: &RuntimeDir,
    client: &str,
    command: Command,
) -> Result<(String, Outcome), CallError> {
    // On a thread, so one deadline covers every step on every platform (a pipe opened as a
    // file on Windows has no read timeout); a host that never answers leaves it parked until
    // this short-lived process exits.
    let (runtime, client) = (runtime.clone(), client.to_owned());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(exchange(&runtime, &client, command));
    });
    match rx.recv_timeout(TIMEOUT) {
        Ok(answer) => answer,
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Err(CallError::Failed(format!(
            "the host did not answer within {TIMEOUT:?}"
        ))),
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => Err(CallError::Failed(
            "the host's client failed unexpectedly".into(),
        )),
    }
}

fn exchange(
    runtime: &RuntimeDir,
    client: &str,
    command: Command,
) -> Result<(String, Outcome), CallError> {
    let Checked { mut stream, token } = handshake::connect(runtime).map_err(|e| match e {
        ConnectError::Untrusted(why) => CallError::Untrusted(why),
        other => CallError::Failed(other.to_string()),
    })?;
    let mut random = [0u8; 16];
    getrandom::fill(&mut random).map_err(|e| e.to_string())?;
    let agent_id = AgentId::new(random, std::process::id());
    send(
        &mut stream,
        &handshake::hello(token, agent_id.clone(), client),
    )?;
    let mut decoder = FrameDecoder::new(MAX_SOCKET_FRAME);
    let host_version =
        handshake::welcomed(Some(recv(&mut stream, &mut decoder)?)).map_err(|e| e.to_string())?;
    let request = Ask::new(1, REQUEST_TIMEOUT.as_millis() as u32, command);
    send(&mut stream, &ClientMessage::Request(request))?;
    loop {
        match recv(&mut stream, &mut decoder)? {
            HostMessage::Response(Response { outcome, .. }) => return Ok((host_version, outcome)),
            HostMessage::Notice { .. } => {}
            other => return Err(format!("unexpected answer {other:?}").into()),
        }
    }
}

fn send(stream: &mut impl Write, msg: &ClientMessage) -> Result<(), String> {
    let frame = encode_frame(msg, MAX_SOCKET_FRAME).map_err(|e| e.to_string())?;
    stream.write_all(&frame).map_err(|e| format!("write: {e}"))
}

fn recv(stream: &mut impl Read, decoder: &mut FrameDecoder) -> Result<HostMessage, String> {
    let mut buf = [0u8; 64 * 1024];
    loop {
        if let Some(msg) = decoder.next_frame().map_err(|e| e.to_string())? {
            return Ok(msg);
        }
        match stream.read(&mut buf) {
            Ok(0) => return Err("the host closed the connection".into()),
            Ok(n) => decoder.push(&buf[..n]),
            Err(e) => return Err(format!("read: {e}")),
        }
    }
}
