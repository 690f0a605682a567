//! `firefox_storage` in the page: one call reads or changes its `localStorage` or
//! `sessionStorage`, over [`Store`], which the content script answers from the page and the
//! tests from a list of their own. The background has checked the user's switch.

use claudezilla_protocol::args::{MAX_STORED_VALUE, StorageAction, StorageArea};
use claudezilla_protocol::reply::{self, StorageAnswer};
use claudezilla_protocol::{ErrorBody, ErrorCode};

/// Most entries one answer lists.
const MAX_ENTRIES: u32 = 200;
/// Characters of a key in an answer.
const MAX_KEY: usize = 256;

/// A page's storage area; a failure is the page's own words.
pub trait Store {
    fn get(&self, key: &str) -> Result<Option<String>, String>;
    fn count(&self) -> Result<u32, String>;
    fn key(&self, index: u32) -> Option<String>;
    fn set(&self, key: &str, value: &str) -> Result<(), String>;
    fn remove(&self, key: &str) -> Result<(), String>;
    fn clear(&self) -> Result<(), String>;
}

/// How an area is named in answers.
pub fn area_name(area: StorageArea) -> &'static str {
    match area {
        StorageArea::Local => "local storage",
        StorageArea::Session => "session storage",
    }
}

/// Does `action` (with `key` and `value`) on `store`, the `area` of the page at `origin`.
pub fn run(
    store: &impl Store,
    origin: String,
    area: StorageArea,
    action: StorageAction,
    key: Option<String>,
    value: Option<String>,
) -> Result<StorageAnswer, ErrorBody> {
    let name = area_name(area);
    let failed =
        |what: &str, why: String| ErrorBody::new(ErrorCode::PageError, format!("{what}: {why}"));
    let cut = |v: String| crate::text::cap(&v, MAX_STORED_VALUE);
    let acted = |what: String| Ok(StorageAnswer::Acted(reply::Acted { what }));
    match (action, key) {
        (StorageAction::Get, Some(key)) => {
            let found = store.get(&key).map_err(|e| failed("cannot read", e))?;
            let entries: Vec<_> = found.map(|v| (key, cut(v))).into_iter().collect();
            Ok(StorageAnswer::Stored(reply::Stored {
                origin,
                area,
                total: entries.len() as u32,
                entries,
            }))
        }
        (StorageAction::Get, None) => {
            let total = store.count().map_err(|e| failed("cannot read", e))?;
            let entries = (0..total.min(MAX_ENTRIES))
                .filter_map(|i| store.key(i))
                .map(|k| {
                    let v = store.get(&k).ok().flatten().unwrap_or_default();
                    (crate::text::cap(&k, MAX_KEY), cut(v))
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
                .set(&key, value.as_deref().unwrap_or_default())
                .map_err(|e| failed(&format!("cannot write {name}"), e))?;
            acted(format!("Stored {key:?} in the {name} of {origin}."))
        }
        (StorageAction::Clear, Some(key)) => {
            store
                .remove(&key)
                .map_err(|e| failed(&format!("cannot change {name}"), e))?;
            acted(format!("Removed {key:?} from the {name} of {origin}."))
        }
        (StorageAction::Clear, None) => {
            store
                .clear()
                .map_err(|e| failed(&format!("cannot clear {name}"), e))?;
            acted(format!("Cleared the {name} of {origin}."))
        }
        (StorageAction::Set, None) => Err(ErrorBody::new(
            ErrorCode::InvalidArgument,
            "set needs a key",
        )),
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use super::*;

    /// A storage area as a list; `full` refuses writes as a page over its quota does.
    #[derive(Default)]
    struct Fake {
        entries: RefCell<Vec<(String, String)>>,
        full: bool,
    }

    impl Store for Fake {
        fn get(&self, key: &str) -> Result<Option<String>, String> {
            let entries = self.entries.borrow();
            Ok(entries
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.clone()))
        }
        fn count(&self) -> Result<u32, String> {
            Ok(self.entries.borrow().len() as u32)
        }
        fn key(&self, index: u32) -> Option<String> {
            self.entries
                .borrow()
                .get(index as usize)
                .map(|(k, _)| k.clone())
        }
        fn set(&self, key: &str, value: &str) -> Result<(), String> {
            if self.full {
                return Err("QuotaExceededError: the quota has been exceeded".into());
            }
            self.remove(key)?;
            self.entries.borrow_mut().push((key.into(), value.into()));
            Ok(())
        }
        fn remove(&self, key: &str) -> Result<(), String> {
            self.entries.borrow_mut().retain(|(k, _)| k != key);
            Ok(())
        }
        fn clear(&self) -> Result<(), String> {
            self.entries.borrow_mut().clear();
            Ok(())
        }
    }

    const ORIGIN: &str = "https://a.test";

    fn act(
        store: &Fake,
        action: StorageAction,
        key: Option<&str>,
        value: Option<&str>,
    ) -> Result<StorageAnswer, ErrorBody> {
        run(
            store,
            ORIGIN.into(),
            StorageArea::Local,
            action,
            key.map(Into::into),
            value.map(Into::into),
        )
    }

    fn said(answer: Result<StorageAnswer, ErrorBody>) -> String {
        match answer {
            Ok(StorageAnswer::Acted(a)) => a.what,
            other => panic!("{other:?}"),
        }
    }

    fn stored(answer: Result<StorageAnswer, ErrorBody>) -> reply::Stored {
        match answer {
            Ok(StorageAnswer::Stored(s)) => s,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn set_get_remove_and_clear() {
        let store = Fake::default();
        assert_eq!(
            said(act(&store, StorageAction::Set, Some("cart"), Some("3"))),
            "Stored \"cart\" in the local storage of https://a.test."
        );
        let one = stored(act(&store, StorageAction::Get, Some("cart"), None));
        assert_eq!(
            (one.entries, one.total),
            (vec![("cart".into(), "3".into())], 1)
        );
        let none = stored(act(&store, StorageAction::Get, Some("gone"), None));
        assert_eq!(none.total, 0);
        act(&store, StorageAction::Set, Some("b"), None).unwrap();
        assert_eq!(store.get("b").unwrap().as_deref(), Some(""));
        assert!(
            said(act(&store, StorageAction::Clear, Some("cart"), None))
                .starts_with("Removed \"cart\"")
        );
        assert_eq!(
            said(act(&store, StorageAction::Clear, None, None)),
            "Cleared the local storage of https://a.test."
        );
        assert_eq!(store.count().unwrap(), 0);
        let e = act(&store, StorageAction::Set, None, Some("v")).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument);
    }

    #[test]
    fn a_listing_is_bounded_and_says_the_whole_count() {
        let store = Fake::default();
        for i in 0..MAX_ENTRIES + 20 {
            store
                .set(&format!("k{i}"), &"v".repeat(MAX_STORED_VALUE + 10))
                .unwrap();
        }
        let all = stored(act(&store, StorageAction::Get, None, None));
        assert_eq!(all.total, MAX_ENTRIES + 20);
        assert_eq!(all.entries.len() as u32, MAX_ENTRIES);
        assert!(all.entries[0].1.chars().count() <= MAX_STORED_VALUE + 1);
    }

    #[test]
    fn the_pages_refusal_is_a_page_error_in_its_words() {
        let store = Fake {
            full: true,
            ..Fake::default()
        };
        let e = act(&store, StorageAction::Set, Some("k"), Some("v")).unwrap_err();
        assert_eq!(e.code, ErrorCode::PageError);
        assert_eq!(
            e.message,
            "cannot write local storage: QuotaExceededError: the quota has been exceeded"
        );
    }
}
