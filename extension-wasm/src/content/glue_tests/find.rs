//! `find.rs`: refs, queries through open shadow roots, and what a miss says.

use claudezilla_protocol::ErrorCode;
use claudezilla_protocol::args::FrameTarget;

use super::super::find::{describe, not_found, query, ref_for, resolve};
use crate::content::glue_run::{Outcome, check, check_eq, element, page, shadow, tests};

tests![
    an_element_keeps_its_ref_and_a_new_one_gets_the_next,
    a_ref_resolves_to_its_element_and_an_unknown_one_is_refused,
    a_query_looks_into_open_shadow_roots_after_the_document,
    a_selector_the_browser_refuses_is_an_invalid_argument,
    a_miss_names_the_look_alike_selectors_the_page_has,
    an_element_is_described_by_tag_id_class_and_name,
];

async fn an_element_keeps_its_ref_and_a_new_one_gets_the_next() -> Outcome {
    let a = page("<button id=a>A</button><button id=b>B</button>", "#a")?;
    let b = element("#b")?;
    let first = ref_for(&a, 0);
    check_eq!(ref_for(&a, 0), first);
    let second = ref_for(&b, 0);
    check_eq!(second.index, first.index + 1);
    check_eq!(ref_for(&b, 3).frame, 3);
    Ok(())
}

async fn a_ref_resolves_to_its_element_and_an_unknown_one_is_refused() -> Outcome {
    let a = page("<input id=a>", "#a")?;
    let r = ref_for(&a, 0);
    let found = resolve(&FrameTarget::Ref(r.index), 0).map_err(|e| e.message)?;
    check!(found == a, "e{} resolved to another element", r.index);
    let unknown = resolve(&FrameTarget::Ref(r.index + 1000), 0);
    check!(unknown.is_err(), "an unknown ref resolved");
    Ok(())
}

async fn a_query_looks_into_open_shadow_roots_after_the_document() -> Outcome {
    let host = page("<div id=host></div><p class=x>light</p>", "#host")?;
    let root = shadow(&host)?;
    root.set_inner_html("<span class=deep>inside</span><p class=x>shadow</p>");
    let deep = query(".deep").map_err(|e| e.message)?;
    check_eq!(
        deep.and_then(|d| d.text_content()),
        Some("inside".to_owned())
    );
    // The document's match comes first.
    let x = query(".x").map_err(|e| e.message)?;
    check_eq!(x.and_then(|d| d.text_content()), Some("light".to_owned()));
    check!(
        query(".none").map_err(|e| e.message)?.is_none(),
        "found .none"
    );
    Ok(())
}

async fn a_selector_the_browser_refuses_is_an_invalid_argument() -> Outcome {
    page("<p>text</p>", "p")?;
    let Err(e) = query("p[") else {
        return Err("`p[` was taken".into());
    };
    check_eq!(e.code, ErrorCode::InvalidArgument);
    check!(
        e.message.contains("p["),
        "the error does not name it: {}",
        e.message
    );
    Ok(())
}

async fn a_miss_names_the_look_alike_selectors_the_page_has() -> Outcome {
    page(
        "<button id=save-button>Save</button><a class=nav-link>x</a>",
        "button",
    )?;
    let e = not_found("#save-buton", None);
    check_eq!(e.code, ErrorCode::ElementNotFound);
    let said = format!("{} {}", e.message, e.hint.unwrap_or_default());
    check!(
        said.contains("did you mean: #save-button,"),
        "the look-alike is not first: {said}"
    );
    Ok(())
}

async fn an_element_is_described_by_tag_id_class_and_name() -> Outcome {
    let b = page(
        "<button id=save class='primary big'>Save it</button>",
        "#save",
    )?;
    let said = describe(&b);
    check!(
        said.starts_with("button#save.primary"),
        "described as {said}"
    );
    check!(said.contains("\"Save it\""), "no name in {said}");
    Ok(())
}
