//! `claudezilla-host`: started by Firefox (argv: manifest path, extension id) to relay; or
//! `install | uninstall | status` from a terminal, or `stop-hook` from Claude Code.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use claudezilla_host::{Config, manifest, status};
use claudezilla_protocol::EXTENSION_ID;
use claudezilla_protocol::paths::RuntimeDir;

const USAGE: &str = "claudezilla-host — Claudezilla's native-messaging host

Firefox starts it by itself. From a terminal:
  claudezilla-host install [--extension-id ID]   register this binary with Firefox
  claudezilla-host uninstall                     remove the registration
  claudezilla-host status                        what is installed and connected, with fixes
  claudezilla-host stop-hook                     Claude Code Stop hook for focus loops (reads the hook's JSON on stdin)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("install") => install(&args[1..]),
        Some("uninstall") => uninstall(),
        Some("status") => return status(),
        Some("stop-hook") => return stop_hook(),
        Some("--version" | "-V") => {
            println!("claudezilla-host {}", claudezilla_protocol::VERSION);
            Ok(())
        }
        Some("--help" | "-h") => {
            println!("{USAGE}");
            Ok(())
        }
        // Started by hand with nothing to relay: say what to do instead of waiting on a terminal.
        None if std::io::stdin().is_terminal() => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
        _ => relay(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("claudezilla-host: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn relay() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("CLAUDEZILLA_LOG")
                .unwrap_or_else(|_| "info".into()),
        )
        .init();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        let (ext_in, ext_out) = extension_pipes();
        let ended = async {
            claudezilla_protocol::signals::asked_to_end().await;
            tracing::info!("asked to end; exiting");
        };
        claudezilla_host::run(Config::from_env(), ext_in, ext_out, ended).await
    })?;
    // stdin's blocking reader may still be parked in a read: do not wait for it.
    std::process::exit(0)
}

type Reader = Box<dyn tokio::io::AsyncRead + Unpin>;
type Writer = Box<dyn tokio::io::AsyncWrite + Unpin + Send>;

/// stdin/stdout as non-blocking pipes on the I/O reactor when they are pipes (as Firefox makes
/// them on Linux): no hand-off to a blocking thread per frame. They are reopened through /proc
/// so the non-blocking flag stays on our own file descriptions.
#[cfg(unix)]
#[allow(clippy::disallowed_methods)] // stdin and stdout, reopened: no file of the user's.
fn extension_pipes() -> (Reader, Writer) {
    use tokio::net::unix::pipe;
    let reopened = (
        std::fs::File::open("/proc/self/fd/0").and_then(pipe::Receiver::from_file),
        std::fs::OpenOptions::new()
            .write(true)
            .open("/proc/self/fd/1")
            .and_then(pipe::Sender::from_file),
    );
    match reopened {
        (Ok(input), Ok(output)) => (Box::new(input), Box::new(output)),
        _ => (Box::new(tokio::io::stdin()), Box::new(tokio::io::stdout())),
    }
}

/// Firefox's pipes on Windows are anonymous pipes, which cannot join the I/O reactor.
#[cfg(windows)]
fn extension_pipes() -> (Reader, Writer) {
    (Box::new(tokio::io::stdin()), Box::new(tokio::io::stdout()))
}

fn install(args: &[String]) -> anyhow::Result<()> {
    let extension_id = match args {
        [] => EXTENSION_ID.to_owned(),
        [flag, id] if flag == "--extension-id" && !id.is_empty() => id.clone(),
        _ => bail!("usage: claudezilla-host install [--extension-id ID]"),
    };
    // dunce: Windows' canonical form (`\\?\C:\…`) is not a path Firefox starts.
    let host: PathBuf = std::env::current_exe()
        .and_then(dunce::canonicalize)
        .context("cannot find this binary's path")?;
    let path = manifest::install(&manifest::base_dir()?, &host, &extension_id)
        .context("cannot write the native-messaging manifest")?;
    println!(
        "Registered {} for extension {extension_id}\n  manifest: {}",
        host.display(),
        path.display()
    );
    Ok(())
}

fn uninstall() -> anyhow::Result<()> {
    let base = manifest::base_dir()?;
    if manifest::uninstall(&base)? {
        let key = if cfg!(windows) {
            format!(" and HKCU\\{}", manifest::REGISTRY_KEY)
        } else {
            String::new()
        };
        println!(
            "Removed the registration: {}{key}",
            manifest::manifest_path(&base).display()
        );
    } else {
        println!(
            "Nothing to remove: {} does not exist",
            manifest::manifest_path(&base).display()
        );
    }
    Ok(())
}

/// Always exits 0: a failing Stop hook must not trap the user's session; problems go to stderr.
fn stop_hook() -> ExitCode {
    let mut input = String::new();
    if let Err(e) = std::io::Read::read_to_string(&mut std::io::stdin(), &mut input) {
        eprintln!("claudezilla stop-hook: cannot read stdin: {e}");
        return ExitCode::SUCCESS;
    }
    match claudezilla_host::stop_hook::run(&input, &RuntimeDir::from_env()) {
        Ok(Some(decision)) => println!("{decision}"),
        Ok(None) => {}
        Err(e) => eprintln!("claudezilla stop-hook: {e} (letting the session stop)"),
    }
    ExitCode::SUCCESS
}

fn status() -> ExitCode {
    let base = match manifest::base_dir() {
        Ok(h) => h,
        Err(e) => {
            eprintln!("claudezilla-host: {e}");
            return ExitCode::FAILURE;
        }
    };
    let checks = status::check(&base, &RuntimeDir::from_env());
    for c in &checks {
        println!("{} {}", if c.ok { "ok " } else { "ERR" }, c.what);
        if let Some(fix) = &c.fix {
            println!("    fix: {fix}");
        }
    }
    if checks.iter().all(|c| c.ok) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
