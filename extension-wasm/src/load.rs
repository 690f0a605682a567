//! When does a navigation count as finished? Fed from `tabs.onUpdated`, so callers can answer
//! "the page is there" instead of returning while it still loads. And did it reach what was
//! asked for? Fed from webRequest's main-frame events ([`MainFrames`]): a load that failed
//! (connection refused, unknown host) is an error, not a "loaded" error page, and a page that
//! navigated on by itself is told apart from the page that was asked for.

use std::collections::{HashMap, VecDeque};

use claudezilla_protocol::TabId;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_decode_str, percent_encode};

/// The failure of a navigation that made no request: Firefox refused the address itself
/// (a port it blocks, a policy) and shows its error page.
const NO_REQUEST: &str = "no request was made";

/// The code of a load the browser failed for a reason of its own.
const BROWSER_FAILURE: &str = "NS_ERROR_FAILURE";

/// Main-frame loads remembered per tab, and redirects per load.
const LOADS_KEPT: usize = 8;
const REDIRECTS_KEPT: usize = 20;

/// One main-frame load: where it started and where redirects took it, and how it failed.
#[derive(Debug, Clone)]
struct Load {
    seq: u64,
    id: String,
    chain: Vec<String>,
    error: Option<String>,
    /// The response arrived (or the load failed).
    done: bool,
    /// The response began: the load did not fail on the network.
    responded: bool,
    /// Its answer became a download (claimed for the tab).
    download: bool,
    /// Handed to the download manager (`NS_BINDING_RETARGETED`).
    retargeted: bool,
    /// Its response asked to be saved, not shown ([`saved_as_file`]).
    saved: bool,
    /// The response's HTTP status, once it began.
    status: Option<u16>,
}

impl Load {
    /// Did the browser fail this load itself, before any answer? Its generic failure, not the
    /// network's (a refused connection, an unknown host) nor a cancel; and not after a
    /// redirect, which was an answer (asking again would repeat its request).
    fn broke(&self) -> bool {
        !self.responded && self.chain.len() == 1 && self.error.as_deref() == Some(BROWSER_FAILURE)
    }

    /// Could this load have ended leaving the page in place? A download or an empty answer
    /// does; a page answered 200 that is not shown was replaced by another navigation —
    /// unless its answer asked to be saved: then it is a download whose claim has yet to be
    /// heard (Firefox may tell of a small file's whole load before the download it became).
    fn leaves_page(&self) -> bool {
        self.download
            || self.retargeted
            || self.saved
            || matches!(self.status, None | Some(204 | 205))
    }
}

/// The recent main-frame loads of every tab.
#[derive(Debug, Default)]
pub struct MainFrames {
    seq: u64,
    tabs: HashMap<TabId, VecDeque<Load>>,
}

/// How a load the agent asked for ended, seen from where the tab is now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reached {
    /// The tab shows the page asked for (or where its redirects led).
    Asked,
    /// The load failed; the reason in words and the browser's code.
    Failed(String),
    /// The browser failed the load itself before any answer came (`NS_ERROR_FAILURE`, seen
    /// when tabs open a site at once in a busy browser): asked again, it may well load. The
    /// reason in words and the code.
    Broke(String),
    /// The tab is somewhere else: the page navigated on by itself, or the load was replaced.
    Elsewhere,
    /// The asked-for load is still on its way (another page finished first): wait on.
    Pending,
    /// The tab shows the asked-for address, but the load's end (success or failure) has not
    /// been heard of yet: it comes in a moment.
    Arriving,
    /// The asked-for load was cancelled by another (the page navigated by itself meanwhile).
    Superseded,
    /// The asked-for load ended well but left the page in place: its answer was a download
    /// (or empty, HTTP 204). Asking again would only download again.
    Stayed,
    /// The tab shows the asked-for web address, yet no request for it was seen: either the
    /// browser refused it before asking (a port it blocks, a policy: its error page shows) or
    /// it was a same-document move the tab's older loads do not tell of. Only the page can
    /// say which.
    Unrequested,
}

impl Reached {
    /// Is the asked load worth asking for again: the page's own navigation cancelled or
    /// replaced it, or the browser broke it before any answer?
    pub fn asks_again(&self) -> bool {
        matches!(self, Self::Superseded | Self::Elsewhere | Self::Broke(_))
    }
}

impl MainFrames {
    /// A mark to pass to [`reached`](Self::reached): loads started after it are candidates.
    pub fn mark(&self) -> u64 {
        self.seq
    }

    pub fn started(&mut self, tab: TabId, id: &str, url: &str) {
        self.seq += 1;
        let loads = self.tabs.entry(tab).or_default();
        if loads.len() == LOADS_KEPT {
            loads.pop_front();
        }
        loads.push_back(Load {
            seq: self.seq,
            id: id.to_owned(),
            chain: vec![url.to_owned()],
            error: None,
            done: false,
            responded: false,
            download: false,
            retargeted: false,
            saved: false,
            status: None,
        });
    }

