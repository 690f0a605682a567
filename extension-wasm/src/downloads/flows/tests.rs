use std::cell::{Cell, RefCell};
use std::collections::VecDeque;

use claudezilla_protocol::ErrorCode;
use claudezilla_protocol::args::{DownloadsArgs, MovedDownload};

use super::*;
use crate::at_once::run;
use crate::steps::Steps;

/// A browser whose downloads, tabs and lists are scripted; a read of the list takes 30 ms of
/// the clock, a pause what it asks. Every step is logged.
struct Fake {
    no_agent_tabs: bool,
    requested: Option<(AgentId, TabId)>,
    container: Option<AgentId>,
    pages: Option<Vec<TabPage>>,
    /// The allowlists refuse every source, with these words.
    refuse: Option<&'static str>,
    downloaded: bool,
    /// The download is whole already: the browser refuses to cancel it.
    complete: bool,
    /// The browser refuses to delete the download's file.
    unremovable: bool,
    /// Each read of the list answers the next (the last repeats).
    lists: RefCell<VecDeque<Vec<DownloadInfo>>>,
    /// Each wait for a change: whether the time runs out first.
    runs_out: RefCell<VecDeque<bool>>,
    clock: Cell<u64>,
    log: Steps,
}

fn agent(n: u8) -> AgentId {
    AgentId::new([n; 16], 100)
}

fn fake() -> Fake {
    Fake {
        no_agent_tabs: false,
        requested: None,
        container: None,
        pages: None,
        refuse: None,
        downloaded: false,
        complete: false,
        unremovable: false,
        lists: RefCell::default(),
        runs_out: RefCell::default(),
        clock: Cell::new(1_000),
        log: Steps::default(),
    }
}

fn item(url: &str) -> DownloadItem {
    serde_json::from_value(serde_json::json!({
        "id": 4, "url": url, "filename": "/tmp/report.pdf", "cookieStoreId": "firefox-container-3"
    }))
    .unwrap()
}

fn download(state: &str) -> DownloadInfo {
    let item: DownloadItem = serde_json::from_value(serde_json::json!({
        "id": 4, "url": "https://x/report.pdf", "filename": "/tmp/report.pdf", "state": state
    }))
    .unwrap();
    item.info(None)
}

impl Downloader for Fake {
    type Change = ();

    fn no_agent_tabs(&self) -> bool {
        self.no_agent_tabs
    }

    fn requested_by(&self, url: &str) -> Option<(AgentId, TabId)> {
        self.log.say(format!("requested {url}"));
        self.requested.clone()
    }

    fn container_of(&self, jar: &str) -> Option<AgentId> {
        self.log.say(format!("container {jar}"));
        self.container.clone()
    }

    async fn pages(&self) -> Option<Vec<TabPage>> {
        self.log.say("pages");
        self.pages.clone()
    }

    fn check(&self, agent: &AgentId, url: &str) -> Result<(), ErrorBody> {
        self.log.say(format!("check {url} for {agent}"));
        match self.refuse {
            Some(why) => Err(ErrorBody::new(ErrorCode::NotAllowed, why)),
            None => Ok(()),
        }
    }

    async fn cancel(&self, id: u32) -> bool {
        self.log.say(format!("cancel {id}"));
        !self.complete
    }

    fn notify(&self, agent: &AgentId, text: String) {
        self.log.say(format!("tell {agent}: {text}"));
    }

    fn own(&self, id: u32, agent: &AgentId) {
        self.log.say(format!("own {id} as {agent}"));
    }

    fn downloaded(&self, tab: TabId, _url: &str) -> bool {
        self.log.say(format!("downloaded in {tab}?"));
        self.downloaded
    }

    fn settle(&self, tab: TabId) {
        self.log.say(format!("settle {tab}"));
    }

    fn moved(&self, _agent: &AgentId, id: u32, path: &str) -> bool {
        self.log.say(format!("moved {id} to {path}"));
        id == 4
    }

