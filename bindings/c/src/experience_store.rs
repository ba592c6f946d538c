//! Experience stores: the library of lessons behind an agent's working set (the runtime's
//! `ExperienceStore`): replicas, a budget, its own file, bytes, and a merge that is a join.

use std::ffi::c_char;

use evoharness_runtime::{ExperienceStore, FileError};

use crate::agent::{evoharness_agent, with_agent_mut};
use crate::ffi::{self, Castable, Error, Given, guard, guard_value};
use crate::status::evoharness_status;
use crate::value::evoharness_value;
use crate::workspace::evoharness_lesson;

/// A library of lessons (trigger → remedy, with helpful/harmful, use and note counters) that
/// outlives tasks and agents: the store behind an agent's Experience working set. `note`
/// actions write through to it and `recall` brings its best matches into the working set;
/// each replica (agent) keeps its own lessons under a budget by evicting the
/// least-frequently-useful one; it persists in its own file and in the agent's checkpoints, and
/// merges with other agents' stores as a join: in any order, as often as wanted, nothing
/// counted twice.
///
/// Made by `evoharness_experience_store_new`, `_load` or `_from_bytes`; the caller owns it and
/// frees it with `evoharness_experience_store_free`, unless it gives it to an agent
/// (`evoharness_experience_store_attach`). One thread at a time.
pub struct evoharness_experience_store {
    _private: [u8; 0],
}

impl Castable for evoharness_experience_store {
    type Rust = ExperienceStore;
}

/// The largest budget of an experience store (and of a store file: its table is allocated up
/// front).
pub const EVOHARNESS_EXPERIENCE_STORE_BUDGET_MAX: usize = 65536;

// The header's number is the runtime's, checked when this crate compiles.
const _: () = assert!(EVOHARNESS_EXPERIENCE_STORE_BUDGET_MAX == ExperienceStore::MAX_BUDGET);

fn refused(e: FileError) -> Error {
    Error::new(
        evoharness_status::ExperienceStore,
        format!("experience store refused: {e}"),
    )
}

/// Makes an empty store that holds at most `budget` lessons (1 to
/// `EVOHARNESS_EXPERIENCE_STORE_BUDGET_MAX`); on success `*out`
/// is a new store that the caller owns. Its table is allocated here, once.
///
/// Errors: `NULL_ARGUMENT`; `CONFIG` for a budget out of range.
///
/// # Safety
/// `out` points at a writable pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_experience_store_new(
    budget: usize,
    out: *mut *mut evoharness_experience_store,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let out = unsafe { ffi::out(out, "out") }?;
        let store = ExperienceStore::new(budget)?;
        out.write(ffi::to_owned_ptr(store));
        Ok(())
    })
}

/// As `evoharness_experience_store_new`, writing as `replica` (`_new` draws a random one):
/// give each agent of a fleet its own, and one agent the same across restarts.
///
/// Errors: `NULL_ARGUMENT`; `CONFIG` for a budget out of range.
///
/// # Safety
/// `out` points at a writable pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_experience_store_new_replica(
    budget: usize,
    replica: u64,
    out: *mut *mut evoharness_experience_store,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let out = unsafe { ffi::out(out, "out") }?;
        let store = ExperienceStore::for_replica(budget, replica)?;
        out.write(ffi::to_owned_ptr(store));
        Ok(())
    })
}

/// Writes to `*out` the replica the store writes as.
///
/// Errors: `NULL_ARGUMENT`.
///
/// # Safety
/// `store` is a live store that no thread changes meanwhile; `out` points at a writable
/// `uint64_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_experience_store_replica(
    store: *const evoharness_experience_store,
    out: *mut u64,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (store, out) = unsafe { (ffi::try_ref(store, "store")?, ffi::out(out, "out")?) };
        out.write(store.replica());
        Ok(())
    })
}

/// Makes the store write as `replica` from now on. What it wrote as its old replica stays, as
/// that replica's lessons; if it holds lessons of `replica`, they become its own. Call it when
/// several agents start from one shared store (a file, a fleet's merge), one replica each.
///
/// Errors: `NULL_ARGUMENT`.
///
/// # Safety
/// `store` is a live store that no other thread uses.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_experience_store_become_replica(
    store: *mut evoharness_experience_store,
    replica: u64,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let store = unsafe { ffi::try_mut(store, "store") }?;
        store.become_replica(replica);
        Ok(())
    })
}

