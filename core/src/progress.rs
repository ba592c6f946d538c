//! Progress: the plan, step statuses and resumable cursors.

use serde::{Deserialize, Serialize};

use crate::max::{MaxEncoded, TAG, fixed};
use crate::table::{Slots, Table};
use crate::value::Value;

/// The status of a step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum Status {
    /// Planned, not started.
    #[default]
    Pending = 0,
    /// Being worked on.
    Active = 1,
    /// Finished successfully.
    Done = 2,
    /// Finished unsuccessfully; may be retried.
    Failed = 3,
    /// Waiting on something outside the agent.
    Blocked = 4,
    /// Deliberately not done.
    Skipped = 5,
}

impl Status {
    /// How many statuses there are (the width of a one-hot encoding).
    pub const COUNT: usize = 6;

    /// The status after `verb`, or `None` when the transition is illegal.
    pub const fn after(self, verb: StepVerb) -> Option<Status> {
        use Status::*;
        match (verb, self) {
            (StepVerb::Start, Pending | Blocked) => Some(Active),
            (StepVerb::Complete, Active) => Some(Done),
            (StepVerb::Fail, Active) => Some(Failed),
            (StepVerb::Block, Pending | Active) => Some(Blocked),
            (StepVerb::Skip, Pending | Blocked | Failed) => Some(Skipped),
            (StepVerb::Retry, Failed | Blocked | Done | Skipped) => Some(Active),
            (StepVerb::Cursor, Active) => Some(Active),
            _ => None,
        }
    }
}

/// A verb that changes an existing step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum StepVerb {
    /// Make a pending or blocked step active.
    Start = 0,
    /// Mark an active step done.
    Complete = 1,
    /// Mark an active step failed.
    Fail = 2,
    /// Mark a step blocked.
    Block = 3,
    /// Skip a step that is not running or done.
    Skip = 4,
    /// Re-open a failed, blocked, done or skipped step.
    Retry = 5,
    /// Record a resumable cursor on an active step ("where to resume"). Not to be confused
    /// with the runtime's agent checkpoint *file*, which saves the whole agent.
    Cursor = 6,
}

impl StepVerb {
    /// Every verb, in discriminant order.
    pub const ALL: [StepVerb; 7] = [
        StepVerb::Start,
        StepVerb::Complete,
        StepVerb::Fail,
        StepVerb::Block,
        StepVerb::Skip,
        StepVerb::Retry,
        StepVerb::Cursor,
    ];

    /// Whether the verb counts a new attempt.
    pub const fn is_attempt(self) -> bool {
        matches!(self, StepVerb::Start | StepVerb::Retry)
    }
}

/// One step of the plan.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// What the step is (a name, an id, a batch number).
    pub label: Value,
    /// Where the step stands.
    pub status: Status,
    /// How many times the step was started or retried.
    pub attempts: u16,
    /// The last cursor recorded (`cursor` verb): where to resume.
    pub cursor: Option<Value>,
    /// The error recorded by the last `fail`.
    pub last_error: Option<Value>,
    /// The workspace clock at the step's last change.
    pub updated_at: u32,
}

/// The Progress part of a workspace: the plan, step statuses and resumable cursors.
///
/// Steps are appended by `plan` and never reordered; a step's index is its identity for the
/// whole task. Every status change goes through [`Status::after`], the one transition table:
///
/// | verb | from | to |
/// | --- | --- | --- |
/// | start | pending, blocked | active (attempts + 1) |
/// | complete | active | done |
/// | fail | active | failed (records the error) |
/// | block | pending, active | blocked |
/// | skip | pending, blocked, failed | skipped |
/// | retry | failed, blocked, done, skipped | active (attempts + 1) |
/// | cursor | active | active (records the cursor) |
///
/// Anything else is [`ApplyError::IllegalTransition`](crate::ApplyError::IllegalTransition):
/// a done step is re-opened only by an explicit retry.
#[derive(Clone, Debug)]
pub struct Progress<S> {
    pub(crate) table: Table<Step, S>,
}

impl<S: Slots<Step>> Progress<S> {
    pub(crate) fn new(slots: S) -> Self {
        Self {
            table: Table::new(slots),
        }
    }

    /// The steps, in plan order.
    pub fn steps(&self) -> &[Step] {
        self.table.as_slice()
    }

    /// How many steps are planned.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether no step is planned.
    pub fn is_empty(&self) -> bool {
        self.table.len() == 0
    }

    /// How many steps fit.
    pub fn capacity(&self) -> usize {
        self.table.capacity()
    }

    /// The first active step.
    pub fn active(&self) -> Option<usize> {
        self.steps().iter().position(|s| s.status == Status::Active)
    }

    /// How many steps have this status.
    pub fn count(&self, status: Status) -> usize {
        self.steps().iter().filter(|s| s.status == status).count()
    }
}

fixed! {
    Status = TAG;
    StepVerb = TAG;
}
impl MaxEncoded for Step {
    const BOUND: usize =
        Value::BOUND + Status::BOUND + u16::BOUND + 2 * Option::<Value>::BOUND + u32::BOUND;
}
