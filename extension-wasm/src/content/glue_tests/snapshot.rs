//! `snapshot.rs`: the page's tree as the agent reads it, with refs that act on the elements.

use claudezilla_protocol::ErrorCode;
use claudezilla_protocol::args::FrameTarget;
use claudezilla_protocol::envelope::{PageReply, SnapshotPart};

use crate::content::find::resolve;
use crate::content::glue_run::{Outcome, check, check_eq, element, page, shadow, tests};
use crate::content::snapshot::{css_path, snapshot};
use crate::snapshot::Limits;

tests![
    controls_get_refs_that_resolve_to_them,
    what_is_hidden_is_left_out,
    words_slotted_into_a_hidden_host_are_left_out,
    a_snapshot_of_a_selector_starts_there,
    only_interactive_keeps_controls_and_the_headings_around_them,
    a_css_path_finds_its_element_again,
];

fn limits(interactive_only: bool) -> Limits {
    Limits {
        interactive_only,
        max_chars: 20_000,
        max_depth: None,
        max_nodes: None,
    }
}

fn part(reply: Result<PageReply, claudezilla_protocol::ErrorBody>) -> Result<SnapshotPart, String> {
    match reply.map_err(|e| e.message)? {
        PageReply::SnapshotPart(part) => Ok(part),
        other => Err(format!("not a snapshot: {other:?}")),
    }
}

/// The ref on the line that holds `words` (`e12`), as its index.
fn ref_on(text: &str, words: &str) -> Result<u32, String> {
    let line = text
        .lines()
        .find(|l| l.contains(words))
        .ok_or_else(|| format!("no line with {words} in {text}"))?;
    let at = line
        .rfind(" e")
        .ok_or_else(|| format!("no ref on {line:?}"))?;
    line[at + 2..]
        .trim_end_matches(|c: char| !c.is_ascii_digit())
        .parse()
        .map_err(|_| format!("no ref on {line:?}"))
}

async fn controls_get_refs_that_resolve_to_them() -> Outcome {
    page(
        "<h1>Form</h1><label>Name <input id=name></label><button id=go>Send</button>",
        "#go",
    )?;
    let part = part(snapshot(0, None, limits(false)))?;
    check!(part.text.contains("h1 \"Form\""), "{}", part.text);
    check!(part.refs >= 2, "{} refs in {}", part.refs, part.text);
    let button =
        resolve(&FrameTarget::Ref(ref_on(&part.text, "\"Send\"")?), 0).map_err(|e| e.message)?;
    check!(
        button == element("#go")?,
        "the button's ref is another element's"
    );
    let field =
        resolve(&FrameTarget::Ref(ref_on(&part.text, "\"Name\"")?), 0).map_err(|e| e.message)?;
    check!(
        field == element("#name")?,
        "the field's ref is another element's"
    );
    Ok(())
}

async fn what_is_hidden_is_left_out() -> Outcome {
    page(
        "<button>Shown</button><button style=display:none>TRAP-A</button>\
         <div style=visibility:hidden><button>TRAP-B</button></div>\
         <div aria-hidden=true><button>TRAP-C</button></div>\
         <div style=content-visibility:hidden>TRAP-D</div>",
        "button",
    )?;
    let part = part(snapshot(0, None, limits(false)))?;
    check!(part.text.contains("Shown"), "{}", part.text);
    check!(!part.text.contains("TRAP"), "hidden read: {}", part.text);
    Ok(())
}

/// A slot at the top of a shadow root has no parent element: its words show as the host
/// does.
async fn words_slotted_into_a_hidden_host_are_left_out() -> Outcome {
    page(
        "<div style='visibility:hidden'><x-a id=ghost>Ghost words</x-a></div>\
         <x-a id=shown>Shown words</x-a>",
        "#shown",
    )?;
    // Each host's shadow root a slot alone: its light words show through it.
    for host in ["#ghost", "#shown"] {
        shadow(&element(host)?)?.set_inner_html("<slot></slot>");
    }
    let part = part(snapshot(0, None, limits(false)))?;
    check!(part.text.contains("Shown words"), "{}", part.text);
    check!(!part.text.contains("Ghost"), "{}", part.text);
    Ok(())
}

async fn a_snapshot_of_a_selector_starts_there() -> Outcome {
    page(
        "<p>Outside</p><section id=s><button>Inside</button></section>",
        "#s",
    )?;
    let part = part(snapshot(0, Some("#s"), limits(false)))?;
    check!(part.text.contains("Inside"), "{}", part.text);
    check!(!part.text.contains("Outside"), "{}", part.text);
    let Err(e) = snapshot(0, Some("#missing"), limits(false)) else {
        return Err("#missing was read".into());
    };
    check_eq!(e.code, ErrorCode::ElementNotFound);
    Ok(())
}

async fn only_interactive_keeps_controls_and_the_headings_around_them() -> Outcome {
    page(
        "<h2>Heading words</h2><p>Prose</p><img alt=Picture width=20 height=20 src=data:,><a href=/x>A link</a>",
        "a",
    )?;
    let whole = part(snapshot(0, None, limits(false)))?;
    check!(whole.text.contains("img \"Picture\""), "{}", whole.text);
    let part = part(snapshot(0, None, limits(true)))?;
    check!(part.text.contains("link \"A link\""), "{}", part.text);
    check!(part.text.contains("h2 \"Heading words\""), "{}", part.text);
    check!(!part.text.contains("Prose"), "{}", part.text);
    check!(!part.text.contains("Picture"), "{}", part.text);
    Ok(())
}

async fn a_css_path_finds_its_element_again() -> Outcome {
    let target = page(
        "<div><ul><li>a</li><li><span class=x>b</span></li></ul><ul><li><span>c</span></li></ul></div>",
        ".x",
    )?;
    let path = css_path(&target);
    let again = element(&path)?;
    check!(again == target, "{path} finds another element");
    Ok(())
}
