//! The suite's vectorised environment, for training: many worlds stepped in one call into
//! caller-owned arrays, so that Python (or any host) drives the very same simulators as the
//! Rust evaluation; environments in groups (for group-relative policy optimisation); and a
//! rule-based teacher's labels (for imitation).

use evoharness::ffi::{self, Castable, Error, guard, guard_value};
use evoharness::{evoharness_status, finished_flag};
use suite::{EpisodeStats, Teacher, VecEnv};

use crate::task::task_config;

/// `n` environments of one suite task, each an agent's world and workspace of the suite's
/// capacities (16 facts, 8 steps, 4 lessons, 8 tools), stepped together with one action
/// template each. An environment whose episode ends is reset at once with its next seed;
/// Experience carries over between the episodes of one environment (one organisation).
///
/// Made by `evoharness_vec_env_new` or `evoharness_vec_env_new_grouped`; the caller owns it
/// and frees it with `evoharness_vec_env_free`. Thread safety: one thread at a time; it may
/// move between threads.
pub struct evoharness_vec_env {
    _private: [u8; 0],
}

impl Castable for evoharness_vec_env {
    type Rust = VecEnv;
}

/// A rule-based agent whose choice `evoharness_vec_env_teacher_actions` reports.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum evoharness_teacher {
    /// The lean harness: sees only what a policy sees (the workspace and the current event),
    /// so a policy can imitate it exactly.
    Lean = 0,
    /// The oracle: reads the world's hidden state; an upper bound, not fully imitable.
    Oracle = 1,
}

/// The sizes of a vectorised environment.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct evoharness_vec_env_info {
    /// Environments.
    pub n: usize,
    /// Environments per group (1 without groups).
    pub group: usize,
    /// Floats in one environment's observation.
    pub obs_len: usize,
    /// Action templates of one environment (the length of its mask).
    pub actions: usize,
}

/// What one finished episode did.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct evoharness_episode_stats {
    /// Finished claiming success, every item landed exactly once, nothing written wrong.
    pub success: bool,
    /// -1 if the agent did not finish (out of budget); 1 if it claimed success, 0 if it gave
    /// up.
    pub finished: i8,
    /// Items landed more than once.
    pub duplicates: u32,
    /// Items never landed.
    pub gaps: u32,
    /// Items landed with stale settings.
    pub wrong_writes: u32,
    /// Steps taken.
    pub steps: u64,
    /// World actions among them.
    pub world_actions: u64,
    /// Harness actions by verb: track, commit, recall, note.
    pub harness: [u64; 4],
    /// Budget spent.
    pub cost: u32,
    /// The sum of the rewards over the episode.
    pub reward: f64,
    /// Items in the task.
    pub items: u32,
    /// Items that landed.
    pub landed: u32,
}

fn stats(s: &EpisodeStats) -> evoharness_episode_stats {
    evoharness_episode_stats {
        success: s.success,
        finished: finished_flag(s.finished),
        duplicates: s.violations.duplicates,
        gaps: s.violations.gaps,
        wrong_writes: s.violations.wrong_writes,
        steps: s.steps,
        world_actions: s.world_actions,
        harness: s.harness,
        cost: s.cost,
        reward: s.reward,
        items: s.items,
        landed: s.landed,
    }
}

/// Makes `n` (at least 1) environments of the suite task `task` (an `evoharness_task`) with
/// `horizon` (1 to 10,000,000), in organisations `organisation_start` to
/// `organisation_start + organisation_count - 1` (`organisation_count` at least 1), seeded
/// from `seed`: environment `i` runs organisation `organisation_start + i % organisation_count`
/// and, for its `k`-th episode, seed `seed + i + k·n`. Their first episodes start at once (read
/// them with `evoharness_vec_env_observe`). On success `*out` is a new environment that the
/// caller owns.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a task or horizon out of range; `CONFIG` for
/// `n` or `organisation_count` of 0, or an organisation range that overflows.
///
/// # Safety
/// `out` points at a writable pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_new(
    task: u32,
    horizon: u32,
    n: usize,
    organisation_start: u64,
    organisation_count: u64,
    seed: u64,
    out: *mut *mut evoharness_vec_env,
) -> evoharness_status {
    // SAFETY: the caller's contract.
    unsafe {
        evoharness_vec_env_new_grouped(
            task,
            horizon,
            n,
            1,
            organisation_start,
            organisation_count,
            seed,
            out,
        )
    }
}

