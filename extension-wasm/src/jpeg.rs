//! Reads a JPEG's pixel size from its frame header, without decoding it.

/// Width and height from the first SOFn marker, or `None` when the bytes are not a JPEG.
pub fn dimensions(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.get(..2)? != [0xFF, 0xD8] {
        return None;
    }
    let mut i = 2;
    loop {
        // Skip fill bytes before a marker.
        while *bytes.get(i)? == 0xFF && *bytes.get(i + 1)? == 0xFF {
            i += 1;
        }
        if *bytes.get(i)? != 0xFF {
            return None;
        }
        let marker = *bytes.get(i + 1)?;
        let len = u16::from_be_bytes([*bytes.get(i + 2)?, *bytes.get(i + 3)?]) as usize;
        let is_sof = matches!(marker, 0xC0..=0xCF) && !matches!(marker, 0xC4 | 0xC8 | 0xCC);
        if is_sof {
            let h = u16::from_be_bytes([*bytes.get(i + 5)?, *bytes.get(i + 6)?]);
            let w = u16::from_be_bytes([*bytes.get(i + 7)?, *bytes.get(i + 8)?]);
            return Some((w.into(), h.into()));
        }
        i += 2 + len;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_frame_header() {
        // SOI, an APP0 segment of length 4, then SOF0 for 640×357.
        let jpeg = [
            0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x01,
            0x65, 0x02, 0x80,
        ];
        assert_eq!(dimensions(&jpeg), Some((640, 357)));
    }

    #[test]
    fn refuses_what_is_not_a_jpeg_and_never_panics() {
        assert_eq!(dimensions(b"\x89PNG"), None);
        assert_eq!(dimensions(&[0xFF, 0xD8, 0xFF]), None);
        for n in 0..64u8 {
            let junk: Vec<u8> = (0..n).map(|i| i.wrapping_mul(37) ^ 0xFF).collect();
            let mut with_soi = vec![0xFF, 0xD8];
            with_soi.extend(&junk);
            let _ = dimensions(&junk);
            let _ = dimensions(&with_soi);
        }
    }
}
