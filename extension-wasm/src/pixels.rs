//! Pixels in Rust: decode the browser's PNG captures, crop, stitch, shrink, draw numbered badges
//! and encode JPEG, with a byte budget. Pure code, tested natively by decoding what it writes.

use std::fmt;

/// An RGBA image, 8 bits a channel, rows top to bottom.
#[derive(Clone, PartialEq)]
pub struct Image {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

impl fmt::Debug for Image {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Image({}×{})", self.width, self.height)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PixelError {
    #[error("the capture is not a readable PNG: {0}")]
    Png(String),
    #[error("cannot encode the JPEG: {0}")]
    Jpeg(String),
    #[error("the image is {0}×{1}, outside what JPEG can hold (1 to 65535 a side)")]
    Size(u32, u32),
}

impl Image {
    pub fn new(width: u32, height: u32, rgba: [u8; 4]) -> Self {
        let rgba = rgba.repeat((width * height) as usize);
        Self {
            width,
            height,
            rgba,
        }
    }

    fn at(&self, x: u32, y: u32) -> usize {
        ((y * self.width + x) * 4) as usize
    }

    pub fn pixel(&self, x: u32, y: u32) -> [u8; 4] {
        let i = self.at(x, y);
        [
            self.rgba[i],
            self.rgba[i + 1],
            self.rgba[i + 2],
            self.rgba[i + 3],
        ]
    }

    fn set(&mut self, x: u32, y: u32, c: [u8; 4]) {
        if x < self.width && y < self.height {
            let i = self.at(x, y);
            self.rgba[i..i + 4].copy_from_slice(&c);
        }
    }
}

/// Decodes a PNG into RGBA (RGB captures get an opaque alpha).
pub fn decode_png(bytes: &[u8]) -> Result<Image, PixelError> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder
        .read_info()
        .map_err(|e| PixelError::Png(e.to_string()))?;
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| PixelError::Png("image too large".into()))?;
    let mut buf = vec![0; size];
    let info = reader
        .next_frame(&mut buf)
        .map_err(|e| PixelError::Png(e.to_string()))?;
    buf.truncate(info.buffer_size());
    let rgba = match info.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::Rgb => buf
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        png::ColorType::GrayscaleAlpha => buf
            .chunks_exact(2)
            .flat_map(|p| [p[0], p[0], p[0], p[1]])
            .collect(),
        png::ColorType::Grayscale => buf.iter().flat_map(|g| [*g, *g, *g, 255]).collect(),
        png::ColorType::Indexed => return Err(PixelError::Png("unexpanded palette".into())),
    };
    Ok(Image {
        width: info.width,
        height: info.height,
        rgba,
    })
}

/// Encodes as PNG.
pub fn encode_png(image: &Image) -> Result<Vec<u8>, PixelError> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, image.width, image.height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder
        .write_header()
        .map_err(|e| PixelError::Png(e.to_string()))?;
    writer
        .write_image_data(&image.rgba)
        .map_err(|e| PixelError::Png(e.to_string()))?;
    writer
        .finish()
        .map_err(|e| PixelError::Png(e.to_string()))?;
    Ok(out)
}

/// Encodes as baseline JPEG at `quality` (1–100).
pub fn encode_jpeg(image: &Image, quality: u8) -> Result<Vec<u8>, PixelError> {
    let (w, h) = (image.width, image.height);
    let (Ok(w16), Ok(h16)) = (u16::try_from(w), u16::try_from(h)) else {
        return Err(PixelError::Size(w, h));
    };
    if w == 0 || h == 0 {
        return Err(PixelError::Size(w, h));
    }
    let mut out = Vec::new();
    jpeg_encoder::Encoder::new(&mut out, quality.clamp(1, 100))
        .encode(&image.rgba, w16, h16, jpeg_encoder::ColorType::Rgba)
        .map_err(|e| PixelError::Jpeg(e.to_string()))?;
    Ok(out)
}

/// Shrinks by `factor` (0 < factor ≤ 1) averaging every source pixel that falls in each target
/// pixel (an area filter: no aliasing on text).
pub fn downscale(image: &Image, factor: f64) -> Image {
    if factor >= 1.0 {
        return image.clone();
    }
    let w = ((image.width as f64 * factor).round() as u32).max(1);
    let h = ((image.height as f64 * factor).round() as u32).max(1);
    let mut out = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        let y0 = y * image.height / h;
        let y1 = ((y + 1) * image.height / h).max(y0 + 1);
        for x in 0..w {
            let x0 = x * image.width / w;
            let x1 = ((x + 1) * image.width / w).max(x0 + 1);
            let mut sum = [0u32; 4];
            for sy in y0..y1 {
                let row = image.at(x0, sy);
                for px in image.rgba[row..row + ((x1 - x0) * 4) as usize].chunks_exact(4) {
                    for c in 0..4 {
                        sum[c] += u32::from(px[c]);
                    }
                }
            }
            let n = (y1 - y0) * (x1 - x0);
            out.extend(sum.map(|s| ((s + n / 2) / n) as u8));
        }
    }
    Image {
        width: w,
        height: h,
        rgba: out,
    }
}

