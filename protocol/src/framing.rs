//! Native-messaging framing: a 4-byte little-endian length, then that many bytes of UTF-8 JSON.
//!
//! The same framing carries the socket between the MCP server and the host, with a larger limit.
//! [`decode_frame`] is sans-I/O: give it what has arrived, it says whether a whole frame is there.
//! It checks the announced length before anything else and never allocates it.

use serde::{Serialize, de::DeserializeOwned};

/// Firefox kills the port when a host→extension message exceeds this (1 MiB).
pub const MAX_TO_EXTENSION: usize = 1024 * 1024;
/// Largest frame on the MCP server ⇄ host socket, and from the extension to the host (10 MiB).
pub const MAX_SOCKET_FRAME: usize = 10 * 1024 * 1024;

/// Room left in a frame for the envelope around a reply (ids, type tags, field names).
const ENVELOPE: usize = 64 * 1024;
/// Largest reply the extension builds: it must fit one socket frame with its envelope, on the
/// way to the host and again on the way to the agent. A bigger one is refused where it is built.
pub const MAX_REPLY: usize = MAX_SOCKET_FRAME - ENVELOPE;
/// Largest file (bytes, before base64's 4/3) a reply can carry: a screenshot for `savePath`.
pub const MAX_FILE_IN_REPLY: usize = (MAX_REPLY - ENVELOPE) / 4 * 3;
/// Largest file a request toward the extension can carry: an upload.
pub const MAX_FILE_TO_EXTENSION: usize = (MAX_TO_EXTENSION - ENVELOPE) / 4 * 3;

// The limits fit one another, base64's growth included: checked when the crate is built.
const _: () = {
    assert!(base64_len(MAX_FILE_IN_REPLY) + ENVELOPE <= MAX_REPLY);
    assert!(MAX_REPLY + ENVELOPE <= MAX_SOCKET_FRAME);
    assert!(base64_len(MAX_FILE_TO_EXTENSION) + ENVELOPE <= MAX_TO_EXTENSION);
};

const fn base64_len(bytes: usize) -> usize {
    bytes.div_ceil(3) * 4
}

const HEADER: usize = 4;

/// Why bytes could not become a message.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    #[error("frame announces length 0; a frame must carry a JSON message")]
    Empty,
    #[error("frame announces {len} bytes, over the {max}-byte limit of this channel")]
    TooLarge { len: usize, max: usize },
    #[error("frame is not valid UTF-8 (at byte {valid_up_to})")]
    InvalidUtf8 { valid_up_to: usize },
    #[error("frame is not valid JSON for this channel: {0}")]
    InvalidJson(#[source] serde_json::Error),
}

impl FrameError {
    /// After a bad length the byte stream cannot be resynchronised: the connection must close.
    /// After bad content the frame was consumed and the next one can still be read.
    pub fn is_fatal(&self) -> bool {
        matches!(self, Self::Empty | Self::TooLarge { .. })
    }
}

/// Looks for one whole frame at the start of `buf`.
///
/// Returns `Ok(None)` when more bytes are needed, or `Ok(Some((consumed, payload)))`.
pub fn decode_frame(buf: &[u8], max: usize) -> Result<Option<(usize, &[u8])>, FrameError> {
    let Some(header) = buf.first_chunk::<HEADER>() else {
        return Ok(None);
    };
    let len = u32::from_le_bytes(*header) as usize;
    if len == 0 {
        return Err(FrameError::Empty);
    }
    if len > max {
        return Err(FrameError::TooLarge { len, max });
    }
    let end = HEADER + len;
    Ok(buf.get(HEADER..end).map(|payload| (end, payload)))
}

/// Parses a frame's payload, telling bad UTF-8 apart from bad JSON.
pub fn parse_payload<T: DeserializeOwned>(payload: &[u8]) -> Result<T, FrameError> {
    let text = std::str::from_utf8(payload).map_err(|e| FrameError::InvalidUtf8 {
        valid_up_to: e.valid_up_to(),
    })?;
    serde_json::from_str(text).map_err(FrameError::InvalidJson)
}

/// Serialises `msg` into one frame, refusing to build a frame the receiver would reject.
pub fn encode_frame<T: Serialize>(msg: &T, max: usize) -> Result<Vec<u8>, FrameError> {
    let mut out = vec![0; HEADER];
    serde_json::to_writer(&mut out, msg).map_err(FrameError::InvalidJson)?;
    let len = out.len() - HEADER;
    if len > max {
        return Err(FrameError::TooLarge { len, max });
    }
    out[..HEADER].copy_from_slice(&(len as u32).to_le_bytes());
    Ok(out)
}

/// Accumulates bytes as they arrive and yields whole frames.
#[derive(Debug)]
pub struct FrameDecoder {
    buf: Vec<u8>,
    max: usize,
}

