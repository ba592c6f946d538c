//! A world written by the host: C callbacks for the runtime's `World` contract
//! (`runtime/WORLD.md`), so that a C or C++ product (or Python, through ctypes) can run an agent,
//! or train one in a vectorised environment, against its own tools and events.
//!
//! [`CallbackWorld`] is a runtime `World` whose methods call the host: `reset` and `call` fill an
//! event through the tool-result builder (`evoharness_tool_result_*`), `judge` a verdict,
//! `save_resume_point` a resume point (`evoharness_resume_point_write`), `restore_resume_point`
//! reads one back; `drop` frees the host's data. The `World` methods cannot return errors, so a
//! callback that fails (non-zero return, a refused builder call, a missing callback that is needed)
//! makes the world answer with a placeholder error event `{error: "world_failed", callback:
//! <which>}` and keep the failure, which the agent then returns as `EVOHARNESS_STATUS_WORLD`
//! ([`World::take_failure`]).

use std::cell::Cell;
use std::ffi::{CString, c_char, c_void};

use evoharness_core::{EventBuf, EventKind, TOOLS_MAX, ToolCall, Value};
use evoharness_runtime::{Error as RtError, ErrorKind, Result as RtResult, Verdict, World};

use crate::agent::evoharness_verdict;
use crate::ffi::{self, Castable, Error, guard};
use crate::status::evoharness_status;
use crate::tool::{ToolResult, evoharness_tool_call, evoharness_tool_fn, evoharness_tool_result};
use crate::world::{evoharness_world, world_handle};

/// The bytes a world saves for an agent's checkpoint, being written by its `save_resume_point`
/// callback with `evoharness_resume_point_write`. Lent for the duration of the callback only: never
/// keep the pointer, never free it.
pub struct evoharness_resume_point {
    _private: [u8; 0],
}

impl Castable for evoharness_resume_point {
    type Rust = Vec<u8>;
}

/// The longest resume point a world may save, in bytes (16 MiB).
pub const EVOHARNESS_RESUME_POINT_MAX: usize = 16 << 20;

/// Starts a task of a host's world for `seed`: fill `event` (an empty
/// `EVOHARNESS_EVENT_KIND_NOTICE` event from source 0) with the task's first event. Return 0 on
/// success; anything else is a failure of the world (`EVOHARNESS_STATUS_WORLD`).
pub type evoharness_world_reset_fn = Option<
    unsafe extern "C" fn(
        user_data: *mut c_void,
        seed: u64,
        event: *mut evoharness_tool_result,
    ) -> i32,
>;

/// Judges a host world's current task: `finished` is -1 if the agent has not finished, 1 if it
/// finished claiming success, 0 if it gave up; write the verdict to `*verdict` (it starts as
/// `{success: false, violations: 0}`). Return 0 on success; anything else is a failure of the
/// world.
pub type evoharness_world_judge_fn = Option<
    unsafe extern "C" fn(
        user_data: *mut c_void,
        finished: i8,
        verdict: *mut evoharness_verdict,
    ) -> i32,
>;

/// Saves a host world's resume point for an agent checkpoint: write with
/// `evoharness_resume_point_write` what the world needs to continue the task exactly (where it
/// stands, the sequence number of its next side effect). Return 0 on success; anything else is a
/// failure of the world, and the checkpoint is not written.
pub type evoharness_world_save_fn = Option<
    unsafe extern "C" fn(user_data: *mut c_void, resume_point: *mut evoharness_resume_point) -> i32,
>;

/// Restores a resume point that the save callback wrote (`len` bytes at `bytes`, valid during the
/// call only), when an agent resumes. Return 0 if it was restored; anything else refuses it
/// (the resume fails with `EVOHARNESS_STATUS_CHECKPOINT`), and the world must then be unchanged.
pub type evoharness_world_restore_fn =
    Option<unsafe extern "C" fn(user_data: *mut c_void, bytes: *const u8, len: usize) -> i32>;

/// Frees the host's data of a world: called once, when the world is freed (by
/// `evoharness_world_free`, or with the agent or environment that took it over).
pub type evoharness_world_drop_fn = Option<unsafe extern "C" fn(user_data: *mut c_void)>;

