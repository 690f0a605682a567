//! The pointer: pointer and mouse events as a hand makes them, clicks (on elements and at
//! points), the focus and caret a press gives, hovering. Where the pointer lands and what a
//! press focuses are [`hit_test`]'s, a press's order [`pointer_press`]'s, over the page as
//! [`Hit`] reads it.

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::args::{MouseButton, Point};
use claudezilla_protocol::keys::Modifiers;
use claudezilla_protocol::reply;
use wasm_bindgen::JsCast;
use web_sys::{
    DataTransfer, Document, DragEvent, DragEventInit, Element, HtmlElement, HtmlInputElement,
    HtmlTextAreaElement, MouseEvent, MouseEventInit, PointerEvent, PointerEventInit,
};

use super::links::NewTabCatch;
use super::refused::Watch;
use crate::caret::{self, Pressed};
use crate::content::dom::document;
use crate::content::find::describe;
use crate::hit_test::{self, PointerPage};
use crate::input_plan::{self, event_shape};
use crate::pointer_press::{self, Presser};

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
    let shape = event_shape(kind);
    init.set_bubbles(shape.bubbles);
    init.set_cancelable(shape.cancelable);
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

/// Dispatches a mouse event; false when a handler cancelled it. A click, auxclick or
/// contextmenu is a pointer event, as Firefox makes a person's (pages read its
/// `pointerType`).
pub(super) fn mouse(element: &Element, kind: &str, p: Press) -> bool {
    let event = match kind {
        "click" | "auxclick" | "contextmenu" => pointer_event(kind, p).map(Event::from),
        _ => {
            let init = MouseEventInit::new();
            mouse_init(&init, kind, p);
            MouseEvent::new_with_mouse_event_init_dict(kind, &init).map(Event::from)
        }
    };
    event
        .map(|e| element.dispatch_event(&e).unwrap_or(true))
        .unwrap_or(true)
}

/// The pointer event that goes before each mouse event (modern pages listen to these).
pub(in crate::content) fn pointer(element: &Element, kind: &str, p: Press) {
    if let Ok(e) = pointer_event(kind, p) {
        let _ = element.dispatch_event(&e);
    }
}

fn pointer_event(kind: &str, p: Press) -> Result<PointerEvent, wasm_bindgen::JsValue> {
    let init = PointerEventInit::new();
    mouse_init(init.unchecked_ref(), kind, p);
    init.set_pointer_id(1);
    init.set_pointer_type("mouse");
    init.set_is_primary(true);
    PointerEvent::new_with_event_init_dict(kind, &init)
}

/// A pointer event, then the mouse event it stands for (`action`: `down`, `move`, `up`):
/// false when a handler cancelled the mouse event.
pub(in crate::content) fn pointer_then_mouse(element: &Element, action: &str, p: Press) -> bool {
    pointer(element, &format!("pointer{action}"), p);
    mouse(element, &format!("mouse{action}"), p)
}

/// The event `e` at `at`, with the modifiers held.
fn press(e: input_plan::Press, at: (i32, i32), modifiers: Modifiers) -> Press {
    Press {
        at,
        button: e.button,
        buttons: e.buttons,
        detail: e.detail,
        modifiers,
    }
}

/// A plain left click, part of another action (a form's submit button, Enter on a link).
pub fn click(element: &Element) -> Result<reply::Clicked, ErrorBody> {
    let (element, ..) = pointer_press::click_now(
        &Hit::new(),
        element,
        1,
        MouseButton::Left,
        Modifiers::default(),
        || (),
    )?;
    Ok(reply::Clicked {
        element,
        new_tab: None,
        refused: Vec::new(),
    })
}

/// Clicks as a user does: the pointer arrives, then for each press pointerdown, mousedown,
/// pointerup, mouseup and click (with its count in `detail`), then dblclick after the second;
/// the right button ends in contextmenu, the middle one in auxclick.
/// The answer says the tab a link opened and what Firefox refused the page meanwhile.
pub async fn click_with(
    element: &Element,
    clicks: u8,
    button: MouseButton,
    modifiers: Modifiers,
) -> Result<reply::Clicked, ErrorBody> {
    let page = Hit::new();
    let (element, catch, watch) =
        pointer_press::click_now(&page, element, clicks, button, modifiers, Watch::arm)?;
    Ok(pointer_press::clicked(&page, element, catch, watch).await)
}

