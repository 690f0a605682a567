//! The page's own title where its tab shows a placeholder: Firefox may say "complete" before
//! the page's title has reached the tab (a cold start, a busy browser). The tab is looked at
//! again, then the page is asked; where it cannot answer (its document is still being
//! replaced), the tab's next title is waited for — [`TITLE_WAIT_MS`] in all. Written over
//! [`Titles`]; `background/tabs/waits.rs` is the browser's side.

use crate::load::placeholder_title;
use crate::text::MAX_TITLE_CHARS;

/// Longest the page's own title is waited for when its tab does not show it yet.
pub const TITLE_WAIT_MS: u32 = 500;

/// What finding a tab's title asks of the browser.
pub trait Titles {
    /// The tab's next title that is not a placeholder.
    type Update;

    /// Registers for the tab's next title: before the tab and the page are asked, so an
    /// update in between is not missed (one that came before is in the tab already).
    fn update(&self) -> Self::Update;
    /// The tab's title and address now; none when the tab is gone.
    fn shown(&self) -> impl Future<Output = Option<(String, String)>>;
    /// The page's `document.title`; none when the page did not answer within `ms`.
    fn ask_page(&self, ms: u32) -> impl Future<Output = Option<String>>;
    /// The title `update` brings, within `ms`.
    fn next(&self, update: Self::Update, ms: u32) -> impl Future<Output = Option<String>>;
    fn now_ms(&self) -> f64;
}

/// The page's own title, cleaned and capped as every title an answer carries; none for a page
/// with no title, or none known in time.
pub async fn real_title<T: Titles>(titles: &T) -> Option<String> {
    let until = titles.now_ms() + f64::from(TITLE_WAIT_MS);
    let update = titles.update();
    if let Some((title, url)) = titles.shown().await
        && !placeholder_title(&title, &url)
    {
        return Some(clean(&title));
    }
    if let Some(asked) = titles.ask_page(TITLE_WAIT_MS).await {
        let title = clean(&asked);
        // A page with no title of its own: the tab's placeholder stays.
        return (!title.is_empty()).then_some(title);
    }
    let left = (until - titles.now_ms()).max(0.0) as u32;
    titles.next(update, left).await.map(|t| clean(&t))
}

fn clean(title: &str) -> String {
    crate::a11y::clean(title, MAX_TITLE_CHARS)
}

#[cfg(test)]
mod tests {
    use std::cell::{Cell, RefCell};

    use super::*;
    use crate::at_once::run;

    const URL: &str = "http://127.0.0.1:8000/page.html";
    const PLACEHOLDER: &str = "127.0.0.1:8000/page.html";

    /// A tab and page whose titles are scripted; asking the page takes `asking_ms` of the
    /// clock. Every call is logged.
    struct Tab {
        shown: Option<&'static str>,
        page: Option<&'static str>,
        next: Option<&'static str>,
        asking_ms: f64,
        clock: Cell<f64>,
        log: RefCell<Vec<String>>,
    }

    fn tab(shown: Option<&'static str>, page: Option<&'static str>) -> Tab {
        Tab {
            shown,
            page,
            next: None,
            asking_ms: 0.0,
            clock: Cell::new(0.0),
            log: RefCell::default(),
        }
    }

    impl Titles for Tab {
        type Update = ();

        fn update(&self) {
            self.log.borrow_mut().push("update".into());
        }

        async fn shown(&self) -> Option<(String, String)> {
            self.log.borrow_mut().push("shown".into());
            self.shown.map(|t| (t.to_owned(), URL.to_owned()))
        }

        async fn ask_page(&self, ms: u32) -> Option<String> {
            self.log.borrow_mut().push(format!("ask {ms}"));
            self.clock.set(self.clock.get() + self.asking_ms);
            self.page.map(str::to_owned)
        }

        async fn next(&self, (): (), ms: u32) -> Option<String> {
            self.log.borrow_mut().push(format!("next {ms}"));
            self.next.map(str::to_owned)
        }

        fn now_ms(&self) -> f64 {
            self.clock.get()
        }
    }

    #[test]
    fn a_title_the_tab_shows_by_now_is_taken_without_asking_the_page() {
        let t = tab(Some("  Real\n title "), Some("never asked"));
        assert_eq!(run(real_title(&t)).as_deref(), Some("Real title"));
        assert_eq!(*t.log.borrow(), ["update", "shown"]);
    }

    #[test]
    fn a_placeholder_asks_the_page_and_an_untitled_page_keeps_it() {
        let t = tab(Some(PLACEHOLDER), Some("From the page"));
        assert_eq!(run(real_title(&t)).as_deref(), Some("From the page"));
        let untitled = tab(Some(PLACEHOLDER), Some("   "));
        assert_eq!(run(real_title(&untitled)), None);
        assert_eq!(*untitled.log.borrow(), ["update", "shown", "ask 500"]);
        // A tab gone meanwhile: the page is still asked.
        assert_eq!(run(real_title(&tab(None, Some("T")))).as_deref(), Some("T"));
    }

    #[test]
    fn a_page_that_cannot_answer_leaves_the_rest_of_the_wait_to_the_tabs_next_title() {
        let mut t = tab(Some(""), None);
        t.asking_ms = 320.0;
        t.next = Some("Late\ttitle");
        assert_eq!(run(real_title(&t)).as_deref(), Some("Late title"));
        assert_eq!(*t.log.borrow(), ["update", "shown", "ask 500", "next 180"]);
        t.asking_ms = 900.0;
        t.clock.set(0.0);
        t.log.borrow_mut().clear();
        t.next = None;
        assert_eq!(run(real_title(&t)), None);
        assert_eq!(t.log.borrow().last().unwrap(), "next 0");
    }

    #[test]
    fn a_long_title_is_capped_as_answers_cap_titles() {
        let long: &'static str = "t".repeat(MAX_TITLE_CHARS + 50).leak();
        let title = run(real_title(&tab(Some(long), None))).unwrap();
        assert!(
            title.chars().count() <= MAX_TITLE_CHARS + 1,
            "{}",
            title.len()
        );
    }
}
