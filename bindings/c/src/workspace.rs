//! Workspaces: Belief, Progress and Experience, driven by encoded actions.
//!
//! A host that speaks the wire protocol (`core/PROTOCOL.md`) drives a workspace with action
//! frames and reads outcome frames back; any host can read the entries for display.

use evoharness_core::wire::{Frame, Message};
use evoharness_core::{Capacities, Config, Costs, HeapWorkspace, Status};

use crate::ffi::{self, Castable, Error, guard, guard_value};
use crate::status::evoharness_status;
use crate::value::{EVOHARNESS_FRAME_MAX, EVOHARNESS_KEY_SIZE, evoharness_event, evoharness_value};

/// A workspace: Belief (facts), Progress (the plan) and Experience (lessons), the current event
/// and the step budget.
///
/// Made by `evoharness_workspace_new` (owned: free it with `evoharness_workspace_free`) or lent
/// by `evoharness_agent_workspace` (the agent's: read it, never change or free it; the
/// functions that would are refused).
///
/// Thread safety: one thread may change a workspace at a time; several threads may read one at
/// once (the `const` functions) while none changes it. An agent's workspace is read through the
/// agent: not while another thread steps that agent.
pub struct evoharness_workspace {
    _private: [u8; 0],
}

/// What a workspace handle stands for.
#[expect(
    clippy::large_enum_variant,
    reason = "handles always live in a box; a lent one (one per agent) may waste 700 bytes"
)]
#[doc(hidden)]
pub enum WorkspaceHandle {
    /// Made by `evoharness_workspace_new`, owned by C.
    Owned(HeapWorkspace),
    /// An agent's, lent by `evoharness_agent_workspace`: every read goes through the agent (so
    /// that a read from inside the agent's callbacks is refused like any call into a busy
    /// agent). It lives inside the agent's handle.
    Lent(*const dyn Lender),
}

/// Whoever lends a workspace handle (an agent): every read of the handle goes through it, so
/// that it can refuse one (an agent does while it is in use).
#[doc(hidden)]
pub trait Lender {
    /// Calls `read` once with the lent workspace, or refuses and does not call it.
    fn lend(&self, read: &mut dyn FnMut(&HeapWorkspace)) -> ffi::Result<()>;
}

impl Castable for evoharness_workspace {
    type Rust = WorkspaceHandle;
}

/// Reads the workspace behind a handle.
///
/// # Safety
/// `ws` is NULL or a live workspace handle that no thread changes meanwhile.
unsafe fn read<R>(
    ws: *const evoharness_workspace,
    f: impl FnOnce(&HeapWorkspace) -> ffi::Result<R>,
) -> ffi::Result<R> {
    // SAFETY: the caller's contract.
    match unsafe { ffi::try_ref(ws, "ws") }? {
        WorkspaceHandle::Owned(w) => f(w),
        WorkspaceHandle::Lent(lender) => {
            let mut f = Some(f);
            let mut out = None;
            // SAFETY: a lent handle lives inside its lender's handle, so the lender is live.
            unsafe { &**lender }.lend(&mut |w| out = f.take().map(|f| f(w)))?;
            out.unwrap_or_else(|| Err(Error::invalid("the workspace's lender did not lend it")))
        }
    }
}

/// The workspace behind a handle, to change; refused for an agent's.
///
/// # Safety
/// `ws` is NULL or a live workspace handle that nothing else uses for `'a`.
unsafe fn write<'a>(ws: *mut evoharness_workspace) -> ffi::Result<&'a mut HeapWorkspace> {
    // SAFETY: the caller's contract.
    match unsafe { ffi::try_mut(ws, "ws") }? {
        WorkspaceHandle::Owned(w) => Ok(w),
        WorkspaceHandle::Lent(_) => Err(Error::invalid(
            "this workspace is an agent's (evoharness_agent_workspace): it may be read, not \
             changed",
        )),
    }
}