    pub fn redirected(&mut self, tab: TabId, id: &str, to: &str) {
        if let Some(load) = self.find(tab, id)
            && load.chain.len() < REDIRECTS_KEPT
        {
            load.chain.push(to.to_owned());
        }
    }

    pub fn failed(&mut self, tab: TabId, id: &str, error: &str) {
        if let Some(load) = self.find(tab, id) {
            // Handed to the download manager: the load ended well, in a file.
            load.retargeted = error.contains("NS_BINDING_RETARGETED");
            load.error = (!load.retargeted).then(|| error.to_owned());
            load.done = true;
        }
    }

    /// The tab's newest load of `url` turned into a download: it has ended, the page stays.
    /// False when no such load is known.
    pub fn downloaded(&mut self, tab: TabId, url: &str) -> bool {
        let Some(load) = self.tabs.get_mut(&tab).and_then(|loads| {
            loads
                .iter_mut()
                .rev()
                .find(|l| l.chain.iter().any(|u| same_page(u, url)))
        }) else {
            return false;
        };
        load.download = true;
        load.done = true;
        load.error = None;
        true
    }

    /// The load's response began (its first bytes arrived), with this HTTP status.
    pub fn responded(&mut self, tab: TabId, id: &str, status: u16) {
        if let Some(load) = self.find(tab, id) {
            load.responded = true;
            load.status = Some(status);
        }
    }

    /// The tab's top document at `url` loaded (its own word): the newest load that led there
    /// was answered.
    pub fn shown(&mut self, tab: TabId, url: &str) {
        if let Some(load) = self.tabs.get_mut(&tab).and_then(|loads| {
            loads
                .iter_mut()
                .rev()
                .find(|l| l.chain.iter().any(|u| same_page(u, url)))
        }) {
            load.responded = true;
        }
    }

    /// The load's response ended; `headers` are the response's (name, value).
    pub fn completed(&mut self, tab: TabId, id: &str, headers: &[(String, String)]) {
        if let Some(load) = self.find(tab, id) {
            load.done = true;
            load.saved = saved_as_file(headers);
        }
    }

    /// Has the network told how the tab's newest load ended (or is there none)?
    pub fn settled(&self, tab: TabId) -> bool {
        self.tabs
            .get(&tab)
            .and_then(|loads| loads.back())
            .is_none_or(|l| l.done)
    }

    pub fn forget(&mut self, tab: TabId) {
        self.tabs.remove(&tab);
    }

    /// Did the tab start loading another page since `mark`?
    pub fn started_since(&self, tab: TabId, mark: u64) -> bool {
        self.tabs
            .get(&tab)
            .is_some_and(|loads| loads.back().is_some_and(|l| l.seq > mark))
    }

    /// Was the tab at `url` before `mark` (a blank tab, or where a load before it led)?
    fn was_at(&self, tab: TabId, mark: u64, url: &str) -> bool {
        is_blank(url)
            || self.tabs.get(&tab).is_some_and(|loads| {
                loads
                    .iter()
                    .filter(|l| l.seq <= mark)
                    .any(|l| l.chain.iter().any(|u| same_page(u, url)))
            })
    }

    fn find(&mut self, tab: TabId, id: &str) -> Option<&mut Load> {
        self.tabs
            .get_mut(&tab)?
            .iter_mut()
            .rev()
            .find(|l| l.id == id)
    }

    /// After a navigation to `asked` (None: back, forward, reload) begun at `mark`, with the
    /// tab now at `now_url`: did the agent get what it asked for?
    pub fn reached(&self, tab: TabId, mark: u64, asked: Option<&str>, now_url: &str) -> Reached {
        let loads: Vec<&Load> = self
            .tabs
            .get(&tab)
            .map(|l| l.iter().filter(|l| l.seq > mark).collect())
            .unwrap_or_default();
        // Ours is the first load of the asked URL since the mark; without a URL, the first.
        let ours = match asked {
            Some(asked) => loads.iter().find(|l| same_page(&l.chain[0], asked)),
            None => loads.first(),
        };
        let Some(ours) = ours else {
            return match asked {
                // Only other pages' loads so far: ours has yet to start.
                Some(_) if !loads.is_empty() => Reached::Pending,
                // No load at all: a same-document navigation (a fragment), a page we cannot
                // watch, or an address the browser refused before any request.
                Some(asked) if !same_page(asked, now_url) => Reached::Elsewhere,
                Some(asked) if web_address(asked) && !self.was_at(tab, mark, asked) => {
                    Reached::Unrequested
                }
                _ => Reached::Asked,
            };
        };
        if ours.download {
            return Reached::Stayed;
        }
        if ours.chain.iter().any(|u| same_page(u, now_url)) {
            return match &ours.error {
                Some(e) if ours.broke() => Reached::Broke(net_error(e)),
                Some(e) if !superseded(e) => Reached::Failed(net_error(e)),
                _ if !ours.done && !ours.responded => Reached::Arriving,
                _ => Reached::Asked,
            };
        }
        if !ours.done {
            return Reached::Pending;
        }
        match &ours.error {
            Some(e) if superseded(e) => Reached::Superseded,
            Some(e) if loads.last().is_some_and(|l| l.id == ours.id) => {
                if ours.broke() {
                    Reached::Broke(net_error(e))
                } else {
                    Reached::Failed(net_error(e))
                }
            }
            None if loads.last().is_some_and(|l| l.id == ours.id)
                && self.was_at(tab, mark, now_url)
                && ours.leaves_page() =>
            {
                Reached::Stayed
            }
            _ => Reached::Elsewhere,
        }
    }
}

