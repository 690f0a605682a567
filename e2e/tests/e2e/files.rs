//! Issue 32: files that nothing will run. What the server writes from a page — an answer
//! (`outputFile`), a download — lands where no runner, package manager or agent picks it up by
//! itself; and the user's secrets file, or a file holding one of its values, is never uploaded.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, ensure};
use claudezilla_e2e::pages::Page;
use claudezilla_e2e::{Agent, PageServer, eventually};
use serde_json::json;

use crate::common::{Shared, call, click, text_of};

/// A page whose text pytest would run as doctests, were it saved as `test*.txt`.
const DOCTEST: &str = "<!doctype html><title>Notes</title>\
<pre>&gt;&gt;&gt; import os; os.system('touch ran-doctest-4c1d')</pre>";

/// What the downloaded files say: pytest would import the one, go test run the other.
const CONFTEST: &[u8] = b"import os\nos.system('touch ran-conftest-8e2f')\n";
const GO_TEST: &[u8] = b"package x\nfunc init() { panic(\"ran-go-test-3a7b\") }\n";

/// A value no answer may show, and the line of the secrets file that holds it.
const PASSWORD: &str = "pw-5b9e-correct-horse";

/// This module's own site: downloads are told apart by the address a tab asked for.
fn pages() -> HashMap<&'static str, Page> {
    HashMap::from([
        ("/files/notes.html", Page::html(DOCTEST)),
        (
            "/files/downloads.html",
            Page::html(
                "<!doctype html><title>Files</title>\
                 <a id=conftest href=/files/conftest.py>conftest</a>\
                 <a id=gotest href=/files/x_test.go>go test</a>\
                 <a id=slow href=/files/slow.txt>slow</a>",
            ),
        ),
        (
            "/files/slow.txt",
            Page {
                body_delay: SLOW_BODY,
                ..Page::download(b"slow-bytes-41c7".to_vec(), "slow.txt")
            },
        ),
        (
            "/files/conftest.py",
            Page::download(CONFTEST.to_vec(), "conftest.py"),
        ),
        (
            "/files/x_test.go",
            Page::download(GO_TEST.to_vec(), "x_test.go"),
        ),
    ])
}

/// An answer asked to go where pytest or pip would pick it up is refused, saying who would;
/// one that may be written lands in `claudezilla-output/`, and the answer says exactly where.
pub async fn answers_land_where_no_runner_looks(s: Arc<Shared>) -> anyhow::Result<()> {
    let site = PageServer::start(pages()).await?;
    let project = tempfile::tempdir_in(s.browser.path())?;
    std::fs::create_dir_all(project.path().join("tests"))?;
    std::fs::create_dir_all(project.path().join("requirements"))?;
    let a = s.agent_in("files-output", project.path()).await?;
    let tab = a.open(&site.url("/files/notes.html")).await?;
    for (path, who) in [
        ("tests/test_notes.txt", "pytest"),
        ("dev-requirements.txt", "pip"),
        ("requirements/base.txt", "pip"),
    ] {
        let refused = a
            .call(
                "firefox_get_content",
                json!({"tabId": tab, "outputFile": path}),
            )
            .await?;
        let text = refused.expect_error("NOT_ALLOWED")?;
        ensure!(
            text.contains(who) && text.contains("Hint:"),
            "{path}: {text}"
        );
    }
    let real = project.path().canonicalize()?;
    let out = real.join("claudezilla-output");
    for never in [
        real.join("tests/test_notes.txt"),
        out.join("tests/test_notes.txt"),
        real.join("dev-requirements.txt"),
        real.join("requirements/base.txt"),
    ] {
        ensure!(!never.exists(), "{} was written", never.display());
    }

    let said = call(
        &a,
        "firefox_get_content",
        json!({"tabId": tab, "outputFile": "notes.txt"}),
    )
    .await?;
    let written = out.join("notes.txt");
    ensure!(
        said.text.contains(&format!("to {}.", written.display())),
        "the answer says where: {said:?}"
    );
    ensure!(std::fs::read_to_string(&written)?.contains(">>> import os"));
    ensure!(
        !real.join("notes.txt").exists(),
        "not in the project's root"
    );
    a.close().await?;
    Ok(())
}

/// A download named as pytest or go test would pick it up is kept inert as `NAME.download`, in
/// the project's `downloads/` and in the folder the user names (`--downloads-dir`); the answer
/// says where it is, and why.
pub async fn downloads_a_runner_would_pick_up_stay_inert(s: Arc<Shared>) -> anyhow::Result<()> {
    let site = PageServer::start(pages()).await?;
    let project = tempfile::tempdir()?;
    let a = s.agent_in("files-downloads", project.path()).await?;
    let tab = a.open(&site.url("/files/downloads.html")).await?;
    let listed = download(&a, tab, "#conftest").await?;
    let kept = project.path().join("downloads/conftest.py.download");
    ensure!(std::fs::read(&kept)? == CONFTEST, "{listed}");
    ensure!(
        listed.contains(&kept.display().to_string())
            && listed.contains("pytest")
            && listed.contains("renames"),
        "{listed}"
    );
    ensure!(!project.path().join("downloads/conftest.py").exists());
    a.close().await?;

    let named = tempfile::tempdir()?;
    let dl = named.path().join("dl");
    let dl_env = dl.to_string_lossy().into_owned();
    let log = s.browser.path().join("mcp-files-named.log");
    let b = Agent::spawn_in(
        s.browser.runtime.path(),
        &log,
        &[("CLAUDEZILLA_DOWNLOADS_DIR", &dl_env)],
        project.path(),
    )
    .await?;
    let tab = b.open(&site.url("/files/downloads.html")).await?;
    let listed = download(&b, tab, "#gotest").await?;
    let kept = dl.join("x_test.go.download");
    ensure!(std::fs::read(&kept)? == GO_TEST, "{listed}");
    ensure!(
        listed.contains(&kept.display().to_string()) && listed.contains("go test"),
        "{listed}"
    );
    ensure!(!dl.join("x_test.go").exists());
    ensure!(!project.path().join("downloads/x_test.go").exists());
    b.close().await?;
    Ok(())
}