/// Table capacities and the tool count: what everything else (observation size, action
/// templates, snapshot size) is derived from.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct evoharness_capacities {
    /// Belief slots, 1 to 1024.
    pub facts: u16,
    /// Progress steps, 1 to 1024.
    pub steps: u16,
    /// Experience lessons, 1 to 1024.
    pub lessons: u16,
    /// World tools, 1 to 64.
    pub tools: u16,
}

/// The capacities `evoharness_workspace_config_default` gives: the task suite's (16 facts, 8
/// steps, 4 lessons, 8 tools). `libevoharness_train` tests that they stay the suite's.
#[doc(hidden)]
pub const DEFAULT_CAPACITIES: Capacities = Capacities {
    facts: 16,
    steps: 8,
    lessons: 4,
    tools: 8,
};

impl evoharness_capacities {
    /// The core's capacities as C sees them.
    #[doc(hidden)]
    pub fn from_core(c: Capacities) -> Self {
        Self {
            facts: c.facts,
            steps: c.steps,
            lessons: c.lessons,
            tools: c.tools,
        }
    }

    /// The core's capacities (unchecked: the core validates them where they are used).
    #[doc(hidden)]
    pub fn to_core(self) -> Capacities {
        Capacities {
            facts: self.facts,
            steps: self.steps,
            lessons: self.lessons,
            tools: self.tools,
        }
    }
}

/// What each verb costs against the step budget.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct evoharness_costs {
    /// A world tool call.
    pub act: u16,
    /// A `track` action (Belief).
    pub track: u16,
    /// A `commit` action (Progress).
    pub commit: u16,
    /// A `recall`.
    pub recall: u16,
    /// A `note` action (Experience).
    pub note: u16,
    /// `finish`.
    pub finish: u16,
}

impl evoharness_costs {
    /// The core's costs as C sees them.
    #[doc(hidden)]
    pub fn from_core(c: Costs) -> Self {
        Self {
            act: c.act,
            track: c.track,
            commit: c.commit,
            recall: c.recall,
            note: c.note,
            finish: c.finish,
        }
    }

    /// The core's costs.
    #[doc(hidden)]
    pub fn to_core(self) -> Costs {
        Costs {
            act: self.act,
            track: self.track,
            commit: self.commit,
            recall: self.recall,
            note: self.note,
            finish: self.finish,
        }
    }
}

/// How to make a workspace. Fill it with `evoharness_workspace_config_default`, then change
/// what you need.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct evoharness_workspace_config {
    /// Table capacities and the tool count.
    pub capacities: evoharness_capacities,
    /// The step budget of a task: the total cost its actions may spend.
    pub budget: u32,
    /// What each verb costs.
    pub costs: evoharness_costs,
}

/// What a workspace holds now, in numbers.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct evoharness_workspace_info {
    /// Its capacities.
    pub capacities: evoharness_capacities,
    /// The step budget of a task.
    pub budget: u32,
    /// Budget spent in the current task.
    pub spent: u32,
    /// Budget left in the current task.
    pub remaining: u32,
    /// Successful actions over the workspace's life (facts and lessons are dated by it).
    pub clock: u32,
    /// -1 while the task runs; once it finished, 1 if the agent claimed success, else 0.
    pub finished: i8,
    /// Facts in Belief (read them with `evoharness_workspace_fact`).
    pub facts: usize,
    /// Steps in the plan (`evoharness_workspace_plan_step`).
    pub plan_steps: usize,
    /// Lessons in Experience (`evoharness_workspace_lesson`).
    pub lessons: usize,
    /// Whether there is a current event (`evoharness_workspace_event`).
    pub has_event: bool,
    /// The tool of the last world action of this task, or -1.
    pub last_act: i32,
}

/// Where a fact's value came from.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum evoharness_provenance {
    /// A literal in the action.
    Literal = 0,
    /// A field of the current event.
    Event = 1,
    /// Another fact.
    Belief = 2,
    /// The agent's own last world action.
    Action = 3,
}

