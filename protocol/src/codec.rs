//! A `tokio_util` codec over [`crate::framing`], typed by what each direction carries.
//!
//! A frame that announces too many bytes (or none) does not end the stream: the length is
//! still known, so the codec skips the frame's bytes as they arrive (never holding them) and
//! yields a [`BadFrame`] with the frame's first bytes, so the receiver can answer the one
//! request it belonged to and read on.

use std::marker::PhantomData;

use bytes::{Buf, Bytes, BytesMut};
use serde::{Serialize, de::DeserializeOwned};
use tokio_util::codec::{Decoder, Encoder};

use crate::framing::{FrameError, decode_frame, encode_frame, parse_payload};

/// How many bytes of a skipped frame are kept: enough to find its request id.
const KEPT_HEAD: usize = 256;

/// Reads frames of `In` up to `max_in` bytes, writes frames of `Out` up to `max_out` bytes.
#[derive(Debug)]
pub struct FrameCodec<In, Out> {
    max_in: usize,
    max_out: usize,
    /// An oversized frame being skipped.
    skipping: Option<Skip>,
    types: PhantomData<fn(Out) -> In>,
}

#[derive(Debug)]
struct Skip {
    len: usize,
    left: usize,
    head: Vec<u8>,
}

impl<In, Out> FrameCodec<In, Out> {
    pub fn new(max_in: usize, max_out: usize) -> Self {
        Self {
            max_in,
            max_out,
            skipping: None,
            types: PhantomData,
        }
    }

    /// Changes the largest frame read from now on (e.g. once a client has authenticated).
    pub fn set_max_in(&mut self, max_in: usize) {
        self.max_in = max_in;
    }

    /// Consumes what has arrived of a frame being skipped; the bad frame once it is all gone.
    fn skip(&mut self, src: &mut BytesMut) -> Option<BadFrame> {
        let skip = self.skipping.as_mut()?;
        let take = skip.left.min(src.len());
        let keep = take.min(KEPT_HEAD.saturating_sub(skip.head.len()));
        skip.head.extend_from_slice(&src[..keep]);
        src.advance(take);
        skip.left -= take;
        if skip.left > 0 {
            return None;
        }
        let Skip { len, head, .. } = self.skipping.take()?;
        Some(BadFrame {
            error: FrameError::TooLarge {
                len,
                max: self.max_in,
            },
            payload: head.into(),
        })
    }
}

/// A whole frame whose content could not be parsed; the stream itself is still in step.
#[derive(Debug)]
pub struct BadFrame {
    pub error: FrameError,
    /// The raw payload, so the receiver can still find the request id to answer.
    pub payload: Bytes,
}

