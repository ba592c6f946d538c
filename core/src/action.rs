//! The harness action protocol: actions, their arguments, outcomes and errors.

use core::fmt;

use serde::{Deserialize, Serialize};

use crate::experience::Recalled;
use crate::max::{MaxEncoded, TAG, fixed, max, seq};
use crate::progress::{Status, StepVerb};
use crate::value::{Key, KeyBuf, Value, ValueRef};
use crate::{ARGS_MAX, RECALL_MAX, REMOVE_MAX};

/// Where an argument's value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Arg<'a> {
    /// The value itself.
    #[serde(borrow)]
    Lit(ValueRef<'a>),
    /// The value of field `n` of the current event.
    Field(u8),
    /// The value of the fact in belief slot `n`.
    Fact(u16),
    /// The tool index of the agent's last world action, as an integer.
    LastAct,
}

/// Which fact an action is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum KeyArg<'a> {
    /// This key.
    #[serde(borrow)]
    Lit(Key<'a>),
    /// The key of field `n` of the current event.
    Field(u8),
    /// The key of the fact in belief slot `n`.
    Fact(u16),
}

/// Which step an action is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StepRef {
    /// The step at this index of the plan.
    Index(u16),
    /// The first active step.
    Active,
}

/// `track`: change Belief.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Track<'a> {
    /// Add a fact with a new key (`KeyExists` if the key is there).
    Set {
        /// The new fact's key.
        #[serde(borrow)]
        key: KeyArg<'a>,
        /// Its value.
        #[serde(borrow)]
        value: Arg<'a>,
        /// How sure, in `[0, 1]`.
        confidence: f32,
    },
    /// Change the value of an existing fact (`UnknownKey` if it is not there).
    Revise {
        /// Which fact.
        #[serde(borrow)]
        key: KeyArg<'a>,
        /// Its new value.
        #[serde(borrow)]
        value: Arg<'a>,
        /// How sure, in `[0, 1]`.
        confidence: f32,
    },
    /// Record that a fact still holds (resets its staleness).
    Confirm {
        /// Which fact.
        #[serde(borrow)]
        key: KeyArg<'a>,
    },
    /// Remove a fact that no longer holds.
    Retract {
        /// Which fact.
        #[serde(borrow)]
        key: KeyArg<'a>,
    },
    /// Evict the lowest-retention facts until at most `keep` remain (see [`Belief`](crate::Belief)).
    Compress {
        /// How many facts may remain.
        keep: u16,
    },
}

/// `commit`: change Progress.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Commit<'a> {
    /// Append a pending step to the plan.
    Plan {
        /// What the step is.
        #[serde(borrow)]
        label: Arg<'a>,
    },
    /// Apply a status change (see the table in [`Progress`](crate::Progress)). `Fail` records `value`
    /// as the step's error, `Cursor` records it as the cursor (it is required there);
    /// other verbs do not record it, but a given `value` is resolved for every verb, so it must
    /// point at something that exists.
    Step {
        /// Which step.
        step: StepRef,
        /// What happens to it.
        verb: StepVerb,
        /// The error or cursor, where the verb takes one.
        #[serde(borrow)]
        value: Option<Arg<'a>>,
    },
}

/// `note`: change Experience.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Note<'a> {
    /// Add a lesson, or merge it into the one with the same trigger.
    Add {
        /// What situation it is for.
        #[serde(borrow)]
        trigger: Arg<'a>,
        /// What to do about it.
        #[serde(borrow)]
        remedy: Arg<'a>,
    },
    /// Count a lesson helpful or harmful.
    Rate {
        /// The lesson's slot.
        lesson: u16,
        /// Helpful (`true`) or harmful.
        helpful: bool,
    },
    /// Evict least-frequently-useful lessons until at most `keep` remain.
    Consolidate {
        /// How many lessons may remain.
        keep: u16,
    },
}

/// Which verb an action is: what its cost is looked up by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum Verb {
    /// A world tool call.
    Act = 0,
    /// Belief.
    Track = 1,
    /// Progress.
    Commit = 2,
    /// Experience query.
    Recall = 3,
    /// Experience write.
    Note = 4,
    /// End of task.
    Finish = 5,
}

impl Verb {
    /// How many verbs there are.
    pub const COUNT: usize = 6;

    /// The verb with this discriminant.
    pub const fn from_u8(v: u8) -> Option<Self> {
        Some(match v {
            0 => Verb::Act,
            1 => Verb::Track,
            2 => Verb::Commit,
            3 => Verb::Recall,
            4 => Verb::Note,
            5 => Verb::Finish,
            _ => return None,
        })
    }
}

