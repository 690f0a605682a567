//! `act/pointer.rs`: clicks and hovers as a person's pointer makes them.

use claudezilla_protocol::args::{MouseButton, Point};
use claudezilla_protocol::keys::Modifiers;
use wasm_bindgen::JsCast;
use web_sys::MouseEvent;

use crate::content::act::{click_at, click_with, hover, hover_at};
use crate::content::glue_run::{Events, Outcome, check, check_eq, element, page, tests};

tests![
    a_click_fires_the_pointer_and_mouse_events_in_order,
    a_double_click_counts_its_presses_and_ends_in_dblclick,
    a_right_click_ends_in_contextmenu,
    a_click_on_a_covered_element_says_what_covers_it,
    a_click_at_a_point_reaches_the_element_there,
    a_hover_moves_the_pointer_over_the_element,
    a_click_runs_the_default_action_a_persons_click_would,
];

const PRESS: &[&str] = &[
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
    "click",
    "dblclick",
    "contextmenu",
    "auxclick",
];

/// A click as `count/pointerType`.
fn how(e: &web_sys::Event) -> String {
    let pointer = e
        .dyn_ref::<web_sys::PointerEvent>()
        .map(web_sys::PointerEvent::pointer_type)
        .unwrap_or_default();
    format!("{}/{pointer}", detail(e))
}

/// A click's count (`click:1`); other events by their type alone.
pub(super) fn detail(e: &web_sys::Event) -> String {
    match e.type_().as_str() {
        "click" | "dblclick" => e
            .dyn_ref::<MouseEvent>()
            .map(|m| m.detail().to_string())
            .unwrap_or_default(),
        _ => String::new(),
    }
}

fn button() -> Result<web_sys::Element, String> {
    page(
        "<button id=b style='position:absolute;left:20px;top:20px;width:120px;height:40px'>Go</button>",
        "#b",
    )
}

async fn a_click_fires_the_pointer_and_mouse_events_in_order() -> Outcome {
    let b = button()?;
    let events = Events::with(&b, PRESS, detail);
    let clicked = click_with(&b, 1, MouseButton::Left, Modifiers::default())
        .await
        .map_err(|e| e.message)?;
    check!(
        clicked.element.contains("Go"),
        "clicked {}",
        clicked.element
    );
    let seen = events.seen();
    let order = [
        "pointerdown",
        "mousedown",
        "pointerup",
        "mouseup",
        "click:1",
    ];
    let pressed: Vec<_> = seen
        .iter()
        .filter(|e| order.contains(&e.as_str()))
        .collect();
    check_eq!(pressed, order);
    let arrived = seen.iter().position(|e| e == "pointerover");
    check!(
        arrived.is_some_and(|a| a < seen.len() - 5),
        "the pointer never arrived: {seen:?}"
    );
    Ok(())
}

async fn a_double_click_counts_its_presses_and_ends_in_dblclick() -> Outcome {
    let b = button()?;
    let events = Events::with(&b, &["click", "dblclick"], detail);
    click_with(&b, 2, MouseButton::Left, Modifiers::default())
        .await
        .map_err(|e| e.message)?;
    check_eq!(events.seen(), ["click:1", "click:2", "dblclick:2"]);
    Ok(())
}

async fn a_right_click_ends_in_contextmenu() -> Outcome {
    let b = button()?;
    let events = Events::on(&b, &["click", "contextmenu", "auxclick"]);
    click_with(&b, 1, MouseButton::Right, Modifiers::default())
        .await
        .map_err(|e| e.message)?;
    let seen = events.seen();
    check!(seen.contains(&"contextmenu".to_owned()), "seen {seen:?}");
    check!(
        !seen.contains(&"click".to_owned()),
        "a right click clicked: {seen:?}"
    );
    Ok(())
}

