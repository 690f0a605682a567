//! The messages of each hop. Every request carries an id (so its answer reaches the client that
//! asked, and only that client); past the host it also carries the agent id of the caller, which
//! the host stamps from the connection's hello (a client never names its agent per request).

use serde::{Deserialize, Serialize};

use crate::args::{ContentFormat, FieldEntry, FileData, FrameTarget, Selector, Typing};
use crate::keys::Modifiers;
use crate::reply;
use crate::{AgentId, Command, Outcome, RequestId};

/// One command as a client asks it (MCP server → host): the agent is the connection's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Ask {
    pub id: RequestId,
    /// How long the caller will wait; the extension bounds its own waits by it.
    pub timeout_ms: u32,
    /// When the caller stops waiting, in ms since the Unix epoch (every hop is on one machine,
    /// one clock): time the request spent queued on its way is not waited again.
    pub deadline_ms: u64,
    pub command: Command,
    /// Time each hop (the benchmark's breakdown): a [`HopTimes`] precedes the answer.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub trace: bool,
}

impl Ask {
    /// A request that the caller waits `timeout_ms` for, from now.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn new(id: RequestId, timeout_ms: u32, command: Command) -> Self {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        Self {
            id,
            timeout_ms,
            deadline_ms: now + u64::from(timeout_ms),
            command,
            trace: false,
        }
    }

    /// The request the extension receives: this ask under the host's id for it, from the agent
    /// the connection said hello as.
    pub fn from_agent(self, id: RequestId, agent_id: AgentId) -> Request {
        Request {
            id,
            agent_id,
            timeout_ms: self.timeout_ms,
            deadline_ms: self.deadline_ms,
            command: self.command,
            trace: self.trace,
        }
    }
}

/// One command from one agent, as the extension receives it (host → extension).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Request {
    pub id: RequestId,
    pub agent_id: AgentId,
    pub timeout_ms: u32,
    pub deadline_ms: u64,
    pub command: Command,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub trace: bool,
}

impl Request {
    /// What is left of the caller's wait at `now_ms` (ms since the epoch): the timeout less
    /// the time the request spent on its way, never more than the timeout whatever the clock
    /// did meanwhile.
    pub fn time_left(&self, now_ms: u64) -> u32 {
        self.deadline_ms
            .saturating_sub(now_ms)
            .min(u64::from(self.timeout_ms)) as u32
    }
}

/// Where a traced request's time went, in µs. The extension's figures are exact only when
/// requests run one at a time (the benchmark's breakdown does): it sums what happened while
/// the request was open.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HopTimes {
    /// From the host writing the request to the extension to reading its answer.
    #[serde(default)]
    pub native_us: u64,
    /// From the background receiving the request to posting its answer.
    pub background_us: u64,
    /// Of that, waiting for content scripts (messaging and their work).
    pub content_us: u64,
    /// Of that, the content scripts' own work.
    pub page_us: u64,
    /// Of the background's time, a navigation's wait for the browser: from asking it to load
    /// the page to the tab's load event reaching the background.
    #[serde(default)]
    pub load_us: u64,
    /// When this request was the first a new document's content module answered: from the
    /// document's first byte to the module ready to answer.
    #[serde(default)]
    pub startup_us: u64,
}

/// The answer to the request with the same id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Response {
    pub id: RequestId,
    pub outcome: Outcome,
}

/// MCP server → host, over the Unix socket. The first message must be `hello`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum ClientMessage {
    Hello {
        token: String,
        agent_id: AgentId,
        /// Name and version of the client, for logs.
        client: String,
    },
    Request(Ask),
}

/// Host → MCP server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum HostMessage {
    /// Authentication succeeded.
    Welcome {
        host_version: String,
        host_pid: u32,
    },
    /// The connection is refused (then closed): bad token, too many connections, …
    Refused(crate::ErrorBody),
    Response(Response),
    /// A frame that answers no request (its id could not be read); the connection goes on.
    Error(crate::ErrorBody),
    /// For a traced request, just before its answer: where its time went.
    Trace {
        id: RequestId,
        times: HopTimes,
    },
    /// Something that happened to the agent's tabs on their own (a page opened a tab); the MCP
    /// server adds it to its next answer.
    Notice {
        notes: Vec<String>,
    },
}

