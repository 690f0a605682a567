//! What a hand on the mouse and the keyboard does, as plans the content script carries out:
//! the events of a click and their order, the events of a key press, and what the browser does
//! for a key the page did not handle. Pure: the content script dispatches the events, reads
//! whether a handler cancelled one, and does the actions.

use claudezilla_protocol::args::MouseButton;
use claudezilla_protocol::keys::{Chord, Key, Modifier, Modifiers};

/// One pointer or mouse event of a click, as `MouseEvent` carries it (position and modifiers
/// are the click's own).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Press {
    pub kind: &'static str,
    /// `MouseEvent.button`: 0 left, 1 middle, 2 right.
    pub button: i16,
    /// `MouseEvent.buttons` while the event happens.
    pub buttons: u16,
    /// The press's count (`detail`): 1, 2 for the second press of a double-click, …
    pub detail: i32,
}

/// A step of a click, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClickStep {
    /// A pointer event (pages cannot stop the mouse event after it by cancelling it).
    Pointer(Press),
    /// A mouse event. A `click` dispatched by script runs the element's activation behaviour
    /// too (follows the link, toggles the box, submits the form), as measured by the content
    /// glue's tests in Firefox (`content/glue_tests/act/pointer.rs`).
    Mouse(Press),
    /// `mousedown`: unless a handler cancels it, the press moves focus (`focuses`).
    Down { press: Press, focuses: bool },
}

/// The pointer arriving over an element, as a moving mouse announces itself.
pub fn arrival() -> [ClickStep; 6] {
    let at = |kind| Press {
        kind,
        button: 0,
        buttons: 0,
        detail: 0,
    };
    [
        ClickStep::Pointer(at("pointerover")),
        ClickStep::Pointer(at("pointerenter")),
        ClickStep::Mouse(at("mouseover")),
        ClickStep::Mouse(at("mouseenter")),
        ClickStep::Pointer(at("pointermove")),
        ClickStep::Mouse(at("mousemove")),
    ]
}

/// A click as a user makes it: the pointer arrives, then for each press pointerdown,
/// mousedown, pointerup, mouseup and click (its count in `detail`), then dblclick after the
/// second; the right button ends each press in contextmenu, the middle one in auxclick. Each
/// event carries the press's count and the point, as a person's do (`HTMLElement.click()`
/// would say 0 and (0, 0): a page reads a click of count 0 as the keyboard's).
pub fn click(clicks: u8, button: MouseButton) -> Vec<ClickStep> {
    let (code, held) = match button {
        MouseButton::Left => (0, 1),
        MouseButton::Middle => (1, 4),
        MouseButton::Right => (2, 2),
    };
    let mut steps = arrival().to_vec();
    for n in 1..=i32::from(clicks) {
        let press = |kind, buttons| Press {
            kind,
            button: code,
            buttons,
            detail: n,
        };
        steps.push(ClickStep::Pointer(press("pointerdown", held)));
        steps.push(ClickStep::Down {
            press: press("mousedown", held),
            focuses: n == 1 && button != MouseButton::Middle,
        });
        steps.push(ClickStep::Pointer(press("pointerup", 0)));
        steps.push(ClickStep::Mouse(press("mouseup", 0)));
        steps.push(match button {
            MouseButton::Left => ClickStep::Mouse(press("click", 0)),
            MouseButton::Middle => ClickStep::Mouse(press("auxclick", 0)),
            MouseButton::Right => ClickStep::Mouse(press("contextmenu", 0)),
        });
        if n == 2 && button == MouseButton::Left {
            steps.push(ClickStep::Mouse(press("dblclick", 0)));
        }
    }
    steps
}

/// How the answer says the click was made, when it was not a plain one.
pub fn click_words(clicks: u8, button: MouseButton) -> Option<&'static str> {
    match (clicks, button) {
        (2, MouseButton::Left) => Some("double-clicked"),
        (3, MouseButton::Left) => Some("triple-clicked"),
        (_, MouseButton::Right) => Some("right-clicked"),
        (_, MouseButton::Middle) => Some("middle-clicked"),
        _ => None,
    }
}

/// Which keyboard event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyKind {
    Down,
    Press,
    Up,
}