pub(super) fn viewport() -> (f64, f64) {
    web_sys::window().map_or((0.0, 0.0), |w| {
        let size = |v: Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue>| {
            v.ok().and_then(|v| v.as_f64()).unwrap_or(0.0)
        };
        (size(w.inner_width()), size(w.inner_height()))
    })
}

/// The page as hit-testing reads it ([`hit_test::PointerPage`]): its document, none when
/// there is none (then nothing is at any point).
struct Hit(Option<Document>);

impl Hit {
    fn new() -> Self {
        Self(document().ok())
    }
}

impl PointerPage for Hit {
    type Element = Element;

    fn viewport(&self) -> (f64, f64) {
        viewport()
    }

    fn top_at(&self, x: f64, y: f64) -> Option<Element> {
        self.0.as_ref()?.element_from_point(x as f32, y as f32)
    }

    fn shadow_at(&self, host: &Element, x: f64, y: f64) -> Option<Element> {
        host.shadow_root()?.element_from_point(x as f32, y as f32)
    }

    fn composed_parent(&self, el: &Element) -> Option<Element> {
        crate::content::dom::composed_parent(el)
    }

    fn labels(&self, el: &Element) -> Vec<Element> {
        let Some(labels) = el
            .dyn_ref::<HtmlInputElement>()
            .and_then(HtmlInputElement::labels)
        else {
            return Vec::new();
        };
        (0..labels.length())
            .filter_map(|i| labels.item(i))
            .filter_map(|l| l.dyn_into::<Element>().ok())
            .collect()
    }

    fn size(&self, el: &Element) -> (f64, f64) {
        let r = el.get_bounding_client_rect();
        (r.width(), r.height())
    }

    /// A native control a styled one stands in for.
    fn transparent(&self, el: &Element) -> bool {
        web_sys::window()
            .and_then(|w| w.get_computed_style(el).ok().flatten())
            .and_then(|style| style.get_property_value("opacity").ok())
            .is_some_and(|o| o.trim() == "0")
    }

    fn click_focusable(&self, el: &Element) -> bool {
        el.matches(&CLICK_FOCUSABLE).unwrap_or(false)
    }

    fn describe(&self, el: &Element) -> String {
        describe(el)
    }
}

impl Presser for Hit {
    type Catch = NewTabCatch;

    fn disabled(&self, el: &Element) -> bool {
        el.matches(":disabled").unwrap_or(false)
    }

    fn scroll_into_view(&self, el: &Element) {
        scroll_into_view(el, false);
    }

    /// Where a person's pointer goes.
    fn visible_centre(&self, el: &Element) -> (i32, i32) {
        let r = el.get_bounding_client_rect();
        input_plan::visible_centre([r.left(), r.top(), r.right(), r.bottom()], viewport())
    }

    fn arm(&self, el: &Element, button: MouseButton, m: Modifiers) -> Option<NewTabCatch> {
        NewTabCatch::arm(el, button, m)
    }

    fn force_hover(&self, el: &Element) -> String {
        crate::content::states::force(el)
    }

    fn leave(&self) {
        crate::content::states::leave();
    }

    fn commit(&self, el: &Element) {
        commit(Some(el));
    }

    fn pointer(&self, el: &Element, e: input_plan::Press, at: (i32, i32), m: Modifiers) {
        pointer(el, e.kind, press(e, at, m));
    }

    fn mouse(&self, el: &Element, e: input_plan::Press, at: (i32, i32), m: Modifiers) -> bool {
        mouse(el, e.kind, press(e, at, m))
    }

    fn focus(&self, el: &Element) {
        crate::content::focus::focus(el, false);
    }

    fn blur(&self) {
        crate::content::focus::blur();
    }

