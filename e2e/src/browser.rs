//! A headless Firefox ESR with the extension loaded through its profile (see
//! ../shared/notes/firefox-headless-e2e.md), killed with its whole process group on drop.

use std::fs;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use anyhow::{Context, bail};
use claudezilla_protocol::EXTENSION_ID;
use claudezilla_protocol::paths::RuntimeDir;

use crate::{binary, eventually, root};

/// Prefs that let an unsigned extension load and keep Firefox off the network and quiet.
const PREFS: &[(&str, &str)] = &[
    ("xpinstall.signatures.required", "false"),
    ("extensions.autoDisableScopes", "0"),
    ("extensions.enabledScopes", "15"),
    ("startup.homepage_welcome_url", "\"about:blank\""),
    ("browser.startup.homepage", "\"about:blank\""),
    ("browser.newtabpage.enabled", "false"),
    ("browser.aboutwelcome.enabled", "false"),
    (
        "datareporting.policy.dataSubmissionPolicyBypassNotification",
        "true",
    ),
    ("datareporting.healthreport.uploadEnabled", "false"),
    ("toolkit.telemetry.enabled", "false"),
    ("browser.startup.homepage_override.mstone", "\"ignore\""),
    ("browser.shell.checkDefaultBrowser", "false"),
    ("termsofuse.bypassNotification", "true"),
    ("app.update.disabledForTesting", "true"),
    ("app.update.auto", "false"),
    ("extensions.update.enabled", "false"),
    ("media.gmp-manager.updateEnabled", "false"),
    ("browser.safebrowsing.malware.enabled", "false"),
    ("browser.safebrowsing.phishing.enabled", "false"),
    ("browser.safebrowsing.downloads.enabled", "false"),
    ("app.normandy.enabled", "false"),
    ("network.captive-portal-service.enabled", "false"),
    ("network.connectivity-service.enabled", "false"),
    ("dom.push.enabled", "false"),
    (
        "services.settings.server",
        "\"data:,#remote-settings-disabled\"",
    ),
    ("browser.tabs.warnOnClose", "false"),
    ("browser.sessionstore.resume_from_crash", "false"),
    // The extension's console messages go to Firefox's output, which failing tests print.
    ("devtools.console.stdout.chrome", "true"),
    ("devtools.console.stdout.content", "true"),
];

/// The extension's internal UUID in test profiles (`extensions.webextensions.uuids`), so its
/// pages have a known address: `moz-extension://<uuid>/popup/popup.html`.
pub const EXTENSION_UUID: &str = "6b1c5f0e-9d3a-4c27-8e41-2f5a7c9d0b13";

/// How a test's Firefox differs from the default one.
#[derive(Debug, Default, Clone)]
pub struct Options {
    /// Extra environment for Firefox (and so for the host it starts), e.g. shorter timings.
    pub env: Vec<(String, String)>,
    /// Extra prefs (`user.js` values, written as JavaScript literals).
    pub prefs: Vec<(String, String)>,
    /// Listen for Marionette (to act in the browser's UI as the user, see [`crate::marionette`]).
    pub marionette: bool,
    /// Another build of the extension (a folder like `extension-shell`, with its `wasm/`), for
    /// comparing builds in one run; else this repository's.
    pub extension: Option<PathBuf>,
    /// That build's `claudezilla-host` and `claudezilla-mcp` (its `target/release` folder), for
    /// a build whose MCP server and extension speak another wire; else this repository's.
    pub binaries: Option<PathBuf>,
}

pub struct Browser {
    dir: tempfile::TempDir,
    child: Option<Child>,
    pub runtime: RuntimeDir,
    options: Options,
}