/// The part of `image` inside the rectangle (clamped to the image).
pub fn crop(image: &Image, x: u32, y: u32, width: u32, height: u32) -> Image {
    let x = x.min(image.width);
    let y = y.min(image.height);
    let w = width.min(image.width - x).max(1).min(image.width.max(1));
    let h = height.min(image.height - y).max(1).min(image.height.max(1));
    let mut rgba = Vec::with_capacity((w * h * 4) as usize);
    for row in y..(y + h).min(image.height) {
        let start = image.at(x, row);
        rgba.extend_from_slice(&image.rgba[start..start + (w.min(image.width - x) * 4) as usize]);
    }
    let height = (rgba.len() / (w as usize * 4)) as u32;
    Image {
        width: w,
        height,
        rgba,
    }
}

/// Pieces of one page, top to bottom, into one image (as wide as the widest piece).
pub fn stitch(pieces: &[Image]) -> Image {
    let width = pieces.iter().map(|p| p.width).max().unwrap_or(0);
    let height = pieces.iter().map(|p| p.height).sum();
    let mut out = Image::new(width, height, [255, 255, 255, 255]);
    let mut top = 0;
    for p in pieces {
        for row in 0..p.height {
            let from = p.at(0, row);
            let to = out.at(0, top + row);
            out.rgba[to..to + (p.width * 4) as usize]
                .copy_from_slice(&p.rgba[from..from + (p.width * 4) as usize]);
        }
        top += p.height;
    }
    out
}

/// Digits 0–9 as 3×5 bitmaps, a row per three bits.
const DIGITS: [[u8; 5]; 10] = [
    [0b111, 0b101, 0b101, 0b101, 0b111],
    [0b010, 0b110, 0b010, 0b010, 0b111],
    [0b111, 0b001, 0b111, 0b100, 0b111],
    [0b111, 0b001, 0b111, 0b001, 0b111],
    [0b101, 0b101, 0b111, 0b001, 0b001],
    [0b111, 0b100, 0b111, 0b001, 0b111],
    [0b111, 0b100, 0b111, 0b101, 0b111],
    [0b111, 0b001, 0b010, 0b010, 0b010],
    [0b111, 0b101, 0b111, 0b101, 0b111],
    [0b111, 0b101, 0b111, 0b001, 0b111],
];

pub const BADGE_COLOUR: [u8; 4] = [220, 20, 60, 255];
const PIXEL: u32 = 2;

/// Draws a numbered badge (white digits on crimson) with its top-left corner at (x, y).
pub fn draw_badge(image: &mut Image, x: u32, y: u32, number: u32) {
    let digits: Vec<usize> = number
        .to_string()
        .bytes()
        .map(|b| usize::from(b - b'0'))
        .collect();
    let w = digits.len() as u32 * 4 * PIXEL + 2 * PIXEL;
    let h = 7 * PIXEL;
    for by in 0..h {
        for bx in 0..w {
            image.set(x + bx, y + by, BADGE_COLOUR);
        }
    }
    for (i, d) in digits.iter().enumerate() {
        for (row, bits) in DIGITS[*d].iter().enumerate() {
            for col in 0..3u32 {
                if bits & (0b100 >> col) != 0 {
                    for dy in 0..PIXEL {
                        for dx in 0..PIXEL {
                            let px = x + PIXEL + (i as u32 * 4 + col) * PIXEL + dx;
                            let py = y + PIXEL + row as u32 * PIXEL + dy;
                            image.set(px, py, [255, 255, 255, 255]);
                        }
                    }
                }
            }
        }
    }
}

/// The JPEG, and what it took to fit the budget.
#[derive(Debug, Clone, PartialEq)]
pub struct Fitted {
    pub jpeg: Vec<u8>,
    pub width: u32,
    pub height: u32,
    pub quality: u8,
    /// 1.0 unless the image had to shrink.
    pub shrink: f64,
}