/// Does a response ask to be saved rather than shown? `Content-Disposition: attachment`, or an
/// `application/` type Firefox has no viewer for (`octet-stream`, archives, office files):
/// Firefox downloads both.
pub fn saved_as_file(headers: &[(String, String)]) -> bool {
    let value = |wanted: &'static str| {
        headers
            .iter()
            .filter(move |(name, _)| name.eq_ignore_ascii_case(wanted))
            .map(|(_, value)| value.split(';').next().unwrap_or("").trim())
    };
    value("content-disposition").any(|v| v.eq_ignore_ascii_case("attachment"))
        || value("content-type").any(|v| !shown_inline(&v.to_ascii_lowercase()))
}

/// The `application/` types Firefox shows in the tab (its XML, JSON and PDF viewers, scripts
/// as text, Ogg media). Written out here: a MIME crate names types, not what one browser displays.
const SHOWN_APPLICATION_TYPES: [&str; 8] = [
    "xml",
    "xhtml+xml",
    "json",
    "pdf",
    "javascript",
    "ecmascript",
    "x-javascript",
    "ogg",
];

/// Does Firefox show an answer of this type (lower case, no parameters) in the tab? Every
/// type but `application/` ones (text, images, media, and what it sniffs) is taken as shown.
fn shown_inline(essence: &str) -> bool {
    let Some(subtype) = essence.strip_prefix("application/") else {
        return true;
    };
    SHOWN_APPLICATION_TYPES.contains(&subtype)
        || subtype.ends_with("+xml")
        || subtype.ends_with("+json")
}

fn web_address(url: &str) -> bool {
    let scheme = url.split(':').next().unwrap_or("").to_ascii_lowercase();
    scheme == "http" || scheme == "https"
}

/// Why a load the browser refused before making any request failed.
pub fn unrequested_error() -> String {
    net_error(NO_REQUEST)
}

/// A load cancelled because another replaced it (the page navigated again, or we did).
fn superseded(error: &str) -> bool {
    error.contains("NS_BINDING_ABORTED") || error.contains("NS_ERROR_ABORT")
}

/// A page that is no page yet: what `window.open()` without an address opens.
pub fn is_blank(url: &str) -> bool {
    url.is_empty() || url == BLANK
}

/// The same page for our purposes, compared as Firefox writes addresses: both parsed by the
/// URL standard (case, default ports, empty paths, dot segments, IPv4 forms, international
/// hosts, percent-encoding), fragments ignored, and a byte alike escaped or not — Firefox
/// escapes a few the standard leaves as typed, and leaves a few it escapes.
pub fn same_page(a: &str, b: &str) -> bool {
    page_key(a) == page_key(b)
}

/// What separates the parts of a path or query: escaped, it is another address.
const SEPARATORS: [char; 6] = ['/', '?', '&', '=', '+', ';'];
/// Every byte but the unreserved ones is written escaped in a key.
const ESCAPED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// `address` without its fragment (from the first `#`, as the standard has it), as the URL
/// standard parses it, with each byte between separators written one way; an address it
/// cannot parse, as written.
fn page_key(address: &str) -> String {
    let address = address.split('#').next().unwrap_or(address);
    let Ok(url) = url::Url::parse(address) else {
        return address.to_owned();
    };
    url.as_str()
        .split_inclusive(SEPARATORS)
        .map(|piece| {
            let (text, separator) = piece.split_at(piece.trim_end_matches(SEPARATORS).len());
            let bytes: Vec<u8> = percent_decode_str(text).collect();
            format!("{}{separator}", percent_encode(&bytes, ESCAPED))
        })
        .collect()
}

