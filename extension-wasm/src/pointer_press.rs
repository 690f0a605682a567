//! One press of the pointer carried out on an element, as a hand makes it: the hover left, the
//! edit in progress committed (unless it is the element's own), the click's steps
//! ([`input_plan::click`]) taken in order, and after a `mousedown` no handler cancelled, focus
//! moved as a press moves it ([`hit_test::press_focuses`]: what it focuses takes focus, the
//! caret then where the pointer is; when nothing does, whatever had focus loses it); then the
//! words for how it pressed. Over [`Presser`], which `content/act/pointer.rs` implements;
//! tested on a page of the tests' own.

use claudezilla_protocol::args::MouseButton;
use claudezilla_protocol::keys::Modifiers;

use crate::hit_test::{self, PointerPage};
use crate::input_plan::{self, ClickStep};

/// What a press asks of the page, beyond what hit-testing reads.
pub trait Presser: PointerPage {
    /// The pointer leaves what it was over (the `:hover` styles forced there go).
    fn leave(&self);
    /// Commits the edit in progress (its `change`), unless it is `el`'s own.
    fn commit(&self, el: &Self::Element);
    /// Carries out one step of the click at `at`; false when a handler cancelled its mouse
    /// event.
    fn take(&self, el: &Self::Element, step: ClickStep, at: (i32, i32), m: Modifiers) -> bool;
    /// Moves focus to it, as a press of the pointer does.
    fn focus(&self, el: &Self::Element);
    /// Whatever has focus loses it.
    fn blur(&self);
    /// Puts the caret of a field just focused where the pointer pressed (`caret::pressed`).
    fn caret_at(&self, el: &Self::Element, at: (i32, i32));
}

/// The pointer arrives at `at` over `el` and presses `clicks` times; the words for how it
/// pressed (" (double-clicked)"), empty for a plain click. An `exact` click keeps its
/// coordinates on the `click` event too (a canvas reads them); otherwise `HTMLElement.click()`
/// makes it.
pub fn press<P: Presser>(
    page: &P,
    el: &P::Element,
    at: (i32, i32),
    exact: bool,
    clicks: u8,
    button: MouseButton,
    modifiers: Modifiers,
) -> String {
    page.leave();
    page.commit(el);
    for step in input_plan::click(clicks, button, modifiers, exact) {
        let unstopped = page.take(el, step, at, modifiers);
        if let ClickStep::Down { focuses: true, .. } = step
            && unstopped
        {
            focus_by_pointer(page, el, at);
        }
    }
    input_plan::click_words(clicks, button)
        .map(|how| format!(" ({how})"))
        .unwrap_or_default()
}

/// What a press of the pointer on `el` does to focus: what it focuses takes focus and, in a
/// text field or editor, the caret goes where the pointer is; when nothing does, whatever had
/// focus loses it.
fn focus_by_pointer<P: Presser>(page: &P, el: &P::Element, at: (i32, i32)) {
    match hit_test::press_focuses(page, el) {
        Some(target) => {
            page.focus(&target);
            page.caret_at(&target, at);
        }
        None => page.blur(),
    }
}

#[cfg(test)]
mod tests;
