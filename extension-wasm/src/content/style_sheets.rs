//! The page's style sheets as [`crate::style_rules`] reads them: the CSS object model.

use js_sys::Reflect;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CssRule, CssRuleList, CssStyleDeclaration, CssStyleSheet};

use crate::style_rules::Sheets;

/// The document's style sheets.
pub struct PageSheets;

fn read(rule: &CssRule, property: &str) -> Option<JsValue> {
    Reflect::get(rule, &property.into())
        .ok()
        .filter(|v| !v.is_undefined() && !v.is_null())
}

impl Sheets for PageSheets {
    type List = CssRuleList;
    type Rule = CssRule;

    fn sheets(&self) -> Vec<Option<CssRuleList>> {
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
            return Vec::new();
        };
        let sheets = doc.style_sheets();
        (0..sheets.length())
            .filter_map(|i| sheets.item(i)?.dyn_into::<CssStyleSheet>().ok())
            .map(|sheet| sheet.css_rules().ok())
            .collect()
    }

    fn len(&self, list: &CssRuleList) -> u32 {
        list.length()
    }

    fn rules<'a>(&'a self, list: &'a CssRuleList) -> impl Iterator<Item = CssRule> + 'a {
        (0..list.length()).filter_map(|i| list.item(i))
    }

    fn selector(&self, rule: &CssRule) -> Option<String> {
        read(rule, "selectorText")?.as_string()
    }

    fn nested(&self, rule: &CssRule) -> Option<CssRuleList> {
        read(rule, "cssRules")?.dyn_into().ok()
    }

    fn imported(&self, rule: &CssRule) -> Option<Option<CssRuleList>> {
        let sheet = read(rule, "styleSheet")?.dyn_into::<CssStyleSheet>().ok()?;
        Some(sheet.css_rules().ok())
    }

    fn media(&self, rule: &CssRule) -> Option<String> {
        let media = read(rule, "media")?;
        let text = Reflect::get(&media, &"mediaText".into())
            .ok()?
            .as_string()?;
        (!text.trim().is_empty()).then_some(text)
    }

    fn text(&self, rule: &CssRule) -> String {
        rule.css_text()
    }

    fn content(&self, rule: &CssRule) -> String {
        read(rule, "style")
            .and_then(|style| style.dyn_into::<CssStyleDeclaration>().ok())
            .and_then(|style| style.get_property_value("content").ok())
            .unwrap_or_default()
    }

    fn media_matches(&self, condition: &str) -> bool {
        web_sys::window()
            .and_then(|w| w.match_media(condition).ok().flatten())
            .is_none_or(|m| m.matches())
    }
}
