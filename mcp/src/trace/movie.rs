//! A trace as a moving picture: one frame per picture the trace took, its action's words in a
//! band beneath, each shown as long as the session took to its next action; an animated PNG
//! (APNG, written by the `png` crate) that any browser plays.

use super::Entry;
use super::glyphs;

/// Shortest and longest time a frame shows: a long pause is not worth watching through.
const MIN_SHOW_MS: u64 = 500;
const MAX_SHOW_MS: u64 = 4_000;
/// The last frame stays at least this long before the picture starts again.
const LAST_SHOW_MS: u64 = 2_000;
/// Pixels per dot of a glyph, and the band's margins.
const SCALE: usize = 2;
const PAD: usize = 6;
/// Lines of words under each picture.
const LINES: usize = 2;
const LINE_GAP: usize = 4;
/// Narrowest picture (its words must fit) and the largest side of one.
const MIN_WIDTH: usize = 320;
const MAX_SIDE: usize = 2_000;
const PAPER: [u8; 3] = [255, 255, 255];
const BAND: [u8; 3] = [32, 32, 40];
const INK: [u8; 3] = [255, 255, 255];

/// One frame: a picture, the words under it, how long it shows.
#[derive(Debug, Clone)]
pub struct Frame {
    /// RGB, `width` × `height`.
    pub rgb: Vec<u8>,
    pub width: usize,
    pub height: usize,
    pub words: [String; LINES],
    pub show_ms: u64,
}

/// The trace's pictures as frames, each shown until the session's next action (the last a
/// while longer); a picture that does not decode is left out.
pub fn frames(entries: &[Entry]) -> Vec<Frame> {
    let pictured: Vec<(usize, &Entry)> = entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.picture.is_some())
        .collect();
    let total = pictured.len();
    pictured
        .iter()
        .enumerate()
        .filter_map(|(n, (at, e))| {
            let (rgb, width, height) = decode(e.picture.as_deref()?)?;
            let until_next = entries
                .get(at + 1)
                .map_or(0, |next| next.at_ms.saturating_sub(e.at_ms));
            let mut show_ms = until_next.clamp(MIN_SHOW_MS, MAX_SHOW_MS);
            if n + 1 == total {
                show_ms = show_ms.max(LAST_SHOW_MS);
            }
            let tool = e.tool.strip_prefix("firefox_").unwrap_or(&e.tool);
            let words = [
                format!(
                    "{}/{}  +{:.1}S  {tool}",
                    at + 1,
                    entries.len(),
                    e.at_ms as f64 / 1000.0
                ),
                if e.target.is_empty() {
                    e.url.clone()
                } else {
                    e.target.clone()
                },
            ];
            Some(Frame {
                rgb,
                width,
                height,
                words,
                show_ms,
            })
        })
        .collect()
}

/// A base64 JPEG as RGB pixels and its size; None if it is not one, or is too large.
fn decode(base64: &str) -> Option<(Vec<u8>, usize, usize)> {
    use base64::Engine;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(base64)
        .ok()?;
    let mut decoder = jpeg_decoder::Decoder::new(bytes.as_slice());
    decoder.read_info().ok()?;
    let info = decoder.info()?;
    let (width, height) = (usize::from(info.width), usize::from(info.height));
    if width > MAX_SIDE || height > MAX_SIDE {
        return None;
    }
    let pixels = decoder.decode().ok()?;
    let rgb = match info.pixel_format {
        jpeg_decoder::PixelFormat::RGB24 => pixels,
        jpeg_decoder::PixelFormat::L8 => pixels.iter().flat_map(|&l| [l, l, l]).collect(),
        _ => return None,
    };
    (rgb.len() == width * height * 3).then_some((rgb, width, height))
}

/// The height of the band of words under each picture.
fn band_height() -> usize {
    2 * PAD + LINES * glyphs::HEIGHT * SCALE + (LINES - 1) * LINE_GAP
}

/// The frames as one animated PNG that plays forever: every frame on a canvas as wide and as
/// tall as the largest, its words in the band beneath.
pub fn apng(frames: &[Frame]) -> Result<Vec<u8>, png::EncodingError> {
    let width = frames
        .iter()
        .map(|f| f.width)
        .max()
        .unwrap_or(0)
        .max(MIN_WIDTH);
    let picture_height = frames.iter().map(|f| f.height).max().unwrap_or(0);
    let height = picture_height + band_height();
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width as u32, height as u32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_animated(frames.len().max(1) as u32, 0)?;
    let mut writer = encoder.write_header()?;
    for frame in frames {
        writer.set_frame_delay(frame.show_ms as u16, 1_000)?;
        writer.write_image_data(&canvas(frame, width, picture_height))?;
    }
    writer.finish()?;
    Ok(out)
}

