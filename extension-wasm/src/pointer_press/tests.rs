use std::cell::Cell;
use std::rc::Rc;

use claudezilla_protocol::args::MouseButton;
use claudezilla_protocol::keys::Modifiers;

use super::*;
use crate::at_once::run;
use crate::steps::Steps;

/// A page of named elements: a `b` inside a button (focusable), a span in no focusable
/// element, `top` at every point; a page handler cancels `mousedown` where asked; the
/// elements `disabled` match `:disabled`; sleeps move the clock.
#[derive(Default)]
struct Fake {
    /// Shared with the catches, which say when they are disarmed.
    steps: Rc<Steps>,
    cancels_down: bool,
    top: Option<&'static str>,
    disabled: Vec<&'static str>,
    clock: Cell<f64>,
}

impl PointerPage for Fake {
    type Element = &'static str;

    fn viewport(&self) -> (f64, f64) {
        (800.0, 600.0)
    }
    fn top_at(&self, _: f64, _: f64) -> Option<&'static str> {
        self.top
    }
    fn shadow_at(&self, _: &&'static str, _: f64, _: f64) -> Option<&'static str> {
        None
    }
    fn composed_parent(&self, el: &&'static str) -> Option<&'static str> {
        match *el {
            "b" => Some("button"),
            _ => None,
        }
    }
    fn labels(&self, _: &&'static str) -> Vec<&'static str> {
        Vec::new()
    }
    fn size(&self, _: &&'static str) -> (f64, f64) {
        (100.0, 30.0)
    }
    fn transparent(&self, _: &&'static str) -> bool {
        false
    }
    fn click_focusable(&self, el: &&'static str) -> bool {
        *el == "button"
    }
    fn describe(&self, el: &&'static str) -> String {
        self.steps.say(format!("name {el}"));
        format!("<{el}>")
    }
}

impl Presser for Fake {
    type Catch = Catch;

    fn disabled(&self, el: &&'static str) -> bool {
        self.disabled.contains(el)
    }
    fn scroll_into_view(&self, el: &&'static str) {
        self.steps.say(format!("scroll {el} into view"));
    }
    fn visible_centre(&self, _: &&'static str) -> (i32, i32) {
        (3, 4)
    }
    fn arm(&self, el: &&'static str, _: MouseButton, _: Modifiers) -> Option<Catch> {
        self.steps.say(format!("arm on {el}"));
        Some(self.catch(el))
    }
    fn force_hover(&self, el: &&'static str) -> String {
        self.steps.say(format!("styled {el}"));
        " (its :hover styles)".into()
    }
    fn leave(&self) {
        self.steps.say("leave");
    }
    fn commit(&self, el: &&'static str) {
        self.steps.say(format!("commit unless {el}"));
    }
    fn pointer(&self, el: &&'static str, e: input_plan::Press, at: (i32, i32), m: Modifiers) {
        assert!(
            e.kind.starts_with("pointer"),
            "{} as a pointer event",
            e.kind
        );
        self.event(el, e, at, m);
    }
    fn mouse(&self, el: &&'static str, e: input_plan::Press, at: (i32, i32), m: Modifiers) -> bool {
        assert!(
            !e.kind.starts_with("pointer"),
            "{} as a mouse event",
            e.kind
        );
        self.event(el, e, at, m);
        !(self.cancels_down && e.kind == "mousedown")
    }
    fn focus(&self, el: &&'static str) {
        self.steps.say(format!("focus {el}"));
    }
    fn blur(&self) {
        self.steps.say("blur");
    }
    fn caret_at(&self, el: &&'static str, at: (i32, i32)) {
        self.steps.say(format!("caret in {el} at {at:?}"));
    }
    fn now(&self) -> f64 {
        self.clock.get()
    }
    async fn sleep(&self, ms: u32) {
        self.steps.say(format!("sleep {ms}"));
        self.clock.set(self.clock.get() + f64::from(ms));
    }
}

impl Fake {
    /// A pointer or mouse event, logged alike (each kind says which it is).
    fn event(&self, el: &&'static str, e: input_plan::Press, at: (i32, i32), m: Modifiers) {
        let shift = if m.shift { " shift" } else { "" };
        self.steps
            .say(format!("{} {} on {el} at {at:?}{shift}", e.kind, e.detail));
    }

    /// A catch armed on `on`.
    fn catch(&self, on: &'static str) -> Catch {
        Catch {
            on,
            steps: Rc::clone(&self.steps),
        }
    }
}

/// A catch armed on `on`: on a link the click took (`taken`), or one it left to the page;
/// dropped, it says it is disarmed.
struct Catch {
    on: &'static str,
    steps: Rc<Steps>,
}

impl Caught for Catch {
    fn taken(&self) -> Option<String> {
        (self.on == "taken").then(|| "https://asked.example/".into())
    }
}

impl Drop for Catch {
    fn drop(&mut self) {
        self.steps.say("disarmed");
    }
}

/// A watch whose refused promise answers at `answers_at` on the page's clock (never: none);
/// the page opened a popup where `popped`.
struct Watching<'a> {
    clock: &'a Cell<f64>,
    answers_at: Option<f64>,
    popped: bool,
}

impl Refusals for Watching<'_> {
    fn pending(&self) -> bool {
        self.answers_at.is_none_or(|at| self.clock.get() < at)
    }
    fn heard(self) -> (Vec<String>, Option<String>) {
        let popup = self.popped.then(|| "https://popup.example/".into());
        (vec![format!("refused at {}", self.clock.get())], popup)
    }
}

