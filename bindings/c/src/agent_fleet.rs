//! Fleets of agents: N agents and one policy, one batched policy run per step.

use std::ffi::{c_char, c_void};

use evoharness_runtime::{Agent, AnyPolicy, Fleet, FleetMember, Refused};

use crate::agent::{
    agent_config, evoharness_agent_config, evoharness_step_report, evoharness_verdict, schedule,
    step_report,
};
use crate::ffi::{self, Castable, Error, Given, guard, guard_value};
use crate::policy::evoharness_policy;
use crate::status::evoharness_status;
use crate::tool::evoharness_tool_fn;
use crate::workspace::finished_flag;
use crate::world::{HostWorld, WorldBox, evoharness_world};

/// A fleet: N agents, each with its own world, workspace, host tools and checkpoints, and one
/// policy that runs **once** per `evoharness_fleet_step` on every agent that decides (when the
/// policy file has a dynamic batch dimension, as exported policies have; a batch-1 file runs
/// once per agent). Each agent acts and checkpoints exactly as it would alone: a checkpoint an
/// agent of a fleet writes resumes with `evoharness_agent_resume`, and the reverse.
///
/// Made by `evoharness_fleet_new`; the caller owns it and frees it with `evoharness_fleet_free`.
/// Agents are added with `evoharness_fleet_add` (or `_resume`) and named by their index, from 0
/// in the order they were added.
///
/// Thread safety: one thread at a time, as an agent. Tool callbacks run on the thread that
/// steps the fleet; the fleet's functions refuse calls from them (`INVALID_ARGUMENT`).
pub struct evoharness_fleet {
    _private: [u8; 0],
}

type CFleet = Fleet<HostWorld>;

/// The Rust side of a fleet handle: the fleet, [`Guarded`](ffi::Guarded) as an agent is.
#[doc(hidden)]
pub struct FleetHandle {
    fleet: ffi::Guarded<CFleet>,
}

impl Castable for evoharness_fleet {
    type Rust = FleetHandle;
}

/// Agent `index` of an entered fleet, or `NOT_FOUND`.
fn member<'e>(
    e: &'e mut ffi::Entered<'_, CFleet>,
    index: usize,
) -> ffi::Result<&'e mut Agent<HostWorld, FleetMember>> {
    let f = e.get();
    let n = f.len();
    if index >= n {
        return Err(Error::not_found(format!(
            "the fleet has no agent {index}: it has {n}"
        )));
    }
    Ok(f.agent_mut(index))
}

/// # Safety
/// `p` is NULL or a live fleet that no other thread uses.
unsafe fn enter<'a>(p: *const evoharness_fleet) -> ffi::Result<ffi::Entered<'a, CFleet>> {
    // SAFETY: the caller's contract; only the guard is reached through this shared reference.
    let h = unsafe { ffi::try_ref::<evoharness_fleet>(p, "fleet") }?;
    h.fleet
        .enter("the fleet is in use: one of its agents' callbacks called back into it")
}

/// Makes a fleet that runs `*policy`, with no agents yet.
///
/// Ownership: on success the fleet takes over the policy and sets `*policy` to NULL; on failure
/// it stays the caller's.
///
/// Errors: `NULL_ARGUMENT` (also for `*policy`); `CONFIG` for a `generative-v1` policy (a
/// language model runs in agents, not batched in fleets).
///
/// # Safety
/// `policy` points at a pointer to a live policy that the caller owns and no other thread uses;
/// `out` at a writable pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_fleet_new(
    policy: *mut *mut evoharness_policy,
    out: *mut *mut evoharness_fleet,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (policy, out) = unsafe { (Given::new(policy, "policy")?, ffi::out(out, "out")?) };
        let (p, slot) = policy.take();
        let p = match *p {
            AnyPolicy::Structured(p) => p,
            generative @ AnyPolicy::Generative(_) => {
                // Handed back: the caller still owns it.
                slot.refill(Box::new(generative));
                return Err(Error::new(
                    evoharness_status::Config,
                    "a fleet runs a structured policy in batches; a generative-v1 language model \
                     runs in agents (evoharness_agent_new)",
                ));
            }
        };
        out.write(ffi::to_owned_ptr(FleetHandle {
            fleet: ffi::Guarded::new(Fleet::new(p)),
        }));
        Ok(())
    })
}