    async fn remove_file(&self, id: u32) -> bool {
        self.log.say(format!("remove file {id}"));
        !self.unremovable
    }

    fn next_change(&self) {
        self.log.say("next change");
    }

    async fn change(&self, (): ()) {
        self.log.say("changed");
    }

    async fn current(&self, _agent: &AgentId) -> Vec<DownloadInfo> {
        self.log.say(format!("read at {}", self.clock.get()));
        self.clock.set(self.clock.get() + 30);
        let mut lists = self.lists.borrow_mut();
        match lists.len() {
            1 => lists[0].clone(),
            _ => lists.pop_front().expect("a list scripted"),
        }
    }

    async fn sleep(&self, ms: u32) {
        self.log.say(format!("pause {ms}"));
        self.clock.set(self.clock.get() + u64::from(ms));
    }

    async fn within<T>(&self, ms: u32, work: impl Future<Output = T>) -> Option<T> {
        self.log.say(format!("within {ms}"));
        if self
            .runs_out
            .borrow_mut()
            .pop_front()
            .expect("a wait scripted")
        {
            self.clock.set(self.clock.get() + u64::from(ms));
            return None;
        }
        Some(work.await)
    }

    fn now(&self) -> u64 {
        self.clock.get()
    }
}

#[test]
fn a_download_an_agent_tab_asked_for_is_its_own_and_ends_the_navigation_that_became_it() {
    let mut d = fake();
    d.requested = Some((agent(1), TabId(7)));
    d.downloaded = true;
    run(claim(&d, item("https://x/report.pdf")));
    let me = agent(1);
    assert_eq!(
        d.log.all(),
        [
            "requested https://x/report.pdf".to_owned(),
            format!("check https://x/report.pdf for {me}"),
            format!("own 4 as {me}"),
            "downloaded in 7?".to_owned(),
            "settle 7".to_owned(),
            format!(
                "tell {me}: Your page started a download (report.pdf): firefox_downloads waits for it and moves it into your project."
            ),
        ]
    );
}

#[test]
fn a_download_from_outside_the_allowlists_is_cancelled_and_said() {
    let mut d = fake();
    d.container = Some(agent(2));
    d.refuse = Some("x is not on your allowlist");
    run(claim(&d, item("https://x/report.pdf")));
    let me = agent(2);
    assert_eq!(
        d.log.all()[1..],
        [
            "container firefox-container-3".to_owned(),
            format!("check https://x/report.pdf for {me}"),
            "cancel 4".to_owned(),
            format!("tell {me}: A download was cancelled (report.pdf): x is not on your allowlist"),
        ]
    );
}

#[test]
fn a_refused_download_whole_before_its_cancel_has_its_file_deleted() {
    let mut d = fake();
    d.container = Some(agent(2));
    d.refuse = Some("x is not on your allowlist");
    d.complete = true;
    run(claim(&d, item("https://x/report.pdf")));
    let me = agent(2);
    assert_eq!(
        d.log.all()[3..],
        [
            "cancel 4".to_owned(),
            "remove file 4".to_owned(),
            format!("tell {me}: A download was cancelled (report.pdf): x is not on your allowlist"),
        ]
    );
}

#[test]
fn a_refused_download_the_browser_would_not_stop_is_said() {
    let mut d = fake();
    d.container = Some(agent(2));
    d.refuse = Some("x is not on your allowlist");
    d.complete = true;
    d.unremovable = true;
    run(claim(&d, item("https://x/report.pdf")));
    let told = d.log.all().last().unwrap().clone();
    assert!(
        told.ends_with(
            "A download was refused (report.pdf): x is not on your allowlist; Firefox would \
             neither cancel it nor delete its file: it may be in the browser's downloads folder."
        ),
        "{told}"
    );
}