/// The callbacks of a world written by the host, for `evoharness_world_from_callbacks`. Each
/// is called with the `user_data` given there, on the thread that steps the agent or the
/// environment that owns the world, never during another; each must return normally (no C++
/// exception, no `longjmp` out of it).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct evoharness_world_callbacks {
    /// Required: starts a task and writes its first event.
    pub reset: evoharness_world_reset_fn,
    /// Required: runs one tool call (`call->tool` and `call->name` say which, `call->args` with
    /// what) and writes the event it returns into `result` (an empty
    /// `EVOHARNESS_EVENT_KIND_RESULT` event from that tool). A tool that ran but failed at its
    /// job makes it an error event (`evoharness_tool_result_set_kind`) and returns 0; a non-zero
    /// return is a failure of the world itself (`EVOHARNESS_STATUS_WORLD`), unlike a host tool's.
    pub call: evoharness_tool_fn,
    /// Optional (NULL: the world has no judge, and an agent's verdict is `NOT_FOUND`).
    pub judge: evoharness_world_judge_fn,
    /// Optional (NULL: the world cannot be checkpointed; a checkpoint of an agent over it fails
    /// with `EVOHARNESS_STATUS_WORLD`).
    pub save_resume_point: evoharness_world_save_fn,
    /// Optional (NULL: a checkpoint that holds a resume point is refused, `CHECKPOINT`).
    pub restore_resume_point: evoharness_world_restore_fn,
    /// Optional: frees `user_data` with the world.
    pub drop: evoharness_world_drop_fn,
}

type ResetFn = unsafe extern "C" fn(*mut c_void, u64, *mut evoharness_tool_result) -> i32;
type CallFn = unsafe extern "C" fn(
    *mut c_void,
    *const evoharness_tool_call,
    *mut evoharness_tool_result,
) -> i32;

/// See the [module docs](self).
pub struct CallbackWorld {
    reset: ResetFn,
    call: CallFn,
    judge: evoharness_world_judge_fn,
    save: evoharness_world_save_fn,
    restore: evoharness_world_restore_fn,
    drop: evoharness_world_drop_fn,
    user_data: *mut c_void,
    names: Vec<CString>,
    /// The first failure since the agent last asked ([`World::take_failure`]).
    failure: Cell<Option<RtError>>,
}

// SAFETY: the world only uses `user_data` through the host's callbacks, on the thread that
// steps its owner; the header's contract (`evoharness_world_from_callbacks`) is that the host's
// data may be used from whichever thread it moves the world to (one at a time).
unsafe impl Send for CallbackWorld {}

impl CallbackWorld {
    fn fail(&self, message: String) {
        let first = self.failure.take();
        self.failure.set(Some(
            first.unwrap_or_else(|| RtError::new(ErrorKind::World, message)),
        ));
    }

    fn failed_event(source: u16, what: &str) -> EventBuf {
        let mut e = EventBuf::new(EventKind::Error, source);
        if let Ok(t) = Value::text("world_failed") {
            let _ = e.push("error", t);
        }
        if let Ok(t) = Value::text(what) {
            let _ = e.push("callback", t);
        }
        e
    }

    /// The event a callback wrote, or the placeholder and a failure when it failed.
    fn event(&self, what: &str, rc: i32, r: ToolResult, source: u16) -> EventBuf {
        if rc != 0 {
            self.fail(format!(
                "the world's `{what}` callback failed (it returned {rc})"
            ));
        } else if let Some(m) = r.refused {
            self.fail(format!(
                "the world's `{what}` callback wrote a malformed event: {m}"
            ));
        } else {
            return r.event;
        }
        Self::failed_event(source, what)
    }
}

impl Drop for CallbackWorld {
    fn drop(&mut self) {
        if let Some(d) = self.drop {
            // SAFETY: the host gave `drop` with `user_data` (see `evoharness_world_callbacks`);
            // it is called once, here.
            unsafe { d(self.user_data) }
        }
    }
}

impl World for CallbackWorld {
    fn tools(&self) -> u16 {
        // At most TOOLS_MAX (checked when made).
        self.names.len() as u16
    }

    fn tool_name(&self, tool: u16) -> Option<&str> {
        self.names.get(usize::from(tool))?.to_str().ok()
    }