/// One fact of Belief.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct evoharness_fact {
    /// Its unique key, NUL-terminated.
    pub key: [std::ffi::c_char; EVOHARNESS_KEY_SIZE],
    /// Its value.
    pub value: evoharness_value,
    /// How sure the agent is, 0 to 1.
    pub confidence: f32,
    /// Where the value came from.
    pub provenance: evoharness_provenance,
    /// The tool behind the value (for event and action provenance), else 0.
    pub source: u16,
    /// The workspace clock when the value was last set.
    pub set_at: u32,
    /// The workspace clock when it was last set or confirmed.
    pub confirmed_at: u32,
}

/// The status of a plan step.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum evoharness_step_status {
    /// Planned, not started.
    Pending = 0,
    /// Being worked on.
    Active = 1,
    /// Done.
    Done = 2,
    /// Failed (may be retried).
    Failed = 3,
    /// Waiting on something.
    Blocked = 4,
    /// Given up.
    Skipped = 5,
}

/// One step of the plan (Progress).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct evoharness_plan_step {
    /// What the step is.
    pub label: evoharness_value,
    /// Its status.
    pub status: evoharness_step_status,
    /// How many times it was started or retried.
    pub attempts: u16,
    /// Whether `cursor` holds the step's cursor (the Progress verb's `cursor`).
    pub has_cursor: bool,
    /// Where to resume the step: its cursor.
    pub cursor: evoharness_value,
    /// Whether `last_error` holds the error of its last failure.
    pub has_last_error: bool,
    /// The error of its last failure.
    pub last_error: evoharness_value,
    /// The workspace clock when it last changed.
    pub updated_at: u32,
}

/// One lesson of Experience.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct evoharness_lesson {
    /// The situation it is for.
    pub trigger: evoharness_value,
    /// What to do about it.
    pub remedy: evoharness_value,
    /// Times it was rated helpful.
    pub helpful: u16,
    /// Times it was rated harmful.
    pub harmful: u16,
    /// Times it was recalled.
    pub uses: u16,
    /// Times it was noted (merged duplicates count).
    pub noted: u16,
    /// The workspace clock when it was last used.
    pub last_use: u32,
    /// Whether the last recall returned it.
    pub recalled: bool,
}

impl evoharness_lesson {
    pub(crate) fn from_core(l: &evoharness_core::Lesson) -> Self {
        Self {
            trigger: evoharness_value::from_value(&l.trigger),
            remedy: evoharness_value::from_value(&l.remedy),
            helpful: l.helpful,
            harmful: l.harmful,
            uses: l.uses,
            noted: l.noted,
            last_use: l.last_use,
            recalled: l.recalled,
        }
    }
}

/// Fills `*out` with the defaults: the task suite's capacities (16 facts, 8 steps, 4 lessons,
/// 8 tools), a budget of 1000 and the default costs (every verb 1, `finish` 0). Any thread.
///
/// Errors: `NULL_ARGUMENT`.
///
/// # Safety
/// `out` is NULL or points at a writable `evoharness_workspace_config`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_workspace_config_default(
    out: *mut evoharness_workspace_config,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let out = unsafe { ffi::out(out, "out") }?;
        let caps = DEFAULT_CAPACITIES;
        out.write(evoharness_workspace_config {
            capacities: evoharness_capacities::from_core(caps),
            budget: 1_000,
            costs: evoharness_costs::from_core(Costs::default()),
        });
        Ok(())
    })
}

/// Makes a workspace with the capacities, budget and costs of `*config`; on success `*out` is
/// a new workspace that the caller owns and frees with `evoharness_workspace_free`. Its tables
/// are allocated here, once.
///
/// Errors: `NULL_ARGUMENT`; `CONFIG` for a capacity or tool count out of bounds (`*out` is not
/// written).
///
/// # Safety
/// `config` points at a readable config; `out` at a writable pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_workspace_new(
    config: *const evoharness_workspace_config,
    out: *mut *mut evoharness_workspace,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (config, out) = unsafe { (ffi::input(config, "config")?, ffi::out(out, "out")?) };
        let caps = config.capacities;
        let ws = HeapWorkspace::with_capacities(
            caps.facts,
            caps.steps,
            caps.lessons,
            Config {
                tools: caps.tools,
                budget: config.budget,
                costs: config.costs.to_core(),
            },
        )
        .map_err(|e| Error::new(evoharness_status::Config, format!("workspace: {e}")))?;
        out.write(ffi::to_owned_ptr(WorkspaceHandle::Owned(ws)));
        Ok(())
    })
}