/// Host → extension, over native messaging (each frame at most 1 MiB).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum ToExtension {
    /// The answer to the extension's hello: the port works end to end.
    Welcome {
        host_version: String,
        tuning: Tuning,
    },
    /// The answer to a health-check ping.
    Pong {
        seq: u64,
    },
    Request(Request),
    /// The agent's socket connection closed: release its tabs as on `goodbye`.
    AgentGone {
        agent_id: AgentId,
    },
}

/// Timings of the multi-agent rules. Defaults are the documented behaviour; the host may
/// shorten them from its environment (`CLAUDEZILLA_RESERVATION_MS`, `CLAUDEZILLA_IDLE_RELEASE_MS`,
/// `CLAUDEZILLA_MUTEX_BUSY_MS`) so tests need not wait minutes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tuning {
    /// How long a granted slot stays reserved for its agent.
    pub reservation_ms: u64,
    /// An agent silent this long (no call, no heartbeat) loses its tabs.
    pub idle_release_ms: u64,
    /// A screenshot waiting longer than this behind another gets `MUTEX_BUSY`.
    pub mutex_busy_ms: u64,
    /// `firefox_cookies` and `firefox_storage` allowed from the start
    /// (`CLAUDEZILLA_ALLOW_STORAGE=1`); otherwise only the popup's switch allows them.
    #[serde(default)]
    pub allow_storage: bool,
    /// `firefox_evaluate` allowed from the start (`CLAUDEZILLA_ALLOW_EVALUATE=1` in the
    /// environment Firefox was started from); otherwise only the popup's switch allows it.
    #[serde(default)]
    pub allow_evaluate: bool,
    /// The user's domain allowlist for every agent (`CLAUDEZILLA_ALLOWED_DOMAINS=a.com,b.org`
    /// in the environment Firefox was started from); empty: the popup's list, if any.
    #[serde(default)]
    pub allowed_domains: Vec<String>,
}

impl Default for Tuning {
    fn default() -> Self {
        Self {
            reservation_ms: 30_000,
            idle_release_ms: 600_000,
            mutex_busy_ms: 2_500,
            allow_evaluate: false,
            allow_storage: false,
            allowed_domains: Vec::new(),
        }
    }
}

/// Extension → host.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum FromExtension {
    /// Sent once the background is ready, after every (re)connect.
    Hello {
        version: String,
    },
    /// Health check: the host must answer with `pong` carrying the same `seq`.
    Ping {
        seq: u64,
    },
    Response(Response),
    /// For a traced request, just before its answer (`native_us` is the host's to fill).
    Trace {
        id: RequestId,
        times: HopTimes,
    },
    /// For one agent, what happened to its tabs on their own (see [`HostMessage::Notice`]).
    Notice {
        agent_id: AgentId,
        notes: Vec<String>,
    },
}

/// Background → content script (one frame of one tab). The reply is a [`ContentReply`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContentRequest {
    /// The frame's short alias, which prefixes the refs it hands out (0: the top frame).
    pub frame: u32,
    /// Deadline for any waiting (ms since the epoch; background and content scripts share the
    /// clock, so time spent injecting the script counts).
    pub until: u64,
    pub op: PageOp,
    /// The agent reads this tab's console: capture starts before the op runs, so nothing the
    /// op makes the page log is missed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub console: bool,
    /// The secrets the tab's agent has typed: the frame hides their values in every text it
    /// returns, also in a document that was never typed into (the page navigated).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hide: Vec<crate::args::FilledSecret>,
}

/// Content script → background: an operation's outcome, and what the page did meanwhile that
/// the agent should hear of in the same answer (a dialog it raised, say). The content script
/// writes a [`PageReply`]; the background reads the one kind the operation it sent answers
/// (`T`: a [`crate::Reply`], [`crate::reply::PageMetrics`] or [`SnapshotPart`]), so an answer
/// of another kind is refused where it is parsed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContentReply<T = PageReply> {
    pub outcome: Result<T, crate::ErrorBody>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// How long the content script worked on it, in µs (for traced requests).
    #[serde(default)]
    pub page_us: u64,
    /// In a document's first answer: from the document's first byte to the content module
    /// ready to answer, in µs (for traced requests).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub startup_us: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// What a content script answers: a reply for the agent, or a part the background assembles
