//! The `apply` target: a workspace of fuzzed capacities, driven by a fuzzed script.
//!
//! The first [`HEADER`] bytes choose the workspace (see [`Setup::from_header`]): small tables,
//! so that they fill up and evictions happen, a few tools, one of a few cost tables and a
//! budget. The rest is a script for `evoharness_core::script::run`, which applies templates
//! and postcard-decoded actions, observes events, snapshots and resets, and checks after every
//! operation that capacities hold, the mask agrees with `apply`, refused actions change
//! nothing, snapshots round-trip to identical bytes and the observation is finite.

use evoharness_core::obs::Layout;
use evoharness_core::script::{self, Scratch, Stats};
use evoharness_core::{Config, Costs, HeapWorkspace, Storage, Workspace, snapshot};

/// How many bytes choose the workspace.
pub const HEADER: usize = 5;

/// Largest table capacity the header can choose (tables fill up within a short script).
pub const TABLE_MAX: u8 = 12;

/// Largest tool count the header can choose.
pub const TOOLS_MAX: u8 = 8;

/// The cost tables the header chooses from.
pub const COSTS: [Costs; 4] = [
    // Every action one step, finishing free (the default).
    costs([1, 1, 1, 1, 1], 0),
    // Nothing costs anything: the budget never runs out.
    costs([0; 5], 0),
    // Uneven: world actions dearer than harness actions, finishing not free.
    costs([3, 1, 1, 2, 1], 1),
    // As dear as a cost can be: only the largest budget affords anything.
    costs([u16::MAX; 5], u16::MAX),
];

/// Costs of act, track, commit, recall and note, then finish.
const fn costs(c: [u16; 5], finish: u16) -> Costs {
    Costs {
        act: c[0],
        track: c[1],
        commit: c[2],
        recall: c[3],
        note: c[4],
        finish,
    }
}

/// The workspace a header chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Belief slots, 1 to [`TABLE_MAX`].
    pub facts: u16,
    /// Progress steps, 1 to [`TABLE_MAX`].
    pub steps: u16,
    /// Experience lessons, 1 to [`TABLE_MAX`].
    pub lessons: u16,
    /// Tools (1 to [`TOOLS_MAX`]), budget and costs.
    pub config: Config,
}

impl Setup {
    /// Reads a header; missing bytes count as zero, so every input chooses some workspace.
    ///
    /// | byte | chooses |
    /// | --- | --- |
    /// | 0, 1, 2 | facts, steps, lessons: `1 + b % TABLE_MAX` |
    /// | 3 | tools `1 + b % TOOLS_MAX`; costs `COSTS[b / TOOLS_MAX % 4]` |
    /// | 4 | budget: `b`, or `u32::MAX` for 255 |
    pub fn from_header(bytes: &[u8]) -> Self {
        let b = |i: usize| bytes.get(i).copied().unwrap_or(0);
        let table = |x: u8| 1 + u16::from(x % TABLE_MAX);
        let budget = match b(4) {
            u8::MAX => u32::MAX,
            x => u32::from(x),
        };
        Self {
            facts: table(b(0)),
            steps: table(b(1)),
            lessons: table(b(2)),
            config: Config {
                tools: 1 + u16::from(b(3) % TOOLS_MAX),
                budget,
                costs: COSTS[usize::from(b(3) / TOOLS_MAX) % COSTS.len()],
            },
        }
    }

    /// The header that chooses this workspace: the inverse of [`Setup::from_header`], for
    /// writing seeds. `None` when no header chooses it.
    pub fn header(&self) -> Option<[u8; HEADER]> {
        let table = |n: u16| {
            u8::try_from(n)
                .ok()
                .filter(|n| (1..=TABLE_MAX).contains(n))
                .map(|n| n - 1)
        };
        let tools = u8::try_from(self.config.tools)
            .ok()
            .filter(|t| (1..=TOOLS_MAX).contains(t))?;
        let costs = COSTS.iter().position(|c| *c == self.config.costs)?;
        let budget = match self.config.budget {
            u32::MAX => u8::MAX,
            b => u8::try_from(b).ok().filter(|&b| b != u8::MAX)?,
        };
        let costs = u8::try_from(costs).ok()?;
        Some([
            table(self.facts)?,
            table(self.steps)?,
            table(self.lessons)?,
            (tools - 1) + costs * TOOLS_MAX,
            budget,
        ])
    }

    /// A fresh workspace of this setup.
    pub fn workspace(&self) -> HeapWorkspace {
        HeapWorkspace::with_capacities(self.facts, self.steps, self.lessons, self.config)
            .expect("header capacities are within core's bounds")
    }
}

/// Runs one fuzz input; panics, naming the invariant, if one breaks.
pub fn check(data: &[u8]) -> Stats {
    let (head, script) = data.split_at(data.len().min(HEADER));
    run(&mut Setup::from_header(head).workspace(), script)
}

/// Runs `script` on `ws` with scratch buffers sized from its capacities; panics, naming the
/// invariant, if one breaks.
pub fn run<S: Storage>(ws: &mut Workspace<S>, script: &[u8]) -> Stats {
    let caps = ws.capacities();
    let layout = Layout::new(caps);
    let mut snap_a = vec![0; snapshot::max_len(caps)];
    let mut snap_b = vec![0; snapshot::max_len(caps)];
    let mut mask = vec![0; layout.actions()];
    let mut obs = vec![0.0; layout.obs_len()];
    let mut scratch = Scratch {
        snap_a: &mut snap_a,
        snap_b: &mut snap_b,
        mask: &mut mask,
        obs: &mut obs,
    };
    match script::run(ws, script, &mut scratch) {
        Ok(stats) => stats,
        Err(v) => panic!("invariant violated: {v} (capacities {caps:?})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_header_chooses_a_workspace_and_the_inverse_agrees() {
        for b in 0..=u8::MAX {
            for head in [[b, b, b, b, b], [b, 0, 7, b / 3, 255 - b]] {
                let setup = Setup::from_header(&head);
                let _ = setup.workspace();
                let again = setup.header().expect("chosen by a header");
                assert_eq!(Setup::from_header(&again), setup);
            }
        }
        assert_eq!(Setup::from_header(&[]), Setup::from_header(&[0; HEADER]));
    }
}
