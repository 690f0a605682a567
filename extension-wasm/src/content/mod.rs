//! The content script: DOM work in one frame of an agent's page, one coarse call per command.

mod act;
mod audit;
mod capture;
mod changes;
mod consent;
mod console;
mod dialogs;
mod dom;
mod drag;
mod evaluate;
mod find;
mod focus;
#[cfg(feature = "glue-tests")]
mod glue_run;
#[cfg(feature = "glue-tests")]
mod glue_tests;
mod locate;
mod names;
mod page_world;
mod performance;
mod read;
mod search;
mod secrets;
mod snapshot;
mod states;
mod storage;
mod style_sheets;

use base64::Engine;
use claudezilla_protocol::args::{DropTarget, Needle};
use claudezilla_protocol::envelope::{
    ContentReply, ContentRequest, Locatable, PageDone, PageOp, PageReply,
};
use claudezilla_protocol::{ErrorBody, ErrorCode};
use wasm_bindgen::prelude::*;

use std::cell::Cell;

use crate::backstop::{Catcher, Guarded, Thrown};

/// Called once per frame by the shim after the wasm has loaded, with the shim's console and
/// focus hooks and its way to give a Rust method its receiver.
#[wasm_bindgen]
pub fn content_start(
    hook_console: js_sys::Function,
    hidden: js_sys::Function,
    hook_focus: js_sys::Function,
    receiving: js_sys::Function,
) {
    // Once per frame: a second `set_hook` after a trap would panic itself.
    std::panic::set_hook(Box::new(on_panic));
    page_world::set_receiving(receiving);
    dialogs::install();
    focus::set_hook(hook_focus);
    console::set_hook(hook_console);
    read::set_hidden(hidden);
    take_over_early();
    READY_AT.set(Some(crate::web::precise_ms()));
    let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(|e: web_sys::Event| {
        let message = js_sys::Reflect::get(&e, &"message".into())
            .ok()
            .and_then(|m| m.as_string())
            .unwrap_or_default();
        console::uncaught(&message);
        read::record_error(&message);
    });
    let on_rejection = Closure::<dyn FnMut(web_sys::Event)>::new(|e: web_sys::Event| {
        let reason = js_sys::Reflect::get(&e, &"reason".into()).unwrap_or_default();
        let message = crate::console_ring::rejection(&console::describe(&reason));
        console::uncaught(&message);
        read::record_error(&message);
    });
    if let Some(window) = web_sys::window() {
        let _ = window.add_event_listener_with_callback("error", on_error.as_ref().unchecked_ref());
        let _ = window.add_event_listener_with_callback(
            "unhandledrejection",
            on_rejection.as_ref().unchecked_ref(),
        );
    }
    on_error.forget();
    on_rejection.forget();
    #[cfg(feature = "glue-tests")]
    glue_run::start(glue_tests::all());
}

thread_local! {
    /// When the module was ready to answer (the page's clock), until the first answer says it.
    static READY_AT: Cell<Option<f64>> = const { Cell::new(None) };
}

/// In the document's first answer: from its first byte (the navigation's `responseStart`) to
/// the module ready to answer, in µs; else 0.
fn startup_us() -> u64 {
    let Some(ready) = READY_AT.take() else {
        return 0;
    };
    first_byte().map_or(0, |b| ((ready - b).max(0.0) * 1e3) as u64)
}

fn first_byte() -> Option<f64> {
    use js_sys::{Array, Function, Reflect};
    let performance = Reflect::get(&js_sys::global(), &"performance".into()).ok()?;
    let entries: Function = Reflect::get(&performance, &"getEntriesByType".into())
        .ok()?
        .dyn_into()
        .ok()?;
    let navigation: Array = entries
        .call1(&performance, &"navigation".into())
        .ok()?
        .dyn_into()
        .ok()?;
    Reflect::get(&navigation.get(0), &"responseStart".into())
        .ok()?
        .as_f64()
}

/// Takes over from `early.js`: the dialogs it answered and the console messages it kept while
/// the page loaded (present only in agent tabs' documents; [`crate::early_kept`]).
fn take_over_early() {
    use js_sys::Reflect;
    let Some(early) = web_sys::window()
        .and_then(|w| Reflect::get(&w, &"claudezillaEarly".into()).ok())
        .filter(|e| e.is_object())
    else {
        return;
    };
    let _ = Reflect::set(&early, &"done".into(), &JsValue::TRUE);
    let kept = crate::early_kept::read(&EarlyRecord, &early);
    for d in &kept.dialogs {
        dialogs::answered_early(&d.kind, &d.message);
    }
    console::early(kept.console);
}

/// `early.js`'s record read through `Reflect`, which catches a getter's throw (and a read of
/// what is no object) as `undefined`.
struct EarlyRecord;