/// Like `evoharness_vec_env_new`, in groups of `group` environments (`group` at least 1 and
/// dividing `n`) that run the same organisation and the same sequence of seeds: environment
/// `i` is in group `g = i / group`, runs organisation
/// `organisation_start + g % organisation_count` and, for its `k`-th episode, seed
/// `seed + g + k·(n / group)`. With `group` 1 this is exactly `evoharness_vec_env_new`. On
/// success `*out` is a new environment that the caller owns (free it with
/// `evoharness_vec_env_free`).
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a task or horizon out of range; `CONFIG` for
/// `n` or `organisation_count` of 0, a `group` that does not divide `n`, or an organisation
/// range that overflows.
///
/// # Safety
/// `out` points at a writable pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_new_grouped(
    task: u32,
    horizon: u32,
    n: usize,
    group: usize,
    organisation_start: u64,
    organisation_count: u64,
    seed: u64,
    out: *mut *mut evoharness_vec_env,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let out = unsafe { ffi::out(out, "out") }?;
        let task = task_config(task, horizon)?;
        let end = organisation_start
            .checked_add(organisation_count)
            .ok_or_else(|| {
                Error::new(
                    evoharness_status::Config,
                    "organisation_start + organisation_count overflows",
                )
            })?;
        let v = VecEnv::grouped(task, n, group, organisation_start..end, seed)?;
        out.write(ffi::to_owned_ptr::<evoharness_vec_env>(v));
        Ok(())
    })
}

/// Frees an environment. NULL is a no-op.
///
/// # Safety
/// `env` is NULL or an environment from `evoharness_vec_env_new` or
/// `evoharness_vec_env_new_grouped`, not yet freed, that no other thread is using.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_free(env: *mut evoharness_vec_env) {
    guard_value((), || {
        // SAFETY: the caller's contract.
        unsafe { ffi::free_owned(env) }
    })
}

/// Writes the environment's sizes to `*out`: how many environments, per group, and the
/// lengths of one environment's observation and mask.
///
/// Errors: `NULL_ARGUMENT`.
///
/// # Safety
/// `env` is a live environment that no thread changes meanwhile; `out` points at a writable
/// struct.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_get_info(
    env: *const evoharness_vec_env,
    out: *mut evoharness_vec_env_info,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (v, out) = unsafe { (ffi::try_ref(env, "env")?, ffi::out(out, "out")?) };
        out.write(evoharness_vec_env_info {
            n: v.len(),
            group: v.group(),
            obs_len: v.obs_len(),
            actions: v.actions(),
        });
        Ok(())
    })
}

fn check_len(what: &str, have: usize, want: usize) -> ffi::Result<()> {
    if have == want {
        Ok(())
    } else {
        Err(Error::invalid(format!(
            "{what} has {have} elements; this environment needs {want}"
        )))
    }
}

/// Writes every environment's current observation into `obs` (`obs_len` floats: `n` ×
/// `obs_len` of `evoharness_vec_env_info`, environment after environment) and its legal-action
/// mask into `mask` (`mask_len` bytes: `n` × `actions`, 1 = legal).
///
/// Errors (nothing written): `NULL_ARGUMENT`; `INVALID_ARGUMENT` for an array of the wrong
/// length.
///
/// # Safety
/// `env` is a live environment that no thread changes meanwhile; `obs` points at `obs_len`
/// writable floats, `mask` at `mask_len` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_observe(
    env: *const evoharness_vec_env,
    obs: *mut f32,
    obs_len: usize,
    mask: *mut u8,
    mask_len: usize,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract, argument by argument.
        let (v, obs, mask) = unsafe {
            (
                ffi::try_ref(env, "env")?,
                ffi::slice_mut(obs, obs_len, "obs")?,
                ffi::slice_mut(mask, mask_len, "mask")?,
            )
        };
        check_len("obs", obs.len(), v.len() * v.obs_len())?;
        check_len("mask", mask.len(), v.len() * v.actions())?;
        v.observe(obs, mask).map_err(Error::from)
    })
}

