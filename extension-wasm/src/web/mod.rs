//! Bindings to the WebExtension APIs we use, and small async helpers over them.
//!
//! `browser.*` is not in web-sys: these declarations are the whole surface the extension calls.

mod time;

pub use time::{now_ms, precise_ms, sleep, tick, with_deadline};

use claudezilla_protocol::{ErrorBody, ErrorCode};
use js_sys::{Function, Promise};
use serde::Serialize;
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = create)]
    pub fn tabs_create(props: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = get)]
    pub fn tabs_get(tab_id: u32) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = update)]
    pub fn tabs_update(tab_id: u32, props: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = remove)]
    pub fn tabs_remove(tab_ids: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = move)]
    pub fn tabs_move(tab_ids: u32, props: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = sendMessage)]
    pub fn tabs_send_message(
        tab_id: u32,
        message: &JsValue,
        options: &JsValue,
    ) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = executeScript)]
    pub fn tabs_execute_script(tab_id: u32, details: &JsValue) -> Result<Promise, JsValue>;
    /// A frame's details, among them its parent's frame id (-1 for the top frame).
    #[wasm_bindgen(catch, js_namespace = ["browser", "webNavigation"], js_name = getFrame)]
    pub fn web_navigation_get_frame(details: &JsValue) -> Result<Promise, JsValue>;
    /// Captures a tab without activating it (Firefox 59+), whole or a document rectangle.
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = captureTab)]
    pub fn tabs_capture_tab(tab_id: u32, options: &JsValue) -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["browser", "cookies"], js_name = getAll)]
    pub fn cookies_get_all(details: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "cookies"], js_name = set)]
    pub fn cookies_set(details: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "cookies"], js_name = remove)]
    pub fn cookies_remove(details: &JsValue) -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["browser", "contextualIdentities"], js_name = create)]
    pub fn contextual_identities_create(details: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "contextualIdentities"], js_name = query)]
    pub fn contextual_identities_query(details: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "contextualIdentities"], js_name = remove)]
    pub fn contextual_identities_remove(cookie_store_id: &str) -> Result<Promise, JsValue>;

    /// A response's body as it arrives, ours to rewrite (Firefox only).
    #[wasm_bindgen(catch, js_namespace = ["browser", "webRequest"], js_name = filterResponseData)]
    pub fn filter_response_data(request_id: &str) -> Result<JsValue, JsValue>;
    #[derive(Clone)]
    pub type StreamFilter;
    #[wasm_bindgen(method)]
    pub fn write(this: &StreamFilter, data: &js_sys::Uint8Array);
    #[wasm_bindgen(method)]
    pub fn close(this: &StreamFilter);
    #[wasm_bindgen(method, setter)]
    pub fn set_onstart(this: &StreamFilter, handler: &JsValue);
    #[wasm_bindgen(method, setter)]
    pub fn set_ondata(this: &StreamFilter, handler: &JsValue);
    #[wasm_bindgen(method, setter)]
    pub fn set_onstop(this: &StreamFilter, handler: &JsValue);
    #[wasm_bindgen(method, setter)]
    pub fn set_onerror(this: &StreamFilter, handler: &JsValue);

    #[wasm_bindgen(catch, js_namespace = ["browser", "downloads"], js_name = search)]
    pub fn downloads_search(query: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "downloads"], js_name = removeFile)]
    pub fn downloads_remove_file(id: u32) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "downloads"], js_name = cancel)]
    pub fn downloads_cancel(id: u32) -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = goBack)]
    pub fn tabs_go_back(tab_id: u32) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = goForward)]
    pub fn tabs_go_forward(tab_id: u32) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = reload)]
    pub fn tabs_reload(tab_id: u32) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = query)]
    pub fn tabs_query(query: &JsValue) -> Result<Promise, JsValue>;
    /// Firefox 138+; missing before, hence `catch`.
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = group)]
    pub fn tabs_group(options: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabGroups"], js_name = update)]
    pub fn tab_groups_update(group_id: u32, props: &JsValue) -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["browser", "browserAction"], js_name = setBadgeText)]
    pub fn browser_action_set_badge_text(details: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "browserAction"], js_name = setBadgeBackgroundColor)]
    pub fn browser_action_set_badge_background_color(details: &JsValue)
    -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["browser", "windows"], js_name = create)]
    pub fn windows_create(props: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "windows"], js_name = get)]
    pub fn windows_get(window_id: u32) -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["browser", "windows"], js_name = getAll)]
    pub fn windows_get_all(options: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "windows"], js_name = remove)]
    pub fn windows_remove(window_id: u32) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "windows"], js_name = update)]
    pub fn windows_update(window_id: u32, props: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "extension"], js_name = isAllowedIncognitoAccess)]
    pub fn is_allowed_incognito_access() -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["browser", "sessions"], js_name = setTabValue)]
    pub fn sessions_set_tab_value(tab_id: u32, key: &str, value: &str) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "sessions"], js_name = getTabValue)]
    pub fn sessions_get_tab_value(tab_id: u32, key: &str) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "sessions"], js_name = setWindowValue)]
    pub fn sessions_set_window_value(
        window_id: u32,
        key: &str,
        value: &str,
    ) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "sessions"], js_name = getWindowValue)]
    pub fn sessions_get_window_value(window_id: u32, key: &str) -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["browser", "storage", "local"], js_name = get)]
    pub fn storage_local_get(key: &str) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "storage", "local"], js_name = set)]
    pub fn storage_local_set(items: &JsValue) -> Result<Promise, JsValue>;

    #[wasm_bindgen(js_namespace = ["browser", "runtime"], js_name = reload)]
    pub fn runtime_reload();
    #[wasm_bindgen(catch, js_namespace = ["browser", "contentScripts"], js_name = register)]
    pub fn content_scripts_register(options: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = crypto, js_name = getRandomValues)]
    fn get_random_values(bytes: &mut [u8]) -> Result<JsValue, JsValue>;
    /// `moz-extension://<this extension's uuid>/` + path.
    #[wasm_bindgen(js_namespace = ["browser", "runtime"], js_name = getURL)]
    pub fn runtime_get_url(path: &str) -> String;
    #[wasm_bindgen(js_namespace = ["browser", "runtime"], js_name = connectNative)]
    pub fn connect_native(name: &str) -> Port;

    /// A `runtime.Port`.
    pub type Port;
    #[wasm_bindgen(method, catch, js_name = postMessage)]
    pub fn post_message(this: &Port, message: &JsValue) -> Result<(), JsValue>;
    #[wasm_bindgen(method)]
    pub fn disconnect(this: &Port);
    #[wasm_bindgen(method, getter, js_name = onMessage)]
    pub fn on_message(this: &Port) -> BrowserEvent;
    #[wasm_bindgen(method, getter, js_name = onDisconnect)]
    pub fn on_disconnect(this: &Port) -> BrowserEvent;
    #[wasm_bindgen(method, getter)]
    pub fn error(this: &Port) -> JsValue;

    /// An `events.Event`.
    pub type BrowserEvent;
    #[wasm_bindgen(method, js_name = addListener)]
    pub fn add_listener(this: &BrowserEvent, callback: &Function);
    #[wasm_bindgen(method, js_name = addListener)]
    pub fn add_filtered_listener(this: &BrowserEvent, callback: &Function, filter: &JsValue);
    #[wasm_bindgen(method, js_name = removeListener)]
    pub fn remove_listener(this: &BrowserEvent, callback: &Function);
    /// `addListener(callback, filter, extraInfoSpec)` (webRequest).
    #[wasm_bindgen(method, js_name = addListener)]
    pub fn add_listener_with_extra(
        this: &BrowserEvent,
        callback: &Function,
        filter: &JsValue,
        extra: &JsValue,
    );

    #[wasm_bindgen(thread_local_v2, js_namespace = ["browser", "tabs"], js_name = onUpdated)]
    pub static TABS_ON_UPDATED: BrowserEvent;
    #[wasm_bindgen(thread_local_v2, js_namespace = ["browser", "tabs"], js_name = onRemoved)]
    pub static TABS_ON_REMOVED: BrowserEvent;
    #[wasm_bindgen(thread_local_v2, js_namespace = ["browser", "tabs"], js_name = onCreated)]
    pub static TABS_ON_CREATED: BrowserEvent;
    #[wasm_bindgen(thread_local_v2, js_namespace = ["browser", "windows"], js_name = onRemoved)]
    pub static WINDOWS_ON_REMOVED: BrowserEvent;
    #[wasm_bindgen(thread_local_v2, js_namespace = ["browser", "webNavigation"], js_name = onCreatedNavigationTarget)]
    pub static NAVIGATION_TARGET_CREATED: BrowserEvent;
    #[wasm_bindgen(thread_local_v2, js_namespace = ["browser", "downloads"], js_name = onCreated)]
    pub static DOWNLOADS_ON_CREATED: BrowserEvent;
    #[wasm_bindgen(thread_local_v2, js_namespace = ["browser", "downloads"], js_name = onChanged)]
    pub static DOWNLOADS_ON_CHANGED: BrowserEvent;
    #[wasm_bindgen(thread_local_v2, js_namespace = ["browser", "downloads"], js_name = onErased)]
    pub static DOWNLOADS_ON_ERASED: BrowserEvent;
    #[wasm_bindgen(thread_local_v2, js_namespace = ["browser", "runtime"], js_name = onMessage)]
    pub static RUNTIME_ON_MESSAGE: BrowserEvent;
    #[wasm_bindgen(thread_local_v2, js_namespace = ["browser", "webRequest"], js_name = onBeforeRequest)]
    pub static WEB_REQUEST_ON_BEFORE_REQUEST: BrowserEvent;
    #[wasm_bindgen(thread_local_v2, js_namespace = ["browser", "webRequest"], js_name = onCompleted)]
    pub static WEB_REQUEST_ON_COMPLETED: BrowserEvent;
    #[wasm_bindgen(thread_local_v2, js_namespace = ["browser", "webRequest"], js_name = onErrorOccurred)]
    pub static WEB_REQUEST_ON_ERROR_OCCURRED: BrowserEvent;
    #[wasm_bindgen(thread_local_v2, js_namespace = ["browser", "webRequest"], js_name = onSendHeaders)]
    pub static WEB_REQUEST_ON_SEND_HEADERS: BrowserEvent;
    #[wasm_bindgen(thread_local_v2, js_namespace = ["browser", "webRequest"], js_name = onBeforeRedirect)]
    pub static WEB_REQUEST_ON_BEFORE_REDIRECT: BrowserEvent;
    #[wasm_bindgen(thread_local_v2, js_namespace = ["browser", "webRequest"], js_name = onHeadersReceived)]
    pub static WEB_REQUEST_ON_HEADERS_RECEIVED: BrowserEvent;
    #[wasm_bindgen(thread_local_v2, js_namespace = ["browser", "webRequest"], js_name = onResponseStarted)]
    pub static WEB_REQUEST_ON_RESPONSE_STARTED: BrowserEvent;
}