impl KeyKind {
    pub fn name(self) -> &'static str {
        match self {
            Self::Down => "keydown",
            Self::Press => "keypress",
            Self::Up => "keyup",
        }
    }
}

/// The legacy codes a real keystroke's event carries: `keyCode`, `charCode` and `which`.
/// Firefox gives keypress the character, and keyCode only to keys that type none (and Enter).
pub fn codes(kind: KeyKind, key: &Key) -> (u32, u32, u32) {
    let (key_code, char_code) = match kind {
        KeyKind::Press if key.char_code != 0 && key.key != "Enter" => (0, key.char_code),
        KeyKind::Press => (key.key_code, 0),
        KeyKind::Down | KeyKind::Up => (key.key_code, 0),
    };
    let which = if char_code != 0 { char_code } else { key_code };
    (key_code, char_code, which)
}

/// The keyboard events of a chord: the modifier keys go down one by one (each with what is
/// held so far), the key goes down, a keypress follows for a key that types (not in a
/// shortcut), the key comes up, and the modifiers come up in reverse (each keyup without its
/// own modifier). A handler that cancels keydown asks for nothing else to happen: no
/// keypress, no default action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyPlan {
    pub modifiers_down: Vec<(Key, Modifiers)>,
    pub keypress: bool,
    pub modifiers_up: Vec<(Key, Modifiers)>,
}

/// Where a hand clicks an element whose box is `[left, top, right, bottom]` in a viewport of
/// `width` × `height`: the centre of the part that shows, else (the box is out of view) the
/// centre of the whole box.
pub fn visible_centre(rect: [f64; 4], (width, height): (f64, f64)) -> (i32, i32) {
    let [l, t, r, b] = rect;
    let (left, right) = (l.max(0.0), r.min(width));
    let (top, bottom) = (t.max(0.0), b.min(height));
    if right <= left || bottom <= top {
        return (((l + r) / 2.0) as i32, ((t + b) / 2.0) as i32);
    }
    (((left + right) / 2.0) as i32, ((top + bottom) / 2.0) as i32)
}

/// "Control+Shift+A": the chord as the page gets it (Shift left out where it is the only
/// modifier and the key's character implies it: a capital, a shifted symbol).
pub fn chord_name(chord: &Chord) -> String {
    let implied = claudezilla_protocol::keys::key(&chord.key.key).is_some_and(|(_, shift)| shift);
    let mut parts: Vec<&str> = chord
        .modifiers
        .held()
        .filter(|m| *m != Modifier::Shift)
        .map(Modifier::name)
        .collect();
    if chord.modifiers.shift && (!implied || !parts.is_empty()) {
        parts.push(Modifier::Shift.name());
    }
    let key = if chord.key.key == " " {
        "Space"
    } else {
        &chord.key.key
    };
    parts.push(key);
    parts.join("+")
}

pub fn key_plan(chord: &Chord) -> KeyPlan {
    let m = chord.modifiers;
    let mut so_far = Modifiers::default();
    let mut modifiers_down = Vec::new();
    for modifier in m.held() {
        so_far.set(modifier, true);
        modifiers_down.push((modifier.key(), so_far));
    }
    let mut modifiers_up = Vec::new();
    // A modifier's own keyup no longer holds it, as a keyboard reports (UI Events).
    for modifier in m.held().collect::<Vec<_>>().into_iter().rev() {
        so_far.set(modifier, false);
        modifiers_up.push((modifier.key(), so_far));
    }
    KeyPlan {
        modifiers_down,
        keypress: chord.key.types() && !shortcut(m),
        modifiers_up,
    }
}

fn shortcut(m: Modifiers) -> bool {
    m.ctrl || m.alt || m.meta
}

/// What the focused element is, as far as a key's default action cares.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Focused {
    /// A text input, a textarea or an editor: keys type into it.
    pub text_field: bool,
    /// A textarea or an editor: Enter is a newline.
    pub multiline: bool,
    /// Which keys activate it (a button, summary, checkbox or radio), or who does (Firefox a
    /// link, the page its own `role=button`).
    pub activation: Activation,
    /// An input inside a form: Enter submits the form.
    pub in_form: bool,
}