/// Frees a fleet with its policy and every agent (their worlds and workspaces). NULL is a
/// no-op; so is a call from inside one of its agents' callbacks (a bug: the last error says so).
///
/// # Safety
/// `fleet` is NULL or a fleet from `evoharness_fleet_new`, not yet freed, that no other thread
/// is using.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_fleet_free(fleet: *mut evoharness_fleet) {
    guard_value((), || {
        if fleet.is_null() {
            return;
        }
        // SAFETY: the caller's contract.
        match unsafe { enter(fleet) } {
            Ok(entered) => drop(entered),
            Err(e) => {
                ffi::set_last_error(&format!("evoharness_fleet_free: {}", e.message));
                return;
            }
        }
        // SAFETY: the caller's contract; not in use (checked just above, on this thread).
        unsafe { ffi::free_owned(fleet) }
    })
}

/// Adds an agent as `evoharness_agent_new` makes one (the same `world` and `config`; its
/// first task starts with `config->seed`); writes its index to `*out_index`.
///
/// Ownership: on success the fleet takes over the world (unless `world` is NULL) and sets
/// `*world` to NULL; on failure it stays the caller's, unchanged.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` and `CONFIG` as `evoharness_agent_new`, and from
/// inside one of the fleet's callbacks.
///
/// # Safety
/// `fleet` is a live fleet that no other thread uses; `world` NULL or a pointer to a live world
/// the caller owns; `config` points at a readable config; `out_index` at a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_fleet_add(
    fleet: *mut evoharness_fleet,
    world: *mut *mut evoharness_world,
    config: *const evoharness_agent_config,
    out_index: *mut usize,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        unsafe { add(fleet, world, config, out_index, None) }
    })
}

/// Adds an agent continued from the checkpoint file at `path`, as `evoharness_agent_resume`
/// continues one (the same `world`, `config` and checks): written by an agent of a fleet of the
/// same policy or by a lone agent of it. Writes its index to `*out_index`.
///
/// Ownership: as `evoharness_fleet_add`.
///
/// Errors: as `evoharness_agent_resume`.
///
/// # Safety
/// As `evoharness_fleet_add`; `path` is a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_fleet_resume(
    fleet: *mut evoharness_fleet,
    world: *mut *mut evoharness_world,
    config: *const evoharness_agent_config,
    path: *const c_char,
    out_index: *mut usize,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let path = unsafe { ffi::path(path, "path") }?;
        // SAFETY: the caller's contract.
        unsafe { add(fleet, world, config, out_index, Some(path)) }
    })
}

/// A new agent (resumed from `path` if given) added to the fleet.
///
/// # Safety
/// As `evoharness_fleet_add`.
unsafe fn add(
    fleet: *mut evoharness_fleet,
    world: *mut *mut evoharness_world,
    config: *const evoharness_agent_config,
    out_index: *mut usize,
    path: Option<&std::path::Path>,
) -> ffi::Result<()> {
    // Every pointer is checked before anything is taken.
    // SAFETY: the caller's contract.
    let (mut e, config, out) = unsafe {
        (
            enter(fleet)?,
            ffi::input(config, "config")?,
            ffi::out(out_index, "out_index")?,
        )
    };
    let config = agent_config(config)?;
    let given = if world.is_null() {
        None
    } else {
        // SAFETY: the caller's contract.
        Some(unsafe { Given::new(world, "world") }?)
    };
    let (w, slot) = given.map(Given::take).unzip();
    let f = e.get();
    let give_back = |w: Option<Box<WorldBox>>, error: Error| {
        if let (Some(slot), Some(w)) = (slot, w) {
            slot.refill(w);
        }
        Err(error)
    };
    let p = f.policy();
    let host = match HostWorld::with_tools(p.abi().capacities.tools, &p.abi().tool_names, w) {
        Ok(host) => host,
        Err((error, w)) => return give_back(w, error),
    };
    let made = match path {
        Some(path) => Agent::try_resume(f.member(), host, config, path),
        None => Agent::try_new(f.member(), host, config),
    };
    let agent = match made {
        Ok(agent) => agent,
        Err(Refused { error, world, .. }) => return give_back(world.into_inner(), error.into()),
    };
    let index = f.add(agent).map_err(|n| Error::from(n.error))?;
    out.write(index);
    Ok(())
}