/// Frees a workspace made by `evoharness_workspace_new`. NULL is a no-op; so is an agent's
/// workspace (lent by `evoharness_agent_workspace`: free the agent; the last error says so). Do
/// not use the pointer afterwards.
///
/// # Safety
/// `ws` is NULL or a workspace from `evoharness_workspace_new`, not yet freed, that no other
/// thread is using.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_workspace_free(ws: *mut evoharness_workspace) {
    guard_value((), || {
        // SAFETY: the caller's contract.
        if let Ok(WorkspaceHandle::Lent(_)) = unsafe { ffi::try_ref(ws.cast_const(), "ws") } {
            ffi::set_last_error(
                "evoharness_workspace_free: this workspace is an agent's; free the agent instead",
            );
            return;
        }
        // SAFETY: the caller's contract; an owned workspace (checked).
        unsafe { ffi::free_owned(ws) }
    })
}

/// Applies one encoded action to the workspace and writes the encoded outcome.
///
/// `action` holds exactly one wire frame carrying an action (`core/PROTOCOL.md`, §4–§5). The
/// outcome frame, with the action's sequence number, goes to `outcome` (`outcome_cap` bytes,
/// at least `EVOHARNESS_FRAME_MAX`), its length to `*outcome_len`, and to `*applied` whether the
/// workspace applied the action (`true`) or refused it (`false`: the frame then carries the
/// refusal, and the workspace is unchanged, budget included). A world action's outcome is the
/// resolved tool call for the host to run; give its result back with
/// `evoharness_workspace_observe`. Applying is deterministic: the same bytes give the same
/// bytes on every platform.
///
/// Errors (the workspace is unchanged and nothing is written): `NULL_ARGUMENT`;
/// `BUFFER_TOO_SMALL` when `outcome_cap < EVOHARNESS_FRAME_MAX`; `DECODE` for bytes that are
/// not one valid frame; `INVALID_ARGUMENT` for a frame that carries no action.
///
/// # Safety
/// `ws` is a live workspace that no other thread uses; `action` points at `action_len`
/// readable bytes (it may be NULL when `action_len` is 0); `outcome` at `outcome_cap` writable
/// bytes; `outcome_len` and `applied` at writable values.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_workspace_apply(
    ws: *mut evoharness_workspace,
    action: *const u8,
    action_len: usize,
    outcome: *mut u8,
    outcome_cap: usize,
    outcome_len: *mut usize,
    applied: *mut bool,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract, argument by argument.
        let (ws, action, len_out, applied_out) = unsafe {
            (
                write(ws)?,
                ffi::slice(action, action_len, "action")?,
                ffi::out(outcome_len, "outcome_len")?,
                ffi::out(applied, "applied")?,
            )
        };
        if outcome.is_null() {
            return Err(Error::new(
                evoharness_status::NullArgument,
                "`outcome` is NULL",
            ));
        }
        if outcome_cap < EVOHARNESS_FRAME_MAX {
            return Err(Error::new(
                evoharness_status::BufferTooSmall,
                format!(
                    "the outcome buffer holds {outcome_cap} bytes; give it \
                     EVOHARNESS_FRAME_MAX ({EVOHARNESS_FRAME_MAX})"
                ),
            ));
        }
        // SAFETY: `outcome` is non-NULL (checked) and valid for `outcome_cap` bytes (the
        // caller's contract); u8 has no alignment.
        let outcome = unsafe { ffi::slice_mut(outcome, outcome_cap, "outcome") }?;
        let frame = Frame::decode(action)
            .map_err(|e| Error::new(evoharness_status::Decode, format!("action frame: {e}")))?;
        let Message::Action(act) = &frame.body else {
            return Err(Error::invalid(format!(
                "the frame carries {}, not an action",
                message_name(&frame.body)
            )));
        };
        let result = ws.apply(act);
        let ok = result.is_ok();
        let reply = Frame::new(frame.seq, Message::Outcome(result));
        let n = reply
            .encode(outcome)
            .map_err(|e| Error::new(evoharness_status::BufferTooSmall, e.to_string()))?
            .len();
        len_out.write(n);
        applied_out.write(ok);
        Ok(())
    })
}

