//! `names.rs`: accessible names computed on the page itself.

use crate::a11y::name::Named;
use crate::content::glue_run::{Outcome, check_eq, element, page, shadow, tests};
use crate::content::names::{Labels, flat_text, full_name, name_as};

tests![
    a_field_is_named_by_its_label_and_a_labelledby_chain,
    words_are_read_through_shadow_roots_and_slots_without_aria_hidden,
    a_hidden_element_is_named_by_its_labels_not_its_hidden_content,
    generated_words_are_part_of_a_name,
    generated_words_of_skipped_content_are_no_name,
];

async fn a_field_is_named_by_its_label_and_a_labelledby_chain() -> Outcome {
    let input = page(
        "<label for=q>Search</label><input id=q>\
         <span id=one>Save</span><span id=two>draft</span>\
         <button id=b aria-labelledby='one two'>x</button>",
        "#q",
    )?;
    let mut labels = Labels::default();
    check_eq!(full_name(&input, "input", &mut labels), "Search");
    let b = element("#b")?;
    check_eq!(full_name(&b, "button", &mut labels), "Save draft");
    Ok(())
}

async fn words_are_read_through_shadow_roots_and_slots_without_aria_hidden() -> Outcome {
    let host = page(
        "<div id=host><b>slotted</b></div><p aria-hidden=true>gone</p>",
        "#host",
    )?;
    let root = shadow(&host)?;
    root.set_inner_html("before <slot></slot> after <i aria-hidden=true>hidden</i>");
    check_eq!(flat_text(&host, 100), "before slotted after");
    let body = crate::content::glue_run::body()?;
    check_eq!(flat_text(&body, 100), "before slotted after");
    check_eq!(flat_text(&host, 10), "before slo…");
    Ok(())
}

async fn a_hidden_element_is_named_by_its_labels_not_its_hidden_content() -> Outcome {
    let b = page(
        "<div style=display:none><button id=b>Hidden <b>words</b></button>\
         <button id=c aria-label=Close>x</button><label>Mail <input id=m></label></div>",
        "#b",
    )?;
    let mut labels = Labels::default();
    check_eq!(name_as(&b, "button", &mut labels, Named::Hidden), "");
    let c = element("#c")?;
    check_eq!(name_as(&c, "button", &mut labels, Named::Hidden), "Close");
    let m = element("#m")?;
    check_eq!(name_as(&m, "input", &mut labels, Named::Hidden), "Mail");
    Ok(())
}

async fn generated_words_are_part_of_a_name() -> Outcome {
    let b = page(
        "<style>#b::before{content:'Open '}#b::after{content:' now'}</style>\
         <button id=b>menu</button>",
        "#b",
    )?;
    let mut labels = Labels::default();
    check_eq!(full_name(&b, "button", &mut labels), "Open menu now");
    Ok(())
}

async fn generated_words_of_skipped_content_are_no_name() -> Outcome {
    let b = page(
        "<style>.g::before{content:'Secret'}</style>\
         <button id=b class=g style=content-visibility:hidden></button>\
         <button id=c class=g></button>",
        "#b",
    )?;
    let mut labels = Labels::default();
    check_eq!(full_name(&element("#c")?, "button", &mut labels), "Secret");
    check_eq!(full_name(&b, "button", &mut labels), "");
    Ok(())
}