/// Writes the number of agents to `*out`.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` from inside one of the fleet's callbacks.
///
/// # Safety
/// `fleet` is a live fleet that no other thread uses; `out` points at a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_fleet_len(
    fleet: *const evoharness_fleet,
    out: *mut usize,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (mut e, out) = unsafe { (enter(fleet)?, ffi::out(out, "out")?) };
        out.write(e.get().len());
        Ok(())
    })
}

/// `evoharness_agent_register_tool` for agent `index`.
///
/// Errors: as `evoharness_agent_register_tool`; `NOT_FOUND` also for an index past the last
/// agent.
///
/// # Safety
/// As `evoharness_agent_register_tool`, with `fleet` for the agent.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_fleet_register_tool(
    fleet: *mut evoharness_fleet,
    index: usize,
    name: *const c_char,
    tool: evoharness_tool_fn,
    user_data: *mut c_void,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (mut e, name) = unsafe { (enter(fleet)?, ffi::c_str(name, "name")?) };
        member(&mut e, index)?.world_mut().register(
            name,
            tool,
            user_data,
            &format!("agent {index}"),
        )
    })
}

/// `evoharness_agent_set_checkpoints` for agent `index`.
///
/// Errors: as `evoharness_agent_set_checkpoints`; `NOT_FOUND` for an index past the last agent.
///
/// # Safety
/// As `evoharness_agent_set_checkpoints`, with `fleet` for the agent.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_fleet_set_checkpoints(
    fleet: *mut evoharness_fleet,
    index: usize,
    path: *const c_char,
    every_steps: u64,
    on_commit: bool,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (mut e, schedule) = unsafe { (enter(fleet)?, schedule(path, every_steps, on_commit)?) };
        member(&mut e, index)?.set_checkpoints(schedule)?;
        Ok(())
    })
}

/// `evoharness_agent_start_task` for agent `index`.
///
/// Errors: `NULL_ARGUMENT`; `NOT_FOUND` for an index past the last agent; `INVALID_ARGUMENT`
/// from inside one of the fleet's callbacks.
///
/// # Safety
/// `fleet` is a live fleet that no other thread uses.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_fleet_start_task(
    fleet: *mut evoharness_fleet,
    index: usize,
    seed: u64,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let mut e = unsafe { enter(fleet) }?;
        member(&mut e, index)?.start_task(seed);
        Ok(())
    })
}

