//! A `tokio_util` codec over [`crate::framing`], typed by what each direction carries.

use std::marker::PhantomData;

use bytes::{Bytes, BytesMut};
use serde::{Serialize, de::DeserializeOwned};
use tokio_util::codec::{Decoder, Encoder};

use crate::framing::{FrameError, decode_frame, encode_frame, parse_payload};

/// Reads frames of `In` up to `max_in` bytes, writes frames of `Out` up to `max_out` bytes.
#[derive(Debug)]
pub struct FrameCodec<In, Out> {
    max_in: usize,
    max_out: usize,
    types: PhantomData<fn(Out) -> In>,
}

impl<In, Out> FrameCodec<In, Out> {
    pub fn new(max_in: usize, max_out: usize) -> Self {
        Self {
            max_in,
            max_out,
            types: PhantomData,
        }
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
        let Some((consumed, payload)) = decode_frame(src, self.max_in)? else {
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
