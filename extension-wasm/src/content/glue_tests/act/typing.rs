//! `act/typing.rs`: text typed into fields and editors as keystrokes would put it.

use claudezilla_protocol::ErrorCode;
use claudezilla_protocol::args::Typing;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, InputEvent};

use crate::content::act::type_typing;
use crate::content::glue_run::{Events, Outcome, check, check_eq, element, page, tests};

tests![
    text_goes_in_by_the_editors_own_trusted_input,
    clear_replaces_what_the_field_held,
    an_editor_takes_the_text_where_its_caret_is,
    a_disabled_field_is_refused,
    a_field_that_rewrites_its_value_is_told,
];

fn text(t: &str) -> Typing {
    Typing::Text(t.to_owned())
}

/// An `input` event as `trusted/insertText` (the editor's own) or `script/…`.
fn how(e: &web_sys::Event) -> String {
    let kind = e
        .dyn_ref::<InputEvent>()
        .map(InputEvent::input_type)
        .unwrap_or_default();
    match e.is_trusted() {
        true => format!("trusted/{kind}"),
        false => format!("script/{kind}"),
    }
}

fn value(css: &str) -> Result<String, String> {
    Ok(element(css)?
        .dyn_into::<HtmlInputElement>()
        .map_err(|_| "not an input")?
        .value())
}

async fn text_goes_in_by_the_editors_own_trusted_input() -> Outcome {
    let input = page("<input id=q maxlength=5>", "#q")?;
    let events = Events::with(&input, &["input"], how);
    let typed = type_typing(&input, &text("ab"), false)
        .await
        .map_err(|e| e.message)?;
    check_eq!(typed.value_length, 2);
    check_eq!(value("#q")?, "ab");
    check_eq!(events.seen(), ["input:trusted/insertText"]);
    // The editor keeps the field's own limit, as it does for a person's typing.
    let typed = type_typing(&input, &text("cdefgh"), false)
        .await
        .map_err(|e| e.message)?;
    check_eq!(value("#q")?, "abcde");
    check!(typed.note.is_some(), "the cut is not told");
    Ok(())
}

async fn clear_replaces_what_the_field_held() -> Outcome {
    let input = page("<input id=q value=old>", "#q")?;
    type_typing(&input, &text("new"), true)
        .await
        .map_err(|e| e.message)?;
    check_eq!(value("#q")?, "new");
    type_typing(&input, &text("er"), false)
        .await
        .map_err(|e| e.message)?;
    check_eq!(value("#q")?, "newer");
    Ok(())
}

async fn an_editor_takes_the_text_where_its_caret_is() -> Outcome {
    let editor = page("<div id=ed contenteditable>Hello</div>", "#ed")?;
    type_typing(&editor, &text(" world"), false)
        .await
        .map_err(|e| e.message)?;
    let words = editor.text_content().unwrap_or_default();
    check_eq!(words.replace('\u{a0}', " "), "Hello world");
    Ok(())
}

async fn a_disabled_field_is_refused() -> Outcome {
    let input = page("<input id=q disabled>", "#q")?;
    let Err(e) = type_typing(&input, &text("x"), false).await else {
        return Err("typed into a disabled field".into());
    };
    check_eq!(e.code, ErrorCode::PageError);
    check!(e.message.contains("disabled"), "said {}", e.message);
    check_eq!(value("#q")?, "");
    Ok(())
}

async fn a_field_that_rewrites_its_value_is_told() -> Outcome {
    // A number field takes no letters: what the page keeps differs from what was typed.
    let input = page("<input id=n type=number>", "#n")?;
    let typed = type_typing(&input, &text("12ab"), false).await;
    let said = match &typed {
        Ok(t) => t.note.clone().unwrap_or_default(),
        Err(e) => e.message.clone(),
    };
    check!(
        !said.is_empty(),
        "nothing said of the refused letters: {typed:?}"
    );
    Ok(())
}
