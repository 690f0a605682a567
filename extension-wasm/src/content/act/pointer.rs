//! The pointer: pointer and mouse events as a hand makes them, clicks (on elements and at
//! points), the focus and caret a press gives, hovering.

use claudezilla_protocol::args::{MouseButton, Point};
use claudezilla_protocol::keys::Modifiers;
use claudezilla_protocol::reply;
use claudezilla_protocol::{ErrorBody, Outcome, Reply};
use wasm_bindgen::JsCast;
use web_sys::{
    Element, HtmlElement, HtmlInputElement, HtmlTextAreaElement, MouseEvent, MouseEventInit,
    PointerEvent, PointerEventInit,
};

use crate::content::find::{describe, document};
use crate::input_plan::{self, ClickStep};

use super::*;

/// How a pointer event is dispatched: where, which button, which modifiers, which press.
#[derive(Clone, Copy, Default)]
pub(in crate::content) struct Press {
    pub at: (i32, i32),
    /// `MouseEvent.button`: 0 left, 1 middle, 2 right.
    pub button: i16,
    /// `MouseEvent.buttons` while the event happens.
    pub buttons: u16,
    pub detail: i32,
    pub modifiers: Modifiers,
}

pub(super) fn mouse_init(init: &MouseEventInit, kind: &str, p: Press) {
    init.set_bubbles(!matches!(
        kind,
        "mouseenter" | "mouseleave" | "pointerenter" | "pointerleave"
    ));
    init.set_cancelable(!matches!(
        kind,
        "mouseenter" | "mouseleave" | "pointerenter" | "pointerleave"
    ));
    init.set_composed(true);
    init.set_client_x(p.at.0);
    init.set_client_y(p.at.1);
    init.set_button(p.button);
    init.set_buttons(p.buttons);
    init.set_detail(p.detail);
    init.set_ctrl_key(p.modifiers.ctrl);
    init.set_shift_key(p.modifiers.shift);
    init.set_alt_key(p.modifiers.alt);
    init.set_meta_key(p.modifiers.meta);
    if let Some(view) = web_sys::window() {
        init.set_view(Some(&view));
    }
}

/// Dispatches a mouse event; false when a handler cancelled it.
pub(super) fn mouse(element: &Element, kind: &str, p: Press) -> bool {
    let init = MouseEventInit::new();
    mouse_init(&init, kind, p);
    MouseEvent::new_with_mouse_event_init_dict(kind, &init)
        .map(|e| element.dispatch_event(&e).unwrap_or(true))
        .unwrap_or(true)
}

/// The pointer event that goes before each mouse event (modern pages listen to these).
pub(in crate::content) fn pointer(element: &Element, kind: &str, p: Press) {
    let init = PointerEventInit::new();
    mouse_init(init.unchecked_ref(), kind, p);
    init.set_pointer_id(1);
    init.set_pointer_type("mouse");
    init.set_is_primary(true);
    if let Ok(e) = PointerEvent::new_with_event_init_dict(kind, &init) {
        let _ = element.dispatch_event(&e);
    }
}

/// A pointer event, then the mouse event it stands for (`action`: `down`, `move`, `up`):
/// false when a handler cancelled the mouse event.
pub(in crate::content) fn pointer_then_mouse(element: &Element, action: &str, p: Press) -> bool {
    pointer(element, &format!("pointer{action}"), p);
    mouse(element, &format!("mouse{action}"), p)
}

/// The pointer arriving over an element, as a moving mouse announces itself.
pub(super) fn arrive(element: &Element, p: Press) {
    for step in input_plan::arrival() {
        take(element, step, p);
    }
}

/// Carries out one step of a click ([`input_plan`]); false when a handler cancelled its
/// mouse event.
fn take(element: &Element, step: ClickStep, p: Press) -> bool {
    let at = |e: input_plan::Press| Press {
        button: e.button,
        buttons: e.buttons,
        detail: e.detail,
        ..p
    };
    match step {
        ClickStep::Pointer(e) => {
            pointer(element, e.kind, at(e));
            true
        }
        ClickStep::Mouse(e) | ClickStep::Down { press: e, .. } => mouse(element, e.kind, at(e)),
        ClickStep::Activate(e) => {
            match element.dyn_ref::<HtmlElement>() {
                Some(html) => html.click(),
                None => {
                    mouse(element, e.kind, at(e));
                }
            }
            true
        }
    }
}

/// A plain left click.
pub fn click(element: &Element) -> Outcome {
    click_with(element, 1, MouseButton::Left, Modifiers::default())
}

/// Clicks as a user does: the pointer arrives, then for each press pointerdown, mousedown,
/// pointerup, mouseup and click (with its count in `detail`), then dblclick after the second;
/// the right button ends in contextmenu, the middle one in auxclick.
pub fn click_with(
    element: &Element,
    clicks: u8,
    button: MouseButton,
    modifiers: Modifiers,
) -> Outcome {
    enabled(element)?;
    scroll_into_view(element);
    let name = press(element, centre(element), false, clicks, button, modifiers);
    Ok(Reply::Clicked(reply::Clicked { element: name }))
}

