//! Reading a page: text, waits, page state, snapshots.

use serde::{Deserialize, Serialize};

use super::*;

// How `firefox_get_content` renders the page.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum ContentFormat {
    #[default]
    Text,
    Markdown,
    Html,
}

tab_args! {
    /// Arguments of `firefox_get_content`.
    pub struct GetContentArgs {
        /// CSS selector of the part to read; the whole page when absent.
        pub selector: Option<Selector>,
        /// Cut the answer after this many characters (default 50000).
        #[serde(default = "default_max_length")]
        pub max_length: u32,
        /// text (default), markdown (headings, links, lists, tables) or html.
        #[serde(default)]
        pub format: ContentFormat,
        /// Same as format: "html" (Claudezilla's name).
        #[serde(default)]
        pub include_html: bool,
    }
}

impl GetContentArgs {
    pub fn effective_format(&self) -> ContentFormat {
        if self.include_html {
            ContentFormat::Html
        } else {
            self.format
        }
    }
}

tab_args! {
    /// Arguments of `firefox_wait_for`.
    pub struct WaitForArgs {
        /// Wait until an element matches this CSS selector.
        pub selector: Option<Selector>,
        /// Wait until the page's text contains this.
        pub text: Option<String>,
        /// Wait until the tab's URL matches this glob (* within a part, ** anything).
        pub url: Option<String>,
    }
}

tab_args! {
    /// Arguments of `firefox_get_page_state`.
    pub struct PageStateArgs {
        #[serde(default = "d30")]
        pub max_headings: u32,
        #[serde(default = "d50")]
        pub max_links: u32,
        #[serde(default = "d30")]
        pub max_buttons: u32,
        #[serde(default = "d30")]
        pub max_inputs: u32,
        #[serde(default = "d20")]
        pub max_images: u32,
    }
}

/// Longest text or pattern `firefox_find` looks for.
pub const MAX_FIND_NEEDLE: usize = 500;
/// Most matches one `firefox_find` answer lists.
pub const MAX_FIND_LIMIT: u32 = 200;

tab_args! {
    /// Arguments of `firefox_find`.
    pub struct FindArgs {
        /// Text to find (any case).
        pub text: Option<String>,
        /// Or a regular expression (Rust regex syntax; (?i) for any case).
        pub pattern: Option<String>,
        /// Or elements by ARIA role (button, link, heading, row…), as Playwright's getByRole.
        pub role: Option<String>,
        /// With role: only this accessible name (whole).
        pub name: Option<String>,
        /// Most matches listed (default 20); the rest are counted.
        #[serde(default = "d20")]
        pub limit: u32,
    }
}

tab_args! {
    /// Arguments of `firefox_performance`.
    pub struct PerformanceArgs {
        /// Reload first and measure the fresh load, the tab shown while it loads.
        #[serde(default)]
        pub reload: bool,
    }
}

impl Validate for PerformanceArgs {}

/// A set of axe-core rules, named by the tag axe gives them (`firefox_audit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum RuleSet {
    #[serde(rename = "wcag2a")]
    Wcag2a,
    #[serde(rename = "wcag2aa")]
    Wcag2aa,
    #[serde(rename = "wcag21a")]
    Wcag21a,
    #[serde(rename = "wcag21aa")]
    Wcag21aa,
    #[serde(rename = "wcag22aa")]
    Wcag22aa,
    #[serde(rename = "best-practice")]
    BestPractice,
}

impl RuleSet {
    /// The tag axe-core's rules carry for this set.
    pub fn tag(self) -> &'static str {
        match self {
            Self::Wcag2a => "wcag2a",
            Self::Wcag2aa => "wcag2aa",
            Self::Wcag21a => "wcag21a",
            Self::Wcag21aa => "wcag21aa",
            Self::Wcag22aa => "wcag22aa",
            Self::BestPractice => "best-practice",
        }
    }
}

/// Most elements one `firefox_audit` lists for each rule (the rest are counted).
pub const MAX_AUDIT_PER_RULE: u32 = 100;

tab_args! {
    /// Arguments of `firefox_audit`.
    pub struct AuditArgs {
        /// Only these rule sets (default: all).
        #[serde(default)]
        pub rules: Vec<RuleSet>,
        /// Elements listed per rule (default 5); the rest are counted.
        #[serde(default = "d5")]
        pub per_rule: u32,
    }
}

impl Validate for AuditArgs {
    fn validate(&self) -> Result<(), Invalid> {
        validate::within("perRule", self.per_rule, 1..=MAX_AUDIT_PER_RULE)
    }
}

/// Longest role name `firefox_find` takes (ARIA's longest is 16 characters).
const MAX_ROLE: usize = 40;