impl crate::early_kept::Record for EarlyRecord {
    type Value = JsValue;
    fn list(&self, of: &JsValue, name: &str) -> Option<Vec<JsValue>> {
        Some(
            early_field(of, name)
                .dyn_into::<js_sys::Array>()
                .ok()?
                .to_vec(),
        )
    }
    fn text(&self, of: &JsValue, name: &str) -> Option<String> {
        early_field(of, name).as_string()
    }
    fn number(&self, of: &JsValue, name: &str) -> Option<f64> {
        early_field(of, name).as_f64()
    }
}

fn early_field(of: &JsValue, name: &str) -> JsValue {
    js_sys::Reflect::get(of, &name.into()).unwrap_or_default()
}

/// Runs one request (a `ContentRequest` object) and returns its `ContentReply` object. The
/// whole answer is built inside the backstop; only the answer to a throw is built outside it.
#[wasm_bindgen]
pub async fn content_handle(request: JsValue) -> JsValue {
    let started = crate::web::precise_ms();
    Guarded::new(answer(request, started), InPage)
        .await
        .unwrap_or_else(|thrown| reply(Err(thrown), Vec::new(), started))
}

async fn answer(request: JsValue, started: f64) -> Result<JsValue, ErrorBody> {
    let outcome = match serde_wasm_bindgen::from_value::<ContentRequest>(request) {
        Ok(request) => run(request).await,
        Err(e) => Err(ErrorBody::new(
            ErrorCode::Malformed,
            format!("content request: {e}"),
        )),
    };
    Ok(reply(outcome, dialogs::untold(), started))
}

fn reply(outcome: Result<PageReply, ErrorBody>, notes: Vec<String>, started: f64) -> JsValue {
    crate::web::to_js(&ContentReply {
        outcome,
        notes,
        page_us: ((crate::web::precise_ms() - started) * 1e3) as u64,
        startup_us: startup_us(),
    })
}

#[wasm_bindgen]
extern "C" {
    /// The shim's `try` around one poll of a request.
    #[wasm_bindgen(catch, js_name = claudezillaTry)]
    fn try_poll(poll: &mut dyn FnMut()) -> Result<(), JsValue>;
}

thread_local! {
    /// The words of our last panic, which traps with none (`panic = "abort"`).
    static PANICKED: Cell<Option<String>> = const { Cell::new(None) };
}

/// Keeps a panic's words for the backstop's answer, and logs them. Takes no borrow: the
/// panic may come while one is held.
fn on_panic(p: &std::panic::PanicHookInfo) {
    let words = p.to_string();
    crate::web::log(&format!("content panicked: {words}"));
    PANICKED.set(Some(words));
}

/// Catches a throw out of a request's poll, and logs it: the page's console no longer shows it.
struct InPage;

impl Catcher for InPage {
    fn attempt(&self, poll: &mut dyn FnMut()) -> Result<(), Thrown> {
        // A panic heard outside a request (in a listener of ours) is not this poll's.
        PANICKED.take();
        try_poll(&mut || poll()).map_err(|e| {
            let name = crate::web::get(&e, "name").as_string().unwrap_or_default();
            let message = crate::web::get(&e, "message").as_string();
            let words = match (PANICKED.take(), message) {
                (Some(panic), _) => format!("our content script panicked: {panic}"),
                (None, Some(m)) if name.is_empty() => m,
                (None, Some(m)) => format!("{name}: {m}"),
                (None, None) => "a thrown value that is no error".to_owned(),
            };
            let stack = crate::web::get(&e, "stack").as_string().unwrap_or_default();
            crate::web::log(&format!("a content request threw: {words}\n{stack}"));
            // A trap, or a recursion cut short at some function's entry: our own memory may
            // be half written.
            let spent = matches!(name.as_str(), "RuntimeError" | "InternalError");
            Thrown { words, spent }
        })
    }
}

