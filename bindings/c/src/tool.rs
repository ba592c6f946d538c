//! Host tools: the callback type, the call it receives, and the result it fills in.

use std::ffi::{c_char, c_void};

use evoharness_core::wire::{Frame, Message};
use evoharness_core::{EventBuf, EventError, ToolCall, Value};

use crate::ffi::{self, Castable, Error, guard};
use crate::status::evoharness_status;
use crate::value::{
    EVOHARNESS_ARGS_MAX, EVOHARNESS_FIELDS_MAX, evoharness_event_kind, evoharness_value,
};

/// One call of a host tool, as the agent resolved it.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct evoharness_tool_call {
    /// The tool's index in the task's tool schema.
    pub tool: u16,
    /// The tool's name (as registered), NUL-terminated; valid during the callback only.
    pub name: *const c_char,
    /// How many entries of `args` are used.
    pub arg_count: usize,
    /// The argument values.
    pub args: [evoharness_value; EVOHARNESS_ARGS_MAX],
}

impl evoharness_tool_call {
    pub(crate) fn new(call: &ToolCall, name: *const c_char) -> Self {
        let none = evoharness_value::from_value(&Value::Bool(false));
        let mut args = [none; EVOHARNESS_ARGS_MAX];
        for (d, v) in args.iter_mut().zip(&call.args) {
            *d = evoharness_value::from_value(v);
        }
        Self {
            tool: call.tool,
            name,
            arg_count: call.args.len(),
            args,
        }
    }
}

/// The result of one host tool call, being written by the tool: an event that the library
/// owns. It starts as an empty `EVOHARNESS_EVENT_KIND_RESULT` event from the called tool; the
/// tool adds fields (`evoharness_tool_result_add_*`), may make it an error event
/// (`evoharness_tool_result_set_kind`) or replace it with an encoded event frame
/// (`evoharness_tool_result_set_frame`).
///
/// Lent to the tool callback for the duration of the call only, on the thread that steps the
/// agent: never keep the pointer, never free it.
pub struct evoharness_tool_result {
    _private: [u8; 0],
}

/// What a tool result holds while the tool writes it.
#[doc(hidden)]
pub struct ToolResult {
    pub(crate) event: EventBuf,
    /// The first builder call that failed, if any: a world written by the host treats its
    /// event as malformed then (a host tool's event keeps what was added).
    pub(crate) refused: Option<String>,
}

impl ToolResult {
    pub(crate) fn new(event: EventBuf) -> Self {
        Self {
            event,
            refused: None,
        }
    }

    /// Runs one builder call, remembering its first failure.
    fn record<T>(&mut self, f: impl FnOnce(&mut Self) -> ffi::Result<T>) -> ffi::Result<T> {
        let r = f(self);
        if let Err(e) = &r
            && self.refused.is_none()
        {
            self.refused = Some(e.message.clone());
        }
        r
    }
}

impl Castable for evoharness_tool_result {
    type Rust = ToolResult;
}

/// A host tool. The agent calls it on the thread that steps the agent, with the `user_data`
/// given at registration, the resolved call and the result to fill in.
///
/// Return 0 when the tool ran (its result, an ordinary or an error event, is what the agent
/// sees next). Any other value reports that the tool itself failed: the agent then sees an
/// error event `{error: "tool_failed", code: <the value>}` from that tool instead of what was
/// written, and goes on. A tool never aborts the agent.
///
/// The callback must return normally: it must not unwind (no C++ exception, no `longjmp`) out
/// of the call. The functions of the agent that called it, and of that agent's lent workspace,
/// refuse calls from it (`INVALID_ARGUMENT`).
pub type evoharness_tool_fn = Option<
    unsafe extern "C" fn(
        user_data: *mut c_void,
        call: *const evoharness_tool_call,
        result: *mut evoharness_tool_result,
    ) -> i32,
>;

/// # Safety
/// `result` is NULL or the live result lent to the current tool callback.
unsafe fn result_mut<'a>(result: *mut evoharness_tool_result) -> ffi::Result<&'a mut ToolResult> {
    // SAFETY: the caller's contract.
    unsafe { ffi::try_mut(result, "result") }
}

fn push(r: &mut ToolResult, key: &str, value: Value) -> ffi::Result<()> {
    r.event.push(key, value).map_err(|e| match e {
        EventError::TooManyFields => Error::new(
            evoharness_status::BufferTooSmall,
            format!("an event has at most {EVOHARNESS_FIELDS_MAX} fields"),
        ),
        e => Error::invalid(format!("the key `{key}`: {e}")),
    })
}

/// # Safety
/// `result` as for [`result_mut`]; `key` NULL or a NUL-terminated string.
unsafe fn add(
    result: *mut evoharness_tool_result,
    key: *const c_char,
    value: impl FnOnce() -> ffi::Result<Value>,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let r = unsafe { result_mut(result) }?;
        r.record(|r| {
            // SAFETY: the caller's contract.
            let key = unsafe { ffi::text(key, "key") }?;
            push(r, key, value()?)
        })
    })
}