/// Which keys activate an element, as the browser's own activation behaviour has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Activation {
    #[default]
    None,
    /// A link: Firefox clicks it on the Enter key's own `keypress`, a synthetic one too
    /// (measured), so nothing is added; Space scrolls the page.
    Link,
    /// A checkbox or radio: Space toggles it; Enter submits its form.
    Space,
    /// A button or summary: both.
    EnterAndSpace,
    /// An element a page made a button (`role=button`): the browser gives it no activation;
    /// the page's own key handlers answer Enter and Space, and a click added to theirs would
    /// act twice.
    PageButton,
}

impl Activation {
    /// Whether `key` activates it by our `click()`.
    fn by(self, key: &str) -> bool {
        match self {
            Activation::None | Activation::Link | Activation::PageButton => false,
            Activation::Space => key == " ",
            Activation::EnterAndSpace => key == "Enter" || key == " ",
        }
    }
}

/// What the browser does for a real key press that synthetic events do not trigger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyAction {
    SelectAllText,
    SelectAllPage,
    /// `undo` or `redo` in a text field.
    Edit(&'static str),
    /// A shortcut the browser has no default for here.
    NoShortcutDefault,
    NewLine,
    /// Enter on a button, Space on a button, checkbox or radio: `click()`, without the
    /// pointer (a keyboard's click says `detail: 0`, at no point).
    Activate,
    /// Enter on a link, which Firefox clicked on the key's `keypress`.
    FollowedLink,
    /// Enter or Space on a page's own button, which only its handlers answer.
    PageButton,
    /// Enter in a form's field: the form is submitted as the browser would.
    Submit,
    /// Enter in a field outside any form.
    NotInAForm,
    MoveFocus {
        backwards: bool,
    },
    /// `delete` or `forwardDelete` in a text field.
    Delete(&'static str),
    Type(String),
    /// The events alone.
    Nothing,
}

pub fn key_action(key: &Key, m: Modifiers, on: Focused) -> KeyAction {
    let named = |name: &str| key.key.eq_ignore_ascii_case(name);
    if (m.ctrl || m.meta) && named("a") {
        return match on.text_field {
            true => KeyAction::SelectAllText,
            false => KeyAction::SelectAllPage,
        };
    }
    if (m.ctrl || m.meta) && (named("z") || named("y")) && on.text_field {
        return KeyAction::Edit(if m.shift || named("y") {
            "redo"
        } else {
            "undo"
        });
    }
    if shortcut(m) {
        return KeyAction::NoShortcutDefault;
    }
    match key.key.as_str() {
        "Enter" if on.multiline => KeyAction::NewLine,
        k if on.activation.by(k) => KeyAction::Activate,
        "Enter" if on.activation == Activation::Link => KeyAction::FollowedLink,
        "Enter" | " " if on.activation == Activation::PageButton => KeyAction::PageButton,
        "Enter" if on.in_form => KeyAction::Submit,
        "Enter" => KeyAction::NotInAForm,
        "Tab" => KeyAction::MoveFocus { backwards: m.shift },
        "Backspace" if on.text_field => KeyAction::Delete("delete"),
        "Delete" if on.text_field => KeyAction::Delete("forwardDelete"),
        k if key.types() && on.text_field => KeyAction::Type(k.to_owned()),
        _ => KeyAction::Nothing,
    }
}

/// Where Tab moves focus among `count` focusable elements in document order, from `here`
/// (None: from outside them): the next one, wrapping at the end; backwards, the previous.
pub fn next_focus(count: usize, here: Option<usize>, backwards: bool) -> Option<usize> {
    if count == 0 {
        return None;
    }
    let here = here.filter(|i| *i < count);
    Some(match (here, backwards) {
        (Some(0) | None, true) => count - 1,
        (Some(i), true) => i - 1,
        (Some(i), false) if i + 1 < count => i + 1,
        (Some(_) | None, false) => 0,
    })
}

/// A link as the click finds it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Link<'a> {
    /// Its `target` attribute.
    pub target: Option<&'a str>,
    /// It downloads (`download`): the browser saves it, no tab opens.
    pub download: bool,
    /// Its resolved address: only a web page's (http or https) opens for the agent; other
    /// schemes are left to the page.
    pub address: &'a str,
}