/// into one (these never travel further). Written as its payload alone: the background
/// reads it as the payload its operation asked for.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum PageReply {
    Done(PageDone),
    /// Page geometry for a capture.
    Metrics(crate::reply::PageMetrics),
    /// One frame's part of a snapshot.
    SnapshotPart(SnapshotPart),
}

/// The answers a page gives, and `From` each into the [`crate::Reply`] it stands for.
macro_rules! page_done {
    ($( $variant:ident($payload:ty), )*) => {
        /// What a content script's operation answers: the kinds of [`crate::Reply`] a page
        /// gives, written as the same `kind`-tagged object, so the background reads it as that
        /// reply. An enum of its own so that the content module, compiled in every agent
        /// document before its first answer, carries the writers of these kinds only (the
        /// others' were 17 KB of it).
        #[derive(Debug, Clone, PartialEq, Serialize)]
        #[serde(tag = "kind", rename_all = "camelCase")]
        pub enum PageDone {
            $( $variant($payload), )*
            Ack,
        }

        impl From<PageDone> for crate::Reply {
            fn from(done: PageDone) -> Self {
                match done {
                    $( PageDone::$variant(payload) => Self::$variant(payload), )*
                    PageDone::Ack => Self::Ack,
                }
            }
        }
    };
}

page_done! {
    Content(reply::PageContent),
    Clicked(reply::Clicked),
    Typed(reply::Typed),
    Acted(reply::Acted),
    Waited(reply::Waited),
    Found(reply::Found),
    Audit(Box<reply::Audit>),
    Performance(Box<reply::PagePerformance>),
    Element(Box<reply::ElementInfo>),
    Located(Box<reply::Locator>),
    PageState(Box<reply::PageState>),
    Dialogs(reply::DialogReport),
    Console(reply::Console),
    Evaluated(reply::Evaluated),
    Stored(reply::Stored),
}

impl From<reply::StorageAnswer> for PageDone {
    fn from(answer: reply::StorageAnswer) -> Self {
        match answer {
            reply::StorageAnswer::Stored(stored) => Self::Stored(stored),
            reply::StorageAnswer::Acted(acted) => Self::Acted(acted),
        }
    }
}

/// What the content script does, one coarse wasm call each.
///
/// Externally tagged (`{"click": {…}}`): an internally tagged enum is read through serde's
/// buffered `Content`, which made this one reader 147 KB of the content module, compiled in
/// every agent document before its first answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum PageOp {
    GetContent {
        selector: Option<Selector>,
        max_length: u32,
        format: ContentFormat,
    },
    Click {
        target: FrameTarget,
        clicks: u8,
        button: crate::args::MouseButton,
        modifiers: Modifiers,
    },
    Type {
        target: FrameTarget,
        text: Typing,
        clear: bool,
    },
    PressKey {
        target: Option<FrameTarget>,
        chord: crate::keys::Chord,
    },
    Scroll {
        target: Option<FrameTarget>,
        x: Option<i32>,
        y: Option<i32>,
        smooth: bool,
    },
    /// Read or change the page's web storage.
    Storage {
        action: crate::args::StorageAction,
        area: crate::args::StorageArea,
        key: Option<String>,
        value: Option<String>,
    },
    /// A click at a viewport point (CSS pixels), on whatever is there.
    ClickAt {
        point: crate::args::Point,
        clicks: u8,
        button: crate::args::MouseButton,
        modifiers: Modifiers,
    },
    /// A wheel turn over an element, or at a viewport point (None: the viewport's centre).
    Wheel {
        target: Option<FrameTarget>,
        point: Option<crate::args::Point>,
        dx: f64,
        dy: f64,
    },
    Hover {
        target: FrameTarget,
    },
    /// The pointer over whatever is at a viewport point (a canvas chart's bar).
    HoverAt {
        point: crate::args::Point,
    },
    SelectOption {
        target: FrameTarget,
        values: Vec<String>,
    },
    FillForm {
        fields: Vec<(FrameTarget, FieldEntry)>,
    },
    Upload {
        target: FrameTarget,
        file: FileData,
    },
    Drag {
        from: FrameTarget,
        to: crate::args::DropTarget<FrameTarget>,
    },
    GetElement {
        target: FrameTarget,
    },
    /// An element, or the iframe of a child frame, as a Playwright locator names it.
    Locate {
        target: Locatable,
    },
    WaitFor {
        selector: Option<Selector>,
        text: Option<String>,
    },
    PageState {
        limits: PageLimits,
    },
    /// The page's own performance entries, read in the top frame.
    Performance,
    /// One frame's accessibility audit by axe-core (which the background injected first); the
    /// background audits the child frames too.
    Audit {
        rules: Vec<crate::args::RuleSet>,
        per_rule: u32,
    },
    /// One frame's matches of a text or pattern; the background asks the child frames too.
    Find {
        needle: crate::args::Needle,
        limit: u32,
    },
    /// One frame's part of a snapshot; the background splices child frames in.
    Snapshot {
        selector: Option<Selector>,
        interactive_only: bool,
        max_chars: u32,
        max_depth: Option<u32>,
        max_nodes: Option<u32>,
    },
    Dialogs {
        accept: bool,
        prompt_text: Option<String>,
    },
    /// Start capturing the page's console (idempotent) and return the entries.
    Console {
        level: Option<crate::reply::ConsoleLevel>,
        clear: bool,
        limit: u32,
    },
    /// Run JavaScript in the page's own world.
    Evaluate {
        expression: String,
    },
    /// Dismiss a cookie/consent banner without rejecting.
    Consent,
    /// Wait for images (up to 3 s) and fonts, then two frames and an idle moment.
    Settle {
        images: bool,
    },
    /// Geometry for a capture: viewport, scroll, page size, an element's box, badge targets.
    Metrics {
        target: Option<FrameTarget>,
        marks: bool,
    },
    /// The tab goes back to the user: take out every hook we put in the page (dialogs,
    /// console) and forget the agent's dialog policy.
    Release,
}

