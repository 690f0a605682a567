//! Looking for an element or for text in one frame, and what the agent hears of it: a target
//! found now or waited for (`resolve`, `wait_for`, over [`Targets`], which `content/find.rs`
//! implements); the wait until the request's deadline (`wait`, looked for again at each change
//! of the page and after 100 ms without one, over [`Watch`]), a ref that is stale or unknown (`by_ref`),
//! "no element matches" with the page's own selectors that look alike (`not_found`, offered
//! from the `candidates` of the page's elements), and a `firefox_wait_for` met or run out
//! (`waited`).

use claudezilla_protocol::args::{ElementRef, FrameTarget};
use claudezilla_protocol::reply::Waited;
use claudezilla_protocol::{ErrorBody, ErrorCode};

use crate::suggest;

/// The elements whose ids, names, classes and tags are offered as "did you mean".
pub const CANDIDATES: &str = "[id], [class], [name], button, a, input, select, textarea";
/// Elements read for candidates at most (a page may have any number).
const MAX_CANDIDATES: usize = 3_000;
/// Classes of one element offered at most.
const CLASSES_PER_ELEMENT: usize = 3;
/// Suggestions offered at most.
const MAX_SUGGESTIONS: usize = 5;

/// What a wait asks of the page: its clock and its next change.
pub trait Watch {
    fn now_ms(&self) -> f64;
    /// Completes at the page's next change, or after 100 ms without one (`LOOK_AGAIN_MS` in
    /// `content/changes.rs`: for what the observer does not see), or by `until` (ms since the
    /// epoch), whichever is first.
    fn next_change(&self, until: u64) -> impl Future<Output = ()>;
}

/// A frame's elements as a target finds them, beside the wait's clock and changes.
pub trait Targets: Watch {
    type Element;
    /// The first element `selector` matches, through open shadow roots.
    fn query(&self, selector: &str) -> Result<Option<Self::Element>, ErrorBody>;
    /// The element the frame handed ref number `index` out for.
    fn known(&self, index: u32) -> Option<Self::Element>;
    /// Is it still in the page?
    fn connected(&self, el: &Self::Element) -> bool;
    /// The page's [`candidates`], read only for an element not found.
    fn candidates(&self) -> Vec<String>;
}

/// The target in the frame whose refs are named `frame` now, or an error (no waiting).
pub fn resolve<T: Targets>(
    page: &T,
    target: &FrameTarget,
    frame: u32,
) -> Result<T::Element, ErrorBody> {
    match target {
        FrameTarget::Ref(index) => {
            let r = ElementRef {
                frame,
                index: *index,
            };
            by_ref(r, page.known(*index), |el| page.connected(el))
        }
        FrameTarget::Selector(s) => page
            .query(s)?
            .ok_or_else(|| not_found(s, None, &page.candidates())),
    }
}

/// The target, a selector waited for until `until` (ms since the epoch); a ref is there or not.
pub async fn wait_for<T: Targets>(
    page: &T,
    target: &FrameTarget,
    frame: u32,
    until: u64,
) -> Result<T::Element, ErrorBody> {
    let FrameTarget::Selector(selector) = target else {
        return resolve(page, target, frame);
    };
    match wait(page, until, || page.query(selector)).await? {
        Outcome::Found(el, _) => Ok(el),
        Outcome::RanOut(waited) => Err(not_found(selector, Some(waited), &page.candidates())),
    }
}

/// How a wait ended, with the milliseconds it took.
#[derive(Debug, PartialEq)]
pub enum Outcome<T> {
    Found(T, u32),
    RanOut(u32),
}

/// Looks with `look` until it finds something or `until` (ms since the epoch) has passed,
/// looking again at each change of the page (an agent's tab is a background tab, whose timers
/// Firefox holds back to once a second) and also after `LOOK_AGAIN_MS` (100 ms) without one,
/// for what the page's changes do not tell (a shadow tree, a style). An error of `look` ends
/// the wait.
pub async fn wait<W: Watch, T>(
    watch: &W,
    until: u64,
    mut look: impl FnMut() -> Result<Option<T>, ErrorBody>,
) -> Result<Outcome<T>, ErrorBody> {
    let started = watch.now_ms();
    loop {
        let found = look()?;
        let now = watch.now_ms();
        let waited = (now - started) as u32;
        if let Some(found) = found {
            return Ok(Outcome::Found(found, waited));
        }
        if now >= until as f64 {
            return Ok(Outcome::RanOut(waited));
        }
        watch.next_change(until).await;
    }
}

