//! Agents: a policy driving a workspace against host tools, optionally over a world that a
//! library made.

use std::cell::OnceCell;
use std::ffi::{c_char, c_void};

use evoharness_core::{Action, Outcome, Verb};
use evoharness_runtime::{
    Agent, AgentConfig, AnyPolicy, CheckpointSchedule, Refused, Selection, StepReport, TraceRecord,
    TraceSink,
};

use crate::ffi::{self, Castable, Error, Given, guard, guard_value};
use crate::policy::evoharness_policy;
use crate::status::evoharness_status;
use crate::tool::evoharness_tool_fn;
use crate::workspace::{
    Lender, WorkspaceHandle, evoharness_costs, evoharness_workspace, finished_flag,
};
use crate::world::{HostWorld, WorldBox, evoharness_world};

/// An agent: a policy driving its own workspace through a task, calling host tools and, for
/// the tools the host does not serve, the world it was given (if any).
///
/// Made by `evoharness_agent_new` or `evoharness_agent_resume`; the caller owns it and frees it
/// with `evoharness_agent_free`. It owns its policy, its world and its workspace.
///
/// Thread safety: one thread at a time. An agent may move to another thread between calls if
/// its callbacks' `user_data` allow it. Its tool and trace callbacks run on the thread that
/// steps it; the functions of that agent and of its lent workspace refuse calls from them
/// (`INVALID_ARGUMENT`).
pub struct evoharness_agent {
    _private: [u8; 0],
}

/// The agent behind a handle: the policy stays boxed, so that a refused resume gives the
/// caller back the very handle it passed.
pub type CAgent = Agent<HostWorld, Box<AnyPolicy>>;

/// The Rust side of an agent handle: the agent, [`Guarded`](ffi::Guarded) so that a callback
/// that calls back into it is refused instead of aliasing the agent mutably.
#[doc(hidden)]
pub struct AgentHandle {
    agent: ffi::Guarded<CAgent>,
    /// The workspace handle `evoharness_agent_workspace` lends, made at its first call.
    lent: OnceCell<Box<WorkspaceHandle>>,
}

impl Castable for evoharness_agent {
    type Rust = AgentHandle;
}

/// # Safety
/// `p` is NULL or a live agent that no other thread uses.
unsafe fn enter<'a>(p: *const evoharness_agent) -> ffi::Result<ffi::Entered<'a, CAgent>> {
    // SAFETY: the caller's contract. Only the guard is reached through this shared reference,
    // so it may coexist with the `&mut` to the agent of an outer call.
    unsafe { ffi::try_ref::<evoharness_agent>(p, "agent") }?.enter()
}

impl AgentHandle {
    /// Exclusive use of the agent, refused while a call is inside it.
    fn enter(&self) -> ffi::Result<ffi::Entered<'_, CAgent>> {
        self.agent
            .enter("the agent is in use: one of its own callbacks called back into it")
    }
}

/// Reads the agent behind a handle, as the exported functions do: refused from inside its own
/// callbacks. For libraries that made its world and read it back (`HostWorld::inner`).
///
/// # Safety
/// `agent` is NULL or a live agent that no other thread uses.
#[doc(hidden)]
pub unsafe fn with_agent<R>(
    agent: *const evoharness_agent,
    f: impl FnOnce(&CAgent) -> ffi::Result<R>,
) -> ffi::Result<R> {
    // SAFETY: the caller's contract.
    let mut e = unsafe { enter(agent) }?;
    f(e.get())
}

/// Changes the agent behind a handle, as the exported functions do: refused from inside its own
/// callbacks.
///
/// # Safety
/// `agent` is NULL or a live agent that no other thread uses.
pub(crate) unsafe fn with_agent_mut<R>(
    agent: *const evoharness_agent,
    f: impl FnOnce(&mut CAgent) -> ffi::Result<R>,
) -> ffi::Result<R> {
    // SAFETY: the caller's contract.
    let mut e = unsafe { enter(agent) }?;
    f(e.get())
}

/// How an agent is set up. Fill it with `evoharness_agent_config_default` (or, for a task of
/// the suite, `evoharness_suite_agent_config` of `libevoharness_train`), then change what you
/// need.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct evoharness_agent_config {
    /// The step budget of a task.
    pub budget: u32,
    /// What each verb costs.
    pub costs: evoharness_costs,
    /// 0 for greedy choices (the highest logit); above 0 to sample from
    /// softmax(logits / temperature) with the seeded generator.
    pub temperature: f32,
    /// Seeds the first task and the sampler: a run is deterministic for a seed.
    pub seed: u64,
}

