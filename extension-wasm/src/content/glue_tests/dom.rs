//! `dom.rs`: the reads every walk makes through the shim's native getters, and what a
//! field, a box-less element or a slot is.

use crate::content::dom::{
    composed_parent, field_of, is_visible, matches, query_all_in, showing, slotted,
};
use crate::content::glue_run::{Outcome, body, check, check_eq, element, page, shadow, tests};
use crate::field_kind::Field;
use crate::showing::Showing;

tests![
    how_an_element_shows_is_read_from_its_style,
    a_field_is_read_as_its_kind_and_state,
    the_composed_parent_of_a_shadow_child_is_its_host,
    a_slot_shows_its_assigned_nodes_and_a_foreign_slot_none,
    a_refused_selector_throws_and_a_query_of_it_finds_none,
];

async fn how_an_element_shows_is_read_from_its_style() -> Outcome {
    page(
        "<p id=shown>a</p><p id=none style=display:none>b</p>\
         <p id=invisible style=visibility:hidden>c</p>\
         <div id=contents style=display:contents>d</div>\
         <div id=skipped style=content-visibility:hidden>e</div>",
        "p",
    )?;
    let of = |id: &str| element(&format!("#{id}")).map(|el| showing(&el));
    check_eq!(of("shown")?, Showing::Rendered);
    check_eq!(of("none")?, Showing::NotRendered);
    check_eq!(of("invisible")?, Showing::Invisible);
    check_eq!(of("contents")?, Showing::BoxLess { seen: true });
    check_eq!(of("skipped")?, Showing::Invisible);
    check!(is_visible(&element("#shown")?), "a shown p is not visible");
    check!(!is_visible(&element("#none")?), "display:none is visible");
    Ok(())
}

async fn a_field_is_read_as_its_kind_and_state() -> Outcome {
    page(
        "<input id=mail type=email autocomplete=email disabled>\
         <textarea id=area readonly></textarea><div id=ed contenteditable>x</div>\
         <p id=p>y</p><svg><input id=svg /></svg>",
        "#mail",
    )?;
    let mail = Field::Input {
        kind: "email".into(),
        disabled: true,
        read_only: false,
        autocomplete: Some("email".into()),
    };
    check_eq!(field_of(&element("#mail")?), mail);
    let area = Field::TextArea {
        disabled: false,
        read_only: true,
        autocomplete: None,
    };
    check_eq!(field_of(&element("#area")?), area);
    check_eq!(field_of(&element("#ed")?), Field::ContentEditable);
    check_eq!(field_of(&element("#p")?), Field::Other);
    check_eq!(field_of(&element("#svg")?), Field::Other);
    Ok(())
}

async fn the_composed_parent_of_a_shadow_child_is_its_host() -> Outcome {
    let host = page("<div id=host></div>", "#host")?;
    let root = shadow(&host)?;
    root.set_inner_html("<b id=inner>x</b>");
    let inner = root
        .get_element_by_id("inner")
        .ok_or("no #inner in the shadow root")?;
    check!(
        composed_parent(&inner) == Some(host.clone()),
        "not the host"
    );
    check!(
        composed_parent(&host) == Some(body()?.into()),
        "not the body"
    );
    Ok(())
}

async fn a_slot_shows_its_assigned_nodes_and_a_foreign_slot_none() -> Outcome {
    let host = page(
        "<div id=host><i>one</i>two</div><svg><slot id=svg /></svg>",
        "#host",
    )?;
    let root = shadow(&host)?;
    root.set_inner_html("<slot></slot>");
    let slot = query_all_in(&root.into(), "slot");
    let slot = slot.first().ok_or("no slot")?;
    let shown: Vec<_> = slotted(slot)
        .iter()
        .filter_map(|n| web_sys::Node::from(n).text_content())
        .collect();
    check_eq!(shown, ["one", "two"]);
    check_eq!(slotted(&element("#svg")?).length(), 0);
    Ok(())
}

async fn a_refused_selector_throws_and_a_query_of_it_finds_none() -> Outcome {
    let p = page("<p class=a>x</p>", "p")?;
    check!(
        matches(&p, &".a, .b".into()) == Ok(true),
        "p.a does not match .a"
    );
    check!(
        matches(&p, &"p[".into()).is_err(),
        "a refused selector matched"
    );
    check!(
        query_all_in(&body()?.into(), "p[").is_empty(),
        "found by a refused selector"
    );
    Ok(())
}
