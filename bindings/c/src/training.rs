//! What a training loop in another language needs besides the VecEnv itself: environments in
//! groups (for group-relative policy optimisation), a rule-based teacher's labels (for
//! imitation), and the structured-v1 layout as data (so that no size is re-typed by hand).

use std::ffi::c_char;

use evoharness_core::Capacities;
use evoharness_runtime::tasks::{CAPACITIES, Teacher};

use crate::ffi::{self, Error, guard};
use crate::status::evoharness_status;
use crate::vec_env::{evoharness_vec_env, new_vec_env};
use crate::workspace::evoharness_capacities;

/// A rule-based agent whose choice `evoharness_vec_env_teacher_actions` reports.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum evoharness_teacher {
    /// The lean harness: sees only what a policy sees (the workspace and the current event),
    /// so a policy can imitate it exactly.
    Lean = 1,
    /// The oracle: reads the world's hidden state; an upper bound, not fully imitable.
    Oracle = 2,
}

/// Like `evoharness_vec_env_new`, in groups of `group` environments (`group` at least 1 and
/// dividing `n`) that run the same organisation and the same sequence of seeds: environment
/// `i` is in group `g = i / group`, runs organisation `family_start + g % family_count` and,
/// for its `k`-th episode, seed `seed + g + k·(n / group)`. With `group` 1 this is exactly
/// `evoharness_vec_env_new`. On success `*out` is a new environment that the caller owns
/// (free it with `evoharness_vec_env_free`).
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a task or horizon out of range; `CONFIG` for
/// `n` or `family_count` of 0, a `group` that does not divide `n`, or a family range that
/// overflows.
///
/// # Safety
/// `out` points at a writable pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_new_grouped(
    task: u32,
    horizon: u32,
    n: usize,
    group: usize,
    family_start: u64,
    family_count: u64,
    seed: u64,
    out: *mut *mut evoharness_vec_env,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let out = unsafe { ffi::out(out, "out") }?;
        let v = new_vec_env(task, horizon, n, group, family_start, family_count, seed)?;
        out.write(ffi::to_owned_ptr(v));
        Ok(())
    })
}

/// Writes into `out` (`out_len` = `n` templates) the template `teacher` (an
/// `evoharness_teacher`) would choose now in every environment, in the state its last
/// observation shows: labels for imitation learning, such as DAgger's on the states a learning
/// policy visits. The choices are legal (their mask bytes are 1).
///
/// Errors (nothing written): `NULL_ARGUMENT`; `INVALID_ARGUMENT` for an unknown teacher or an
/// array of the wrong length.
///
/// # Safety
/// `env` is a live environment that no thread changes meanwhile; `out` points at `out_len`
/// writable `uint32_t`s.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_teacher_actions(
    env: *const evoharness_vec_env,
    teacher: u32,
    out: *mut u32,
    out_len: usize,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let v = unsafe { ffi::try_ref(env, "env") }?;
        let t = match teacher {
            1 => Teacher::Lean,
            2 => Teacher::Oracle,
            t => {
                return Err(Error::invalid(format!(
                    "teacher is {t}: 1 lean or 2 oracle"
                )));
            }
        };
        if out_len != v.len() {
            return Err(Error::invalid(format!(
                "out has {out_len} elements; {} environments need {}",
                v.len(),
                v.len()
            )));
        }
        // SAFETY: the caller's contract: `out` holds `out_len` writable elements.
        let out = unsafe { ffi::slice_mut(out, out_len, "out") }?;
        let mut labels = vec![0u32; out_len];
        v.teacher_actions(t, &mut labels)?;
        out.copy_from_slice(&labels);
        Ok(())
    })
}

/// The capacities of the task suite's workspaces (what a policy for the suite is made for).
/// Writes nothing if `out` is NULL.
///
/// # Safety
/// `out` is NULL or points at a writable struct.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_suite_capacities(out: *mut evoharness_capacities) {
    // SAFETY: the caller's contract; NULL is refused by `out` and then ignored.
    if let Ok(o) = unsafe { ffi::out(out, "out") } {
        o.write(evoharness_capacities::from_core(CAPACITIES));
    }
}

/// Writes the structured-v1 layout for these capacities as JSON (UTF-8 with a NUL) into
/// `buf` (`cap` bytes) and its length without the NUL into `*out_len`: `abi`,
/// `layout_version`, the capacities, `obs_len`, `actions`, `segments` (name, offset, rows,
/// width, features) and `templates` (each template's `[verb, tool]`, tool -1 for a template
/// that calls none). About 6 KB for the suite's capacities.
///
/// Errors (nothing written): `NULL_ARGUMENT`; `CONFIG` for capacities out of range;
/// `BUFFER_TOO_SMALL` if `cap` is not more than the length.
///
/// # Safety
/// `buf` points at `cap` writable bytes; `out_len` at a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_layout_json(
    facts: u16,
    steps: u16,
    lessons: u16,
    tools: u16,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> evoharness_status {
    guard(|| {
        let json = evoharness_runtime::layout::layout_json(Capacities {
            facts,
            steps,
            lessons,
            tools,
        })?;
        // SAFETY: the caller's contract.
        unsafe { ffi::write_str(&json, buf, cap, out_len) }
    })
}
