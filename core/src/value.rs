//! Typed values: what a belief holds, what an event field carries, what a tool takes.

use core::fmt;

use serde::de::{Deserialize, Deserializer, Error as _};
use serde::{Serialize, Serializer};

use crate::decode_error::{DecodeError, from_postcard};
use crate::max::{MaxEncoded, TAG, max, seq};
use crate::{KEY_MAX, TEXT_MAX};

/// A string or byte string was longer than its bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooLong {
    /// The bound that was exceeded, in bytes.
    pub max: usize,
    /// The length that was offered, in bytes.
    pub len: usize,
}

impl fmt::Display for TooLong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} bytes is longer than the limit of {} bytes",
            self.len, self.max
        )
    }
}

impl core::error::Error for TooLong {}

/// A borrowed UTF-8 string of at most `N` bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Str<'a, const N: usize>(&'a str);

/// A key of a belief fact or an event field: at most [`KEY_MAX`] bytes.
pub type Key<'a> = Str<'a, KEY_MAX>;
/// A short text value: at most [`TEXT_MAX`] bytes.
pub type Text<'a> = Str<'a, TEXT_MAX>;

impl<'a, const N: usize> Str<'a, N> {
    /// Wraps `s`, or says by how much it is too long.
    pub const fn new(s: &'a str) -> Result<Self, TooLong> {
        if s.len() > N {
            Err(TooLong {
                max: N,
                len: s.len(),
            })
        } else {
            Ok(Self(s))
        }
    }

    /// The string.
    pub const fn as_str(&self) -> &'a str {
        self.0
    }
}

impl<const N: usize> fmt::Debug for Str<'_, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.0, f)
    }
}

impl<const N: usize> Serialize for Str<'_, N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0)
    }
}

impl<'de: 'a, 'a, const N: usize> Deserialize<'de> for Str<'a, N> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <&'de str>::deserialize(d)?;
        Str::new(s).map_err(|e| D::Error::invalid_length(e.len, &"a string within its bound"))
    }
}

/// A borrowed byte string of at most `N` bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Blob<'a, const N: usize>(&'a [u8]);

impl<'a, const N: usize> Blob<'a, N> {
    /// Wraps `b`, or says by how much it is too long.
    pub const fn new(b: &'a [u8]) -> Result<Self, TooLong> {
        if b.len() > N {
            Err(TooLong {
                max: N,
                len: b.len(),
            })
        } else {
            Ok(Self(b))
        }
    }

    /// The bytes.
    pub const fn as_bytes(&self) -> &'a [u8] {
        self.0
    }
}

impl<const N: usize> fmt::Debug for Blob<'_, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.0, f)
    }
}

impl<const N: usize> Serialize for Blob<'_, N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

impl<'de: 'a, 'a, const N: usize> Deserialize<'de> for Blob<'a, N> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let b = <&'de [u8]>::deserialize(d)?;
        Blob::new(b).map_err(|e| D::Error::invalid_length(e.len, &"bytes within their bound"))
    }
}

/// An owned key: at most [`KEY_MAX`] bytes of UTF-8, stored inline.
pub type KeyBuf = heapless::String<KEY_MAX>;
/// Owned short text: at most [`TEXT_MAX`] bytes of UTF-8, stored inline.
pub type TextBuf = heapless::String<TEXT_MAX>;
/// Owned short bytes: at most [`TEXT_MAX`] bytes, stored inline.
pub type BytesBuf = heapless::Vec<u8, TEXT_MAX>;

/// The kind of a value, in wire order (the discriminant is the postcard variant index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum ValueKind {
    /// `true` or `false`.
    Bool = 0,
    /// A signed 64-bit integer.
    Int = 1,
    /// A 64-bit float.
    Float = 2,
    /// Short UTF-8 text.
    Text = 3,
    /// Short bytes.
    Bytes = 4,
}

impl ValueKind {
    /// How many kinds there are (the width of a one-hot encoding).
    pub const COUNT: usize = 5;
}