fn message_name(m: &Message<'_>) -> &'static str {
    match m {
        Message::Action(_) => "an action",
        Message::Outcome(_) => "an outcome",
        Message::Event(_) => "an event",
    }
}

/// Makes the event in `event` (one wire frame carrying an event) the workspace's current event:
/// what the world said, e.g. the result of the tool call an applied action asked for. Costs no
/// budget.
///
/// Errors (the workspace is unchanged): `NULL_ARGUMENT`; `DECODE`; `INVALID_ARGUMENT` for a
/// frame that carries no event.
///
/// # Safety
/// `ws` is a live workspace that no other thread uses; `event` points at `event_len` readable
/// bytes (NULL when `event_len` is 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_workspace_observe(
    ws: *mut evoharness_workspace,
    event: *const u8,
    event_len: usize,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (ws, bytes) = unsafe { (write(ws)?, ffi::slice(event, event_len, "event")?) };
        let frame = Frame::decode(bytes)
            .map_err(|e| Error::new(evoharness_status::Decode, format!("event frame: {e}")))?;
        let Message::Event(e) = &frame.body else {
            return Err(Error::invalid(format!(
                "the frame carries {}, not an event",
                message_name(&frame.body)
            )));
        };
        ws.observe(e);
        Ok(())
    })
}

/// Starts the next task: clears Belief, Progress, the current event, the budget spent and the
/// finished flag, and keeps Experience (that is its point).
///
/// Errors: `NULL_ARGUMENT`.
///
/// # Safety
/// `ws` is a live workspace that no other thread uses.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_workspace_reset_task(
    ws: *mut evoharness_workspace,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        unsafe { write(ws) }?.reset_task();
        Ok(())
    })
}

/// Writes to `*out` the size in bytes of a buffer that always holds this workspace's snapshot
/// (it depends only on the capacities).
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for an agent's workspace read from inside that
/// agent's callbacks.
///
/// # Safety
/// `ws` is a live workspace; `out` points at a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_workspace_snapshot_max_len(
    ws: *const evoharness_workspace,
    out: *mut usize,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let out = unsafe { ffi::out(out, "out") }?;
        // SAFETY: the caller's contract.
        let n = unsafe {
            read(ws, |w| {
                Ok(evoharness_core::snapshot::max_len(w.capacities()))
            })
        }?;
        out.write(n);
        Ok(())
    })
}

/// Writes the whole workspace as a versioned, checksummed snapshot into `buf` (`cap` bytes;
/// `evoharness_workspace_snapshot_max_len` bytes always suffice) and its length to `*out_len`.
/// The same state always gives the same bytes.
///
/// Errors: `NULL_ARGUMENT`; `BUFFER_TOO_SMALL` (nothing written).
///
/// # Safety
/// `ws` is a live workspace that no thread changes meanwhile; `buf` points at `cap` writable
/// bytes; `out_len` at a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_workspace_snapshot(
    ws: *const evoharness_workspace,
    buf: *mut u8,
    cap: usize,
    out_len: *mut usize,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let len_out = unsafe { ffi::out(out_len, "out_len") }?;
        if buf.is_null() {
            return Err(Error::new(evoharness_status::NullArgument, "`buf` is NULL"));
        }
        let snapshot = |ws: &HeapWorkspace| {
            let mut tmp = vec![0; evoharness_core::snapshot::max_len(ws.capacities())];
            let n = ws
                .snapshot(&mut tmp)
                .map_err(|e| Error::new(evoharness_status::Snapshot, e.to_string()))?
                .len();
            tmp.truncate(n);
            Ok(tmp)
        };
        // SAFETY: the caller's contract.
        let tmp = unsafe { read(ws, snapshot) }?;
        let n = tmp.len();
        if cap < n {
            return Err(Error::new(
                evoharness_status::BufferTooSmall,
                format!("the snapshot needs {n} bytes; the buffer holds {cap}"),
            ));
        }
        // SAFETY: `buf` is non-NULL (checked) and valid for `cap` >= `n` bytes (the caller's
        // contract).
        unsafe { ffi::slice_mut(buf, n, "buf") }?.copy_from_slice(&tmp[..n]);
        len_out.write(n);
        Ok(())
    })
}