/// One action.
///
/// An [`Action`] is either a world action (`Act`, a tool call the host dispatches) or a harness
/// action on the workspace (`Track`, `Commit`, `Recall`, `Note`), or `Finish`. Arguments are
/// *pointer-style* where they can be: [`Arg::Field`] takes a value from the current event,
/// [`Arg::Fact`] from a belief slot, so a small policy acts without generating text.
///
/// [`Workspace::apply`](crate::Workspace::apply) is total: any action, however malformed its
/// contents, yields an [`Outcome`] or an [`ApplyError`], and an action that fails changes
/// nothing, not even the budget.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Action<'a> {
    /// Call world tool `tool` with up to [`ARGS_MAX`] arguments; the outcome is the resolved
    /// [`ToolCall`] for the host to dispatch, whose result comes back as an event.
    Act {
        /// The tool's index in the task's tool schema.
        tool: u16,
        /// Its arguments.
        #[serde(borrow)]
        args: heapless::Vec<Arg<'a>, ARGS_MAX>,
    },
    /// Change Belief.
    #[serde(borrow)]
    Track(Track<'a>),
    /// Change Progress.
    #[serde(borrow)]
    Commit(Commit<'a>),
    /// Query Experience for the best `k` (1 to [`RECALL_MAX`]) lessons matching `query`.
    Recall {
        /// What to match triggers against.
        #[serde(borrow)]
        query: Arg<'a>,
        /// How many lessons at most.
        k: u8,
    },
    /// Change Experience.
    #[serde(borrow)]
    Note(Note<'a>),
    /// End the task, claiming success or giving up.
    Finish {
        /// Whether the agent believes the task is done.
        success: bool,
    },
}

impl Action<'_> {
    /// The verb, for cost lookup and statistics.
    pub const fn verb(&self) -> Verb {
        match self {
            Action::Act { .. } => Verb::Act,
            Action::Track(_) => Verb::Track,
            Action::Commit(_) => Verb::Commit,
            Action::Recall { .. } => Verb::Recall,
            Action::Note(_) => Verb::Note,
            Action::Finish { .. } => Verb::Finish,
        }
    }
}

/// What each verb costs against the step budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Costs {
    /// A world tool call.
    pub act: u16,
    /// A `track` action.
    pub track: u16,
    /// A `commit` action.
    pub commit: u16,
    /// A `recall`.
    pub recall: u16,
    /// A `note` action.
    pub note: u16,
    /// `finish`.
    pub finish: u16,
}

impl Costs {
    /// The cost of one action of `verb`.
    pub const fn of(&self, verb: Verb) -> u16 {
        match verb {
            Verb::Act => self.act,
            Verb::Track => self.track,
            Verb::Commit => self.commit,
            Verb::Recall => self.recall,
            Verb::Note => self.note,
            Verb::Finish => self.finish,
        }
    }
}

impl Default for Costs {
    /// Every action costs one step; finishing is free.
    fn default() -> Self {
        Self {
            act: 1,
            track: 1,
            commit: 1,
            recall: 1,
            note: 1,
            finish: 0,
        }
    }
}

/// A resolved tool call for the host to dispatch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The tool's index in the task's tool schema.
    pub tool: u16,
    /// The argument values.
    pub args: heapless::Vec<Value, ARGS_MAX>,
}

/// What a `track` action did to a fact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum Change {
    /// A new fact.
    Created = 0,
    /// A new value for an existing fact.
    Revised = 1,
    /// The fact was confirmed.
    Confirmed = 2,
    /// The fact was removed.
    Retracted = 3,
}

/// What an action did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Outcome {
    /// A world action: dispatch this call; its result comes back as an event.
    Call(ToolCall),
    /// A fact changed; `slot` is its slot (the slot it had, for a retraction).
    Tracked {
        /// The fact's slot.
        slot: u16,
        /// What happened.
        change: Change,
    },
    /// Facts evicted by compress, in eviction order, and how many more are over `keep`.
    Compressed {
        /// The evicted keys.
        removed: heapless::Vec<KeyBuf, REMOVE_MAX>,
        /// How many facts are still over `keep` (compress again to evict them).
        over: u16,
    },
    /// A step was planned or changed.
    Committed {
        /// The step's index.
        step: u16,
        /// Its new status.
        status: Status,
    },
    /// Lessons matching the query, best first (possibly none).
    Recalled(heapless::Vec<Recalled, RECALL_MAX>),
    /// A lesson was added, or merged into the one with the same trigger.
    Noted {
        /// The lesson's slot.
        slot: u16,
        /// Whether it merged into an existing lesson.
        merged: bool,
    },
    /// A lesson was rated.
    Rated {
        /// The lesson's slot.
        slot: u16,
    },
    /// Lessons evicted by consolidation (their triggers), and how many more are over `keep`.
    Consolidated {
        /// The evicted lessons' triggers.
        removed: heapless::Vec<Value, REMOVE_MAX>,
        /// How many lessons are still over `keep`.
        over: u16,
    },
    /// The task ended.
    Finished {
        /// What the agent claimed.
        success: bool,
    },
}