/// Frees a store. NULL is a no-op. Do not use the pointer afterwards.
///
/// # Safety
/// `store` is NULL or a store the caller owns, not yet freed or given to an agent, that no
/// other thread is using.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_experience_store_free(store: *mut evoharness_experience_store) {
    guard_value((), || {
        // SAFETY: the caller's contract.
        unsafe { ffi::free_owned(store) }
    });
}

/// Notes a lesson: merges it into the lesson with the same trigger (the same remedy counts
/// one more note; another remedy replaces it and resets its ratings) or adds it, evicting the
/// least-frequently-useful lesson when the store is at its budget.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a malformed value (a length past
/// `EVOHARNESS_TEXT_MAX`, text that is not UTF-8, an unknown kind).
///
/// # Safety
/// `store` is a live store that no other thread uses; `trigger` and `remedy` point at readable
/// values.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_experience_store_note(
    store: *mut evoharness_experience_store,
    trigger: *const evoharness_value,
    remedy: *const evoharness_value,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (store, trigger, remedy) = unsafe {
            (
                ffi::try_mut(store, "store")?,
                ffi::input(trigger, "trigger")?,
                ffi::input(remedy, "remedy")?,
            )
        };
        let (trigger, remedy) = (trigger.to_value()?, remedy.to_value()?);
        store.note(trigger, remedy);
        Ok(())
    })
}

/// Counts the lesson with this trigger helpful (`helpful` true) or harmful.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a malformed value; `NOT_FOUND` when no
/// lesson has that trigger.
///
/// # Safety
/// `store` is a live store that no other thread uses; `trigger` points at a readable value.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_experience_store_rate(
    store: *mut evoharness_experience_store,
    trigger: *const evoharness_value,
    helpful: bool,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (store, trigger) = unsafe {
            (
                ffi::try_mut(store, "store")?,
                ffi::input(trigger, "trigger")?,
            )
        };
        if store.rate(&trigger.to_value()?, helpful) {
            Ok(())
        } else {
            Err(Error::not_found("no lesson of the store has that trigger"))
        }
    })
}

/// Writes the lesson with this trigger to `*out` (`last_use` is the store's clock; `recalled`
/// is false).
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a malformed value; `NOT_FOUND` when no
/// lesson has that trigger.
///
/// # Safety
/// `store` is a live store that no thread changes meanwhile; `trigger` points at a readable
/// value; `out` at a writable lesson.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_experience_store_lesson(
    store: *const evoharness_experience_store,
    trigger: *const evoharness_value,
    out: *mut evoharness_lesson,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (store, trigger, out) = unsafe {
            (
                ffi::try_ref(store, "store")?,
                ffi::input(trigger, "trigger")?,
                ffi::out(out, "out")?,
            )
        };
        let l = store
            .get(&trigger.to_value()?)
            .ok_or_else(|| Error::not_found("no lesson of the store has that trigger"))?;
        out.write(evoharness_lesson::from_core(l));
        Ok(())
    })
}

/// Writes to `*out` how many lessons an agent sees in the store (triggers of all replicas).
///
/// Errors: `NULL_ARGUMENT`.
///
/// # Safety
/// `store` is a live store that no thread changes meanwhile; `out` points at a writable
/// `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_experience_store_count(
    store: *const evoharness_experience_store,
    out: *mut usize,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (store, out) = unsafe { (ffi::try_ref(store, "store")?, ffi::out(out, "out")?) };
        out.write(store.len());
        Ok(())
    })
}

/// Writes to `*out` the most lessons the store's replica keeps of its own (its budget).
///
/// Errors: `NULL_ARGUMENT`.
///
/// # Safety
/// As `evoharness_experience_store_count`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_experience_store_budget(
    store: *const evoharness_experience_store,
    out: *mut usize,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (store, out) = unsafe { (ffi::try_ref(store, "store")?, ffi::out(out, "out")?) };
        out.write(store.budget());
        Ok(())
    })
}

