//! The DOM as the snapshot ([`crate::snapshot`]) reads it: through the shim's batched reader of
//! children and facts, the page's native getters, and selectors kept as JS strings.

use claudezilla_protocol::args::FrameTarget;
use claudezilla_protocol::envelope::PageReply;
use claudezilla_protocol::{ErrorBody, ErrorCode};
use wasm_bindgen::prelude::*;
use web_sys::{Element, HtmlInputElement, HtmlSelectElement, Node};

use super::dom::{self, Children, Dom, Reader, document};
use super::find;
use super::names::{self, Labels};
use crate::a11y::name::Named;
use crate::a11y::{Elements, FieldValue, Namespace};
use crate::page_names;
use crate::showing::Showing;
use crate::snapshot::{self, Facts, Inside, Limits, Page, Seen, Selectors, Start};

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = ["browser", "runtime"], js_name = getFrameId)]
    fn get_frame_id(target: &JsValue) -> Result<f64, JsValue>;
}

thread_local! {
    /// Each of [`Selectors`], as one JS string (in [`Selectors::ALL`]'s order).
    static SELECTORS: [JsValue; 6] = Selectors::ALL.map(|s| JsValue::from_str(&s.text()));
}

/// The JS string of `selectors`.
fn selectors<T>(selectors: Selectors, then: impl FnOnce(&JsValue) -> T) -> T {
    SELECTORS.with(|all| then(&all[selectors as usize]))
}

/// The snapshot of this frame's body, or of the element `selector` finds.
pub fn snapshot(
    frame: u32,
    selector: Option<&str>,
    limits: Limits,
) -> Result<PageReply, ErrorBody> {
    let start = match selector {
        Some(s) => Start::Element(find::resolve(&FrameTarget::Selector(s.into()), frame)?.into()),
        None => Start::Body(
            document()?
                .body()
                .map(Node::from)
                .ok_or_else(|| ErrorBody::new(ErrorCode::PageError, "the page has no body yet"))?,
        ),
    };
    Ok(PageReply::SnapshotPart(snapshot::snapshot(
        &Dom, frame, start, limits,
    )))
}

/// An element's role, and whether an agent acts on it ([`crate::a11y::role_of`]).
pub(super) fn role_of(el: &Element, tag: &str, marked: bool) -> (Option<&'static str>, bool) {
    crate::a11y::role_of(&Dom, el, tag, marked, Namespace::Unread)
}

impl Elements for Dom {
    type Element = Element;

    fn attribute(&self, el: &Element, name: &str) -> Option<String> {
        dom::attribute(el, name)
    }

    fn has_attribute(&self, el: &Element, name: &str) -> bool {
        dom::has_attribute(el, name)
    }

    fn child_element_count(&self, el: &Element) -> u32 {
        dom::child_element_count(el)
    }

    fn text_content(&self, el: &Element) -> Option<String> {
        dom::text(el)
    }

    fn input_type(&self, input: &Element) -> Option<String> {
        dom::input_type(input)
    }

    fn is_html(&self, el: &Element) -> bool {
        dom::is_html(el)
    }
}

impl Page for Dom {
    type Node = Node;
    type Marked = JsValue;
    type Labels = Labels;

