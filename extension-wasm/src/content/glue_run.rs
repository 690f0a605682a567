//! The runner of the content glue's unit tests (`glue_tests/`), which run where the glue
//! runs: in a content script, in Firefox. `cargo xtask test` builds the content module with
//! them (feature `glue-tests`) into a test extension of its own, whose content script runs
//! them all on one page and writes what each said into it; `e2e/tests/glue.rs` opens that
//! page and reports each as a test.
//!
//! A test builds its page in the body, calls the glue, and checks what it answers and what
//! the page saw. It fails by returning its words (`check!`), never by panicking: a panic traps
//! the module, and no test after it could run.

use claudezilla_protocol::envelope::{ContentRequest, PageDone, PageOp, PageReply};
use claudezilla_protocol::{ErrorBody, ErrorCode};
use futures_util::future::LocalBoxFuture;
use serde::Serialize;
use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{Document, Element, EventTarget, HtmlElement};

use crate::backstop::Guarded;

/// What a test says: nothing, or why it failed.
pub(crate) type Outcome = Result<(), String>;

pub(crate) struct Test {
    /// `content::act::pointer::a_click_…`: the glue file's module, then the test's name.
    name: String,
    run: fn() -> LocalBoxFuture<'static, Outcome>,
}

impl Test {
    pub(crate) fn new(
        module: &str,
        name: &str,
        run: fn() -> LocalBoxFuture<'static, Outcome>,
    ) -> Self {
        // `…::content::glue_tests::act::pointer` tests `content::act::pointer`.
        let file = module.split_once("::glue_tests").map_or("", |(_, f)| f);
        Self {
            name: format!("content{file}::{name}"),
            run,
        }
    }
}

/// `tests![a, b]`: the module's tests, each an `async fn() -> Outcome`.
macro_rules! tests {
    ($($name:ident),* $(,)?) => {
        pub(super) fn tests() -> Vec<$crate::content::glue_run::Test> {
            vec![$($crate::content::glue_run::Test::new(
                module_path!(),
                stringify!($name),
                || Box::pin($name()),
            )),*]
        }
    };
}
pub(crate) use tests;

/// Fails the test with its words unless `cond` holds.
macro_rules! check {
    ($cond:expr, $($words:tt)+) => {
        let held: bool = $cond;
        if !held {
            return Err(format!("line {}: {}", line!(), format!($($words)+)));
        }
    };
}
pub(crate) use check;

/// Fails the test unless the two are equal, saying both.
macro_rules! check_eq {
    ($got:expr, $want:expr $(,)?) => {{
        let (got, want) = (&$got, &$want);
        if got != want {
            return Err(format!(
                "line {}: {} is {:?}, not {:?}",
                line!(),
                stringify!($got),
                got,
                want
            ));
        }
    }};
}
pub(crate) use check_eq;

#[derive(Serialize)]
struct Said {
    name: String,
    /// Why it failed; none when it passed.
    failure: Option<String>,
    ms: f64,
}

/// Runs `tests` once the shim has started the module, one after another, each in a body of
/// its own; then writes what they said into `#glue-results` (JSON), which the harness waits
/// for.
pub(super) fn start(tests: Vec<Test>) {
    wasm_bindgen_futures::spawn_local(async {
        let mut said = Vec::new();
        for test in tests {
            said.push(run(test).await);
        }
        let json = serde_json::to_string(&said).unwrap_or_else(|e| format!("{e}"));
        let Ok(doc) = doc() else { return };
        let (Ok(out), Some(root)) = (doc.create_element("pre"), doc.document_element()) else {
            return;
        };
        out.set_id("glue-results");
        let _ = out.set_attribute("hidden", "");
        out.set_text_content(Some(&json));
        let _ = root.append_child(&out);
    });
}

async fn run(test: Test) -> Said {
    if let Ok(body) = body() {
        body.set_inner_html("");
    }
    // Said by the harness if this test never ends.
    if let Some(root) = doc().ok().and_then(|d| d.document_element()) {
        let _ = root.set_attribute("data-glue-running", &test.name);
    }
    let started = crate::web::precise_ms();
    // Inside the backstop, as a request is: a throw out of the glue fails the test, with its
    // words, and after a trap every later test says the module is spent.
    let guarded = Guarded::new(
        async move {
            (test.run)()
                .await
                .map_err(|w| ErrorBody::new(ErrorCode::Internal, w))
        },
        super::InPage,
    );
    let failure = guarded.await.err().map(|e| e.message);
    Said {
        name: test.name,
        failure,
        ms: crate::web::precise_ms() - started,
    }
}