/// Merges `other` into `store` (`other` is not changed) as a join: the store holds, per
/// replica (each agent that wrote lessons), the later of the two stores' versions of that
/// replica's lessons, and an agent sees per trigger the lessons of all replicas summed by
/// remedy: its own remedy where its replica has one, else the most useful. Commutative,
/// associative and idempotent (in what the store holds): a fleet may
/// merge in any order and as often as it likes, and nothing is counted twice (merging a store
/// with itself, or with one it already holds, changes nothing). `store` keeps its replica and
/// budget; a merge evicts nothing.
///
/// Errors: `NULL_ARGUMENT`.
///
/// # Safety
/// `store` is a live store that no other thread uses; `other` a live store that no thread
/// changes meanwhile (it may be `store` itself).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_experience_store_merge(
    store: *mut evoharness_experience_store,
    other: *const evoharness_experience_store,
) -> evoharness_status {
    guard(|| {
        if std::ptr::eq(store.cast_const(), other) {
            // SAFETY: the caller's contract; a join with itself changes nothing.
            unsafe { ffi::try_ref(other, "other") }?;
            return Ok(());
        }
        // SAFETY: the caller's contract; distinct objects (checked above).
        let (store, other) =
            unsafe { (ffi::try_mut(store, "store")?, ffi::try_ref(other, "other")?) };
        store.merge(other);
        Ok(())
    })
}

/// Merges `count` stores (none changed) into a new one, as `evoharness_experience_store_merge`
/// does for two: a copy of the first with the others joined in. It holds the same replicas
/// and shows the same lessons in any order of `stores`, and writes as the first store's
/// replica. On success `*out` is a new store that the caller owns.
///
/// Errors: `NULL_ARGUMENT` (also for a NULL entry of `stores`); `CONFIG` when `count` is 0.
///
/// # Safety
/// `stores` points at `count` readable pointers to live stores that no thread changes
/// meanwhile; `out` at a writable pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_experience_store_merge_all(
    stores: *const *const evoharness_experience_store,
    count: usize,
    out: *mut *mut evoharness_experience_store,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (ptrs, out) = unsafe { (ffi::slice(stores, count, "stores")?, ffi::out(out, "out")?) };
        let stores = ptrs
            .iter()
            .map(|&p| {
                // SAFETY: the caller's contract: each entry is a live store.
                unsafe { ffi::try_ref(p, "stores[i]") }
            })
            .collect::<ffi::Result<Vec<_>>>()?;
        let merged = ExperienceStore::merge_all(stores)?;
        out.write(ffi::to_owned_ptr(merged));
        Ok(())
    })
}

/// Writes the store to the file at `path`, replacing it atomically (through a temporary file
/// beside it).
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for an empty path; `IO` when the file cannot be
/// written (an earlier file there is left intact).
///
/// # Safety
/// `store` is a live store that no thread changes meanwhile; `path` a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_experience_store_save(
    store: *const evoharness_experience_store,
    path: *const c_char,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (store, path) = unsafe { (ffi::try_ref(store, "store")?, ffi::path(path, "path")?) };
        store.save(path)?;
        Ok(())
    })
}

/// Reads a store from the file at `path`; on success `*out` is a new store that the caller
/// owns.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for an empty path; `IO` when the file cannot be
/// read; `EXPERIENCE_STORE` when its bytes are refused (truncated, corrupted, foreign: the
/// message says why).
///
/// # Safety
/// `path` is a NUL-terminated string; `out` points at a writable pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_experience_store_load(
    path: *const c_char,
    out: *mut *mut evoharness_experience_store,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (path, out) = unsafe { (ffi::path(path, "path")?, ffi::out(out, "out")?) };
        let store = ExperienceStore::load(path)?;
        out.write(ffi::to_owned_ptr(store));
        Ok(())
    })
}

/// Writes to `*out` the length in bytes of the store's encoding now (what
/// `evoharness_experience_store_to_bytes` writes).
///
/// Errors: `NULL_ARGUMENT`.
///
/// # Safety
/// As `evoharness_experience_store_count`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_experience_store_encoded_len(
    store: *const evoharness_experience_store,
    out: *mut usize,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (store, out) = unsafe { (ffi::try_ref(store, "store")?, ffi::out(out, "out")?) };
        out.write(store.to_bytes().len());
        Ok(())
    })
}

