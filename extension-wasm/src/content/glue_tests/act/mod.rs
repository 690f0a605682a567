//! `act/mod.rs`: the helpers every action shares (the element's box, scrolling it to view,
//! the events fired for a changed field).

mod forms;
mod keyboard;
mod pointer;
mod typing;

use crate::content::act::{centre, rect, scroll_into_view};
use crate::content::glue_run::{Events, Outcome, Test, check, check_eq, page, tests};

pub(super) fn all() -> Vec<Test> {
    [
        tests(),
        forms::tests(),
        keyboard::tests(),
        pointer::tests(),
        typing::tests(),
    ]
    .into_iter()
    .flatten()
    .collect()
}

tests![
    an_elements_box_and_centre_are_its_client_rect,
    an_element_below_the_fold_is_scrolled_to_the_centre,
];

async fn an_elements_box_and_centre_are_its_client_rect() -> Outcome {
    let b = page(
        "<div style='position:absolute;left:40px;top:60px;width:100px;height:20px' id=b></div>",
        "#b",
    )?;
    let r = rect(&b);
    check_eq!(
        (r.left, r.top, r.width, r.height),
        (40.0, 60.0, 100.0, 20.0)
    );
    check_eq!(centre(&b), (90, 70));
    Ok(())
}

async fn an_element_below_the_fold_is_scrolled_to_the_centre() -> Outcome {
    let far = page(
        "<div style=height:5000px></div><button id=far>Far</button><div style=height:5000px></div>",
        "#far",
    )?;
    let window = web_sys::window().ok_or("no window")?;
    let scrolled = Events::on(&window, &["scroll"]);
    scroll_into_view(&far, false);
    let height = window
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    let r = rect(&far);
    let middle = r.top + r.height / 2.0;
    check!(
        (middle - height / 2.0).abs() < 2.0,
        "centre at {middle} of {height}"
    );
    // The scroll event comes in the next frame.
    crate::content::capture::animation_frame()
        .await
        .map_err(|e| e.message)?;
    check!(!scrolled.seen().is_empty(), "no scroll event");
    window.scroll_to_with_x_and_y(0.0, 0.0);
    Ok(())
}