pub(crate) fn doc() -> Result<Document, String> {
    super::dom::document().map_err(|e| e.message)
}

pub(crate) fn body() -> Result<HtmlElement, String> {
    doc()?
        .body()
        .ok_or_else(|| "the page has no body".to_owned())
}

/// The body holds `html` now; the first element matching `css` in it.
pub(crate) fn page(html: &str, css: &str) -> Result<Element, String> {
    body()?.set_inner_html(html);
    element(css)
}

pub(crate) fn element(css: &str) -> Result<Element, String> {
    doc()?
        .query_selector(css)
        .ok()
        .flatten()
        .ok_or_else(|| format!("the page has no {css}"))
}

/// The open shadow root `host` is given (web-sys's `attachShadow` needs features the
/// extension does not use).
pub(crate) fn shadow(host: &Element) -> Result<web_sys::ShadowRoot, String> {
    let init = js_sys::Object::new();
    js_sys::Reflect::set(&init, &"mode".into(), &"open".into()).map_err(|_| "no init")?;
    crate::web::invoke(host, "attachShadow", &js_sys::Array::of1(&init))
        .ok()
        .and_then(|root| root.dyn_into().ok())
        .ok_or_else(|| "no shadow root".to_owned())
}

/// A request as the background sends it to the top frame, with a second to wait.
pub(crate) async fn ask(op: PageOp) -> Result<PageDone, ErrorBody> {
    ask_within(op, 1000).await
}

/// A request as [`ask`] sends it, allowed `ms` to wait for its target.
pub(crate) async fn ask_within(op: PageOp, ms: u64) -> Result<PageDone, ErrorBody> {
    let request = ContentRequest {
        frame: 0,
        until: crate::web::now_ms() as u64 + ms,
        op,
        console: false,
        hide: Vec::new(),
    };
    match super::run(request).await? {
        PageReply::Done(done) => Ok(done),
        other => Err(ErrorBody::new(
            ErrorCode::Internal,
            format!("not a finished operation: {other:?}"),
        )),
    }
}

/// The events of `types` that reach `target`, in order, as `type` or `type:detail` where
/// [`Events::with`] says what to add; listening until dropped, so no test's listener hears
/// the next test's events (or is called after its closure is gone).
pub(crate) struct Events {
    seen: Rc<RefCell<Vec<String>>>,
    target: EventTarget,
    /// Each event type with its listener.
    listeners: Vec<(String, Listener)>,
}

type Listener = Closure<dyn FnMut(web_sys::Event)>;

impl Drop for Events {
    fn drop(&mut self) {
        for (kind, listener) in &self.listeners {
            let _ = self
                .target
                .remove_event_listener_with_callback(kind, listener.as_ref().unchecked_ref());
        }
    }
}

impl Events {
    pub(crate) fn on(target: &impl AsRef<EventTarget>, types: &[&str]) -> Self {
        Self::with(target, types, |_| String::new())
    }

    /// As [`Events::on`], each event written `type:what`.
    pub(crate) fn with(
        target: &impl AsRef<EventTarget>,
        types: &[&str],
        what: fn(&web_sys::Event) -> String,
    ) -> Self {
        let target = target.as_ref();
        let seen = Rc::new(RefCell::new(Vec::new()));
        let listeners = types
            .iter()
            .map(|kind| {
                let seen = seen.clone();
                let listener = Listener::new(move |e: web_sys::Event| {
                    let more = what(&e);
                    let line = match more.is_empty() {
                        true => e.type_(),
                        false => format!("{}:{more}", e.type_()),
                    };
                    seen.borrow_mut().push(line);
                });
                let _ = target
                    .add_event_listener_with_callback(kind, listener.as_ref().unchecked_ref());
                ((*kind).to_owned(), listener)
            })
            .collect();
        Self {
            seen,
            target: target.clone(),
            listeners,
        }
    }

    pub(crate) fn seen(&self) -> Vec<String> {
        self.seen.borrow().clone()
    }

    pub(crate) fn clear(&self) {
        self.seen.borrow_mut().clear();
    }
}
