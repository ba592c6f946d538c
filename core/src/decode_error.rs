//! The error every decoder of untrusted bytes in this crate returns (frames, values), and the
//! protocol version it names when a frame is refused.
//!
//! It sits below the wire types so that the types themselves (a [`Value`](crate::Value) decodes
//! on its own) can use it.

/// The protocol version this crate speaks. See `PROTOCOL.md` for the compatibility rule.
pub const VERSION: u8 = 1;

/// Decoding a frame failed. The input is untrusted: every way it can be wrong is one of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeError {
    /// No bytes.
    Empty,
    /// The frame is of a protocol version this crate does not speak.
    UnsupportedVersion(u8),
    /// The input ended inside the frame.
    Truncated,
    /// The bytes are not a valid frame body (a bad variant, an overlong string, bad UTF-8, ...).
    Malformed,
    /// A complete frame was followed by this many extra bytes.
    TrailingBytes(usize),
    /// The COBS framing was invalid.
    BadCobs,
}

impl core::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            DecodeError::Empty => f.write_str("empty input"),
            DecodeError::UnsupportedVersion(v) => {
                write!(
                    f,
                    "protocol version {v} is not supported (this side speaks {VERSION})"
                )
            }
            DecodeError::Truncated => f.write_str("the frame is truncated"),
            DecodeError::Malformed => f.write_str("the frame body is malformed"),
            DecodeError::TrailingBytes(n) => write!(f, "{n} bytes follow the frame"),
            DecodeError::BadCobs => f.write_str("invalid COBS framing"),
        }
    }
}

impl core::error::Error for DecodeError {}

/// What a postcard decoding error means for untrusted input: it ended early, or it is not a
/// valid encoding.
pub(crate) fn from_postcard(e: postcard::Error) -> DecodeError {
    match e {
        postcard::Error::DeserializeUnexpectedEnd => DecodeError::Truncated,
        _ => DecodeError::Malformed,
    }
}
