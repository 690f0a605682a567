//! `claudezilla-host status`: what is installed, whether the extension is connected, and the fix
//! for each problem found.

use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::{Duration, Instant};

use claudezilla_protocol::framing::{FrameDecoder, MAX_SOCKET_FRAME, encode_frame};
use claudezilla_protocol::paths::RuntimeDir;
use claudezilla_protocol::{
    AgentId, ClientMessage, Command, EXTENSION_ID, HostMessage, Reply, Request, Response,
};

use crate::manifest;

/// One line of the report.
pub struct Check {
    pub ok: bool,
    pub what: String,
    pub fix: Option<String>,
}

impl Check {
    fn ok(what: impl Into<String>) -> Self {
        Self {
            ok: true,
            what: what.into(),
            fix: None,
        }
    }

    fn bad(what: impl Into<String>, fix: impl Into<String>) -> Self {
        Self {
            ok: false,
            what: what.into(),
            fix: Some(fix.into()),
        }
    }
}

const START_HINT: &str = "start Firefox with the Claudezilla extension (`cargo xtask run` from the repository does it), \
     and check the extension is enabled in about:addons";

pub fn check(home: &Path, runtime: &RuntimeDir) -> Vec<Check> {
    let mut checks = vec![check_manifest(home)];
    checks.extend(check_connection(runtime));
    checks
}

fn check_manifest(home: &Path) -> Check {
    let path = manifest::manifest_path(home);
    let reinstall = "run `claudezilla-host install` (from the binary you want Firefox to start)";
    let m = match manifest::read(home) {
        Ok(m) => m,
        Err(e) => {
            return Check::bad(
                format!("native-messaging manifest {}: {e}", path.display()),
                reinstall,
            );
        }
    };
    let executable = std::fs::metadata(&m.path)
        .is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0);
    if !executable {
        return Check::bad(
            format!(
                "manifest {} points to {}, which is not an executable file",
                path.display(),
                m.path.display()
            ),
            reinstall,
        );
    }
    if !m.allowed_extensions.iter().any(|id| id == EXTENSION_ID) {
        return Check::bad(
            format!(
                "manifest {} does not allow the extension {EXTENSION_ID} (it allows {:?})",
                path.display(),
                m.allowed_extensions
            ),
            reinstall,
        );
    }
    Check::ok(format!(
        "manifest {} → {}",
        path.display(),
        m.path.display()
    ))
}

fn check_connection(runtime: &RuntimeDir) -> Vec<Check> {
    let socket = runtime.socket();
    if !socket.exists() {
        return vec![Check::bad(
            format!(
                "no host socket at {}: Firefox is not running, or the extension has not connected",
                socket.display()
            ),
            START_HINT,
        )];
    }
    let token = match runtime.read_token() {
        Ok(t) => t,
        Err(e) => {
            return vec![Check::bad(
                format!("cannot read the token {}: {e}", runtime.token().display()),
                "run this as the user who runs Firefox",
            )];
        }
    };
    match ping(&socket, &token) {
        Ok((host_version, extension_version, rtt)) => vec![
            Check::ok(format!(
                "host {host_version} listening at {}",
                socket.display()
            )),
            Check::ok(format!(
                "extension {extension_version} connected (ping {:.1} ms)",
                rtt.as_secs_f64() * 1e3
            )),
        ],
        Err(e) => vec![Check::bad(
            format!("host at {} did not answer: {e}", socket.display()),
            START_HINT,
        )],
    }
}

/// Says hello and pings the extension through the host.
fn ping(socket: &Path, token: &str) -> Result<(String, String, Duration), String> {
    let mut stream = UnixStream::connect(socket).map_err(|e| format!("connect: {e}"))?;
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .map_err(|e| e.to_string())?;
    let mut random = [0u8; 16];
    getrandom::fill(&mut random).map_err(|e| e.to_string())?;
    let agent_id = AgentId::new(random, std::process::id());
    let hello = ClientMessage::Hello {
        token: token.into(),
        agent_id: agent_id.clone(),
        client: "claudezilla-host status".into(),
    };
    send(&mut stream, &hello)?;
    let mut decoder = FrameDecoder::new(MAX_SOCKET_FRAME);
    let host_version = match recv(&mut stream, &mut decoder)? {
        HostMessage::Welcome { host_version, .. } => host_version,
        HostMessage::Refused(e) => return Err(e.to_string()),
        HostMessage::Response(_) => return Err("unexpected response before welcome".into()),
    };
    let started = Instant::now();
    send(
        &mut stream,
        &ClientMessage::Request(Request {
            id: 1,
            agent_id,
            timeout_ms: 5_000,
            command: Command::Ping,
        }),
    )?;
    match recv(&mut stream, &mut decoder)? {
        HostMessage::Response(Response {
            outcome: Ok(Reply::Pong { version }),
            ..
        }) => Ok((host_version, version, started.elapsed())),
        HostMessage::Response(Response {
            outcome: Err(e), ..
        }) => Err(e.to_string()),
        other => Err(format!("unexpected answer {other:?}")),
    }
}

fn send(stream: &mut UnixStream, msg: &ClientMessage) -> Result<(), String> {
    let frame = encode_frame(msg, MAX_SOCKET_FRAME).map_err(|e| e.to_string())?;
    stream.write_all(&frame).map_err(|e| format!("write: {e}"))
}

fn recv(stream: &mut UnixStream, decoder: &mut FrameDecoder) -> Result<HostMessage, String> {
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