async fn a_click_on_a_covered_element_says_what_covers_it() -> Outcome {
    let b = button()?;
    let cover = crate::content::glue_run::body()?;
    cover
        .insert_adjacent_html(
            "beforeend",
            "<div id=cover style='position:fixed;inset:0;background:white'>Cookie wall</div>",
        )
        .map_err(|_| "no cover")?;
    let events = Events::on(&b, &["click"]);
    let said = click_with(&b, 1, MouseButton::Left, Modifiers::default()).await;
    let words = match &said {
        Ok(c) => format!("{c:?}"),
        Err(e) => format!("{} {}", e.message, e.hint.clone().unwrap_or_default()),
    };
    check!(
        words.contains("cover") || words.contains("Cookie wall"),
        "said {words}"
    );
    check!(said.is_err(), "the covered button was clicked: {said:?}");
    check!(events.seen().is_empty(), "the click went through the cover");
    Ok(())
}

async fn a_click_at_a_point_reaches_the_element_there() -> Outcome {
    let b = button()?;
    let events = Events::on(&b, &["click"]);
    let point = Point::new(40.0, 30.0).map_err(|e| format!("{e:?}"))?;
    click_at(point, 1, MouseButton::Left, Modifiers::default())
        .await
        .map_err(|e| e.message)?;
    check_eq!(events.seen(), ["click"]);
    let elsewhere = Point::new(600.0, 600.0).map_err(|e| format!("{e:?}"))?;
    events.clear();
    click_at(elsewhere, 1, MouseButton::Left, Modifiers::default())
        .await
        .map_err(|e| e.message)?;
    check!(
        events.seen().is_empty(),
        "a click elsewhere reached the button"
    );
    Ok(())
}

async fn a_hover_moves_the_pointer_over_the_element() -> Outcome {
    let b = button()?;
    let events = Events::on(&b, &["mouseover", "mouseenter", "click"]);
    hover(&b).map_err(|e| e.message)?;
    check_eq!(events.seen(), ["mouseover", "mouseenter"]);
    let left = Events::on(&b, &["mouseleave"]);
    let away = Point::new(700.0, 700.0).map_err(|e| format!("{e:?}"))?;
    hover_at(away).map_err(|e| e.message)?;
    check_eq!(left.seen(), ["mouseleave"]);
    Ok(())
}

/// Whether the check box `css` is checked.
fn checked(css: &str) -> Result<bool, String> {
    let input = element(css)?
        .dyn_into::<web_sys::HtmlInputElement>()
        .map_err(|_| format!("{css} is no input"))?;
    Ok(input.checked())
}

async fn a_click_runs_the_default_action_a_persons_click_would() -> Outcome {
    page(
        "<input type=checkbox id=c><a id=a href='#moved'>link</a>\
         <form id=f onsubmit='this.dataset.sent=1;return false'><button id=s>Send</button></form>\
         <input type=checkbox id=lc><label id=l for=lc>Label</label>\
         <details id=d><summary id=su>More</summary>body</details>\
         <svg width=40 height=40><rect id=r width=40 height=40 /></svg>",
        "#c",
    )?;
    let click = async |css: &str| {
        let el = element(css)?;
        click_with(&el, 1, MouseButton::Left, Modifiers::default())
            .await
            .map(drop)
            .map_err(|e| e.message)
    };
    click("#c").await?;
    check!(checked("#c")?, "the check box is not checked");
    click("#a").await?;
    // The link's navigation is queued: it lands in a task after the click.
    crate::web::tick().await;
    let hash = web_sys::window().ok_or("no window")?.location().hash();
    check_eq!(hash, Ok("#moved".to_owned()));
    click("#s").await?;
    check_eq!(
        element("#f")?.get_attribute("data-sent"),
        Some("1".to_owned())
    );
    click("#l").await?;
    check!(checked("#lc")?, "the label's check box is not checked");
    click("#su").await?;
    check!(
        element("#d")?.has_attribute("open"),
        "the details did not open"
    );
    // An SVG element, which has no `click()`, gets the same click.
    let rect = element("#r")?;
    let events = Events::with(&rect, &["click"], how);
    click("#r").await?;
    check_eq!(events.seen(), ["click:1/mouse"]);
    Ok(())
}