/// A value that borrows its text or bytes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
pub enum ValueRef<'a> {
    /// `true` or `false`.
    Bool(bool),
    /// A signed 64-bit integer.
    Int(i64),
    /// A 64-bit float.
    Float(f64),
    /// Short UTF-8 text.
    #[serde(borrow)]
    Text(Text<'a>),
    /// Short bytes.
    #[serde(borrow)]
    Bytes(Blob<'a, TEXT_MAX>),
}

/// A value that owns its text or bytes, inline.
///
/// Two shapes of the same thing: [`ValueRef`] borrows its text and bytes (what a decoded
/// frame hands out without copying) and [`Value`] owns them in fixed-capacity buffers (what a
/// workspace stores). Both encode to identical postcard bytes, so a value decoded as one can be
/// re-encoded as the other.
///
/// Lengths are bounded by the type: a [`Str`] or [`Blob`] longer than its bound cannot be
/// constructed, and decoding one from untrusted bytes fails with a postcard error instead.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub enum Value {
    /// `true` or `false`.
    Bool(bool),
    /// A signed 64-bit integer.
    Int(i64),
    /// A 64-bit float.
    Float(f64),
    /// Short UTF-8 text.
    Text(TextBuf),
    /// Short bytes.
    Bytes(BytesBuf),
}

impl Default for Value {
    fn default() -> Self {
        Value::Bool(false)
    }
}

impl ValueRef<'_> {
    /// Copies the value into owned storage. Cannot fail: the bounds are the same.
    pub fn to_owned(&self) -> Value {
        match *self {
            ValueRef::Bool(b) => Value::Bool(b),
            ValueRef::Int(i) => Value::Int(i),
            ValueRef::Float(x) => Value::Float(x),
            ValueRef::Text(t) => Value::Text(copy_str(t.as_str())),
            ValueRef::Bytes(b) => Value::Bytes(copy_bytes(b.as_bytes())),
        }
    }
}

impl Value {
    /// Borrows the value.
    pub fn as_ref(&self) -> ValueRef<'_> {
        match self {
            Value::Bool(b) => ValueRef::Bool(*b),
            Value::Int(i) => ValueRef::Int(*i),
            Value::Float(x) => ValueRef::Float(*x),
            Value::Text(t) => ValueRef::Text(Str(t.as_str())),
            Value::Bytes(b) => ValueRef::Bytes(Blob(b.as_slice())),
        }
    }

    /// Text of at most [`TEXT_MAX`] bytes.
    pub fn text(s: &str) -> Result<Self, TooLong> {
        Ok(Value::Text(copy_str(Text::new(s)?.as_str())))
    }

    /// Bytes of at most [`TEXT_MAX`] bytes.
    pub fn bytes(b: &[u8]) -> Result<Self, TooLong> {
        Ok(Value::Bytes(copy_bytes(
            Blob::<TEXT_MAX>::new(b)?.as_bytes(),
        )))
    }

    /// The kind of the value.
    pub fn kind(&self) -> ValueKind {
        match self {
            Value::Bool(_) => ValueKind::Bool,
            Value::Int(_) => ValueKind::Int,
            Value::Float(_) => ValueKind::Float,
            Value::Text(_) => ValueKind::Text,
            Value::Bytes(_) => ValueKind::Bytes,
        }
    }

    /// Equality that is total and bitwise for floats (`NaN` equals the same `NaN`), so that
    /// "did this value change" has one deterministic answer.
    pub fn same(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits(),
            _ => self == other,
        }
    }

    /// FNV-1a (32-bit) over a kind tag byte, then the payload: one byte for a bool, the
    /// little-endian bytes of an integer or of a float's bits, the bytes of text or bytes.
    /// The observation encoder uses it; `core/PROTOCOL.md` specifies it for other encoders.
    pub fn fnv1a(&self) -> u32 {
        let h = fnv1a(FNV_OFFSET, &[self.kind() as u8]);
        match self {
            Value::Bool(b) => fnv1a(h, &[*b as u8]),
            Value::Int(i) => fnv1a(h, &i.to_le_bytes()),
            Value::Float(x) => fnv1a(h, &x.to_bits().to_le_bytes()),
            Value::Text(t) => fnv1a(h, t.as_bytes()),
            Value::Bytes(b) => fnv1a(h, b),
        }
    }

    /// Whether this value equals `query` or one of them, as text or bytes, starts with the
    /// other: 2 for equal ([`Value::same`]), 1 for a non-empty prefix relation, 0 otherwise.
    /// Experience recall ranks triggers by it, in a workspace and in a runtime's store alike.
    pub fn match_rank(&self, query: &Value) -> u8 {
        if self.same(query) {
            return 2;
        }
        let (a, b): (&[u8], &[u8]) = match (self, query) {
            (Value::Text(a), Value::Text(b)) => (a.as_bytes(), b.as_bytes()),
            (Value::Bytes(a), Value::Bytes(b)) => (a.as_slice(), b.as_slice()),
            _ => return 0,
        };
        if !a.is_empty() && !b.is_empty() && (a.starts_with(b) || b.starts_with(a)) {
            1
        } else {
            0
        }
    }
}