/// Fills `bytes` from the browser's cryptographic random source.
pub fn fill_random(bytes: &mut [u8]) -> Result<(), JsValue> {
    get_random_values(bytes).map(drop)
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = warn)]
    fn console_warn(s: &str);
}

/// The extension's log: the browser console (which a test's Firefox sends to its output).
pub fn log(message: &str) {
    console_warn(&format!("Claudezilla: {message}"));
}

/// A blocking webRequest listener's answer that cancels the request.
#[derive(serde::Serialize)]
pub struct Cancel {
    pub cancel: bool,
}

/// A webRequest filter: every URL, every type.
#[derive(serde::Serialize)]
pub struct AllUrls {
    pub urls: [&'static str; 1],
}

impl Default for AllUrls {
    fn default() -> Self {
        Self {
            urls: ["<all_urls>"],
        }
    }
}

/// A webRequest filter: every URL, every type, of one tab.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TabUrls {
    pub urls: [&'static str; 1],
    pub tab_id: u32,
}

impl TabUrls {
    pub fn of(tab: claudezilla_protocol::TabId) -> Self {
        Self {
            urls: ["<all_urls>"],
            tab_id: tab.0,
        }
    }
}

pub use crate::browser_tab::{Tab, Window};

/// Converts a typed value into the plain JS object a browser API takes.
pub fn to_js<T: Serialize>(value: &T) -> JsValue {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::UNDEFINED)
}