/// Encodes at `quality`; while the result exceeds `max_bytes`, lowers the quality (to 20),
/// then shrinks the image by a quarter at a time.
pub fn fit(image: &Image, quality: u8, max_bytes: usize) -> Result<Fitted, PixelError> {
    let mut q = quality;
    let mut shrink = 1.0;
    let mut current = image.clone();
    loop {
        let jpeg = encode_jpeg(&current, q)?;
        let small_enough = current.width <= 16 || current.height <= 16;
        if jpeg.len() <= max_bytes || small_enough {
            return Ok(Fitted {
                jpeg,
                width: current.width,
                height: current.height,
                quality: q,
                shrink,
            });
        }
        if q > 20 {
            q = q.saturating_sub(15).max(20);
        } else {
            shrink *= 0.75;
            current = downscale(image, shrink);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(jpeg: &[u8]) -> (u32, u32, Vec<u8>) {
        let mut d = jpeg_decoder::Decoder::new(jpeg);
        let px = d.decode().unwrap();
        let info = d.info().unwrap();
        (u32::from(info.width), u32::from(info.height), px)
    }

    fn close(a: &[u8], b: &[u8], tolerance: u8) -> bool {
        a.iter().zip(b).all(|(x, y)| x.abs_diff(*y) <= tolerance)
    }

    fn two_halves(w: u32, h: u32) -> Image {
        let mut img = Image::new(w, h, [200, 30, 30, 255]);
        for y in h / 2..h {
            for x in 0..w {
                img.set(x, y, [30, 60, 220, 255]);
            }
        }
        img
    }

    #[test]
    fn png_round_trip() {
        let img = two_halves(8, 6);
        let mut png_bytes = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut png_bytes, 8, 6);
            enc.set_color(png::ColorType::Rgba);
            enc.set_depth(png::BitDepth::Eight);
            enc.write_header()
                .unwrap()
                .write_image_data(&img.rgba)
                .unwrap();
        }
        assert_eq!(decode_png(&png_bytes).unwrap(), img);
        assert!(decode_png(b"not a png").is_err());
    }

    #[test]
    fn encodes_jpeg_that_decodes_to_the_same_colours() {
        let img = two_halves(64, 32);
        let (w, h, px) = decode(&encode_jpeg(&img, 90).unwrap());
        assert_eq!((w, h), (64, 32));
        assert!(close(&px[..3], &[200, 30, 30], 12), "{:?}", &px[..3]);
        let bottom = ((31 * 64) * 3) as usize;
        assert!(close(&px[bottom..bottom + 3], &[30, 60, 220], 12));
        assert!(matches!(
            encode_jpeg(&Image::new(70_000, 1, [0; 4]), 50),
            Err(PixelError::Size(..))
        ));
    }

    #[test]
    fn downscale_averages_areas() {
        let mut img = Image::new(4, 2, [0, 0, 0, 255]);
        img.set(0, 0, [255, 255, 255, 255]);
        img.set(1, 1, [255, 255, 255, 255]);
        let half = downscale(&img, 0.5);
        assert_eq!((half.width, half.height), (2, 1));
        assert_eq!(half.pixel(0, 0), [128, 128, 128, 255]);
        assert_eq!(half.pixel(1, 0), [0, 0, 0, 255]);
        let third = downscale(&two_halves(300, 90), 1.0 / 3.0);
        assert_eq!((third.width, third.height), (100, 30));
        assert_eq!(third.pixel(50, 5), [200, 30, 30, 255]);
        assert_eq!(third.pixel(50, 25), [30, 60, 220, 255]);
    }

    #[test]
    fn crop_and_stitch() {
        let img = two_halves(10, 10);
        let bottom = crop(&img, 2, 5, 4, 100);
        assert_eq!((bottom.width, bottom.height), (4, 5));
        assert_eq!(bottom.pixel(0, 0), [30, 60, 220, 255]);
        let top = crop(&img, 0, 0, 10, 5);
        let whole = stitch(&[top, crop(&img, 0, 5, 10, 5)]);
        assert_eq!(whole, img);
    }

    #[test]
    fn badges_carry_readable_digits() {
        let mut img = Image::new(40, 20, [255, 255, 255, 255]);
        draw_badge(&mut img, 2, 3, 17);
        assert_eq!(img.pixel(2, 3), BADGE_COLOUR, "badge background");
        // The top-left pixel of the "1" glyph (0b010: middle column) is white, its left is not.
        assert_eq!(img.pixel(2 + 2 + 2, 3 + 2), [255, 255, 255, 255]);
        assert_eq!(img.pixel(2 + 2, 3 + 2), BADGE_COLOUR);
        let (_, _, px) = decode(&encode_jpeg(&img, 95).unwrap());
        assert!(close(
            &px[((3 * 40 + 2) * 3) as usize..][..3],
            &BADGE_COLOUR[..3],
            30
        ));
    }

    #[test]
    fn noisy_images_are_fitted_into_the_budget() {
        let mut seed = 7u32;
        let rgba: Vec<u8> = (0..800 * 600 * 4)
            .map(|i| {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                if i % 4 == 3 { 255 } else { (seed >> 16) as u8 }
            })
            .collect();
        let noise = Image {
            width: 800,
            height: 600,
            rgba,
        };
        let full = encode_jpeg(&noise, 95).unwrap().len();
        let fitted = fit(&noise, 95, 100_000).unwrap();
        assert!(
            full > 100_000,
            "the test needs an image over budget ({full})"
        );
        assert!(fitted.jpeg.len() <= 100_000, "{}", fitted.jpeg.len());
        assert!(
            fitted.quality < 95 && fitted.shrink < 1.0,
            "{:?}",
            (fitted.quality, fitted.shrink)
        );
        let easy = fit(&two_halves(100, 100), 80, 100_000).unwrap();
        assert_eq!((easy.quality, easy.shrink), (80, 1.0));
    }
}
