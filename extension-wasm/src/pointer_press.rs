//! One press of the pointer carried out on an element, as a hand makes it: the hover left, the
//! edit in progress committed (unless it is the element's own), the click's steps
//! ([`input_plan::click`]) taken in order, and after a `mousedown` no handler cancelled, focus moved as a press moves it
//! ([`hit_test::press_focuses`]: what it focuses takes focus, the caret then where the pointer
//! is; when nothing does, whatever had focus loses it); then the words for how it pressed. On
//! it, a click on an element (`click_now`: refused while the element is disabled, else
//! scrolled into view and pressed where a pointer aimed at its visible centre lands, the
//! click's watch armed once that is found), a click at a point (`click_at`: on what is there,
//! the click's watch armed only once it is found enabled), hovering an element or a point
//! (`hover`, `hover_at`: the pointer's arrival, then its `:hover` styles), and a click's answer
//! (`clicked`: its new tab, and what Firefox refused it, waited for a moment). Over
//! [`Presser`], which `content/act/pointer.rs` implements, the catch as [`Caught`] and the
//! watch as [`Refusals`]; tested on a page of the tests' own.

use claudezilla_protocol::args::MouseButton;
use claudezilla_protocol::keys::Modifiers;
use claudezilla_protocol::{ErrorBody, ErrorCode, reply};

use crate::hit_test::{self, PointerPage};
use crate::input_plan::{self, ClickStep};

/// Longest wait after a click for a refused promise's answer (clipboard, fullscreen).
const PROMISE_WAIT_MS: f64 = 150.0;

/// What a press asks of the page, beyond what hit-testing reads.
pub trait Presser: PointerPage {
    /// What a click on a link that opens a new tab leaves to catch; disarmed when dropped.
    type Catch: Caught;

    /// Matches `:disabled`.
    fn disabled(&self, el: &Self::Element) -> bool;
    fn scroll_into_view(&self, el: &Self::Element);
    /// The centre of the part of the element inside the viewport.
    fn visible_centre(&self, el: &Self::Element) -> (i32, i32);
    /// Armed before a click on `el` when it (or its link) opens a new tab.
    fn arm(&self, el: &Self::Element, button: MouseButton, m: Modifiers) -> Option<Self::Catch>;
    /// Applies `el`'s `:hover` styles (to it and its ancestors) until the pointer leaves; what
    /// the answer says of them.
    fn force_hover(&self, el: &Self::Element) -> String;
    /// The pointer leaves what it was over (the `:hover` styles forced there go).
    fn leave(&self);
    /// Commits the edit in progress (its `change`), unless it is `el`'s own.
    fn commit(&self, el: &Self::Element);
    /// Dispatches the pointer event `e` at `at`, with the modifiers held.
    fn pointer(&self, el: &Self::Element, e: input_plan::Press, at: (i32, i32), m: Modifiers);
    /// Dispatches the mouse event `e` at `at`, with the modifiers held; false when a handler
    /// cancelled it.
    fn mouse(&self, el: &Self::Element, e: input_plan::Press, at: (i32, i32), m: Modifiers)
    -> bool;
    /// Moves focus to it, as a press of the pointer does.
    fn focus(&self, el: &Self::Element);
    /// Whatever has focus loses it.
    fn blur(&self);
    /// Puts the caret of a field just focused where the pointer pressed (`caret::pressed`).
    fn caret_at(&self, el: &Self::Element, at: (i32, i32));
    /// The clock a click's answer waits by (`Date.now()`), in ms.
    fn now(&self) -> f64;
    /// Waits `ms` on a timer.
    fn sleep(&self, ms: u32) -> impl Future<Output = ()>;
}

/// A click's catch of the new tab its link asks for.
pub trait Caught {
    /// The address to open, if the click reached the window with its default intact.
    fn taken(&self) -> Option<String>;
}

/// What Firefox refused the page while a click ran, watched; disarmed when dropped.
pub trait Refusals {
    /// A refused promise's answer is still awaited.
    fn pending(&self) -> bool;
    /// What was refused, and the address of a popup the page did open.
    fn heard(self) -> (Vec<String>, Option<String>);
}

/// A click's answer, for the element named `element`: the new tab its link asked for (the
/// catch disarmed before anything is awaited) or the popup the page's own `window.open`
/// opened, and what was refused, once a refused promise has answered (at most
/// [`PROMISE_WAIT_MS`]).
pub async fn clicked<P: Presser, W: Refusals>(
    page: &P,
    element: String,
    catch: Option<P::Catch>,
    watch: W,
) -> reply::Clicked {
    let asked = catch.as_ref().and_then(Caught::taken);
    drop(catch);
    let until = page.now() + PROMISE_WAIT_MS;
    while watch.pending() && page.now() < until {
        page.sleep(10).await;
    }
    let (refused, popped) = watch.heard();
    reply::Clicked {
        element,
        new_tab: crate::click_refusals::new_tab(asked, popped),
        refused,
    }
}