    fn reset(&mut self, seed: u64) -> EventBuf {
        let mut r = ToolResult::new(EventBuf::new(EventKind::Notice, 0));
        // SAFETY: the host's `reset` with its `user_data` (the contract of
        // `evoharness_world_from_callbacks`); `r` lives across the call and is the `ToolResult`
        // that `evoharness_tool_result` stands for.
        let rc = unsafe {
            (self.reset)(
                self.user_data,
                seed,
                (&raw mut r).cast::<evoharness_tool_result>(),
            )
        };
        self.event("reset", rc, r, 0)
    }

    fn call(&mut self, call: &ToolCall) -> EventBuf {
        let Some(name) = self.names.get(usize::from(call.tool)) else {
            // The agent's workspace checks tool indices against the same count.
            self.fail(format!(
                "the agent called tool {}, which the world lacks",
                call.tool
            ));
            return Self::failed_event(call.tool, "call");
        };
        let c_call = evoharness_tool_call::new(call, name.as_ptr());
        let mut r = ToolResult::new(EventBuf::new(EventKind::Result, call.tool));
        // SAFETY: as in `reset`; `c_call` and the name it points at live across the call.
        let rc = unsafe {
            (self.call)(
                self.user_data,
                &c_call,
                (&raw mut r).cast::<evoharness_tool_result>(),
            )
        };
        self.event("call", rc, r, call.tool)
    }

    fn judge(&self, finished: Option<bool>) -> Option<Verdict> {
        let judge = self.judge?;
        let mut v = evoharness_verdict {
            success: false,
            violations: 0,
        };
        // SAFETY: the host's `judge` with its `user_data`; `v` lives across the call.
        let rc = unsafe { judge(self.user_data, crate::finished_flag(finished), &mut v) };
        if rc != 0 {
            self.fail(format!(
                "the world's `judge` callback failed (it returned {rc})"
            ));
            return None;
        }
        Some(Verdict {
            success: v.success,
            violations: v.violations,
        })
    }

    fn save_resume_point(&self, out: &mut Vec<u8>) -> bool {
        let Some(save) = self.save else {
            self.fail(
                "this world cannot be checkpointed: its callbacks have no `save_resume_point`"
                    .into(),
            );
            return false;
        };
        // SAFETY: the host's `save_resume_point` with its `user_data`; `out` is the `Vec<u8>` that
        // `evoharness_resume_point` stands for, alive and not otherwise used across the call.
        let rc = unsafe { save(self.user_data, std::ptr::from_mut(out).cast()) };
        if rc != 0 {
            self.fail(format!(
                "the world's `save_resume_point` callback failed (it returned {rc})"
            ));
            return false;
        }
        true
    }

    fn restore_resume_point(&mut self, resume_point: &[u8]) -> RtResult<()> {
        let Some(restore) = self.restore else {
            return Err(RtError::new(
                ErrorKind::Checkpoint,
                "the checkpoint holds a world resume_point, and this world's callbacks have no \
                 `restore_resume_point`",
            ));
        };
        // SAFETY: the host's `restore_resume_point` with its `user_data`; `resume_point` is valid
        // for `len` reads across the call.
        let rc = unsafe { restore(self.user_data, resume_point.as_ptr(), resume_point.len()) };
        if rc != 0 {
            return Err(RtError::new(
                ErrorKind::Checkpoint,
                format!(
                    "the world's `restore_resume_point` callback refused the resume point ({rc})"
                ),
            ));
        }
        Ok(())
    }

    fn take_failure(&self) -> Option<RtError> {
        self.failure.take()
    }
}

