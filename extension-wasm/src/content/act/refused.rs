//! What Firefox refuses a synthetic click, watched while the click runs, so the answer says it
//! instead of "Clicked" alone: a popup the page opens with `window.open` (the popup blocker
//! answers `null`: the click carries no user activation) and a clipboard write
//! (`navigator.clipboard.writeText` rejects with `NotAllowedError`). The page's two functions
//! are wrapped for the click only (Firefox's `exportFunction`), then put back.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Function, Reflect};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// Firefox's content-script global: a function of ours the page may call.
    #[wasm_bindgen(catch, js_name = exportFunction)]
    fn export_function(f: &Function, scope: &JsValue) -> Result<Function, JsValue>;
}

/// Longest wait after the click for the clipboard's answer.
const CLIPBOARD_WAIT_MS: u32 = 150;
/// Most characters of an address or a copied text said back.
const SHOWN: usize = 200;

#[derive(Default)]
struct Seen {
    refusals: Vec<String>,
    /// Clipboard writes not answered yet.
    pending: u32,
}

/// One wrapped page function, to put back.
struct Wrapped {
    owner: JsValue,
    name: &'static str,
    original: JsValue,
    /// The page had it as its own property (not only through its prototype).
    own: bool,
}

/// Armed for one click; the page's functions are put back when dropped.
pub struct Watch {
    wrapped: Vec<Wrapped>,
    seen: Rc<RefCell<Seen>>,
    _keep: Vec<Closure<dyn FnMut(JsValue, JsValue) -> JsValue>>,
}

impl Watch {
    pub fn arm() -> Self {
        let mut watch = Self {
            wrapped: Vec::new(),
            seen: Rc::default(),
            _keep: Vec::new(),
        };
        let Some(page) = web_sys::window()
            .and_then(|w| Reflect::get(&w, &"wrappedJSObject".into()).ok())
            .filter(JsValue::is_object)
        else {
            return watch;
        };
        watch.wrap_open(&page);
        if let Some(document) = Reflect::get(&page, &"document".into())
            .ok()
            .filter(JsValue::is_object)
        {
            watch.wrap_exec_command(&document);
        }
        if let Some(clipboard) = Reflect::get(&page, &"navigator".into())
            .ok()
            .and_then(|n| Reflect::get(&n, &"clipboard".into()).ok())
            .filter(JsValue::is_object)
        {
            watch.wrap_clipboard(&page, &clipboard);
        }
        watch
    }

    fn wrap_open(&mut self, page: &JsValue) {
        let Some(original) = function(page, "open") else {
            return;
        };
        let (seen, call, this) = (self.seen.clone(), original.clone(), page.clone());
        let wrapper = Closure::<dyn FnMut(JsValue, JsValue) -> JsValue>::new(
            move |url: JsValue, target: JsValue| {
                let opened = Reflect::apply(&call, &this, &Array::of2(&url, &target))
                    .unwrap_or(JsValue::NULL);
                if opened.is_null() {
                    let url = shown(&url.as_string().unwrap_or_default());
                    seen.borrow_mut().refusals.push(format!(
                        "the page's window.open(\"{url}\") was blocked by Firefox's popup blocker (a synthetic click carries no user activation); \
                         open the address yourself with firefox_create_window {{url}} (the popup's window.opener link is lost), \
                         or ask the user to allow popups for this site"
                    ));
                }
                opened
            },
        );
        self.install(page, "open", original.into(), wrapper);
    }

    /// `document.execCommand('copy' | 'cut')` answers false when refused (clipboard.js).
    fn wrap_exec_command(&mut self, document: &JsValue) {
        let Some(original) = function(document, "execCommand") else {
            return;
        };
        let (seen, call, this) = (self.seen.clone(), original.clone(), document.clone());
        let wrapper = Closure::<dyn FnMut(JsValue, JsValue) -> JsValue>::new(
            move |command: JsValue, ui: JsValue| {
                let done = Reflect::apply(&call, &this, &Array::of2(&command, &ui))
                    .unwrap_or(JsValue::FALSE);
                let name = command.as_string().unwrap_or_default().to_ascii_lowercase();
                if matches!(name.as_str(), "copy" | "cut") && done == JsValue::FALSE {
                    seen.borrow_mut().refusals.push(format!(
                        "the page's clipboard {name} (document.execCommand) was refused: Firefox gives a synthetic click no user activation, \
                         so the page's selection is not on the clipboard; read the text from the page instead"
                    ));
                }
                done
            },
        );
        self.install(document, "execCommand", original.into(), wrapper);
    }

