//! `act/forms.rs`: choices, check boxes and files set as a person sets them.

use claudezilla_protocol::ErrorCode;
use claudezilla_protocol::args::{FieldEntry, Typing};
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement};

use crate::content::act::{fill, select_option, upload};
use crate::content::glue_run::{Events, Outcome, check, check_eq, element, page, tests};

tests![
    an_option_is_chosen_by_value_or_label_with_input_and_change,
    an_option_the_select_lacks_is_refused_with_the_ones_it_has,
    a_check_box_is_set_by_clicking_it_only_when_it_differs,
    a_text_field_is_filled_and_a_select_chosen,
    a_file_is_attached_to_a_file_field,
];

fn options() -> Result<web_sys::Element, String> {
    page(
        "<select id=s><option value=r>Red</option><option value=g>Green</option></select>",
        "#s",
    )
}

fn selected() -> Result<String, String> {
    Ok(element("#s")?
        .dyn_into::<HtmlSelectElement>()
        .map_err(|_| "not a select")?
        .value())
}

async fn an_option_is_chosen_by_value_or_label_with_input_and_change() -> Outcome {
    let s = options()?;
    let events = Events::on(&s, &["input", "change"]);
    select_option(&s, &["g".to_owned()]).map_err(|e| e.message)?;
    check_eq!(selected()?, "g");
    check_eq!(events.seen(), ["input", "change"]);
    select_option(&s, &["Red".to_owned()]).map_err(|e| e.message)?;
    check_eq!(selected()?, "r");
    Ok(())
}

async fn an_option_the_select_lacks_is_refused_with_the_ones_it_has() -> Outcome {
    let s = options()?;
    let Err(e) = select_option(&s, &["Blue".to_owned()]) else {
        return Err("Blue was chosen".into());
    };
    let said = format!("{} {}", e.message, e.hint.unwrap_or_default());
    check!(
        said.contains("Red") && said.contains("Green"),
        "said {said}"
    );
    check_eq!(selected()?, "r");
    let p = page("<p id=p>x</p>", "#p")?;
    let Err(e) = select_option(&p, &["x".to_owned()]) else {
        return Err("a <p> took an option".into());
    };
    check_eq!(e.code, ErrorCode::PageError);
    Ok(())
}

async fn a_check_box_is_set_by_clicking_it_only_when_it_differs() -> Outcome {
    let c = page("<input type=checkbox id=c>", "#c")?;
    let events = Events::on(&c, &["click", "change"]);
    fill(&c, &FieldEntry::Checked(true)).map_err(|e| e.message)?;
    let checked = || {
        c.dyn_ref::<HtmlInputElement>()
            .is_some_and(HtmlInputElement::checked)
    };
    check!(checked(), "not checked");
    check_eq!(events.seen(), ["click", "change"]);
    events.clear();
    fill(&c, &FieldEntry::Checked(true)).map_err(|e| e.message)?;
    check!(
        events.seen().is_empty(),
        "clicked again: {:?}",
        events.seen()
    );
    fill(&c, &FieldEntry::Checked(false)).map_err(|e| e.message)?;
    check!(!checked(), "still checked");
    Ok(())
}

async fn a_text_field_is_filled_and_a_select_chosen() -> Outcome {
    page(
        "<input id=name value=old><select id=s><option>One</option><option>Two</option></select>",
        "#name",
    )?;
    let said = fill(
        &element("#name")?,
        &FieldEntry::Typed(Typing::Text("Ada".into())),
    )
    .map_err(|e| e.message)?;
    check!(said.contains("\"Ada\""), "said {said}");
    let name = element("#name")?
        .dyn_into::<HtmlInputElement>()
        .map_err(|_| "no input")?;
    check_eq!(name.value(), "Ada");
    fill(
        &element("#s")?,
        &FieldEntry::Typed(Typing::Text("Two".into())),
    )
    .map_err(|e| e.message)?;
    check_eq!(selected()?, "Two");
    Ok(())
}

async fn a_file_is_attached_to_a_file_field() -> Outcome {
    let f = page("<input type=file id=f>", "#f")?;
    let events = Events::on(&f, &["input", "change"]);
    upload(&f, "notes.txt", "text/plain", b"hello").map_err(|e| e.message)?;
    let input = f.dyn_ref::<HtmlInputElement>().ok_or("not an input")?;
    let files = input.files().ok_or("no files")?;
    check_eq!(files.length(), 1);
    let file = files.get(0).ok_or("no file")?;
    check_eq!(file.name(), "notes.txt");
    check_eq!(file.size(), 5.0);
    check_eq!(events.seen(), ["input", "change"]);
    Ok(())
}
