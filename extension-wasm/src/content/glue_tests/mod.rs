//! The content glue's unit tests, one file per glue file at the same path
//! (`glue_tests/act/pointer.rs` tests `act/pointer.rs`); this one tests `mod.rs`: a request
//! as the background sends it, read, dispatched and answered. The runner is `glue_run.rs`;
//! the architecture test counts a glue file as tested by its file here.

mod act;
mod dom;
mod find;
mod locate;
mod names;
mod read;
mod snapshot;

use claudezilla_protocol::ErrorCode;
use claudezilla_protocol::args::{ContentFormat, FrameTarget, MouseButton};
use claudezilla_protocol::envelope::{PageDone, PageOp};
use claudezilla_protocol::keys::Modifiers;
use wasm_bindgen::{JsCast, JsValue};

use super::glue_run::{Events, Outcome, Test, ask, ask_within, check, check_eq, page, tests};

/// Every test, in the order they run.
pub(super) fn all() -> Vec<Test> {
    [
        tests(),
        act::all(),
        dom::tests(),
        find::tests(),
        locate::tests(),
        names::tests(),
        read::tests(),
        snapshot::tests(),
    ]
    .into_iter()
    .flatten()
    .collect()
}

tests![
    a_request_that_is_no_request_is_answered_malformed,
    each_operation_answers_its_own_kind,
    a_target_that_never_comes_is_not_found_after_the_wait,
    a_click_on_a_ref_reaches_the_element,
    dialogs_are_answered_by_the_policy_until_release_gives_them_back,
];

async fn a_request_that_is_no_request_is_answered_malformed() -> Outcome {
    let answer = super::content_handle(JsValue::from_str("not a request")).await;
    let reply: serde_json::Value =
        serde_wasm_bindgen::from_value(answer).map_err(|e| format!("no reply: {e}"))?;
    let code = &reply["outcome"]["Err"]["code"];
    check_eq!(code.as_str(), Some("MALFORMED"));
    check!(reply["pageUs"].is_u64(), "no time in {reply}");
    Ok(())
}

async fn each_operation_answers_its_own_kind() -> Outcome {
    page("<h1>Title</h1><button id=b>Go</button>", "#b")?;
    let content = ask(PageOp::GetContent {
        selector: None,
        max_length: 1000,
        format: ContentFormat::Text,
    })
    .await
    .map_err(|e| e.message)?;
    check!(matches!(content, PageDone::Content(_)), "{content:?}");
    let click = ask(PageOp::Click {
        target: FrameTarget::Selector("#b".into()),
        clicks: 1,
        button: MouseButton::Left,
        modifiers: Modifiers::default(),
    })
    .await
    .map_err(|e| e.message)?;
    check!(matches!(click, PageDone::Clicked(_)), "{click:?}");
    let hover = ask(PageOp::Hover {
        target: FrameTarget::Selector("#b".into()),
    })
    .await
    .map_err(|e| e.message)?;
    check!(matches!(hover, PageDone::Acted(_)), "{hover:?}");
    Ok(())
}

async fn a_target_that_never_comes_is_not_found_after_the_wait() -> Outcome {
    page("<button id=save-button>Save</button>", "button")?;
    let started = crate::web::now_ms();
    let missed = ask_within(
        PageOp::Hover {
            target: FrameTarget::Selector("#save-buton".into()),
        },
        300,
    )
    .await;
    let waited = crate::web::now_ms() - started;
    let Err(e) = missed else {
        return Err("a missing target was hovered".into());
    };
    check_eq!(e.code, ErrorCode::ElementNotFound);
    check!(waited >= 250.0, "gave up after {waited} ms");
    let said = format!("{} {}", e.message, e.hint.unwrap_or_default());
    check!(said.contains("#save-button"), "said {said}");
    Ok(())
}

async fn a_click_on_a_ref_reaches_the_element() -> Outcome {
    let b = page("<button id=b>Go</button>", "#b")?;
    let r = super::find::ref_for(&b, 0);
    let events = Events::on(&b, &["click"]);
    ask(PageOp::Click {
        target: FrameTarget::Ref(r.index),
        clicks: 1,
        button: MouseButton::Left,
        modifiers: Modifiers::default(),
    })
    .await
    .map_err(|e| e.message)?;
    check_eq!(events.seen(), ["click"]);
    Ok(())
}

/// The page's own `window.confirm`, as its scripts see it.
fn page_confirm() -> Result<js_sys::Function, String> {
    let window = web_sys::window().ok_or("no window")?;
    let page = js_sys::Reflect::get(&window, &"wrappedJSObject".into()).map_err(|_| "no page")?;
    js_sys::Reflect::get(&page, &"confirm".into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or_else(|| "the page has no confirm".to_owned())
}

async fn dialogs_are_answered_by_the_policy_until_release_gives_them_back() -> Outcome {
    page("<p>x</p>", "p")?;
    for accept in [true, false] {
        ask(PageOp::Dialogs {
            accept,
            prompt_text: None,
        })
        .await
        .map_err(|e| e.message)?;
        // Answered at once, never shown: a shown one would block this call.
        let answer = page_confirm()?
            .call1(&JsValue::NULL, &"Leave?".into())
            .map_err(|_| "confirm threw")?;
        check_eq!(answer.as_bool(), Some(accept));
    }
    let ours = page_confirm()?;
    let released = ask(PageOp::Release).await.map_err(|e| e.message)?;
    check!(matches!(released, PageDone::Ack), "{released:?}");
    check!(
        page_confirm()? != ours,
        "the page's confirm was not given back"
    );
    // The next request takes them again.
    ask(PageOp::Dialogs {
        accept: true,
        prompt_text: None,
    })
    .await
    .map_err(|e| e.message)?;
    let answer = page_confirm()?
        .call1(&JsValue::NULL, &"Again?".into())
        .map_err(|_| "confirm threw")?;
    check_eq!(answer.as_bool(), Some(true));
    Ok(())
}