/// Writes the store's versioned, checksummed encoding (the file's bytes) into `buf` (`cap`
/// bytes; `evoharness_experience_store_encoded_len` bytes suffice) and its length to
/// `*out_len`. The same lessons always give the same bytes.
///
/// Errors: `NULL_ARGUMENT`; `BUFFER_TOO_SMALL` (nothing written).
///
/// # Safety
/// `store` is a live store that no thread changes meanwhile; `buf` points at `cap` writable
/// bytes; `out_len` at a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_experience_store_to_bytes(
    store: *const evoharness_experience_store,
    buf: *mut u8,
    cap: usize,
    out_len: *mut usize,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (store, len_out) =
            unsafe { (ffi::try_ref(store, "store")?, ffi::out(out_len, "out_len")?) };
        if buf.is_null() {
            return Err(Error::new(evoharness_status::NullArgument, "`buf` is NULL"));
        }
        let bytes = store.to_bytes();
        let n = bytes.len();
        if cap < n {
            return Err(Error::new(
                evoharness_status::BufferTooSmall,
                format!("the store needs {n} bytes; the buffer holds {cap}"),
            ));
        }
        // SAFETY: `buf` is non-NULL (checked) and valid for `cap` >= `n` bytes (the caller's
        // contract).
        unsafe { ffi::slice_mut(buf, n, "buf") }?.copy_from_slice(&bytes);
        len_out.write(n);
        Ok(())
    })
}

/// Reads a store from its bytes (`evoharness_experience_store_to_bytes` or a file's); on
/// success `*out` is a new store that the caller owns. Untrusted bytes are safe to pass.
///
/// Errors: `NULL_ARGUMENT`; `EXPERIENCE_STORE` when the bytes are refused (truncated,
/// corrupted, foreign: the message says why).
///
/// # Safety
/// `bytes` points at `len` readable bytes (NULL when `len` is 0); `out` at a writable pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_experience_store_from_bytes(
    bytes: *const u8,
    len: usize,
    out: *mut *mut evoharness_experience_store,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (bytes, out) = unsafe { (ffi::slice(bytes, len, "bytes")?, ffi::out(out, "out")?) };
        let store = ExperienceStore::from_bytes(bytes).map_err(refused)?;
        out.write(ffi::to_owned_ptr(store));
        Ok(())
    })
}

/// Gives a store to an agent, as the library behind its workspace's Experience: from now on
/// its `note` actions write through to the store, its `recall`s first bring the store's best
/// matches into the working set, and its checkpoints carry the store.
///
/// Ownership: on success the agent takes the store over and `*store` becomes NULL; on failure
/// it stays the caller's, unchanged.
///
/// Errors: `NULL_ARGUMENT` (also for `*store`); `INVALID_ARGUMENT` when the agent has a store
/// already (detach it first), or from inside one of the agent's callbacks.
///
/// # Safety
/// `store` points at a pointer to a live store that the caller owns and no other thread uses;
/// `agent` is a live agent that no other thread uses.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_experience_store_attach(
    store: *mut *mut evoharness_experience_store,
    agent: *mut evoharness_agent,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let given = unsafe { Given::new(store, "store") }?;
        // SAFETY: the caller's contract.
        unsafe {
            with_agent_mut(agent, |a| {
                if a.experience_store().is_some() {
                    return Err(Error::invalid(
                        "the agent has an experience store already: detach it first",
                    ));
                }
                let (store, _slot) = given.take();
                a.set_experience_store(*store);
                Ok(())
            })
        }
    })
}

