//! The suite's tasks for C: a task as a world an agent acts in, the config it needs, how it
//! went, and the suite's capacities.

use evoharness::ffi::{self, Error, guard};
use evoharness::{
    evoharness_agent, evoharness_agent_config, evoharness_capacities, evoharness_costs,
    evoharness_status, evoharness_world, finished_flag, with_agent, world_handle,
};
use evoharness_suite::{CAPACITIES, Scenario, SuiteWorld, TaskConfig, TaskKind};

/// One of the suite's three task kinds.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum evoharness_task {
    /// Move batches from a source to a target (tools `read`, `write`, `write_v2`, `wait`,
    /// `quarantine`, `transform`, `split`, `verify`).
    Migration = 0,
    /// Customer record management (`next`, `update_a`, `update_b`, `wait`, `reconcile`,
    /// `overwrite`, `escalate`, `merge`).
    Records = 1,
    /// A multi-step API workflow (`next`, `call`, `call_alt`, `wait`, `rollback`, `replay`,
    /// `compensate`, `auth`).
    Orchestration = 2,
}

/// OR'ed into a task (`EVOHARNESS_TASK_V2 | evoharness_task`): the task's v2 version, where no
/// hand-written rule is optimal (twelve error codes per organisation against four lesson
/// slots, remedies that drift, a back-off after a failed remedy, world calls and commits that
/// cost two units of budget, faults drawn per item; the suite's `Scenario::V2`). Without it a
/// task is v1, as before. Where the suite makes agents itself (`evoharness_vec_env_new*`), each
/// v2 agent also has an experience store behind its working set; an agent a host makes
/// around `evoharness_suite_world_new` gets one with `evoharness_experience_store_attach`.
pub const EVOHARNESS_TASK_V2: u32 = 0x100;

/// OR'ed into a task instead of `EVOHARNESS_TASK_V2`: the task's v3 version (the suite's
/// `Scenario::V3`), v2 in a deployment each organisation draws: the prices of `recall` and
/// `note`, the back-off after a failed remedy, how many episodes an agent keeps its experience
/// store, the acting model's remedy guess (a rejection's `guess` field) and crashes of the
/// agent's machine that roll it back to its last `commit`. The task's first event carries the
/// deployment's card (`model`, `machines`, `recall_cost`, `note_cost`, `store_life`). Where
/// the suite makes agents itself (`evoharness_vec_env_new*`), each pays its deployment's
/// prices, is renewed after its store lifetime, and crashes as its deployment says;
/// `evoharness_suite_agent_config` gives v2's prices (a deployment's own are on its card).
pub const EVOHARNESS_TASK_V3: u32 = 0x200;

/// The largest horizon the C ABI accepts.
const HORIZON_MAX: u32 = 10_000_000;

/// The task `task` (an `evoharness_task`, with `EVOHARNESS_TASK_V2` or `EVOHARNESS_TASK_V3` or
/// neither) of `horizon` steps
/// (1 to 10,000,000), checked.
#[doc(hidden)]
pub fn task_config(task: u32, horizon: u32) -> ffi::Result<TaskConfig> {
    let scenario = match (
        task & EVOHARNESS_TASK_V2 != 0,
        task & EVOHARNESS_TASK_V3 != 0,
    ) {
        (false, false) => Scenario::V1,
        (true, false) => Scenario::V2,
        (false, true) => Scenario::V3,
        (true, true) => {
            return Err(Error::invalid(format!(
                "task is {task:#x}: EVOHARNESS_TASK_V2 or EVOHARNESS_TASK_V3, not both"
            )));
        }
    };
    let kind = match task & !(EVOHARNESS_TASK_V2 | EVOHARNESS_TASK_V3) {
        0 => TaskKind::Migration,
        1 => TaskKind::Records,
        2 => TaskKind::Orchestration,
        _ => {
            return Err(Error::invalid(format!(
                "task is {task:#x}: 0 migration, 1 records or 2 orchestration, with or without \
                 EVOHARNESS_TASK_V2 (0x100) or EVOHARNESS_TASK_V3 (0x200)"
            )));
        }
    };
    if !(1..=HORIZON_MAX).contains(&horizon) {
        return Err(Error::invalid(format!(
            "horizon is {horizon}: 1 to {HORIZON_MAX}"
        )));
    }
    Ok(TaskConfig::of(scenario, kind, horizon))
}

