//! `firefox_screenshot`.

use serde::{Deserialize, Serialize};

use super::*;

// Screenshot presets: JPEG quality and scale for what the picture is for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Purpose {
    QuickGlance,
    #[default]
    ReadText,
    InspectUi,
    FullDetail,
}

impl Purpose {
    /// (quality, scale).
    pub fn preset(self) -> (u8, f64) {
        match self {
            Self::QuickGlance => (30, 0.25),
            Self::ReadText => (60, 0.5),
            Self::InspectUi => (80, 0.75),
            Self::FullDetail => (95, 1.0),
        }
    }
}

// Image format of a screenshot.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum ImageFormat {
    #[default]
    Jpeg,
    Png,
}

fn yes() -> bool {
    true
}

element_args! {
    /// Arguments of `firefox_screenshot`.
    pub struct ScreenshotArgs("Only this element.", optional) {
        /// quick-glance 30%/0.25, read-text 60%/0.5, inspect-ui 80%/0.75, full-detail 95%/1.
        #[serde(default)]
        pub purpose: Purpose,
        /// 1-100, overrides purpose.
        pub quality: Option<u8>,
        /// 0.1-1, overrides purpose.
        pub scale: Option<f64>,
        #[serde(default)]
        pub format: ImageFormat,
        /// Max ms to wait for the page to settle (10000).
        pub max_wait: Option<u32>,
        /// Wait for images and fonts.
        #[serde(default = "yes")]
        pub wait_for_images: bool,
        /// Capture at once.
        #[serde(default)]
        pub skip_readiness: bool,
        /// Number up to 30 controls; returns number → ref.
        #[serde(default)]
        pub annotate: bool,
        /// Whole page, not just the view.
        #[serde(default)]
        pub full_page: bool,
        /// Write to this file instead (in an allowed folder).
        pub save_path: Option<String>,
        /// Replace a file at savePath.
        #[serde(default)]
        pub overwrite: bool,
        /// Let the browser encode the JPEG instead of our Rust pipeline (for the benchmark's
        /// side-by-side comparison; no readiness, badges or budget). Not an MCP argument.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        #[cfg_attr(feature = "schema", schemars(skip))]
        pub browser_encoder: bool,
    }
}

impl ScreenshotArgs {
    /// (quality, scale) after the purpose and any override.
    pub fn quality_and_scale(&self) -> (u8, f64) {
        let (q, s) = self.purpose.preset();
        (self.quality.unwrap_or(q), self.scale.unwrap_or(s))
    }
}

impl Validate for ScreenshotArgs {
    fn validate(&self) -> Result<(), Invalid> {
        if let Some(q) = self.quality {
            validate::within("quality", q.into(), 1..=100)?;
        }
        refuse_if(
            self.scale.is_some_and(|s| !(0.1..=1.0).contains(&s)),
            "scale",
            "must be between 0.1 and 1",
        )?;
        refuse_if(
            self.max_wait.is_some_and(|w| w > 60_000),
            "maxWait",
            "must be at most 60000 ms",
        )?;
        refuse_if(
            self.target.is_some() && self.full_page,
            "fullPage",
            "give fullPage or an element, not both",
        )?;
        refuse_if(
            self.save_path.as_deref() == Some(""),
            "savePath",
            "is empty",
        )
    }
}
