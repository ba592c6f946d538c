//! Belief: the agent's current facts, revised in place.

use serde::{Deserialize, Serialize};

use crate::max::{MaxEncoded, TAG, fixed};
use crate::table::{Slots, Table};
use crate::value::{KeyBuf, Value};

/// The staleness, in workspace steps, at which a fact's retention score halves.
pub const STALENESS_HALF: u32 = 32;

/// Where a fact's value came from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum Provenance {
    /// A literal in the action itself (host code or a decoded frame).
    #[default]
    Literal = 0,
    /// A field of the current event.
    Event = 1,
    /// Another fact of the workspace.
    Belief = 2,
    /// The agent's own last world action.
    Action = 3,
}

impl Provenance {
    /// How many kinds there are (the width of a one-hot encoding).
    pub const COUNT: usize = 4;
}

/// One fact.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Fact {
    /// The fact's unique key.
    pub key: KeyBuf,
    /// The current value.
    pub value: Value,
    /// How sure the agent is, in `[0, 1]`.
    pub confidence: f32,
    /// Where the current value came from.
    pub provenance: Provenance,
    /// The tool index behind the value: the event's source for [`Provenance::Event`], the
    /// tool of the last world action for [`Provenance::Action`], else 0.
    pub source: u16,
    /// The workspace clock when the value was last set or revised.
    pub set_at: u32,
    /// The workspace clock when the fact was last set, revised or confirmed.
    pub confirmed_at: u32,
}

impl Fact {
    /// Steps since the fact was last confirmed.
    pub fn staleness(&self, clock: u32) -> u32 {
        clock.saturating_sub(self.confirmed_at)
    }

    /// The retention score that compress evicts by (lowest first); see [`Belief`].
    pub fn retention(&self, clock: u32) -> f32 {
        self.confidence / (1.0 + self.staleness(clock) as f32 / STALENESS_HALF as f32)
    }
}

/// The Belief part of a workspace: the agent's current facts, revised in place.
///
/// A fact is a key, a typed value, a confidence in `[0, 1]`, where it came from
/// ([`Provenance`]) and the workspace clock when it was set and last confirmed. Keys are unique.
/// Facts are changed by the `track` verbs ([`crate::Track`]): set (new key), revise (existing
/// key), confirm, retract, and compress.
///
/// **Compress** evicts the facts with the lowest *retention score*
/// `confidence / (1 + staleness / 32)`, where `staleness = clock - confirmed_at`; ties go to the
/// fact confirmed longest ago, then to the lower slot. It removes at most
/// [`REMOVE_MAX`](crate::REMOVE_MAX) facts per action and reports every key it removed.
#[derive(Clone, Debug)]
pub struct Belief<S> {
    pub(crate) table: Table<Fact, S>,
}

impl<S: Slots<Fact>> Belief<S> {
    pub(crate) fn new(slots: S) -> Self {
        Self {
            table: Table::new(slots),
        }
    }

    /// The facts, in slot order.
    pub fn facts(&self) -> &[Fact] {
        self.table.as_slice()
    }

    /// How many facts there are.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether there are no facts.
    pub fn is_empty(&self) -> bool {
        self.table.len() == 0
    }

    /// How many facts fit.
    pub fn capacity(&self) -> usize {
        self.table.capacity()
    }

    /// The slot and fact with this key.
    pub fn get(&self, key: &str) -> Option<(usize, &Fact)> {
        self.facts().iter().enumerate().find(|(_, f)| f.key == key)
    }

    /// The slot that compress would evict next, if any.
    pub(crate) fn weakest(&self, clock: u32) -> Option<usize> {
        let mut best: Option<(usize, f32, u32)> = None;
        for (i, f) in self.facts().iter().enumerate() {
            let s = f.retention(clock);
            let better = match best {
                None => true,
                // total_cmp: NaN cannot arise (confidence is checked) but order stays total.
                Some((_, bs, bc)) => match s.total_cmp(&bs) {
                    core::cmp::Ordering::Less => true,
                    core::cmp::Ordering::Equal => f.confirmed_at < bc,
                    core::cmp::Ordering::Greater => false,
                },
            };
            if better {
                best = Some((i, s, f.confirmed_at));
            }
        }
        best.map(|(i, _, _)| i)
    }
}

fixed! {
    Provenance = TAG;
}
impl MaxEncoded for Fact {
    const BOUND: usize =
        KeyBuf::BOUND + Value::BOUND + f32::BOUND + Provenance::BOUND + u16::BOUND + 2 * u32::BOUND;
}
