//! The world of an agent made through the C ABI: host tools (callbacks) over an optional world
//! that a library made (an `evoharness_world`, such as a task of the suite from
//! `libevoharness_train`).
//!
//! Each tool index is served by, in order: the host's callback if one is registered for it,
//! else the inner world if the agent has one, else nobody (the agent then sees an error event
//! `{error: "no_tool"}`, and the log a warning). A host callback *replaces* the inner world's
//! tool: the world never sees those calls.
//!
//! The resume point a checkpoint keeps is the inner world's own ([`World::save_resume_point`]), and
//! a resume hands it back to that world, which checks it ([`World::restore_resume_point`]). Host
//! tools keep no resume point here: after a resume they see again the calls made after the
//! checkpoint, and must recognise them (see the runtime's `agent` module docs on exactly-once side
//! effects).

use std::any::Any;
use std::ffi::{CString, c_void};

use evoharness_core::{EventBuf, EventKind, ToolCall, Value};
use evoharness_runtime::{AnyPolicy, Error as RtError, Verdict, World};

use crate::ffi::{self, Castable, Error, guard_value};
use crate::status::evoharness_status;
use crate::tool::{ToolResult, evoharness_tool_call, evoharness_tool_result};

/// A world made by a library for agents to act in (for instance a task of the suite, made by
/// `evoharness_suite_world_new` in `libevoharness_train`): the tools the host does not serve
/// itself, with their state.
///
/// The caller owns it until it gives it to `evoharness_agent_new` or `evoharness_agent_resume`,
/// which take it over; free one you still own with `evoharness_world_free`. Thread safety: it
/// may move to another thread; one thread at a time.
pub struct evoharness_world {
    _private: [u8; 0],
}

/// Any runtime world that may move between threads, and that its maker can recognise again
/// (through [`AnyWorld::as_any`]) inside an agent.
pub trait AnyWorld: World + Send + 'static {
    /// The world, to downcast to its type.
    fn as_any(&self) -> &dyn Any;
}

impl<T: World + Send + 'static> AnyWorld for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// What an `evoharness_world` handle points at.
pub type WorldBox = Box<dyn AnyWorld>;

impl Castable for evoharness_world {
    type Rust = WorldBox;
}

/// Hands `world` to C as a new `evoharness_world` handle (for libraries that make worlds).
#[doc(hidden)]
pub fn world_handle(world: impl AnyWorld) -> *mut evoharness_world {
    ffi::to_owned_ptr::<evoharness_world>(Box::new(world))
}

/// Frees a world that was not given to an agent. NULL is a no-op.
///
/// # Safety
/// `world` is NULL or a world handle not yet freed nor given to an agent, that no other thread
/// is using.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_world_free(world: *mut evoharness_world) {
    guard_value((), || {
        // SAFETY: the caller's contract.
        unsafe { ffi::free_owned(world) }
    })
}

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

/// One tool index: its name and whether the host serves it.
pub(crate) struct Tool {
    pub(crate) name: CString,
    pub(crate) callback: Option<Callback>,
}

/// See the [module docs](self).
pub struct HostWorld {
    pub(crate) tools: Vec<Tool>,
    /// Boxed twice: the inner box is the very allocation of the caller's handle, given back
    /// unchanged when an agent is refused.
    inner: Option<Box<WorldBox>>,
}

impl HostWorld {
    /// The world of an agent running `policy` over `inner`: [`HostWorld::with_tools`] with its
    /// tool count and names.
    pub(crate) fn new(
        policy: &AnyPolicy,
        inner: Option<Box<WorldBox>>,
    ) -> Result<Self, (Error, Option<Box<WorldBox>>)> {
        Self::with_tools(policy.capacities().tools, policy.tool_names(), inner)
    }

    /// The world of an agent whose policy has `n` tools named `tool_names` (or none), over
    /// `inner`. Its tools are named as the policy names them, else as the inner world does,
    /// else `tool0`, `tool1`, ...; the inner world must have the policy's tool count (else
    /// `CONFIG`, and it is handed back).
    pub(crate) fn with_tools(
        n: u16,
        tool_names: &[String],
        inner: Option<Box<WorldBox>>,
    ) -> Result<Self, (Error, Option<Box<WorldBox>>)> {
        if let Some(w) = &inner
            && w.tools() != n
        {
            let e = Error::new(
                evoharness_status::Config,
                format!(
                    "the policy was made for {n} tools; the world has {}",
                    w.tools()
                ),
            );
            return Err((e, inner));
        }
        let tools = (0..n)
            .map(|i| {
                let name = tool_names
                    .get(usize::from(i))
                    .map(String::as_str)
                    .or_else(|| inner.as_ref().and_then(|w| w.tool_name(i)))
                    .map_or_else(|| format!("tool{i}"), str::to_string);
                Tool {
                    name: CString::new(name.replace('\0', " ")).unwrap_or_default(),
                    callback: None,
                }
            })
            .collect();
        Ok(Self { tools, inner })
    }