/// The element a ref names: `known`, the element the frame handed the ref out for (none when
/// it never did), if it is still in the page.
fn by_ref<E>(
    r: ElementRef,
    known: Option<E>,
    connected: impl FnOnce(&E) -> bool,
) -> Result<E, ErrorBody> {
    match known {
        Some(el) if connected(&el) => Ok(el),
        Some(_) => Err(ErrorBody::new(
            ErrorCode::ElementNotFound,
            format!("ref {r} is stale: that element left the page"),
        )
        .with_hint("call firefox_snapshot again and use the new refs")),
        None => Err(ErrorBody::new(
            ErrorCode::ElementNotFound,
            format!("ref {r} is unknown in this page"),
        )
        .with_hint("refs last until the page changes; call firefox_snapshot again")),
    }
}

/// "No element matches", after `waited` ms when there was a wait, with up to five of the
/// page's `candidates` that look alike.
pub fn not_found(selector: &str, waited: Option<u32>, candidates: &[String]) -> ErrorBody {
    let waited = waited
        .map(|ms| format!(" (waited {ms} ms)"))
        .unwrap_or_default();
    let suggestions = suggest::closest(selector, candidates, MAX_SUGGESTIONS);
    let hint = if suggestions.is_empty() {
        "check the selector, or use a ref from firefox_snapshot".to_owned()
    } else {
        format!(
            "did you mean: {}? (firefox_snapshot gives refs for every control)",
            suggestions.join(", ")
        )
    };
    ErrorBody::new(
        ErrorCode::ElementNotFound,
        format!("no element matches {selector:?}{waited}"),
    )
    .with_hint(hint)
}

/// What a page's element offers as a selector that exists.
pub struct Candidate {
    pub tag: String,
    pub id: String,
    pub name: Option<String>,
    /// The `class` attribute, as written.
    pub class: String,
}

/// The selectors the page's elements (those [`CANDIDATES`] matches, in document order) have:
/// each one's id, name, first classes (alone and on its tag) and tag.
pub fn candidates(elements: impl Iterator<Item = Candidate>) -> Vec<String> {
    let mut out = Vec::new();
    for el in elements.take(MAX_CANDIDATES) {
        let tag = el.tag;
        if !el.id.is_empty() {
            out.push(format!("#{}", el.id));
        }
        if let Some(name) = el.name {
            out.push(format!("{tag}[name=\"{name}\"]"));
        }
        for class in el.class.split_whitespace().take(CLASSES_PER_ELEMENT) {
            out.push(format!(".{class}"));
            out.push(format!("{tag}.{class}"));
        }
        out.push(tag);
    }
    out
}

/// What `firefox_wait_for` waits for: an element, else the page's text.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Awaited<'a> {
    Element(&'a str),
    Text(&'a str),
    /// Neither was asked: met at once.
    Nothing,
}

impl<'a> Awaited<'a> {
    /// The selector when one is given, else the text.
    pub fn of(selector: Option<&'a str>, text: Option<&'a str>) -> Self {
        match (selector, text) {
            (Some(s), _) => Self::Element(s),
            (None, Some(t)) => Self::Text(t),
            (None, None) => Self::Nothing,
        }
    }

    /// Is it there now? The selector's element `found`, or the text in the `body`'s words
    /// with the secrets typed hidden ([`crate::hidden`]): waiting for a value's first part
    /// must not tell it. The body is read only for a text.
    pub fn met<E>(
        self,
        found: impl FnOnce(&str) -> Result<bool, E>,
        body: impl FnOnce() -> Result<Option<String>, E>,
    ) -> Result<Option<()>, E> {
        let met = match self {
            Self::Element(s) => found(s)?,
            Self::Text(t) => body()?.is_some_and(|body| crate::hidden::hide(&body).contains(t)),
            Self::Nothing => true,
        };
        Ok(met.then_some(()))
    }

    fn what(self) -> String {
        match self {
            Self::Element(s) => format!("an element matching {s:?}"),
            Self::Text(t) => format!("the text {t:?}"),
            Self::Nothing => String::new(),
        }
    }
}

/// The answer of a `firefox_wait_for` that ended as `outcome` says.
pub fn waited(awaited: Awaited, outcome: Outcome<()>) -> Result<Waited, ErrorBody> {
    let what = awaited.what();
    match outcome {
        Outcome::Found((), waited_ms) => Ok(Waited {
            what: format!("{what} is there"),
            waited_ms,
        }),
        Outcome::RanOut(waited) => Err(ErrorBody::new(
            ErrorCode::Timeout,
            format!("{what} did not appear within {waited} ms"),
        )
        .with_hint("pass a larger timeout, or check with firefox_get_content what the page shows")),
    }
}

#[cfg(test)]
mod tests;