#[test]
fn no_agent_tab_no_agents_download_and_a_fetched_file_is_never_claimed_by_its_page() {
    let mut d = fake();
    d.no_agent_tabs = true;
    run(claim(&d, item("https://x/report.pdf")));
    assert!(d.log.all().is_empty());
    // Fetched, yet neither an agent tab's request nor an agent's container: the user's.
    let d = fake();
    run(claim(&d, item("https://x/report.pdf")));
    assert_eq!(d.log.all().last().unwrap(), "container firefox-container-3");
}

#[test]
fn a_file_a_page_made_is_the_agent_that_just_acted_on_that_page() {
    let mut d = fake();
    d.pages = Some(vec![
        TabPage {
            url: "https://x/app".into(),
            agent: Some(agent(3)),
            acted: Some(900.0),
        },
        TabPage {
            url: "https://y/".into(),
            agent: None,
            acted: None,
        },
    ]);
    let mut made = item("data:text/plain,hi");
    made.referrer = Some("https://x/app".into());
    made.cookie_store_id = None;
    // A `data:` file has no source to judge: no allowlist check.
    run(claim(&d, made));
    let me = agent(3);
    assert_eq!(
        d.log.all()[1..3],
        ["pages".to_owned(), format!("own 4 as {me}")]
    );
    assert_eq!(d.log.all().len(), 4);
}

#[test]
fn a_list_deletes_what_was_moved_then_reads_once_when_not_asked_to_wait() {
    let d = fake();
    d.lists
        .borrow_mut()
        .push_back(vec![download("in_progress")]);
    let args = ResolvedDownloads {
        args: DownloadsArgs {
            wait: false,
            save_to: None,
        },
        moved: vec![
            MovedDownload {
                id: 4,
                path: "/p/report.pdf".into(),
            },
            MovedDownload {
                id: 5,
                path: "/p/other".into(),
            },
        ],
    };
    let listed = run(list(&d, &agent(1), args, 5_000)).unwrap();
    assert_eq!(listed.downloads.len(), 1);
    assert_eq!(
        d.log.all(),
        [
            "moved 4 to /p/report.pdf",
            "remove file 4",
            "moved 5 to /p/other",
            "read at 1000"
        ]
    );
}

fn waiting() -> ResolvedDownloads {
    ResolvedDownloads {
        args: DownloadsArgs {
            wait: true,
            save_to: None,
        },
        moved: vec![],
    }
}

#[test]
fn a_wait_reads_again_after_each_change_at_most_every_read_gap_until_none_is_in_progress() {
    let d = fake();
    d.lists.borrow_mut().extend([
        vec![],
        vec![download("in_progress")],
        vec![download("complete")],
    ]);
    d.runs_out.borrow_mut().extend([false, false]);
    let listed = run(list(&d, &agent(1), waiting(), 5_000)).unwrap();
    assert_eq!(listed.downloads[0].state, download("complete").state);
    assert_eq!(
        d.log.all(),
        [
            "next change",
            "read at 1000",
            "within 3970",
            "changed",
            // Read at 1000: the next read not before 1100.
            "pause 70",
            "next change",
            "read at 1100",
            "within 3870",
            "changed",
            "pause 70",
            "next change",
            "read at 1200",
        ]
    );
}

#[test]
fn a_wait_past_its_time_answers_the_list_as_it_is_then() {
    let d = fake();
    d.lists
        .borrow_mut()
        .push_back(vec![download("in_progress")]);
    d.runs_out.borrow_mut().push_back(true);
    let listed = run(list(&d, &agent(1), waiting(), 2_000)).unwrap();
    assert_eq!(listed.downloads.len(), 1);
    assert_eq!(
        d.log.all(),
        ["next change", "read at 1000", "within 970", "read at 2000"]
    );
    // No time left at the first read: that read is the answer.
    let d = fake();
    d.lists.borrow_mut().push_back(vec![]);
    run(list(&d, &agent(1), waiting(), 1_000)).unwrap();
    assert_eq!(d.log.all(), ["next change", "read at 1000"]);
}
