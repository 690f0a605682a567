//! The answers that carry a page or the browser: tabs, page text, pictures, snapshots, page
//! state, performance, console and network entries, downloads, loops, tab slots.

use serde::{Deserialize, Serialize};

use crate::TabId;
use crate::args::ConsoleLevel;

/// Whether the page finished loading before the answer was sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum LoadState {
    Complete,
    Loading,
}

camel_structs! {
    TabReport {
        pub tab_id: TabId,
        pub url: String,
        pub title: String,
        pub load_state: LoadState,
        /// How long the call waited for the page to load.
        pub waited_ms: u32,
        /// When the tab is not where the agent asked (the page navigated on by itself).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub note: Option<String>,
        /// The container a new tab opened in, when not the user's session.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub container: Option<String>,
    }

    TabEntry {
        pub tab_id: TabId,
        pub url: String,
        pub title: String,
        /// True when the asking agent owns the tab.
        pub mine: bool,
        /// The owner's short id.
        pub owner: String,
        /// One of the user's tabs, attached with `firefox_attach_tab` (given back, not closed).
        #[serde(default)]
        pub attached: bool,
    }

    PageContent {
        pub url: String,
        pub title: String,
        pub text: String,
        /// Length of the whole text in characters, before any cut.
        pub total_length: u32,
        pub truncated: bool,
        /// Content script → background only: the browser frame ids of the frames whose text goes
        /// where the markers [`frame_marker`] are (the background splices it in, and empties this).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub frames: Vec<u64>,
    }
}

/// Where frame `n`'s text goes in a frame's content (private-use characters no page text has).
pub fn frame_marker(n: usize) -> String {
    format!("\u{E000}{n}\u{E001}")
}

/// The kind of a picture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ImageMime {
    #[serde(rename = "image/jpeg")]
    Jpeg,
    #[serde(rename = "image/png")]
    Png,
}

impl ImageMime {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Jpeg => "image/jpeg",
            Self::Png => "image/png",
        }
    }
}

camel_structs! {
    Screenshot {
        pub tab_id: TabId,
        pub mime: ImageMime,
        /// Base64 of the image bytes.
        pub data: String,
        pub width: u32,
        pub height: u32,
        /// JPEG quality and scale used (after any budget step-down).
        pub quality: u8,
        pub scale: f64,
        /// The image's top-left corner as a viewport point (CSS px): image pixel (px, py) is the
        /// point `origin + p / scale`, which `firefox_click {x, y}` takes.
        #[serde(default)]
        pub origin: [f64; 2],
        /// What was waited for, what was cut or shrunk: one line each.
        pub notes: Vec<String>,
        /// Badge number → the element's ref and name (with `annotate`).
        pub marks: Vec<(u32, String)>,
    }

    ExtensionDiagnosis {
        pub version: String,
        /// The agents' window, when open.
        pub window_id: Option<u32>,
        pub tabs_in_pool: u32,
        pub pool_limit: u32,
        /// Tabs the asking agent owns.
        pub your_tabs: Vec<TabId>,
        pub agents: u32,
        /// All open browser windows (the user's and the agents').
        pub browser_windows: u32,
        /// Requests wait on the extension (some agent has a route or reads response bodies).
        #[serde(default)]
        pub intercepting: bool,
    }

    /// A compact accessibility tree in which every interactive element carries a ref.
    Snapshot {
        pub text: String,
        /// Elements given a ref.
        pub refs: u32,
        /// When cut short: where it stopped and how to get the rest.
        pub cut: Option<String>,
    }

    /// Where a text or pattern shows on the page (`firefox_find`).
    Found {
        /// The first matches, in page order (frames after the page that holds them).
        pub matches: Vec<FoundMatch>,
        /// Every match, listed or not.
        pub total: u32,
        /// Content script → background only: the browser frame ids of the frames still to search.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub frames: Vec<u64>,
        /// How much text was searched, and where the search stopped early if it did.
        pub searched: Searched,
    }

    /// What a search read (`firefox_find`): its work is bounded by time and by size.
    Searched {
        /// Characters of shown text searched, every frame's together.
        pub chars: u64,
        /// Frames searched, the page's own included.
        pub frames: u32,
        /// Milliseconds spent reading and matching their text, every frame's together.
        pub ms: u32,
        /// Why not all of the page's shown text was searched, if it was not.
        pub stopped: Option<String>,
    }

    /// One match: the element an agent can act on nearest to it, and the line it is on.
    FoundMatch {
        #[serde(rename = "ref")]
        pub element_ref: crate::args::ElementRef,
        /// Its role (`link`, `button`, …; `text` for plain text).
        pub role: String,
        pub name: String,
        /// The line the match is on, the match between « ».
        pub context: String,
    }
}