/// Does a click on this link open a new tab, as a person's would: `target=_blank`, a middle
/// click, or Control, Meta or Shift held. Firefox's popup blocker refuses that to a synthetic
/// click, so the click's default is stopped and the tab opened for the agent instead.
pub fn opens_new_tab(link: Link<'_>, button: MouseButton, m: Modifiers) -> bool {
    let web = link.address.starts_with("http://") || link.address.starts_with("https://");
    if link.download || !web || button == MouseButton::Right {
        return false;
    }
    let blank = link
        .target
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("_blank"));
    blank || button == MouseButton::Middle || m.ctrl || m.meta || m.shift
}

/// The event whose default follows a link a click opens in a new tab ([`opens_new_tab`]):
/// `auxclick` for the middle button, `click` for the left. The right button opens none (its
/// press ends in `contextmenu`); `click` answers it only to keep the function total.
pub fn default_event(button: MouseButton) -> &'static str {
    match button {
        MouseButton::Middle => "auxclick",
        MouseButton::Left | MouseButton::Right => "click",
    }
}

/// The elements HTML makes focusable by themselves; an element with a `tabindex` is too.
const NATIVELY_FOCUSABLE: [&str; 9] = [
    "a[href]",
    "area[href]",
    "button:not([disabled])",
    "input:not([disabled]):not([type=hidden])",
    "select:not([disabled])",
    "textarea:not([disabled])",
    "iframe",
    "summary",
    "[contenteditable]:not([contenteditable=false])",
];

/// A selector for what a press of the pointer can focus: the natively focusable elements and
/// any element with a `tabindex`, -1 included.
pub fn click_focusable() -> String {
    let mut all = NATIVELY_FOCUSABLE.to_vec();
    all.push("[tabindex]");
    all.join(", ")
}

