//! A tab and a window as the browser's `tabs` and `windows` APIs give them, the fields read;
//! a page's title cut as it arrives. Read by the glue (`web` re-exports them) and by
//! [`crate::tab_mark::restore`].

/// A `tabs.Tab`, the fields we read.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tab {
    pub id: u32,
    pub window_id: u32,
    #[serde(default)]
    pub url: String,
    /// Cut to a sane length as it arrives: a page sets its title, and answers repeat it.
    #[serde(default, deserialize_with = "short_title")]
    pub title: String,
    #[serde(default)]
    pub status: String,
    /// The active tab of its window.
    #[serde(default)]
    pub active: bool,
    /// The tab's group, where the browser has tab groups (-1: none).
    #[serde(default)]
    pub group_id: Option<i64>,
    /// The tab whose page opened this one (`window.open`, a `target=_blank` link).
    #[serde(default)]
    pub opener_tab_id: Option<u32>,
    #[serde(default)]
    pub incognito: bool,
    /// The tab's cookie jar: the default store, a container's, or the private one.
    #[serde(default)]
    pub cookie_store_id: Option<String>,
}

fn short_title<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let title = <String as serde::Deserialize>::deserialize(d)?;
    Ok(crate::a11y::clean(&title, crate::text::MAX_TITLE_CHARS))
}

/// A `windows.Window`, the fields we read.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct Window {
    pub id: u32,
    #[serde(default)]
    pub tabs: Vec<Tab>,
    /// Outer size, CSS pixels.
    #[serde(default)]
    pub width: u32,
    #[serde(default)]
    pub height: u32,
    #[serde(default)]
    pub incognito: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tab_is_read_with_its_title_cut_and_its_window_required() {
        let long = "t ".repeat(400);
        let json = serde_json::json!({"id": 2, "tabs": [
            {"id": 20, "windowId": 2, "title": long, "groupId": 3}
        ]});
        let window: Window = serde_json::from_value(json).unwrap();
        let title = crate::a11y::clean(&long, crate::text::MAX_TITLE_CHARS);
        assert_eq!(window.tabs[0].title, title);
        assert!(title.chars().count() < long.chars().count());
        assert_eq!(window.tabs[0].url, "");
        assert_eq!(window.tabs[0].group_id, Some(3));
        let without_window = serde_json::json!({"id": 2, "tabs": [{"id": 20}]});
        assert!(serde_json::from_value::<Window>(without_window).is_err());
    }
}
