//! A screenshot's pure policy: what is captured, how it is marked, and how it is encoded.
//!
//! The rectangle and scale come from the page's own measurements — which a hostile page
//! controls. An element 20,000 px wide and a million tall must not become a capture the
//! background's wasm cannot hold: the rectangle is cut to the largest sides a capture may
//! have, and the scale lowered until the pixels fit, with a note for each. The encoded picture
//! stays within the byte budget of where it goes (an answer or a file), stepping down with a
//! note rather than failing.

use claudezilla_protocol::args::ImageFormat;
use claudezilla_protocol::reply::{ImageMime, PageMetrics};
use claudezilla_protocol::{ErrorBody, ErrorCode};

use crate::pixels::{self, Image, PixelError};

/// Largest image returned in an answer (its base64 stays well under the 1 MiB that MCP
/// clients and our own channels handle comfortably).
pub const ANSWER_BUDGET: usize = 700_000;
/// Largest image written to disk with `savePath`: what one reply frame can carry.
pub const FILE_BUDGET: usize = claudezilla_protocol::framing::MAX_FILE_IN_REPLY;
const _: () = assert!(
    FILE_BUDGET >= ANSWER_BUDGET,
    "a file may hold what an answer can"
);

/// The byte budget of a picture answered, or saved to a file.
pub fn budget(to_file: bool) -> usize {
    if to_file { FILE_BUDGET } else { ANSWER_BUDGET }
}

/// A picture encoded within its budget.
#[derive(Debug)]
pub struct Encoded {
    pub bytes: Vec<u8>,
    pub mime: ImageMime,
    pub quality: u8,
    /// How much the picture was shrunk to fit (1: not at all).
    pub shrink: f64,
}

/// Longest side of a capture in CSS pixels (full pages are cut here, with a note).
pub const MAX_SIDE: f64 = 16_000.0;
/// Most pixels decoded for one picture (RGBA: 4 bytes each, so ~100 MB at most in wasm).
pub const MAX_PIXELS: f64 = 25_000_000.0;

/// The rectangle (document CSS pixels: x, y, width, height) and the scale to capture it at.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub region: [f64; 4],
    pub scale: f64,
    pub notes: Vec<String>,
}

/// Plans the capture of an element, the whole page or the viewport at `scale`.
pub fn plan(m: &PageMetrics, full_page: bool, scale: f64) -> Plan {
    let mut notes = Vec::new();
    let wanted = match m.element {
        Some(el) => el,
        None if full_page => [0.0, 0.0, m.page[0].max(m.viewport[0]), m.page[1]],
        None => [m.scroll[0], m.scroll[1], m.viewport[0], m.viewport[1]],
    };
    // Non-finite or negative numbers from the page count as nothing.
    let sane = |v: f64| if v.is_finite() { v } else { 0.0 };
    let [x, y, w, h] = wanted.map(sane);
    let (x, y) = (x.max(0.0), y.max(0.0));
    let (mut w, mut h) = (w.max(1.0), h.max(1.0));
    if w > MAX_SIDE || h > MAX_SIDE {
        notes.push(format!(
            "cut to {MAX_SIDE} px per side (the {} was {} × {} px)",
            if m.element.is_some() {
                "element"
            } else {
                "page"
            },
            w.round(),
            h.round()
        ));
        w = w.min(MAX_SIDE);
        h = h.min(MAX_SIDE);
    }
    let mut scale = if scale.is_finite() && scale > 0.0 {
        scale
    } else {
        1.0
    };
    let pixels = w * h * scale * scale;
    if pixels > MAX_PIXELS {
        scale = (MAX_PIXELS / (w * h)).sqrt();
        notes.push(format!(
            "scaled to {scale:.2} to stay within {} million pixels",
            MAX_PIXELS / 1e6
        ));
    }
    Plan {
        region: [x, y, w, h].map(f64::round),
        scale,
        notes,
    }
}

/// Numbers the elements on the picture; returns number → "ref name".
pub fn annotate(
    image: &mut Image,
    m: &PageMetrics,
    region: [f64; 4],
    scale: f64,
) -> Vec<(u32, String)> {
    let mut marks = Vec::new();
    for (name, b) in &m.marks {
        let (x, y) = ((b[0] - region[0]) * scale, (b[1] - region[1]) * scale);
        if x < 0.0 || y < 0.0 || x >= f64::from(image.width) || y >= f64::from(image.height) {
            continue;
        }
        let number = marks.len() as u32 + 1;
        pixels::draw_badge(image, x as u32, y as u32, number);
        marks.push((number, name.clone()));
    }
    marks
}