/// Writes the capacities of the suite's workspaces (what a policy for the suite is made for:
/// 16 facts, 8 steps, 4 lessons, 8 tools) to `*out`. Any thread.
///
/// Errors: `NULL_ARGUMENT`.
///
/// # Safety
/// `out` is NULL or points at a writable struct.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_suite_capacities(
    out: *mut evoharness_capacities,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let out = unsafe { ffi::out(out, "out") }?;
        out.write(evoharness_capacities::from_core(CAPACITIES));
        Ok(())
    })
}

/// Fills `*out` for a task of the suite: that task's budget (4 × horizon + 256) and costs
/// (every verb 1, `finish` 0), greedy choices and seed 0. Any thread.
///
/// Errors (nothing written): `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a task or horizon out of
/// range.
///
/// # Safety
/// `out` is NULL or points at a writable struct.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_suite_agent_config(
    task: u32,
    horizon: u32,
    out: *mut evoharness_agent_config,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let out = unsafe { ffi::out(out, "out") }?;
        let t = task_config(task, horizon)?;
        out.write(evoharness_agent_config {
            budget: t.budget(),
            costs: evoharness_costs::from_core(t.costs()),
            temperature: 0.0,
            seed: 0,
        });
        Ok(())
    })
}

/// Makes a world that runs the suite's task `task` (an `evoharness_task`) of `horizon` steps
/// (1 to 10,000,000) for the organisation `organisation` (a seed of its own: it decides the
/// error codes the task's items are rejected with and their remedies). Give it to
/// `evoharness_agent_new` with a policy made for the suite's capacities
/// (`evoharness_suite_capacities`); the host may serve some of its eight tools itself. Each
/// task the agent starts is the world's episode for that task's seed. The agent's checkpoints
/// keep the world's whole state; a resume with a world of the same task, horizon and
/// organisation continues it, and one with another is refused (`CHECKPOINT`). On success `*out`
/// is a new world that the caller owns (free it with `evoharness_world_free` unless an agent
/// took it over). Any thread.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a task or horizon out of range.
///
/// # Safety
/// `out` points at a writable pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_suite_world_new(
    task: u32,
    horizon: u32,
    organisation: u64,
    out: *mut *mut evoharness_world,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let out = unsafe { ffi::out(out, "out") }?;
        let t = task_config(task, horizon)?;
        out.write(world_handle(SuiteWorld::new(t, organisation)));
        Ok(())
    })
}

/// How an agent's suite task went so far, as its world judges it.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct evoharness_task_stats {
    /// The task succeeded: the agent finished claiming success, every item landed exactly once,
    /// and nothing was written wrong.
    pub success: bool,
    /// -1 if the agent has not finished; 1 if it claimed success, 0 if it gave up.
    pub finished: i8,
    /// Items in the task.
    pub items: u32,
    /// Items fetched so far.
    pub delivered: u32,
    /// Items that landed.
    pub landed: u32,
    /// Items that landed more than once (a violation).
    pub duplicates: u32,
    /// Items that have not landed (yet).
    pub gaps: u32,
    /// Items landed with stale settings (a violation).
    pub wrong_writes: u32,
}

/// Writes how the agent's suite task went so far, as its world judges it, to `*out`.
///
/// Errors: `NULL_ARGUMENT`; `NOT_FOUND` for an agent whose world is not one of the suite's
/// (or that has none); `INVALID_ARGUMENT` from inside one of the agent's callbacks.
///
/// # Safety
/// `agent` is a live agent that no other thread uses; `out` points at a writable struct.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_suite_task_stats(
    agent: *const evoharness_agent,
    out: *mut evoharness_task_stats,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let out = unsafe { ffi::out(out, "out") }?;
        // SAFETY: the caller's contract.
        let stats = unsafe {
            with_agent(agent, |a| {
                let w = a
                    .world()
                    .inner()
                    .and_then(|w| w.as_any().downcast_ref::<SuiteWorld>())
                    .ok_or_else(|| Error::not_found("the agent's world is not a suite task"))?;
                let finished = a.workspace().finished();
                let v = w.violations();
                Ok(evoharness_task_stats {
                    success: w.judge(finished),
                    finished: finished_flag(finished),
                    items: w.items(),
                    delivered: w.delivered(),
                    landed: w.landed_count(),
                    duplicates: v.duplicates,
                    gaps: v.gaps,
                    wrong_writes: v.wrong_writes,
                })
            })
        }?;
        out.write(stats);
        Ok(())
    })
}
