//! The `World` contract: what any environment an agent acts in implements.
//!
//! A world is the agent's outside: the tools its `act` actions call, and the events they return.
//! The task suite's simulations, a host's real tools (registered as C callbacks or Python
//! functions) and the toy world of the test fixtures all implement this one trait, and the
//! [`Agent`](crate::Agent) loop, its checkpoints and the suite's vectorised training
//! environment take any of them. `runtime/WORLD.md` describes the contract for implementers in
//! other languages.
//!
//! | method | when the agent calls it | must |
//! | --- | --- | --- |
//! | [`World::tools`] | once, when an agent is made | equal the policy's tool count |
//! | [`World::tool_name`] | for reports and traces | name tool `i` (optional) |
//! | [`World::reset`] | when a task starts | start a task for the seed; return its first event |
//! | [`World::call`] | after every applied `act` | run the tool; return a result or an error event, never abort |
//! | [`World::judge`] | when a host asks how the task went | say whether it succeeded (optional) |
//! | [`World::save_resume_point`], [`World::restore_resume_point`] | at a checkpoint, at a resume | save and restore the world's resume point (optional) |
//! | [`World::take_failure`] | after each of the above | report that the world itself broke (optional) |
//!
//! Determinism: an agent is deterministic for a seed when its world is, that is when `reset` and
//! `call` are pure functions of the seed and the calls so far. Exactly-once side effects across
//! crashes need the resume point: see the [`agent`](crate::agent) module docs.

use evoharness_core::{EventBuf, ToolCall};

use crate::error::{Error, ErrorKind, Result};

/// How a task went, as its world judges it ([`World::judge`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Verdict {
    /// The task's goal was reached (for the suite: finished claiming success, every item landed
    /// exactly once and nothing written wrong).
    pub success: bool,
    /// Integrity violations the world counted (duplicates, gaps, wrong writes, ...); 0 when it
    /// counts none.
    pub violations: u32,
}

/// An environment an agent acts in; see the [module docs](self).
///
/// Tools never abort the agent: a failing tool returns an [`EventKind::Error`] event.
///
/// [`EventKind::Error`]: evoharness_core::EventKind::Error
pub trait World {
    /// How many tools the world has; must equal the policy's tool count.
    fn tools(&self) -> u16;

    /// The name of tool `tool`, if the world names its tools (the tool schema a policy's
    /// `evoharness.tool_names` should match). The default names none.
    fn tool_name(&self, tool: u16) -> Option<&str> {
        let _ = tool;
        None
    }

    /// Starts a task; returns its first event.
    fn reset(&mut self, seed: u64) -> EventBuf;

    /// Runs one tool call; returns what the tool said.
    fn call(&mut self, call: &ToolCall) -> EventBuf;

    /// How the current task went so far, given whether the agent finished and what it claimed
    /// (`None`: not finished). `None` if the world has no judge (a host's real tools usually
    /// have none: the host knows). Called between steps, never during one.
    fn judge(&self, finished: Option<bool>) -> Option<Verdict> {
        let _ = finished;
        None
    }

    /// The integrity violations a step of the current task caused so far (a duplicate write, a
    /// wrong write; not work left undone, which only the end's [`Verdict`] can count), never
    /// decreasing within a task: a trace carries it where it changed, so a reader sees at which
    /// steps a task went wrong (`runtime/TRACE.md`). `None` (the default) if the world counts
    /// none. Called between steps, only while the agent traces.
    fn violations_so_far(&self) -> Option<u32> {
        None
    }

    /// Appends the world's resume point to `out` for an agent checkpoint: what it needs to continue
    /// the task as if the process had never stopped (its position, its counters, the sequence
    /// number of its next side effect). Returns whether it saved one; the default saves
    /// nothing, and such a world is on its own after a resume (fine for a stateless one).
    ///
    /// Called after a step, never during one. `out` is empty and reused between checkpoints:
    /// a world that appends without allocating keeps checkpointing allocation-free.
    fn save_resume_point(&self, out: &mut Vec<u8>) -> bool {
        let _ = out;
        false
    }

    /// Restores a resume point that [`World::save_resume_point`] wrote, when an agent resumes. The
    /// agent then repeats the steps taken after that checkpoint, with the same tool calls, so the
    /// world must recognise calls whose effects it already applied (see the [`agent`](crate::agent)
    /// module docs). Bytes that are not such a resume point are refused with an error, changing
    /// nothing. The default refuses: a world that saves no resume point never gets one.
    fn restore_resume_point(&mut self, resume_point: &[u8]) -> Result<()> {
        let _ = resume_point;
        Err(Error::new(
            ErrorKind::Checkpoint,
            "the checkpoint holds a world resume_point, but this world cannot restore one (it does \
             not implement World::restore_resume_point)",
        ))
    }

    /// Takes the failure of the world *itself* since the last call, if any: not a tool that
    /// failed at its job (that is an error event, and the agent goes on), but a world that could
    /// not answer at all, such as a host's callback world whose callback reported a failure,
    /// returned a malformed event or raised an exception (the methods above cannot return an
    /// error, so such a world returns a placeholder event and keeps the failure for this).
    ///
    /// The agent asks after [`World::reset`] (the next step returns the error), after
    /// [`World::call`] (the step returns it, having taken effect), after
    /// [`World::save_resume_point`] (the checkpoint is not written) and in
    /// [`Agent::try_verdict`](crate::Agent::try_verdict). Takes `&self` because `judge` and
    /// `save_resume_point` do: keep the failure in a cell. The default never fails.
    fn take_failure(&self) -> Option<Error> {
        None
    }
}

impl<W: World + ?Sized> World for Box<W> {
    fn tools(&self) -> u16 {
        (**self).tools()
    }

    fn tool_name(&self, tool: u16) -> Option<&str> {
        (**self).tool_name(tool)
    }

    fn reset(&mut self, seed: u64) -> EventBuf {
        (**self).reset(seed)
    }

    fn call(&mut self, call: &ToolCall) -> EventBuf {
        (**self).call(call)
    }

    fn judge(&self, finished: Option<bool>) -> Option<Verdict> {
        (**self).judge(finished)
    }

    fn violations_so_far(&self) -> Option<u32> {
        (**self).violations_so_far()
    }

    fn save_resume_point(&self, out: &mut Vec<u8>) -> bool {
        (**self).save_resume_point(out)
    }

    fn restore_resume_point(&mut self, resume_point: &[u8]) -> Result<()> {
        (**self).restore_resume_point(resume_point)
    }

    fn take_failure(&self) -> Option<Error> {
        (**self).take_failure()
    }
}

/// The examples of `runtime/WORLD.md`, compiled as doctests.
#[doc = include_str!("../WORLD.md")]
#[cfg(doctest)]
pub struct WorldMd;