/// Why an action was refused. The workspace is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum ApplyError {
    /// The task has finished; only a reset starts another.
    Finished,
    /// The action costs more than the budget has left.
    OverBudget,
    /// The tool index is not in the task's tool schema.
    UnknownTool,
    /// The action points at the current event, and there is none.
    NoEvent,
    /// The current event has no field with that index.
    NoField,
    /// There is no fact in that belief slot.
    NoFact,
    /// `LastAct` was used before any world action.
    NoLastAct,
    /// No fact has that key.
    UnknownKey,
    /// A fact with that key exists (revise it instead).
    KeyExists,
    /// Belief is full (compress or retract first).
    BeliefFull,
    /// A confidence outside `[0, 1]` (or NaN).
    BadConfidence,
    /// No step has that index.
    UnknownStep,
    /// `StepRef::Active` was used and no step is active.
    NoActiveStep,
    /// The step's status does not allow the verb (see [`Progress`](crate::Progress)).
    IllegalTransition {
        /// The step's status.
        from: Status,
        /// The verb that was refused.
        verb: StepVerb,
    },
    /// The `cursor` verb without a cursor value.
    MissingCursor,
    /// The plan is full.
    PlanFull,
    /// No lesson has that slot.
    UnknownLesson,
    /// Experience is full (consolidate first).
    ExperienceFull,
    /// A count out of range: recall `k` must be 1 to [`RECALL_MAX`].
    BadCount,
    /// No action template has that index (see [`crate::obs::Layout::actions`]).
    UnknownTemplate,
}

impl fmt::Display for ApplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ApplyError::*;
        match self {
            Finished => f.write_str("the task has finished"),
            OverBudget => f.write_str("the action costs more than the budget has left"),
            UnknownTool => f.write_str("no tool has that index"),
            NoEvent => f.write_str("there is no current event"),
            NoField => f.write_str("the current event has no field with that index"),
            NoFact => f.write_str("no fact is in that belief slot"),
            NoLastAct => f.write_str("no world action was taken yet"),
            UnknownKey => f.write_str("no fact has that key"),
            KeyExists => f.write_str("a fact with that key exists"),
            BeliefFull => f.write_str("belief is full"),
            BadConfidence => f.write_str("confidence must be within [0, 1]"),
            UnknownStep => f.write_str("no step has that index"),
            NoActiveStep => f.write_str("no step is active"),
            IllegalTransition { from, verb } => {
                write!(f, "a {from:?} step cannot take {verb:?}")
            }
            MissingCursor => f.write_str("the cursor verb needs a cursor value"),
            PlanFull => f.write_str("the plan is full"),
            UnknownLesson => f.write_str("no lesson is in that slot"),
            ExperienceFull => f.write_str("experience is full"),
            BadCount => f.write_str("recall k must be between 1 and RECALL_MAX"),
            UnknownTemplate => f.write_str("no action template has that index"),
        }
    }
}

impl core::error::Error for ApplyError {}

fixed! {
    Change = TAG;
    Verb = TAG;
    StepRef = TAG + u16::BOUND;
}
impl MaxEncoded for Arg<'_> {
    const BOUND: usize = TAG + max(Value::BOUND, u16::BOUND);
}
impl MaxEncoded for KeyArg<'_> {
    const BOUND: usize = TAG + max(KeyBuf::BOUND, u16::BOUND);
}
impl MaxEncoded for Track<'_> {
    const BOUND: usize = TAG + KeyArg::BOUND + Arg::BOUND + f32::BOUND;
}
impl MaxEncoded for Commit<'_> {
    const BOUND: usize = TAG
        + max(
            Arg::BOUND,
            StepRef::BOUND + StepVerb::BOUND + Option::<Arg<'_>>::BOUND,
        );
}
impl MaxEncoded for Note<'_> {
    const BOUND: usize = TAG + max(2 * Arg::BOUND, u16::BOUND + bool::BOUND);
}
impl MaxEncoded for Action<'_> {
    const BOUND: usize = TAG
        + max(
            max(u16::BOUND + seq(ARGS_MAX, Arg::BOUND), Track::BOUND),
            max(max(Commit::BOUND, Arg::BOUND + u8::BOUND), Note::BOUND),
        );
}
impl MaxEncoded for Costs {
    const BOUND: usize = 6 * u16::BOUND;
}
impl MaxEncoded for ToolCall {
    const BOUND: usize = u16::BOUND + seq(ARGS_MAX, Value::BOUND);
}
impl MaxEncoded for Outcome {
    const BOUND: usize = TAG
        + max(
            max(ToolCall::BOUND, seq(REMOVE_MAX, KeyBuf::BOUND) + u16::BOUND),
            max(
                seq(RECALL_MAX, Recalled::BOUND),
                seq(REMOVE_MAX, Value::BOUND) + u16::BOUND,
            ),
        );
}
impl MaxEncoded for ApplyError {
    const BOUND: usize = TAG + Status::BOUND + StepVerb::BOUND;
}