pub(crate) fn agent_config(c: &evoharness_agent_config) -> ffi::Result<AgentConfig> {
    let selection = if c.temperature == 0.0 {
        Selection::Argmax
    } else if c.temperature > 0.0 && c.temperature.is_finite() {
        Selection::Sample {
            temperature: c.temperature,
        }
    } else {
        return Err(Error::invalid(format!(
            "config->temperature is {}: 0 for greedy, or a finite number above 0",
            c.temperature
        )));
    };
    Ok(AgentConfig {
        budget: c.budget,
        costs: c.costs.to_core(),
        selection,
        seed: c.seed,
    })
}

/// Fills `*out` with the defaults: a budget of 1000 steps, the default costs (every verb 1,
/// `finish` 0), greedy choices, seed 0. Any thread.
///
/// Errors: `NULL_ARGUMENT`.
///
/// # Safety
/// `out` is NULL or points at a writable struct.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_agent_config_default(
    out: *mut evoharness_agent_config,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let out = unsafe { ffi::out(out, "out") }?;
        let d = AgentConfig::default();
        out.write(evoharness_agent_config {
            budget: d.budget,
            costs: evoharness_costs::from_core(d.costs),
            temperature: 0.0,
            seed: d.seed,
        });
        Ok(())
    })
}

fn handle(agent: CAgent) -> AgentHandle {
    AgentHandle {
        agent: ffi::Guarded::new(agent),
        lent: OnceCell::new(),
    }
}

/// A lent workspace handle reads the agent's workspace: refused while the agent is in use (from
/// inside its callbacks).
impl Lender for AgentHandle {
    fn lend(&self, read: &mut dyn FnMut(&evoharness_core::HeapWorkspace)) -> ffi::Result<()> {
        let mut e = self.enter()?;
        read(e.get().workspace());
        Ok(())
    }
}

/// A refusal from the runtime, with the parts to give back to C.
type Refusal = (Error, Box<AnyPolicy>, Option<Box<WorldBox>>);

/// Makes an agent of the policy in `*policy` and the world in `*world` (`world` may be NULL: no
/// world), handing both back to C unchanged if `make` refuses; on success `*policy` and
/// `*world` become NULL.
///
/// # Safety
/// `policy` and `world` (unless NULL) point at handle pointers as `evoharness_agent_new`
/// describes.
unsafe fn adopt(
    policy: *mut *mut evoharness_policy,
    world: *mut *mut evoharness_world,
    make: impl FnOnce(Box<AnyPolicy>, Option<Box<WorldBox>>) -> Result<CAgent, Refusal>,
) -> ffi::Result<CAgent> {
    // Every pointer is checked before anything is taken.
    // SAFETY: the caller's contract.
    let policy = unsafe { Given::new(policy, "policy") }?;
    let world = if world.is_null() {
        None
    } else {
        // SAFETY: the caller's contract.
        Some(unsafe { Given::new(world, "world") }?)
    };
    let (p, policy_slot) = policy.take();
    let (w, world_slot) = world.map(Given::take).unzip();
    match make(p, w) {
        Ok(agent) => Ok(agent),
        Err((e, p, w)) => {
            policy_slot.refill(p);
            if let (Some(slot), Some(w)) = (world_slot, w) {
                slot.refill(w);
            }
            Err(e)
        }
    }
}

