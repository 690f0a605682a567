//! The content script: DOM work in the agent's page, one coarse call per command.

mod dom;

use claudezilla_protocol::envelope::ContentRequest;
use claudezilla_protocol::{ErrorBody, ErrorCode, Outcome};
use wasm_bindgen::prelude::*;

/// Runs one request (JSON of a `ContentRequest`) and returns the JSON of its `Outcome`.
#[wasm_bindgen]
pub async fn content_handle(request: String) -> String {
    let outcome: Outcome = match serde_json::from_str::<ContentRequest>(&request) {
        Ok(request) => dom::run(request).await,
        Err(e) => Err(ErrorBody::new(
            ErrorCode::Malformed,
            format!("content request: {e}"),
        )),
    };
    serde_json::to_string(&outcome).unwrap_or_else(|e| {
        format!(r#"{{"Err":{{"code":"INTERNAL","message":"cannot encode the answer: {e}"}}}}"#)
    })
}
