//! The environment of an agent made through the C ABI: host tools (callbacks), optionally over
//! one of the task suite's worlds.
//!
//! Each tool index is served by, in order: the host's callback if one is registered for it,
//! else the suite's [`World`] if the agent runs a suite task, else nobody (the agent then sees
//! an error event `{error: "no_tool"}`, and the log a warning). A host callback *replaces* the
//! world's tool: the world never sees those calls.
//!
//! # The cursor (what a checkpoint keeps of the world)
//!
//! A world is deterministic for its seed and the sequence of calls it received, so its cursor
//! is that seed and those calls: `EVHE`, version 1, the task kind, horizon and family (checked
//! on restore), the seed, the number of calls, then each call as a wire frame (an outcome
//! `Ok(Call(..))`, `core/PROTOCOL.md`). Restoring resets the world with the seed and replays
//! the calls. The record grows with the calls of a task (a few to a few dozen bytes each) and
//! is cleared when the next task starts. Host tools keep no cursor here: after a resume they
//! see again the calls made after the checkpoint, and must recognise them (see the runtime's
//! `agent` module docs on exactly-once side effects).

use std::ffi::{CString, c_void};

use evoharness_core::wire::{FRAME_MAX, Frame, Message};
use evoharness_core::{EventBuf, EventKind, FieldBuf, Outcome, ToolCall, Value};
use evoharness_runtime::tasks::{TaskConfig, TaskKind, World};
use evoharness_runtime::{Environment, Error as RtError, ErrorKind};

use crate::tool::{ToolResult, evoharness_tool_call, evoharness_tool_result};

/// A registered host tool.
#[derive(Clone, Copy)]
pub(crate) struct Callback {
    pub(crate) f: unsafe extern "C" fn(
        *mut c_void,
        *const evoharness_tool_call,
        *mut evoharness_tool_result,
    ) -> i32,
    pub(crate) user_data: *mut c_void,
}

/// One tool index: its name and who serves it.
pub(crate) struct Tool {
    pub(crate) name: CString,
    pub(crate) callback: Option<Callback>,
}

/// A suite world and the record of the calls it received this task.
pub(crate) struct SuiteWorld {
    world: World,
    seed: u64,
    calls: u64,
    log: Vec<u8>,
}

impl SuiteWorld {
    pub(crate) fn new(task: TaskConfig, family: u64) -> Self {
        Self {
            world: World::new(task, family),
            seed: 0,
            calls: 0,
            log: Vec::new(),
        }
    }

    /// The world.
    pub(crate) fn world(&self) -> &World {
        &self.world
    }
}

/// See the [module docs](self).
pub(crate) struct HostEnv {
    pub(crate) tools: Vec<Tool>,
    pub(crate) world: Option<SuiteWorld>,
}

fn event(kind: EventKind, source: u16, fields: &[(&str, Value)]) -> EventBuf {
    let mut e = EventBuf {
        kind,
        source,
        fields: Default::default(),
    };
    for (k, v) in fields {
        // Our own short keys, and at most two fields: within the core's bounds.
        if let Ok(key) = (*k).try_into() {
            let _ = e.fields.push(FieldBuf {
                key,
                value: v.clone(),
            });
        }
    }
    e
}

fn text(s: &str) -> Value {
    Value::text(s).unwrap_or(Value::Bool(false))
}

const MAGIC: [u8; 4] = *b"EVHE";
const VERSION: u8 = 1;
const HEAD: usize = 4 + 1 + 1 + 4 + 8 + 8 + 8;

fn kind_code(k: TaskKind) -> u8 {
    match k {
        TaskKind::Migration => 1,
        TaskKind::Records => 2,
        TaskKind::Orchestration => 3,
    }
}

/// A parsed world cursor.
pub(crate) struct Cursor<'a> {
    seed: u64,
    calls: u64,
    log: &'a [u8],
}

fn bad_cursor(what: impl std::fmt::Display) -> RtError {
    RtError::new(
        ErrorKind::Checkpoint,
        format!("the checkpoint's world cursor: {what}"),
    )
}