/// What `firefox_find` looks for: words in the page's text, or elements by role.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum Needle {
    Words(Words),
    /// An ARIA role (lower case, as written; the page's frame knows which roles exist), and
    /// the accessible name matched whole.
    Role {
        role: String,
        name: Option<String>,
    },
}

/// Words to find in the page's text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Words {
    Text(String),
    Pattern(String),
}

impl FindArgs {
    /// The text, the pattern or the role, exactly one (a name only with a role).
    pub fn needle(&self) -> Result<Needle, Invalid> {
        match (&self.text, &self.pattern, &self.role) {
            (Some(t), None, None) => Ok(Needle::Words(Words::Text(self.words("text", t)?))),
            (None, Some(p), None) => Ok(Needle::Words(Words::Pattern(self.words("pattern", p)?))),
            (None, None, Some(role)) => {
                let role = role.trim().to_ascii_lowercase();
                refuse_if(role.is_empty(), "role", "is empty")?;
                check_len("role", &role, MAX_ROLE)?;
                if let Some(name) = &self.name {
                    check_len("name", name, MAX_FIND_NEEDLE)?;
                }
                Ok(Needle::Role {
                    role,
                    name: self.name.clone(),
                })
            }
            (None, None, None) => Err(Invalid::new(
                "text",
                "give the text (or a pattern, or a role) to find",
            )),
            _ => Err(Invalid::new("pattern", "give one of text, pattern or role")),
        }
    }

    /// Words to find, checked: not empty, not too long, and no name (it goes with a role).
    fn words(&self, field: &'static str, words: &str) -> Result<String, Invalid> {
        refuse_if(self.name.is_some(), "name", "goes with role")?;
        refuse_if(words.trim().is_empty(), field, "is empty")?;
        check_len(field, words, MAX_FIND_NEEDLE)?;
        Ok(words.to_owned())
    }
}

impl Validate for FindArgs {
    fn validate(&self) -> Result<(), Invalid> {
        validate::within("limit", self.limit, 1..=MAX_FIND_LIMIT)?;
        self.needle().map(drop)
    }
}

fn default_snapshot_chars() -> u32 {
    DEFAULT_SNAPSHOT_CHARS
}

tab_args! {
    /// Arguments of `firefox_snapshot`.
    pub struct SnapshotArgs {
        /// Only interactive elements (and the headings and landmarks around them).
        #[serde(default)]
        pub interactive_only: bool,
        /// Cut the answer at this many characters (default 40000); a cut answer says how to get the rest.
        #[serde(default = "default_snapshot_chars")]
        pub max_chars: u32,
        /// Snapshot only the part under this CSS selector.
        pub selector: Option<Selector>,
    }
}

fn d5() -> u32 {
    5
}
fn d200() -> u32 {
    200
}

tab_args! {
    /// Arguments of `firefox_get_accessibility_snapshot` (Claudezilla's limits).
    pub struct AccessibilitySnapshotArgs {
        #[serde(default = "d5")]
        pub max_depth: u32,
        #[serde(default = "d200")]
        pub max_nodes: u32,
        /// Snapshot only the part under this CSS selector.
        pub selector: Option<Selector>,
    }
}

impl Validate for GetContentArgs {
    fn validate(&self) -> Result<(), Invalid> {
        validate::within("maxLength", self.max_length, 1..=MAX_MAX_LENGTH)
    }
}

impl Validate for WaitForArgs {
    fn validate(&self) -> Result<(), Invalid> {
        let given = [
            self.selector.is_some(),
            self.text.is_some(),
            self.url.is_some(),
        ];
        refuse_if(
            given.iter().filter(|g| **g).count() != 1,
            "selector",
            "give exactly one of selector, text or url",
        )?;
        for (field, value) in [("text", &self.text), ("url", &self.url)] {
            if let Some(v) = value {
                refuse_if(v.is_empty(), field, "is empty")?;
                check_len(field, v, 2_000)?;
            }
        }
        Ok(())
    }
}

impl Validate for SnapshotArgs {
    fn validate(&self) -> Result<(), Invalid> {
        validate::within("maxChars", self.max_chars, 100..=MAX_MAX_LENGTH)
    }
}

impl Validate for AccessibilitySnapshotArgs {
    fn validate(&self) -> Result<(), Invalid> {
        refuse_if(
            self.max_depth == 0 || self.max_nodes == 0 || self.max_nodes > 100_000,
            "maxNodes",
            "maxDepth and maxNodes must be positive (maxNodes ≤ 100000)",
        )
    }
}

/// Nothing to check beyond the types: the limits are counts.
impl Validate for PageStateArgs {}
