//! Talking to the content script in an agent's tab, injecting it on first use.

use claudezilla_protocol::envelope::ContentRequest;
use claudezilla_protocol::{ErrorBody, ErrorCode, Outcome, TabId};
use serde::Serialize;
use wasm_bindgen::JsValue;

use crate::web;

/// The content bundle: the wasm glue followed by the shim (built by `cargo xtask build`).
const CONTENT_BUNDLE: &str = "/wasm/content-bundle.js";

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TopFrame {
    frame_id: u32,
}

#[derive(Serialize)]
struct Inject {
    file: &'static str,
}

/// Sends one request to the tab's top frame and returns its outcome, bounded by `budget_ms`.
pub async fn send(tab: TabId, request: &ContentRequest, budget_ms: u32) -> Outcome {
    let message = JsValue::from_str(&serde_json::to_string(request).map_err(internal)?);
    let exchange = async {
        let answer = match ask(tab, &message).await {
            Ok(Some(answer)) => answer,
            // No listener yet (new document): inject the content script, then ask again.
            Ok(None) | Err(_) => {
                inject(tab).await?;
                ask(tab, &message).await?.ok_or_else(|| {
                    ErrorBody::new(
                        ErrorCode::PageError,
                        "the content script did not start in this page",
                    )
                })?
            }
        };
        serde_json::from_str::<Outcome>(&answer).map_err(internal)?
    };
    web::with_deadline(budget_ms, exchange).await.unwrap_or_else(|| {
        Err(ErrorBody::new(ErrorCode::Timeout, format!("the page in tab {tab} did not answer within {budget_ms} ms"))
            .with_hint("the page may be frozen or showing a dialog; take a screenshot, or retry with a larger timeout"))
    })
}

/// One round trip; `Ok(None)` when nothing in the page listens.
async fn ask(tab: TabId, message: &JsValue) -> Result<Option<String>, ErrorBody> {
    let options = web::to_js(&TopFrame { frame_id: 0 });
    match web::call(web::tabs_send_message(tab.0, message, &options)).await {
        Ok(answer) => Ok(answer.as_string()),
        Err(e) if e.message.contains("Receiving end does not exist") => Ok(None),
        Err(e) => Err(page_error(tab, e)),
    }
}

async fn inject(tab: TabId) -> Result<(), ErrorBody> {
    let details = web::to_js(&Inject {
        file: CONTENT_BUNDLE,
    });
    web::call(web::tabs_execute_script(tab.0, &details))
        .await
        .map_err(|e| page_error(tab, e))?;
    Ok(())
}

fn page_error(tab: TabId, e: ErrorBody) -> ErrorBody {
    if e.message.contains("Invalid tab ID") || e.message.contains("No tab with id") {
        return ErrorBody::new(ErrorCode::NoSuchTab, format!("tab {tab} is gone"));
    }
    if e.message.contains("Missing host permission")
        || e.message.contains("non-structured-clonable")
    {
        return ErrorBody::new(
            ErrorCode::PageError,
            format!("the page in tab {tab} cannot be scripted ({})", e.message),
        )
        .with_hint("about:, addons and other privileged pages cannot be read; navigate to an http(s) or file page");
    }
    ErrorBody::new(ErrorCode::PageError, format!("tab {tab}: {}", e.message))
}

fn internal(e: serde_json::Error) -> ErrorBody {
    ErrorBody::new(ErrorCode::Internal, format!("content script message: {e}"))
}