/// Takes an agent's store back: on success `*out` is the store, which the caller owns again,
/// and the agent goes on without one (its working set stays as it is).
///
/// Errors: `NULL_ARGUMENT`; `NOT_FOUND` when the agent has no store; `INVALID_ARGUMENT` from
/// inside one of the agent's callbacks.
///
/// # Safety
/// `agent` is a live agent that no other thread uses; `out` points at a writable pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_experience_store_detach(
    agent: *mut evoharness_agent,
    out: *mut *mut evoharness_experience_store,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let out = unsafe { ffi::out(out, "out") }?;
        // SAFETY: the caller's contract.
        let store = unsafe {
            with_agent_mut(agent, |a| {
                a.take_experience_store()
                    .ok_or_else(|| Error::not_found("the agent has no experience store"))
            })
        }?;
        out.write(ffi::to_owned_ptr(store));
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ptr::{null, null_mut};

    fn text(s: &str) -> evoharness_value {
        evoharness_value::from_value(&evoharness_core::Value::text(s).unwrap())
    }

    fn int(i: i64) -> evoharness_value {
        evoharness_value::from_value(&evoharness_core::Value::Int(i))
    }

    fn new(budget: usize) -> *mut evoharness_experience_store {
        let mut s = null_mut();
        // SAFETY: `s` is a writable pointer.
        let status = unsafe { evoharness_experience_store_new(budget, &mut s) };
        assert_eq!(status, evoharness_status::Ok);
        s
    }

    fn bytes(s: *const evoharness_experience_store) -> Vec<u8> {
        let mut n = 0;
        // SAFETY: `s` is a live store; `n` a writable size.
        unsafe { evoharness_experience_store_encoded_len(s, &mut n) };
        let mut buf = vec![0u8; n];
        let mut len = 0;
        // SAFETY: `buf` has `n` writable bytes.
        let st = unsafe { evoharness_experience_store_to_bytes(s, buf.as_mut_ptr(), n, &mut len) };
        assert_eq!((st, len), (evoharness_status::Ok, n));
        buf
    }

    #[test]
    fn note_rate_lesson_count_bytes_and_merge() {
        let a = new(4);
        let b = new(4);
        // SAFETY: live stores and readable values throughout.
        unsafe {
            assert_eq!(
                evoharness_experience_store_note(a, &text("E429"), &int(1)),
                evoharness_status::Ok
            );
            assert_eq!(
                evoharness_experience_store_rate(a, &text("E429"), true),
                evoharness_status::Ok
            );
            assert_eq!(
                evoharness_experience_store_rate(a, &text("nope"), true),
                evoharness_status::NotFound
            );
            evoharness_experience_store_note(b, &text("E500"), &int(2));
            let mut l = std::mem::zeroed::<evoharness_lesson>();
            assert_eq!(
                evoharness_experience_store_lesson(a, &text("E429"), &mut l),
                evoharness_status::Ok
            );
            assert_eq!((l.helpful, l.noted, l.remedy.integer), (1, 1, 1));
            // A join with itself changes nothing.
            let before = bytes(a);
            assert_eq!(
                evoharness_experience_store_merge(a, a),
                evoharness_status::Ok
            );
            assert_eq!(bytes(a), before);
            let all = [a.cast_const(), b.cast_const()];
            let again = [
                a.cast_const(),
                b.cast_const(),
                b.cast_const(),
                a.cast_const(),
            ];
            let (mut m1, mut m2) = (null_mut(), null_mut());
            assert_eq!(
                evoharness_experience_store_merge_all(all.as_ptr(), 2, &mut m1),
                evoharness_status::Ok
            );
            evoharness_experience_store_merge_all(again.as_ptr(), 4, &mut m2);
            assert_eq!(bytes(m1), bytes(m2));
            assert_eq!(
                evoharness_experience_store_merge_all(null(), 0, &mut m2),
                evoharness_status::Config
            );
            assert_eq!(
                evoharness_experience_store_merge(a, b),
                evoharness_status::Ok
            );
            assert_eq!(bytes(a), bytes(m1));
            let mut n = 0;
            evoharness_experience_store_count(a, &mut n);
            assert_eq!(n, 2);
            evoharness_experience_store_budget(a, &mut n);
            assert_eq!(n, 4);
            // Bytes round-trip; bad ones are refused with their own status.
            let good = bytes(a);
            let mut c = null_mut();
            assert_eq!(
                evoharness_experience_store_from_bytes(good.as_ptr(), good.len(), &mut c),
                evoharness_status::Ok
            );
            assert_eq!(bytes(c), good);
            let mut bad = good.clone();
            bad[12] ^= 1;
            let mut d = null_mut();
            assert_eq!(
                evoharness_experience_store_from_bytes(bad.as_ptr(), bad.len(), &mut d),
                evoharness_status::ExperienceStore
            );
            assert!(d.is_null());
            let mut small = [0u8; 4];
            let mut len = 7;
            assert_eq!(
                evoharness_experience_store_to_bytes(a, small.as_mut_ptr(), 4, &mut len),
                evoharness_status::BufferTooSmall
            );
            assert_eq!(len, 7);
            for s in [a, b, c, m1, m2] {
                evoharness_experience_store_free(s);
            }
            evoharness_experience_store_free(null_mut());
        }
        let mut s = null_mut();
        // SAFETY: `s` is a writable pointer.
        let status = unsafe { evoharness_experience_store_new(0, &mut s) };
        assert_eq!(status, evoharness_status::Config);
    }

    #[test]
    fn an_agent_takes_a_store_and_gives_it_back() {
        use crate::agent::{evoharness_agent_config, evoharness_agent_config_default};
        use crate::agent::{evoharness_agent_free, evoharness_agent_new};
        use crate::policy::{
            evoharness_backend, evoharness_policy_load, evoharness_policy_options,
            evoharness_policy_options_default,
        };
        let model = std::ffi::CString::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../runtime/tests/fixtures/mlp.onnx"
        ))
        .unwrap();
        // SAFETY: valid pointers throughout; the handles are freed at the end.
        unsafe {
            let mut opts = std::mem::zeroed::<evoharness_policy_options>();
            evoharness_policy_options_default(&mut opts);
            opts.backend = evoharness_backend::Tract as u32;
            let mut policy = null_mut();
            assert_eq!(
                evoharness_policy_load(model.as_ptr(), &opts, &mut policy),
                evoharness_status::Ok
            );
            let mut config = std::mem::zeroed::<evoharness_agent_config>();
            evoharness_agent_config_default(&mut config);
            let mut agent = null_mut();
            assert_eq!(
                evoharness_agent_new(&mut policy, null_mut(), &config, &mut agent),
                evoharness_status::Ok
            );
            let mut out = null_mut();
            assert_eq!(
                evoharness_experience_store_detach(agent, &mut out),
                evoharness_status::NotFound
            );
            let mut store = new(8);
            evoharness_experience_store_note(store, &text("E1"), &int(0));
            let before = bytes(store);
            assert_eq!(
                evoharness_experience_store_attach(&mut store, agent),
                evoharness_status::Ok
            );
            assert!(store.is_null());
            // A second store is refused and stays the caller's.
            let mut second = new(2);
            assert_eq!(
                evoharness_experience_store_attach(&mut second, agent),
                evoharness_status::InvalidArgument
            );
            assert!(!second.is_null());
            assert_eq!(
                evoharness_experience_store_detach(agent, &mut out),
                evoharness_status::Ok
            );
            assert_eq!(bytes(out), before);
            evoharness_experience_store_free(out);
            evoharness_experience_store_free(second);
            evoharness_agent_free(agent);
        }
    }

    #[test]
    fn save_and_load_files() {
        let dir = std::env::temp_dir().join(format!("evoharness-c-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = std::ffi::CString::new(dir.join("s.evhe").to_str().unwrap()).unwrap();
        let missing = std::ffi::CString::new(dir.join("missing").to_str().unwrap()).unwrap();
        let a = new(8);
        // SAFETY: live stores, NUL-terminated paths, writable outputs.
        unsafe {
            evoharness_experience_store_note(a, &text("x"), &int(0));
            assert_eq!(
                evoharness_experience_store_save(a, path.as_ptr()),
                evoharness_status::Ok
            );
            let mut b = null_mut();
            assert_eq!(
                evoharness_experience_store_load(path.as_ptr(), &mut b),
                evoharness_status::Ok
            );
            assert_eq!(bytes(b), bytes(a));
            assert_eq!(
                evoharness_experience_store_load(missing.as_ptr(), &mut b),
                evoharness_status::Io
            );
            std::fs::write(dir.join("s.evhe"), b"EVHE\x01\x00").unwrap();
            assert_eq!(
                evoharness_experience_store_load(path.as_ptr(), &mut b),
                evoharness_status::ExperienceStore
            );
            evoharness_experience_store_free(a);
            evoharness_experience_store_free(b);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
