//! What Firefox refuses a synthetic click, watched while the click runs, so the answer says it
//! instead of "Clicked" alone: a popup the page opens with `window.open` (the popup blocker
//! answers `null`: the click carries no user activation), a clipboard write
//! (`navigator.clipboard.writeText` rejects with `NotAllowedError`, `execCommand('copy')`
//! answers false), fullscreen (`requestFullscreen()` rejects) and a file chooser (a file
//! field's click shows none). The page's functions are wrapped for the click only (Firefox's
//! `exportFunction`), once for all the clicks in flight in the frame, then put back when the
//! last ends; the listener is removed with them. What each call
//! means for the answer, and the words, are [`click_refusals`]'s.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use js_sys::{Array, Function, Reflect};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use crate::backstop::Armed;
use crate::click_refusals::{self, Seen};
use crate::content::find::describe;
use crate::content::page_world::{self, Method};
use crate::pointer_press::Refusals;

use super::forms::file_field_clicks;

type Shared = Rc<RefCell<Seen>>;

/// The clicks that hear a wrapped function's calls, by their watch's number.
type Hearers = Rc<RefCell<Vec<(u64, Shared)>>>;

/// Armed for one click; the page's functions are put back and our listener removed when
/// dropped.
pub struct Watch {
    /// This click's hearing of each page function wrapped, ended when dropped.
    wrapped: Vec<Armed>,
    seen: Shared,
    _chooser: Option<Armed>,
}

/// One page function wrapped for the clicks in flight.
struct Wrapped {
    hearers: Hearers,
    put_back: Box<dyn FnOnce()>,
}

thread_local! {
    /// Each page function wrapped, by name: one wrapper a function, heard by every click in
    /// flight, put back when the last of them ends. (Two clicks at once each wrapping it would
    /// put their wrappers back out of order, and leave the page a dead one.)
    static WRAPPED: RefCell<HashMap<&'static str, Wrapped>> = RefCell::default();
    static WATCHES: Cell<u64> = const { Cell::new(0) };
}

impl Watch {
    pub fn arm() -> Self {
        let seen = Shared::default();
        let mut watch = Self {
            wrapped: Vec::new(),
            _chooser: hear_file_chooser(&seen),
            seen,
        };
        let Some(page) = page_world::global() else {
            return watch;
        };
        let at = |path: &[&str]| {
            path.iter()
                .try_fold(page.clone(), |at, name| {
                    Reflect::get(&at, &(*name).into()).ok()
                })
                .filter(JsValue::is_object)
        };
        if let Some(window) = at(&[]) {
            watch.hear(&window, "open", |seen, args, opened| {
                let address = args.get(0).as_string();
                seen.borrow_mut().window_open(address, !opened.is_null());
            });
        }
        if let Some(document) = at(&["document"]) {
            watch.hear(&document, "execCommand", |seen, args, done| {
                let command = args.get(0).as_string().unwrap_or_default();
                seen.borrow_mut()
                    .exec_command(&command, *done == JsValue::FALSE);
            });
        }
        if let Some(clipboard) = at(&["navigator", "clipboard"]) {
            watch.hear(&clipboard, "writeText", |seen, args, written| {
                let text = args.get(0).as_string().unwrap_or_default();
                on_refusal(seen, written, click_refusals::clipboard_write(&text));
            });
        }
        if let Some(element) = at(&["Element", "prototype"]) {
            watch.hear(&element, "requestFullscreen", |seen, _, requested| {
                on_refusal(seen, requested, click_refusals::fullscreen);
            });
        }
        watch
    }

    /// Hears the page's calls of `owner.name` while the click runs, through the one wrapper
    /// of it (made now if no click in flight made it).
    fn hear(
        &mut self,
        owner: &JsValue,
        name: &'static str,
        judge: impl Fn(&Shared, &Array, &JsValue) + 'static,
    ) {
        let made = WRAPPED.with(|w| w.borrow().get(name).map(|w| w.hearers.clone()));
        let Some(hearers) = made.or_else(|| wrap(owner, name, judge)) else {
            return;
        };
        let number = WATCHES.replace(WATCHES.get() + 1);
        hearers.borrow_mut().push((number, self.seen.clone()));
        self.wrapped
            .push(Armed::new(move || stop_hearing(name, number)));
    }
}