impl PageOp {
    /// The size limit of an operation read from every frame of a tab (a snapshot's characters,
    /// page text's length, a search's matches), which the stitcher shares among the frames;
    /// None for the rest, which one frame answers.
    pub fn frame_limit_mut(&mut self) -> Option<&mut u32> {
        match self {
            Self::Snapshot { max_chars, .. } => Some(max_chars),
            Self::GetContent { max_length, .. } => Some(max_length),
            Self::Find { limit, .. } => Some(limit),
            Self::Click { .. }
            | Self::Type { .. }
            | Self::PressKey { .. }
            | Self::Scroll { .. }
            | Self::Storage { .. }
            | Self::ClickAt { .. }
            | Self::Wheel { .. }
            | Self::Hover { .. }
            | Self::HoverAt { .. }
            | Self::SelectOption { .. }
            | Self::FillForm { .. }
            | Self::Upload { .. }
            | Self::Drag { .. }
            | Self::GetElement { .. }
            | Self::Locate { .. }
            | Self::WaitFor { .. }
            | Self::PageState { .. }
            | Self::Performance
            | Self::Audit { .. }
            | Self::Dialogs { .. }
            | Self::Console { .. }
            | Self::Evaluate { .. }
            | Self::Consent
            | Self::Settle { .. }
            | Self::Metrics { .. }
            | Self::Release => None,
        }
    }

    /// The secrets this operation types (the background remembers them for the agent).
    pub fn secrets(&self) -> Vec<&crate::args::FilledSecret> {
        match self {
            Self::Type {
                text: Typing::Secret(secret),
                ..
            } => vec![secret],
            Self::FillForm { fields } => fields
                .iter()
                .filter_map(|(_, entry)| match entry {
                    FieldEntry::Typed(Typing::Secret(secret)) => Some(secret),
                    FieldEntry::Typed(Typing::Text(_)) | FieldEntry::Checked(_) => None,
                })
                .collect(),
            Self::Type {
                text: Typing::Text(_),
                ..
            }
            | Self::GetContent { .. }
            | Self::Click { .. }
            | Self::PressKey { .. }
            | Self::Scroll { .. }
            | Self::Storage { .. }
            | Self::ClickAt { .. }
            | Self::Wheel { .. }
            | Self::Hover { .. }
            | Self::HoverAt { .. }
            | Self::SelectOption { .. }
            | Self::Upload { .. }
            | Self::Drag { .. }
            | Self::GetElement { .. }
            | Self::Locate { .. }
            | Self::WaitFor { .. }
            | Self::PageState { .. }
            | Self::Performance
            | Self::Audit { .. }
            | Self::Find { .. }
            | Self::Snapshot { .. }
            | Self::Dialogs { .. }
            | Self::Console { .. }
            | Self::Evaluate { .. }
            | Self::Consent
            | Self::Settle { .. }
            | Self::Metrics { .. }
            | Self::Release => Vec::new(),
        }
    }
}