    /// Puts the caret of a text field or editor that was just focused where the pointer pressed
    /// ([`caret::pressed`]).
    fn caret_at(&self, field: &Element, at: (i32, i32)) {
        let editable = field
            .dyn_ref::<HtmlElement>()
            .is_some_and(HtmlElement::is_content_editable);
        let under = || {
            let pos = document()
                .ok()?
                .caret_position_from_point(at.0 as f32, at.1 as f32)?;
            Some((pos.offset_node()?, pos.offset()))
        };
        let field_node: &web_sys::Node = field.as_ref();
        let inside = |node: &web_sys::Node| field.contains(Some(node));
        // An editor takes text: no need to ask whether it is a text field.
        let takes_text = editable || is_text_field(field);
        match caret::pressed(field_node, takes_text, editable, under, inside) {
            Some(Pressed::Own(offset)) => {
                if let Some(input) = field.dyn_ref::<HtmlInputElement>() {
                    let _ = input.set_selection_range(offset, offset);
                } else if let Some(area) = field.dyn_ref::<HtmlTextAreaElement>() {
                    let _ = area.set_selection_range(offset, offset);
                }
            }
            Some(Pressed::Within(node, offset)) => {
                if let Some(selection) =
                    web_sys::window().and_then(|w| w.get_selection().ok().flatten())
                {
                    let _ = selection.collapse_with_offset(Some(&node), offset);
                }
            }
            None => {}
        }
    }

    fn now(&self) -> f64 {
        crate::web::now_ms()
    }

    fn sleep(&self, ms: u32) -> impl Future<Output = ()> {
        crate::web::sleep(ms)
    }
}

/// Clicks whatever is at a point of the viewport (CSS pixels), as a user clicking there
/// would: on a canvas or a map, where no element stands for the thing clicked.
pub async fn click_at(
    point: Point,
    clicks: u8,
    button: MouseButton,
    modifiers: Modifiers,
) -> Result<reply::Clicked, ErrorBody> {
    let page = Hit(Some(document()?));
    let (name, catch, watch) = pointer_press::click_at(
        &page,
        (point.x(), point.y()),
        clicks,
        button,
        modifiers,
        Watch::arm,
    )?;
    Ok(pointer_press::clicked(&page, name, catch, watch).await)
}

/// The innermost element at a viewport point, through open shadow roots
/// ([`hit_test::element_at`]).
pub(in crate::content) fn element_at(x: f64, y: f64) -> Result<Element, ErrorBody> {
    hit_test::element_at(&Hit(Some(document()?)), x, y)
}

/// What a press of the pointer can focus ([`input_plan::click_focusable`]).
static CLICK_FOCUSABLE: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(input_plan::click_focusable);

/// The pointer over an element: its events, and its `:hover` styles applied (to it and its
/// ancestors) until the pointer moves elsewhere ([`pointer_press::hover`]).
pub fn hover(element: &Element) -> Result<reply::Acted, ErrorBody> {
    acted(pointer_press::hover(&Hit::new(), element)?)
}

/// The pointer over whatever is at a point of the viewport (CSS pixels): a canvas chart shows
/// its tooltip only under the pointer, where no element stands for the bar.
pub fn hover_at(point: Point) -> Result<reply::Acted, ErrorBody> {
    acted(pointer_press::hover_at(
        &Hit(Some(document()?)),
        point.x(),
        point.y(),
    )?)
}

/// One HTML5 drag event on `target`; false when a handler cancelled it.
pub fn drag_event(target: &Element, kind: &str, at: (i32, i32), transfer: &DataTransfer) -> bool {
    let init = DragEventInit::new();
    let shape = event_shape(kind);
    init.set_bubbles(shape.bubbles);
    init.set_cancelable(shape.cancelable);
    init.set_composed(true);
    init.set_client_x(at.0);
    init.set_client_y(at.1);
    init.set_buttons(1);
    init.set_data_transfer(Some(transfer));
    DragEvent::new_with_event_init_dict(kind, &init)
        .map(|e| target.dispatch_event(&e).unwrap_or(true))
        .unwrap_or(true)
}