/// Puts a wrapper in the page's place of `owner.name` that calls the page's own function,
/// then lets `judge` see its arguments and result for each click that hears it.
fn wrap(
    owner: &JsValue,
    name: &'static str,
    judge: impl Fn(&Shared, &Array, &JsValue) + 'static,
) -> Option<Hearers> {
    let original = function(owner, name)?;
    let hearers = Hearers::default();
    let (heard, call) = (hearers.clone(), original.clone());
    let wrapper = Method::new(move |this: JsValue, args: Array| {
        // What the page's own function throws reaches the page as it would have.
        let result = Reflect::apply(&call, &this, &args)?;
        let seen: Vec<Shared> = heard.borrow().iter().map(|(_, s)| s.clone()).collect();
        for seen in &seen {
            judge(seen, &args, &result);
        }
        Ok(result)
    });
    let exported = wrapper.exported()?;
    let own =
        Reflect::get_own_property_descriptor(owner.unchecked_ref::<js_sys::Object>(), &name.into())
            .is_ok_and(|d| !d.is_undefined());
    if !Reflect::set(owner, &name.into(), &exported).unwrap_or(false) {
        return None;
    }
    let (owner, original) = (owner.clone(), JsValue::from(original));
    let put_back = Box::new(move || {
        let _ = match own {
            true => Reflect::set(&owner, &name.into(), &original),
            false => {
                Reflect::delete_property(owner.unchecked_ref::<js_sys::Object>(), &name.into())
            }
        };
        drop(wrapper);
    });
    let made = Wrapped {
        hearers: hearers.clone(),
        put_back,
    };
    WRAPPED.with(|w| w.borrow_mut().insert(name, made));
    Some(hearers)
}

/// Click `number` no longer hears `name`; the last to leave puts the page's function back.
fn stop_hearing(name: &'static str, number: u64) {
    let last = WRAPPED.with(|w| {
        let mut wrapped = w.borrow_mut();
        let hearers = wrapped.get(name)?.hearers.clone();
        hearers.borrow_mut().retain(|(n, _)| *n != number);
        hearers
            .borrow()
            .is_empty()
            .then(|| wrapped.remove(name))
            .flatten()
    });
    // Put back with the registry free: the page's setter may call us.
    if let Some(last) = last {
        (last.put_back)();
    }
}

impl Refusals for Watch {
    fn pending(&self) -> bool {
        self.seen.borrow().pending()
    }

    fn heard(self) -> (Vec<String>, Option<String>) {
        self.seen.borrow_mut().heard()
    }
}

/// Hears a file field's click during ours (the page's `input.click()`, or ours on the field):
/// Firefox opens no chooser without user activation.
fn hear_file_chooser(seen: &Shared) -> Option<Armed> {
    let seen = seen.clone();
    file_field_clicks(move |_, field| {
        let field = describe(field);
        seen.borrow_mut().file_chooser(&field);
    })
}

/// Hears how a promise of the page's ends: a rejection is kept, in `said`'s words (given the
/// error's name).
fn on_refusal(seen: &Shared, promise: &JsValue, said: impl FnOnce(&str) -> String + 'static) {
    let Some(then) = function(promise, "then") else {
        return;
    };
    let Some(page) = page_world::global() else {
        return;
    };
    seen.borrow_mut().awaiting();
    let (ok_seen, no_seen) = (seen.clone(), seen.clone());
    let fulfilled = Closure::once_into_js(move |_: JsValue| ok_seen.borrow_mut().fulfilled());
    let rejected = Closure::once_into_js(move |e: JsValue| {
        let name = Reflect::get(&e, &"name".into())
            .ok()
            .and_then(|n| n.as_string());
        let refusal = click_refusals::rejection(name.as_deref(), said);
        no_seen.borrow_mut().rejected(refusal);
    });
    let export = |f: JsValue| {
        page_world::export(f.unchecked_ref(), &page)
            .map(JsValue::from)
            .unwrap_or(f)
    };
    let _ = Reflect::apply(
        &then,
        promise,
        &Array::of2(&export(fulfilled), &export(rejected)),
    );
}

fn function(owner: &JsValue, name: &str) -> Option<Function> {
    Reflect::get(owner, &name.into()).ok()?.dyn_into().ok()
}