camel_structs! {
    /// An accessibility audit by axe-core (`firefox_audit`): the rules the page breaks, every
    /// frame's together.
    Audit {
        pub url: String,
        /// The axe-core version that ran.
        pub engine: String,
        /// Rules broken, most harmful first.
        pub violations: Vec<Finding>,
        /// Rules axe could not decide alone: a person should look.
        pub review: Vec<Finding>,
        /// Content script → background only: the browser frame ids of the frames still to audit.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub frames: Vec<u64>,
        /// Frames audited, the page's own included.
        pub frames_audited: u32,
        /// Frames not audited, each with why.
        pub not_audited: Vec<String>,
        /// Milliseconds axe ran, every frame's together.
        pub ms: u32,
    }

    /// One rule and the elements that break it (or that axe could not decide).
    Finding {
        /// The rule's id (`image-alt`).
        pub rule: String,
        pub impact: Option<Impact>,
        /// Its tags: the WCAG level and success criteria (`wcag2a`, `wcag111`), `best-practice`.
        pub tags: Vec<String>,
        /// What the rule asks.
        pub help: String,
        /// Where to read more about it.
        pub help_url: String,
        /// The first elements: the top page's, then each frame's.
        pub elements: Vec<Flagged>,
        /// Every element, listed or not.
        pub total: u32,
    }

    /// An element a rule flags: its ref, how its markup starts, and what to fix.
    Flagged {
        #[serde(rename = "ref")]
        pub element_ref: crate::args::ElementRef,
        /// The start of its markup.
        pub html: String,
        /// axe's words on what to fix.
        pub fix: String,
    }
}

/// How much a broken rule harms people who use assistive technology, as axe-core rates it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Impact {
    Critical,
    Serious,
    Moderate,
    Minor,
}

impl Impact {
    /// axe-core's word for it; None for anything else.
    pub fn parse(word: &str) -> Option<Self> {
        match word {
            "critical" => Some(Self::Critical),
            "serious" => Some(Self::Serious),
            "moderate" => Some(Self::Moderate),
            "minor" => Some(Self::Minor),
            _ => None,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Self::Critical => "critical",
            Self::Serious => "serious",
            Self::Moderate => "moderate",
            Self::Minor => "minor",
        }
    }
}

/// A page's load and responsiveness, from the browser's buffered performance entries
/// (`firefox_performance`). Times in ms from the start of the navigation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PagePerformance {
    pub url: String,
    /// Navigation timing, when the page has it.
    pub navigation: Option<NavigationTiming>,
    /// Largest Contentful Paint.
    pub lcp: Option<Painted>,
    /// Cumulative Layout Shift and the elements that moved most.
    pub cls: Option<Shifts>,
    /// Interaction to Next Paint: the slowest interaction's time to the next paint.
    pub inp: Option<Painted>,
    /// Tasks over 50 ms.
    pub long_tasks: Option<LongTasks>,
    /// Resources by type, most bytes first.
    pub resources: Vec<ResourceKind>,
    /// The largest resources.
    pub largest: Vec<Resource>,
    /// What this browser does not report, and so was not measured.
    pub unmeasured: Vec<String>,
    /// The document was hidden when read (a background tab): a hidden tab paints nothing.
    pub hidden: bool,
    /// Whether the tab was shown for a fresh load.
    pub showing: Showing,
}

/// Whether `firefox_performance` showed the tab while its page loaded again: a tab that is
/// not the active tab of its window paints nothing, so it has no Largest Contentful Paint.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum Showing {
    /// No reload asked: read as the tab is.
    #[default]
    NotAsked,
    /// Already the active tab of its window.
    AlreadyShown,
    /// Made the active tab of the agents' window for the reload; `restored` is the tab made
    /// active again after it.
    Shown { restored: Option<u32> },
    /// Left as it was, and why.
    NotShown { why: String },
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NavigationTiming {
    /// Time to first byte.
    pub ttfb: u32,
    pub dom_content_loaded: u32,
    pub load: u32,
    pub transfer_bytes: u64,
}

camel_structs! {
    /// A time, and the element it was about (with its ref), when there is one.
    Painted {
        pub ms: u32,
        pub element: Option<String>,
    }

    LongTasks {
        pub count: u32,
        pub total_ms: u32,
    }
}

/// The resources of one type (`script`, `img`, `css`, …).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceKind {
    pub kind: String,
    pub count: u32,
    pub bytes: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Resource {
    pub url: String,
    pub kind: String,
    pub bytes: u64,
}

camel_structs! {
    Shifts {
        pub score: f64,
        pub elements: Vec<String>,
    }

    /// What `firefox_get_element` reports.
    ElementInfo {
        pub element: String,
        pub tag: String,
        pub attributes: Vec<(String, String)>,
        pub visible: bool,
        /// x, y, width, height in CSS pixels, relative to the viewport.
        pub rect: [f64; 4],
        pub styles: Vec<(String, String)>,
        pub text: String,
        /// Current value of form fields.
        pub value: Option<String>,
    }
}

