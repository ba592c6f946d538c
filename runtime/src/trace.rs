//! Traces: one JSON line per agent step, to a writer or a callback. Off by default; when on, a
//! step costs one clock read and one serialisation into a reused buffer.
//!
//! A line: `{"step":3,"template":17,"action":{..},"outcome":{..},"cost":1,"latency_ns":41250,
//! "spent":3,"clock":827,"event":{..}}`, where `action`, `outcome` and the workspace parts are
//! the core's types in serde's JSON form. Beside what the step did, a line carries the parts of
//! the workspace the step changed, whole, as they are after it (`event` after a world action,
//! `belief` after a `track`, `progress` after a `commit`, `experience` after a `recall` or a
//! `note`), the first line of a task (or the first after tracing starts) carries the workspace
//! before it (`begin`), the line of the step that ends a task says how it ended (`end`), and a
//! line whose step changed the world's count of the violations steps caused carries the new
//! count (`violations`, from [`crate::World::violations_so_far`]).
//! So a reader knows the workspace at every step without replaying anything.
//!
//! The format is a contract, versioned by [`TRACE_VERSION`] (in every `begin`) and written down
//! in `runtime/TRACE.md`, with what a host must write for `evoharness view` to show its agent.

use std::io::Write;
use std::time::{Duration, Instant};

use evoharness_core::{Action, EventBuf, Fact, Lesson, Outcome, Step};
use serde::Serialize;

use crate::world::Verdict;

/// The version of the trace format (`begin.trace` in a trace); see `runtime/TRACE.md`.
pub const TRACE_VERSION: u32 = 1;

/// One step, as traced.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct TraceRecord<'a> {
    /// The step's number in its task, from 1.
    pub step: u64,
    /// The template the policy chose; `null` (`None`) for a literal call.
    pub template: Option<usize>,
    /// The action it resolved to.
    pub action: &'a Action<'static>,
    /// What applying it gave.
    pub outcome: &'a Outcome,
    /// The budget it cost.
    pub cost: u32,
    /// Wall time of the whole step (encode, inference, select, apply, tool call), in ns.
    pub latency_ns: u64,
    /// The budget spent in the task after the step.
    pub spent: u32,
    /// The workspace clock after the step: successful actions over the workspace's life, the
    /// unit of a fact's `set_at` and a lesson's `last_use`. Not the task's step number.
    pub clock: u32,
    /// The event the agent sees after the step: present after a world action.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<&'a EventBuf>,
    /// Belief after the step: present after a `track`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub belief: Option<&'a [Fact]>,
    /// Progress after the step: present after a `commit`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub progress: Option<&'a [Step]>,
    /// Experience after the step: present after a `recall` or a `note`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub experience: Option<&'a [Lesson]>,
    /// The workspace before the step: on the first step of a task, and on the first step traced.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub begin: Option<&'a Begin>,
    /// How the task ended: on the step that ended it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<End>,
    /// The integrity violations steps of the task caused so far, after this one
    /// ([`crate::World::violations_so_far`]): on a step where it differs from the step before
    /// (or from `begin`'s), so a reader sees at which steps it rose. Absent where the world
    /// counts none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub violations: Option<u32>,
}

/// The workspace before the first traced step of a task, and what the task is.
#[derive(Clone, Debug, Serialize)]
pub struct Begin {
    /// The trace format's version, [`TRACE_VERSION`].
    pub trace: u32,
    /// The seed the task was started with; `None` after a resume.
    pub seed: Option<u64>,
    /// The task's step budget.
    pub budget: u32,
    /// Steps of the task before this record's step (0 at the start of a task).
    pub steps: u64,
    /// The workspace clock before the step.
    pub clock: u32,
    /// Budget spent before the step.
    pub spent: u32,
    /// The world's tool names, by index (`None` where the world names none).
    pub tools: Vec<Option<String>>,
    /// The current event.
    pub event: Option<EventBuf>,
    /// Belief.
    pub belief: Vec<Fact>,
    /// Progress.
    pub progress: Vec<Step>,
    /// Experience (the working set).
    pub experience: Vec<Lesson>,
    /// The integrity violations steps of the task caused before the step, if the world counts
    /// them ([`crate::World::violations_so_far`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub violations: Option<u32>,
}

/// How a task ended.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct End {
    /// `Some(claimed success)` if the agent finished; `None` if its budget ran out.
    pub finished: Option<bool>,
    /// The world's verdict, if it judges ([`crate::World::judge`]).
    pub verdict: Option<Verdict>,
}

/// Where trace records go.
#[derive(Default)]
pub enum TraceSink {
    /// Nowhere (the default).
    #[default]
    Off,
    /// JSON lines to a writer (wrap files in a `BufWriter`, or use [`TraceSink::file`]).
    Json(Box<dyn Write + Send>),
    /// A callback per step.
    Callback(Box<dyn FnMut(&TraceRecord<'_>) + Send>),
}

impl std::fmt::Debug for TraceSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TraceSink::Off => "Off",
            TraceSink::Json(_) => "Json",
            TraceSink::Callback(_) => "Callback",
        })
    }
}

impl TraceSink {
    /// JSON lines to a new file at `path` (replacing one that is there), buffered, with whole
    /// lines reaching the file at least every 100 ms while the agent steps, so a viewer
    /// following the file (`evoharness view --follow`) sees a running agent.
    pub fn file(path: impl AsRef<std::path::Path>) -> std::io::Result<TraceSink> {
        let f = std::fs::File::create(path)?;
        Ok(TraceSink::Json(Box::new(Periodic {
            w: std::io::BufWriter::with_capacity(64 * 1024, f),
            flushed: Instant::now(),
        })))
    }

    pub(crate) fn is_on(&self) -> bool {
        !matches!(self, TraceSink::Off)
    }

    pub(crate) fn record(
        &mut self,
        r: &TraceRecord<'_>,
        line: &mut Vec<u8>,
    ) -> std::io::Result<()> {
        match self {
            TraceSink::Off => Ok(()),
            TraceSink::Json(w) => {
                line.clear();
                serde_json::to_writer(&mut *line, r)?;
                line.push(b'\n');
                w.write_all(line)
            }
            TraceSink::Callback(f) => {
                f(r);
                Ok(())
            }
        }
    }

    pub(crate) fn flush(&mut self) -> std::io::Result<()> {
        match self {
            TraceSink::Json(w) => w.flush(),
            _ => Ok(()),
        }
    }
}

/// A buffered file that flushes after a line when 100 ms passed since its last flush.
struct Periodic {
    w: std::io::BufWriter<std::fs::File>,
    flushed: Instant,
}

impl Write for Periodic {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.w.write(buf)?;
        if buf[..n].ends_with(b"\n") && self.flushed.elapsed() >= Duration::from_millis(100) {
            self.w.flush()?;
            self.flushed = Instant::now();
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.flushed = Instant::now();
        self.w.flush()
    }
}