impl Value {
    /// The longest postcard encoding of a value, in bytes.
    pub const ENCODED_MAX: usize = <Value as crate::max::MaxEncoded>::BOUND;

    /// The value's postcard encoding (as in frames and snapshots, see `PROTOCOL.md`), written
    /// into `buf`. It is canonical: two values have equal encodings exactly when they are
    /// [`same`](Value::same) (floats by their bits), so the bytes serve as a total, hashable
    /// key and a deterministic order.
    pub fn encode<'b>(&self, buf: &'b mut [u8; Value::ENCODED_MAX]) -> &'b [u8] {
        // `ENCODED_MAX` bounds every value (tested in `max`): this cannot run out of room.
        match postcard::to_slice(self, buf) {
            Ok(b) => b,
            Err(_) => &[],
        }
    }

    /// Decodes one value from the front of untrusted `bytes`; returns it and the bytes after
    /// it. Never panics: bytes that end early are [`DecodeError::Truncated`], anything else
    /// that is not a value (a bad kind, overlong or non-UTF-8 text) is
    /// [`DecodeError::Malformed`].
    pub fn decode_prefix(bytes: &[u8]) -> Result<(Value, &[u8]), DecodeError> {
        postcard::take_from_bytes(bytes).map_err(from_postcard)
    }
}

/// The FNV-1a 32-bit offset basis.
pub(crate) const FNV_OFFSET: u32 = 0x811c_9dc5;

/// Continues an FNV-1a 32-bit hash over `bytes`.
pub(crate) const fn fnv1a(mut h: u32, bytes: &[u8]) -> u32 {
    let mut i = 0;
    while i < bytes.len() {
        h ^= bytes[i] as u32;
        h = h.wrapping_mul(0x0100_0193);
        i += 1;
    }
    h
}

/// Copies a key of at most [`KEY_MAX`] bytes. The caller has checked the bound.
pub(crate) fn copy_key(s: &str) -> KeyBuf {
    let mut k = KeyBuf::new();
    // Bound checked by `Key`; an overlong string would be a bug here, and the result empty.
    let _ = k.push_str(s);
    k
}

fn copy_str(s: &str) -> TextBuf {
    let mut t = TextBuf::new();
    let _ = t.push_str(s);
    t
}

fn copy_bytes(b: &[u8]) -> BytesBuf {
    let mut v = BytesBuf::new();
    let _ = v.extend_from_slice(b);
    v
}