/// A structured summary of the page (`firefox_get_page_state`), also the input of
/// `firefox_diff_page_state`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PageState {
    pub url: String,
    pub title: String,
    pub headings: Vec<String>,
    pub links: Vec<String>,
    pub buttons: Vec<String>,
    pub inputs: Vec<String>,
    pub images: Vec<String>,
    pub landmarks: Vec<String>,
    pub counts: PageCounts,
    /// The page's last uncaught errors (up to 10).
    pub errors: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PageCounts {
    pub headings: u32,
    pub links: u32,
    pub buttons: u32,
    pub inputs: u32,
    pub images: u32,
    pub forms: u32,
}

camel_structs! {
    /// Dialogs the page opened, and how they were answered.
    DialogReport {
        /// What dialogs answer from now on.
        pub policy: String,
        pub seen: Vec<String>,
    }

    /// One route of an agent.
    RouteInfo {
        pub pattern: String,
        pub action: crate::args::RouteAction,
        pub hits: u32,
        /// Requests it matched but left alone: fulfilling them needs the evaluate switch.
        #[serde(default)]
        pub held: u32,
    }

    /// One cookie, as `firefox_cookies` shows it.
    CookieInfo {
        pub name: String,
        pub value: String,
        pub domain: String,
        pub path: String,
        pub secure: bool,
        pub http_only: bool,
        /// Seconds since the epoch; None for a session cookie.
        pub expires: Option<f64>,
    }

    ConsoleEntry {
        pub level: ConsoleLevel,
        pub message: String,
        /// ms since the epoch.
        pub time: f64,
    }

    /// One request's metadata (never its body).
    NetworkEntry {
        pub method: String,
        /// Sensitive query parameters redacted.
        pub url: String,
        pub kind: String,
        /// None when the request failed (`error` says why) or is still in flight (no `error`).
        pub status: Option<u16>,
        pub error: Option<String>,
        /// When it started, ms since the epoch.
        #[serde(default)]
        pub started: f64,
        /// Its whole time; in flight, its time so far.
        pub ms: u32,
        pub bytes: u64,
        /// With `includeHeaders`: the headers sent (credentials redacted).
        pub request_headers: Option<Vec<(String, String)>>,
        /// With `includeHeaders`: the headers received (credentials redacted).
        #[serde(default)]
        pub response_headers: Option<Vec<(String, String)>>,
        /// With `includeBody`, for tabs whose capture is on: the response body (text, credentials
        /// redacted, cut), or what a binary one was.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub body: Option<String>,
    }

    /// One command an agent ran, as the activity log keeps it (no typed text, values or scripts).
    ActivityEntry {
        /// When it ended, ms since the epoch.
        pub at_ms: f64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub tab: Option<TabId>,
        /// The command's wire name (`click`, `navigate`, …).
        pub tool: String,
        /// What it acted on: a selector or ref, an address (credentials redacted), a count.
        pub target: String,
        /// `ok`, or the error code.
        pub outcome: String,
    }

    /// One of an agent's downloads.
    DownloadInfo {
        /// The browser's id of the download.
        pub id: u32,
        /// Where it came from (sensitive query parameters redacted, cut).
        pub url: String,
        pub mime: String,
        pub state: DownloadState,
        /// Why it stopped, for an interrupted download.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub error: Option<String>,
        pub bytes: u64,
        /// None when the server did not say.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub total: Option<u64>,
        /// Where the browser wrote it (absolute); the MCP server moves it from there.
        pub file: String,
        /// Where the file is now, once moved into the allowed folders.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub moved_to: Option<String>,
    }
}

/// Where a download stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DownloadState {
    InProgress,
    Complete,
    Interrupted,
}

camel_structs! {
    /// Any tab of the browser (`firefox_list_all_tabs`).
    BrowserTab {
        pub tab_id: TabId,
        pub window_id: u32,
        pub title: String,
        pub url: String,
        /// Short id of the agent that owns it, if any.
        pub agent: Option<String>,
        pub mine: bool,
        pub attached: bool,
    }

    /// A focus loop.
    LoopState {
        pub active: bool,
        pub prompt: String,
        pub iteration: u32,
        pub max_iterations: u32,
        pub completion_promise: Option<String>,
        pub running_ms: u64,
        /// Why it ended, once it has.
        pub ended: Option<String>,
    }

    /// Who waits for a tab slot, and who holds a reserved one.
    SlotRequests {
        pub waiting: Vec<WaitingAgent>,
        /// `waited_ms` here is the time left on the reservation.
        pub reserved: Vec<WaitingAgent>,
        pub tabs_in_pool: u32,
        pub pool_limit: u32,
    }

    WaitingAgent {
        /// Short agent id.
        pub agent: String,
        pub mine: bool,
        pub waited_ms: u64,
    }
}

/// Page geometry for a capture, in CSS pixels. Nothing else: a content script's answer read
/// as one cannot be a `Reply` (its `kind` is refused).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PageMetrics {
    pub viewport: [f64; 2],
    pub scroll: [f64; 2],
    /// The whole document's size.
    pub page: [f64; 2],
    /// The target element's box in document coordinates, if one was asked for.
    pub element: Option<[f64; 4]>,
    /// Interactive elements in view (document coordinates), for badges: (ref and name, box).
    pub marks: Vec<(String, [f64; 4])>,
}