/// Makes a world written by the host from `callbacks` (copied) and `user_data`, with
/// `tool_count` tools named `tool_names[0..tool_count]` (NUL-terminated UTF-8, distinct,
/// copied), in tool-index order. Give it to `evoharness_agent_new` with a policy made for that
/// many tools, or (with `libevoharness_train`) to `evoharness_vec_env_new_worlds` to train one.
/// On success `*out` is a new world that the caller owns (free it with `evoharness_world_free`
/// unless an agent or environment took it over); from then on the world owns `user_data`,
/// and frees it with `callbacks->drop` (if given) when it is freed. On failure nothing is
/// kept and `drop` is not called.
///
/// Errors (nothing made): `NULL_ARGUMENT` (`callbacks`, `tool_names`, a name, `out`, or a
/// NULL `reset` or `call`); `CONFIG` for 0 tools or more than 64 (`TOOLS_MAX`, what a layout
/// can express); `INVALID_ARGUMENT` for a name that is not UTF-8, empty, or repeated.
///
/// Failures of the callbacks later are `EVOHARNESS_STATUS_WORLD` from the call that ran them
/// (`evoharness_agent_step`, `evoharness_vec_env_step`, ...), with a message naming the
/// callback: a non-zero return, or an event builder call that failed inside it (a key too long,
/// too many fields, text not UTF-8: the builder's error makes the whole event malformed).
///
/// Thread safety: as other worlds; the world calls its callbacks on the thread that uses its
/// owner, so `user_data` must allow whichever thread that is.
///
/// # Safety
/// `callbacks` points at a readable struct whose non-NULL members are functions of their types
/// that may be called with `user_data` for as long as the world lives; `tool_names` at
/// `tool_count` readable pointers to NUL-terminated strings; `out` at a writable pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_world_from_callbacks(
    callbacks: *const evoharness_world_callbacks,
    user_data: *mut c_void,
    tool_names: *const *const c_char,
    tool_count: usize,
    out: *mut *mut evoharness_world,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (cb, out) = unsafe { (ffi::input(callbacks, "callbacks")?, ffi::out(out, "out")?) };
        let null = |what: &str| {
            Error::new(
                evoharness_status::NullArgument,
                format!("`callbacks->{what}` is NULL: a world needs it"),
            )
        };
        let reset = cb.reset.ok_or_else(|| null("reset"))?;
        let call = cb.call.ok_or_else(|| null("call"))?;
        if tool_count == 0 || tool_count > TOOLS_MAX {
            return Err(Error::new(
                evoharness_status::Config,
                format!(
                    "a world has 1 to {TOOLS_MAX} tools (what a layout can express); \
                     tool_count is {tool_count}"
                ),
            ));
        }
        // SAFETY: the caller's contract.
        let ptrs = unsafe { ffi::slice(tool_names, tool_count, "tool_names") }?;
        let mut names: Vec<CString> = Vec::with_capacity(tool_count);
        for (i, &p) in ptrs.iter().enumerate() {
            // SAFETY: the caller's contract: each is a NUL-terminated string.
            let name = unsafe { ffi::text(p, &format!("tool_names[{i}]")) }?;
            if name.is_empty() {
                return Err(Error::invalid(format!("tool_names[{i}] is empty")));
            }
            if names.iter().any(|n| n.as_bytes() == name.as_bytes()) {
                return Err(Error::invalid(format!(
                    "tool_names[{i}] repeats the tool name {name:?}"
                )));
            }
            // SAFETY: the caller's contract: NUL-terminated.
            names.push(unsafe { ffi::c_str(p, "tool name") }?.to_owned());
        }
        out.write(world_handle(CallbackWorld {
            reset,
            call,
            judge: cb.judge,
            save: cb.save_resume_point,
            restore: cb.restore_resume_point,
            drop: cb.drop,
            user_data,
            names,
            failure: Cell::new(None),
        }));
        Ok(())
    })
}

/// Appends `len` bytes at `bytes` to the resume point a world's `save_resume_point` callback is
/// writing.
///
/// Errors (nothing appended): `NULL_ARGUMENT`; `BUFFER_TOO_SMALL` past
/// `EVOHARNESS_RESUME_POINT_MAX` bytes in all.
///
/// # Safety
/// `resume_point` is the resume point lent to the running `save_resume_point` callback; `bytes`
/// points at `len` readable bytes (NULL when `len` is 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_resume_point_write(
    resume_point: *mut evoharness_resume_point,
    bytes: *const u8,
    len: usize,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (c, b) = unsafe {
            (
                ffi::try_mut(resume_point, "resume_point")?,
                ffi::slice(bytes, len, "bytes")?,
            )
        };
        if c.len().saturating_add(b.len()) > EVOHARNESS_RESUME_POINT_MAX {
            return Err(Error::new(
                evoharness_status::BufferTooSmall,
                format!("a world's resume point holds at most {EVOHARNESS_RESUME_POINT_MAX} bytes"),
            ));
        }
        c.extend_from_slice(b);
        Ok(())
    })
}