/// Makes an agent that runs `*policy` over the world `*world` and starts its first task with
/// `config->seed`.
///
/// `world` may be NULL: the host's tools are then the agent's whole world. Otherwise it points
/// at a world handle that a library made (such as a task of the suite, made by
/// `evoharness_suite_world_new` of `libevoharness_train`), which must have the policy's tool
/// count.
///
/// The workspace gets the policy's capacities, and the agent the policy's tool count, its tools
/// named as the policy names them, else as the world does, else `tool0`, `tool1`, .... No tool
/// has a host callback yet: register them with `evoharness_agent_register_tool` before
/// stepping; the world serves the others.
///
/// Ownership: on success the agent takes over the policy and the world, sets `*policy` (and
/// `*world`) to NULL, and `*out` is a new agent that the caller owns. On failure both are left
/// alone and stay the caller's.
///
/// Errors: `NULL_ARGUMENT` (also for `*policy`, and for `*world` when `world` is not NULL);
/// `INVALID_ARGUMENT` for a config out of range (a temperature below 0 or not finite);
/// `CONFIG` for a world with another tool count than the policy.
///
/// # Safety
/// `policy` points at a pointer to a live policy that the caller owns and no other thread
/// uses; `world` is NULL or points at a pointer to a live world alike; `config` points at a
/// readable config; `out` at a writable pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_agent_new(
    policy: *mut *mut evoharness_policy,
    world: *mut *mut evoharness_world,
    config: *const evoharness_agent_config,
    out: *mut *mut evoharness_agent,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (config, out) = unsafe { (ffi::input(config, "config")?, ffi::out(out, "out")?) };
        let config = agent_config(config)?;
        // SAFETY: the caller's contract.
        let agent = unsafe {
            adopt(policy, world, |p, w| {
                let host = match HostWorld::new(&p, w) {
                    Ok(host) => host,
                    Err((e, w)) => return Err((e, p, w)),
                };
                Agent::try_new(p, host, config).map_err(refusal)
            })
        }?;
        out.write(ffi::to_owned_ptr(handle(agent)));
        Ok(())
    })
}

fn refusal(r: Refused<Box<AnyPolicy>, HostWorld>) -> Refusal {
    (r.error.into(), r.controller, r.world.into_inner())
}

/// Continues an agent from the checkpoint file at `path` (written by `evoharness_agent_checkpoint`
/// or by a schedule of `evoharness_agent_set_checkpoints`): workspace, step counters, sampler,
/// recurrent state and the world's own resume point as they were. The task is not restarted.
/// Callbacks, the trace and the checkpoint schedule are not part of a checkpoint: register and set
/// them again.
///
/// `*policy` must be the very policy (same file) that wrote it, `*world` (NULL if the agent had
/// none) a world made the same way, which takes its state back from the checkpoint (for a
/// suite task: the same task and horizon; the organisation comes from the checkpoint), and
/// `*config` the config it was made with (budget and costs; the seed is taken from the
/// checkpoint). The steps taken after the checkpoint was written are repeated,
/// deterministically, so host tools see their calls again.
///
/// Ownership: as `evoharness_agent_new`: on success the agent takes over the policy and the
/// world (`*policy` and `*world` become NULL); on failure they stay the caller's, unchanged,
/// so a refused checkpoint can be followed by `evoharness_agent_new` with them.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` and `CONFIG` as `evoharness_agent_new`; `IO`
/// when the file cannot be read; `CHECKPOINT` when it is corrupted, truncated, made by another
/// policy, with another config or for another world (the message says which).
///
/// # Safety
/// As `evoharness_agent_new`; `path` is a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_agent_resume(
    policy: *mut *mut evoharness_policy,
    world: *mut *mut evoharness_world,
    config: *const evoharness_agent_config,
    path: *const c_char,
    out: *mut *mut evoharness_agent,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (config, path, out) = unsafe {
            (
                ffi::input(config, "config")?,
                ffi::path(path, "path")?,
                ffi::out(out, "out")?,
            )
        };
        let config = agent_config(config)?;
        // SAFETY: the caller's contract.
        let agent = unsafe {
            adopt(policy, world, |p, w| {
                let host = match HostWorld::new(&p, w) {
                    Ok(host) => host,
                    Err((e, w)) => return Err((e, p, w)),
                };
                Agent::try_resume(p, host, config, path).map_err(refusal)
            })
        }?;
        out.write(ffi::to_owned_ptr(handle(agent)));
        Ok(())
    })
}

/// Frees an agent, with its policy, world and workspace. NULL is a no-op; so is a call from
/// inside one of the agent's own callbacks (which is a bug: the last error says so).
///
/// # Safety
/// `agent` is NULL or an agent from `evoharness_agent_new` or `evoharness_agent_resume`, not
/// yet freed, that no other thread is using.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_agent_free(agent: *mut evoharness_agent) {
    guard_value((), || {
        if agent.is_null() {
            return;
        }
        // SAFETY: the caller's contract.
        match unsafe { enter(agent) } {
            Ok(entered) => drop(entered),
            Err(e) => {
                ffi::set_last_error(&format!("evoharness_agent_free: {}", e.message));
                return;
            }
        }
        // SAFETY: the caller's contract; not in use (checked just above, on this thread).
        unsafe { ffi::free_owned(agent) }
    })
}

