//! A toy world for the test fixture policies: for tests, demos and the `evoharness run` smoke
//! run. **Not a task.** Behind the `fixture` feature, which embedding builds leave off.
//!
//! The fixture policies in `runtime/tests/fixtures/` (random weights, see `runtime/POLICY.md`)
//! are built for three tools named `copy`, `wait` and `verify`. [`FixtureWorld`] gives those
//! three tools a few lines of deterministic behaviour, so that a policy can be driven end to end
//! without a host: `copy` moves a cursor on by 4, `wait` clears a rate limit, `verify` reports
//! the cursor, and every fourth call (offset by the seed) is refused with an error event
//! (`code` 429) until the agent waits. There is no goal to reach and nothing to score: the
//! simulated enterprise tasks that policies are trained and judged on are the task suite (the
//! `evoharness-suite` crate).
//!
//! ```no_run
//! use evoharness_runtime::{Agent, AgentConfig, Backend, FixtureWorld, PolicyBuilder};
//!
//! # fn main() -> evoharness_runtime::Result<()> {
//! let policy = PolicyBuilder::new()
//!     .backend(Backend::Tract)
//!     .commit_from_file("runtime/tests/fixtures/mlp.onnx")?;
//! let mut agent = Agent::new(policy, FixtureWorld::new(), AgentConfig::default())?;
//! let summary = agent.run(50)?;
//! println!("{} steps, {} tool calls", summary.steps, agent.world().calls());
//! # Ok(())
//! # }
//! ```

use evoharness_core::{EventBuf, EventKind, ToolCall, Value};

use crate::world::World;

/// The fixture world's tools, in tool-index order: the `evoharness.tool_names` of the
/// fixture policies.
pub const TOOL_NAMES: [&str; 3] = ["copy", "wait", "verify"];

/// A toy world with the fixture policies' three tools; see the [module docs](self).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FixtureWorld {
    cursor: i64,
    calls: u64,
    limited: bool,
    seed: u64,
}

impl FixtureWorld {
    /// A fresh world (the agent's [`World::reset`] seeds it).
    pub fn new() -> Self {
        Self::default()
    }

    /// Tool calls since the last reset.
    pub fn calls(&self) -> u64 {
        self.calls
    }

    /// How far `copy` has moved the cursor since the last reset.
    pub fn cursor(&self) -> i64 {
        self.cursor
    }

    /// Whether calls other than `wait` are refused until the agent waits.
    pub fn rate_limited(&self) -> bool {
        self.limited
    }
}

/// An event of the toy's own: short keys and at most two fields, within the core's bounds.
fn event(kind: EventKind, source: u16, fields: &[(&str, Value)]) -> EventBuf {
    EventBuf::from_fields(kind, source, fields).unwrap_or_else(|_| EventBuf::new(kind, source))
}

impl World for FixtureWorld {
    fn tools(&self) -> u16 {
        TOOL_NAMES.len() as u16
    }

    fn tool_name(&self, tool: u16) -> Option<&str> {
        TOOL_NAMES.get(usize::from(tool)).copied()
    }

    fn reset(&mut self, seed: u64) -> EventBuf {
        *self = FixtureWorld {
            seed,
            ..FixtureWorld::default()
        };
        event(
            EventKind::Notice,
            0,
            &[("job", Value::Int(seed as i64)), ("cursor", Value::Int(0))],
        )
    }

    fn call(&mut self, call: &ToolCall) -> EventBuf {
        self.calls += 1;
        match call.tool {
            1 => {
                self.limited = false;
                event(EventKind::Result, 1, &[("waited", Value::Bool(true))])
            }
            _ if self.limited || self.calls.wrapping_add(self.seed).is_multiple_of(4) => {
                self.limited = true;
                event(EventKind::Error, call.tool, &[("code", Value::Int(429))])
            }
            0 => {
                self.cursor += 4;
                event(EventKind::Result, 0, &[("cursor", Value::Int(self.cursor))])
            }
            _ => event(EventKind::Result, 2, &[("copied", Value::Int(self.cursor))]),
        }
    }

    /// The whole state, 25 bytes: cursor (i64), calls (u64), seed (u64), all little-endian,
    /// then the rate-limit flag. It has no side effects outside itself, so a resumed agent
    /// repeating calls after the checkpoint reproduces the same state.
    fn save_resume_point(&self, out: &mut Vec<u8>) -> bool {
        out.extend_from_slice(&self.cursor.to_le_bytes());
        out.extend_from_slice(&self.calls.to_le_bytes());
        out.extend_from_slice(&self.seed.to_le_bytes());
        out.push(u8::from(self.limited));
        true
    }

    fn restore_resume_point(&mut self, resume_point: &[u8]) -> crate::Result<()> {
        let bad = || {
            crate::Error::new(
                crate::ErrorKind::Checkpoint,
                format!(
                    "a fixture world's resume point is 25 bytes ending in 0 or 1, not \
                     {resume_point:?}"
                ),
            )
        };
        let Ok(&[ref c @ .., flag]) = <&[u8; 25]>::try_from(resume_point) else {
            return Err(bad());
        };
        if flag > 1 {
            return Err(bad());
        }
        // Three little-endian u64s; the array lengths make these conversions exact.
        let word = |i: usize| -> [u8; 8] { c[8 * i..8 * i + 8].try_into().unwrap_or_default() };
        let (c, n, s) = (word(0), word(1), word(2));
        *self = FixtureWorld {
            cursor: i64::from_le_bytes(c),
            calls: u64::from_le_bytes(n),
            seed: u64::from_le_bytes(s),
            limited: flag == 1,
        };
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(tool: u16) -> ToolCall {
        ToolCall {
            tool,
            args: Default::default(),
        }
    }

    #[test]
    fn copies_are_rate_limited_until_a_wait() {
        let mut env = FixtureWorld::new();
        let first = env.reset(0);
        assert_eq!(first.kind, EventKind::Notice);
        let kinds: Vec<_> = (0..4).map(|_| env.call(&call(0)).kind).collect();
        assert_eq!(
            kinds,
            [
                EventKind::Result,
                EventKind::Result,
                EventKind::Result,
                EventKind::Error
            ]
        );
        assert!(env.rate_limited());
        assert_eq!(env.call(&call(0)).kind, EventKind::Error, "still limited");
        assert_eq!(env.call(&call(1)).kind, EventKind::Result);
        assert!(!env.rate_limited());
        assert_eq!((env.cursor(), env.calls()), (12, 6));
        env.reset(1);
        assert_eq!((env.cursor(), env.calls()), (0, 0));
    }

    #[test]
    fn the_position_round_trips_and_bad_ones_are_refused() {
        let mut e = FixtureWorld::new();
        e.reset(9);
        for tool in [0, 0, 1, 2, 0] {
            e.call(&ToolCall {
                tool,
                args: Default::default(),
            });
        }
        let mut out = Vec::new();
        assert!(e.save_resume_point(&mut out));
        let mut f = FixtureWorld::new();
        f.restore_resume_point(&out).unwrap();
        assert_eq!(f, e);
        assert!(f.restore_resume_point(&out[..24]).is_err());
        out[24] = 2;
        assert!(f.restore_resume_point(&out).is_err());
        assert_eq!(f, e, "a refused resume point changes nothing");
    }
}
