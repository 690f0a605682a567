//! `claudezilla-host status`: what is installed, whether the extension is connected, and the fix
//! for each problem found.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

use claudezilla_protocol::paths::RuntimeDir;
use claudezilla_protocol::{Command, EXTENSION_ID, Reply};

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
fn ping(runtime: &RuntimeDir) -> Result<(String, String, Duration), String> {
    let started = Instant::now();
    match client::call(runtime, "claudezilla-host status", Command::Ping)? {
        (host_version, Ok(Reply::Pong { version })) => {
            Ok((host_version, version, started.elapsed()))
        }
        (_, Err(e)) => Err(e.to_string()),
        (_, Ok(other)) => Err(format!("unexpected answer {other:?}")),
    }
}