/// The steps of a press, the pointer's arrival left out.
fn pressed(page: &Fake) -> Vec<String> {
    page.steps
        .all()
        .into_iter()
        .filter(|s| !s.contains("over ") && !s.contains("enter ") && !s.contains("move "))
        .collect()
}

#[test]
fn a_click_presses_then_focuses_what_the_press_focuses_with_the_caret_there() {
    let page = Fake::default();
    let how = press(
        &page,
        &"b",
        (3, 4),
        1,
        MouseButton::Left,
        Modifiers::default(),
    );
    assert_eq!(how, "");
    assert_eq!(
        pressed(&page),
        [
            "leave",
            "commit unless b",
            "pointerdown 1 on b at (3, 4)",
            "mousedown 1 on b at (3, 4)",
            "focus button",
            "caret in button at (3, 4)",
            "pointerup 1 on b at (3, 4)",
            "mouseup 1 on b at (3, 4)",
            "click 1 on b at (3, 4)",
        ]
    );
}

#[test]
fn a_press_on_nothing_focusable_blurs_and_a_cancelled_one_moves_no_focus() {
    let page = Fake::default();
    press(
        &page,
        &"span",
        (1, 1),
        1,
        MouseButton::Left,
        Modifiers::default(),
    );
    let steps = pressed(&page);
    assert_eq!(steps[3..5], ["mousedown 1 on span at (1, 1)", "blur"]);
    assert_eq!(
        steps.last().unwrap(),
        "click 1 on span at (1, 1)",
        "the click at the point pressed"
    );
    let cancelling = Fake {
        cancels_down: true,
        ..Fake::default()
    };
    press(
        &cancelling,
        &"b",
        (1, 1),
        1,
        MouseButton::Left,
        Modifiers::default(),
    );
    assert!(
        !pressed(&cancelling)
            .iter()
            .any(|s| s.starts_with("focus") || s == "blur"),
        "{:?}",
        cancelling.steps.all()
    );
}

#[test]
fn a_double_click_focuses_once_and_says_how_it_pressed() {
    let page = Fake::default();
    let shift = Modifiers {
        shift: true,
        ..Modifiers::default()
    };
    let how = press(&page, &"b", (5, 6), 2, MouseButton::Left, shift);
    assert_eq!(how, " (double-clicked)");
    let steps = page.steps.all();
    assert_eq!(steps.iter().filter(|s| s.starts_with("focus")).count(), 1);
    // The modifiers held reach pointer events as well as mouse events.
    for held in [
        "pointerdown 1 on b at (5, 6) shift",
        "dblclick 2 on b at (5, 6) shift",
    ] {
        assert!(steps.contains(&held.to_owned()), "{steps:?}");
    }
    let right = Fake::default();
    let how = press(
        &right,
        &"b",
        (5, 6),
        1,
        MouseButton::Right,
        Modifiers::default(),
    );
    assert_eq!(how, " (right-clicked)");
}