/// Registers `tool` as the host's implementation of the tool named `name` (NUL-terminated; one
/// of the agent's tool names, see `evoharness_agent_tool_name`), replacing any earlier one; a
/// NULL `tool` removes it (the agent's world, if any, serves the tool again). The agent calls
/// `tool(user_data, ...)` on the thread that steps it whenever its policy calls that tool; the
/// library never frees `user_data`, which must stay valid while registered.
///
/// A host tool replaces the world's tool of that index: the world never sees those calls, so
/// replace tools whose effects the world does not need (a read-only one such as the migration
/// task's `verify`), or serve every tool from the host and give the agent no world.
///
/// Errors: `NULL_ARGUMENT` (`agent`, `name`); `NOT_FOUND` for a name the agent does not have
/// (the message lists them); `INVALID_ARGUMENT` from inside one of the agent's callbacks.
///
/// # Safety
/// `agent` is a live agent that no other thread uses; `name` a NUL-terminated string; `tool`
/// NULL or a function of the `evoharness_tool_fn` type that may be called with `user_data`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_agent_register_tool(
    agent: *mut evoharness_agent,
    name: *const c_char,
    tool: evoharness_tool_fn,
    user_data: *mut c_void,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (mut e, name) = unsafe { (enter(agent)?, ffi::c_str(name, "name")?) };
        e.get()
            .world_mut()
            .register(name, tool, user_data, "the agent")
    })
}

/// Writes the name of the agent's tool `index` (0 to the policy's tool count - 1),
/// NUL-terminated, into `buf` (`cap` bytes) and its length to `*out_len`.
///
/// Errors: `NULL_ARGUMENT`; `NOT_FOUND` past the last tool; `BUFFER_TOO_SMALL` (nothing
/// written); `INVALID_ARGUMENT` from inside one of the agent's callbacks.
///
/// # Safety
/// `agent` is a live agent that no other thread uses; `buf` points at `cap` writable bytes;
/// `out_len` at a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_agent_tool_name(
    agent: *const evoharness_agent,
    index: usize,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let mut e = unsafe { enter(agent) }?;
        let tools = &e.get().world().tools;
        let t = tools.get(index).ok_or_else(|| {
            Error::not_found(format!("no tool {index}: the agent has {}", tools.len()))
        })?;
        let name = t
            .name
            .to_str()
            .map_err(|_| Error::invalid("a tool name is not UTF-8"))?;
        // SAFETY: the caller's contract.
        unsafe { ffi::write_str(name, buf, cap, out_len) }
    })
}

/// The kind of action a step took.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum evoharness_verb {
    /// A world tool call.
    Act = 0,
    /// Belief.
    Track = 1,
    /// Progress.
    Commit = 2,
    /// An Experience query.
    Recall = 3,
    /// An Experience write.
    Note = 4,
    /// The end of the task.
    Finish = 5,
}

fn verb(v: Verb) -> evoharness_verb {
    match v {
        Verb::Act => evoharness_verb::Act,
        Verb::Track => evoharness_verb::Track,
        Verb::Commit => evoharness_verb::Commit,
        Verb::Recall => evoharness_verb::Recall,
        Verb::Note => evoharness_verb::Note,
        Verb::Finish => evoharness_verb::Finish,
    }
}

/// One step, as traced.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct evoharness_trace_record {
    /// The step's number in its task, from 1.
    pub step: u64,
    /// The action template the policy chose.
    pub template_index: u32,
    /// The kind of action.
    pub verb: evoharness_verb,
    /// The budget it cost.
    pub cost: u32,
    /// Wall time of the whole step (encode, inference, select, apply, tool call), in ns.
    pub latency_ns: u64,
    /// The step as one line of JSON (without a newline), NUL-terminated, in the trace format
    /// (`runtime/TRACE.md`):
    /// `{"step":..,"template":..,"action":{..},"outcome":{..},"cost":..,"latency_ns":..,..}`
    /// with the workspace parts the step changed. Valid during the callback only.
    pub json: *const c_char,
    /// The length of `json` in bytes, without the NUL.
    pub json_len: usize,
}

/// A trace callback: called once per step, after it, on the thread that steps the agent. It
/// must return normally (no unwinding out of it) and must not call functions on that agent.
pub type evoharness_trace_fn =
    Option<unsafe extern "C" fn(user_data: *mut c_void, record: *const evoharness_trace_record)>;