/// A selector for what Tab reaches: the same, less what `tabindex=-1` takes out of the order.
pub fn tab_focusable() -> String {
    NATIVELY_FOCUSABLE
        .iter()
        .chain(&["[tabindex]"])
        .map(|s| format!("{s}:not([tabindex='-1'])"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// How an input event is made: whether it bubbles and whether a handler may cancel it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventShape {
    pub bubbles: bool,
    pub cancelable: bool,
}

/// The shape of a pointer, mouse or drag event of `kind`, as UI Events, Pointer Events and
/// HTML's drag and drop define it: enter and leave events neither bubble nor cancel,
/// `dragleave` and `dragend` bubble but cannot be cancelled, the rest do both.
pub fn event_shape(kind: &str) -> EventShape {
    match kind {
        "mouseenter" | "mouseleave" | "pointerenter" | "pointerleave" => EventShape {
            bubbles: false,
            cancelable: false,
        },
        "dragleave" | "dragend" => EventShape {
            bubbles: true,
            cancelable: false,
        },
        _ => EventShape {
            bubbles: true,
            cancelable: true,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use claudezilla_protocol::keys::parse;
    use proptest::prelude::*;

    #[test]
    fn a_click_lands_on_the_part_of_the_box_that_shows() {
        let viewport = (1000.0, 800.0);
        assert_eq!(
            visible_centre([100.0, 100.0, 200.0, 140.0], viewport),
            (150, 120)
        );
        // A banner wider than the viewport, half above it: the shown part's centre.
        assert_eq!(
            visible_centre([-500.0, -40.0, 1500.0, 40.0], viewport),
            (500, 20)
        );
        // Wholly out of view: the centre of the box (the click scrolls it in first).
        assert_eq!(
            visible_centre([100.0, 900.0, 200.0, 1000.0], viewport),
            (150, 950)
        );
    }

    #[test]
    fn a_chord_is_named_as_the_agent_writes_it() {
        let name = |text: &str| chord_name(&parse(text).unwrap());
        assert_eq!(name("Control+Shift+a"), "Control+Shift+A");
        assert_eq!(name("Shift+A"), "A", "a capital implies Shift");
        assert_eq!(name("Shift+a"), "A", "as the page gets it");
        assert_eq!(name("Space"), "Space");
        assert_eq!(name("Control+!"), "Control+Shift+!");
        assert_eq!(name("Control+Enter"), "Control+Enter");
        assert_eq!(name("Shift+Tab"), "Shift+Tab");
    }

    #[test]
    fn links_open_new_tabs_as_a_persons_click_would() {
        let web = Link {
            address: "https://example.com/",
            ..Link::default()
        };
        let blank = Link {
            target: Some(" _BLANK"),
            ..web
        };
        let plain = Modifiers::default();
        let ctrl = Modifiers {
            ctrl: true,
            ..plain
        };
        assert!(opens_new_tab(blank, MouseButton::Left, plain));
        assert!(opens_new_tab(web, MouseButton::Middle, plain));
        assert!(opens_new_tab(web, MouseButton::Left, ctrl));
        assert!(!opens_new_tab(web, MouseButton::Left, plain));
        assert!(!opens_new_tab(blank, MouseButton::Right, plain));
        let saved = Link {
            download: true,
            ..blank
        };
        assert!(!opens_new_tab(saved, MouseButton::Left, plain));
        let script = Link {
            address: "javascript:void(0)",
            ..blank
        };
        assert!(!opens_new_tab(script, MouseButton::Left, plain));
        let framed = Link {
            target: Some("_self"),
            ..web
        };
        assert!(!opens_new_tab(framed, MouseButton::Left, plain));
        let http = Link {
            address: "http://example.com/",
            ..blank
        };
        assert!(opens_new_tab(http, MouseButton::Left, plain));
        // Only web pages: no other scheme, nor an address that only looks like one.
        for address in ["ftp://example.com/", "file:///x", "data:text/html,x", ""] {
            let other = Link { address, ..blank };
            assert!(
                !opens_new_tab(other, MouseButton::Left, plain),
                "{address:?}"
            );
        }
        let meta = Modifiers {
            meta: true,
            ..plain
        };
        let shift = Modifiers {
            shift: true,
            ..plain
        };
        assert!(opens_new_tab(web, MouseButton::Left, meta));
        assert!(opens_new_tab(web, MouseButton::Left, shift));
    }

    #[test]
    fn a_new_tab_follows_auxclick_for_the_middle_button_click_for_the_left() {
        assert_eq!(default_event(MouseButton::Middle), "auxclick");
        assert_eq!(default_event(MouseButton::Left), "click");
        assert_eq!(default_event(MouseButton::Right), "click");
    }

    fn kinds(steps: &[ClickStep]) -> Vec<&'static str> {
        steps
            .iter()
            .map(|s| match s {
                ClickStep::Pointer(p) | ClickStep::Mouse(p) | ClickStep::Down { press: p, .. } => {
                    p.kind
                }
            })
            .collect()
    }

    #[test]
    fn a_plain_click_is_the_hands_sequence_ending_in_click() {
        let steps = click(1, MouseButton::Left);
        assert_eq!(
            kinds(&steps),
            [
                "pointerover",
                "pointerenter",
                "mouseover",
                "mouseenter",
                "pointermove",
                "mousemove",
                "pointerdown",
                "mousedown",
                "pointerup",
                "mouseup",
                "click"
            ]
        );
        // Its count, as a person's click says it (0 is the keyboard's).
        assert!(matches!(steps.last(), Some(ClickStep::Mouse(p)) if p.detail == 1));
    }

    #[test]
    fn double_right_and_middle_clicks() {
        let double = kinds(&click(2, MouseButton::Left));
        assert_eq!(
            &double[double.len() - 6..],
            [
                "pointerdown",
                "mousedown",
                "pointerup",
                "mouseup",
                "click",
                "dblclick"
            ]
        );
        let right = kinds(&click(1, MouseButton::Right));
        assert_eq!(right.last(), Some(&"contextmenu"));
        let middle = click(1, MouseButton::Middle);
        assert_eq!(kinds(&middle).last(), Some(&"auxclick"));
        assert!(
            middle
                .iter()
                .all(|s| !matches!(s, ClickStep::Down { focuses: true, .. })),
            "a middle press moves no focus"
        );
        assert_eq!(click_words(2, MouseButton::Left), Some("double-clicked"));
        assert_eq!(click_words(1, MouseButton::Left), None);
    }

    fn button() -> impl Strategy<Value = MouseButton> {
        prop_oneof![
            Just(MouseButton::Left),
            Just(MouseButton::Middle),
            Just(MouseButton::Right)
        ]
    }

    proptest! {
        /// Whatever the click: one press per count with its number in `detail`, a button held
        /// on the way down and none on the way up, focus at most once, dblclick only for a
        /// left double-click, and each press ended by the button's click event with its count.
        #[test]
        fn every_click_is_well_formed(clicks in 1u8..=3, button in button()) {
            let steps = click(clicks, button);
            let presses: Vec<&Press> = steps.iter().filter_map(|s| match s {
                ClickStep::Down { press, .. } => Some(press),
                _ => None,
            }).collect();
            prop_assert_eq!(presses.len(), usize::from(clicks));
            for (n, p) in presses.iter().enumerate() {
                prop_assert_eq!(p.detail, n as i32 + 1);
                prop_assert!(p.buttons != 0);
            }
            for s in &steps {
                if let ClickStep::Mouse(p) | ClickStep::Pointer(p) = s
                    && p.kind.ends_with("up")
                {
                    prop_assert_eq!(p.buttons, 0);
                }
            }
            let focuses = steps.iter().filter(|s| matches!(s, ClickStep::Down { focuses: true, .. })).count();
            prop_assert!(focuses <= 1);
            let dblclicks = kinds(&steps).iter().filter(|k| **k == "dblclick").count();
            prop_assert_eq!(dblclicks, usize::from(button == MouseButton::Left && clicks >= 2));
            let ending = match button {
                MouseButton::Left => "click",
                MouseButton::Middle => "auxclick",
                MouseButton::Right => "contextmenu",
            };
            let ends: Vec<i32> = steps.iter().filter_map(|s| match s {
                ClickStep::Mouse(p) if p.kind == ending => Some(p.detail),
                _ => None,
            }).collect();
            prop_assert_eq!(ends, (1..=i32::from(clicks)).collect::<Vec<_>>());
        }

        /// Tab always lands on one of the elements, and forward then back returns.
        #[test]
        fn tab_stays_in_the_list(count in 0usize..20, here in proptest::option::of(0usize..25), back: bool) {
            match next_focus(count, here, back) {
                None => prop_assert_eq!(count, 0),
                Some(i) => prop_assert!(i < count),
            }
            if let Some(h) = here.filter(|h| *h < count) {
                let there = next_focus(count, Some(h), false).unwrap();
                prop_assert_eq!(next_focus(count, Some(there), true), Some(h));
            }
        }
    }

    #[test]
    fn keypress_carries_the_character_and_keydown_the_key() {
        let a = parse("a").unwrap().key;
        assert_eq!(codes(KeyKind::Down, &a), (65, 0, 65));
        assert_eq!(codes(KeyKind::Press, &a), (0, 97, 97));
        let enter = parse("Enter").unwrap().key;
        assert_eq!(codes(KeyKind::Press, &enter), (13, 0, 13));
        let tab = parse("Tab").unwrap().key;
        assert_eq!(codes(KeyKind::Up, &tab), (9, 0, 9));
    }

    #[test]
    fn modifiers_go_down_first_and_come_up_last() {
        let plan = key_plan(&parse("Control+Shift+a").unwrap());
        let names =
            |v: &[(Key, Modifiers)]| v.iter().map(|(k, _)| k.key.clone()).collect::<Vec<_>>();
        assert_eq!(names(&plan.modifiers_down), ["Control", "Shift"]);
        assert_eq!(names(&plan.modifiers_up), ["Shift", "Control"]);
        assert!(plan.modifiers_down[0].1.ctrl && !plan.modifiers_down[0].1.shift);
        assert!(plan.modifiers_down[1].1.ctrl && plan.modifiers_down[1].1.shift);
        // Released, a modifier is no longer held in its own keyup.
        assert!(plan.modifiers_up[0].1.ctrl && !plan.modifiers_up[0].1.shift);
        assert!(!plan.modifiers_up[1].1.ctrl && !plan.modifiers_up[1].1.shift);
        assert!(!plan.keypress, "a shortcut types nothing");
        assert!(key_plan(&parse("a").unwrap()).keypress);
        assert!(key_plan(&parse("Enter").unwrap()).keypress);
        assert!(!key_plan(&parse("ArrowDown").unwrap()).keypress);
    }

    #[test]
    fn each_key_does_what_the_browser_would() {
        let act = |chord: &str, on: Focused| {
            let c = parse(chord).unwrap();
            key_action(&c.key, c.modifiers, on)
        };
        let field = Focused {
            text_field: true,
            in_form: true,
            ..Focused::default()
        };
        let area = Focused {
            text_field: true,
            multiline: true,
            ..Focused::default()
        };
        let button = Focused {
            activation: Activation::EnterAndSpace,
            ..Focused::default()
        };
        let link = Focused {
            activation: Activation::Link,
            ..Focused::default()
        };
        let checkbox_in_form = Focused {
            activation: Activation::Space,
            in_form: true,
            ..Focused::default()
        };
        let nothing = Focused::default();
        assert_eq!(act("Control+a", field), KeyAction::SelectAllText);
        assert_eq!(act("Meta+a", nothing), KeyAction::SelectAllPage);
        assert_eq!(act("Control+z", field), KeyAction::Edit("undo"));
        assert_eq!(act("Control+Shift+z", field), KeyAction::Edit("redo"));
        assert_eq!(act("Control+y", area), KeyAction::Edit("redo"));
        assert_eq!(act("Control+z", nothing), KeyAction::NoShortcutDefault);
        assert_eq!(act("Enter", field), KeyAction::Submit);
        assert_eq!(act("Enter", area), KeyAction::NewLine);
        assert_eq!(act("Enter", button), KeyAction::Activate);
        assert_eq!(act("Enter", nothing), KeyAction::NotInAForm);
        assert_eq!(
            act("Shift+Tab", field),
            KeyAction::MoveFocus { backwards: true }
        );
        assert_eq!(act("Space", button), KeyAction::Activate);
        assert_eq!(act("Enter", link), KeyAction::FollowedLink);
        assert_eq!(act("Space", link), KeyAction::Nothing);
        assert_eq!(act("Space", checkbox_in_form), KeyAction::Activate);
        assert_eq!(act("Enter", checkbox_in_form), KeyAction::Submit);
        let page_button = Focused {
            activation: Activation::PageButton,
            in_form: true,
            ..Focused::default()
        };
        assert_eq!(act("Enter", page_button), KeyAction::PageButton);
        assert_eq!(act("Space", page_button), KeyAction::PageButton);
        assert_eq!(act("Space", field), KeyAction::Type(" ".into()));
        assert_eq!(act("Backspace", field), KeyAction::Delete("delete"));
        assert_eq!(act("Delete", nothing), KeyAction::Nothing);
        assert_eq!(act("A", field), KeyAction::Type("A".into()));
        assert_eq!(act("ArrowLeft", field), KeyAction::Nothing);
    }

    #[test]
    fn events_are_shaped_as_the_specs_define_them() {
        let shape = |bubbles, cancelable| EventShape {
            bubbles,
            cancelable,
        };
        for kind in ["mouseenter", "mouseleave", "pointerenter", "pointerleave"] {
            assert_eq!(event_shape(kind), shape(false, false), "{kind}");
        }
        for kind in ["dragleave", "dragend"] {
            assert_eq!(event_shape(kind), shape(true, false), "{kind}");
        }
        for kind in [
            "pointerover",
            "pointerout",
            "pointerdown",
            "pointermove",
            "pointerup",
            "mouseover",
            "mouseout",
            "mousedown",
            "mousemove",
            "mouseup",
            "click",
            "dblclick",
            "auxclick",
            "contextmenu",
            "dragstart",
            "drag",
            "dragenter",
            "dragover",
            "drop",
        ] {
            assert_eq!(event_shape(kind), shape(true, true), "{kind}");
        }
    }

    #[test]
    fn tab_reaches_what_a_click_can_focus_less_tabindex_minus_one() {
        let click = click_focusable();
        let tab = tab_focusable();
        let parts = |s: &str| s.split(", ").map(str::to_owned).collect::<Vec<_>>();
        assert_eq!(parts(&click).len(), parts(&tab).len());
        for (c, t) in parts(&click).iter().zip(parts(&tab)) {
            assert_eq!(t, format!("{c}:not([tabindex='-1'])"));
        }
        for native in ["a[href]", "iframe", "summary", "[tabindex]"] {
            assert!(parts(&click).iter().any(|p| p == native), "{native}");
        }
    }
}