/// A browser error code in words, with the code.
pub fn net_error(code: &str) -> String {
    let words = match code {
        c if c.contains("CONNECTION_REFUSED") => {
            "the connection was refused (nothing listens there)"
        }
        c if c.contains("UNKNOWN_HOST") => "the host name is unknown (DNS lookup failed)",
        c if c.contains("NET_TIMEOUT") => "the server did not answer in time",
        c if c.contains("NET_RESET") || c.contains("NET_INTERRUPT") => "the connection was reset",
        c if c.contains("OFFLINE") => "the browser is offline",
        c if c.contains("PROXY") => "the proxy refused the connection",
        c if c.contains("CERT") || c.contains("ISSUER") => "the site's certificate is not trusted",
        // Firefox names NSS's failures in words ("SSL received a record that exceeded …").
        c if c.starts_with("SEC_ERROR") || c.contains("SSL") || c.contains("TLS") => {
            "the secure connection failed (TLS)"
        }
        c if c.contains("REDIRECT_LOOP") => "the page redirects in a loop",
        NO_REQUEST => {
            "Firefox refused the address before any request (a port it blocks, or a policy) and shows its error page"
        }
        c if c.contains("BLOCKED") => "the address is blocked (by a policy or a content blocker)",
        _ => "the page could not be loaded",
    };
    format!("{words} ({code})")
}

/// How an agent's tab is opened on an address: created on about:blank, so that it joins the
/// pool and its first page is marked as an agent's before anything loads, then (for any other
/// address) navigated there. That second step is a navigation like any other: it ends at the
/// tab's change to "complete" after a "loading", never at the tab's state read in between —
/// under load Firefox was seen to read a tab "complete" at its new address before the page
/// had loaded (most likely while the load switches process).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opening {
    pub blank: LoadWatch,
    /// The navigation to the address; none where about:blank was asked.
    pub then: Option<LoadWatch>,
}

pub fn opening(url: &str) -> Opening {
    Opening {
        blank: LoadWatch::NewBlank,
        then: (url != BLANK).then(LoadWatch::navigation),
    }
}

/// The page every tab starts on.
pub const BLANK: &str = "about:blank";

/// What a caller is waiting for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadWatch {
    /// A tab just created on about:blank: done once it reads "complete".
    NewBlank,
    /// An existing tab told to load something: wait for a load to start and finish, or for a
    /// same-document navigation (fragment change), which never reports "loading".
    Navigation { saw_loading: bool },
    /// A load is under way already (ours, behind a page's own): the next "complete".
    NextComplete,
    /// Any change of the tab's address (a load or a same-document move).
    UrlChange,
}

impl LoadWatch {
    pub fn navigation() -> Self {
        Self::Navigation { saw_loading: false }
    }

    /// Is the tab, as it is now, already done? (Checked right after the watch is registered,
    /// in case the load finished before any event arrived.)
    pub fn satisfied_by(&self, status: &str) -> bool {
        match *self {
            Self::NewBlank => status == "complete",
            Self::Navigation { .. } | Self::NextComplete | Self::UrlChange => false,
        }
    }

    /// Feeds one `tabs.onUpdated` event: `changed_status`/`changed_url` are the change info,
    /// `status` the tab's after it. Returns true when the load is done.
    pub fn on_update(
        &mut self,
        changed_status: Option<&str>,
        changed_url: Option<&str>,
        status: &str,
    ) -> bool {
        match self {
            Self::NewBlank => self.satisfied_by(status),
            Self::Navigation { saw_loading } => {
                if changed_status == Some("loading") {
                    *saw_loading = true;
                }
                let finished = *saw_loading && changed_status == Some("complete");
                // A move within the page; never one to about:blank, which is the new tab's own
                // late word on its blank page, not a page asked for.
                let same_document = !*saw_loading
                    && changed_url.is_some_and(|u| !is_blank(u))
                    && status == "complete";
                finished || same_document
            }
            Self::NextComplete => changed_status == Some("complete"),
            Self::UrlChange => changed_url.is_some(),
        }
    }
}