impl<const N: usize> MaxEncoded for Str<'_, N> {
    const BOUND: usize = seq(N, 1);
}
impl<const N: usize> MaxEncoded for Blob<'_, N> {
    const BOUND: usize = seq(N, 1);
}
impl MaxEncoded for Value {
    const BOUND: usize = TAG
        + max(
            max(bool::BOUND, i64::BOUND),
            max(f64::BOUND, seq(TEXT_MAX, 1)),
        );
}
impl MaxEncoded for ValueRef<'_> {
    const BOUND: usize = Value::BOUND;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_enforced_at_construction() {
        assert!(Key::new("0123456789abcdef").is_ok());
        assert_eq!(
            Key::new("0123456789abcdefg"),
            Err(TooLong { max: 16, len: 17 })
        );
        assert!(Value::text(&"x".repeat(TEXT_MAX)).is_ok());
        assert!(Value::text(&"x".repeat(TEXT_MAX + 1)).is_err());
        assert!(Value::bytes(&[0; TEXT_MAX + 1]).is_err());
    }

    #[test]
    fn borrowed_and_owned_encode_identically() {
        let vals = [
            Value::Bool(true),
            Value::Int(-300),
            Value::Float(1.5),
            Value::text("héllo").unwrap(),
            Value::bytes(&[0, 1, 255]).unwrap(),
        ];
        for v in &vals {
            let mut a = [0u8; 64];
            let mut b = [0u8; 64];
            let ea = postcard::to_slice(v, &mut a).unwrap();
            let eb = postcard::to_slice(&v.as_ref(), &mut b).unwrap();
            assert_eq!(ea, eb);
            let back: ValueRef<'_> = postcard::from_bytes(ea).unwrap();
            assert!(back.to_owned().same(v));
            let owned: Value = postcard::from_bytes(ea).unwrap();
            assert!(owned.same(v));
        }
    }

    #[test]
    fn overlong_wire_strings_are_decode_errors() {
        let mut buf = [0u8; 64];
        let long = "y".repeat(KEY_MAX + 1);
        let enc = postcard::to_slice(long.as_str(), &mut buf).unwrap();
        assert!(postcard::from_bytes::<Key<'_>>(enc).is_err());
        assert!(postcard::from_bytes::<Text<'_>>(enc).is_ok());
    }

    #[test]
    fn encodings_are_canonical_and_decode_back() {
        let vals = [
            Value::Bool(false),
            Value::Int(i64::MIN),
            Value::Float(0.0),
            Value::Float(-0.0),
            Value::Float(f64::NAN),
            Value::text("").unwrap(),
            Value::bytes(b"").unwrap(),
            Value::text(&"x".repeat(TEXT_MAX)).unwrap(),
        ];
        let mut a = [0; Value::ENCODED_MAX];
        let mut b = [0; Value::ENCODED_MAX];
        for (i, v) in vals.iter().enumerate() {
            let ea = v.encode(&mut a);
            assert!(!ea.is_empty());
            let (back, rest) = Value::decode_prefix(ea).unwrap();
            assert!(back.same(v) && rest.is_empty());
            for (j, w) in vals.iter().enumerate() {
                assert_eq!(i == j, ea == w.encode(&mut b), "{v:?} {w:?}");
            }
            assert_eq!(
                Value::decode_prefix(&ea[..ea.len() - 1]).unwrap_err(),
                DecodeError::Truncated
            );
        }
        assert_eq!(
            Value::decode_prefix(&[9]).unwrap_err(),
            DecodeError::Malformed
        );
    }

    #[test]
    fn match_rank_orders_equal_prefix_none() {
        let a = Value::text("E429").unwrap();
        assert_eq!(a.match_rank(&Value::text("E429").unwrap()), 2);
        assert_eq!(a.match_rank(&Value::text("E4").unwrap()), 1);
        assert_eq!(a.match_rank(&Value::text("E5").unwrap()), 0);
        assert_eq!(a.match_rank(&Value::Int(429)), 0);
        assert_eq!(
            Value::Float(f64::NAN).match_rank(&Value::Float(f64::NAN)),
            2
        );
    }
}