/// One step of every agent whose task goes on, with one batched policy run. Writes each
/// agent's report to `reports[i]` (`taken` false for an agent whose task had ended: start its
/// next with `evoharness_fleet_start_task`), each agent's status to `statuses[i]` when
/// `statuses` is not NULL (`EVOHARNESS_OK`, or what `evoharness_agent_step` would have returned
/// for it: its report is then not taken), and to `*out_stepped` how many agents took a step
/// or failed (0: every task has ended).
///
/// One agent's failure stops no other. The fleet's status is `EVOHARNESS_OK` unless the policy
/// run failed (`INFERENCE`: no agent took this step, nothing is written) or, with `statuses`
/// NULL, an agent failed: then the first failed agent's status, its message naming it, with
/// every output written.
///
/// Errors: `NULL_ARGUMENT` (`fleet`, `reports`, `out_stepped`); `INVALID_ARGUMENT` for `n` under
/// the number of agents (nothing is done), or from inside one of the fleet's callbacks;
/// `INFERENCE`; an agent's own error as above.
///
/// # Safety
/// `fleet` is a live fleet that no other thread uses; `reports` points at `n` writable reports,
/// `statuses` is NULL or points at `n` writable statuses; `out_stepped` at a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_fleet_step(
    fleet: *mut evoharness_fleet,
    reports: *mut evoharness_step_report,
    statuses: *mut evoharness_status,
    n: usize,
    out_stepped: *mut usize,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (mut e, out) = unsafe { (enter(fleet)?, ffi::out(out_stepped, "out_stepped")?) };
        let f = e.get();
        if n < f.len() {
            return Err(Error::invalid(format!(
                "room for {n} reports; the fleet has {} agents",
                f.len()
            )));
        }
        // SAFETY: the caller's contract: `n` writable reports.
        let reports = unsafe { ffi::out_slice(reports, n, "reports") }?;
        let statuses = if statuses.is_null() {
            None
        } else {
            // SAFETY: the caller's contract: `n` writable statuses.
            Some(unsafe { ffi::out_slice(statuses, n, "statuses") }?)
        };
        let stepped = f.step()?;
        let mut statuses = statuses;
        let mut first_failure = None;
        for i in 0..f.len() {
            let agent = f.agent(i);
            let finished = finished_flag(agent.workspace().finished());
            let (report, status) = match f.report(i) {
                None => (step_report(None, 0, finished), evoharness_status::Ok),
                Some(Ok(r)) => (
                    step_report(Some(r), agent.summary().steps, finished),
                    evoharness_status::Ok,
                ),
                Some(Err(err)) => {
                    let err = Error::from(evoharness_runtime::Error::new(
                        err.kind(),
                        format!("agent {i}: {}", err.message()),
                    ));
                    let status = err.status;
                    first_failure.get_or_insert(err);
                    (step_report(None, 0, finished), status)
                }
            };
            reports[i].write(report);
            if let Some(s) = statuses.as_deref_mut() {
                s[i].write(status);
            }
        }
        out.write(stepped);
        match (first_failure, statuses.is_some()) {
            (Some(e), false) => Err(e),
            _ => Ok(()),
        }
    })
}

/// `evoharness_agent_verdict` for agent `index`.
///
/// Errors: as `evoharness_agent_verdict`; `NOT_FOUND` also for an index past the last agent.
///
/// # Safety
/// `fleet` is a live fleet that no other thread uses; `out` points at a writable struct.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_fleet_verdict(
    fleet: *const evoharness_fleet,
    index: usize,
    out: *mut evoharness_verdict,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (mut e, out) = unsafe { (enter(fleet)?, ffi::out(out, "out")?) };
        let v = member(&mut e, index)?.try_verdict()?.ok_or_else(|| {
            Error::not_found(format!(
                "agent {index}'s world has no judge (or it has no world)"
            ))
        })?;
        out.write(evoharness_verdict {
            success: v.success,
            violations: v.violations,
        });
        Ok(())
    })
}

/// `evoharness_agent_checkpoint` for agent `index`: `evoharness_fleet_resume` and
/// `evoharness_agent_resume` both continue from the file.
///
/// Errors: as `evoharness_agent_checkpoint`; `NOT_FOUND` also for an index past the last agent.
///
/// # Safety
/// `fleet` is a live fleet that no other thread uses; `path` a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_fleet_checkpoint(
    fleet: *const evoharness_fleet,
    index: usize,
    path: *const c_char,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (mut e, path) = unsafe { (enter(fleet)?, ffi::path(path, "path")?) };
        member(&mut e, index)?.checkpoint(path)?;
        Ok(())
    })
}