/// The host's `user_data`, carried into the trace closure (which the runtime wants `Send`).
struct UserData(*mut c_void);

// SAFETY: the agent calls its trace callback only on the thread that steps it, and the host
// promised (header) that `user_data` may be used wherever it moves the agent.
unsafe impl Send for UserData {}

impl UserData {
    fn get(&self) -> *mut c_void {
        self.0
    }
}

/// Sends one record per step to `trace(user_data, record)`; a NULL `trace` stops tracing.
/// Tracing costs one clock read and one JSON serialisation per step.
///
/// Errors: `NULL_ARGUMENT` (`agent`); `INVALID_ARGUMENT` from inside one of the agent's
/// callbacks.
///
/// # Safety
/// `agent` is a live agent that no other thread uses; `trace` NULL or a function of the
/// `evoharness_trace_fn` type that may be called with `user_data` while it is set.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_agent_set_trace(
    agent: *mut evoharness_agent,
    trace: evoharness_trace_fn,
    user_data: *mut c_void,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let mut e = unsafe { enter(agent) }?;
        let sink = match trace {
            None => TraceSink::Off,
            Some(f) => {
                let ud = UserData(user_data);
                let mut json = Vec::with_capacity(512);
                TraceSink::Callback(Box::new(move |r: &TraceRecord<'_>| {
                    json.clear();
                    // Serialising the core's types into a Vec cannot fail.
                    let _ = serde_json::to_writer(&mut json, r);
                    let json_len = json.len();
                    json.push(0);
                    let record = evoharness_trace_record {
                        step: r.step,
                        template_index: template_index(r.template),
                        verb: verb(r.action.verb()),
                        cost: r.cost,
                        latency_ns: r.latency_ns,
                        json: json.as_ptr().cast(),
                        json_len,
                    };
                    // SAFETY: the host registered `f` with `user_data` (see above); `record`
                    // and the JSON it points at live across the call.
                    unsafe { f(ud.get(), &record) }
                }))
            }
        };
        e.get().set_trace(sink)?;
        Ok(())
    })
}

/// Writes the agent's trace from now on to a new file at `path` (replacing one that is
/// there): one JSON line per step in the runtime's trace format (`runtime/TRACE.md`), the
/// format `evoharness view TRACE --follow` shows live. Whole lines reach the file at least
/// every 100 ms while the agent steps and at the end of each task. A NULL `path` stops tracing
/// and flushes the file. Replaces a trace callback ([`evoharness_agent_set_trace`]).
///
/// Errors: `NULL_ARGUMENT` (`agent`); `INVALID_ARGUMENT` for an empty path, or from inside one
/// of the agent's callbacks; `IO` when the file cannot be created (or the old trace flushed).
///
/// # Safety
/// `agent` is a live agent that no other thread uses; `path` NULL or a NUL-terminated string
/// (copied).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_agent_set_trace_file(
    agent: *mut evoharness_agent,
    path: *const c_char,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let mut e = unsafe { enter(agent) }?;
        let sink = if path.is_null() {
            TraceSink::Off
        } else {
            // SAFETY: the caller's contract.
            let path = unsafe { ffi::path(path, "path") }?;
            TraceSink::file(path).map_err(|err| {
                evoharness_runtime::Error::new(
                    evoharness_runtime::ErrorKind::Io,
                    format!("creating the trace file {}", path.display()),
                )
                .with_source(err)
            })?
        };
        e.get().set_trace(sink)?;
        Ok(())
    })
}

/// Writes checkpoints from now on to the file at `path` (replaced atomically through a
/// temporary file beside it): after every `every_steps` steps of a task (0 for never), after
/// every step that applied a `commit` action when `on_commit`, and at the step that finishes
/// the task. A NULL `path` stops writing them.
///
/// Errors: `NULL_ARGUMENT` (`agent`); `INVALID_ARGUMENT` for an empty path, or from inside one
/// of the agent's callbacks.
///
/// # Safety
/// `agent` is a live agent that no other thread uses; `path` NULL or a NUL-terminated string
/// (copied).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_agent_set_checkpoints(
    agent: *mut evoharness_agent,
    path: *const c_char,
    every_steps: u64,
    on_commit: bool,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (mut e, schedule) = unsafe { (enter(agent)?, schedule(path, every_steps, on_commit)?) };
        e.get().set_checkpoints(schedule)?;
        Ok(())
    })
}