#[test]
fn a_click_on_an_element_lands_where_aimed_after_its_watch_then_its_catch_is_armed() {
    let page = Fake {
        top: Some("b"),
        ..Fake::default()
    };
    let plain = Modifiers::default();
    let watch = || page.steps.say("watch");
    let (name, catch, ()) =
        click_now(&page, &"button", 1, MouseButton::Left, plain, watch).unwrap();
    // Named as the agent knows it, whatever inner part the pointer is over.
    assert_eq!(
        (name.as_str(), catch.as_ref().map(|c| c.on)),
        ("<button>", Some("b"))
    );
    let steps = page.steps.all();
    assert_eq!(
        steps[..4],
        ["scroll button into view", "watch", "arm on b", "leave"]
    );
    assert!(
        steps.iter().any(|s| s.starts_with("click 1 on b")),
        "{steps:?}"
    );
}

#[test]
fn a_disabled_element_is_neither_clicked_nor_scrolled_to_nor_watched() {
    let page = Fake {
        disabled: vec!["button"],
        ..Fake::default()
    };
    let never = || panic!("a watch armed for a click refused");
    let refused = click_now(
        &page,
        &"button",
        1,
        MouseButton::Left,
        Modifiers::default(),
        never,
    )
    .map(|_| ())
    .unwrap_err();
    assert_eq!(refused.code, ErrorCode::PageError);
    assert_eq!(refused.message, "<button> is disabled");
    assert_eq!(
        refused.hint.as_deref(),
        Some("wait for the page to enable it (fill required fields first)")
    );
    assert_eq!(page.steps.all(), ["name button"]);
}

#[test]
fn a_covered_element_is_said_not_clicked_nor_watched() {
    let page = Fake {
        top: Some("span"),
        ..Fake::default()
    };
    let never = || panic!("a watch armed for a click refused");
    let plain = Modifiers::default();
    let covered = click_now(&page, &"button", 1, MouseButton::Left, plain, never)
        .map(|_| ())
        .unwrap_err();
    assert!(
        covered
            .message
            .starts_with("<button> is covered at its centre (3, 4) by <span>"),
        "{}",
        covered.message
    );
    let steps = ["scroll button into view", "name button", "name span"];
    assert_eq!(page.steps.all(), steps);
}

#[test]
fn hovering_says_what_it_is_over_and_where() {
    // The pointer lands on the button's inner `b`, which the answer names as the agent knows it.
    let page = Fake {
        top: Some("b"),
        ..Fake::default()
    };
    assert_eq!(
        hover(&page, &"button").unwrap(),
        "Hovered over <button> (its :hover styles)."
    );
    assert_eq!(
        pressed(&page),
        [
            "leave",
            "scroll button into view",
            "styled b",
            "name button"
        ]
    );
    assert_eq!(
        page.steps.all()[2..8],
        [
            "pointerover 0 on b at (3, 4)",
            "pointerenter 0 on b at (3, 4)",
            "mouseover 0 on b at (3, 4)",
            "mouseenter 0 on b at (3, 4)",
            "pointermove 0 on b at (3, 4)",
            "mousemove 0 on b at (3, 4)",
        ]
    );
    // At a point: what is there, the hover left first, the point rounded.
    let page = Fake {
        top: Some("span"),
        ..Fake::default()
    };
    assert_eq!(
        hover_at(&page, 10.4, 20.6).unwrap(),
        "Hovered over <span> at (10, 21) (its :hover styles)."
    );
    let steps = ["leave", "styled span", "name span"];
    assert_eq!(pressed(&page), steps);
    assert_eq!(page.steps.all()[1], "pointerover 0 on span at (10, 21)");
    let outside = hover_at(&page, 900.0, 20.0).unwrap_err();
    assert!(
        outside
            .message
            .starts_with("(900, 20) is outside the viewport"),
        "{}",
        outside.message
    );
}