/// Makes the result an event of this kind (one of `evoharness_event_kind`):
/// `EVOHARNESS_EVENT_KIND_ERROR` for a tool that ran but failed at its job (say why in its
/// fields).
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a kind out of range.
///
/// # Safety
/// `result` is the result lent to the running tool callback.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_tool_result_set_kind(
    result: *mut evoharness_tool_result,
    kind: u32,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let r = unsafe { result_mut(result) }?;
        r.record(|r| {
            r.event.kind = evoharness_event_kind::from_u32(kind)?;
            Ok(())
        })
    })
}

/// Adds a boolean field `key` (NUL-terminated UTF-8, at most `EVOHARNESS_KEY_MAX` bytes).
///
/// Errors (nothing added): `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a key that is too long or
/// not UTF-8; `BUFFER_TOO_SMALL` when the event already has `EVOHARNESS_FIELDS_MAX` fields.
///
/// # Safety
/// `result` is the result lent to the running tool callback; `key` a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_tool_result_add_bool(
    result: *mut evoharness_tool_result,
    key: *const c_char,
    value: bool,
) -> evoharness_status {
    // SAFETY: the caller's contract.
    unsafe { add(result, key, || Ok(Value::Bool(value))) }
}

/// Adds a signed 64-bit integer field. Errors: as `evoharness_tool_result_add_bool`.
///
/// # Safety
/// As `evoharness_tool_result_add_bool`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_tool_result_add_int(
    result: *mut evoharness_tool_result,
    key: *const c_char,
    value: i64,
) -> evoharness_status {
    // SAFETY: the caller's contract.
    unsafe { add(result, key, || Ok(Value::Int(value))) }
}

/// Adds a 64-bit float field. Errors: as `evoharness_tool_result_add_bool`.
///
/// # Safety
/// As `evoharness_tool_result_add_bool`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_tool_result_add_float(
    result: *mut evoharness_tool_result,
    key: *const c_char,
    value: f64,
) -> evoharness_status {
    // SAFETY: the caller's contract.
    unsafe { add(result, key, || Ok(Value::Float(value))) }
}

/// Adds a text field: `text` is NUL-terminated UTF-8 of at most `EVOHARNESS_TEXT_MAX` bytes
/// (copied).
///
/// Errors: as `evoharness_tool_result_add_bool`, and `INVALID_ARGUMENT` for text that is too
/// long or not UTF-8.
///
/// # Safety
/// As `evoharness_tool_result_add_bool`; `text` is a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_tool_result_add_text(
    result: *mut evoharness_tool_result,
    key: *const c_char,
    text: *const c_char,
) -> evoharness_status {
    let value = || {
        // SAFETY: the caller's contract.
        let t = unsafe { ffi::text(text, "text") }?;
        Value::text(t).map_err(|e| Error::invalid(format!("text: {e}")))
    };
    // SAFETY: the caller's contract.
    unsafe { add(result, key, value) }
}

/// Adds a bytes field: `len` bytes at `bytes` (copied; at most `EVOHARNESS_TEXT_MAX`).
///
/// Errors: as `evoharness_tool_result_add_bool`, and `INVALID_ARGUMENT` for too many bytes.
///
/// # Safety
/// As `evoharness_tool_result_add_bool`; `bytes` points at `len` readable bytes (NULL when
/// `len` is 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_tool_result_add_bytes(
    result: *mut evoharness_tool_result,
    key: *const c_char,
    bytes: *const u8,
    len: usize,
) -> evoharness_status {
    let value = || {
        // SAFETY: the caller's contract.
        let b = unsafe { ffi::slice(bytes, len, "bytes") }?;
        Value::bytes(b).map_err(|e| Error::invalid(format!("bytes: {e}")))
    };
    // SAFETY: the caller's contract.
    unsafe { add(result, key, value) }
}

/// Replaces the whole result with the event in `frame` (one wire frame carrying an event,
/// `core/PROTOCOL.md`): for hosts whose tools already speak the protocol.
///
/// Errors (the result is unchanged): `NULL_ARGUMENT`; `DECODE`; `INVALID_ARGUMENT` for a frame
/// that carries no event.
///
/// # Safety
/// `result` is the result lent to the running tool callback; `frame` points at `len` readable
/// bytes (NULL when `len` is 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_tool_result_set_frame(
    result: *mut evoharness_tool_result,
    frame: *const u8,
    len: usize,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let r = unsafe { result_mut(result) }?;
        r.record(|r| {
            // SAFETY: the caller's contract.
            let bytes = unsafe { ffi::slice(frame, len, "frame") }?;
            let f = Frame::decode(bytes)
                .map_err(|e| Error::new(evoharness_status::Decode, format!("event frame: {e}")))?;
            let Message::Event(e) = &f.body else {
                return Err(Error::invalid("the frame carries no event"));
            };
            r.event = EventBuf::from_event(e);
            Ok(())
        })
    })
}
