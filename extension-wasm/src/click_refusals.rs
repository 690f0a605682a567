//! What the answer to a click says Firefox refused the page while the click ran: a popup
//! blocked, a clipboard write or copy refused, fullscreen refused, a file chooser not opened
//! (a synthetic click carries no user activation). Over plain data: the content script's
//! `content/act/refused.rs` wraps the page's functions for the click and tells [`Seen`] what
//! each call did, and `pointer_press::clicked` asks [`new_tab`] when it answers the click; the
//! refusals' words, their bound, the popup kept and the new tab the answer names are decided
//! here.

use claudezilla_protocol::reply;

/// Most refusals said for one click: a page calling `window.open` in a loop must not grow the
/// answer (the rest are counted in one line).
pub const MOST_REFUSALS: usize = 8;
/// Most characters of an address or a copied text said back.
const SHOWN: usize = 200;

/// What the page was refused, and did, during one click.
#[derive(Default)]
pub struct Seen {
    refusals: Vec<String>,
    /// The first address the page's `window.open` did open (the user allows popups here).
    popped: Option<String>,
    /// Promises of the page's (a clipboard write, a fullscreen request) not settled yet.
    pending: u32,
}

impl Seen {
    /// The page called `window.open(address)`; `opened`: Firefox gave it a window.
    pub fn window_open(&mut self, address: Option<String>, opened: bool) {
        // No address opens about:blank (a window the page means to send on).
        let url = match address.filter(|u| !u.is_empty()) {
            Some(url) => shown(&url),
            None => "about:blank".to_owned(),
        };
        if opened {
            self.popped.get_or_insert(url);
        } else {
            self.push(format!(
                "the page's window.open(\"{url}\") was blocked by Firefox's popup blocker (a synthetic click carries no user activation); \
                 open the address yourself with firefox_create_window {{url}} (the popup's window.opener link is lost), \
                 or ask the user to allow popups for this site"
            ));
        }
    }

    /// The page called `document.execCommand(command)`; `refused`: it answered false.
    pub fn exec_command(&mut self, command: &str, refused: bool) {
        let name = command.to_ascii_lowercase();
        if matches!(name.as_str(), "copy" | "cut") && refused {
            self.push(format!(
                "the page's clipboard {name} (document.execCommand) was refused: Firefox gives a synthetic click no user activation, \
                 so the page's selection is not on the clipboard; read the text from the page instead"
            ));
        }
    }

    /// A file field's click (`field`: how it is named): Firefox opens no chooser for it.
    pub fn file_chooser(&mut self, field: &str) {
        self.push(format!(
            "the click asked for a file chooser ({field}): Firefox opens none for a synthetic click (it carries no user activation); \
             attach the file with firefox_upload_file on the element you clicked"
        ));
    }

    /// A promise of the page's is being watched.
    pub fn awaiting(&mut self) {
        self.pending += 1;
    }

    /// A watched promise was fulfilled.
    pub fn fulfilled(&mut self) {
        self.pending = self.pending.saturating_sub(1);
    }

    /// A watched promise was rejected; `refusal` says it ([`rejection`]).
    pub fn rejected(&mut self, refusal: String) {
        self.fulfilled();
        self.push(refusal);
    }

    /// Some promise has not settled yet.
    pub fn pending(&self) -> bool {
        self.pending > 0
    }

    /// What was refused, and the address of a popup the page did open.
    pub fn heard(&mut self) -> (Vec<String>, Option<String>) {
        (std::mem::take(&mut self.refusals), self.popped.take())
    }

    fn push(&mut self, refusal: String) {
        match self.refusals.len() {
            n if n < MOST_REFUSALS => self.refusals.push(refusal),
            n if n == MOST_REFUSALS => self.refusals.push(
                "the page asked for more of the same during this click; the rest are not listed"
                    .into(),
            ),
            _ => {}
        }
    }
}

/// The new tab a click's answer names: the one its link asked for (the click's default
/// stopped for it), else the popup the page's own `window.open` opened (`Seen::heard`).
pub fn new_tab(asked: Option<String>, popped: Option<String>) -> Option<reply::NewTab> {
    match (asked, popped) {
        (Some(url), _) => Some(reply::NewTab::Asked { url }),
        (None, Some(url)) => Some(reply::NewTab::Popped { url }),
        (None, None) => None,
    }
}

/// A rejected promise in `said`'s words, given its error's name (if it has one).
pub fn rejection(error: Option<&str>, said: impl FnOnce(&str) -> String) -> String {
    said(error.unwrap_or("an error"))
}

/// The words of a refused clipboard write of `text`, given the rejection's error (the text
/// is cut as the write is seen).
pub fn clipboard_write(text: &str) -> impl FnOnce(&str) -> String + 'static {
    let text = shown(text);
    move |error| {
        format!(
            "the page's clipboard write was refused ({error}: Firefox gives a synthetic click no user activation), \
         so \"{text}\" is not on the clipboard; read the text from the page instead"
        )
    }
}

/// A refused fullscreen request, given the rejection's `error`.
pub fn fullscreen(error: &str) -> String {
    format!(
        "the page asked for fullscreen and Firefox refused it ({error}: a synthetic click carries no user activation); \
         the page stays as it was, and can be read and driven as it is"
    )
}

fn shown(text: &str) -> String {
    crate::a11y::clean(text, SHOWN)
}

#[cfg(test)]
mod tests;
