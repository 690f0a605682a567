//! `act/keyboard.rs`: keys and chords pressed on an element, or on what has focus.

use claudezilla_protocol::keys;
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;

use crate::content::act::press_key;
use crate::content::glue_run::{Events, Outcome, check, check_eq, element, page, tests};

tests![
    a_key_fires_keydown_and_keyup_with_its_code,
    a_chord_holds_its_modifiers,
    enter_in_a_forms_field_submits_the_form,
    a_key_with_no_target_goes_to_the_focused_element,
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
