//! `install` and `uninstall`: what a user's machine gets — the native-messaging registration,
//! the two binaries on PATH (for the Claude Code plugin), and Claude Code's configuration.

use std::path::{Path, PathBuf};

use crate::sh::{self, Result, cmd, root};

/// The marketplace and plugin this repository declares (`.claude-plugin/marketplace.json`).
const PLUGIN: &str = "claudezilla@claudezilla";
const MARKETPLACE: &str = "claudezilla";
const BINARIES: [&str; 2] = ["claudezilla-mcp", "claudezilla-host"];

/// Where the binaries are linked: the per-user bin folder Claude Code's own installer uses,
/// so the plugin's `claudezilla-mcp` and `claudezilla-host stop-hook` resolve on PATH.
fn bin_dir() -> Result<PathBuf> {
    let var = if cfg!(windows) { "USERPROFILE" } else { "HOME" };
    let home = std::env::var_os(var).ok_or(format!("{var} is not set"))?;
    Ok(PathBuf::from(home).join(".local").join("bin"))
}

pub fn built(name: &str) -> PathBuf {
    root()
        .join("target/release")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX))
}

/// Registers the host with Firefox and links the binaries into `~/.local/bin`; prints both
/// ways to connect Claude Code.
pub fn install() -> Result {
    let host = built("claudezilla-host");
    sh::run(cmd(&host.to_string_lossy(), &["install"]))?;
    let bin = bin_dir()?;
    std::fs::create_dir_all(&bin).map_err(|e| format!("cannot create {}: {e}", bin.display()))?;
    for name in BINARIES {
        link(
            &built(name),
            &bin.join(built(name).file_name().unwrap_or_default()),
        )?;
    }
    let on_path =
        std::env::var_os("PATH").is_some_and(|path| std::env::split_paths(&path).any(|p| p == bin));
    if !on_path {
        println!(
            "Note: {} is not on your PATH; add it (the plugin finds the binaries there).",
            bin.display()
        );
    }
    Ok(())
}

/// How to connect Claude Code, both ways.
pub fn connect_help() -> String {
    format!(
        "Connect Claude Code — either the plugin (MCP server and the focus-loop Stop hook):\n\n  \
         claude plugin marketplace add {root}\n  claude plugin install {PLUGIN}\n\n\
         or only the MCP server:\n\n  claude mcp add --scope user claudezilla -- {mcp}\n",
        root = root().display(),
        mcp = built("claudezilla-mcp").display(),
    )
}

/// `dest` → `target`, replacing an older link to a Claudezilla build (another checkout, say)
/// but never anything else of the user's. On Windows, where a symlink needs a privilege most
/// users lack, a copy: run `cargo xtask install` again after a rebuild.
fn link(target: &Path, dest: &Path) -> Result {
    let to_a_build = ours(target, dest, false);
    match std::fs::symlink_metadata(dest) {
        Ok(_) if to_a_build => std::fs::remove_file(dest)
            .map_err(|e| format!("cannot replace {}: {e}", dest.display()))?,
        Ok(_) => {
            return Err(format!(
                "{} exists and is not a link to a Claudezilla build; remove it, or link {} there yourself",
                dest.display(),
                target.display()
            ));
        }
        Err(_) => {}
    }
    #[cfg(unix)]
    std::os::unix::fs::symlink(target, dest)
        .map_err(|e| format!("cannot link {}: {e}", dest.display()))?;
    #[cfg(windows)]
    std::fs::copy(target, dest).map_err(|e| format!("cannot copy to {}: {e}", dest.display()))?;
    println!("Linked {} → {}", dest.display(), target.display());
    Ok(())
}

/// Whether `dest` is what `install` put there for `target`: a link to this build (`exact`) or
/// to any Claudezilla build; on Windows a copy with the same name (`exact`: the same bytes).
fn ours(target: &Path, dest: &Path, exact: bool) -> bool {
    if cfg!(windows) {
        let same_name = dest.file_name() == target.file_name();
        return same_name && (!exact || std::fs::read(dest).ok() == std::fs::read(target).ok());
    }
    std::fs::read_link(dest).is_ok_and(|to| match exact {
        true => to == target,
        false => to.file_name() == target.file_name(),
    })
}

/// Undoes `install` and the Claude Code configuration, saying what it removed.
pub fn uninstall() -> Result {
    let host = built("claudezilla-host");
    if host.exists() {
        sh::run(cmd(&host.to_string_lossy(), &["uninstall"]))?;
    } else {
        println!(
            "{} is not built: remove the native-messaging manifest (Linux: ~/.mozilla/native-messaging-hosts/claudezilla.json) by hand if it exists",
            host.display()
        );
    }
    let bin = bin_dir()?;
    for name in BINARIES {
        let target = built(name);
        let dest = bin.join(target.file_name().unwrap_or_default());
        if ours(&target, &dest, true) {
            std::fs::remove_file(&dest)
                .map_err(|e| format!("cannot remove {}: {e}", dest.display()))?;
            println!("Removed {}", dest.display());
        }
    }
    let Some(claude) = claude_cli() else {
        println!("Claude Code's CLI (claude) is not on PATH: nothing to remove from its settings");
        return Ok(());
    };
    let steps: [(&[&str], &str); 3] = [
        (&["plugin", "uninstall", PLUGIN], "the plugin"),
        (
            &["plugin", "marketplace", "remove", MARKETPLACE],
            "the marketplace",
        ),
        (
            &["mcp", "remove", "--scope", "user", "claudezilla"],
            "the MCP server entry",
        ),
    ];
    for (args, what) in steps {
        let done = cmd(&claude, args)
            .output()
            .map_err(|e| format!("cannot run {claude}: {e}"))?;
        if done.status.success() {
            println!("Removed {what} from Claude Code");
        } else {
            println!("Claude Code had no {what} to remove");
        }
    }
    Ok(())
}

/// The `claude` CLI: `$CLAUDE_CLI`, else on PATH.
fn claude_cli() -> Option<String> {
    std::env::var("CLAUDE_CLI")
        .ok()
        .or_else(|| sh::exists("claude").then(|| "claude".to_owned()))
}