/// One frame drawn: the picture at the top left on white, the band of words beneath.
fn canvas(frame: &Frame, width: usize, picture_height: usize) -> Vec<u8> {
    let height = picture_height + band_height();
    let mut rgb: Vec<u8> = std::iter::repeat_n(PAPER, width * height)
        .flatten()
        .collect();
    for y in 0..frame.height {
        let from = y * frame.width * 3;
        let to = y * width * 3;
        rgb[to..to + frame.width * 3].copy_from_slice(&frame.rgb[from..from + frame.width * 3]);
    }
    for y in picture_height..height {
        for x in 0..width {
            rgb[(y * width + x) * 3..][..3].copy_from_slice(&BAND);
        }
    }
    let fits = (width - 2 * PAD) / (glyphs::ADVANCE * SCALE);
    for (line, words) in frame.words.iter().enumerate() {
        let top = picture_height + PAD + line * (glyphs::HEIGHT * SCALE + LINE_GAP);
        for (k, c) in words.chars().take(fits).enumerate() {
            let left = PAD + k * glyphs::ADVANCE * SCALE;
            draw(&mut rgb, width, c, left, top);
        }
    }
    rgb
}

/// Draws the glyph of `c` with its top left at (`left`, `top`).
fn draw(rgb: &mut [u8], width: usize, c: char, left: usize, top: usize) {
    for gy in 0..glyphs::HEIGHT {
        for gx in 0..glyphs::WIDTH {
            if !glyphs::dot(c, gx, gy) {
                continue;
            }
            for dy in 0..SCALE {
                for dx in 0..SCALE {
                    let (x, y) = (left + gx * SCALE + dx, top + gy * SCALE + dy);
                    rgb[(y * width + x) * 3..][..3].copy_from_slice(&INK);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(width: usize, height: usize, colour: [u8; 3], words: &str, show_ms: u64) -> Frame {
        Frame {
            rgb: std::iter::repeat_n(colour, width * height)
                .flatten()
                .collect(),
            width,
            height,
            words: [words.into(), String::new()],
            show_ms,
        }
    }

    /// Each frame of an APNG, decoded: its delay in ms and its pixels.
    fn played(bytes: &[u8]) -> (u32, u32, Vec<(u64, Vec<u8>)>) {
        let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
            .read_info()
            .unwrap();
        let info = reader.info();
        let (width, height) = (info.width, info.height);
        let count = info.animation_control().unwrap().num_frames;
        let mut frames = Vec::new();
        for _ in 0..count {
            let mut buf = vec![0; reader.output_buffer_size().unwrap()];
            reader.next_frame(&mut buf).unwrap();
            let control = reader.info().frame_control().unwrap();
            let ms = u64::from(control.delay_num) * 1_000 / u64::from(control.delay_den);
            frames.push((ms, buf));
        }
        (width, height, frames)
    }

    #[test]
    fn frames_play_in_order_for_their_time_with_their_words_beneath() {
        let red = frame(400, 100, [200, 0, 0], "1/2 CLICK", 1_200);
        let blue = frame(360, 80, [0, 0, 200], "2/2 TYPE", 2_000);
        let bytes = apng(&[red, blue]).unwrap();
        let (width, height, frames) = played(&bytes);
        assert_eq!(
            (width as usize, height as usize),
            (400, 100 + band_height())
        );
        let ms: Vec<u64> = frames.iter().map(|f| f.0).collect();
        assert_eq!(ms, [1_200, 2_000]);
        let at = |pixels: &[u8], x: usize, y: usize| -> [u8; 3] {
            pixels[(y * 400 + x) * 3..][..3].try_into().unwrap()
        };
        assert_eq!(at(&frames[0].1, 10, 10), [200, 0, 0]);
        // The smaller picture sits at the top left, on white.
        assert_eq!(at(&frames[1].1, 10, 10), [0, 0, 200]);
        assert_eq!(at(&frames[1].1, 390, 90), PAPER);
        // The first glyph's top row in the band: "1" has one dot in the middle of its row.
        let top = 100 + PAD;
        assert_eq!(at(&frames[0].1, PAD + 2 * SCALE, top), INK);
        assert_eq!(at(&frames[0].1, PAD, top), BAND);
    }

    #[test]
    fn words_past_the_width_are_cut_and_pictures_are_decoded_or_left_out() {
        let long = frame(320, 10, [0, 0, 0], &"W".repeat(500), 500);
        let bytes = apng(&[long]).unwrap();
        assert_eq!(
            played(&bytes).2.len(),
            1,
            "drawn within the canvas, no panic"
        );
        assert!(decode("not base64!").is_none());
        assert!(decode("aGVsbG8=").is_none(), "not a JPEG");
    }
}
