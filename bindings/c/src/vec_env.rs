//! The task suite's vectorised environment, for training: many worlds stepped in one call into
//! caller-owned arrays, so that Python (or any host) drives the very same simulators as the
//! Rust evaluation.

use evoharness_runtime::tasks::{EpisodeStats, TaskConfig, VecEnv};

use crate::agent::task_kind;
use crate::ffi::{self, Castable, Error, guard, guard_value};
use crate::status::evoharness_status;
use crate::workspace::finished_flag;

/// `n` environments of one suite task, each a world and a workspace of the suite's capacities
/// (16 facts, 8 steps, 4 lessons, 8 tools), stepped together with one action template each.
/// An environment whose episode ends is reset at once with its next seed; Experience carries
/// over between the episodes of one environment (one organisation).
///
/// Environment `i` runs organisation `family_start + i % family_count` and, for its `k`-th
/// episode, seed `seed + i + k·n`: deterministic for given arguments.
///
/// Made by `evoharness_vec_env_new`; the caller owns it and frees it with
/// `evoharness_vec_env_free`. Thread safety: one thread at a time; it may move between threads.
pub struct evoharness_vec_env {
    _private: [u8; 0],
}

impl Castable for evoharness_vec_env {
    type Rust = VecEnv;
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

/// Makes `n` (at least 1) environments of the suite task `task` (an `evoharness_task` other
/// than `NONE`) with `horizon` (1 to 10,000,000), in organisations `family_start` to
/// `family_start + family_count - 1` (`family_count` at least 1), seeded from `seed`. Their
/// first episodes start at once (read them with `evoharness_vec_env_observe`). On success
/// `*out` is a new environment that the caller owns.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a task or horizon out of range; `CONFIG` for
/// `n` or `family_count` of 0, or a family range that overflows.
///
/// # Safety
/// `out` points at a writable pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_new(
    task: u32,
    horizon: u32,
    n: usize,
    family_start: u64,
    family_count: u64,
    seed: u64,
    out: *mut *mut evoharness_vec_env,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let out = unsafe { ffi::out(out, "out") }?;
        let v = new_vec_env(task, horizon, n, 1, family_start, family_count, seed)?;
        out.write(ffi::to_owned_ptr(v));
        Ok(())
    })
}

/// The checks and construction `evoharness_vec_env_new` and `evoharness_vec_env_new_grouped`
/// share.
pub(crate) fn new_vec_env(
    task: u32,
    horizon: u32,
    n: usize,
    group: usize,
    family_start: u64,
    family_count: u64,
    seed: u64,
) -> ffi::Result<VecEnv> {
    // The agent's parser, with "no task" refused: a training environment is a suite task.
    let kind = task_kind(task)?.ok_or_else(|| {
        Error::invalid("task is 0 (none): 1 migration, 2 records or 3 orchestration")
    })?;
    if !(1..=10_000_000).contains(&horizon) {
        return Err(Error::invalid(format!(
            "horizon is {horizon}: 1 to 10000000"
        )));
    }
    let end = family_start.checked_add(family_count).ok_or_else(|| {
        Error::new(
            evoharness_status::Config,
            "family_start + family_count overflows",
        )
    })?;
    Ok(VecEnv::grouped(
        TaskConfig::new(kind, horizon),
        n,
        group,
        family_start..end,
        seed,
    )?)
}

/// Frees an environment. NULL is a no-op.
///
/// # Safety
/// `env` is NULL or an environment from `evoharness_vec_env_new`, not yet freed, that no other
/// thread is using.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_free(env: *mut evoharness_vec_env) {
    guard_value((), || {
        // SAFETY: the caller's contract.
        unsafe { ffi::free_owned(env) }
    })
}

/// How many environments there are (`n`). 0 if `env` is NULL.
///
/// # Safety
/// `env` is NULL or a live environment.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_len(env: *const evoharness_vec_env) -> usize {
    guard_value(0, || {
        // SAFETY: the caller's contract.
        unsafe { ffi::try_ref(env, "env") }.map_or(0, VecEnv::len)
    })
}

/// Floats in one environment's observation. 0 if `env` is NULL.
///
/// # Safety
/// `env` is NULL or a live environment.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_obs_len(env: *const evoharness_vec_env) -> usize {
    guard_value(0, || {
        // SAFETY: the caller's contract.
        unsafe { ffi::try_ref(env, "env") }.map_or(0, VecEnv::obs_len)
    })
}

/// Action templates of one environment (the length of its mask). 0 if `env` is NULL.
///
/// # Safety
/// `env` is NULL or a live environment.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_actions(env: *const evoharness_vec_env) -> usize {
    guard_value(0, || {
        // SAFETY: the caller's contract.
        unsafe { ffi::try_ref(env, "env") }.map_or(0, VecEnv::actions)
    })
}

/// Writes every environment's current observation into `obs` (`obs_len` floats: `n` ×
/// `evoharness_vec_env_obs_len`, environment after environment) and its legal-action mask
/// into `mask` (`mask_len` bytes: `n` × `evoharness_vec_env_actions`, 1 = legal).
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

fn check_len(what: &str, have: usize, want: usize) -> ffi::Result<()> {
    if have == want {
        Ok(())
    } else {
        Err(Error::invalid(format!(
            "{what} has {have} elements; this environment needs {want}"
        )))
    }
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
        if index >= v.len() {
            return Err(Error::not_found(format!(
                "no environment {index}: there are {}",
                v.len()
            )));
        }
        let s = v.last_episode(index).ok_or_else(|| {
            Error::not_found(format!(
                "environment {index} has not finished an episode yet"
            ))
        })?;
        out.write(stats(s));
        Ok(())
    })
}

/// How many episodes environment `index` has finished (0 for NULL or an index past the end).
///
/// # Safety
/// `env` is NULL or a live environment.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_episodes(
    env: *const evoharness_vec_env,
    index: usize,
) -> u64 {
    guard_value(0, || {
        // SAFETY: the caller's contract.
        unsafe { ffi::try_ref(env, "env") }.map_or(0, |v| v.episodes(index))
    })
}