/// The pointer arrives at `at` over `el` and presses `clicks` times; the words for how it
/// pressed (" (double-clicked)"), empty for a plain click.
pub fn press<P: Presser>(
    page: &P,
    el: &P::Element,
    at: (i32, i32),
    clicks: u8,
    button: MouseButton,
    modifiers: Modifiers,
) -> String {
    page.leave();
    page.commit(el);
    for step in input_plan::click(clicks, button) {
        let unstopped = take(page, el, step, at, modifiers);
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

/// Refuses a disabled element, saying how it may become enabled.
pub fn enabled<P: Presser>(page: &P, el: &P::Element) -> Result<(), ErrorBody> {
    if page.disabled(el) {
        return Err(ErrorBody::new(
            ErrorCode::PageError,
            format!("{} is disabled", page.describe(el)),
        )
        .with_hint("wait for the page to enable it (fill required fields first)"));
    }
    Ok(())
}

/// The click itself, on what is under the pointer at the element's visible centre: refused
/// while the element is disabled; else, once the pointer's landing is found, `watch` armed
/// (what Firefox refuses the click), then the catch of a new tab its link asks for, then the
/// press. How the element is named, with the catch and the watch.
pub fn click_now<P: Presser, W>(
    page: &P,
    el: &P::Element,
    clicks: u8,
    button: MouseButton,
    modifiers: Modifiers,
    watch: impl FnOnce() -> W,
) -> Result<(String, Option<P::Catch>, W), ErrorBody> {
    enabled(page, el)?;
    page.scroll_into_view(el);
    let at = page.visible_centre(el);
    let target = hit_test::landing(page, el, at)?;
    let watch = watch();
    let catch = page.arm(&target, button, modifiers);
    let how = press(page, &target, at, clicks, button, modifiers);
    // Named as the agent knows it, whatever inner part the pointer is over.
    Ok((format!("{}{how}", page.describe(el)), catch, watch))
}

/// A click at a point of the viewport (CSS pixels), on whatever is there: refused when that is
/// disabled; else `watch` armed (what Firefox refuses the click), then the catch of a new tab,
/// then the press, keeping its coordinates. How the element is named, with the point, the
/// catch and the watch.
pub fn click_at<P: Presser, W>(
    page: &P,
    (x, y): (f64, f64),
    clicks: u8,
    button: MouseButton,
    modifiers: Modifiers,
    watch: impl FnOnce() -> W,
) -> Result<(String, Option<P::Catch>, W), ErrorBody> {
    let el = hit_test::element_at(page, x, y)?;
    enabled(page, &el)?;
    let at = (x.round() as i32, y.round() as i32);
    let watch = watch();
    let catch = page.arm(&el, button, modifiers);
    let how = press(page, &el, at, clicks, button, modifiers);
    let name = format!("{}{how} at ({}, {})", page.describe(&el), at.0, at.1);
    Ok((name, catch, watch))
}

/// The pointer over an element, where a pointer aimed at its visible centre lands; the
/// answer's words.
pub fn hover<P: Presser>(page: &P, el: &P::Element) -> Result<String, ErrorBody> {
    page.leave();
    page.scroll_into_view(el);
    let at = page.visible_centre(el);
    let target = hit_test::landing(page, el, at)?;
    let styles = point_over(page, &target, at);
    Ok(format!("Hovered over {}{styles}.", page.describe(el)))
}

/// The pointer over whatever is at a point of the viewport (CSS pixels); the answer's words.
pub fn hover_at<P: Presser>(page: &P, x: f64, y: f64) -> Result<String, ErrorBody> {
    let el = hit_test::element_at(page, x, y)?;
    page.leave();
    let at = (x.round() as i32, y.round() as i32);
    let styles = point_over(page, &el, at);
    Ok(format!(
        "Hovered over {} at ({}, {}){styles}.",
        page.describe(&el),
        at.0,
        at.1
    ))
}

/// Carries out one step of a click ([`input_plan::click`]); false when a handler cancelled
/// its mouse event.
fn take<P: Presser>(
    page: &P,
    el: &P::Element,
    step: ClickStep,
    at: (i32, i32),
    m: Modifiers,
) -> bool {
    match step {
        ClickStep::Pointer(e) => {
            page.pointer(el, e, at, m);
            true
        }
        ClickStep::Mouse(e) | ClickStep::Down { press: e, .. } => page.mouse(el, e, at, m),
    }
}

/// The pointer arrives at `at` over `el` as a moving mouse announces itself
/// ([`input_plan::arrival`]), and its `:hover` styles apply; what the answer says of them.
fn point_over<P: Presser>(page: &P, el: &P::Element, at: (i32, i32)) -> String {
    for step in input_plan::arrival() {
        take(page, el, step, at, Modifiers::default());
    }
    page.force_hover(el)
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