#[test]
fn a_click_at_a_point_arms_its_watch_then_its_catch_and_keeps_its_coordinates() {
    let page = Fake {
        top: Some("span"),
        ..Fake::default()
    };
    let watch = || page.steps.say("watch");
    let plain = Modifiers::default();
    let (name, catch, ()) =
        click_at(&page, (10.4, 20.6), 1, MouseButton::Left, plain, watch).unwrap();
    let on = catch.as_ref().map(|c| c.on);
    assert_eq!((name.as_str(), on), ("<span> at (10, 21)", Some("span")));
    let steps = pressed(&page);
    assert_eq!(
        steps[..4],
        ["watch", "arm on span", "leave", "commit unless span"]
    );
    // Named once pressed: the press may change it.
    let exact = ["click 1 on span at (10, 21)", "name span"];
    assert_eq!(steps[steps.len() - 2..], exact);
    let page = Fake {
        top: Some("b"),
        ..Fake::default()
    };
    let (name, ..) = click_at(&page, (1.0, 2.0), 2, MouseButton::Left, plain, || ()).unwrap();
    assert_eq!(name, "<b> (double-clicked) at (1, 2)");
}

#[test]
fn a_click_at_a_disabled_thing_or_outside_arms_no_watch() {
    let page = Fake {
        top: Some("button"),
        disabled: vec!["button"],
        ..Fake::default()
    };
    let never = || panic!("a watch armed for a click refused");
    let plain = Modifiers::default();
    let refused = click_at(&page, (1.0, 2.0), 1, MouseButton::Left, plain, never)
        .map(|_| ())
        .unwrap_err();
    assert_eq!(refused.message, "<button> is disabled");
    assert_eq!(page.steps.all(), ["name button"]);
    let outside = click_at(&page, (900.0, 2.0), 1, MouseButton::Left, plain, never)
        .map(|_| ())
        .unwrap_err();
    assert!(
        outside.message.contains("outside the viewport"),
        "{}",
        outside.message
    );
}

#[test]
fn a_clicks_answer_waits_for_a_refused_promise_a_moment_at_most() {
    let page = Fake::default();
    let watch = |answers_at| Watching {
        clock: &page.clock,
        answers_at,
        popped: false,
    };
    let answer = run(clicked(&page, "<b>".into(), None, watch(Some(25.0))));
    assert_eq!(answer.refused, ["refused at 30"], "heard once answered");
    assert_eq!(answer.element, "<b>");
    page.clock.set(0.0);
    let answer = run(clicked(&page, "<b>".into(), None, watch(None)));
    assert_eq!(
        answer.refused,
        ["refused at 150"],
        "never answered: 150 ms at most"
    );
}

#[test]
fn a_clicks_new_tab_is_the_one_its_link_asked_for_else_the_pages_popup() {
    let page = Fake::default();
    let watch = |popped| Watching {
        clock: &page.clock,
        answers_at: Some(0.0),
        popped,
    };
    let asked = reply::NewTab::Asked {
        url: "https://asked.example/".into(),
    };
    let popped = reply::NewTab::Popped {
        url: "https://popup.example/".into(),
    };
    let new_tab = |on: Option<_>, popped| {
        let catch = on.map(|on| page.catch(on));
        run(clicked(&page, "a".into(), catch, watch(popped))).new_tab
    };
    assert_eq!(new_tab(Some("taken"), true), Some(asked));
    assert_eq!(new_tab(Some("left"), true), Some(popped));
    assert_eq!(new_tab(None, false), None);
    assert_eq!(page.now(), 0.0, "nothing pending, nothing waited");
}

#[test]
fn a_clicks_catch_is_disarmed_before_its_answer_is_waited_for() {
    let page = Fake::default();
    let watch = Watching {
        clock: &page.clock,
        answers_at: Some(15.0),
        popped: false,
    };
    let answer = run(clicked(
        &page,
        "<a>".into(),
        Some(page.catch("taken")),
        watch,
    ));
    assert!(answer.new_tab.is_some(), "asked for, then disarmed");
    assert_eq!(page.steps.all(), ["disarmed", "sleep 10", "sleep 10"]);
}

#[test]
fn an_svg_element_gets_the_click_event_as_an_html_one_does() {
    let page = Fake::default();
    press(
        &page,
        &"svg",
        (3, 4),
        1,
        MouseButton::Left,
        Modifiers::default(),
    );
    let steps = pressed(&page);
    assert_eq!(
        steps.last().map(String::as_str),
        Some("click 1 on svg at (3, 4)")
    );
}