/// Replaces the whole workspace with a snapshot's state. All or nothing: bytes that are
/// truncated, corrupted, of another format, of other capacities or that break an invariant are
/// refused and the workspace stays as it was.
///
/// Errors: `NULL_ARGUMENT`; `SNAPSHOT` (the message says why).
///
/// # Safety
/// `ws` is a live workspace that no other thread uses; `bytes` points at `len` readable bytes
/// (NULL when `len` is 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_workspace_restore(
    ws: *mut evoharness_workspace,
    bytes: *const u8,
    len: usize,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (ws, bytes) = unsafe { (write(ws)?, ffi::slice(bytes, len, "bytes")?) };
        ws.restore(bytes)
            .map_err(|e| Error::new(evoharness_status::Snapshot, format!("restore: {e}")))
    })
}

/// Writes what the workspace holds now, in numbers, to `*out`.
///
/// Errors: `NULL_ARGUMENT`.
///
/// # Safety
/// `ws` is a live workspace that no thread changes meanwhile; `out` points at a writable
/// struct.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_workspace_get_info(
    ws: *const evoharness_workspace,
    out: *mut evoharness_workspace_info,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let out = unsafe { ffi::out(out, "out") }?;
        // SAFETY: the caller's contract.
        out.write(unsafe { read(ws, |ws| Ok(info(ws))) }?);
        Ok(())
    })
}

/// How C sees a finish: -1 not finished, 0 gave up, 1 claimed success.
#[doc(hidden)]
pub fn finished_flag(f: Option<bool>) -> i8 {
    match f {
        None => -1,
        Some(false) => 0,
        Some(true) => 1,
    }
}

fn info(ws: &HeapWorkspace) -> evoharness_workspace_info {
    evoharness_workspace_info {
        capacities: evoharness_capacities::from_core(ws.capacities()),
        budget: ws.config().budget,
        spent: ws.spent(),
        remaining: ws.remaining(),
        clock: ws.clock(),
        finished: finished_flag(ws.finished()),
        facts: ws.belief().len(),
        plan_steps: ws.progress().len(),
        lessons: ws.experience().len(),
        has_event: ws.event().is_some(),
        last_act: ws.last_act().map_or(-1, i32::from),
    }
}

fn past_end(what: &str, index: usize, len: usize) -> Error {
    Error::not_found(format!("no {what} {index}: there are {len}"))
}

/// Writes the fact in Belief slot `index` (0 to `facts - 1` of `evoharness_workspace_info`) to
/// `*out`.
///
/// Errors: `NULL_ARGUMENT`; `NOT_FOUND` for an index past the last fact.
///
/// # Safety
/// `ws` is a live workspace that no thread changes meanwhile; `out` points at a writable
/// struct.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_workspace_fact(
    ws: *const evoharness_workspace,
    index: usize,
    out: *mut evoharness_fact,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let out = unsafe { ffi::out(out, "out") }?;
        let get = |ws: &HeapWorkspace| {
            let facts = ws.belief().facts();
            let f = facts
                .get(index)
                .ok_or_else(|| past_end("fact", index, facts.len()))?;
            Ok(evoharness_fact {
                key: ffi::fixed_str(&f.key),
                value: evoharness_value::from_value(&f.value),
                confidence: f.confidence,
                provenance: match f.provenance {
                    evoharness_core::Provenance::Literal => evoharness_provenance::Literal,
                    evoharness_core::Provenance::Event => evoharness_provenance::Event,
                    evoharness_core::Provenance::Belief => evoharness_provenance::Belief,
                    evoharness_core::Provenance::Action => evoharness_provenance::Action,
                },
                source: f.source,
                set_at: f.set_at,
                confirmed_at: f.confirmed_at,
            })
        };
        // SAFETY: the caller's contract.
        out.write(unsafe { read(ws, get) }?);
        Ok(())
    })
}