/// A codec error that ends the stream: bad framing, or the underlying I/O.
#[derive(Debug, thiserror::Error)]
pub enum CodecError {
    #[error(transparent)]
    Frame(#[from] FrameError),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

impl<In: DeserializeOwned, Out> Decoder for FrameCodec<In, Out> {
    type Item = Result<In, BadFrame>;
    type Error = CodecError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Self::Item>, CodecError> {
        if self.skipping.is_some() {
            return Ok(self.skip(src).map(Err));
        }
        let decoded = match decode_frame(src, self.max_in) {
            Err(FrameError::TooLarge { len, .. }) => {
                src.advance(4);
                self.skipping = Some(Skip {
                    len,
                    left: len,
                    head: Vec::new(),
                });
                return Ok(self.skip(src).map(Err));
            }
            Err(error @ FrameError::Empty) => {
                src.advance(4);
                let payload = Bytes::new();
                return Ok(Some(Err(BadFrame { error, payload })));
            }
            other => other?,
        };
        let Some((consumed, payload)) = decoded else {
            return Ok(None);
        };
        let parsed = parse_payload(payload);
        let frame = src.split_to(consumed);
        Ok(Some(parsed.map_err(|error| BadFrame {
            error,
            payload: frame.freeze().slice(4..),
        })))
    }
}

/// The `id` of a request or response from its payload, whole or only its first bytes (a
/// skipped frame): the messages we send start `{"type":"…","id":N`.
pub fn request_id(payload: &[u8]) -> Option<u64> {
    if let Ok(value) = serde_json::from_slice::<serde_json::Value>(payload) {
        return value.get("id")?.as_u64();
    }
    let rest = payload.strip_prefix(br#"{"type":""#)?;
    let end = rest.iter().position(|b| *b == b'"')?;
    let rest = rest[end..].strip_prefix(br#"","id":"#)?;
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    std::str::from_utf8(&rest[..digits]).ok()?.parse().ok()
}

impl<In, Out: Serialize> Encoder<Out> for FrameCodec<In, Out> {
    type Error = CodecError;

    fn encode(&mut self, item: Out, dst: &mut BytesMut) -> Result<(), CodecError> {
        dst.extend_from_slice(&encode_frame(&item, self.max_out)?);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    #[test]
    fn bad_content_is_yielded_with_its_payload_and_the_stream_goes_on() {
        let mut codec = FrameCodec::<Value, Value>::new(64, 64);
        let mut buf = BytesMut::new();
        buf.extend_from_slice(&3u32.to_le_bytes());
        buf.extend_from_slice(b"{x}");
        codec.encode(json!([1]), &mut buf).unwrap();
        let bad = codec.decode(&mut buf).unwrap().unwrap().unwrap_err();
        assert_eq!(&bad.payload[..], b"{x}");
        assert_eq!(
            codec.decode(&mut buf).unwrap().unwrap().unwrap(),
            json!([1])
        );
        assert!(codec.decode(&mut buf).unwrap().is_none());
    }

    #[test]
    fn an_oversized_frame_is_skipped_as_it_arrives_and_the_stream_goes_on() {
        let mut codec = FrameCodec::<Value, Value>::new(64, 64);
        let big = format!(
            r#"{{"type":"response","id":7,"data":"{}"}}"#,
            "x".repeat(1_000)
        );
        let mut wire = (big.len() as u32).to_le_bytes().to_vec();
        wire.extend(big.as_bytes());
        wire.extend(0u32.to_le_bytes());
        let mut after = BytesMut::new();
        codec.encode(json!([2]), &mut after).unwrap();
        wire.extend(&after[..]);
        // Fed in small pieces: nothing of the big frame is held beyond its first bytes.
        let mut buf = BytesMut::new();
        let mut items = Vec::new();
        for piece in wire.chunks(100) {
            buf.extend_from_slice(piece);
            while let Some(item) = codec.decode(&mut buf).unwrap() {
                items.push(item);
            }
            assert!(buf.len() <= 100, "skipped bytes are not buffered");
        }
        assert_eq!(items.len(), 3);
        let Err(too_large) = &items[0] else {
            panic!("{items:?}")
        };
        assert!(matches!(
            too_large.error,
            FrameError::TooLarge {
                len: 1_036,
                max: 64
            }
        ));
        assert_eq!(&too_large.payload[..], &big.as_bytes()[..KEPT_HEAD]);
        assert_eq!(request_id(&too_large.payload), Some(7));
        assert!(matches!(
            &items[1],
            Err(BadFrame {
                error: FrameError::Empty,
                ..
            })
        ));
        assert_eq!(items[2].as_ref().unwrap(), &json!([2]));
    }

    #[test]
    fn request_ids_are_found_in_whole_or_cut_payloads() {
        assert_eq!(request_id(br#"{"type":"request","id":42,"x":1}"#), Some(42));
        assert_eq!(
            request_id(br#"{"type":"response","id":9,"outcome":{"Ok":"#),
            Some(9)
        );
        assert_eq!(request_id(br#"{"id":5}"#), Some(5));
        assert_eq!(request_id(br#"{"type":"response","data":""id":3"#), None);
        assert_eq!(request_id(b"junk"), None);
    }

    #[test]
    fn oversized_output_is_refused() {
        let mut codec = FrameCodec::<Value, Value>::new(64, 8);
        let err = codec
            .encode(json!("0123456789"), &mut BytesMut::new())
            .unwrap_err();
        assert!(matches!(
            err,
            CodecError::Frame(FrameError::TooLarge { .. })
        ));
    }
}
