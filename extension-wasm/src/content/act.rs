//! Acting on the page as a user would: click, type, keys, scroll, hover, select, fill, upload
//! (dragging is `super::drag`). Synthetic events are untrusted, so where the browser would do something on a real
//! user's action (submit a form on Enter, follow a link), we do it ourselves and say so.

use claudezilla_protocol::args::{FieldValue, MouseButton};
use claudezilla_protocol::envelope::Modifiers;
use claudezilla_protocol::keys::{Chord, Key};
use claudezilla_protocol::{ErrorBody, ErrorCode, Outcome, Reply};
use wasm_bindgen::JsCast;
use web_sys::{
    DataTransfer, Element, Event, EventInit, HtmlElement, HtmlFormElement, HtmlInputElement,
    HtmlSelectElement, HtmlTextAreaElement, InputEvent, InputEventInit, KeyboardEvent,
    KeyboardEventInit, MouseEvent, MouseEventInit, PointerEvent, PointerEventInit, ScrollBehavior,
    ScrollIntoViewOptions, ScrollLogicalPosition, ScrollToOptions, WheelEvent, WheelEventInit,
};

use super::find::{describe, document};

pub(super) fn page_error(message: String) -> ErrorBody {
    ErrorBody::new(ErrorCode::PageError, message)
}

pub(super) fn acted(what: String) -> Outcome {
    Ok(Reply::Acted { what })
}

pub(super) fn scroll_into_view(element: &Element) {
    let options = ScrollIntoViewOptions::new();
    options.set_block(ScrollLogicalPosition::Center);
    options.set_behavior(ScrollBehavior::Instant);
    element.scroll_into_view_with_scroll_into_view_options(&options);
}

pub(super) fn centre(element: &Element) -> (i32, i32) {
    let r = element.get_bounding_client_rect();
    (
        (r.left() + r.width() / 2.0) as i32,
        (r.top() + r.height() / 2.0) as i32,
    )
}

/// How a pointer event is dispatched: where, which button, which modifiers, which press.
#[derive(Clone, Copy, Default)]
pub(super) struct Press {
    pub at: (i32, i32),
    /// `MouseEvent.button`: 0 left, 1 middle, 2 right.
    pub button: i16,
    /// `MouseEvent.buttons` while the event happens.
    pub buttons: u16,
    pub detail: i32,
    pub modifiers: Modifiers,
}

