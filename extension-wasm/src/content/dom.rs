//! DOM operations on the page: read text, click, type.

use claudezilla_protocol::envelope::ContentRequest;
use claudezilla_protocol::reply::PageContent;
use claudezilla_protocol::{ErrorBody, ErrorCode, Outcome, Reply};
use wasm_bindgen::JsCast;
use web_sys::{
    Document, Element, Event, EventInit, HtmlElement, HtmlInputElement, HtmlTextAreaElement,
    InputEvent, InputEventInit, MouseEvent, MouseEventInit, ScrollBehavior, ScrollIntoViewOptions,
    ScrollLogicalPosition,
};

use crate::text::{describe_element, tidy, truncate_chars};
use crate::web;

/// How often a missing element is looked for again while a command waits for it.
const POLL_MS: u32 = 50;

pub async fn run(request: ContentRequest) -> Outcome {
    match request {
        ContentRequest::GetContent {
            selector,
            max_length,
        } => get_content(selector.as_deref(), max_length),
        ContentRequest::Click { selector, until } => click(&wait_for(&selector, until).await?),
        ContentRequest::Type {
            selector,
            text,
            clear,
            until,
        } => type_into(&wait_for(&selector, until).await?, &text, clear),
    }
}

fn document() -> Result<Document, ErrorBody> {
    web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| ErrorBody::new(ErrorCode::PageError, "this page has no document"))
}

fn query(selector: &str) -> Result<Option<Element>, ErrorBody> {
    document()?.query_selector(selector).map_err(|e| {
        ErrorBody::new(
            ErrorCode::InvalidArgument,
            format!(
                "selector {selector:?} is not valid CSS: {}",
                web::js_error_message(&e)
            ),
        )
    })
}

async fn wait_for(selector: &str, until: u64) -> Result<Element, ErrorBody> {
    let started = web::now_ms();
    loop {
        if let Some(element) = query(selector)? {
            return Ok(element);
        }
        let now = web::now_ms();
        if now >= until as f64 {
            return Err(not_found(selector, Some((now - started) as u32)));
        }
        web::sleep(POLL_MS).await;
    }
}

fn not_found(selector: &str, waited: Option<u32>) -> ErrorBody {
    let waited = waited
        .map(|ms| format!(" (waited {ms} ms)"))
        .unwrap_or_default();
    ErrorBody::new(
        ErrorCode::ElementNotFound,
        format!("no element matches {selector:?}{waited}"),
    )
    .with_hint("check the selector against firefox_get_content, or wait for the page to finish")
}

fn get_content(selector: Option<&str>, max_length: u32) -> Outcome {
    let doc = document()?;
    let root = match selector {
        Some(selector) => query(selector)?.ok_or_else(|| not_found(selector, None))?,
        None => doc
            .body()
            .map(Element::from)
            .or_else(|| doc.document_element())
            .ok_or_else(|| ErrorBody::new(ErrorCode::PageError, "the page has no body yet"))?,
    };
    let raw = match root.dyn_ref::<HtmlElement>() {
        Some(html) => html.inner_text(),
        None => root.text_content().unwrap_or_default(),
    };
    let text = tidy(&raw);
    let (kept, total, truncated) = truncate_chars(&text, max_length as usize);
    Ok(Reply::Content(PageContent {
        url: doc.url().unwrap_or_default(),
        title: doc.title(),
        text: kept.to_owned(),
        total_length: total as u32,
        truncated,
    }))
}

fn describe(element: &Element) -> String {
    let label = element
        .get_attribute("aria-label")
        .or_else(|| {
            element
                .dyn_ref::<HtmlElement>()
                .map(HtmlElement::inner_text)
        })
        .filter(|l| !l.trim().is_empty())
        .or_else(|| {
            element
                .dyn_ref::<HtmlInputElement>()
                .map(HtmlInputElement::value)
        })
        .or_else(|| element.get_attribute("title"))
        .unwrap_or_default();
    describe_element(
        &element.tag_name(),
        &element.id(),
        &element.class_name(),
        &label,
    )
}

