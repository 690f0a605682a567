//! Waiting for the page to change: a `MutationObserver` wakes the wait at the page's next
//! change, and a capturing listener at its next loaded image, instead of a poll, because every
//! agent tab is a background tab, where Firefox runs timers at most once a second.

use js_sys::{Function, Promise};
use wasm_bindgen_futures::JsFuture;
use web_sys::{MutationObserver, MutationObserverInit};

use super::dom::document;
use crate::web;

/// How long a wait goes without a change before it looks again: for what the observer does
/// not see (a shadow tree, a style).
const LOOK_AGAIN_MS: f64 = 100.0;

/// Resolves at the document's next change (nodes, attributes or text anywhere in its tree, not
/// inside shadow roots), after `LOOK_AGAIN_MS`, or at `until` (ms since the epoch), whichever
/// is first.
pub async fn next_change(until: u64) {
    let ms = (until as f64 - web::now_ms()).clamp(0.0, LOOK_AGAIN_MS) as u32;
    let mut observer = None;
    let changed = Promise::new(&mut |resolve, _| {
        let root = document().ok().and_then(|d| d.document_element());
        let (Ok(o), Some(root)) = (MutationObserver::new(&resolve), root) else {
            return;
        };
        let init = MutationObserverInit::new();
        init.set_child_list(true);
        init.set_subtree(true);
        init.set_attributes(true);
        init.set_character_data(true);
        if o.observe_with_options(&root, &init).is_ok() {
            observer = Some(o);
        }
    });
    web::with_deadline(ms, JsFuture::from(changed)).await;
    if let Some(o) = observer {
        o.disconnect();
    }
}

/// Resolves at the next `load` or `error` of anything in the document (an image, a style
/// sheet), or after `ms` at the latest.
pub async fn next_load(ms: u32) {
    let Ok(document) = document() else {
        return web::sleep(ms).await;
    };
    let mut listener: Option<Function> = None;
    let loaded = Promise::new(&mut |resolve, _| {
        for kind in LOAD_EVENTS {
            // Capturing: these events do not bubble from the element.
            let _ = document.add_event_listener_with_callback_and_bool(kind, &resolve, true);
        }
        listener = Some(resolve);
    });
    web::with_deadline(ms, JsFuture::from(loaded)).await;
    if let Some(listener) = listener {
        for kind in LOAD_EVENTS {
            let _ = document.remove_event_listener_with_callback_and_bool(kind, &listener, true);
        }
    }
}

const LOAD_EVENTS: [&str; 2] = ["load", "error"];