/// Steps every environment with its action template in `actions` (`n` of them), then writes
/// each one's next observation and mask (as `evoharness_vec_env_observe`), the step's reward
/// into `reward` (`n` floats) and whether its episode ended into `done` (`n` bytes, 1 = ended;
/// the environment was then reset and its observation is the next episode's first).
///
/// Every action is checked before any is applied: an illegal template (mask 0) or an array of
/// the wrong length changes nothing and writes nothing.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` (the message names the environment or the
/// array).
///
/// # Safety
/// `env` is a live environment that no other thread uses; each array points at as many
/// readable (`actions`) or writable elements as its length says.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_step(
    env: *mut evoharness_vec_env,
    actions: *const u32,
    actions_len: usize,
    obs: *mut f32,
    obs_len: usize,
    mask: *mut u8,
    mask_len: usize,
    reward: *mut f32,
    reward_len: usize,
    done: *mut u8,
    done_len: usize,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract, argument by argument.
        let (v, actions, obs, mask, reward, done) = unsafe {
            (
                ffi::try_mut(env, "env")?,
                ffi::slice(actions, actions_len, "actions")?,
                ffi::slice_mut(obs, obs_len, "obs")?,
                ffi::slice_mut(mask, mask_len, "mask")?,
                ffi::slice_mut(reward, reward_len, "reward")?,
                ffi::slice_mut(done, done_len, "done")?,
            )
        };
        v.step(actions, obs, mask, reward, done)
            .map_err(|e| match e.kind() {
                evoharness_runtime::ErrorKind::Config => Error::invalid(e.to_string()),
                _ => Error::from(e),
            })
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
        let (v, out) = unsafe {
            (
                ffi::try_ref(env, "env")?,
                ffi::slice_mut(out, out_len, "out")?,
            )
        };
        let t = match teacher {
            0 => Teacher::Lean,
            1 => Teacher::Oracle,
            t => {
                return Err(Error::invalid(format!(
                    "teacher is {t}: 0 lean or 1 oracle"
                )));
            }
        };
        check_len("out", out.len(), v.len())?;
        let mut labels = vec![0u32; out.len()];
        v.teacher_actions(t, &mut labels)?;
        out.copy_from_slice(&labels);
        Ok(())
    })
}

/// The environment at `index`, or `NOT_FOUND`.
fn check_index(v: &VecEnv, index: usize) -> ffi::Result<()> {
    if index < v.len() {
        Ok(())
    } else {
        Err(Error::not_found(format!(
            "no environment {index}: there are {}",
            v.len()
        )))
    }
}

/// Writes the stats of environment `index`'s last finished episode to `*out`.
///
/// Errors: `NULL_ARGUMENT`; `NOT_FOUND` for an index past the last environment, or one that
/// has not finished an episode yet.
///
/// # Safety
/// `env` is a live environment that no thread changes meanwhile; `out` points at a writable
/// struct.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_last_episode(
    env: *const evoharness_vec_env,
    index: usize,
    out: *mut evoharness_episode_stats,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (v, out) = unsafe { (ffi::try_ref(env, "env")?, ffi::out(out, "out")?) };
        check_index(v, index)?;
        let s = v.last_episode(index).ok_or_else(|| {
            Error::not_found(format!(
                "environment {index} has not finished an episode yet"
            ))
        })?;
        out.write(stats(s));
        Ok(())
    })
}

/// Writes how many episodes environment `index` has finished to `*out`.
///
/// Errors: `NULL_ARGUMENT`; `NOT_FOUND` for an index past the last environment.
///
/// # Safety
/// `env` is a live environment that no thread changes meanwhile; `out` points at a writable
/// `uint64_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_episodes(
    env: *const evoharness_vec_env,
    index: usize,
    out: *mut u64,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (v, out) = unsafe { (ffi::try_ref(env, "env")?, ffi::out(out, "out")?) };
        check_index(v, index)?;
        out.write(v.episodes(index));
        Ok(())
    })
}
