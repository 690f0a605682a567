//! The page's console (`firefox_get_console`): its own `console.*` calls, caught in the page's
//! world, and its uncaught errors and rejections, in a 500-entry ring per page.
//!
//! Capture is opt-in: it starts on the first call for a tab and, from then on, in every page
//! the tab loads (the background asks each new page to start it).

use std::cell::RefCell;

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::reply;
use claudezilla_protocol::reply::{ConsoleEntry, ConsoleLevel};
use js_sys::{Array, Function, Reflect};
use wasm_bindgen::prelude::*;

use crate::console_ring::{self, ConsoleRing};
use crate::page_value::Value;
/// A page value as text (`mod.rs` describes an unhandled rejection's reason with it too).
pub use crate::page_value::describe;
use crate::web;

thread_local! {
    static CAPTURE: RefCell<ConsoleRing> = RefCell::new(ConsoleRing::default());
    /// The shim's `hookConsole(record)`: wraps the page's console methods.
    static HOOK: RefCell<Option<Function>> = const { RefCell::new(None) };
    /// What the page logged while it loaded (kept by `early.js`), for a capture started later.
    static EARLY: RefCell<Vec<ConsoleEntry>> = const { RefCell::new(Vec::new()) };
    /// What `hookConsole` returned: puts the page's own methods back.
    static UNHOOK: RefCell<Option<Function>> = const { RefCell::new(None) };
}

/// Keeps the shim's hook until capture is asked for.
pub fn set_hook(hook: Function) {
    HOOK.with(|h| *h.borrow_mut() = Some(hook));
}

/// An uncaught error or unhandled rejection (recorded only while capture is on).
pub fn uncaught(message: &str) {
    CAPTURE.with(|c| c.borrow_mut().uncaught(message, web::now_ms()));
}

/// Keeps the messages logged before this module started, for the capture.
pub fn early(entries: Vec<ConsoleEntry>) {
    EARLY.with(|e| *e.borrow_mut() = entries);
}

/// Starts capture in this page (once).
pub fn start() -> Result<(), ErrorBody> {
    if CAPTURE.with(|c| c.borrow().is_on()) {
        return Ok(());
    }
    let hook = HOOK.with(|h| h.borrow().clone());
    let hook = hook.ok_or_else(console_ring::no_hook)?;
    let recorder = Closure::<dyn Fn(String, Array)>::new(|level: String, args: Array| {
        let parts: Vec<String> = args.iter().map(|a| describe(&a)).collect();
        CAPTURE.with(|c| c.borrow_mut().called(level, &parts, web::now_ms()));
    });
    let unhook = hook.call1(&JsValue::NULL, recorder.as_ref());
    let unhook = unhook.map_err(|e| console_ring::not_watched(&web::js_error_message(&e)))?;
    // Lives as long as the page: the page's console calls it.
    recorder.forget();
    UNHOOK.with(|u| *u.borrow_mut() = unhook.dyn_into::<Function>().ok());
    let early = EARLY.with(|e| std::mem::take(&mut *e.borrow_mut()));
    CAPTURE.with(|c| c.borrow_mut().start(early));
    Ok(())
}

/// Stops capture and gives the page its own console back (the tab was given back).
pub fn stop() {
    if let Some(unhook) = UNHOOK.with(|u| u.borrow_mut().take()) {
        let _ = unhook.call0(&JsValue::NULL);
    }
    CAPTURE.with(|c| *c.borrow_mut() = ConsoleRing::default());
}

/// A page value as [`crate::page_value::describe`] reads it; each read caught (a page's object may
/// throw or lie).
impl Value for JsValue {
    fn as_text(&self) -> Option<String> {
        self.as_string()
    }
    fn as_number(&self) -> Option<f64> {
        self.as_f64()
    }
    fn as_bool(&self) -> Option<bool> {
        JsValue::as_bool(self)
    }
    fn is_null(&self) -> bool {
        JsValue::is_null(self)
    }
    fn is_undefined(&self) -> bool {
        JsValue::is_undefined(self)
    }
    fn is_object(&self) -> bool {
        JsValue::is_object(self)
    }
    fn type_of(&self) -> String {
        self.js_typeof().as_string().unwrap_or_default()
    }
    fn text_at(&self, key: &str) -> Option<String> {
        Reflect::get(self, &key.into()).ok()?.as_string()
    }
    fn property(&self, key: &str) -> Self {
        Reflect::get(self, &key.into()).unwrap_or_default()
    }
    fn json(&self) -> Option<String> {
        js_sys::JSON::stringify(self).ok()?.as_string()
    }
    fn own_text(&self) -> Option<String> {
        Reflect::get(self, &"toString".into())
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok())
            .and_then(|f| f.call0(self).ok())
            .and_then(|s| s.as_string())
    }
}

/// Starts capture if needed and returns the newest entries (of one level, if given).
pub fn read(
    level: Option<ConsoleLevel>,
    clear: bool,
    limit: u32,
) -> Result<reply::Console, ErrorBody> {
    start()?;
    Ok(CAPTURE.with(|c| c.borrow_mut().read(level, clear, limit)))
}
