//! The small answers: what an action did, a list, a count. Each is the payload of one
//! [`Reply`] variant of the same name; the few commands that answer in two ways have an enum.

use serde::{Deserialize, Serialize};

use super::{
    ActivityEntry, Answer, BrowserTab, ConsoleEntry, CookieInfo, DownloadInfo, NetworkEntry, Reply,
    RouteInfo, TabEntry,
};
use crate::TabId;

camel_structs! {
    Tabs {
        pub tabs: Vec<TabEntry>,
    }

    Clicked {
        pub element: String,
        /// A link the click would open in a new tab (`target=_blank`, a middle or modified
        /// click): asked by the page's frame, then opened (or refused) by the background.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub new_tab: Option<NewTab>,
        /// What Firefox refused the page during the click (a popup, a clipboard write).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub refused: Vec<String>,
    }

    Typed {
        pub element: String,
        pub value_length: u32,
        /// How the text went in, when not as keystrokes would (or what the field refused).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub note: Option<String>,
    }

    Closed {
        pub tab_id: TabId,
    }

    Pong {
        pub version: String,
    }

    Bye {
        pub tabs_closed: u32,
    }

    /// The agent is queued for the next granted slot (or there is room already).
    SlotRequested {
        pub position: u32,
        pub room_now: bool,
    }

    /// The granter's oldest tab was closed; the slot is reserved for `to`.
    Granted {
        pub released_tab: TabId,
        pub to: String,
        pub reserved_ms: u32,
    }

    /// An action on an element or the page, described for the agent.
    Acted {
        pub what: String,
    }

    /// A wait ended with its condition met.
    Waited {
        pub what: String,
        pub waited_ms: u32,
    }

    WindowClosed {
        pub tabs_closed: u32,
    }

    Console {
        pub entries: Vec<ConsoleEntry>,
        pub total: u32,
    }

    Network {
        pub entries: Vec<NetworkEntry>,
        pub total: u32,
    }

    /// The agent's routes, newest first, with how many requests each has met.
    Routes {
        pub routes: Vec<RouteInfo>,
    }

    /// The agent's own recent actions, newest first (`firefox_get_activity`).
    Activity {
        pub entries: Vec<ActivityEntry>,
    }

    /// The agent's downloads, newest first (at most `MAX_DOWNLOADS`).
    Downloads {
        pub downloads: Vec<DownloadInfo>,
    }

    /// The cookies a tab's page gets (values cut at `MAX_STORED_VALUE`).
    Cookies {
        pub url: String,
        pub cookies: Vec<CookieInfo>,
    }

    /// The entries of one storage area of a tab's page (values cut), and how many there are.
    Stored {
        pub origin: String,
        pub area: crate::args::StorageArea,
        pub entries: Vec<(String, String)>,
        pub total: u32,
    }

    /// JSON text of the value (or a description when it is not JSON), and its JS type.
    Evaluated {
        pub value: String,
        pub js_type: String,
    }

    Config {
        pub allowed_domains: Vec<String>,
        pub handle_consent: bool,
        /// The user's allowlist, which holds whatever the agent's says (empty: none).
        #[serde(default)]
        pub user_domains: Vec<String>,
    }

    AllTabs {
        pub tabs: Vec<BrowserTab>,
    }

    /// The Stop hook's verdict: keep the session going with `reason`, or let it stop.
    LoopDecision {
        pub block: bool,
        pub reason: String,
    }
}

/// An answer that is one of two kinds: a listing, or what an action did.
macro_rules! listed_or_acted {
    ($(#[$doc:meta])* $name:ident { $listed:ident($payload:ty) }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq)]
        pub enum $name {
            $listed($payload),
            Acted(Acted),
        }

        impl Answer for $name {
            fn from_reply(reply: Reply) -> Result<Self, Reply> {
                match reply {
                    Reply::$listed(listed) => Ok(Self::$listed(listed)),
                    Reply::Acted(acted) => Ok(Self::Acted(acted)),
                    other => Err(other),
                }
            }

            fn into_reply(self) -> Reply {
                match self {
                    Self::$listed(listed) => Reply::$listed(listed),
                    Self::Acted(acted) => Reply::Acted(acted),
                }
            }
        }
    };
}

listed_or_acted! {
    /// `cookies`: the cookies (get), or what was set or deleted.
    CookiesAnswer { Cookies(Cookies) }
}

listed_or_acted! {
    /// `storage`: the entries (get), or what was set or cleared.
    StorageAnswer { Stored(Stored) }
}

/// A new tab a clicked link opens. Firefox's popup blocker refuses it to a synthetic click,
/// so the frame stops the page's own attempt and the background opens it as the agent's tab.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum NewTab {
    /// The frame's word: this address, to open.
    Asked { url: String },
    /// The frame's word: the page's own `window.open` opened this address (the user allows
    /// popups on the site), for the background to find as the agent's tab.
    Popped { url: String },
    /// Opened as the agent's tab.
    Opened { tab_id: TabId, url: String },
    /// Not opened, and why (the allowlist, the pool's limit).
    Refused { url: String, why: String },
}