fn mouse_init(init: &MouseEventInit, kind: &str, p: Press) {
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
fn mouse(element: &Element, kind: &str, p: Press) -> bool {
    let init = MouseEventInit::new();
    mouse_init(&init, kind, p);
    MouseEvent::new_with_mouse_event_init_dict(kind, &init)
        .map(|e| element.dispatch_event(&e).unwrap_or(true))
        .unwrap_or(true)
}

/// The pointer event that goes before each mouse event (modern pages listen to these).
pub(super) fn pointer(element: &Element, kind: &str, p: Press) {
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
pub(super) fn pointer_then_mouse(element: &Element, action: &str, p: Press) -> bool {
    pointer(element, &format!("pointer{action}"), p);
    mouse(element, &format!("mouse{action}"), p)
}

/// The pointer arriving over an element, as a moving mouse announces itself.
fn arrive(element: &Element, p: Press) {
    pointer(element, "pointerover", p);
    pointer(element, "pointerenter", p);
    mouse(element, "mouseover", p);
    mouse(element, "mouseenter", p);
    pointer_then_mouse(element, "move", p);
}

fn event(element: &Element, kind: &str) {
    let init = EventInit::new();
    init.set_bubbles(true);
    init.set_composed(true);
    if let Ok(e) = Event::new_with_event_init_dict(kind, &init) {
        let _ = element.dispatch_event(&e);
    }
}

fn input_event(element: &Element, data: Option<&str>) {
    let init = InputEventInit::new();
    init.set_bubbles(true);
    init.set_composed(true);
    init.set_input_type("insertText");
    init.set_data(data);
    if let Ok(e) = InputEvent::new_with_event_init_dict("input", &init) {
        let _ = element.dispatch_event(&e);
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
    Ok(Reply::Clicked { element: name })
}

/// Clicks whatever is at a point of the viewport (CSS pixels), as a user clicking there
/// would: on a canvas or a map, where no element stands for the thing clicked.
pub fn click_at(x: f64, y: f64, clicks: u8, button: MouseButton, modifiers: Modifiers) -> Outcome {
    let element = element_at(x, y)?;
    enabled(&element)?;
    let at = (x.round() as i32, y.round() as i32);
    let name = press(&element, at, true, clicks, button, modifiers);
    Ok(Reply::Clicked {
        element: format!("{name} at ({}, {})", at.0, at.1),
    })
}

fn enabled(element: &Element) -> Result<(), ErrorBody> {
    if element.matches(":disabled").unwrap_or(false) {
        return Err(page_error(format!("{} is disabled", describe(element)))
            .with_hint("wait for the page to enable it (fill required fields first)"));
    }
    Ok(())
}

/// The innermost element at a viewport point, through open shadow roots.
pub(super) fn element_at(x: f64, y: f64) -> Result<Element, ErrorBody> {
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
fn press(
    element: &Element,
    at: (i32, i32),
    exact: bool,
    clicks: u8,
    button: MouseButton,
    modifiers: Modifiers,
) -> String {
    let name = describe(element);
    super::states::leave();
    commit(Some(element));
    let (code, held) = match button {
        MouseButton::Left => (0, 1),
        MouseButton::Middle => (1, 4),
        MouseButton::Right => (2, 2),
    };
    let mut p = Press {
        at,
        modifiers,
        ..Press::default()
    };
    arrive(element, p);
    p.button = code;
    for n in 1..=i32::from(clicks) {
        p.detail = n;
        p.buttons = held;
        let pressed = pointer_then_mouse(element, "down", p);
        if n == 1 && pressed && button != MouseButton::Middle {
            focus_by_pointer(element, at);
        }
        p.buttons = 0;
        pointer_then_mouse(element, "up", p);
        match button {
            // click() runs the default action too (follow a link, toggle a checkbox, submit).
            MouseButton::Left if n == 1 && !held_any(modifiers) && !exact => {
                match element.dyn_ref::<HtmlElement>() {
                    Some(html) => html.click(),
                    None => {
                        mouse(element, "click", p);
                    }
                }
            }
            MouseButton::Left => {
                mouse(element, "click", p);
            }
            MouseButton::Middle => {
                mouse(element, "auxclick", p);
            }
            MouseButton::Right => {
                mouse(element, "contextmenu", p);
            }
        }
        if n == 2 && button == MouseButton::Left {
            mouse(element, "dblclick", p);
        }
    }
    let how = match (clicks, button) {
        (1, MouseButton::Left) => String::new(),
        (2, MouseButton::Left) => "Double-clicked".into(),
        (3, MouseButton::Left) => "Triple-clicked".into(),
        (_, MouseButton::Right) => "Right-clicked".into(),
        (_, MouseButton::Middle) => "Middle-clicked".into(),
        _ => String::new(),
    };
    if how.is_empty() {
        name
    } else {
        format!("{name} ({})", how.to_lowercase())
    }
}

/// What a press of the pointer on `element` does to focus: the element or its nearest
/// focusable ancestor takes it (through shadow hosts), or, when there is none, whatever had it
/// loses it; in a text field or editor the caret goes where the pointer is.
fn focus_by_pointer(element: &Element, at: (i32, i32)) {
    let mut target = Some(element.clone());
    while let Some(el) = target {
        if el.matches(CLICK_FOCUSABLE).unwrap_or(false) {
            super::focus::focus(&el, false);
            caret_at(&el, at);
            return;
        }
        target = el.parent_element().or_else(|| {
            js_sys::Reflect::get(&el.get_root_node(), &"host".into())
                .ok()
                .and_then(|h| h.dyn_into::<Element>().ok())
        });
    }
    super::focus::blur();
}

/// What a press of the pointer can focus.
const CLICK_FOCUSABLE: &str = "a[href], area[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), iframe, summary, [tabindex], [contenteditable]:not([contenteditable=false])";

/// Puts the caret of a text field or editor that was just focused where the pointer pressed.
fn caret_at(field: &Element, at: (i32, i32)) {
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

fn held_any(m: Modifiers) -> bool {
    m.ctrl || m.shift || m.alt || m.meta
}

/// The pointer over an element: its events, and its `:hover` styles applied (to it and its
/// ancestors) until the pointer moves elsewhere.
pub fn hover(element: &Element) -> Outcome {
    super::states::leave();
    scroll_into_view(element);
    arrive(
        element,
        Press {
            at: centre(element),
            ..Press::default()
        },
    );
    let styles = super::states::force(element);
    acted(format!("Hovered over {}{styles}.", describe(element)))
}

/// Input types that take typed text.
const TEXT_INPUTS: &[&str] = &[
    "text",
    "search",
    "email",
    "url",
    "tel",
    "password",
    "number",
    "date",
    "time",
    "datetime-local",
    "month",
    "week",
    "",
];

/// How typed text went into a field.
enum Entry {
    /// As the editor takes keystrokes (`execCommand("insertText")`): the browser enforces
    /// `maxlength`, keeps undo, fires trusted `input` events and `change` when the field loses
    /// focus — the way pages expect.
    Editor,
    /// Set by script (where the editor path is unavailable): `input` and `change` dispatched.
    Script,
}

/// The value of a text field, or a contenteditable's text as the page reads it: its lines
/// (block elements) separated by newlines, without the invisible characters editors keep in
/// the DOM for the caret (`\u{feff}`, `\u{200b}`).
fn field_value(element: &Element) -> Option<String> {
    if let Some(input) = element.dyn_ref::<HtmlInputElement>() {
        return Some(input.value());
    }
    if let Some(area) = element.dyn_ref::<HtmlTextAreaElement>() {
        return Some(area.value());
    }
    element
        .dyn_ref::<HtmlElement>()
        .filter(|h| h.is_content_editable())
        .map(|h| h.inner_text().replace(['\u{feff}', '\u{200b}'], ""))
}

/// Checks that `element` takes typed text; its description otherwise says why not.
fn check_editable(element: &Element) -> Result<(), ErrorBody> {
    let name = describe(element);
    if let Some(input) = element.dyn_ref::<HtmlInputElement>() {
        let kind = input.type_().to_ascii_lowercase();
        if !TEXT_INPUTS.contains(&kind.as_str()) {
            return Err(page_error(format!("{name} is an input of type {kind:?}, which takes no typed text"))
                .with_hint("use firefox_click for checkboxes, radios and buttons, firefox_upload_file for files"));
        }
        return editable(input.disabled(), input.read_only(), &name);
    }
    if let Some(area) = element.dyn_ref::<HtmlTextAreaElement>() {
        return editable(area.disabled(), area.read_only(), &name);
    }
    if element
        .dyn_ref::<HtmlElement>()
        .is_some_and(HtmlElement::is_content_editable)
    {
        return Ok(());
    }
    Err(page_error(format!("{name} is not editable"))
        .with_hint("select an input, a textarea or a contenteditable element"))
}

/// Puts the caret at the end of the field, or selects all of it (to be replaced).
fn place_caret(element: &Element, select_all: bool) {
    if let Some(input) = element.dyn_ref::<HtmlInputElement>() {
        if select_all {
            input.select();
        } else {
            // Some input types (email, number) have no selection: typing appends there anyway.
            let end = input.value().encode_utf16().count() as u32;
            let _ = input.set_selection_range(end, end);
        }
    } else if let Some(area) = element.dyn_ref::<HtmlTextAreaElement>() {
        if select_all {
            area.select();
        } else {
            let end = area.value().encode_utf16().count() as u32;
            let _ = area.set_selection_range(end, end);
        }
    } else if let Some(selection) = web_sys::window().and_then(|w| w.get_selection().ok().flatten())
    {
        let _ = selection.select_all_children(element);
        if !select_all {
            // Inside the last line, not after it: an editor would make a new paragraph there.
            let (node, offset) = end_of_text(element);
            let _ = selection.collapse_with_offset(Some(&node), offset);
        }
    }
}

/// The end of the last text in an editor: its deepest last text node (the start of an empty
/// last line).
fn end_of_text(element: &Element) -> (web_sys::Node, u32) {
    let mut at: web_sys::Node = element.clone().into();
    loop {
        let mut child = at.last_child();
        // A trailing <br> (an empty line's placeholder) is not where text goes.
        while let Some(c) = &child
            && c.node_name().eq_ignore_ascii_case("br")
        {
            child = c.previous_sibling();
        }
        match child {
            Some(c) if c.node_type() == web_sys::Node::TEXT_NODE => {
                let len = c.text_content().unwrap_or_default().encode_utf16().count() as u32;
                return (c, len);
            }
            Some(c) if c.node_type() == web_sys::Node::ELEMENT_NODE => at = c,
            // An empty line: before its placeholder.
            _ => return (at, 0),
        }
    }
}

thread_local! {
    /// The field being edited, its value before, and whether the page has seen `change`: a
    /// browser fires `change` when an edit is committed (the field loses focus, Enter), which
    /// a tab in the background does not always do for us.
    static EDITING: std::cell::RefCell<Option<Editing>> = const { std::cell::RefCell::new(None) };
}

struct Editing {
    element: Element,
    before: String,
    changed: std::rc::Rc<std::cell::Cell<bool>>,
}

/// Remembers the edit of `element` until it is committed.
fn editing(element: &Element, before: String) {
    if EDITING.with(|e| e.borrow().as_ref().is_some_and(|e| &e.element == element)) {
        return;
    }
    commit(None);
    let changed = std::rc::Rc::new(std::cell::Cell::new(false));
    let seen = changed.clone();
    let on_change = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(move || seen.set(true));
    let options = web_sys::AddEventListenerOptions::new();
    options.set_once(true);
    let _ = element.add_event_listener_with_callback_and_add_event_listener_options(
        "change",
        on_change.as_ref().unchecked_ref(),
        &options,
    );
    on_change.forget();
    EDITING.with(|e| {
        *e.borrow_mut() = Some(Editing {
            element: element.clone(),
            before,
            changed,
        })
    });
}

/// The edit is committed (focus moves on, Enter): `change`, if the value changed and the
/// browser has not said so itself. Not when acting on the field being edited (`next`).
pub fn commit(next: Option<&Element>) {
    let Some(edit) = EDITING.with(|e| {
        let mut e = e.borrow_mut();
        if next.is_some_and(|n| e.as_ref().is_some_and(|e| &e.element == n)) {
            return None;
        }
        e.take()
    }) else {
        return;
    };
    let now = field_value(&edit.element).unwrap_or_default();
    if !edit.changed.get() && now != edit.before {
        event(&edit.element, "change");
    }
}

/// Runs an editing command on the focused field; false when the browser would not.
fn edit(command: &str, value: &str) -> bool {
    document()
        .ok()
        .and_then(|d| d.dyn_into::<web_sys::HtmlDocument>().ok())
        .and_then(|d| {
            d.exec_command_with_show_ui_and_value(command, false, value)
                .ok()
        })
        .unwrap_or(false)
}

/// Is focus on `element`, or (an editor) inside it?
fn holds_focus(element: &Element) -> bool {
    super::focus::active().is_some_and(|a| {
        &a == element
            || (element
                .dyn_ref::<HtmlElement>()
                .is_some_and(HtmlElement::is_content_editable)
                && element.contains(Some(&a)))
    })
}

/// Types `text` into a field (at the caret, or over the selection; in place of everything with
/// `clear`) as the editor does; by script only where the editor will not. Returns how, and the
/// new length.
fn set_text(element: &Element, text: &str, clear: bool) -> Result<(usize, Entry), ErrorBody> {
    check_editable(element)?;
    // Typed where the caret is (or over the selection) when the field has focus already, as a
    // person types; otherwise the field is focused with the caret at its end.
    let had_focus = holds_focus(element);
    if !had_focus {
        super::focus::focus(element, false);
    }
    if holds_focus(element) {
        editing(element, field_value(element).unwrap_or_default());
        if clear || !had_focus {
            place_caret(element, clear);
        }
        let done = match (text.is_empty(), clear) {
            (true, true) => edit("delete", ""),
            (true, false) => true,
            (false, _) => edit("insertText", text),
        };
        if done {
            let length = field_value(element).unwrap_or_default().chars().count();
            return Ok((length, Entry::Editor));
        }
    }
    set_by_script(element, text, clear).map(|length| (length, Entry::Script))
}

/// The fallback: the element's own value setter (seen through the content script's wrapper it
/// is the native one, so React-style value tracking notices), then input and change events.
fn set_by_script(element: &Element, text: &str, clear: bool) -> Result<usize, ErrorBody> {
    let joined = |old: String| if clear { text.to_owned() } else { old + text };
    let length = if let Some(input) = element.dyn_ref::<HtmlInputElement>() {
        input.set_value(&joined(input.value()));
        input.value().chars().count()
    } else if let Some(area) = element.dyn_ref::<HtmlTextAreaElement>() {
        area.set_value(&joined(area.value()));
        area.value().chars().count()
    } else {
        let value = joined(element.text_content().unwrap_or_default());
        element.set_text_content(Some(&value));
        value.chars().count()
    };
    input_event(element, Some(text));
    event(element, "change");
    Ok(length)
}

fn editable(disabled: bool, read_only: bool, name: &str) -> Result<(), ErrorBody> {
    if disabled || read_only {
        let why = if disabled { "disabled" } else { "read-only" };
        return Err(page_error(format!("{name} is {why}")));
    }
    Ok(())
}

pub fn type_into(element: &Element, text: &str, clear: bool) -> Outcome {
    let before = field_value(element).unwrap_or_default().chars().count();
    let (length, entry) = set_text(element, text, clear)?;
    let wanted = text.chars().count() + if clear { 0 } else { before };
    let mut notes = Vec::new();
    if let Entry::Script = entry {
        notes.push("(Set by script: this field does not take editor input; input and change events were sent.)".to_owned());
    }
    if matches!(entry, Entry::Editor) && length < wanted {
        let limit = element
            .get_attribute("maxlength")
            .map(|m| format!(" (maxlength {m})"))
            .unwrap_or_default();
        notes.push(format!(
            "The field kept {length} of {wanted} characters{limit}, as it would from a keyboard."
        ));
    }
    Ok(Reply::Typed {
        element: describe(element),
        value_length: length as u32,
        note: (!notes.is_empty()).then(|| notes.join(" ")),
    })
}

/// A keyboard event as a real keystroke has it, legacy `keyCode`/`charCode`/`which` included
/// (`which` must be defined on the page's view of the event: the constructor leaves it 0).
fn key_event(element: &Element, kind: &str, key: &Key, m: Modifiers) -> bool {
    let (key_code, char_code) = match kind {
        // Firefox gives keypress the character, and keyCode only to keys that type none.
        "keypress" if key.char_code != 0 && key.key != "Enter" => (0, key.char_code),
        "keypress" => (key.key_code, 0),
        _ => (key.key_code, 0),
    };
    let which = if char_code != 0 { char_code } else { key_code };
    let init = KeyboardEventInit::new();
    init.set_key(&key.key);
    init.set_code(&key.code);
    init.set_key_code(key_code);
    init.set_char_code(char_code);
    init.set_which(which);
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_composed(true);
    init.set_ctrl_key(m.ctrl);
    init.set_shift_key(m.shift);
    init.set_alt_key(m.alt);
    init.set_meta_key(m.meta);
    if let Some(view) = web_sys::window() {
        init.set_view(Some(&view));
    }
    let Ok(event) = KeyboardEvent::new_with_keyboard_event_init_dict(kind, &init) else {
        return true;
    };
    if let Ok(page_view) = js_sys::Reflect::get(&event, &"wrappedJSObject".into()) {
        let descriptor = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&descriptor, &"value".into(), &which.into());
        let page_view: &js_sys::Object = page_view.unchecked_ref();
        let _ = js_sys::Reflect::define_property(page_view, &"which".into(), &descriptor);
    }
    element.dispatch_event(&event).unwrap_or(true)
}

/// The modifier keys of a chord, as keys of their own (pressed before, released after).
fn modifier_keys(m: Modifiers) -> Vec<Key> {
    [
        (m.ctrl, "Control"),
        (m.shift, "Shift"),
        (m.alt, "Alt"),
        (m.meta, "Meta"),
    ]
    .into_iter()
    .filter(|(held, _)| *held)
    .filter_map(|(_, name)| claudezilla_protocol::keys::key(name).map(|(k, _)| k))
    .collect()
}

pub fn press_key(target: Option<Element>, chord: &Chord) -> Outcome {
    let doc = document()?;
    let element = target
        .or_else(super::focus::active)
        .or_else(|| doc.body().map(Element::from));
    let Some(element) = element else {
        return Err(page_error("nothing to press the key on".into()));
    };
    if !holds_focus(&element) {
        super::focus::focus(&element, false);
    }
    let m = chord.modifiers;
    let held = modifier_keys(m);
    let mut so_far = Modifiers::default();
    for key in &held {
        set_modifier(&mut so_far, &key.key);
        key_event(&element, "keydown", key, so_far);
    }
    let key = &chord.key;
    // A handler that cancels keydown asks for nothing else to happen (no keypress either).
    let down = key_event(&element, "keydown", key, m);
    let shortcut = m.ctrl || m.alt || m.meta;
    let effect = if !down {
        "the page handled it".to_owned()
    } else {
        let pressed = !key.types() || shortcut || key_event(&element, "keypress", key, m);
        if pressed {
            default_action(&element, key, m)?
        } else {
            "the page handled it".to_owned()
        }
    };
    key_event(&element, "keyup", key, m);
    for key in held.iter().rev() {
        key_event(&element, "keyup", key, so_far);
        unset_modifier(&mut so_far, &key.key);
    }
    let name = chord_name(chord);
    acted(format!(
        "Pressed {name} on {}: {effect}.",
        describe(&element)
    ))
}

fn set_modifier(m: &mut Modifiers, key: &str) {
    match key {
        "Control" => m.ctrl = true,
        "Shift" => m.shift = true,
        "Alt" => m.alt = true,
        "Meta" => m.meta = true,
        _ => {}
    }
}

fn unset_modifier(m: &mut Modifiers, key: &str) {
    match key {
        "Control" => m.ctrl = false,
        "Shift" => m.shift = false,
        "Alt" => m.alt = false,
        "Meta" => m.meta = false,
        _ => {}
    }
}

/// "Control+Shift+a", as the agent would write it.
fn chord_name(chord: &Chord) -> String {
    let m = chord.modifiers;
    let mut parts: Vec<&str> = [(m.ctrl, "Control"), (m.alt, "Alt"), (m.meta, "Meta")]
        .into_iter()
        .filter(|(on, _)| *on)
        .map(|(_, n)| n)
        .collect();
    // Shift is implied by a capital or a shifted symbol.
    let implied = chord.key.key.chars().count() == 1 && chord.key.char_code != 0;
    if m.shift && !implied {
        parts.push("Shift");
    }
    let key = if chord.key.key == " " {
        "Space"
    } else {
        &chord.key.key
    };
    parts.push(key);
    parts.join("+")
}

/// What the browser does for a real key press, which synthetic events do not trigger.
fn default_action(element: &Element, key: &Key, m: Modifiers) -> Result<String, ErrorBody> {
    let text_field = is_text_field(element);
    if (m.ctrl || m.meta) && key.key.eq_ignore_ascii_case("a") {
        if text_field {
            place_caret(element, true);
            return Ok("selected all of its text".into());
        }
        edit("selectAll", "");
        return Ok("selected all of the page".into());
    }
    let undo = key.key.eq_ignore_ascii_case("z") || key.key.eq_ignore_ascii_case("y");
    if (m.ctrl || m.meta) && undo && text_field {
        let command = if m.shift || key.key.eq_ignore_ascii_case("y") {
            "redo"
        } else {
            "undo"
        };
        return Ok(match edit(command, "") {
            true => format!("{command} the last edit"),
            false => format!("nothing to {command}"),
        });
    }
    if m.ctrl || m.alt || m.meta {
        return Ok("no default action for this shortcut".into());
    }
    match key.key.as_str() {
        "Enter" => {
            // An implicit submission commits the field first, as the browser does.
            if element.dyn_ref::<HtmlTextAreaElement>().is_none() {
                commit(None);
            }
            Ok(enter(element))
        }
        "Tab" => {
            commit(None);
            Ok(move_focus(element, m.shift))
        }
        " " if is_button_like(element) => {
            click(element)?;
            Ok("activated it".into())
        }
        "Backspace" | "Delete" if text_field => {
            let command = if key.key == "Backspace" {
                "delete"
            } else {
                "forwardDelete"
            };
            Ok(if edit(command, "") {
                "deleted a character".into()
            } else {
                "nothing to delete".into()
            })
        }
        k if key.types() && text_field => {
            set_text(element, k, false)?;
            Ok(format!("typed {k:?}"))
        }
        _ => Ok("dispatched the key events".into()),
    }
}

fn is_text_field(element: &Element) -> bool {
    element
        .dyn_ref::<HtmlInputElement>()
        .is_some_and(|i| TEXT_INPUTS.contains(&i.type_().to_ascii_lowercase().as_str()))
        || element.dyn_ref::<HtmlTextAreaElement>().is_some()
        || element
            .dyn_ref::<HtmlElement>()
            .is_some_and(HtmlElement::is_content_editable)
}

fn is_button_like(element: &Element) -> bool {
    matches!(element.local_name().as_str(), "button" | "a" | "summary")
        || element.get_attribute("role").as_deref() == Some("button")
        || element.dyn_ref::<HtmlInputElement>().is_some_and(|i| {
            matches!(
                i.type_().as_str(),
                "button" | "submit" | "checkbox" | "radio"
            )
        })
}

/// Enter: a newline in a textarea; activation on buttons and links; in a form field, the form
/// is submitted the way the browser would (its default button, else requestSubmit()).
fn enter(element: &Element) -> String {
    if element.dyn_ref::<HtmlTextAreaElement>().is_some()
        || element
            .dyn_ref::<HtmlElement>()
            .is_some_and(HtmlElement::is_content_editable)
    {
        if !edit("insertParagraph", "") && !edit("insertText", "\n") {
            let _ = set_by_script(element, "\n", false);
        }
        return "inserted a newline".into();
    }
    if is_button_like(element) {
        if let Some(html) = element.dyn_ref::<HtmlElement>() {
            html.click();
        }
        return "activated it".into();
    }
    let Some(form) = element
        .dyn_ref::<HtmlInputElement>()
        .and_then(HtmlInputElement::form)
    else {
        return "dispatched the key events (not in a form)".into();
    };
    submit(&form)
}

fn submit(form: &HtmlFormElement) -> String {
    let name = describe(form);
    let default_button = form
        .query_selector(
            "button:not([type]), button[type=submit], input[type=submit], input[type=image]",
        )
        .ok()
        .flatten();
    match default_button
        .as_ref()
        .and_then(|b| b.dyn_ref::<HtmlElement>())
    {
        Some(button) if !button.matches(":disabled").unwrap_or(false) => {
            button.click();
            format!(
                "submitted {name} by activating its default button {}",
                describe(button)
            )
        }
        _ => match form.request_submit() {
            Ok(()) => format!("submitted {name} with requestSubmit()"),
            Err(e) => format!(
                "could not submit {name}: {}",
                crate::web::js_error_message(&e)
            ),
        },
    }
}

const FOCUSABLE: &str = "a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex='-1']), [contenteditable]";

fn move_focus(from: &Element, backwards: bool) -> String {
    let Ok(all) = document().and_then(|d| {
        d.query_selector_all(FOCUSABLE)
            .map_err(|_| page_error(String::new()))
    }) else {
        return "could not move focus".into();
    };
    let list: Vec<Element> = (0..all.length())
        .filter_map(|i| all.item(i)?.dyn_into().ok())
        .collect();
    let here = list.iter().position(|e| e == from);
    let next = match (here, backwards) {
        (Some(0), true) | (None, true) => list.last(),
        (Some(i), true) => list.get(i - 1),
        (Some(i), false) => list.get(i + 1).or(list.first()),
        (None, false) => list.first(),
    };
    match next {
        Some(next) => {
            super::focus::focus(next, true);
            format!("moved focus to {}", describe(next))
        }
        None => "nothing focusable".into(),
    }
}

pub fn scroll(target: Option<Element>, x: Option<i32>, y: Option<i32>, smooth: bool) -> Outcome {
    let window = web_sys::window().ok_or_else(|| page_error("no window".into()))?;
    let before = (
        window.scroll_x().unwrap_or(0.0),
        window.scroll_y().unwrap_or(0.0),
    );
    let behavior = if smooth {
        ScrollBehavior::Smooth
    } else {
        ScrollBehavior::Instant
    };
    let what = match &target {
        Some(element) => {
            let options = ScrollIntoViewOptions::new();
            options.set_block(ScrollLogicalPosition::Center);
            options.set_behavior(behavior);
            element.scroll_into_view_with_scroll_into_view_options(&options);
            describe(element)
        }
        None => {
            let options = ScrollToOptions::new();
            options.set_left(f64::from(x.unwrap_or(before.0 as i32)));
            options.set_top(f64::from(y.unwrap_or(before.1 as i32)));
            options.set_behavior(behavior);
            window.scroll_to_with_scroll_to_options(&options);
            format!(
                "x={}, y={}",
                x.map_or("-".into(), |v| v.to_string()),
                y.map_or("-".into(), |v| v.to_string())
            )
        }
    };
    let after = (
        window.scroll_x().unwrap_or(0.0),
        window.scroll_y().unwrap_or(0.0),
    );
    if after == before && !smooth {
        return acted(format!(
            "Scrolled to {what}: nothing moved (already there, or the page cannot scroll further); position {}, {}.",
            after.0, after.1
        ));
    }
    acted(format!(
        "Scrolled to {what}; the page is now at {}, {}.",
        after.0, after.1
    ))
}

/// Turns the wheel over an element (its centre) or a viewport point (default: the viewport's
/// centre). The page sees the `wheel` event first, as maps and canvases expect; when it does
/// not take the turn (no `preventDefault`), the nearest scrollable box under the point moves,
/// as the browser would move it.
pub fn wheel(target: Option<Element>, point: Option<(f64, f64)>, dx: f64, dy: f64) -> Outcome {
    let window = web_sys::window().ok_or_else(|| page_error("no window".into()))?;
    let (element, at) = match target {
        Some(element) => {
            scroll_into_view(&element);
            let at = centre(&element);
            (element, at)
        }
        None => {
            let (x, y) = point.unwrap_or_else(|| {
                let size = |v: Result<wasm_bindgen::JsValue, _>| {
                    v.ok().and_then(|v| v.as_f64()).unwrap_or(0.0) / 2.0
                };
                (size(window.inner_width()), size(window.inner_height()))
            });
            (element_at(x, y)?, (x.round() as i32, y.round() as i32))
        }
    };
    let name = describe(&element);
    let init = WheelEventInit::new();
    mouse_init(
        init.unchecked_ref(),
        "wheel",
        Press {
            at,
            ..Press::default()
        },
    );
    init.set_delta_x(dx);
    init.set_delta_y(dy);
    init.set_delta_mode(0);
    let taken = WheelEvent::new_with_event_init_dict("wheel", &init)
        .map(|e| !element.dispatch_event(&e).unwrap_or(true))
        .unwrap_or(false);
    let place = format!("over {name} at ({}, {})", at.0, at.1);
    if taken {
        return acted(format!(
            "Turned the wheel by ({dx}, {dy}) {place}: the page handled it (zoom, or its own scrolling)."
        ));
    }
    let scrolled = match scroll_box(&element, dx != 0.0, dy != 0.0) {
        Some(b) => {
            let before = (b.scroll_left(), b.scroll_top());
            b.scroll_by_with_x_and_y(dx, dy);
            (before != (b.scroll_left(), b.scroll_top())).then(|| {
                format!(
                    "{} scrolled to {}, {}",
                    describe(&b),
                    b.scroll_left(),
                    b.scroll_top()
                )
            })
        }
        None => {
            let before = (
                window.scroll_x().unwrap_or(0.0),
                window.scroll_y().unwrap_or(0.0),
            );
            window.scroll_by_with_x_and_y(dx, dy);
            let after = (
                window.scroll_x().unwrap_or(0.0),
                window.scroll_y().unwrap_or(0.0),
            );
            (before != after).then(|| format!("the page scrolled to {}, {}", after.0, after.1))
        }
    };
    acted(format!(
        "Turned the wheel by ({dx}, {dy}) {place}: {}.",
        scrolled.unwrap_or_else(|| "nothing moved (already at the end)".into())
    ))
}

/// The nearest box at or above `element` that scrolls on its own (not the page itself) in a
/// direction the wheel turns.
fn scroll_box(element: &Element, across: bool, down: bool) -> Option<Element> {
    let window = web_sys::window()?;
    let root = document().ok()?.document_element();
    let mut at = Some(element.clone());
    while let Some(e) = at {
        if Some(&e) == root.as_ref() {
            return None;
        }
        let style = window.get_computed_style(&e).ok().flatten();
        let scrolls = |axis: &str| {
            style
                .as_ref()
                .and_then(|s| s.get_property_value(axis).ok())
                .is_some_and(|o| matches!(o.as_str(), "auto" | "scroll" | "overlay"))
        };
        if (down && scrolls("overflow-y") && e.scroll_height() > e.client_height())
            || (across && scrolls("overflow-x") && e.scroll_width() > e.client_width())
        {
            return Some(e);
        }
        at = e.parent_element();
    }
    None
}

pub fn select_option(element: &Element, values: &[String]) -> Outcome {
    let name = describe(element);
    let select = element
        .dyn_ref::<HtmlSelectElement>()
        .ok_or_else(|| page_error(format!("{name} is not a <select>")))?;
    if select.disabled() {
        return Err(page_error(format!("{name} is disabled")));
    }
    if values.len() > 1 && !select.multiple() {
        return Err(page_error(format!(
            "{name} takes one option, got {}",
            values.len()
        )));
    }
    let options = select.options();
    let mut picked = Vec::new();
    let mut all = Vec::new();
    for i in 0..options.length() {
        let Some(option) = options
            .get_with_index(i)
            .and_then(|o| o.dyn_into::<web_sys::HtmlOptionElement>().ok())
        else {
            continue;
        };
        let (value, label) = (option.value(), option.text().trim().to_owned());
        let wanted = values.iter().any(|v| *v == value || *v == label);
        if select.multiple() {
            option.set_selected(wanted);
        } else if wanted && picked.is_empty() {
            // Unselecting the others one by one would reset a single select to its first option.
            select.set_selected_index(i as i32);
        }
        if wanted {
            picked.push(label.clone());
        }
        all.push(label);
    }
    if picked.len() < values.len() {
        return Err(ErrorBody::new(
            ErrorCode::ElementNotFound,
            format!("{name} has no option {values:?}"),
        )
        .with_hint(format!("its options: {}", all.join(", "))));
    }
    input_event(element, None);
    event(element, "change");
    acted(format!("Selected {} in {name}.", picked.join(", ")))
}

/// Sets one form field by its kind; returns what it did.
pub fn fill(element: &Element, value: &FieldValue) -> Result<String, ErrorBody> {
    let name = describe(element);
    let kind = element
        .dyn_ref::<HtmlInputElement>()
        .map(|i| i.type_().to_ascii_lowercase());
    match (kind.as_deref(), value) {
        (Some("checkbox" | "radio"), v) => {
            let want = match v {
                FieldValue::Checked(b) => *b,
                FieldValue::Text(t) => matches!(
                    t.to_ascii_lowercase().as_str(),
                    "true" | "on" | "yes" | "1" | "checked"
                ),
            };
            let input = element.dyn_ref::<HtmlInputElement>().expect("an input");
            if input.checked() != want {
                click(element)?;
            }
            Ok(format!(
                "{name} {}",
                if input.checked() {
                    "checked"
                } else {
                    "unchecked"
                }
            ))
        }
        (_, FieldValue::Text(t)) if element.dyn_ref::<HtmlSelectElement>().is_some() => {
            select_option(element, std::slice::from_ref(t)).map(|_| format!("{name} = {t:?}"))
        }
        (_, FieldValue::Text(t)) => set_text(element, t, true).map(|_| format!("{name} = {t:?}")),
        (_, FieldValue::Checked(b)) => Err(page_error(format!("{name} takes text, got {b}"))),
    }
}

pub fn upload(element: &Element, name: &str, mime: &str, bytes: &[u8]) -> Outcome {
    let described = describe(element);
    let input = element
        .dyn_ref::<HtmlInputElement>()
        .filter(|i| i.type_().eq_ignore_ascii_case("file"))
        .ok_or_else(|| page_error(format!("{described} is not an <input type=file>")))?;
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let options = web_sys::FilePropertyBag::new();
    options.set_type(mime);
    let file = web_sys::File::new_with_u8_array_sequence_and_options(&parts, name, &options)
        .map_err(|e| {
            page_error(format!(
                "cannot make the file: {}",
                crate::web::js_error_message(&e)
            ))
        })?;
    let transfer = DataTransfer::new().map_err(|e| page_error(crate::web::js_error_message(&e)))?;
    transfer
        .items()
        .add_with_file(&file)
        .map_err(|e| page_error(crate::web::js_error_message(&e)))?;
    input.set_files(transfer.files().as_ref());
    input_event(element, None);
    event(element, "change");
    acted(format!(
        "Attached {name} ({} bytes) to {described}.",
        bytes.len()
    ))
}