/// Clicks whatever is at a point of the viewport (CSS pixels), as a user clicking there
/// would: on a canvas or a map, where no element stands for the thing clicked.
pub fn click_at(point: Point, clicks: u8, button: MouseButton, modifiers: Modifiers) -> Outcome {
    let (x, y) = (point.x(), point.y());
    let element = element_at(x, y)?;
    enabled(&element)?;
    let at = (x.round() as i32, y.round() as i32);
    let name = press(&element, at, true, clicks, button, modifiers);
    Ok(Reply::Clicked(reply::Clicked {
        element: format!("{name} at ({}, {})", at.0, at.1),
    }))
}

pub(super) fn enabled(element: &Element) -> Result<(), ErrorBody> {
    if element.matches(":disabled").unwrap_or(false) {
        return Err(page_error(format!("{} is disabled", describe(element)))
            .with_hint("wait for the page to enable it (fill required fields first)"));
    }
    Ok(())
}

/// The innermost element at a viewport point, through open shadow roots.
pub(in crate::content) fn element_at(x: f64, y: f64) -> Result<Element, ErrorBody> {
    let doc = document()?;
    let (w, h) = web_sys::window().map_or((0.0, 0.0), |w| {
        (
            w.inner_width().ok().and_then(|v| v.as_f64()).unwrap_or(0.0),
            w.inner_height()
                .ok()
                .and_then(|v| v.as_f64())
                .unwrap_or(0.0),
        )
    });
    let outside = || {
        page_error(format!(
            "({x}, {y}) is outside the viewport ({w} × {h} CSS pixels)"
        ))
        .with_hint("points are viewport CSS pixels: a screenshot's pixel divided by its scale")
    };
    if x < 0.0 || y < 0.0 || x >= w || y >= h {
        return Err(outside());
    }
    let mut element = doc
        .element_from_point(x as f32, y as f32)
        .ok_or_else(outside)?;
    while let Some(inner) = element
        .shadow_root()
        .and_then(|root| root.element_from_point(x as f32, y as f32))
        .filter(|inner| inner != &element)
    {
        element = inner;
    }
    Ok(element)
}

/// The pointer arrives at `at` over `element` and presses `clicks` times; returns how the
/// element is named in the answer. An `exact` click keeps its coordinates on the `click`
/// event too (a canvas reads them); otherwise `HTMLElement.click()` makes it.
pub(super) fn press(
    element: &Element,
    at: (i32, i32),
    exact: bool,
    clicks: u8,
    button: MouseButton,
    modifiers: Modifiers,
) -> String {
    let name = describe(element);
    crate::content::states::leave();
    commit(Some(element));
    let p = Press {
        at,
        modifiers,
        ..Press::default()
    };
    for step in input_plan::click(clicks, button, modifiers, exact) {
        let unstopped = take(element, step, p);
        if let ClickStep::Down { focuses: true, .. } = step
            && unstopped
        {
            focus_by_pointer(element, at);
        }
    }
    match input_plan::click_words(clicks, button) {
        Some(how) => format!("{name} ({how})"),
        None => name,
    }
}

/// What a press of the pointer on `element` does to focus: the element or its nearest
/// focusable ancestor takes it (through shadow hosts), or, when there is none, whatever had it
/// loses it; in a text field or editor the caret goes where the pointer is.
pub(super) fn focus_by_pointer(element: &Element, at: (i32, i32)) {
    let mut target = Some(element.clone());
    while let Some(el) = target {
        if el.matches(CLICK_FOCUSABLE).unwrap_or(false) {
            crate::content::focus::focus(&el, false);
            caret_at(&el, at);
            return;
        }
        target = el.parent_element().or_else(|| {
            js_sys::Reflect::get(&el.get_root_node(), &"host".into())
                .ok()
                .and_then(|h| h.dyn_into::<Element>().ok())
        });
    }
    crate::content::focus::blur();
}

/// What a press of the pointer can focus.
pub(super) const CLICK_FOCUSABLE: &str = "a[href], area[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), iframe, summary, [tabindex], [contenteditable]:not([contenteditable=false])";

/// Puts the caret of a text field or editor that was just focused where the pointer pressed.
pub(super) fn caret_at(field: &Element, at: (i32, i32)) {
    let editable = field
        .dyn_ref::<HtmlElement>()
        .is_some_and(HtmlElement::is_content_editable);
    if !(editable || is_text_field(field)) {
        return;
    }
    let Ok(doc) = document() else {
        return;
    };
    let Some(pos) = doc.caret_position_from_point(at.0 as f32, at.1 as f32) else {
        return;
    };
    let (Some(node), offset) = (pos.offset_node(), pos.offset()) else {
        return;
    };
    let field_node: &web_sys::Node = field.as_ref();
    if &node == field_node {
        if let Some(input) = field.dyn_ref::<HtmlInputElement>() {
            let _ = input.set_selection_range(offset, offset);
        } else if let Some(area) = field.dyn_ref::<HtmlTextAreaElement>() {
            let _ = area.set_selection_range(offset, offset);
        }
    } else if editable
        && field.contains(Some(&node))
        && let Some(selection) = web_sys::window().and_then(|w| w.get_selection().ok().flatten())
    {
        let _ = selection.collapse_with_offset(Some(&node), offset);
    }
}

/// The pointer over an element: its events, and its `:hover` styles applied (to it and its
/// ancestors) until the pointer moves elsewhere.
pub fn hover(element: &Element) -> Outcome {
    crate::content::states::leave();
    scroll_into_view(element);
    arrive(
        element,
        Press {
            at: centre(element),
            ..Press::default()
        },
    );
    let styles = crate::content::states::force(element);
    acted(format!("Hovered over {}{styles}.", describe(element)))
}