    /// The world a library gave the agent, if any: its maker downcasts it to read its state.
    pub fn inner(&self) -> Option<&dyn AnyWorld> {
        self.inner.as_deref().map(|w| &**w)
    }

    /// The inner world's handle allocation, to give back to C.
    /// Registers `tool` (NULL removes it) as the host's implementation of the tool `name`;
    /// `NOT_FOUND` naming `who` and its tools for a name it does not have.
    pub(crate) fn register(
        &mut self,
        name: &std::ffi::CStr,
        tool: crate::tool::evoharness_tool_fn,
        user_data: *mut std::ffi::c_void,
        who: &str,
    ) -> ffi::Result<()> {
        let Some(t) = self.tools.iter_mut().find(|t| t.name.as_c_str() == name) else {
            let names: Vec<_> = self
                .tools
                .iter()
                .map(|t| t.name.to_string_lossy())
                .collect();
            return Err(Error::not_found(format!(
                "{who} has no tool named `{}`; its tools are {}",
                name.to_string_lossy(),
                names.join(", ")
            )));
        };
        t.callback = tool.map(|f| Callback { f, user_data });
        Ok(())
    }

    pub(crate) fn into_inner(self) -> Option<Box<WorldBox>> {
        self.inner
    }

    fn host_call(cb: Callback, name: &CString, call: &ToolCall) -> EventBuf {
        let mut result = ToolResult::new(EventBuf::new(EventKind::Result, call.tool));
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
            error_event(
                call.tool,
                "tool_failed",
                ("code", Value::Int(i64::from(rc))),
            )
        }
    }
}

/// `{error: <what>, <key>: <value>}` from `tool`: our own short keys and two fields, within the
/// core's bounds.
fn error_event(tool: u16, what: &str, (key, value): (&str, Value)) -> EventBuf {
    let mut e = EventBuf::new(EventKind::Error, tool);
    if let Ok(text) = Value::text(what) {
        let _ = e.push("error", text);
    }
    let _ = e.push(key, value);
    e
}

impl World for HostWorld {
    fn tools(&self) -> u16 {
        // At most 64 (TOOLS_MAX): the policy's capacities, validated at load.
        self.tools.len() as u16
    }

    fn tool_name(&self, tool: u16) -> Option<&str> {
        self.tools.get(usize::from(tool))?.name.to_str().ok()
    }

    fn reset(&mut self, seed: u64) -> EventBuf {
        match &mut self.inner {
            Some(w) => w.reset(seed),
            None => {
                let mut e = EventBuf::new(EventKind::Notice, 0);
                let _ = e.push("seed", Value::Int(seed as i64));
                e
            }
        }
    }

    fn call(&mut self, call: &ToolCall) -> EventBuf {
        let tool = self.tools.get(usize::from(call.tool));
        if let Some(Tool {
            name,
            callback: Some(cb),
        }) = tool
        {
            return Self::host_call(*cb, name, call);
        }
        if let Some(w) = &mut self.inner {
            return w.call(call);
        }
        let name = tool.map_or_else(|| "?".into(), |t| t.name.to_string_lossy());
        log::warn!(
            "the agent called tool {} ({name}), which no callback serves; it sees an error event",
            call.tool
        );
        error_event(
            call.tool,
            "no_tool",
            ("tool", Value::Int(i64::from(call.tool))),
        )
    }

    fn judge(&self, finished: Option<bool>) -> Option<Verdict> {
        self.inner.as_ref()?.judge(finished)
    }

    fn violations_so_far(&self) -> Option<u32> {
        self.inner.as_ref()?.violations_so_far()
    }

    fn save_resume_point(&self, out: &mut Vec<u8>) -> bool {
        self.inner
            .as_ref()
            .is_some_and(|w| w.save_resume_point(out))
    }

    fn take_failure(&self) -> Option<RtError> {
        self.inner.as_ref()?.take_failure()
    }