    fn children<'a>(
        &'a self,
        parent: &'a Node,
        marked: &'a JsValue,
    ) -> impl Iterator<Item = (Node, Facts)> + 'a {
        Children::of(Reader { parent, marked })
    }

    fn facts(&self, node: &Node, marked: &JsValue) -> Facts {
        dom::facts(node, marked)
    }

    fn tag(&self, el: &Element, facts: Facts) -> String {
        dom::tag(el, facts)
    }

    fn as_element<'n>(&self, node: &'n Node) -> &'n Element {
        node.unchecked_ref()
    }

    fn as_node(&self, el: &Element) -> Node {
        el.clone().into()
    }

    fn marked_by_selectors(&self) -> JsValue {
        selectors(Selectors::Marked, JsValue::clone)
    }

    /// Our selectors refused mark nothing.
    fn marked_in(&self, root: &Node) -> JsValue {
        selectors(Selectors::Marked, |m| dom::marked_in(root, m))
            .unwrap_or_else(|_| js_sys::Set::new(&JsValue::UNDEFINED).into())
    }

    fn shadow_root(&self, el: &Element) -> Option<Node> {
        el.shadow_root().map(Node::from)
    }

    fn slotted(&self, slot: &Element) -> Vec<Node> {
        dom::slotted(slot)
            .iter()
            .map(JsCast::unchecked_into)
            .collect()
    }

    fn parent_element(&self, el: &Element) -> Option<Element> {
        el.parent_element()
    }

    fn text_owner(&self, node: &Node) -> Option<Element> {
        dom::composed_parent(node)
    }

    fn text(&self, node: &Node) -> Option<String> {
        dom::text(node)
    }

    /// Our selectors refused match nothing.
    fn matches(&self, el: &Element, which: Selectors) -> bool {
        selectors(which, |s| dom::matches(el, s)).unwrap_or(false)
    }

    fn holds(&self, el: &Element, inside: Inside) -> bool {
        el.query_selector(inside.text()).ok().flatten().is_some()
    }

    fn showing(&self, el: &Element) -> Showing {
        dom::showing(el)
    }

    fn cursor(&self, el: &Element) -> Option<String> {
        web_sys::window()
            .and_then(|w| w.get_computed_style(el).ok().flatten())
            .and_then(|style| style.get_property_value("cursor").ok())
    }

    fn name(&self, labels: &mut Labels, seen: Seen<Element>, how: Named) -> String {
        names::name_seen(seen, labels, how)
    }

    fn reference(&self, el: &Element, frame: u32) -> String {
        find::ref_for(el, frame).to_string()
    }

    fn frame_id(&self, el: &Element) -> Option<u64> {
        frame_id_of(el)
    }

    fn css_path(&self, el: &Element) -> String {
        css_path(el)
    }

    fn flat_text(&self, el: &Element, max: usize) -> String {
        names::flat_text(el, max)
    }

    fn checked(&self, input: &Element) -> bool {
        input
            .dyn_ref::<HtmlInputElement>()
            .is_some_and(HtmlInputElement::checked)
    }

    fn field_value(&self, field: &Element, tag: &str) -> Option<FieldValue> {
        page_names::field_value(self, field.as_ref(), tag)
    }

    fn password_shown(&self, field: &Element) -> Option<String> {
        page_names::shown_password(self, field.as_ref())
    }

    fn selected_text(&self, select: &Element) -> Option<String> {
        let select = select.dyn_ref::<HtmlSelectElement>()?;
        let idx = u32::try_from(select.selected_index()).ok()?;
        let option = select.options().get_with_index(idx)?;
        Some(dom::text(&option).unwrap_or_default())
    }
}

/// The browser frame ids of the frames in `doc` and in its open shadow roots, in order: what
/// a search, an audit or a role search asks next.
pub fn child_frames(doc: &web_sys::Document) -> Vec<u64> {
    find::open_roots(doc)
        .iter()
        .flat_map(|root| find::query_all_in(root, "iframe, frame"))
        .filter_map(|f| frame_id_of(&f))
        .collect()
}

/// The browser's frame id of an iframe's document (a large number; the background maps it to a
/// short alias for refs).
pub fn frame_id_of(el: &Element) -> Option<u64> {
    let window = js_sys::Reflect::get(el, &"contentWindow".into()).unwrap_or(JsValue::NULL);
    let frame = get_frame_id(&window).or_else(|_| get_frame_id(el)).ok()?;
    (frame >= 0.0).then_some(frame as u64)
}

/// The CSS path of `el` ([`locator::css_path`]).
pub fn css_path(el: &Element) -> String {
    crate::a11y::locator::css_path(el.clone())
}

impl crate::a11y::locator::PathStep for Element {
    fn id(&self) -> String {
        self.get_attribute("id").unwrap_or_default()
    }
    fn tag(&self) -> String {
        self.local_name()
    }
    fn previous(&self) -> Option<Element> {
        self.previous_element_sibling()
    }
    fn parent(&self) -> Option<Element> {
        self.parent_element()
    }
}