impl FrameDecoder {
    pub fn new(max: usize) -> Self {
        Self {
            buf: Vec::new(),
            max,
        }
    }

    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// The next whole frame, parsed; `Ok(None)` until one has fully arrived.
    pub fn next_frame<T: DeserializeOwned>(&mut self) -> Result<Option<T>, FrameError> {
        let Some((consumed, payload)) = decode_frame(&self.buf, self.max)? else {
            return Ok(None);
        };
        let parsed = parse_payload(payload);
        self.buf.drain(..consumed);
        parsed.map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn frame(payload: &[u8]) -> Vec<u8> {
        let mut v = (payload.len() as u32).to_le_bytes().to_vec();
        v.extend_from_slice(payload);
        v
    }

    #[test]
    fn encodes_little_endian_length_then_json() {
        let bytes = encode_frame(&json!({"a": 1}), MAX_TO_EXTENSION).unwrap();
        assert_eq!(&bytes[..4], &7u32.to_le_bytes());
        assert_eq!(&bytes[4..], br#"{"a":1}"#);
    }

    #[test]
    fn split_reads_yield_the_frame_only_when_complete() {
        let bytes = frame(br#"{"hello":"world"}"#);
        let mut dec = FrameDecoder::new(MAX_SOCKET_FRAME);
        for (i, b) in bytes.iter().enumerate() {
            let got: Option<Value> = dec.next_frame().unwrap();
            assert!(got.is_none(), "frame yielded after {i} bytes");
            dec.push(&[*b]);
        }
        assert_eq!(
            dec.next_frame::<Value>().unwrap(),
            Some(json!({"hello": "world"}))
        );
        assert_eq!(dec.next_frame::<Value>().unwrap(), None);
    }

    #[test]
    fn several_frames_in_one_read() {
        let mut bytes = frame(b"1");
        bytes.extend(frame(b"[2]"));
        bytes.extend(frame(br#""three""#));
        bytes.extend(&frame(b"4")[..3]);
        let mut dec = FrameDecoder::new(MAX_SOCKET_FRAME);
        dec.push(&bytes);
        assert_eq!(dec.next_frame::<Value>().unwrap(), Some(json!(1)));
        assert_eq!(dec.next_frame::<Value>().unwrap(), Some(json!([2])));
        assert_eq!(dec.next_frame::<Value>().unwrap(), Some(json!("three")));
        assert_eq!(dec.next_frame::<Value>().unwrap(), None);
        dec.push(&frame(b"4")[3..]);
        assert_eq!(dec.next_frame::<Value>().unwrap(), Some(json!(4)));
    }

    #[test]
    fn length_zero_is_refused_and_fatal() {
        let err = decode_frame(&[0, 0, 0, 0, b'x'], MAX_SOCKET_FRAME).unwrap_err();
        assert!(matches!(err, FrameError::Empty));
        assert!(err.is_fatal());
    }

    #[test]
    fn over_limit_is_refused_from_the_header_alone() {
        // Only the header has arrived: the decoder must refuse without waiting for (or
        // allocating) the announced 4 GiB.
        let header = u32::MAX.to_le_bytes();
        let mut dec = FrameDecoder::new(MAX_TO_EXTENSION);
        dec.push(&header);
        let err = dec.next_frame::<Value>().unwrap_err();
        assert!(
            matches!(err, FrameError::TooLarge { len, max } if len == u32::MAX as usize && max == MAX_TO_EXTENSION)
        );
        assert!(err.is_fatal());
        assert!(dec.buf.capacity() < 64);
    }

    #[test]
    fn the_limit_itself_is_allowed() {
        let payload = format!("\"{}\"", "x".repeat(MAX_TO_EXTENSION - 2));
        let bytes = frame(payload.as_bytes());
        let (consumed, got) = decode_frame(&bytes, MAX_TO_EXTENSION).unwrap().unwrap();
        assert_eq!((consumed, got.len()), (bytes.len(), MAX_TO_EXTENSION));
        let over = "x".repeat(MAX_TO_EXTENSION - 1);
        let err = encode_frame(&over, MAX_TO_EXTENSION).unwrap_err();
        assert!(matches!(err, FrameError::TooLarge { len, .. } if len == MAX_TO_EXTENSION + 1));
    }

    #[test]
    fn bad_utf8_and_bad_json_have_their_own_errors_and_skip_the_frame() {
        let mut bytes = frame(&[b'"', 0xff, 0xfe, b'"']);
        bytes.extend(frame(b"{not json"));
        bytes.extend(frame(b"true"));
        let mut dec = FrameDecoder::new(MAX_SOCKET_FRAME);
        dec.push(&bytes);
        let utf8 = dec.next_frame::<Value>().unwrap_err();
        assert!(matches!(utf8, FrameError::InvalidUtf8 { valid_up_to: 1 }));
        assert!(!utf8.is_fatal());
        let json = dec.next_frame::<Value>().unwrap_err();
        assert!(matches!(json, FrameError::InvalidJson(_)));
        assert!(!json.is_fatal());
        assert_eq!(dec.next_frame::<Value>().unwrap(), Some(json!(true)));
    }

    #[test]
    fn json_of_the_wrong_shape_is_invalid_json() {
        let err = parse_payload::<crate::ClientMessage>(br#"{"type":"nope"}"#).unwrap_err();
        assert!(matches!(err, FrameError::InvalidJson(_)));
    }

    #[test]
    fn never_panics_on_arbitrary_bytes() {
        // A small deterministic fuzz: every prefix of every mix of headers and junk.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2_000 {
            let mut bytes = Vec::new();
            for _ in 0..(seed % 24) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                bytes.push((seed >> 24) as u8 % 12);
            }
            let mut dec = FrameDecoder::new(16);
            dec.push(&bytes);
            while let Ok(Some(_)) = dec.next_frame::<Value>() {}
        }
    }
}
