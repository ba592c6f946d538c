//! The structured layouts (v1, v2) as data: what a training loop or another inference engine needs to
//! encode observations and read action templates without re-typing a size by hand.

use std::ffi::c_char;

use crate::ffi::{self, guard};
use crate::status::evoharness_status;
use crate::workspace::evoharness_capacities;

/// Writes the structured-v1 layout (`evoharness_layout_json_version` with 1) for the capacities `*caps` as JSON (UTF-8 with a NUL) into
/// `buf` (`cap` bytes) and its length without the NUL into `*out_len`: `abi`,
/// `layout_version`, the capacities, `obs_len`, `actions`, `segments` (name, offset, rows,
/// width, features) and `templates` (each template's `[verb, tool]`, tool -1 for a template
/// that calls none). About 6 KB for the task suite's capacities (16, 8, 4, 8); any thread.
///
/// Errors (nothing written): `NULL_ARGUMENT`; `CONFIG` for capacities out of range;
/// `BUFFER_TOO_SMALL` if `cap` is not more than the length.
///
/// # Safety
/// `caps` points at a readable struct; `buf` at `cap` writable bytes; `out_len` at a writable
/// `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_layout_json(
    caps: *const evoharness_capacities,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> evoharness_status {
    // SAFETY: the caller's contract, which is the versioned function's.
    unsafe { evoharness_layout_json_version(caps, 1, buf, cap, out_len) }
}

/// Writes the layout of version `layout_version` (1: `structured-v1`; 2: `structured-v2`,
/// structured-v1's segments and `harness`) for the capacities `*caps` as JSON, as
/// `evoharness_layout_json` does. A policy file's `evoharness.abi` and
/// `evoharness.layout_version` name the version it reads.
///
/// Errors (nothing written): `NULL_ARGUMENT`; `CONFIG` for capacities out of range or another
/// version; `BUFFER_TOO_SMALL` if `cap` is not more than the length.
///
/// # Safety
/// `caps` points at a readable struct; `buf` at `cap` writable bytes; `out_len` at a writable
/// `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_layout_json_version(
    caps: *const evoharness_capacities,
    layout_version: u32,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let caps = unsafe { ffi::input(caps, "caps") }?;
        let json = evoharness_runtime::layout::layout_json_version(caps.to_core(), layout_version)?;
        // SAFETY: the caller's contract.
        unsafe { ffi::write_str(&json, buf, cap, out_len) }
    })
}
