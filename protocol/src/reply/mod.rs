//! What comes back: a typed [`Reply`], or an [`ErrorBody`] with a stable [`ErrorCode`].
//!
//! Every kind of answer is a type of its own (`answers` for the small ones, `payloads`
//! for the pages' and the browser's), so a command names the one it gives (`commands!`) and
//! [`Answer`] takes it out of the `Reply` that crossed the wire: renderers match a type, not
//! a reply that might be any.

use serde::{Deserialize, Serialize};

/// Answer structs with the derives and field names every one has (camelCase on the wire).
macro_rules! camel_structs {
    ($( $(#[$meta:meta])* $name:ident { $($body:tt)* } )*) => {
        $(
            $(#[$meta])*
            #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
            #[serde(rename_all = "camelCase")]
            pub struct $name { $($body)* }
        )*
    };
}

mod answers;
mod locator;
mod payloads;

pub use crate::args::ConsoleLevel;
pub use crate::error::{ErrorBody, ErrorCode};
pub use answers::*;
pub use locator::*;
pub use payloads::*;

/// The result of one command, as it travels back through every hop.
pub type Outcome = Result<Reply, ErrorBody>;

/// One command's answer, taken out of the [`Reply`] that crossed the wire (a reply of another
/// kind is given back: the caller has one place to call that a bug), or put into it by the
/// handler that made it.
pub trait Answer: Sized {
    fn from_reply(reply: Reply) -> Result<Self, Reply>;

    fn into_reply(self) -> Reply;
}

/// The reply enum, and each payload's [`Answer`], from one list.
macro_rules! replies {
    ($( $(#[$doc:meta])* $variant:ident($payload:ty), )*) => {
        /// A successful answer, one variant per kind of result.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "kind", rename_all = "camelCase")]
        pub enum Reply {
            $( $(#[$doc])* $variant($payload), )*
            /// Done; nothing to report.
            Ack,
        }

        $(
            impl Answer for $payload {
                fn from_reply(reply: Reply) -> Result<Self, Reply> {
                    match reply {
                        Reply::$variant(answer) => Ok(answer),
                        other => Err(other),
                    }
                }

                fn into_reply(self) -> Reply {
                    Reply::$variant(self)
                }
            }
        )*
    };
}

replies! {
    /// A tab was opened or navigated.
    Tab(TabReport),
    Tabs(Tabs),
    Content(PageContent),
    Clicked(Clicked),
    Typed(Typed),
    Screenshot(Screenshot),
    Closed(Closed),
    Pong(Pong),
    Diagnosis(ExtensionDiagnosis),
    Bye(Bye),
    SlotRequested(SlotRequested),
    Granted(Granted),
    SlotRequests(SlotRequests),
    Acted(Acted),
    Waited(Waited),
    Snapshot(Snapshot),
    Found(Found),
    Audit(Box<Audit>),
    Performance(Box<PagePerformance>),
    Element(Box<ElementInfo>),
    Located(Box<Locator>),
    PageState(Box<PageState>),
    Dialogs(DialogReport),
    WindowClosed(WindowClosed),
    Console(Console),
    Network(Network),
    Routes(Routes),
    Activity(Activity),
    Downloads(Downloads),
    /// Cookies and local storage of the agent's sites (`firefox_storage_state` save).
    SavedState(crate::args::SavedState),
    Cookies(Cookies),
    Stored(Stored),
    Evaluated(Evaluated),
    Config(Config),
    AllTabs(AllTabs),
    Loop(LoopState),
    LoopDecision(LoopDecision),
}

impl Answer for () {
    fn from_reply(reply: Reply) -> Result<Self, Reply> {
        match reply {
            Reply::Ack => Ok(()),
            other => Err(other),
        }
    }

    fn into_reply(self) -> Reply {
        Reply::Ack
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TabId;
    use serde_json::json;

    #[test]
    fn outcomes_on_the_wire() {
        let ok: Outcome = Ok(Reply::Closed(Closed { tab_id: TabId(9) }));
        assert_eq!(
            serde_json::to_value(&ok).unwrap(),
            json!({"Ok": {"kind": "closed", "tabId": 9}})
        );
        let err: Outcome = Err(ErrorBody::new(
            ErrorCode::Ownership,
            "Cannot close tab 9 (owned by agent_x)",
        ));
        let v = serde_json::to_value(&err).unwrap();
        assert_eq!(
            v,
            json!({"Err": {"code": "OWNERSHIP", "message": "Cannot close tab 9 (owned by agent_x)"}})
        );
        assert_eq!(serde_json::from_value::<Outcome>(v).unwrap(), err);
    }

    #[test]
    fn error_codes_serialise_as_their_documented_names() {
        for code in ErrorCode::ALL {
            assert_eq!(serde_json::to_value(code).unwrap(), json!(code.as_str()));
            assert_eq!(
                serde_json::from_value::<ErrorCode>(json!(code.as_str())).unwrap(),
                *code
            );
        }
    }

    #[test]
    fn display_reads_as_code_message_hint() {
        let e = ErrorBody::new(ErrorCode::NoSuchTab, "tab 4 is closed")
            .with_hint("call firefox_get_tabs");
        assert_eq!(
            e.to_string(),
            "NO_SUCH_TAB: tab 4 is closed\nHint: call firefox_get_tabs"
        );
    }
}
