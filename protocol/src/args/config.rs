//! Settings: the allowlist and consent switches, viewport, window size, private mode.

use serde::{Deserialize, Serialize};

use super::*;

args_struct! {
    /// Arguments of `firefox_set_config`.
    pub struct SetConfigArgs {
        /// Domains your tabs may load (example.com includes its subdomains; *.example.com only them), within the user's list; [] = the user's.
        pub allowed_domains: Option<Vec<String>>,
        /// Dismiss cookie banners after each page load.
        pub handle_consent: Option<bool>,
    }
}

tab_args! {
    /// Arguments of `firefox_set_viewport`.
    pub struct ViewportArgs {
        /// iphone-se, iphone-14, iphone-14-pro-max, pixel-7, galaxy-s23, ipad-mini, ipad-air, ipad-pro, laptop, desktop.
        pub device: Option<String>,
        pub width: Option<u32>,
        pub height: Option<u32>,
    }
}

/// Viewport presets (Claudezilla's), CSS pixels.
pub const DEVICES: &[(&str, u32, u32)] = &[
    ("iphone-se", 375, 667),
    ("iphone-14", 390, 844),
    ("iphone-14-pro-max", 430, 932),
    ("pixel-7", 412, 915),
    ("galaxy-s23", 360, 780),
    ("ipad-mini", 768, 1024),
    ("ipad-air", 820, 1180),
    ("ipad-pro", 1024, 1366),
    ("laptop", 1366, 768),
    ("desktop", 1920, 1080),
];

impl ViewportArgs {
    /// The inner size asked for.
    pub fn size(&self) -> Result<(u32, u32), Invalid> {
        match (&self.device, self.width, self.height) {
            (Some(d), None, None) => DEVICES
                .iter()
                .find(|(n, ..)| n == d)
                .map(|(_, w, h)| (*w, *h))
                .ok_or_else(|| {
                    let names: Vec<&str> = DEVICES.iter().map(|(n, ..)| *n).collect();
                    Invalid::new(
                        "device",
                        format!("{d:?} is not one of {}", names.join(", ")),
                    )
                }),
            (None, Some(w), Some(h)) if (200..=4000).contains(&w) && (200..=4000).contains(&h) => {
                Ok((w, h))
            }
            (None, Some(_), Some(_)) => {
                Err(Invalid::new("width", "width and height must be 200-4000"))
            }
            _ => Err(Invalid::new("device", "give a device, or width and height")),
        }
    }
}

args_struct! {
    /// Arguments of `firefox_resize_window`.
    pub struct ResizeArgs {
        pub width: u32,
        pub height: u32,
    }
}

args_struct! {
    /// Arguments of `firefox_set_private_mode`.
    pub struct PrivateModeArgs {
        /// Open your next tabs in a private window.
        pub enabled: bool,
    }
}

impl Validate for SetConfigArgs {
    fn validate(&self) -> Result<(), Invalid> {
        for d in self.allowed_domains.iter().flatten() {
            refuse_if(
                !crate::validate::domain_pattern(d),
                "allowedDomains",
                format!("{d:?} is not a domain (example.com or *.example.com)"),
            )?;
        }
        Ok(())
    }
}

impl Validate for ResizeArgs {
    fn validate(&self) -> Result<(), Invalid> {
        refuse_if(
            !(200..=8000).contains(&self.width) || !(200..=8000).contains(&self.height),
            "width",
            "width and height must be 200-8000",
        )
    }
}

impl Validate for ViewportArgs {
    fn validate(&self) -> Result<(), Invalid> {
        self.size().map(drop)
    }
}

/// Nothing to check beyond the types.
impl Validate for PrivateModeArgs {}
