//! `act/keyboard.rs`: keys and chords pressed on an element, or on what has focus.

use claudezilla_protocol::keys;
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;

use crate::content::act::press_key;
use crate::content::glue_run::{Events, Outcome, check, check_eq, element, page, tests};

use super::pointer::detail;

tests![
    a_key_fires_keydown_and_keyup_with_its_code,
    a_chord_holds_its_modifiers,
    enter_in_a_forms_field_submits_the_form,
    a_key_with_no_target_goes_to_the_focused_element,
    space_on_a_button_clicks_it_as_a_keyboard_does,
    space_toggles_a_checkbox_and_enter_submits_its_form,
    each_key_clicks_what_it_activates_once,
];

fn chord(text: &str) -> Result<keys::Chord, String> {
    keys::parse(text)
}

fn described(e: &web_sys::Event) -> String {
    let Some(k) = e.dyn_ref::<KeyboardEvent>() else {
        return String::new();
    };
    let mods = [
        (k.ctrl_key(), "C"),
        (k.shift_key(), "S"),
        (k.alt_key(), "A"),
        (k.meta_key(), "M"),
    ];
    let held: String = mods.iter().filter(|(on, _)| *on).map(|(_, m)| *m).collect();
    format!("{}/{}/{held}", k.key(), k.code())
}

async fn a_key_fires_keydown_and_keyup_with_its_code() -> Outcome {
    let input = page("<input id=q>", "#q")?;
    let events = Events::with(&input, &["keydown", "keyup"], described);
    press_key(Some(input.clone()), &chord("Escape")?).map_err(|e| e.message)?;
    check_eq!(
        events.seen(),
        ["keydown:Escape/Escape/", "keyup:Escape/Escape/"]
    );
    Ok(())
}

async fn a_chord_holds_its_modifiers() -> Outcome {
    let input = page("<input id=q>", "#q")?;
    let events = Events::with(&input, &["keydown"], described);
    press_key(Some(input.clone()), &chord("Control+Shift+k")?).map_err(|e| e.message)?;
    let seen = events.seen();
    check!(
        seen.contains(&"keydown:K/KeyK/CS".to_owned())
            || seen.contains(&"keydown:k/KeyK/CS".to_owned()),
        "seen {seen:?}"
    );
    Ok(())
}

async fn enter_in_a_forms_field_submits_the_form() -> Outcome {
    let input = page(
        "<form id=f onsubmit='return false'><input id=q><button>Go</button></form>",
        "#q",
    )?;
    let form = element("#f")?;
    let submitted = Events::on(&form, &["submit"]);
    press_key(Some(input), &chord("Enter")?).map_err(|e| e.message)?;
    check_eq!(submitted.seen(), ["submit"]);
    Ok(())
}

async fn space_on_a_button_clicks_it_as_a_keyboard_does() -> Outcome {
    let button = page("<button id=b>Go</button>", "#b")?;
    let events = Events::with(&button, &["pointerdown", "mousedown", "click"], detail);
    press_key(Some(button), &chord("Space")?).map_err(|e| e.message)?;
    check_eq!(events.seen(), ["click:0"]);
    Ok(())
}

async fn space_toggles_a_checkbox_and_enter_submits_its_form() -> Outcome {
    let boxed = page(
        "<form id=f onsubmit='return false'><input id=c type=checkbox></form>",
        "#c",
    )?;
    let submitted = Events::on(&element("#f")?, &["submit"]);
    let checked = |el: &web_sys::Element| {
        el.dyn_ref::<web_sys::HtmlInputElement>()
            .is_some_and(web_sys::HtmlInputElement::checked)
    };
    press_key(Some(boxed.clone()), &chord("Space")?).map_err(|e| e.message)?;
    check!(checked(&boxed), "Space left the checkbox unchecked");
    press_key(Some(boxed.clone()), &chord("Enter")?).map_err(|e| e.message)?;
    check!(checked(&boxed), "Enter toggled the checkbox");
    check_eq!(submitted.seen(), ["submit"]);
    Ok(())
}

/// Enter and Space on each kind of element click it as often as a person's key does: once
/// where the key activates it, never where it does not, and a link once, by Firefox itself.
async fn each_key_clicks_what_it_activates_once() -> Outcome {
    let cases = [
        ("<button id=t>B</button>", "Enter", 1),
        ("<button id=t>B</button>", "Space", 1),
        ("<a id=t href='#followed'>L</a>", "Enter", 1),
        ("<a id=t href='#followed'>L</a>", "Space", 0),
        ("<a id=t>No link</a>", "Enter", 0),
        ("<details><summary id=t>S</summary>x</details>", "Enter", 1),
        ("<details><summary id=t>S</summary>x</details>", "Space", 1),
        ("<input id=t type=radio>", "Space", 1),
        ("<div id=t role=button tabindex=0>Own</div>", "Enter", 0),
        ("<input id=t type=submit form=none>", "Space", 1),
        (
            "<map><area id=t href='#followed' shape=default></map>",
            "Enter",
            1,
        ),
        (
            "<svg><a id=t xlink:href='#followed'><text>S</text></a></svg>",
            "Enter",
            1,
        ),
    ];
    for (html, key, times) in cases {
        let target = page(html, "#t")?;
        // Kept from navigating: the page stays the tests' own.
        let clicks = Events::with(&target, &["click"], stop_default);
        press_key(Some(target), &chord(key)?).map_err(|e| e.message)?;
        check_eq!((html, key, clicks.seen().len()), (html, key, times));
    }
    Ok(())
}

/// Stops the event's default (a link's navigation) and says nothing more of it.
fn stop_default(e: &web_sys::Event) -> String {
    e.prevent_default();
    String::new()
}

async fn a_key_with_no_target_goes_to_the_focused_element() -> Outcome {
    let input = page("<input id=a><input id=b>", "#b")?;
    crate::content::focus::focus(&input, true);
    let on_b = Events::on(&input, &["keydown"]);
    let on_a = Events::on(&element("#a")?, &["keydown"]);
    press_key(None, &chord("x")?).map_err(|e| e.message)?;
    check_eq!(on_b.seen(), ["keydown"]);
    check!(on_a.seen().is_empty(), "the other field heard it");
    Ok(())
}
