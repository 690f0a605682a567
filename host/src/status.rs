//! `claudezilla-host status`: what is installed, whether the extension is connected, and the fix
//! for each problem found.

// Checks installed files exist and reads the token: one of the host's named file I/O modules.
#![allow(clippy::disallowed_methods)]

use claudezilla_protocol::reply;
use std::path::Path;
use std::time::{Duration, Instant};

use claudezilla_protocol::paths::RuntimeDir;
use claudezilla_protocol::{EXTENSION_ID, asks};

use crate::client::CallError;
use crate::{client, manifest};

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

/// `base`: the folder the manifest lives under ([`manifest::base_dir`]).
pub fn check(base: &Path, runtime: &RuntimeDir) -> Vec<Check> {
    let mut checks = vec![check_manifest(base)];
    checks.extend(check_connection(runtime));
    checks
}

fn check_manifest(base: &Path) -> Check {
    let path = manifest::manifest_path(base);
    let reinstall = "run `claudezilla-host install` (from the binary you want Firefox to start)";
    let m = match manifest::read(base) {
        Ok(m) => m,
        Err(e) => {
            return Check::bad(
                format!("native-messaging manifest {}: {e}", path.display()),
                reinstall,
            );
        }
    };
    if !executable(&m.path) {
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

#[cfg(unix)]
fn executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(windows)]
fn executable(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("exe"))
        && std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

/// Where a running host listens: its socket, or on Windows the pipe its file names.
#[cfg(unix)]
fn listening(runtime: &RuntimeDir) -> Result<String, String> {
    let socket = runtime.socket();
    match socket.exists() {
        true => Ok(socket.display().to_string()),
        false => Err(format!("no host socket at {}", socket.display())),
    }
}

#[cfg(windows)]
fn listening(runtime: &RuntimeDir) -> Result<String, String> {
    let file = runtime.pipe_file();
    runtime
        .read_pipe_name()
        .map(|pipe| pipe.to_string())
        .map_err(|e| format!("no host pipe named in {}: {e}", file.display()))
}

fn check_connection(runtime: &RuntimeDir) -> Vec<Check> {
    let at = match listening(runtime) {
        Ok(at) => at,
        Err(none) => {
            return vec![Check::bad(
                format!("{none}: Firefox is not running, or the extension has not connected"),
                START_HINT,
            )];
        }
    };
    if let Err(e) = runtime.verify() {
        return vec![Check::bad(
            e.to_string(),
            "run this as the user who runs Firefox; if the folder is not yours, remove it",
        )];
    }
    if let Err(e) = runtime.read_token() {
        return vec![Check::bad(
            format!("cannot read the token {}: {e}", runtime.token().display()),
            "run this as the user who runs Firefox",
        )];
    }
    match ping(runtime) {
        Ok((host_version, extension_version, rtt)) => vec![
            Check::ok(format!("host {host_version} listening at {at}")),
            Check::ok(format!(
                "extension {extension_version} connected (ping {:.1} ms)",
                rtt.as_secs_f64() * 1e3
            )),
        ],
        Err(CallError::Untrusted(e)) => vec![Check::bad(
            format!("refused to talk to {at}: {e}"),
            "another user's program may hold the host's name: close Firefox, remove the runtime folder, and start Firefox again",
        )],
        Err(e) => vec![Check::bad(
            format!("host at {at} did not answer: {e}"),
            START_HINT,
        )],
    }
}

/// Says hello and pings the extension through the host.
fn ping(runtime: &RuntimeDir) -> Result<(String, String, Duration), CallError> {
    let started = Instant::now();
    match client::ask::<asks::Ping>(runtime, "claudezilla-host status", ())? {
        (host_version, Ok(reply::Pong { version })) => {
            Ok((host_version, version, started.elapsed()))
        }
        (_, Err(e)) => Err(CallError::Failed(e.to_string())),
    }
}
