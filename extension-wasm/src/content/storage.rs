//! `firefox_storage` in the page: its `localStorage` or `sessionStorage` (a content script sees
//! the page's own), read or changed in one call. The background has checked the user's switch.

use claudezilla_protocol::args::{MAX_STORED_VALUE, StorageAction, StorageArea};
use claudezilla_protocol::reply::{self, StorageAnswer};
use claudezilla_protocol::{ErrorBody, ErrorCode};

use crate::web::js_error_message;

/// Most entries one answer lists.
const MAX_ENTRIES: u32 = 200;

fn page_error(what: &str, e: &wasm_bindgen::JsValue) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::PageError,
        format!("{what}: {}", js_error_message(e)),
    )
}

pub fn run(
    action: StorageAction,
    area: StorageArea,
    key: Option<String>,
    value: Option<String>,
) -> Result<StorageAnswer, ErrorBody> {
    let window =
        web_sys::window().ok_or_else(|| ErrorBody::new(ErrorCode::PageError, "no window"))?;
    let origin = window.location().origin().unwrap_or_default();
    let name = match area {
        StorageArea::Local => "local storage",
        StorageArea::Session => "session storage",
    };
    let store = match area {
        StorageArea::Local => window.local_storage(),
        StorageArea::Session => window.session_storage(),
    }
    .map_err(|e| page_error(&format!("{origin} has no {name}"), &e))?
    .ok_or_else(|| ErrorBody::new(ErrorCode::PageError, format!("{origin} has no {name}")))?;
    let cut = |v: String| crate::text::cap(&v, MAX_STORED_VALUE);
    match (action, key) {
        (StorageAction::Get, Some(key)) => {
            let found = store
                .get_item(&key)
                .map_err(|e| page_error("cannot read", &e))?;
            let entries: Vec<_> = found.map(|v| (key, cut(v))).into_iter().collect();
            Ok(StorageAnswer::Stored(reply::Stored {
                origin,
                area,
                total: entries.len() as u32,
                entries,
            }))
        }
        (StorageAction::Get, None) => {
            let total = store.length().map_err(|e| page_error("cannot read", &e))?;
            let entries = (0..total.min(MAX_ENTRIES))
                .filter_map(|i| store.key(i).ok().flatten())
                .map(|k| {
                    let v = store.get_item(&k).ok().flatten().unwrap_or_default();
                    (crate::text::cap(&k, 256), cut(v))
                })
                .collect();
            Ok(StorageAnswer::Stored(reply::Stored {
                origin,
                area,
                entries,
                total,
            }))
        }
        (StorageAction::Set, Some(key)) => {
            store
                .set_item(&key, value.as_deref().unwrap_or_default())
                .map_err(|e| page_error(&format!("cannot write {name}"), &e))?;
            Ok(StorageAnswer::Acted(reply::Acted {
                what: format!("Stored {key:?} in the {name} of {origin}."),
            }))
        }
        (StorageAction::Clear, Some(key)) => {
            store
                .remove_item(&key)
                .map_err(|e| page_error(&format!("cannot change {name}"), &e))?;
            Ok(StorageAnswer::Acted(reply::Acted {
                what: format!("Removed {key:?} from the {name} of {origin}."),
            }))
        }
        (StorageAction::Clear, None) => {
            store
                .clear()
                .map_err(|e| page_error(&format!("cannot clear {name}"), &e))?;
            Ok(StorageAnswer::Acted(reply::Acted {
                what: format!("Cleared the {name} of {origin}."),
            }))
        }
        (StorageAction::Set, None) => Err(ErrorBody::new(
            ErrorCode::InvalidArgument,
            "set needs a key",
        )),
    }
}