/// Writes step `index` of the plan (0 to `plan_steps - 1`) to `*out`.
///
/// Errors: `NULL_ARGUMENT`; `NOT_FOUND` for an index past the last step.
///
/// # Safety
/// As `evoharness_workspace_fact`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_workspace_plan_step(
    ws: *const evoharness_workspace,
    index: usize,
    out: *mut evoharness_plan_step,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let out = unsafe { ffi::out(out, "out") }?;
        let get = |ws: &HeapWorkspace| {
            let steps = ws.progress().steps();
            let s = steps
                .get(index)
                .ok_or_else(|| past_end("plan step", index, steps.len()))?;
            let opt = |v: &Option<evoharness_core::Value>| {
                let none = evoharness_core::Value::Bool(false);
                (
                    v.is_some(),
                    evoharness_value::from_value(v.as_ref().unwrap_or(&none)),
                )
            };
            let (has_cursor, cursor) = opt(&s.cursor);
            let (has_last_error, last_error) = opt(&s.last_error);
            Ok(evoharness_plan_step {
                label: evoharness_value::from_value(&s.label),
                status: match s.status {
                    Status::Pending => evoharness_step_status::Pending,
                    Status::Active => evoharness_step_status::Active,
                    Status::Done => evoharness_step_status::Done,
                    Status::Failed => evoharness_step_status::Failed,
                    Status::Blocked => evoharness_step_status::Blocked,
                    Status::Skipped => evoharness_step_status::Skipped,
                },
                attempts: s.attempts,
                has_cursor,
                cursor,
                has_last_error,
                last_error,
                updated_at: s.updated_at,
            })
        };
        // SAFETY: the caller's contract.
        out.write(unsafe { read(ws, get) }?);
        Ok(())
    })
}

/// Writes the lesson in Experience slot `index` (0 to `lessons - 1`) to `*out`.
///
/// Errors: `NULL_ARGUMENT`; `NOT_FOUND` for an index past the last lesson.
///
/// # Safety
/// As `evoharness_workspace_fact`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_workspace_lesson(
    ws: *const evoharness_workspace,
    index: usize,
    out: *mut evoharness_lesson,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let out = unsafe { ffi::out(out, "out") }?;
        let get = |ws: &HeapWorkspace| {
            let lessons = ws.experience().lessons();
            let l = lessons
                .get(index)
                .ok_or_else(|| past_end("lesson", index, lessons.len()))?;
            Ok(evoharness_lesson::from_core(l))
        };
        // SAFETY: the caller's contract.
        out.write(unsafe { read(ws, get) }?);
        Ok(())
    })
}

/// Writes the current event (what the world said last) to `*out`.
///
/// Errors: `NULL_ARGUMENT`; `NOT_FOUND` when there is none (a fresh workspace, or after
/// `evoharness_workspace_reset_task`).
///
/// # Safety
/// As `evoharness_workspace_fact`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_workspace_event(
    ws: *const evoharness_workspace,
    out: *mut evoharness_event,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let out = unsafe { ffi::out(out, "out") }?;
        let get = |ws: &HeapWorkspace| {
            let e = ws
                .event()
                .ok_or_else(|| Error::not_found("the workspace has no current event"))?;
            Ok(evoharness_event::from_core(e))
        };
        // SAFETY: the caller's contract.
        out.write(unsafe { read(ws, get) }?);
        Ok(())
    })
}