/// Awaits a browser call, turning a throw or a rejection into a BROWSER error with its message.
///
/// A call is taken as made: its promise, or what it threw before making one. Firefox checks an
/// API's arguments against its schema and throws at once; a throw not caught would unwind
/// through the wasm frames awaiting it without running their destructors (a lock's guard among
/// them), so every binding above that returns a promise catches, and a binding that did not
/// would not be accepted here.
pub async fn call(made: Result<Promise, JsValue>) -> Result<JsValue, ErrorBody> {
    fn refused(e: JsValue) -> ErrorBody {
        ErrorBody::new(ErrorCode::Browser, js_error_message(&e))
    }
    JsFuture::from(made.map_err(refused)?)
        .await
        .map_err(refused)
}

/// Awaits a browser call whose answer nothing needs (a cleanup, a mark, the badge): a refusal
/// is logged with `what` was attempted, since no caller would hear of it otherwise (`what`
/// is worded only then). Says whether the browser did it.
pub async fn call_logged(what: impl FnOnce() -> String, made: Result<Promise, JsValue>) -> bool {
    let done = call(made).await;
    if let Err(e) = &done {
        log(&format!("cannot {}: {}", what(), e.message));
    }
    done.is_ok()
}

/// Awaits a browser call and reads its result as `T`.
pub async fn call_as<T: DeserializeOwned>(made: Result<Promise, JsValue>) -> Result<T, ErrorBody> {
    let value = call(made).await?;
    serde_wasm_bindgen::from_value(value).map_err(|e| {
        ErrorBody::new(
            ErrorCode::Internal,
            format!("unexpected browser answer: {e}"),
        )
    })
}

/// A property of a JS object; undefined where it has none (or its getter throws).
pub fn get(target: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(target, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

/// Calls a JS object's method by name.
pub fn invoke(target: &JsValue, method: &str, args: &js_sys::Array) -> Result<JsValue, JsValue> {
    let function: js_sys::Function = get(target, method).dyn_into()?;
    js_sys::Reflect::apply(&function, target, args)
}

/// The message of a JS error (or its string form).
pub fn js_error_message(e: &JsValue) -> String {
    js_sys::Reflect::get(e, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"))
}