/// What a frame is asked to name (`PageOp::Locate`): one of its elements, or the iframe that
/// holds a child frame (by the browser's frame id).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Locatable {
    Element(FrameTarget),
    Frame(u64),
}

/// How many of each kind a page state lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PageLimits {
    pub headings: u32,
    pub links: u32,
    pub buttons: u32,
    pub inputs: u32,
    pub images: u32,
}

/// One frame's snapshot, with where its child frames go. Nothing else: a content script's
/// answer read as one cannot be a `Reply::Snapshot` (its `kind` is refused).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SnapshotPart {
    pub text: String,
    pub refs: u32,
    pub cut: Option<String>,
    pub frames: Vec<FramePlace>,
}

/// Where a child frame's snapshot goes in its parent's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FramePlace {
    /// The browser's frame id.
    pub frame: u64,
    /// Byte offset in the parent's text where its lines go.
    pub offset: usize,
    /// Indent of its lines, in spaces.
    pub indent: usize,
}

/// Popup → background: what the toolbar popup shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PopupStatus {
    pub connected: bool,
    pub pool_limit: u32,
    pub tabs: Vec<PopupTab>,
    pub waiting: Vec<String>,
    pub reserved: Vec<String>,
    /// The screenshot lock: holder (short id) and for how long, and how many wait.
    pub capture: Option<CaptureState>,
    /// Whether agents may run JavaScript in their pages (`firefox_evaluate`).
    pub evaluate: bool,
    /// Switched on by `CLAUDEZILLA_ALLOW_EVALUATE=1`, so the popup cannot switch it off.
    #[serde(default)]
    pub evaluate_by_environment: bool,
    /// Focus loops running, one line each.
    pub loops: Vec<String>,
    /// Agents asking to drive one of the user's tabs, waiting for the user's answer.
    #[serde(default)]
    pub approvals: Vec<PopupApproval>,
    /// Whether agents may ask for tabs of private windows at all.
    #[serde(default)]
    pub private_attach: bool,
    /// Whether agents may read and change cookies and web storage of their pages.
    #[serde(default)]
    pub storage: bool,
    /// Switched on by `CLAUDEZILLA_ALLOW_STORAGE=1`, so the popup cannot switch it off.
    #[serde(default)]
    pub storage_by_environment: bool,
    /// What agents did lately, newest first.
    #[serde(default)]
    pub activity: Vec<PopupActivity>,
    /// The user's domain allowlist for every agent (empty: none).
    #[serde(default)]
    pub allowed_domains: Vec<String>,
    /// Set by `CLAUDEZILLA_ALLOWED_DOMAINS`, so the popup cannot change it.
    #[serde(default)]
    pub allowed_domains_by_environment: bool,
}

/// One entry of the activity log, with the agent (short id) that ran it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PopupActivity {
    pub agent: String,
    #[serde(flatten)]
    pub entry: crate::reply::ActivityEntry,
}

/// An agent asks to drive one of the user's tabs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PopupApproval {
    pub id: u32,
    /// The agent's short id.
    pub agent: String,
    pub tab_id: crate::TabId,
    pub title: String,
    pub origin: String,
    /// The tab is in a private window.
    pub private: bool,
}

