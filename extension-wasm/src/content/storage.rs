//! `firefox_storage` in the page: its `localStorage` or `sessionStorage` (a content script sees
//! the page's own) as a [`Store`]; what one call does is decided in [`crate::page_storage`].

use claudezilla_protocol::args::{StorageAction, StorageArea};
use claudezilla_protocol::reply::StorageAnswer;
use claudezilla_protocol::{ErrorBody, ErrorCode};
use web_sys::Storage;

use crate::page_storage::{self, Store};
use crate::web::js_error_message;

impl Store for Storage {
    fn get(&self, key: &str) -> Result<Option<String>, String> {
        self.get_item(key).map_err(|e| js_error_message(&e))
    }
    fn count(&self) -> Result<u32, String> {
        self.length().map_err(|e| js_error_message(&e))
    }
    fn key(&self, index: u32) -> Option<String> {
        Storage::key(self, index).ok().flatten()
    }
    fn set(&self, key: &str, value: &str) -> Result<(), String> {
        self.set_item(key, value).map_err(|e| js_error_message(&e))
    }
    fn remove(&self, key: &str) -> Result<(), String> {
        self.remove_item(key).map_err(|e| js_error_message(&e))
    }
    fn clear(&self) -> Result<(), String> {
        Storage::clear(self).map_err(|e| js_error_message(&e))
    }
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
    let missing = || format!("{origin} has no {}", page_storage::area_name(area));
    let store = match area {
        StorageArea::Local => window.local_storage(),
        StorageArea::Session => window.session_storage(),
    }
    .map_err(|e| {
        ErrorBody::new(
            ErrorCode::PageError,
            format!("{}: {}", missing(), js_error_message(&e)),
        )
    })?
    .ok_or_else(|| ErrorBody::new(ErrorCode::PageError, missing()))?;
    page_storage::run(&store, origin, area, action, key, value)
}