/// Is `title` what Firefox shows for a page whose own title it does not know (yet): the
/// address without its scheme, or nothing?
pub fn placeholder_title(title: &str, url: &str) -> bool {
    title.is_empty() || url.split_once("://").is_some_and(|(_, rest)| rest == title)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn addresses_are_the_same_page_as_firefox_writes_them() {
        let p = "http://127.0.0.1:8000";
        // What an agent typed, and what Firefox showed for it (seen in Firefox ESR).
        for (typed, shown) in [
            (format!("{p}/s?q=O'Brien"), format!("{p}/s?q=O%27Brien")),
            (
                format!("{p}/s?q=rust async"),
                format!("{p}/s?q=rust%20async"),
            ),
            (
                format!("{p}/s?q=say \"hi\""),
                format!("{p}/s?q=say%20%22hi%22"),
            ),
            (format!("{p}/s?q=<b>"), format!("{p}/s?q=%3Cb%3E")),
            (format!("{p}/s?q=a|b`^{{}}"), format!("{p}/s?q=a|b`^{{}}")),
            (format!("{p}/s?q=caf\u{e9}"), format!("{p}/s?q=caf%C3%A9")),
            (
                format!("{p}/a b/\"c\"/<d>/`e`/{{f}}/^g|h/caf\u{e9}"),
                format!("{p}/a%20b/%22c%22/%3Cd%3E/%60e%60/%7Bf%7D/%5Eg|h/caf%C3%A9"),
            ),
            (format!("{p}/x/./y/../../s"), format!("{p}/s")),
            (format!("{p}\\s"), format!("{p}/s")),
            (format!("{p}/s#a b\"<c>`"), format!("{p}/s")),
            (p.to_owned(), format!("{p}/")),
            (format!("{p}?q=no path"), format!("{p}/?q=no%20path")),
            ("HTTP://127.0.0.1:8000/s".into(), format!("{p}/s")),
            ("http://2130706433:8000/s".into(), format!("{p}/s")),
            ("http://0x7f.1:8000/s".into(), format!("{p}/s")),
            ("http://x.test:80/s".into(), "http://x.test/s".into()),
            ("https://x.test:443".into(), "https://x.test/".into()),
            (
                "http://b\u{fc}cher.example/".into(),
                "http://xn--bcher-kva.example/".into(),
            ),
            (
                "http://B\u{dc}CHER.example/".into(),
                "http://xn--bcher-kva.example/".into(),
            ),
            (format!("{p}/%7e%2f"), format!("{p}/~%2F")),
        ] {
            assert!(same_page(&typed, &shown), "{typed} is {shown}");
        }
        // What separates parts counts as written; anything else is another page.
        for (a, b) in [
            (format!("{p}/s?a=1&b=2"), format!("{p}/s?a=1%26b=2")),
            (format!("{p}/s?a=1+2"), format!("{p}/s?a=1%2B2")),
            (format!("{p}/a/b"), format!("{p}/a%2Fb")),
            (format!("{p}/s?q=a"), format!("{p}/s?q=b")),
            (format!("{p}/s"), "http://127.0.0.1:8001/s".into()),
            ("http://x.test:8080/".into(), "http://x.test/".into()),
            ("http://x.test/".into(), "https://x.test/".into()),
        ] {
            assert!(!same_page(&a, &b), "{a} is not {b}");
        }
        assert!(same_page("about:blank", "about:blank"));
        assert!(is_blank("") && is_blank("about:blank") && !is_blank("about:blank#x"));
        assert!(same_page("not an address#x", "not an address"));
    }

    /// `escaped` with the hex digits of its escapes in lower case.
    fn lower_hex(escaped: &str) -> String {
        let mut digits = 0;
        escaped
            .chars()
            .map(|c| match c {
                '%' => {
                    digits = 2;
                    c
                }
                _ if digits > 0 => {
                    digits -= 1;
                    c.to_ascii_lowercase()
                }
                _ => c,
            })
            .collect()
    }

    proptest! {
        /// A byte is the same escaped or not, in any case of hex, wherever it is: what an agent
        /// types and what Firefox shows for it are one page.
        #[test]
        fn escaping_a_byte_never_makes_another_page(
            text in "[a-zA-Z0-9 '\"<>|`^{}~!$()*,:@\\[\\]é€\u{1F600}-]{0,24}",
            lower in any::<bool>(),
        ) {
            let mut escaped = percent_encode(text.as_bytes(), NON_ALPHANUMERIC).to_string();
            if lower {
                escaped = lower_hex(&escaped);
            }
            let typed = format!("http://h.test/{text}?q={text}&end");
            let shown = format!("http://h.test/{escaped}?q={escaped}&end");
            prop_assert!(same_page(&typed, &shown), "{} is {}", typed, shown);
            let other = format!("{typed}x");
            prop_assert!(!same_page(&typed, &other));
        }

        /// Any two texts compare without panicking, alike both ways, a text like itself, and
        /// a fragment changes nothing.
        #[test]
        fn any_text_compares(a in ".{0,60}", b in ".{0,60}", fragment in ".{0,10}") {
            prop_assert_eq!(same_page(&a, &b), same_page(&b, &a));
            prop_assert!(same_page(&a, &a));
            let with_fragment = format!("{a}#{fragment}");
            prop_assert!(same_page(&a, &with_fragment));
        }
    }

    #[test]
    fn placeholder_titles_are_the_address_without_its_scheme() {
        assert!(placeholder_title(
            "127.0.0.1:8000/basic.html",
            "http://127.0.0.1:8000/basic.html"
        ));
        assert!(placeholder_title("", "https://a.test/"));
        assert!(!placeholder_title(
            "Basic page",
            "http://127.0.0.1:8000/basic.html"
        ));
        assert!(!placeholder_title("about:blank", "about:blank"));
    }

    const T: TabId = TabId(3);

    #[test]
    fn a_refused_connection_is_a_failure_in_words() {
        let mut m = MainFrames::default();
        let mark = m.mark();
        m.started(T, "1", "http://127.0.0.1:9/");
        m.failed(T, "1", "NS_ERROR_CONNECTION_REFUSED");
        let got = m.reached(T, mark, Some("http://127.0.0.1:9"), "http://127.0.0.1:9/");
        assert_eq!(
            got,
            Reached::Failed(
                "the connection was refused (nothing listens there) (NS_ERROR_CONNECTION_REFUSED)"
                    .into()
            )
        );
    }

    #[test]
    fn an_address_refused_before_any_request_is_unrequested() {
        // No word from the network at all: the page must say whether it is there.
        let mut m = MainFrames::default();
        let mark = m.mark();
        assert_eq!(
            m.reached(T, mark, Some("http://127.0.0.1:1/"), "http://127.0.0.1:1/"),
            Reached::Unrequested
        );
        assert!(unrequested_error().contains("refused the address"));
        // A fragment of the page the tab is at needs no request.
        m.started(T, "9", "http://f/page");
        m.completed(T, "9", &[]);
        let mark = m.mark();
        assert_eq!(
            m.reached(T, mark, Some("http://f/page#b"), "http://f/page#b"),
            Reached::Asked
        );
        // Neither does a page that is not on the web.
        assert_eq!(
            m.reached(T, mark, Some("file:///tmp/x.html"), "file:///tmp/x.html"),
            Reached::Asked
        );
        // Firefox names TLS failures in words.
        assert!(
            net_error("SSL received a record that exceeded the maximum permissible length.")
                .contains("secure connection")
        );
        assert!(net_error("SSL_ERROR_BAD_CERT_DOMAIN").contains("certificate"));
    }

    #[test]
    fn redirects_reach_the_asked_page_and_self_navigation_is_elsewhere() {
        let mut m = MainFrames::default();
        m.started(T, "0", "http://x/old");
        let mark = m.mark();
        m.started(T, "9", "http://x/tick?2");
        // The page's own navigation finished first: ours is still coming.
        assert_eq!(
            m.reached(T, mark, Some("http://x/a"), "http://x/tick?2"),
            Reached::Pending
        );
        m.started(T, "1", "http://x/a");
        assert_eq!(
            m.reached(T, mark, Some("http://x/a"), "http://x/tick?2"),
            Reached::Pending
        );
        assert_eq!(
            m.reached(T, mark, Some("http://x/a"), "http://x/a"),
            Reached::Arriving
        );
        m.redirected(T, "1", "http://x/b");
        m.completed(T, "1", &[]);
        assert_eq!(
            m.reached(T, mark, Some("http://X/a"), "http://x/b#top"),
            Reached::Asked
        );
        // The page then moved on by itself.
        m.started(T, "2", "http://x/tick?3");
        assert_eq!(
            m.reached(T, mark, Some("http://x/a"), "http://x/tick?3"),
            Reached::Elsewhere
        );
        // Our load cancelled by the page's own navigation is not a failure of the URL.
        let mark = m.mark();
        m.started(T, "3", "http://y/");
        m.failed(T, "3", "NS_BINDING_ABORTED");
        m.started(T, "4", "http://x/tick?4");
        assert_eq!(
            m.reached(T, mark, Some("http://y/"), "http://x/tick?4"),
            Reached::Superseded
        );
    }

    #[test]
    fn a_download_leaves_the_page_in_place_and_is_not_asked_for_again() {
        let mut m = MainFrames::default();
        m.started(T, "0", "http://x/page");
        m.completed(T, "0", &[]);
        let mark = m.mark();
        m.started(T, "1", "http://x/report.bin");
        assert_eq!(
            m.reached(T, mark, Some("http://x/report.bin"), "http://x/page"),
            Reached::Pending
        );
        m.failed(T, "1", "NS_BINDING_RETARGETED");
        assert_eq!(
            m.reached(T, mark, Some("http://x/report.bin"), "http://x/page"),
            Reached::Stayed
        );
        // A page that changed its own address (history.pushState) is elsewhere.
        assert_eq!(
            m.reached(T, mark, Some("http://x/report.bin"), "http://x/pushed"),
            Reached::Elsewhere
        );
        // Claimed as a download before the network's word on the load.
        let mark = m.mark();
        m.started(T, "2", "http://x/report.bin");
        assert!(m.downloaded(T, "http://x/report.bin"));
        assert!(!m.downloaded(T, "http://x/other.bin"));
        assert_eq!(
            m.reached(T, mark, Some("http://x/report.bin"), "http://x/page"),
            Reached::Stayed
        );
        // From a blank tab, which no load brought.
        let mut m = MainFrames::default();
        let mark = m.mark();
        m.started(T, "1", "http://x/report.bin");
        m.completed(T, "1", &[]);
        assert_eq!(
            m.reached(T, mark, Some("http://x/report.bin"), "about:blank"),
            Reached::Stayed
        );
    }

    #[test]
    fn a_load_the_browser_broke_before_any_answer_is_told_from_a_failed_one() {
        let ended = |error: &str, answered: bool| {
            let mut m = MainFrames::default();
            let mark = m.mark();
            m.started(T, "1", "http://x/a");
            if answered {
                m.responded(T, "1", 200);
            }
            m.failed(T, "1", error);
            (
                m.reached(T, mark, Some("http://x/a"), "http://x/a"),
                // Where the error page is not (yet) what the tab shows.
                m.reached(T, mark, Some("http://x/a"), "about:blank"),
            )
        };
        let broke = Reached::Broke(net_error("NS_ERROR_FAILURE"));
        assert_eq!(ended("NS_ERROR_FAILURE", false), (broke.clone(), broke));
        let failed = |code: &str| Reached::Failed(net_error(code));
        assert_eq!(
            ended("NS_ERROR_FAILURE", true),
            (failed("NS_ERROR_FAILURE"), failed("NS_ERROR_FAILURE"))
        );
        let refused = "NS_ERROR_CONNECTION_REFUSED";
        assert_eq!(ended(refused, false), (failed(refused), failed(refused)));
        // After a redirect (an answer): failed, not asked again.
        let mut m = MainFrames::default();
        let mark = m.mark();
        m.started(T, "1", "http://x/a");
        m.redirected(T, "1", "http://x/b");
        m.failed(T, "1", "NS_ERROR_FAILURE");
        assert_eq!(
            m.reached(T, mark, Some("http://x/a"), "http://x/b"),
            failed("NS_ERROR_FAILURE")
        );
        assert!(Reached::Broke(String::new()).asks_again());
        assert!(!failed(refused).asks_again());
    }

    #[test]
    fn a_small_download_heard_whole_before_its_claim_is_not_asked_for_again() {
        // Firefox told of the file's whole load (200, then its end) before the download it
        // became: under load, the navigation was once asked again and downloaded twice.
        // Saved: a download whose claim comes later. Shown inline, or a page: lost to another
        // navigation, as before.
        let (saved, shown) = (Reached::Stayed, Reached::Elsewhere);
        for (name, value, reached) in [
            (
                "Content-Disposition",
                "attachment; filename=\"report.bin\"",
                &saved,
            ),
            ("content-disposition", "ATTACHMENT", &saved),
            (
                "Content-Type",
                "application/octet-stream; charset=binary",
                &saved,
            ),
            ("Content-Type", "application/zip", &saved),
            ("content-type", "Application/VND.ms-excel", &saved),
            (
                "Content-Disposition",
                "inline; filename=attachment.pdf",
                &shown,
            ),
            ("Content-Type", "text/html", &shown),
            ("Content-Type", "application/pdf", &shown),
            ("Content-Type", "Application/JSON; charset=utf-8", &shown),
            ("Content-Type", "application/atom+xml", &shown),
            ("Content-Type", "image/png", &shown),
            ("Content-Type", "application/ogg", &shown),
            ("X-Note", "attachment", &shown),
        ] {
            let mut m = MainFrames::default();
            m.started(T, "0", "http://x/page");
            m.completed(T, "0", &[]);
            let mark = m.mark();
            m.started(T, "1", "http://x/report.bin");
            m.responded(T, "1", 200);
            m.completed(T, "1", &[(name.to_owned(), value.to_owned())]);
            assert_eq!(
                &m.reached(T, mark, Some("http://x/report.bin"), "http://x/page"),
                reached,
                "{name}: {value}"
            );
        }
    }

    #[test]
    fn a_page_answered_but_not_shown_lost_to_the_pages_own_navigation() {
        // The page had started a navigation of its own just before ours (so it is older than
        // the mark), and its document won: ours was answered 200 and is not shown.
        let mut m = MainFrames::default();
        m.started(T, "0", "http://x/ticker");
        m.completed(T, "0", &[]);
        m.started(T, "1", "http://x/ticker?1");
        let mark = m.mark();
        m.started(T, "2", "http://x/other");
        m.responded(T, "2", 200);
        m.completed(T, "2", &[]);
        m.completed(T, "1", &[]);
        assert_eq!(
            m.reached(T, mark, Some("http://x/other"), "http://x/ticker?1"),
            Reached::Elsewhere
        );
        // An empty answer leaves the page where it was.
        let mark = m.mark();
        m.started(T, "3", "http://x/ping");
        m.responded(T, "3", 204);
        m.completed(T, "3", &[]);
        assert_eq!(
            m.reached(T, mark, Some("http://x/ping"), "http://x/ticker?1"),
            Reached::Stayed
        );
    }

    #[test]
    fn history_moves_and_fragments() {
        let mut m = MainFrames::default();
        let mark = m.mark();
        m.started(T, "1", "http://x/prev");
        m.completed(T, "1", &[]);
        assert_eq!(m.reached(T, mark, None, "http://x/prev"), Reached::Asked);
        let mark = m.mark();
        assert_eq!(
            m.reached(T, mark, Some("http://x/prev#b"), "http://x/prev#b"),
            Reached::Asked
        );
        assert_eq!(
            m.reached(T, mark, Some("http://x/other"), "http://x/prev"),
            Reached::Elsewhere
        );
    }

    #[test]
    fn memory_is_bounded() {
        let mut m = MainFrames::default();
        for i in 0..100 {
            m.started(T, &i.to_string(), "http://x/");
            for _ in 0..50 {
                m.redirected(T, &i.to_string(), "http://x/r");
            }
        }
        let loads = &m.tabs[&T];
        assert_eq!(loads.len(), LOADS_KEPT);
        assert!(loads.iter().all(|l| l.chain.len() <= REDIRECTS_KEPT));
    }

    #[test]
    fn a_new_tab_is_done_at_its_pages_load_not_at_the_tabs_state_in_between() {
        let asked = opening("http://x/");
        assert!(asked.blank.satisfied_by("complete"));
        let mut w = asked.then.expect("navigated from about:blank");
        assert!(!w.satisfied_by("complete"));
        // Seen in Firefox under load: an update that changes neither status nor address while
        // the tab reads "complete" at the new address, its page not yet loaded (its title was
        // still the address).
        assert!(!w.on_update(None, None, "complete"));
        // The blank page's own late word on its address.
        assert!(!w.on_update(Some("complete"), Some(BLANK), "complete"));
        assert!(!w.on_update(Some("loading"), Some("http://x/"), "loading"));
        assert!(!w.on_update(None, None, "complete"));
        // The tab's change to "complete" ends it, wherever redirects took it.
        assert!(w.on_update(Some("complete"), None, "complete"));
        let blank = opening(BLANK);
        assert_eq!(blank.then, None);
        assert!(blank.blank.satisfied_by("complete"));
    }

    #[test]
    fn a_navigation_needs_a_fresh_load() {
        let mut w = LoadWatch::navigation();
        assert!(!w.satisfied_by("complete"));
        // A stale "complete" of the old page before the new load started does not count.
        assert!(!w.on_update(Some("complete"), None, "complete"));
        assert!(!w.on_update(Some("loading"), Some("http://new/"), "loading"));
        assert!(!w.on_update(None, None, "loading"));
        assert!(w.on_update(Some("complete"), None, "complete"));
    }

    #[test]
    fn a_fragment_change_is_a_finished_navigation() {
        let mut w = LoadWatch::navigation();
        assert!(w.on_update(None, Some("http://x/#b"), "complete"));
    }

    #[test]
    fn a_response_under_way_is_word_enough_that_the_load_arrived() {
        let mut m = MainFrames::default();
        let mark = m.mark();
        m.started(T, "1", "http://x/a");
        assert_eq!(
            m.reached(T, mark, Some("http://x/a"), "http://x/a"),
            Reached::Arriving
        );
        m.responded(T, "1", 200);
        assert!(!m.settled(T), "the network has not told of its end");
        assert_eq!(
            m.reached(T, mark, Some("http://x/a"), "http://x/a"),
            Reached::Asked
        );
        m.started(T, "2", "http://x/b");
        m.redirected(T, "2", "http://x/c");
        m.shown(T, "http://x/c#top");
        assert_eq!(
            m.reached(T, mark, Some("http://x/b"), "http://x/c"),
            Reached::Asked
        );
        // A failure heard later still counts (the error page shows the asked address too).
        m.failed(T, "1", "NS_ERROR_NET_RESET");
        assert!(matches!(
            m.reached(T, mark, Some("http://x/a"), "http://x/a"),
            Reached::Failed(_)
        ));
        assert!(!m.settled(T), "the newest load has not ended");
        m.completed(T, "2", &[]);
        assert!(m.settled(T));
        assert!(m.settled(TabId(99)), "a tab with no load waits for nothing");
    }

    #[test]
    fn a_url_watch_wakes_at_any_move_and_at_nothing_else() {
        let mut w = LoadWatch::UrlChange;
        assert!(!w.satisfied_by("complete"));
        assert!(!w.on_update(Some("loading"), None, "loading"));
        assert!(!w.on_update(Some("complete"), None, "complete"));
        assert!(!w.on_update(None, None, "complete"));
        assert!(w.on_update(None, Some("http://x/next"), "complete"));
        assert!(w.on_update(Some("loading"), Some("http://y/"), "loading"));
    }
}