impl<'a> Cursor<'a> {
    /// Checks the header against the world it is for, and every recorded call's frame.
    pub(crate) fn parse(bytes: &'a [u8], world: &World) -> Result<Self, RtError> {
        let head = bytes.get(..HEAD).ok_or_else(|| bad_cursor("truncated"))?;
        let u32_at =
            |i: usize| u32::from_le_bytes([head[i], head[i + 1], head[i + 2], head[i + 3]]);
        let u64_at = |i: usize| {
            let mut b = [0; 8];
            b.copy_from_slice(&head[i..i + 8]);
            u64::from_le_bytes(b)
        };
        if head[..4] != MAGIC || head[4] != VERSION {
            return Err(bad_cursor("not a suite world cursor of version 1"));
        }
        let config = world.config();
        let (kind, horizon, family) = (head[5], u32_at(6), u64_at(10));
        if kind != kind_code(config.kind) || horizon != config.horizon || family != world.family() {
            return Err(bad_cursor(format_args!(
                "made for another task (kind {kind}, horizon {horizon}, family {family}; this \
                 agent runs kind {}, horizon {}, family {})",
                kind_code(config.kind),
                config.horizon,
                world.family()
            )));
        }
        let c = Self {
            seed: u64_at(18),
            calls: u64_at(26),
            log: &bytes[HEAD..],
        };
        let mut n = 0u64;
        c.each(|_| n += 1)?;
        if n != c.calls {
            return Err(bad_cursor(format_args!(
                "{n} calls recorded, {} announced",
                c.calls
            )));
        }
        Ok(c)
    }

    fn each(&self, mut f: impl FnMut(&ToolCall)) -> Result<(), RtError> {
        let mut rest = self.log;
        while !rest.is_empty() {
            let (frame, more) = Frame::take(rest).map_err(bad_cursor)?;
            let Message::Outcome(Ok(Outcome::Call(call))) = &frame.body else {
                return Err(bad_cursor("a recorded call is not a call"));
            };
            f(call);
            rest = more;
        }
        Ok(())
    }
}

impl HostEnv {
    fn host_call(&self, cb: Callback, name: &CString, call: &ToolCall) -> EventBuf {
        let mut result = ToolResult {
            event: event(EventKind::Result, call.tool, &[]),
        };
        let c_call = evoharness_tool_call::new(call, name.as_ptr());
        // SAFETY: the host registered `f` with `user_data` for this tool, promising (see
        // `evoharness_tool_fn`) that it may be called with them on this thread and returns
        // normally. `c_call` and `result` live across the call; the result pointer is the
        // `ToolResult` that `evoharness_tool_result` stands for.
        let rc = unsafe {
            (cb.f)(
                cb.user_data,
                &c_call,
                (&raw mut result).cast::<evoharness_tool_result>(),
            )
        };
        if rc == 0 {
            result.event
        } else {
            event(
                EventKind::Error,
                call.tool,
                &[
                    ("error", text("tool_failed")),
                    ("code", Value::Int(i64::from(rc))),
                ],
            )
        }
    }
}

impl Environment for HostEnv {
    fn tools(&self) -> u16 {
        // At most 64 (TOOLS_MAX): the policy's capacities, validated at load.
        self.tools.len() as u16
    }

    fn reset(&mut self, seed: u64) -> EventBuf {
        match &mut self.world {
            Some(w) => {
                w.seed = seed;
                w.calls = 0;
                w.log.clear();
                w.world.reset(seed)
            }
            None => event(EventKind::Notice, 0, &[("seed", Value::Int(seed as i64))]),
        }
    }

    fn call(&mut self, call: &ToolCall) -> EventBuf {
        let tool = self.tools.get(usize::from(call.tool));
        if let Some(Tool {
            name,
            callback: Some(cb),
        }) = tool
        {
            return self.host_call(*cb, name, call);
        }
        if let Some(w) = &mut self.world {
            let mut buf = [0u8; FRAME_MAX];
            let frame = Frame::new(0, Message::Outcome(Ok(Outcome::Call(call.clone()))));
            // FRAME_MAX always suffices for a frame.
            if let Ok(bytes) = frame.encode(&mut buf) {
                w.log.extend_from_slice(bytes);
                w.calls += 1;
            }
            return w.world.call(call);
        }
        let name = tool.map_or_else(|| "?".into(), |t| t.name.to_string_lossy());
        log::warn!(
            "the agent called tool {} ({name}), which no callback serves; it sees an error event",
            call.tool
        );
        event(
            EventKind::Error,
            call.tool,
            &[
                ("error", text("no_tool")),
                ("tool", Value::Int(i64::from(call.tool))),
            ],
        )
    }

