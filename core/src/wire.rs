//! The wire format: a versioned postcard frame, optionally COBS-framed for byte streams.
//!
//! A frame is `version: u8` (always the first byte, so a peer can refuse a foreign frame before
//! reading further), `seq: u32` (varint) and a [`Message`] (an action, an outcome or an event).
//! `core/PROTOCOL.md` specifies every byte. Decoding borrows text and bytes from the input,
//! never allocates and never panics, whatever the input.
//!
//! Every encoded frame fits [`FRAME_MAX`] bytes, and its COBS form [`COBS_FRAME_MAX`]: buffers
//! of those sizes never see [`EncodeError::BufferTooSmall`].

use serde::{Deserialize, Serialize};

pub use crate::decode_error::{DecodeError, VERSION};

use crate::action::{Action, ApplyError, Outcome};
use crate::decode_error::from_postcard;
use crate::event::Event;
use crate::max::{MaxEncoded, TAG, max};

/// The largest encoded [`Frame`], in bytes.
pub const FRAME_MAX: usize = 1 + crate::max::varint_max(32) + Message::BOUND;

/// The largest COBS-encoded [`Frame`], including the trailing `0x00` sentinel.
pub const COBS_FRAME_MAX: usize = cobs_max(FRAME_MAX);

/// The COBS encoding of `n` bytes is at most this long, with its sentinel.
pub const fn cobs_max(n: usize) -> usize {
    n + n.div_ceil(254) + 1
}

/// What a frame carries.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Message<'a> {
    /// An action for a workspace to apply.
    #[serde(borrow)]
    Action(Action<'a>),
    /// What applying an action gave.
    Outcome(Result<Outcome, ApplyError>),
    /// What the world said.
    #[serde(borrow)]
    Event(Event<'a>),
}

/// A versioned, sequenced message.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame<'a> {
    /// A sequence number the sender chooses (typically incrementing); echoed in replies.
    pub seq: u32,
    /// The message.
    pub body: Message<'a>,
}

/// Encoding a frame failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeError {
    /// The output buffer was too small (one of [`FRAME_MAX`] or [`COBS_FRAME_MAX`] bytes never
    /// is).
    BufferTooSmall,
}

impl core::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("the output buffer is too small for the frame")
    }
}

impl core::error::Error for EncodeError {}

fn encode_err(_: postcard::Error) -> EncodeError {
    // Everything this crate encodes is serializable; the only failure is running out of room.
    EncodeError::BufferTooSmall
}

impl<'a> Frame<'a> {
    /// A frame.
    pub const fn new(seq: u32, body: Message<'a>) -> Self {
        Self { seq, body }
    }

    /// Encodes into `buf`; returns the used prefix.
    pub fn encode<'b>(&self, buf: &'b mut [u8]) -> Result<&'b mut [u8], EncodeError> {
        postcard::to_slice(&(VERSION, self.seq, &self.body), buf).map_err(encode_err)
    }

    /// Encodes into `buf` with COBS framing, the `0x00` sentinel included; returns the used
    /// prefix.
    pub fn encode_cobs<'b>(&self, buf: &'b mut [u8]) -> Result<&'b mut [u8], EncodeError> {
        postcard::to_slice_cobs(&(VERSION, self.seq, &self.body), buf).map_err(encode_err)
    }

    /// Decodes exactly one frame from `bytes`, borrowing from them.
    pub fn decode(bytes: &'a [u8]) -> Result<Self, DecodeError> {
        let (frame, rest) = Self::take(bytes)?;
        if !rest.is_empty() {
            return Err(DecodeError::TrailingBytes(rest.len()));
        }
        Ok(frame)
    }

    /// Decodes one frame from the front of `bytes`; returns it and the bytes after it.
    pub fn take(bytes: &'a [u8]) -> Result<(Self, &'a [u8]), DecodeError> {
        let (&version, rest) = bytes.split_first().ok_or(DecodeError::Empty)?;
        if version != VERSION {
            return Err(DecodeError::UnsupportedVersion(version));
        }
        let ((seq, body), rest) =
            postcard::take_from_bytes::<(u32, Message<'a>)>(rest).map_err(from_postcard)?;
        Ok((Self { seq, body }, rest))
    }

    /// Decodes one COBS-framed frame in place: `buf` holds the encoded bytes up to and
    /// optionally including the `0x00` sentinel (anything after the first `0x00` is ignored);
    /// it is overwritten by the decoded bytes, which the frame borrows.
    pub fn decode_cobs(buf: &'a mut [u8]) -> Result<Self, DecodeError> {
        let n = cobs::decode_in_place(buf).map_err(|_| DecodeError::BadCobs)?;
        Self::decode(&buf[..n])
    }
}

impl MaxEncoded for Message<'_> {
    const BOUND: usize = TAG
        + max(
            max(Action::BOUND, TAG + max(Outcome::BOUND, ApplyError::BOUND)),
            Event::BOUND,
        );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::{Arg, Track};
    use crate::event::EventKind;
    use crate::value::ValueRef;

    #[test]
    fn frame_round_trips_plain_and_cobs() {
        let ev = Event::new(EventKind::Error, 2)
            .with("code", ValueRef::Int(429))
            .unwrap();
        let frames = [
            Frame::new(7, Message::Event(ev)),
            Frame::new(8, Message::Action(Action::Finish { success: true })),
            Frame::new(9, Message::Outcome(Err(ApplyError::OverBudget))),
        ];
        for f in &frames {
            let mut buf = [0u8; FRAME_MAX];
            let enc = f.encode(&mut buf).unwrap();
            assert_eq!(&Frame::decode(enc).unwrap(), f);
            let mut cbuf = [0u8; COBS_FRAME_MAX];
            let cenc = f.encode_cobs(&mut cbuf).unwrap();
            assert_eq!(cenc.last(), Some(&0));
            assert!(!cenc[..cenc.len() - 1].contains(&0));
            let mut owned = [0u8; COBS_FRAME_MAX];
            owned[..cenc.len()].copy_from_slice(cenc);
            let n = cenc.len();
            assert_eq!(&Frame::decode_cobs(&mut owned[..n]).unwrap(), f);
        }
    }

    #[test]
    fn bad_input_is_a_typed_error() {
        assert_eq!(Frame::decode(&[]), Err(DecodeError::Empty));
        assert_eq!(
            Frame::decode(&[2, 0, 0]),
            Err(DecodeError::UnsupportedVersion(2))
        );
        assert_eq!(Frame::decode(&[1]), Err(DecodeError::Truncated));
        assert_eq!(Frame::decode(&[1, 0, 9]), Err(DecodeError::Malformed));
        let mut buf = [0u8; FRAME_MAX];
        let n = Frame::new(1, Message::Action(Action::Finish { success: false }))
            .encode(&mut buf)
            .unwrap()
            .len();
        buf[n] = 0xAA;
        assert_eq!(
            Frame::decode(&buf[..=n]),
            Err(DecodeError::TrailingBytes(1))
        );
        let act = Action::Track(Track::Compress { keep: 3 });
        let mut small = [0u8; 3];
        assert_eq!(
            Frame::new(1, Message::Action(act))
                .encode(&mut small)
                .map(|_| ()),
            Err(EncodeError::BufferTooSmall)
        );
        let _ = Arg::LastAct;
    }
}