impl Browser {
    /// Folders and host registration, without starting Firefox (see [`Browser::launch`]).
    pub fn prepare(options: Options) -> anyhow::Result<Self> {
        // Unix socket paths are short: keep the folder directly in /tmp.
        let dir = tempfile::Builder::new().prefix("cz").tempdir_in("/tmp")?;
        let runtime = RuntimeDir::at(dir.path().join("rt"));
        let profile = dir.path().join("profile");
        fs::create_dir_all(profile.join("extensions"))?;
        fs::create_dir_all(dir.path().join("home"))?;
        let uuids = format!(
            "{:?}",
            format!("{{\"{EXTENSION_ID}\":\"{EXTENSION_UUID}\"}}")
        );
        let mut prefs: String = PREFS
            .iter()
            .map(|(k, v)| format!("user_pref(\"{k}\", {v});\n"))
            .collect();
        prefs.push_str(&format!(
            "user_pref(\"extensions.webextensions.uuids\", {uuids});\n"
        ));
        if options.marionette {
            prefs.push_str("user_pref(\"marionette.port\", 0);\n");
        }
        for (k, v) in &options.prefs {
            prefs.push_str(&format!("user_pref(\"{k}\", {v});\n"));
        }
        fs::write(profile.join("user.js"), prefs)?;
        // A proxy file named after the id that holds the unpacked extension's path.
        let extension = options
            .extension
            .clone()
            .unwrap_or_else(|| root().join("extension-shell"));
        fs::write(
            profile.join("extensions").join(EXTENSION_ID),
            extension.to_string_lossy().as_bytes(),
        )?;
        let out = Command::new(binary_of(&options, "claudezilla-host"))
            .arg("install")
            .env("HOME", dir.path().join("home"))
            .output()?;
        if !out.status.success() {
            bail!(
                "claudezilla-host install failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        Ok(Self {
            dir,
            child: None,
            runtime,
            options,
        })
    }

    /// Prepares and launches, then waits until the extension has connected to the host.
    pub async fn start() -> anyhow::Result<Self> {
        Self::start_with(&[]).await
    }

    /// [`start`](Self::start) with extra environment for Firefox and the host.
    pub async fn start_with(env: &[(&str, &str)]) -> anyhow::Result<Self> {
        let env = env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Self::start_with_options(Options {
            env,
            ..Options::default()
        })
        .await
    }

    pub async fn start_with_options(options: Options) -> anyhow::Result<Self> {
        let mut browser = Self::prepare(options)?;
        browser.launch().await?;
        Ok(browser)
    }

    /// Acts in this browser's UI as the user (it must have been started with `marionette`).
    pub async fn marionette(&self) -> anyhow::Result<crate::marionette::Marionette> {
        crate::marionette::Marionette::connect(&self.dir.path().join("profile")).await
    }

    /// A new MCP server on this browser's host, logging to `mcp-NAME.log` in its folder.
    pub async fn agent(&self, name: &str) -> anyhow::Result<crate::agent::Agent> {
        let log = self.path().join(format!("mcp-{name}.log"));
        let project = log.parent().context("the log has no folder")?.to_owned();
        self.agent_in(name, &project).await
    }

    /// [`Browser::agent`] whose project folder (where files may be read and written) is
    /// `project`.
    pub async fn agent_in(
        &self,
        name: &str,
        project: &Path,
    ) -> anyhow::Result<crate::agent::Agent> {
        let log = self.path().join(format!("mcp-{name}.log"));
        let mcp = binary_of(&self.options, "claudezilla-mcp");
        crate::agent::Agent::spawn_from(&mcp, self.runtime.path(), &log, &[], project).await
    }

    /// The address of one of the extension's own pages (`popup/popup.html`).
    pub fn extension_page(path: &str) -> String {
        format!("moz-extension://{EXTENSION_UUID}/{path}")
    }

    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    fn log_path(&self) -> PathBuf {
        self.dir.path().join("firefox.log")
    }

    /// Firefox's output so far, for failure messages.
    pub fn log(&self) -> String {
        fs::read_to_string(self.log_path()).unwrap_or_default()
    }

    pub async fn launch(&mut self) -> anyhow::Result<()> {
        let log = fs::File::create(self.log_path())?;
        let firefox = std::env::var("FIREFOX").unwrap_or_else(|_| "firefox-esr".into());
        let mut command = Command::new(&firefox);
        command
            .args(["--headless", "--no-remote", "--profile"])
            .arg(self.dir.path().join("profile"));
        if self.options.marionette {
            command.args(["--marionette", "-remote-allow-system-access"]);
        }
        let child = command
            .arg("about:blank")
            .env("HOME", self.home())
            .env("CLAUDEZILLA_RUNTIME_DIR", self.runtime.path())
            .env("CLAUDEZILLA_LOG", "debug")
            .env("MOZ_DISABLE_NONLOCAL_CONNECTIONS", "1")
            .env("MOZ_CRASHREPORTER_DISABLE", "1")
            .env("MOZ_HEADLESS_WIDTH", "1280")
            .env("MOZ_HEADLESS_HEIGHT", "800")
            .envs(self.options.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log)
            .process_group(0)
            .spawn()
            .with_context(|| format!("cannot start {firefox}"))?;
        self.child = Some(child);
        let connected = eventually(
            Duration::from_secs(45),
            "the extension to connect",
            async || self.status_ok().then_some(()),
        )
        .await;
        connected.with_context(|| format!("Firefox log:\n{}", self.log()))
    }

