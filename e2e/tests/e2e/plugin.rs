//! Issue 14: the Claude Code plugin, installed with the real CLI (npm `@anthropic-ai/claude-code`,
//! pinned by `cargo xtask test`) in a HOME of its own: it validates, its MCP server connects, and
//! its Stop hook runs the built host.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, bail, ensure};
use claudezilla_e2e::{binary, root};

/// The CLI `cargo xtask test` installed (`CLAUDE_CLI`), else where it installs it.
fn claude_cli() -> anyhow::Result<PathBuf> {
    let cli = std::env::var_os("CLAUDE_CLI")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/claude-code/node_modules/.bin/claude"));
    ensure!(
        cli.exists(),
        "no Claude Code CLI at {} (cargo xtask test installs it)",
        cli.display()
    );
    Ok(cli)
}

struct Claude {
    cli: PathBuf,
    home: tempfile::TempDir,
    /// Holds the binaries, as `cargo xtask install` links them into ~/.local/bin.
    bin: PathBuf,
}

impl Claude {
    fn new() -> anyhow::Result<Self> {
        let home = tempfile::tempdir()?;
        let bin = home.path().join(".local/bin");
        std::fs::create_dir_all(&bin)?;
        for name in ["claudezilla-mcp", "claudezilla-host"] {
            std::os::unix::fs::symlink(binary(name), bin.join(name))?;
        }
        Ok(Self {
            cli: claude_cli()?,
            home,
            bin,
        })
    }

    fn path(&self) -> String {
        let system = std::env::var("PATH").unwrap_or_default();
        format!("{}:{system}", self.bin.display())
    }

    fn command(&self, program: &Path) -> Command {
        let mut c = Command::new(program);
        c.env("HOME", self.home.path())
            .env("PATH", self.path())
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .env("DISABLE_TELEMETRY", "1")
            .env("DISABLE_AUTOUPDATER", "1")
            .env(
                "CLAUDEZILLA_RUNTIME_DIR",
                self.home.path().join("no-browser"),
            )
            .current_dir(self.home.path())
            .stdin(Stdio::null());
        c
    }

    /// Runs `claude ARGS`; its output, or an error with it.
    fn run(&self, args: &[&str]) -> anyhow::Result<String> {
        let out = self
            .command(&self.cli)
            .args(args)
            .output()
            .with_context(|| format!("cannot run {}", self.cli.display()))?;
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        if !out.status.success() {
            bail!("claude {args:?} failed ({}):\n{text}", out.status);
        }
        Ok(text)
    }
}

pub async fn installs_and_connects_with_the_real_cli() -> anyhow::Result<()> {
    tokio::task::spawn_blocking(install_connect_uninstall).await?
}

fn install_connect_uninstall() -> anyhow::Result<()> {
    let claude = Claude::new()?;
    let repo = root().to_string_lossy().into_owned();
    let valid = claude.run(&["plugin", "validate", &repo])?;
    ensure!(valid.contains("Validation passed"), "{valid}");
    let plugin = root().join("claude-plugin").to_string_lossy().into_owned();
    let valid = claude.run(&["plugin", "validate", &plugin])?;
    ensure!(valid.contains("Validation passed"), "{valid}");

    claude.run(&["plugin", "marketplace", "add", &repo])?;
    claude.run(&["plugin", "install", "claudezilla@claudezilla"])?;
    let details = claude.run(&["plugin", "details", "claudezilla"])?;
    ensure!(
        details.contains("Hooks (1)")
            && details.contains("Stop")
            && details.contains("MCP servers (1)"),
        "{details}"
    );
    let listed = claude.run(&["mcp", "list"])?;
    ensure!(
        listed
            .lines()
            .any(|l| l.contains("claudezilla-mcp") && l.contains("Connected")),
        "the plugin's server is not connected:\n{listed}"
    );

    stop_hook_runs_the_built_host(&claude)?;

    claude.run(&["plugin", "uninstall", "claudezilla@claudezilla"])?;
    let listed = claude.run(&["mcp", "list"])?;
    ensure!(!listed.contains("claudezilla-mcp"), "{listed}");
    Ok(())
}

/// The installed hook's command resolves to the built host, and with no loop (and no browser)
/// it lets the session stop: exit 0, no decision printed.
fn stop_hook_runs_the_built_host(claude: &Claude) -> anyhow::Result<()> {
    let hooks = find(&claude.home.path().join(".claude/plugins"), "hooks.json")
        .context("the installed plugin has no hooks.json")?;
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&hooks)?)?;
    let command = json["hooks"]["Stop"][0]["hooks"][0]["command"]
        .as_str()
        .context("no Stop hook command")?;
    let program = command.split_whitespace().next().unwrap_or_default();
    let resolved = claude.bin.join(program).canonicalize()?;
    ensure!(
        resolved == binary("claudezilla-host").canonicalize()?,
        "{command} runs {}",
        resolved.display()
    );
    let mut hook = claude.command(Path::new("sh"));
    let mut child = hook
        .args(["-c", command])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let input = r#"{"session_id":"s1","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"done"}"#;
    std::io::Write::write_all(&mut child.stdin.take().context("stdin")?, input.as_bytes())?;
    let out = child.wait_with_output()?;
    ensure!(
        out.status.success() && out.stdout.is_empty(),
        "the hook should let the session stop: {out:?}"
    );
    Ok(())
}

/// The first file named `name` under `dir`.
fn find(dir: &Path, name: &str) -> Option<PathBuf> {
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if let Some(found) = find(&path, name) {
                return Some(found);
            }
        } else if entry.file_name() == name {
            return Some(path);
        }
    }
    None
}