    fn wrap_clipboard(&mut self, page: &JsValue, clipboard: &JsValue) {
        let Some(original) = function(clipboard, "writeText") else {
            return;
        };
        let (seen, call, this) = (self.seen.clone(), original.clone(), clipboard.clone());
        let scope = page.clone();
        let wrapper = Closure::<dyn FnMut(JsValue, JsValue) -> JsValue>::new(
            move |text: JsValue, _: JsValue| {
                let written =
                    Reflect::apply(&call, &this, &Array::of1(&text)).unwrap_or(JsValue::UNDEFINED);
                watch_write(
                    &seen,
                    &scope,
                    &written,
                    &text.as_string().unwrap_or_default(),
                );
                written
            },
        );
        self.install(clipboard, "writeText", original.into(), wrapper);
    }

    /// Puts the exported wrapper in the page's place of `name` on `owner`.
    fn install(
        &mut self,
        owner: &JsValue,
        name: &'static str,
        original: JsValue,
        wrapper: Closure<dyn FnMut(JsValue, JsValue) -> JsValue>,
    ) {
        let Some(page) =
            web_sys::window().and_then(|w| Reflect::get(&w, &"wrappedJSObject".into()).ok())
        else {
            return;
        };
        let Ok(exported) = export_function(wrapper.as_ref().unchecked_ref(), &page) else {
            return;
        };
        let own = Reflect::get_own_property_descriptor(
            owner.unchecked_ref::<js_sys::Object>(),
            &name.into(),
        )
        .is_ok_and(|d| !d.is_undefined());
        if Reflect::set(owner, &name.into(), &exported).unwrap_or(false) {
            self.wrapped.push(Wrapped {
                owner: owner.clone(),
                name,
                original,
                own,
            });
            self._keep.push(wrapper);
        }
    }

    /// What was refused during the click; waits a moment for a clipboard write's answer.
    pub async fn refusals(self) -> Vec<String> {
        let until = crate::web::now_ms() + f64::from(CLIPBOARD_WAIT_MS);
        while self.seen.borrow().pending > 0 && crate::web::now_ms() < until {
            crate::web::sleep(10).await;
        }
        std::mem::take(&mut self.seen.borrow_mut().refusals)
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        for w in &self.wrapped {
            let _ = match w.own {
                true => Reflect::set(&w.owner, &w.name.into(), &w.original),
                false => Reflect::delete_property(
                    w.owner.unchecked_ref::<js_sys::Object>(),
                    &w.name.into(),
                ),
            };
        }
    }
}

/// Hears how a clipboard write ended: a refusal is kept, with what the page meant to copy.
fn watch_write(seen: &Rc<RefCell<Seen>>, scope: &JsValue, written: &JsValue, text: &str) {
    let Some(then) = function(written, "then") else {
        return;
    };
    seen.borrow_mut().pending += 1;
    let (ok_seen, no_seen) = (seen.clone(), seen.clone());
    let text = shown(text);
    let fulfilled = Closure::once_into_js(move |_: JsValue| {
        let mut seen = ok_seen.borrow_mut();
        seen.pending = seen.pending.saturating_sub(1);
    });
    let rejected = Closure::once_into_js(move |e: JsValue| {
        let name = Reflect::get(&e, &"name".into())
            .ok()
            .and_then(|n| n.as_string())
            .unwrap_or_else(|| "an error".into());
        let mut seen = no_seen.borrow_mut();
        seen.pending = seen.pending.saturating_sub(1);
        seen.refusals.push(format!(
            "the page's clipboard write was refused ({name}: Firefox gives a synthetic click no user activation), \
             so \"{text}\" is not on the clipboard; read the text from the page instead"
        ));
    });
    let export = |f: JsValue| {
        export_function(f.unchecked_ref(), scope)
            .map(JsValue::from)
            .unwrap_or(f)
    };
    let _ = Reflect::apply(
        &then,
        written,
        &Array::of2(&export(fulfilled), &export(rejected)),
    );
}

fn function(owner: &JsValue, name: &str) -> Option<Function> {
    Reflect::get(owner, &name.into()).ok()?.dyn_into().ok()
}

fn shown(text: &str) -> String {
    crate::a11y::clean(text, SHOWN)
}