/// How long `/files/slow.txt` is in progress: its body comes this long after its head.
const SLOW_BODY: Duration = Duration::from_secs(2);

/// A download wait ends when the browser says the download did, not at its timeout: asked
/// with a minute to wait before the file is clicked for, the answer lists it complete well
/// before the minute is up. The wait first hears the download start, then end (its body comes
/// `SLOW_BODY` after its head); one that missed either would run the minute out.
pub async fn a_download_wait_ends_with_the_download(s: Arc<Shared>) -> anyhow::Result<()> {
    const WAIT: Duration = Duration::from_secs(60);
    let site = PageServer::start(pages()).await?;
    let project = tempfile::tempdir()?;
    let a = s.agent_in("files-slow", project.path()).await?;
    let tab = a.open(&site.url("/files/downloads.html")).await?;
    let asked = std::time::Instant::now();
    let wait = u64::try_from(WAIT.as_millis())?;
    let (listed, clicked) = tokio::join!(
        call(
            &a,
            "firefox_downloads",
            json!({"wait": true, "timeout": wait}),
        ),
        async {
            // The wait is under way (it finds no download) before the click starts one.
            tokio::time::sleep(Duration::from_millis(500)).await;
            click(&a, tab, "#slow").await
        }
    );
    clicked?;
    let listed = listed?.text;
    let took = asked.elapsed();
    ensure!(
        listed.starts_with("1 download") && listed.contains("slow.txt: complete"),
        "{listed}"
    );
    ensure!(
        took < WAIT / 2,
        "the wait ran {took:?} of its {WAIT:?} for a download of {SLOW_BODY:?}: {listed}"
    );
    ensure!(std::fs::read(project.path().join("downloads/slow.txt"))? == b"slow-bytes-41c7");
    a.close().await?;
    Ok(())
}

/// Clicks the link that downloads a file and waits until the agent's one download is moved;
/// the listing that moved it.
async fn download(a: &Agent, tab: u32, link: &str) -> anyhow::Result<String> {
    click(a, tab, link).await?;
    eventually(Duration::from_secs(15), "the download", async || {
        let listed = a
            .call("firefox_downloads", json!({"wait": true, "timeout": 10000}))
            .await
            .ok()?;
        (listed.text.starts_with("1 download") && listed.text.contains(": complete"))
            .then_some(listed.text)
    })
    .await
}

/// The secrets file cannot be uploaded, through a symlink or a hard link neither, nor can a
/// file holding a secret's value; the refusal names the secret, never its value.
pub async fn secrets_are_never_uploaded(s: Arc<Shared>) -> anyhow::Result<()> {
    let project = tempfile::tempdir()?;
    let dir = project.path();
    let file = dir.join("agent.secrets");
    std::fs::write(&file, format!("PASSWORD={PASSWORD} @localhost\n"))?;
    std::os::unix::fs::symlink("agent.secrets", dir.join("alias.txt"))?;
    std::fs::hard_link(&file, dir.join("copy.txt"))?;
    std::fs::write(dir.join("notes.txt"), format!("the password: {PASSWORD}"))?;
    std::fs::write(dir.join("clean.txt"), "nothing secret")?;
    let log = s.browser.path().join("mcp-files-secrets.log");
    let file_env = file.to_string_lossy().into_owned();
    let a = Agent::spawn_in(
        s.browser.runtime.path(),
        &log,
        &[("CLAUDEZILLA_SECRETS_FILE", &file_env)],
        dir,
    )
    .await?;
    let tab = a.open(&s.pages.url("/attack/upload.html")).await?;
    let upload = async |path: &Path| {
        a.call(
            "firefox_upload_file",
            json!({"tabId": tab, "selector": "#f", "path": path, "timeout": 10000}),
        )
        .await
    };
    for (name, says) in [
        ("agent.secrets", "is the secrets file"),
        ("alias.txt", "is the secrets file"),
        ("copy.txt", "is the secrets file"),
        ("notes.txt", "the secret PASSWORD"),
    ] {
        let refused = upload(&dir.join(name)).await?;
        let text = refused.expect_error("NOT_ALLOWED")?;
        ensure!(text.contains(says), "{name}: {text}");
        ensure!(!text.contains(PASSWORD), "{name}: the value shows: {text}");
    }
    let got = text_of(&a, tab, "#got").await?;
    ensure!(got.contains("none"), "something was attached: {got:?}");
    upload(&dir.join("clean.txt")).await?.ok()?;
    let got = text_of(&a, tab, "#got").await?;
    ensure!(got.contains("clean.txt 14"), "{got:?}");
    a.close().await.context("close")?;
    Ok(())
}
