//! The edit in progress and its commit, as a browser fires `change`: a field's edit is
//! remembered from its value before (`begin`; another field's edit is committed first, the same
//! field's kept as it began), and committed when focus moves on or Enter is pressed
//! (`commit`): `change`, when the value changed and the browser has not fired it itself, which
//! a tab in the background does not always do. Acting on the field being edited commits
//! nothing. Over [`Commits`], which `content/act/typing.rs` implements.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// The page's side of an edit's commit.
pub trait Commits {
    type Element: PartialEq + Clone;

    /// The field's value as the page reads it.
    fn value(&self, el: &Self::Element) -> Option<String>;
    /// Listens once for the browser's own `change` on the field: the flag it sets.
    fn hear_change(&self, el: &Self::Element) -> Rc<Cell<bool>>;
    /// Fires `change` on the field.
    fn change(&self, el: &Self::Element);
}

/// A field being edited: its value before, and whether the browser has fired `change`.
pub struct Edit<E> {
    element: E,
    before: String,
    heard: Rc<Cell<bool>>,
}

/// The edit in progress, if any.
pub type Current<E> = RefCell<Option<Edit<E>>>;

/// Remembers the edit of `el`, whose value is `before`, until it is committed.
pub fn begin<C: Commits>(page: &C, current: &Current<C::Element>, el: &C::Element, before: String) {
    if current.borrow().as_ref().is_some_and(|e| &e.element == el) {
        return;
    }
    commit(page, current, None);
    let heard = page.hear_change(el);
    *current.borrow_mut() = Some(Edit {
        element: el.clone(),
        before,
        heard,
    });
}

/// The edit is committed: `change`, if the value changed and the browser has not said so
/// itself. Not when acting on the field being edited (`next`).
pub fn commit<C: Commits>(page: &C, current: &Current<C::Element>, next: Option<&C::Element>) {
    // Taken out before the page hears anything: its handlers may act on us again.
    let edit = {
        let mut current = current.borrow_mut();
        match next.is_some_and(|n| current.as_ref().is_some_and(|e| &e.element == n)) {
            true => None,
            false => current.take(),
        }
    };
    let Some(edit) = edit else {
        return;
    };
    let now = page.value(&edit.element).unwrap_or_default();
    if !edit.heard.get() && now != edit.before {
        page.change(&edit.element);
    }
}

#[cfg(test)]
mod tests;
