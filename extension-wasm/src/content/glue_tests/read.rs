//! `read.rs`: the page's text, Markdown and HTML, one element's facts, the page's state, and
//! the wait for a selector or words.

use claudezilla_protocol::ErrorCode;
use claudezilla_protocol::args::ContentFormat;
use claudezilla_protocol::envelope::PageLimits;

use crate::content::glue_run::{Outcome, check, check_eq, element, page, shadow, tests};
use crate::content::read::{get_content, get_element, page_state, wait_for};

tests![
    the_text_leaves_out_what_is_not_shown_and_reads_shadow_roots,
    markdown_keeps_headings_links_and_lists,
    html_of_a_selector_is_its_markup_and_a_miss_is_not_found,
    a_long_text_is_cut_and_says_so,
    an_elements_facts_are_read_from_the_page,
    the_page_state_lists_what_a_person_sees,
    a_wait_ends_when_the_words_appear,
    a_wait_for_what_never_comes_times_out,
];

const LIMITS: PageLimits = PageLimits {
    headings: 10,
    links: 10,
    buttons: 10,
    inputs: 10,
    images: 10,
};

async fn the_text_leaves_out_what_is_not_shown_and_reads_shadow_roots() -> Outcome {
    let host = page(
        "<p>Shown</p><p style=display:none>TRAP-NONE</p>\
         <p style=visibility:hidden>TRAP-INVISIBLE</p><div id=host></div>",
        "#host",
    )?;
    let root = shadow(&host)?;
    root.set_inner_html("<p>From the shadow</p>");
    let read = get_content(None, 10_000, ContentFormat::Text).map_err(|e| e.message)?;
    check!(read.text.contains("Shown"), "text: {:?}", read.text);
    check!(
        read.text.contains("From the shadow"),
        "text: {:?}",
        read.text
    );
    check!(
        !read.text.contains("TRAP"),
        "hidden words read: {:?}",
        read.text
    );
    check!(!read.truncated, "cut");
    Ok(())
}

async fn markdown_keeps_headings_links_and_lists() -> Outcome {
    page(
        "<h2>Title</h2><p>See <a href='/next'>the next page</a>.</p>\
         <ul><li>one</li><li>two</li></ul>",
        "h2",
    )?;
    let read = get_content(None, 10_000, ContentFormat::Markdown).map_err(|e| e.message)?;
    let text = read.text;
    check!(text.contains("## Title"), "markdown: {text:?}");
    check!(text.contains("[the next page]("), "markdown: {text:?}");
    check!(text.contains("/next)"), "markdown: {text:?}");
    check!(
        text.contains("- one") && text.contains("- two"),
        "markdown: {text:?}"
    );
    Ok(())
}

async fn html_of_a_selector_is_its_markup_and_a_miss_is_not_found() -> Outcome {
    page("<section id=s><b>bold</b></section>", "#s")?;
    let read = get_content(Some("#s"), 10_000, ContentFormat::Html).map_err(|e| e.message)?;
    check!(read.text.contains("<b>bold</b>"), "html: {:?}", read.text);
    let Err(e) = get_content(Some("#nothing"), 10_000, ContentFormat::Text) else {
        return Err("#nothing was read".into());
    };
    check_eq!(e.code, ErrorCode::ElementNotFound);
    Ok(())
}

async fn a_long_text_is_cut_and_says_so() -> Outcome {
    page(&format!("<p>{}</p>", "word ".repeat(400)), "p")?;
    let read = get_content(None, 100, ContentFormat::Text).map_err(|e| e.message)?;
    check!(read.truncated, "not marked cut");
    check!(
        read.text.chars().count() <= 200,
        "{} characters",
        read.text.chars().count()
    );
    check!(read.total_length >= 1_900, "total {}", read.total_length);
    Ok(())
}

async fn an_elements_facts_are_read_from_the_page() -> Outcome {
    let input = page(
        "<input id=q name=query value=typed style='width:120px;height:30px'>\
         <p id=gone style=display:none>x</p>",
        "#q",
    )?;
    let info = get_element(&input, 0).map_err(|e| e.message)?;
    check_eq!(info.tag, "input");
    check_eq!(info.value, Some("typed".to_owned()));
    check!(info.visible, "a shown input is not visible");
    check!(info.rect[2] >= 119.0, "width {}", info.rect[2]);
    let named = info
        .attributes
        .iter()
        .any(|(k, v)| k == "name" && v == "query");
    check!(named, "attributes: {:?}", info.attributes);
    let gone = get_element(&element("#gone")?, 0).map_err(|e| e.message)?;
    check!(!gone.visible, "display:none is visible");
    Ok(())
}

async fn the_page_state_lists_what_a_person_sees() -> Outcome {
    page(
        "<h1>Shop</h1><nav><a href=/a>Cart</a></nav><button>Buy</button>\
         <button style=display:none>Hidden buy</button><form><input aria-label=Qty></form>",
        "h1",
    )?;
    let state = page_state(0, LIMITS).map_err(|e| e.message)?;
    let has = |list: &[String], words: &str| list.iter().any(|l| l.contains(words));
    check!(
        has(&state.headings, "Shop"),
        "headings: {:?}",
        state.headings
    );
    check!(has(&state.links, "Cart"), "links: {:?}", state.links);
    check!(has(&state.buttons, "Buy"), "buttons: {:?}", state.buttons);
    check!(
        !has(&state.buttons, "Hidden"),
        "buttons: {:?}",
        state.buttons
    );
    check!(has(&state.inputs, "Qty"), "inputs: {:?}", state.inputs);
    check_eq!(state.counts.forms, 1);
    Ok(())
}

async fn a_wait_ends_when_the_words_appear() -> Outcome {
    let words = page("<p>before</p>", "p")?;
    // Written into this test's own element: once the next test has its body, nowhere seen.
    wasm_bindgen_futures::spawn_local(async move {
        crate::web::sleep(150).await;
        words.set_text_content(Some("Order placed"));
    });
    let until = crate::web::now_ms() as u64 + 3000;
    let waited = wait_for(None, Some("Order placed"), until)
        .await
        .map_err(|e| e.message)?;
    check!(waited.waited_ms >= 100, "waited {} ms", waited.waited_ms);
    check!(waited.waited_ms < 2500, "waited {} ms", waited.waited_ms);
    Ok(())
}

async fn a_wait_for_what_never_comes_times_out() -> Outcome {
    page("<p>nothing</p>", "p")?;
    let until = crate::web::now_ms() as u64 + 200;
    let Err(e) = wait_for(Some("#never"), None, until).await else {
        return Err("#never was found".into());
    };
    check_eq!(e.code, ErrorCode::Timeout);
    Ok(())
}
