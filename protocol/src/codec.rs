//! A `tokio_util` codec over [`crate::framing`], typed by what each direction carries.

use std::marker::PhantomData;

use bytes::{Buf, BytesMut};
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

/// A codec error: bad framing, or the underlying I/O.
#[derive(Debug, thiserror::Error)]
pub enum CodecError {
    #[error(transparent)]
    Frame(#[from] FrameError),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

impl<In: DeserializeOwned, Out> Decoder for FrameCodec<In, Out> {
    type Item = Result<In, FrameError>;
    type Error = CodecError;

    /// Fatal framing errors end the stream; a frame with bad content is yielded as `Err` so the
    /// caller can answer it and go on reading.
    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Self::Item>, CodecError> {
        let Some((consumed, payload)) = decode_frame(src, self.max_in)? else {
            return Ok(None);
        };
        let parsed = parse_payload(payload);
        src.advance(consumed);
        Ok(Some(parsed))
    }
}

impl<In, Out: Serialize> Encoder<&Out> for FrameCodec<In, Out> {
    type Error = CodecError;

    fn encode(&mut self, item: &Out, dst: &mut BytesMut) -> Result<(), CodecError> {
        dst.extend_from_slice(&encode_frame(item, self.max_out)?);
        Ok(())
    }
}
