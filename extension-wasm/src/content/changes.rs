//! Waiting for the page to change: a `MutationObserver` wakes the wait at the page's next
//! change instead of a poll, because every agent tab is a background tab, where Firefox runs
//! timers at most once a second.

use js_sys::Promise;
use wasm_bindgen_futures::JsFuture;
use web_sys::{MutationObserver, MutationObserverInit};

use super::find::document;
use crate::web;

/// Resolves at the document's next change (nodes, attributes or text anywhere in its tree, not
/// inside shadow roots), or after `ms` at the latest: what no observer sees (a shadow tree, a
/// style) is looked at again then.
pub async fn next_change(ms: u32) {
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
