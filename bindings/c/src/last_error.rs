//! What a failed call tells C: a status's message, and this thread's last error in detail.

use std::ffi::c_char;

use crate::ffi::{guard_value, with_last_error};
use crate::status::evoharness_status;

/// A static, NUL-terminated description of a status (any `uint32_t`: an unknown value gives
/// "unknown status"). Never NULL; do not free it. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn evoharness_status_message(status: u32) -> *const c_char {
    guard_value(c"unknown status".as_ptr(), || {
        evoharness_status::from_u32(status)
            .map_or(c"unknown status", evoharness_status::message)
            .as_ptr()
    })
}

/// The detailed message of the last call *on this thread* that failed: what went wrong and,
/// where it helps, what to do ("" before any failure). NUL-terminated and never NULL. The
/// library owns it: do not free it; it stays valid until the next failing call on this thread.
/// Successful calls leave it unchanged.
#[unsafe(no_mangle)]
pub extern "C" fn evoharness_last_error_message() -> *const c_char {
    guard_value(c"".as_ptr(), || with_last_error(|m| m.as_ptr()))
}

/// The length in bytes (without the NUL) of `evoharness_last_error_message()`. Any thread
/// (each has its own).
#[unsafe(no_mangle)]
pub extern "C" fn evoharness_last_error_length() -> usize {
    guard_value(0, || with_last_error(|m| m.to_bytes().len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_status_has_a_message_too() {
        // SAFETY: status messages are static NUL-terminated strings.
        let unknown = unsafe { std::ffi::CStr::from_ptr(evoharness_status_message(999)) };
        assert_eq!(unknown, c"unknown status");
        // SAFETY: as above.
        let ok = unsafe { std::ffi::CStr::from_ptr(evoharness_status_message(0)) };
        assert_eq!(ok, c"success");
    }
}
