//! The page's own world, as Firefox opens it to a content script: the page's global with Xray
//! vision waived (`wrappedJSObject`), functions of ours the page may call (`exportFunction`)
//! and values copied into it (`cloneInto`). Whatever the page must take as its own (a wrapped
//! `window.open`, a dialog's answer, a dropped file) is made through here.

use js_sys::{Function, Object, Reflect};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_name = exportFunction)]
    fn export_function(
        f: &Function,
        scope: &JsValue,
        options: &JsValue,
    ) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch, js_name = cloneInto)]
    fn clone_into(value: &JsValue, scope: &JsValue) -> Result<JsValue, JsValue>;
}

/// The page's global, its properties the page's own (not the DOM's safe view of them).
pub fn global() -> Option<JsValue> {
    let window = web_sys::window()?;
    Reflect::get(&window, &"wrappedJSObject".into())
        .ok()
        .filter(JsValue::is_object)
}

/// `f` as a function the page may call.
pub fn export(f: &Function, scope: &JsValue) -> Result<Function, JsValue> {
    export_function(f, scope, &JsValue::UNDEFINED).map(JsCast::unchecked_into)
}

/// Defines `f` on `scope` as `name`, callable by the page.
pub fn export_as(f: &Function, scope: &JsValue, name: &str) -> Result<(), JsValue> {
    let options = Object::new();
    Reflect::set(&options, &"defineAs".into(), &name.into())?;
    export_function(f, scope, &options).map(drop)
}

/// A copy of `value` (structured-cloneable data) made in the page's world.
pub fn copy(value: &JsValue, page: &JsValue) -> Result<JsValue, JsValue> {
    clone_into(value, page)
}

/// The page's own constructor or function at `path` from its global (`["File"]`,
/// `["DataTransferItemList", "prototype", "add"]`).
pub fn function(page: &JsValue, path: &[&str]) -> Result<Function, JsValue> {
    let mut at = page.clone();
    for name in path {
        at = Reflect::get(&at, &(*name).into())?;
    }
    at.dyn_into::<Function>()
        .map_err(|_| JsValue::from_str(&format!("the page has no function {}", path.join("."))))
}

thread_local! {
    /// The shim's `receiving(f)`: a function handing `f` each call's `this` and arguments,
    /// which a Rust closure cannot see.
    static RECEIVING: std::cell::RefCell<Option<Function>> = const { std::cell::RefCell::new(None) };
}

/// Called once, as the content script starts.
pub fn set_receiving(receiving: Function) {
    RECEIVING.with(|r| *r.borrow_mut() = Some(receiving));
}

type MethodBody = dyn FnMut(JsValue, js_sys::Array) -> Result<JsValue, JsValue>;

/// A method of ours for the page's objects: it is given each call's receiver and arguments,
/// and what it throws reaches the page. Kept alive as long as the page may call it.
pub struct Method(Closure<MethodBody>);

impl Method {
    pub fn new(
        body: impl FnMut(JsValue, js_sys::Array) -> Result<JsValue, JsValue> + 'static,
    ) -> Self {
        Self(Closure::new(body))
    }

    /// The function the page calls, in the page's world.
    pub fn exported(&self) -> Option<Function> {
        let receiving = RECEIVING.with(|r| r.borrow().clone())?;
        let page = global()?;
        let method = receiving.call1(&JsValue::UNDEFINED, self.0.as_ref()).ok()?;
        export(method.unchecked_ref(), &page).ok()
    }
}
