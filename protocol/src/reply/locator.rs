//! Where an element is, named as a person writing a Playwright test names it
//! (`firefox_trace`'s test file): its role and name, narrowed to an enclosing row or dialog or
//! to a position when others share them, inside the iframes that hold it.

use serde::{Deserialize, Serialize};

camel_structs! {
    /// An element as a chain of picks: the iframes around it, outermost first, then itself.
    Locator {
        pub frames: Vec<Pick>,
        pub element: Pick,
    }

    /// One element within its frame.
    Pick {
        /// An enclosing element (a row, a dialog) the query is narrowed to; it matches once.
        pub scope: Option<Query>,
        pub query: Query,
        /// Its place among the query's matches (from 0), when they are several.
        pub nth: Option<u32>,
        /// How many elements the query matched where it was asked (in the scope, if any).
        pub matches: u32,
    }
}

/// How an element is asked for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum Query {
    /// By ARIA role and accessible name, matched whole (`getByRole(role, { name, exact })`);
    /// a heading also by its level.
    Role {
        role: String,
        name: String,
        level: Option<u8>,
    },
    /// By CSS selector, where its role or name cannot say it.
    Css(String),
}