fn click(element: &Element) -> Outcome {
    let name = describe(element);
    if element.matches(":disabled").unwrap_or(false) {
        return Err(
            ErrorBody::new(ErrorCode::PageError, format!("{name} is disabled"))
                .with_hint("wait for the page to enable it (fill required fields first)"),
        );
    }
    let options = ScrollIntoViewOptions::new();
    options.set_block(ScrollLogicalPosition::Center);
    options.set_behavior(ScrollBehavior::Instant);
    element.scroll_into_view_with_scroll_into_view_options(&options);
    let rect = element.get_bounding_client_rect();
    let (x, y) = (
        rect.left() + rect.width() / 2.0,
        rect.top() + rect.height() / 2.0,
    );
    // Pages listen for the whole press sequence, not only `click`.
    for kind in ["pointerdown", "mousedown", "pointerup", "mouseup"] {
        dispatch_mouse(element, kind, x, y);
    }
    match element.dyn_ref::<HtmlElement>() {
        Some(html) => {
            let _ = html.focus();
            // click() runs the default action too (follow a link, toggle a checkbox, submit).
            html.click();
        }
        None => dispatch_mouse(element, "click", x, y),
    }
    Ok(Reply::Clicked { element: name })
}

fn dispatch_mouse(element: &Element, kind: &str, x: f64, y: f64) {
    let init = MouseEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_composed(true);
    init.set_client_x(x as i32);
    init.set_client_y(y as i32);
    init.set_button(0);
    init.set_buttons(if kind.ends_with("down") { 1 } else { 0 });
    if let Ok(event) = MouseEvent::new_with_mouse_event_init_dict(kind, &init) {
        let _ = element.dispatch_event(&event);
    }
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

fn type_into(element: &Element, text: &str, clear: bool) -> Outcome {
    let name = describe(element);
    let value_length = if let Some(input) = element.dyn_ref::<HtmlInputElement>() {
        let kind = input.type_().to_ascii_lowercase();
        if !TEXT_INPUTS.contains(&kind.as_str()) {
            return Err(ErrorBody::new(
                ErrorCode::PageError,
                format!("{name} is an input of type {kind:?}, which takes no typed text"),
            )
            .with_hint("use firefox_click for checkboxes, radios and buttons"));
        }
        editable(input.disabled(), input.read_only(), &name)?;
        let _ = input.focus();
        let value = if clear {
            text.to_owned()
        } else {
            input.value() + text
        };
        // The element's own setter, seen through the content script's wrapper, is the native
        // one: frameworks that track `value` (React) notice the change on the input event.
        input.set_value(&value);
        input.value().chars().count()
    } else if let Some(area) = element.dyn_ref::<HtmlTextAreaElement>() {
        editable(area.disabled(), area.read_only(), &name)?;
        let _ = area.focus();
        let value = if clear {
            text.to_owned()
        } else {
            area.value() + text
        };
        area.set_value(&value);
        area.value().chars().count()
    } else if let Some(html) = element
        .dyn_ref::<HtmlElement>()
        .filter(|h| h.is_content_editable())
    {
        let _ = html.focus();
        if clear {
            html.set_text_content(Some(text));
        } else {
            let now = html.text_content().unwrap_or_default();
            html.set_text_content(Some(&(now + text)));
        }
        html.text_content().unwrap_or_default().chars().count()
    } else {
        return Err(
            ErrorBody::new(ErrorCode::PageError, format!("{name} is not editable"))
                .with_hint("select an input, a textarea or a contenteditable element"),
        );
    };
    fire_input(element, text);
    Ok(Reply::Typed {
        element: name,
        value_length: value_length as u32,
    })
}

fn editable(disabled: bool, read_only: bool, name: &str) -> Result<(), ErrorBody> {
    if disabled || read_only {
        let why = if disabled { "disabled" } else { "read-only" };
        return Err(ErrorBody::new(
            ErrorCode::PageError,
            format!("{name} is {why}"),
        ));
    }
    Ok(())
}

fn fire_input(element: &Element, text: &str) {
    let init = InputEventInit::new();
    init.set_bubbles(true);
    init.set_composed(true);
    init.set_input_type("insertText");
    init.set_data(Some(text));
    if let Ok(event) = InputEvent::new_with_event_init_dict("input", &init) {
        let _ = element.dispatch_event(&event);
    }
    let init = EventInit::new();
    init.set_bubbles(true);
    if let Ok(event) = Event::new_with_event_init_dict("change", &init) {
        let _ = element.dispatch_event(&event);
    }
}