/// JPEG within the budget (or PNG when asked for and small enough); notes any step-down.
pub fn encode(
    image: &Image,
    format: ImageFormat,
    quality: u8,
    budget: usize,
    notes: &mut Vec<String>,
) -> Result<Encoded, PixelError> {
    if format == ImageFormat::Png {
        let png = pixels::encode_png(image)?;
        if png.len() <= budget {
            return Ok(Encoded {
                bytes: png,
                mime: ImageMime::Png,
                quality: 100,
                shrink: 1.0,
            });
        }
        notes.push(format!(
            "PNG was {} KB, over the {} KB budget: sent as JPEG",
            png.len() / 1000,
            budget / 1000
        ));
    }
    let fitted = pixels::fit(image, quality, budget)?;
    if fitted.quality != quality || fitted.shrink < 1.0 {
        notes.push(format!(
            "stepped down to quality {} and {:.0} % of the size to fit {} KB",
            fitted.quality,
            fitted.shrink * 100.0,
            budget / 1000
        ));
    }
    Ok(Encoded {
        bytes: fitted.jpeg,
        mime: ImageMime::Jpeg,
        quality: fitted.quality,
        shrink: fitted.shrink,
    })
}

/// Full pages are captured in strips of at most this height (CSS pixels) and stitched.
const PIECE_HEIGHT: f64 = 4_000.0;

/// The strips a region of `height` CSS pixels is captured in: each its top and height.
pub fn strips(height: f64) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    let mut top = 0.0;
    while top < height {
        let piece = PIECE_HEIGHT.min(height - top);
        out.push((top, piece));
        top += piece;
    }
    out
}