    /// `claudezilla-host status` with this browser's HOME and runtime dir: true once the
    /// extension answers a ping through the host.
    pub fn status_ok(&self) -> bool {
        self.status().0
    }

    pub fn status(&self) -> (bool, String) {
        let out = Command::new(binary_of(&self.options, "claudezilla-host"))
            .arg("status")
            .env("HOME", self.home())
            .env("CLAUDEZILLA_RUNTIME_DIR", self.runtime.path())
            .output();
        match out {
            Ok(o) => (
                o.status.success(),
                String::from_utf8_lossy(&o.stdout).into_owned(),
            ),
            Err(e) => (false, e.to_string()),
        }
    }

    pub fn pid(&self) -> Option<i32> {
        self.child.as_ref().map(|c| c.id() as i32)
    }

    /// Sends `signal` to Firefox's main process only.
    pub fn signal(&self, signal: i32) {
        if let Some(pid) = self.pid() {
            // SAFETY: plain kill(2) on a pid we spawned.
            unsafe { libc::kill(pid, signal) };
        }
    }

    /// Every live process of this browser's process group (Firefox, its children, the host).
    pub fn group_processes(&self) -> Vec<(i32, String)> {
        let Some(pgid) = self.pid() else {
            return Vec::new();
        };
        processes()
            .into_iter()
            .filter(|p| p.pgid == pgid)
            .map(|p| (p.pid, p.cmdline))
            .collect()
    }

    /// Reaps Firefox after it was told to stop; true if it exited within `limit`.
    pub async fn wait_exit(&mut self, limit: Duration) -> bool {
        let Some(child) = self.child.as_mut() else {
            return true;
        };
        eventually(limit, "Firefox to exit", async || {
            child.try_wait().ok().flatten().map(|_| ())
        })
        .await
        .is_ok()
    }

    /// The host process started for this browser, found by its runtime dir in its environment.
    pub fn host_pids(&self) -> Vec<i32> {
        let rt = self.runtime.path().to_string_lossy().into_owned();
        processes()
            .into_iter()
            .filter(|p| {
                p.cmdline.contains("claudezilla-host")
                    && p.environ_has(&format!("CLAUDEZILLA_RUNTIME_DIR={rt}"))
            })
            .map(|p| p.pid)
            .collect()
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let Some(mut child) = self.child.take() else {
            return;
        };
        let pgid = child.id() as i32;
        // SAFETY: signalling the process group we created with process_group(0).
        unsafe { libc::killpg(pgid, libc::SIGKILL) };
        let _ = child.wait();
    }
}

pub struct Process {
    pub pid: i32,
    pub pgid: i32,
    pub cmdline: String,
}

impl Process {
    fn environ_has(&self, entry: &str) -> bool {
        fs::read(format!("/proc/{}/environ", self.pid))
            .map(|env| env.split(|b| *b == 0).any(|e| e == entry.as_bytes()))
            .unwrap_or(false)
    }
}

/// Every process on the machine (from /proc), skipping zombies.
pub fn processes() -> Vec<Process> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| {
            let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // Fields after the command name, which is in parentheses and may hold spaces.
            let rest = &stat[stat.rfind(')')? + 2..];
            let mut fields = rest.split(' ');
            let state = fields.next()?;
            let pgid = fields.nth(1)?.parse().ok()?;
            if state == "Z" {
                return None;
            }
            let cmdline = fs::read(format!("/proc/{pid}/cmdline")).ok()?;
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            Some(Process { pid, pgid, cmdline })
        })
        .collect()
}

/// `name` from the build the options name, else this repository's.
fn binary_of(options: &Options, name: &str) -> PathBuf {
    match &options.binaries {
        Some(folder) => folder.join(name),
        None => binary(name),
    }
}