/// Starts a new task with `seed`: clears Belief and Progress, keeps Experience, resets the
/// world (if any) and observes the task's first event (without a world, a notice
/// `{seed: <seed>}`).
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` from inside one of the agent's callbacks.
///
/// # Safety
/// `agent` is a live agent that no other thread uses.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_agent_start_task(
    agent: *mut evoharness_agent,
    seed: u64,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        unsafe { enter(agent) }?.get().start_task(seed);
        Ok(())
    })
}

/// The checkpoint schedule of `evoharness_agent_set_checkpoints`' arguments; `None` for a NULL
/// path.
///
/// # Safety
/// `path` is NULL or a NUL-terminated string.
pub(crate) unsafe fn schedule(
    path: *const c_char,
    every_steps: u64,
    on_commit: bool,
) -> ffi::Result<Option<CheckpointSchedule>> {
    if path.is_null() {
        return Ok(None);
    }
    // SAFETY: the caller's contract.
    let path = unsafe { ffi::path(path, "path") }?;
    let mut s = CheckpointSchedule::new(path).on_commit(on_commit);
    if every_steps > 0 {
        s = s.every_steps(every_steps);
    }
    Ok(Some(s))
}

/// What one step did.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct evoharness_step_report {
    /// Whether a step was taken: false when the task had ended (finished, or no affordable
    /// action left); the other fields are then zero, and `finished` says how it ended.
    pub taken: bool,
    /// The step's number in its task, from 1.
    pub step: u64,
    /// The action template the policy chose.
    pub template_index: u32,
    /// The kind of action.
    pub verb: evoharness_verb,
    /// The tool it called, for a world action; else -1.
    pub tool: i32,
    /// The budget it cost.
    pub cost: u32,
    /// -1 while the task runs; 1 once the agent finished claiming success, 0 if it gave up.
    pub finished: i8,
}

/// Takes one step: observe, encode, run the policy, pick a legal action, apply it (calling the
/// tool for a world action); writes what it did to `*out`.
///
/// When a checkpoint schedule is set and the step reaches a boundary, the checkpoint is written
/// after the step; if that fails, the step has still taken effect, `*out` is not written and
/// the status is `IO`.
///
/// Errors: `NULL_ARGUMENT`; `INFERENCE`; `IO` (a checkpoint or trace write); `WORKSPACE` (a
/// bug); `WORLD` when a world written by the host failed (`evoharness_world_from_callbacks`:
/// the step has taken effect, with the placeholder event `{error: "world_failed"}`; a failed
/// reset is reported by the next step, which then does nothing); `INVALID_ARGUMENT` from
/// inside one of the agent's callbacks.
///
/// # Safety
/// `agent` is a live agent that no other thread uses; `out` points at a writable struct.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_agent_step(
    agent: *mut evoharness_agent,
    out: *mut evoharness_step_report,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (mut e, out) = unsafe { (enter(agent)?, ffi::out(out, "out")?) };
        let a = e.get();
        let report = a.step()?;
        let finished = finished_flag(a.workspace().finished());
        out.write(step_report(report.as_ref(), a.summary().steps, finished));
        Ok(())
    })
}

/// A step's report for C: `report` is `None` when no step was taken; `step` is the step's
/// number in its task.
pub(crate) fn step_report(
    report: Option<&StepReport>,
    step: u64,
    finished: i8,
) -> evoharness_step_report {
    match report {
        None => evoharness_step_report {
            taken: false,
            step: 0,
            template_index: 0,
            verb: evoharness_verb::Act,
            tool: 0,
            cost: 0,
            finished,
        },
        Some(r) => evoharness_step_report {
            taken: true,
            step,
            template_index: template_index(r.template),
            verb: verb(r.action.verb()),
            tool: match (&r.action, &r.outcome) {
                (Action::Act { .. }, Outcome::Call(c)) => i32::from(c.tool),
                _ => -1,
            },
            cost: r.cost,
            finished,
        },
    }
}

/// How a task went so far.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct evoharness_summary {
    /// -1 if the task has not finished (still running, or out of budget); 1 if the agent
    /// finished claiming success, 0 if it gave up.
    pub finished: i8,
    /// Steps taken.
    pub steps: u64,
    /// World actions among them.
    pub world_actions: u64,
    /// Harness actions (track, commit, recall, note) among them.
    pub harness_actions: u64,
    /// Budget spent.
    pub spent: u32,
}

/// Steps until the task ends or `max_steps` steps were taken (0 takes none: a way to read the
/// summary), then writes the task's summary to `*out`.
///
/// Errors: as `evoharness_agent_step` (the steps taken before an error have taken effect, and
/// `*out` is not written).
///
/// # Safety
/// `agent` is a live agent that no other thread uses; `out` points at a writable struct.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_agent_run(
    agent: *mut evoharness_agent,
    max_steps: u64,
    out: *mut evoharness_summary,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (mut e, out) = unsafe { (enter(agent)?, ffi::out(out, "out")?) };
        let s = e.get().run(max_steps)?;
        out.write(evoharness_summary {
            finished: finished_flag(s.finished),
            steps: s.steps,
            world_actions: s.world_actions,
            harness_actions: s.harness_actions,
            spent: s.spent,
        });
        Ok(())
    })
}

/// How a task went, as the agent's world judges it.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct evoharness_verdict {
    /// The task's goal was reached (for a suite task: the agent finished claiming success,
    /// every item landed exactly once and nothing was written wrong).
    pub success: bool,
    /// Integrity violations the world counted so far (0 for a world that counts none).
    pub violations: u32,
}

/// Writes how the current task went so far, as the agent's world judges it, to `*out`.
///
/// Errors: `NULL_ARGUMENT`; `NOT_FOUND` for an agent without a world, or whose world has no
/// judge (a host's own tools: the host knows); `WORLD` when a world written by the host failed
/// to judge; `INVALID_ARGUMENT` from inside one of the agent's callbacks.
///
/// # Safety
/// `agent` is a live agent that no other thread uses; `out` points at a writable struct.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_agent_verdict(
    agent: *const evoharness_agent,
    out: *mut evoharness_verdict,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (mut e, out) = unsafe { (enter(agent)?, ffi::out(out, "out")?) };
        let v = e.get().try_verdict()?.ok_or_else(|| {
            Error::not_found("the agent's world has no judge (or it has no world)")
        })?;
        out.write(evoharness_verdict {
            success: v.success,
            violations: v.violations,
        });
        Ok(())
    })
}

/// Writes a checkpoint of the agent as it is now to the file at `path`, atomically (through a
/// temporary file beside it): `evoharness_agent_resume` continues from it.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for an empty path, or from inside one of the
/// agent's callbacks; `IO` when the file cannot be written (an earlier checkpoint there is
/// left intact).
///
/// # Safety
/// `agent` is a live agent that no other thread uses; `path` a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_agent_checkpoint(
    agent: *const evoharness_agent,
    path: *const c_char,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (mut e, path) = unsafe { (enter(agent)?, ffi::path(path, "path")?) };
        e.get().checkpoint(path)?;
        Ok(())
    })
}

/// Writes to `*out` the agent's workspace, lent for reading with the `evoharness_workspace_*`
/// functions that take a `const` workspace: each read shows the agent as it is then. The same
/// pointer every time, valid until the agent is freed. It belongs to the agent: the functions
/// that would change or free it refuse (`INVALID_ARGUMENT`, or a no-op for
/// `evoharness_workspace_free`), and so do reads from inside the agent's own callbacks. Read it
/// on the thread that uses the agent.
///
/// Errors: `NULL_ARGUMENT`.
///
/// # Safety
/// `agent` is a live agent that no other thread uses; `out` points at a writable pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_agent_workspace(
    agent: *const evoharness_agent,
    out: *mut *const evoharness_workspace,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract; only `lent`, a `OnceCell`, is used through this shared
        // reference, so it may be called from inside the agent's callbacks.
        let (h, out) = unsafe { (ffi::try_ref(agent, "agent")?, ffi::out(out, "out")?) };
        let lent = h.lent.get_or_init(|| {
            Box::new(WorkspaceHandle::Lent(
                std::ptr::from_ref::<AgentHandle>(h) as *const dyn Lender
            ))
        });
        out.write(std::ptr::from_ref::<WorkspaceHandle>(lent).cast());
        Ok(())
    })
}

/// A step's template for C: every step of a policy has one (`u32::MAX` marks none).
fn template_index(t: Option<usize>) -> u32 {
    t.and_then(|t| u32::try_from(t).ok()).unwrap_or(u32::MAX)
}
