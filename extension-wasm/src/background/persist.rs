//! The pool survives a restart of the background (extension reload or update): it is saved to
//! `storage.session` after every change and re-adopted at start, keeping only tabs that still
//! exist. `storage.session` is cleared when Firefox quits, as tab ids are then meaningless.

use claudezilla_protocol::TabId;
use serde::Serialize;
use wasm_bindgen::JsValue;

use super::{now, with_state};
use crate::pool::Pool;
use crate::web::{self, Tab};

const KEY: &str = "pool";

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InWindow {
    window_id: u32,
}

/// Saves the pool (called after each change; the write is asynchronous and cheap).
pub fn save() {
    let Ok(json) = with_state(|s| serde_json::to_string(&s.pool)) else {
        return;
    };
    let items = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&items, &KEY.into(), &JsValue::from_str(&json));
    wasm_bindgen_futures::spawn_local(async move {
        let _ = web::call(web::session_set(&items)).await;
    });
}

pub async fn restore() {
    let Ok(saved) = web::call(web::session_get(KEY)).await else {
        return;
    };
    let json = js_sys::Reflect::get(&saved, &KEY.into())
        .ok()
        .and_then(|v| v.as_string());
    let Some(mut pool) = json.and_then(|j| serde_json::from_str::<Pool>(&j).ok()) else {
        return;
    };
    let Some(window) = pool.window else { return };
    if web::call(web::windows_get(window)).await.is_err() {
        return;
    }
    let query = web::to_js(&InWindow { window_id: window });
    let tabs: Vec<Tab> = web::call_as(web::tabs_query(&query))
        .await
        .unwrap_or_default();
    let existing: Vec<TabId> = tabs.iter().map(|t| TabId(t.id)).collect();
    pool.adopt(&existing, now());
    with_state(|s| s.pool = pool);
    save();
}
