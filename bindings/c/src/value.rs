//! Values, keys and events as C structs, and the bounds that size them.

use std::ffi::c_char;

use evoharness_core::{EventBuf, EventKind, Value};

use crate::ffi::{self, Error, guard};
use crate::status::evoharness_status;

/// Longest key of a fact or an event field, in bytes (key arrays hold one more, for the NUL).
pub const EVOHARNESS_KEY_MAX: usize = 16;
/// Longest text or bytes value, in bytes.
pub const EVOHARNESS_TEXT_MAX: usize = 32;
/// The size of a key array: a key and its NUL.
pub const EVOHARNESS_KEY_SIZE: usize = EVOHARNESS_KEY_MAX + 1;
/// The size of a value's `data` array: text or bytes, and a NUL after text.
pub const EVOHARNESS_TEXT_SIZE: usize = EVOHARNESS_TEXT_MAX + 1;
/// Most fields in one event.
pub const EVOHARNESS_FIELDS_MAX: usize = 8;
/// Most arguments of one tool call.
pub const EVOHARNESS_ARGS_MAX: usize = 4;
/// The longest encoded wire frame, in bytes: an output buffer of this size always suffices for
/// `evoharness_workspace_apply`.
pub const EVOHARNESS_FRAME_MAX: usize = 420;

// The header's numbers are the core's, checked when this crate compiles.
const _: () = {
    assert!(EVOHARNESS_KEY_MAX == evoharness_core::KEY_MAX);
    assert!(EVOHARNESS_TEXT_MAX == evoharness_core::TEXT_MAX);
    assert!(EVOHARNESS_FIELDS_MAX == evoharness_core::FIELDS_MAX);
    assert!(EVOHARNESS_ARGS_MAX == evoharness_core::ARGS_MAX);
    assert!(EVOHARNESS_FRAME_MAX == evoharness_core::wire::FRAME_MAX);
};

/// The type of an `evoharness_value`.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum evoharness_value_kind {
    /// `boolean` holds it.
    Bool = 0,
    /// `integer` holds it.
    Int = 1,
    /// `number` holds it.
    Float = 2,
    /// `data` holds `len` bytes of UTF-8 and a NUL.
    Text = 3,
    /// `data` holds `len` bytes.
    Bytes = 4,
}

/// A typed value (what a fact holds, what an event field or a tool argument carries). Read the
/// member that `kind` names; the others are zero.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct evoharness_value {
    /// Which member holds the value.
    pub kind: evoharness_value_kind,
    /// For `EVOHARNESS_VALUE_KIND_BOOL`.
    pub boolean: bool,
    /// For `EVOHARNESS_VALUE_KIND_INT`.
    pub integer: i64,
    /// For `EVOHARNESS_VALUE_KIND_FLOAT`.
    pub number: f64,
    /// For text and bytes: how many bytes of `data` are used (at most `EVOHARNESS_TEXT_MAX`).
    pub len: usize,
    /// For text (UTF-8, followed by a NUL) and bytes.
    pub data: [u8; EVOHARNESS_TEXT_SIZE],
}

impl evoharness_value {
    pub(crate) fn from_value(v: &Value) -> Self {
        let mut out = Self {
            kind: evoharness_value_kind::Bool,
            boolean: false,
            integer: 0,
            number: 0.0,
            len: 0,
            data: [0; EVOHARNESS_TEXT_SIZE],
        };
        let mut bytes = |b: &[u8]| {
            out.data[..b.len()].copy_from_slice(b);
            b.len()
        };
        match v {
            Value::Bool(b) => out.boolean = *b,
            Value::Int(i) => {
                out.kind = evoharness_value_kind::Int;
                out.integer = *i;
            }
            Value::Float(x) => {
                out.kind = evoharness_value_kind::Float;
                out.number = *x;
            }
            Value::Text(t) => {
                out.len = bytes(t.as_bytes());
                out.kind = evoharness_value_kind::Text;
            }
            Value::Bytes(b) => {
                out.len = bytes(b);
                out.kind = evoharness_value_kind::Bytes;
            }
        }
        out
    }

    /// Back to a core value, for formatting; a value C made up is checked.
    pub(crate) fn to_value(self) -> ffi::Result<Value> {
        let data = self.data.get(..self.len).ok_or_else(|| {
            Error::invalid(format!(
                "a value of {} bytes; at most {EVOHARNESS_TEXT_MAX}",
                self.len
            ))
        })?;
        Ok(match self.kind {
            evoharness_value_kind::Bool => Value::Bool(self.boolean),
            evoharness_value_kind::Int => Value::Int(self.integer),
            evoharness_value_kind::Float => Value::Float(self.number),
            evoharness_value_kind::Text => Value::text(
                std::str::from_utf8(data)
                    .map_err(|_| Error::invalid("a text value that is not UTF-8"))?,
            )
            .map_err(|e| Error::invalid(e.to_string()))?,
            evoharness_value_kind::Bytes => {
                Value::bytes(data).map_err(|e| Error::invalid(e.to_string()))?
            }
        })
    }
}

/// Renders a value as text: `true`, `42`, `0.5`, `"text"` (quoted, escaped as Rust does),
/// `0x0a1b` for bytes.
pub(crate) fn format_value(v: &Value) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(x) => format!("{x:?}"),
        Value::Text(t) => format!("{:?}", t.as_str()),
        Value::Bytes(b) => {
            let mut s = String::from("0x");
            for byte in b {
                s.push_str(&format!("{byte:02x}"));
            }
            s
        }
    }
}