    fn save_cursor(&self, out: &mut Vec<u8>) -> bool {
        let Some(w) = &self.world else {
            return false;
        };
        let config = w.world.config();
        out.extend_from_slice(&MAGIC);
        out.push(VERSION);
        out.push(kind_code(config.kind));
        out.extend_from_slice(&config.horizon.to_le_bytes());
        out.extend_from_slice(&w.world.family().to_le_bytes());
        out.extend_from_slice(&w.seed.to_le_bytes());
        out.extend_from_slice(&w.calls.to_le_bytes());
        out.extend_from_slice(&w.log);
        true
    }

    fn restore_cursor(&mut self, cursor: &[u8]) -> Result<(), RtError> {
        let Some(w) = &mut self.world else {
            return Err(bad_cursor(
                "the checkpoint has a suite world, and this agent runs no suite task",
            ));
        };
        let c = Cursor::parse(cursor, &w.world)?;
        w.world.reset(c.seed);
        let world = &mut w.world;
        c.each(|call| {
            world.call(call);
        })?;
        w.seed = c.seed;
        w.calls = c.calls;
        w.log.clear();
        w.log.extend_from_slice(c.log);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use evoharness_runtime::tasks::{FETCH, PUT};

    fn call(tool: u16, arg: Option<i64>) -> ToolCall {
        let mut args = evoharness_core::heapless::Vec::new();
        if let Some(a) = arg {
            let _ = args.push(Value::Int(a));
        }
        ToolCall { tool, args }
    }

    fn env(kind: TaskKind, family: u64) -> HostEnv {
        HostEnv {
            tools: (0..8)
                .map(|i| Tool {
                    name: CString::new(format!("tool{i}")).unwrap(),
                    callback: None,
                })
                .collect(),
            world: Some(SuiteWorld::new(TaskConfig::new(kind, 60), family)),
        }
    }

    fn id(e: &EventBuf, key: &str) -> Option<i64> {
        match e.get(key) {
            Some(Value::Int(i)) => Some(*i),
            _ => None,
        }
    }

    #[test]
    fn a_restored_cursor_continues_the_world_exactly() {
        let kind = TaskKind::Migration;
        let mut a = env(kind, 3);
        a.reset(17);
        let mut calls = Vec::new();
        for _ in 0..10 {
            let e = a.call(&call(FETCH, None));
            calls.push(call(FETCH, None));
            if let Some(i) = id(&e, kind.item_key()) {
                a.call(&call(PUT, Some(i)));
                calls.push(call(PUT, Some(i)));
            }
        }
        let mut cursor = Vec::new();
        assert!(a.save_cursor(&mut cursor));
        let mut b = env(kind, 3);
        b.restore_cursor(&cursor).unwrap();
        let w = |e: &HostEnv| {
            let w = e.world.as_ref().unwrap().world();
            (w.delivered(), w.landed_count(), w.violations())
        };
        assert_eq!(w(&a), w(&b));
        // And they go on alike.
        for _ in 0..20 {
            let (x, y) = (a.call(&call(FETCH, None)), b.call(&call(FETCH, None)));
            assert_eq!(x, y);
        }
        // A cursor of another task, a cut one, and one for an agent without a world are refused.
        assert!(env(kind, 4).restore_cursor(&cursor).is_err());
        assert!(env(TaskKind::Records, 3).restore_cursor(&cursor).is_err());
        assert!(
            env(kind, 3)
                .restore_cursor(&cursor[..cursor.len() - 1])
                .is_err()
        );
        assert!(env(kind, 3).restore_cursor(&cursor[..10]).is_err());
        let mut none = env(kind, 3);
        none.world = None;
        assert!(none.restore_cursor(&cursor).is_err());
        assert!(!none.save_cursor(&mut Vec::new()));
    }

    #[test]
    fn an_unserved_tool_is_an_error_event() {
        let mut e = env(TaskKind::Records, 0);
        e.world = None;
        let first = e.reset(5);
        assert_eq!(first.kind, EventKind::Notice);
        assert_eq!(id(&first, "seed"), Some(5));
        let r = e.call(&call(2, None));
        assert_eq!(r.kind, EventKind::Error);
        assert_eq!(r.get("error"), Some(&text("no_tool")));
    }
}