    fn restore_resume_point(&mut self, resume_point: &[u8]) -> Result<(), RtError> {
        match &mut self.inner {
            Some(w) => w.restore_resume_point(resume_point),
            None => Err(RtError::new(
                evoharness_runtime::ErrorKind::Checkpoint,
                "the checkpoint holds a world's resume_point, and this agent was given no world",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A counter world: tool 0 adds its argument, tool 1 reads; its resume point is the count.
    struct Counter {
        count: i64,
    }

    impl World for Counter {
        fn tools(&self) -> u16 {
            3
        }

        fn tool_name(&self, tool: u16) -> Option<&str> {
            ["add", "read", "noop"].get(usize::from(tool)).copied()
        }

        fn reset(&mut self, seed: u64) -> EventBuf {
            self.count = seed as i64;
            EventBuf::new(EventKind::Notice, 0)
        }

        fn call(&mut self, call: &ToolCall) -> EventBuf {
            if call.tool == 0 {
                self.count += 1;
            }
            EventBuf::new(EventKind::Result, call.tool)
                .with("count", Value::Int(self.count))
                .unwrap()
        }

        fn judge(&self, _: Option<bool>) -> Option<Verdict> {
            Some(Verdict {
                success: self.count > 2,
                violations: 0,
            })
        }

        fn save_resume_point(&self, out: &mut Vec<u8>) -> bool {
            out.extend_from_slice(&self.count.to_le_bytes());
            true
        }

        fn restore_resume_point(&mut self, resume_point: &[u8]) -> evoharness_runtime::Result<()> {
            let b: [u8; 8] = resume_point.try_into().map_err(|_| {
                RtError::new(evoharness_runtime::ErrorKind::Checkpoint, "not a count")
            })?;
            self.count = i64::from_le_bytes(b);
            Ok(())
        }
    }

    fn call(tool: u16) -> ToolCall {
        ToolCall {
            tool,
            args: Default::default(),
        }
    }

    fn host(inner: Option<Counter>) -> HostWorld {
        HostWorld {
            tools: (0..3)
                .map(|i| Tool {
                    name: CString::new(format!("tool{i}")).unwrap(),
                    callback: None,
                })
                .collect(),
            inner: inner.map(|w| Box::new(Box::new(w) as WorldBox)),
        }
    }

    fn count(e: &EventBuf) -> Option<i64> {
        match e.get("count") {
            Some(Value::Int(i)) => Some(*i),
            _ => None,
        }
    }

    unsafe extern "C" fn answer(
        user_data: *mut c_void,
        _: *const evoharness_tool_call,
        result: *mut evoharness_tool_result,
    ) -> i32 {
        // SAFETY: the test registers a pointer to an i32 that outlives the calls.
        let calls = unsafe { &mut *user_data.cast::<i32>() };
        *calls += 1;
        // SAFETY: the result lent to this call.
        let r = unsafe { &mut *result.cast::<ToolResult>() };
        r.event.push("host", Value::Bool(true)).unwrap();
        if *calls == 2 { 5 } else { 0 }
    }

    #[test]
    fn the_inner_worlds_position_is_the_agents_and_callbacks_replace_its_tools() {
        let mut a = host(Some(Counter { count: 0 }));
        a.reset(10);
        assert_eq!(count(&a.call(&call(0))), Some(11));
        let mut resume_point = Vec::new();
        assert!(a.save_resume_point(&mut resume_point));
        let mut b = host(Some(Counter { count: 0 }));
        b.restore_resume_point(&resume_point).unwrap();
        assert_eq!(count(&b.call(&call(1))), Some(11));
        assert_eq!(b.judge(None).map(|v| v.success), Some(true));
        // The world checks the resume point itself.
        assert!(b.restore_resume_point(&resume_point[..3]).is_err());

        // A callback replaces the world's tool 0: the world never sees those calls.
        let mut calls = 0i32;
        a.tools[0].callback = Some(Callback {
            f: answer,
            user_data: (&raw mut calls).cast(),
        });
        let e = a.call(&call(0));
        assert_eq!(
            (e.kind, e.get("host")),
            (EventKind::Result, Some(&Value::Bool(true)))
        );
        let failed = a.call(&call(0));
        assert_eq!(failed.kind, EventKind::Error);
        assert_eq!(failed.get("code"), Some(&Value::Int(5)));
        assert_eq!(
            count(&a.call(&call(1))),
            Some(11),
            "the world saw neither call"
        );
        let inner = a
            .inner()
            .unwrap()
            .as_any()
            .downcast_ref::<Counter>()
            .unwrap();
        assert_eq!(inner.count, 11);
    }

    #[test]
    fn without_a_world_tools_nobody_serves_are_error_events_and_there_is_no_position() {
        let mut e = host(None);
        let first = e.reset(5);
        assert_eq!(first.kind, EventKind::Notice);
        assert_eq!(first.get("seed"), Some(&Value::Int(5)));
        let r = e.call(&call(2));
        assert_eq!(r.kind, EventKind::Error);
        assert_eq!(r.get("error"), Some(&Value::text("no_tool").unwrap()));
        assert!(!e.save_resume_point(&mut Vec::new()));
        assert!(e.restore_resume_point(&[1]).is_err());
        assert_eq!(e.judge(Some(true)), None);
        assert_eq!(e.tool_name(1), Some("tool1"));
    }
}
