//! `firefox_fill_form` in the page, over its fields in order (`fill_all`): each set in turn by
//! the caller (`content/mod.rs`, which finds the field and fills it), the answer listing what
//! was set, and an error part-way saying which fields were already set — a form is never left
//! half-filled without the agent knowing.

use claudezilla_protocol::ErrorBody;
use claudezilla_protocol::reply::Acted;

/// Sets each of `fields` in order with `set` (which says what it did), stopping at the first
/// that fails.
pub fn fill_all<F>(
    fields: &[F],
    mut set: impl FnMut(&F) -> Result<String, ErrorBody>,
) -> Result<Acted, ErrorBody> {
    let mut done = Vec::new();
    for field in fields {
        done.push(set(field).map_err(|e| partial(e, &done))?);
    }
    Ok(Acted {
        what: format!("Filled {} field(s): {}.", done.len(), done.join("; ")),
    })
}

/// An error part-way through a form: say which fields were already set.
fn partial(e: ErrorBody, done: &[String]) -> ErrorBody {
    if done.is_empty() {
        return e;
    }
    let message = format!("{} (after setting: {})", e.message, done.join("; "));
    ErrorBody { message, ..e }
}

#[cfg(test)]
mod tests;
