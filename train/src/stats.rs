//! What one episode did: its stats and integrity violations.

use evoharness_core::Verb;
use serde::Serialize;

/// Integrity violations: each one fails the episode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Violations {
    /// An item landed twice (a repeated step, for orchestration).
    pub duplicates: u32,
    /// Items fetched or not, that never landed by the end.
    pub gaps: u32,
    /// Items landed with stale settings: the wrong tool after (or before) the drift, a merge of
    /// a record that is no duplicate, a write of one that is.
    pub wrong_writes: u32,
    /// Violations that a world which is not the suite's counted ([`Verdict::violations`] of
    /// its judge), without kinds. Always 0 for the suite's worlds (and then not serialised).
    ///
    /// [`Verdict::violations`]: evoharness_runtime::Verdict::violations
    #[serde(skip_serializing_if = "is_zero")]
    pub other: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Violations {
    /// All of them.
    pub fn total(&self) -> u32 {
        self.duplicates + self.gaps + self.wrong_writes + self.other
    }
}

/// What one episode did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct EpisodeStats {
    /// Finished claiming success, with every item landed exactly once and nothing wrong.
    pub success: bool,
    /// `Some(claim)` if the agent finished; `None` if it ran out of budget or steps.
    pub finished: Option<bool>,
    /// What went wrong with the data.
    pub violations: Violations,
    /// Steps taken.
    pub steps: u64,
    /// World actions among them.
    pub world_actions: u64,
    /// Harness actions by verb: track, commit, recall, note.
    pub harness: [u64; 4],
    /// Budget spent.
    pub cost: u32,
    /// The sum of [`reward`](crate::reward) over the episode.
    pub reward: f64,
    /// Items in the task.
    pub items: u32,
    /// Items that landed.
    pub landed: u32,
}

impl EpisodeStats {
    /// Harness actions of every verb.
    pub fn harness_actions(&self) -> u64 {
        self.harness.iter().sum()
    }
}

/// The harness verbs in the order of [`EpisodeStats::harness`].
pub const HARNESS_VERBS: [&str; 4] = ["track", "commit", "recall", "note"];

/// The index of a harness verb in [`EpisodeStats::harness`]; `None` for act and finish.
pub fn harness_index(verb: Verb) -> Option<usize> {
    match verb {
        Verb::Track => Some(0),
        Verb::Commit => Some(1),
        Verb::Recall => Some(2),
        Verb::Note => Some(3),
        Verb::Act | Verb::Finish => None,
    }
}