/// The PNG bytes of a capture the browser gave as a data URL.
pub fn png_of(data_url: &str) -> Result<Vec<u8>, ErrorBody> {
    use base64::Engine;
    let data = data_url
        .strip_prefix("data:image/png;base64,")
        .ok_or_else(|| ErrorBody::new(ErrorCode::Browser, "the capture is not a PNG data URL"))?;
    base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(|e| {
            ErrorBody::new(
                ErrorCode::Browser,
                format!("the capture is not valid base64: {e}"),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metrics(element: Option<[f64; 4]>, page: [f64; 2]) -> PageMetrics {
        PageMetrics {
            viewport: [1280.0, 714.0],
            scroll: [0.0, 100.0],
            page,
            element,
            marks: Vec::new(),
        }
    }

    fn pixels(p: &Plan) -> f64 {
        p.region[2] * p.region[3] * p.scale * p.scale
    }

    #[test]
    fn the_viewport_element_and_page_are_captured_as_asked() {
        let m = metrics(None, [1280.0, 5_000.0]);
        assert_eq!(plan(&m, false, 0.5).region, [0.0, 100.0, 1280.0, 714.0]);
        assert_eq!(plan(&m, true, 0.5).region, [0.0, 0.0, 1280.0, 5_000.0]);
        let el = metrics(Some([10.4, 20.6, 100.0, 50.0]), [1280.0, 5_000.0]);
        let p = plan(&el, false, 1.0);
        assert_eq!((p.region, p.scale), ([10.0, 21.0, 100.0, 50.0], 1.0));
        assert!(p.notes.is_empty());
    }

    #[test]
    fn a_huge_element_is_cut_and_scaled_to_fit() {
        let m = metrics(Some([0.0, 0.0, 20_000.0, 1e6]), [20_000.0, 1e6]);
        let p = plan(&m, false, 1.0);
        assert_eq!(&p.region[2..], &[MAX_SIDE, MAX_SIDE]);
        assert!(pixels(&p) <= MAX_PIXELS * 1.0001, "{}", pixels(&p));
        assert_eq!(p.notes.len(), 2, "{:?}", p.notes);
    }

    /// Noise compresses badly, so a budget can force every step-down.
    fn noise(w: u32, h: u32) -> Image {
        let mut image = Image::new(w, h, [0, 0, 0, 255]);
        let mut seed = 0x2545_f491_u32;
        for byte in image.rgba.iter_mut() {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            *byte = seed as u8;
        }
        image
    }

    #[test]
    fn a_small_png_stays_png_and_a_big_one_becomes_jpeg_with_a_note() {
        let flat = Image::new(64, 64, [200, 10, 10, 255]);
        let mut notes = Vec::new();
        let e = encode(&flat, ImageFormat::Png, 80, ANSWER_BUDGET, &mut notes).unwrap();
        assert_eq!((e.mime, e.quality, e.shrink), (ImageMime::Png, 100, 1.0));
        assert!(notes.is_empty());
        assert_eq!(pixels::decode_png(&e.bytes).unwrap().width, 64);

        let e = encode(&noise(256, 256), ImageFormat::Png, 80, 40_000, &mut notes).unwrap();
        assert_eq!(e.mime, ImageMime::Jpeg);
        assert!(e.bytes.len() <= 40_000, "{}", e.bytes.len());
        assert!(notes[0].starts_with("PNG was"), "{notes:?}");
    }

    #[test]
    fn a_jpeg_over_budget_steps_down_and_says_so() {
        let image = noise(400, 300);
        let mut notes = Vec::new();
        let e = encode(&image, ImageFormat::Jpeg, 90, 20_000, &mut notes).unwrap();
        assert_eq!(e.mime, ImageMime::Jpeg);
        assert!(e.bytes.len() <= 20_000, "{}", e.bytes.len());
        assert!(e.quality < 90 || e.shrink < 1.0);
        assert!(notes[0].starts_with("stepped down"), "{notes:?}");

        let mut quiet = Vec::new();
        let e = encode(&image, ImageFormat::Jpeg, 90, ANSWER_BUDGET, &mut quiet).unwrap();
        assert_eq!((e.quality, e.shrink), (90, 1.0));
        assert!(quiet.is_empty(), "{quiet:?}");
    }

    #[test]
    fn only_marks_inside_the_picture_are_numbered_in_order() {
        let mut m = metrics(None, [1280.0, 5_000.0]);
        m.marks = vec![
            ("e1 above".into(), [10.0, 50.0, 10.0, 10.0]),
            ("e2 inside".into(), [20.0, 150.0, 10.0, 10.0]),
            ("e3 right".into(), [2_000.0, 150.0, 10.0, 10.0]),
            ("e4 inside".into(), [600.0, 700.0, 10.0, 10.0]),
        ];
        let mut image = Image::new(640, 357, [255, 255, 255, 255]);
        let marks = annotate(&mut image, &m, [0.0, 100.0, 1280.0, 714.0], 0.5);
        assert_eq!(
            marks,
            vec![(1, "e2 inside".into()), (2, "e4 inside".into())]
        );
        // The badge was drawn where the element is (scaled): the pixel is no longer white.
        assert_ne!(image.pixel(11, 26), [255, 255, 255, 255]);
    }

    #[test]
    fn the_budget_follows_where_the_picture_goes() {
        assert_eq!(budget(false), ANSWER_BUDGET);
        assert_eq!(budget(true), FILE_BUDGET);
    }

    #[test]
    fn hostile_numbers_never_make_a_bad_rectangle() {
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -1e12, 1e300] {
            let m = metrics(Some([bad, bad, bad, bad]), [bad, bad]);
            for full in [false, true] {
                let p = plan(&m, full, bad);
                assert!(p.region.iter().all(|v| v.is_finite() && *v >= 0.0), "{p:?}");
                assert!(p.region[2] >= 1.0 && p.region[3] >= 1.0);
                assert!(p.scale.is_finite() && p.scale > 0.0);
                assert!(pixels(&p) <= MAX_PIXELS * 1.0001);
            }
        }
    }

    #[test]
    fn a_tall_region_is_captured_in_strips() {
        assert_eq!(strips(900.0), [(0.0, 900.0)]);
        assert_eq!(
            strips(9_000.0),
            [(0.0, 4_000.0), (4_000.0, 4_000.0), (8_000.0, 1_000.0)]
        );
        assert!(strips(0.0).is_empty());
    }

    #[test]
    fn only_a_png_data_url_is_a_capture() {
        assert_eq!(
            png_of("data:image/png;base64,iVBORw==").unwrap(),
            [0x89, b'P', b'N', b'G']
        );
        let jpeg = png_of("data:image/jpeg;base64,/9j/").unwrap_err();
        assert_eq!(jpeg.message, "the capture is not a PNG data URL");
        assert!(
            png_of("data:image/png;base64,@@")
                .unwrap_err()
                .message
                .contains("base64")
        );
    }
}