// Dispatch: every operation is named, so a new one is placed by the compiler.
#[deny(clippy::wildcard_enum_match_arm)]
async fn run(
    ContentRequest {
        frame,
        until,
        op,
        console,
        hide,
    }: ContentRequest,
) -> Result<PageReply, ErrorBody> {
    use find::{resolve, wait_for};
    crate::hidden::learn(&hide);
    if op != PageOp::Release {
        // Back after a release (the tab attached again): the dialogs and focus are ours again.
        dialogs::install();
        focus::install();
        // A failure here is reported by firefox_get_console itself, not by unrelated commands.
        if console {
            let _ = console::start();
        }
    }
    let done: Result<PageDone, ErrorBody> = match op {
        PageOp::GetContent {
            selector,
            max_length,
            format,
        } => read::get_content(selector.as_deref(), max_length, format).map(PageDone::Content),
        PageOp::Click {
            target,
            clicks,
            button,
            modifiers,
        } => {
            let element = wait_for(&target, frame, until).await?;
            act::click_with(&element, clicks, button, modifiers)
                .await
                .map(PageDone::Clicked)
        }
        PageOp::Type {
            target,
            text,
            clear,
        } => {
            let element = wait_for(&target, frame, until).await?;
            act::type_typing(&element, &text, clear)
                .await
                .map(PageDone::Typed)
        }
        PageOp::PressKey { target, chord } => {
            let element = match target {
                Some(t) => Some(wait_for(&t, frame, until).await?),
                None => None,
            };
            act::press_key(element, &chord).map(PageDone::Acted)
        }
        PageOp::Scroll {
            target,
            x,
            y,
            smooth,
        } => {
            let element = target.as_ref().map(|t| resolve(t, frame)).transpose()?;
            act::scroll(element, x, y, smooth).map(PageDone::Acted)
        }
        PageOp::ClickAt {
            point,
            clicks,
            button,
            modifiers,
        } => act::click_at(point, clicks, button, modifiers)
            .await
            .map(PageDone::Clicked),
        PageOp::Wheel {
            target,
            point,
            dx,
            dy,
        } => {
            let element = target.as_ref().map(|t| resolve(t, frame)).transpose()?;
            act::wheel(element, point, dx, dy).map(PageDone::Acted)
        }
        PageOp::Hover { target } => {
            act::hover(&wait_for(&target, frame, until).await?).map(PageDone::Acted)
        }
        PageOp::HoverAt { point } => act::hover_at(point).map(PageDone::Acted),
        PageOp::SelectOption { target, values } => {
            act::select_option(&wait_for(&target, frame, until).await?, &values)
                .map(PageDone::Acted)
        }
        PageOp::FillForm { fields } => {
            let set = |(target, value): &_| act::fill(&resolve(target, frame)?, value);
            crate::form_fill::fill_all(&fields, set).map(PageDone::Acted)
        }
        PageOp::Upload { target, file } => {
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(&file.base64)
                .map_err(|e| ErrorBody::new(ErrorCode::Malformed, format!("file data: {e}")))?;
            act::upload(
                &wait_for(&target, frame, until).await?,
                &file.name,
                &file.mime,
                &bytes,
            )
            .map(PageDone::Acted)
        }
        PageOp::Drag { from, to } => {
            let from = wait_for(&from, frame, until).await?;
            let to = match to {
                DropTarget::Element { target, position } => {
                    drag::Landing::On(wait_for(&target, frame, until).await?, position)
                }
                DropTarget::Point(point) => drag::Landing::At(point),
            };
            drag::drag(&from, to).await.map(PageDone::Acted)
        }
        PageOp::GetElement { target } => {
            read::get_element(&resolve(&target, frame)?, frame).map(PageDone::Element)
        }
        PageOp::Locate {
            target: Locatable::Element(target),
        } => locate::element(&wait_for(&target, frame, until).await?, frame).map(PageDone::Located),
        PageOp::Locate {
            target: Locatable::Frame(child),
        } => locate::frame(child, frame).map(PageDone::Located),
        PageOp::WaitFor { selector, text } => {
            read::wait_for(selector.as_deref(), text.as_deref(), until)
                .await
                .map(PageDone::Waited)
        }
        PageOp::PageState { limits } => read::page_state(frame, limits).map(PageDone::PageState),
        PageOp::Find {
            needle: Needle::Words(words),
            limit,
        } => search::find(&words, limit, frame, until).map(PageDone::Found),
        PageOp::Find {
            needle: Needle::Role { role, name },
            limit,
        } => locate::find(&role, name.as_deref(), limit, frame).map(PageDone::Found),
        PageOp::Performance => performance::measure(until).await.map(PageDone::Performance),
        PageOp::Audit { rules, per_rule } => audit::run(&rules, per_rule, frame, until)
            .await
            .map(PageDone::Audit),
        PageOp::Snapshot {
            selector,
            interactive_only,
            max_chars,
            max_depth,
            max_nodes,
        } => {
            let limits = crate::snapshot::Limits {
                interactive_only,
                max_chars: max_chars as usize,
                max_depth: max_depth.map(|d| d as usize),
                max_nodes: max_nodes.map(|n| n as usize),
            };
            return snapshot::snapshot(frame, selector.as_deref(), limits);
        }
        PageOp::Dialogs {
            accept,
            prompt_text,
        } => dialogs::handle(accept, prompt_text).map(PageDone::Dialogs),
        PageOp::Console {
            level,
            clear,
            limit,
        } => console::read(level, clear, limit).map(PageDone::Console),
        PageOp::Evaluate { expression } => evaluate::evaluate(&expression, until)
            .await
            .map(PageDone::Evaluated),
        PageOp::Consent => consent::dismiss().map(PageDone::Acted),
        PageOp::Storage {
            action,
            area,
            key,
            value,
        } => storage::run(action, area, key, value).map(PageDone::from),
        PageOp::Settle { images } => capture::settle(images, until).await.map(PageDone::Waited),
        PageOp::Metrics { target, marks } => {
            return capture::metrics(target.as_ref(), marks, frame);
        }
        PageOp::Release => {
            dialogs::uninstall();
            focus::uninstall();
            console::stop();
            Ok(PageDone::Ack)
        }
    };
    done.map(PageReply::Done)
}
