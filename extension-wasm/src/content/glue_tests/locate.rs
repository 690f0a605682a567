//! `locate.rs`: elements found by role and name, and named as a Playwright locator would.

use claudezilla_protocol::ErrorCode;
use claudezilla_protocol::reply::Query;

use crate::content::glue_run::{Outcome, check, check_eq, element, page, tests};
use crate::content::locate::{element as locator, find};

tests![
    elements_are_found_by_role_and_name,
    an_unknown_role_is_refused_with_the_known_ones_nearby,
    an_element_is_located_by_its_role_and_name,
    one_of_two_alike_is_located_in_its_row_or_by_place,
];

async fn elements_are_found_by_role_and_name() -> Outcome {
    page(
        "<button>Save</button><button>Save as</button><a href=/x>Save link</a>\
         <div role=button>Cancel</div><button style=display:none>Save hidden</button>",
        "button",
    )?;
    let all = find("button", None, 10, 0).map_err(|e| e.message)?;
    check_eq!(all.total, 3);
    let save = find("button", Some("Save"), 10, 0).map_err(|e| e.message)?;
    let names: Vec<_> = save.matches.iter().map(|m| m.name.as_str()).collect();
    check!(names.contains(&"Save"), "matches {names:?}");
    check!(
        !names.contains(&"Save link"),
        "a link matched a button: {names:?}"
    );
    let cancel = find("button", Some("Cancel"), 10, 0).map_err(|e| e.message)?;
    check_eq!(cancel.total, 1);
    Ok(())
}

async fn an_unknown_role_is_refused_with_the_known_ones_nearby() -> Outcome {
    page("<button>x</button>", "button")?;
    let Err(e) = find("buton", None, 10, 0) else {
        return Err("`buton` was taken for a role".into());
    };
    check_eq!(e.code, ErrorCode::InvalidArgument);
    let said = format!("{} {}", e.message, e.hint.unwrap_or_default());
    check!(said.contains("button"), "no suggestion: {said}");
    Ok(())
}

async fn an_element_is_located_by_its_role_and_name() -> Outcome {
    let b = page("<h1>Shop</h1><button>Check out</button>", "button")?;
    let found = locator(&b, 0).map_err(|e| e.message)?;
    check!(found.frames.is_empty(), "frames: {:?}", found.frames);
    let Query::Role { role, name, .. } = &found.element.query else {
        return Err(format!("not by role: {:?}", found.element.query));
    };
    check_eq!(role.as_str(), "button");
    check_eq!(name.as_str(), "Check out");
    check_eq!(found.element.matches, 1);
    let heading = locator(&element("h1")?, 0).map_err(|e| e.message)?;
    let Query::Role { level, .. } = heading.element.query else {
        return Err("the heading is not located by role".into());
    };
    check_eq!(level, Some(1));
    Ok(())
}

async fn one_of_two_alike_is_located_in_its_row_or_by_place() -> Outcome {
    page(
        "<table><tr><td>Apples</td><td><button>Delete</button></td></tr>\
         <tr><td>Pears</td><td><button id=second>Delete</button></td></tr></table>",
        "#second",
    )?;
    let found = locator(&element("#second")?, 0).map_err(|e| e.message)?;
    let pick = found.element;
    let told_apart = pick.scope.is_some() || pick.nth == Some(1);
    check!(told_apart, "the second Delete is not told apart: {pick:?}");
    if pick.scope.is_none() {
        check_eq!(pick.matches, 2);
    }
    Ok(())
}
