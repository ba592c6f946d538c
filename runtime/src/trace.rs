//! Traces: one JSON line per agent step, to a writer or a callback. Off by default; when on, a
//! step costs one clock read and one serialisation into a reused buffer.
//!
//! A line: `{"step":3,"template":17,"action":{..},"outcome":{..},"cost":1,"latency_ns":41250}`,
//! where `action` and `outcome` are the core's types in serde's JSON form.

use std::io::Write;

use evoharness_core::{Action, Outcome};
use serde::Serialize;

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
}

/// Where trace records go.
#[derive(Default)]
pub enum TraceSink {
    /// Nowhere (the default).
    #[default]
    Off,
    /// JSON lines to a writer (wrap files in a `BufWriter`).
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