/// What the toolbar popup asks the background (JSON over `runtime.sendMessage`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "popup",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum PopupRequest {
    Status,
    /// The user's switch for `firefox_evaluate`.
    SetEvaluate {
        enabled: bool,
    },
    /// Take an attached tab back from its agent (the tab stays open).
    GiveBack {
        tab_id: crate::TabId,
    },
    /// The user's answer to an agent asking for one of the user's tabs.
    Decide {
        id: u32,
        allow: bool,
    },
    /// The user's domain allowlist for every agent (empty: none).
    SetAllowedDomains {
        domains: Vec<String>,
    },
    /// Whether agents may ask for tabs of private windows.
    SetPrivateAttach {
        enabled: bool,
    },
    /// The user's switch for `firefox_cookies` and `firefox_storage`.
    SetStorage {
        enabled: bool,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PopupTab {
    pub tab_id: crate::TabId,
    pub title: String,
    pub owner: String,
    /// One of the user's own tabs that an agent attached to.
    pub attached: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CaptureState {
    pub holder: String,
    pub held_ms: u64,
    pub waiting: u32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TabId;
    use crate::args::NavigateArgs;
    use crate::reply::{self, ErrorBody, ErrorCode, Reply};
    use serde_json::json;

    fn agent() -> AgentId {
        AgentId::new([1; 16], 7)
    }

    /// A content script writes its answer untagged; the background reads the kind it asked
    /// for, and an answer of another kind is refused there, never mistaken for it.
    #[test]
    fn a_page_answer_reads_only_as_the_kind_it_is() {
        // Page text, whose fields a snapshot part shares (`text`, `frames`).
        let content = PageDone::Content(reply::PageContent {
            url: "https://a.test/".into(),
            title: "A".into(),
            text: "Hello".into(),
            total_length: 5,
            truncated: false,
            frames: vec![3],
        });
        let part = SnapshotPart {
            text: "- link \"Home\" [ref=e2]\n".into(),
            refs: 1,
            cut: None,
            frames: Vec::new(),
        };
        let metrics = reply::PageMetrics {
            viewport: [800.0, 600.0],
            scroll: [0.0, 0.0],
            page: [800.0, 2000.0],
            element: None,
            marks: Vec::new(),
        };
        let written = |r: PageReply| {
            let reply = ContentReply {
                outcome: Ok(r),
                notes: Vec::new(),
                page_us: 0,
                startup_us: 0,
            };
            serde_json::to_value(reply).unwrap()
        };
        let as_reply = written(PageReply::Done(content.clone()));
        let read: ContentReply<Reply> = serde_json::from_value(as_reply.clone()).unwrap();
        assert_eq!(read.outcome, Ok(content.into()));
        assert!(serde_json::from_value::<ContentReply<SnapshotPart>>(as_reply.clone()).is_err());
        assert!(serde_json::from_value::<ContentReply<reply::PageMetrics>>(as_reply).is_err());
        let as_part = written(PageReply::SnapshotPart(part.clone()));
        let read: ContentReply<SnapshotPart> = serde_json::from_value(as_part.clone()).unwrap();
        assert_eq!(read.outcome, Ok(part.clone()));
        assert!(serde_json::from_value::<ContentReply<Reply>>(as_part).is_err());
        // A part or metrics carrying a reply's `kind` is not one: refused, not read past.
        let mut tagged = serde_json::to_value(&part).unwrap();
        tagged["kind"] = json!("snapshot");
        assert!(serde_json::from_value::<SnapshotPart>(tagged).is_err());
        let mut tagged = serde_json::to_value(&metrics).unwrap();
        tagged["kind"] = json!("acted");
        assert!(serde_json::from_value::<reply::PageMetrics>(tagged).is_err());
        let as_metrics = written(PageReply::Metrics(metrics.clone()));
        let read: ContentReply<reply::PageMetrics> = serde_json::from_value(as_metrics).unwrap();
        assert_eq!(read.outcome, Ok(metrics));
    }

    #[test]
    fn a_page_answer_is_written_as_the_reply_it_stands_for() {
        let answers = [
            PageDone::Ack,
            PageDone::Acted(reply::Acted {
                what: "Set.".into(),
            }),
            PageDone::Stored(reply::Stored {
                origin: "https://a.test".into(),
                area: crate::args::StorageArea::Session,
                entries: vec![("k".into(), "v".into())],
                total: 1,
            }),
            PageDone::Evaluated(reply::Evaluated {
                value: "1".into(),
                js_type: "number".into(),
            }),
            PageDone::Dialogs(reply::DialogReport {
                policy: "accept".into(),
                seen: vec!["alert: hi".into()],
            }),
        ];
        for done in answers {
            let written = serde_json::to_value(&done).unwrap();
            let reply = Reply::from(done);
            assert_eq!(written, serde_json::to_value(&reply).unwrap());
            assert_eq!(serde_json::from_value::<Reply>(written).unwrap(), reply);
        }
    }

    #[test]
    fn only_reads_of_every_frame_have_a_frame_limit() {
        let mut find = PageOp::Find {
            needle: crate::args::Needle::Words(crate::args::Words::Text("x".into())),
            limit: 20,
        };
        assert_eq!(find.frame_limit_mut().copied(), Some(20));
        assert_eq!(PageOp::Consent.frame_limit_mut(), None);
        assert_eq!(PageOp::Performance.frame_limit_mut(), None);
    }

    #[test]
    fn request_round_trips_through_every_hop_type() {
        let ask = Ask::new(
            41,
            5_000,
            Command::Navigate(NavigateArgs {
                url: Some(crate::args::PageUrl::blank()),
                action: None,
                tab_id: Some(TabId(2)),
            }),
        );
        let client = ClientMessage::Request(ask.clone());
        let v = serde_json::to_value(&client).unwrap();
        assert_eq!(v["type"], "request");
        assert_eq!(v["id"], 41);
        assert_eq!(v["command"]["name"], "navigate");
        assert!(v.get("agentId").is_none(), "the host stamps the agent: {v}");
        assert_eq!(serde_json::from_value::<ClientMessage>(v).unwrap(), client);
        let req = ask.from_agent(7, agent());
        assert_eq!((req.id, &req.agent_id), (7, &agent()));
        let ext = ToExtension::Request(req);
        let s = serde_json::to_string(&ext).unwrap();
        assert_eq!(serde_json::from_str::<ToExtension>(&s).unwrap(), ext);
    }

    #[test]
    fn a_request_waits_only_what_is_left_of_its_callers_timeout() {
        let req = Ask::new(1, 5_000, Command::Ping).from_agent(1, agent());
        let sent = req.deadline_ms - 5_000;
        assert_eq!(req.time_left(sent), 5_000);
        // Queued for 1.2 s on its way.
        assert_eq!(req.time_left(sent + 1_200), 3_800);
        assert_eq!(req.time_left(sent + 9_000), 0);
        // A clock set back meanwhile gives no more than the timeout.
        assert_eq!(req.time_left(sent - 60_000), 5_000);
    }

    #[test]
    fn responses_and_hellos_round_trip() {
        let msgs = [
            FromExtension::Hello {
                version: "0.1.0".into(),
            },
            FromExtension::Response(Response {
                id: 1,
                outcome: Ok(Reply::Pong(reply::Pong {
                    version: "0.1.0".into(),
                })),
            }),
            FromExtension::Response(Response {
                id: u32::MAX as u64 + 5,
                outcome: Err(ErrorBody::new(ErrorCode::Timeout, "slow").with_hint("raise timeout")),
            }),
        ];
        for m in msgs {
            let s = serde_json::to_string(&m).unwrap();
            assert_eq!(serde_json::from_str::<FromExtension>(&s).unwrap(), m, "{s}");
        }
        let hello = ClientMessage::Hello {
            token: "ab".into(),
            agent_id: agent(),
            client: "t".into(),
        };
        let v = serde_json::to_value(&hello).unwrap();
        assert_eq!(v["type"], "hello");
        assert_eq!(v["agentId"], agent().secret());
    }

    #[test]
    fn content_requests_on_the_wire() {
        let req = ContentRequest {
            frame: 0,
            until: 100,
            console: false,
            op: PageOp::Type {
                target: FrameTarget::Selector("#q".into()),
                text: Typing::Text("hi".into()),
                clear: true,
            },
            hide: Vec::new(),
        };
        assert!(req.op.secrets().is_empty());
        let v = serde_json::to_value(&req).unwrap();
        assert_eq!(
            v,
            json!({"frame": 0, "until": 100, "op": {"type": {"target": {"selector": "#q"}, "text": {"text": "hi"}, "clear": true}}})
        );
        assert_eq!(serde_json::from_value::<ContentRequest>(v).unwrap(), req);
    }
}