/// What kind of event this is.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum evoharness_event_kind {
    /// A tool ran and returned a result.
    Result = 0,
    /// A tool failed; its fields describe the failure.
    Error = 1,
    /// The environment says something unprompted (a task's start, a change).
    Notice = 2,
}

impl evoharness_event_kind {
    pub(crate) fn from_core(k: EventKind) -> Self {
        match k {
            EventKind::Result => Self::Result,
            EventKind::Error => Self::Error,
            EventKind::Notice => Self::Notice,
        }
    }

    pub(crate) fn from_u32(k: u32) -> ffi::Result<EventKind> {
        match k {
            0 => Ok(EventKind::Result),
            1 => Ok(EventKind::Error),
            2 => Ok(EventKind::Notice),
            _ => Err(Error::invalid(format!(
                "{k} is not an evoharness_event_kind (0 result, 1 error, 2 notice)"
            ))),
        }
    }
}

/// One field of an event: a key and a value.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct evoharness_field {
    /// The key, NUL-terminated.
    pub key: [c_char; EVOHARNESS_KEY_SIZE],
    /// The value.
    pub value: evoharness_value,
}

/// An event: what the world told the agent.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct evoharness_event {
    /// Result, error or notice.
    pub kind: evoharness_event_kind,
    /// The tool index it answers (or the environment's own source number, for notices).
    pub source: u16,
    /// How many entries of `fields` are used.
    pub field_count: usize,
    /// The fields, in the order the tool wrote them.
    pub fields: [evoharness_field; EVOHARNESS_FIELDS_MAX],
}

impl evoharness_event {
    pub(crate) fn from_core(e: &EventBuf) -> Self {
        let empty = evoharness_field {
            key: [0; EVOHARNESS_KEY_SIZE],
            value: evoharness_value::from_value(&Value::Bool(false)),
        };
        let mut fields = [empty; EVOHARNESS_FIELDS_MAX];
        for (d, f) in fields.iter_mut().zip(&e.fields) {
            d.key = ffi::fixed_str(&f.key);
            d.value = evoharness_value::from_value(&f.value);
        }
        Self {
            kind: evoharness_event_kind::from_core(e.kind),
            source: e.source,
            field_count: e.fields.len(),
            fields,
        }
    }
}

/// Writes `value` as text (see below) with a NUL into `buf` and its length (without the NUL)
/// to `*out_len`.
///
/// The text is `true`/`false`, a decimal integer, a float as Rust prints it (`0.5`, `1e-7`),
/// text in double quotes with escapes, or bytes as `0x` and hex digits. A buffer of 256 bytes
/// always suffices. Borrows everything; owns nothing. Any thread.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a value that is not one (an unknown kind, a
/// `len` over `EVOHARNESS_TEXT_MAX`, text that is not UTF-8); `BUFFER_TOO_SMALL` (nothing
/// written).
///
/// # Safety
/// `value` points at a readable `evoharness_value`; `buf` at `cap` writable bytes; `out_len`
/// at a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_value_format(
    value: *const evoharness_value,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> evoharness_status {
    guard(|| {
        if value.is_null() {
            return Err(Error::new(
                evoharness_status::NullArgument,
                "`value` is NULL",
            ));
        }
        // The kind byte first: a value C wrote may hold any byte there, which is not an
        // `evoharness_value_kind` until checked.
        // SAFETY: `value` is non-NULL and points at a readable `evoharness_value` (the
        // caller's contract); its first field, `kind`, is one byte at offset 0.
        let kind = unsafe { value.cast::<u8>().read() };
        if kind > evoharness_value_kind::Bytes as u8 {
            return Err(Error::invalid(format!(
                "{kind} is not an evoharness_value_kind"
            )));
        }
        if !value.is_aligned() {
            return Err(Error::invalid("`value` is not aligned for its type"));
        }
        // SAFETY: readable and aligned, and its kind byte is a valid discriminant (checked);
        // `boolean` is a C bool, 0 or 1 in any C program that wrote it as one.
        let v = unsafe { value.read() };
        let text = format_value(&v.to_value()?);
        // SAFETY: the caller's contract for `buf` and `out_len`.
        unsafe { ffi::write_str(&text, buf, cap, out_len) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_and_format() {
        let cases = [
            (Value::Bool(true), "true"),
            (Value::Int(-42), "-42"),
            (Value::Float(0.5), "0.5"),
            (Value::text("a\"b").unwrap(), "\"a\\\"b\""),
            (Value::bytes(&[0x0a, 0xff]).unwrap(), "0x0aff"),
        ];
        for (v, text) in cases {
            let c = evoharness_value::from_value(&v);
            assert_eq!(c.to_value().unwrap(), v);
            assert_eq!(format_value(&v), text);
        }
        // The longest renderings fit the documented 256 bytes: 32 control characters (each
        // escaped as `\u{1}`), the longest float, 32 bytes in hex.
        let worst = Value::text(&"\u{1}".repeat(32)).unwrap();
        assert!(format_value(&worst).len() < 256, "{}", format_value(&worst));
        let f = Value::Float(-1.234_567_890_123_456_7e-300);
        assert!(format_value(&f).len() < 256);
        assert!(format_value(&Value::bytes(&[0xff; 32]).unwrap()).len() < 256);
    }
}
