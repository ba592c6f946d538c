//! The workspace: Belief, Progress and Experience, the current event, the step budget, and
//! `apply`, the one deterministic function that changes them.

use serde::{Deserialize, Serialize};

use crate::action::{
    Action, ApplyError, Arg, Change, Commit, Costs, KeyArg, Note, Outcome, StepRef, ToolCall,
    Track, Verb,
};
use crate::belief::{Belief, Fact, Provenance};
use crate::event::{Event, EventBuf};
use crate::experience::{Experience, Lesson, Loaded};
use crate::max::MaxEncoded;
use crate::progress::{Progress, Status, Step, StepVerb};
use crate::table::Slots;
use crate::value::{KeyBuf, Value, copy_key};
use crate::{CAPACITY_MAX, RECALL_MAX, TOOLS_MAX};

/// How a workspace is set up: the task's tool count, the step budget and the action costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Config {
    /// How many world tools the task has (1 to [`TOOLS_MAX`]).
    pub tools: u16,
    /// The step budget: the total cost all actions of a task may spend.
    pub budget: u32,
    /// What each verb costs.
    pub costs: Costs,
}

impl Config {
    /// A config with default costs.
    pub fn new(tools: u16, budget: u32) -> Self {
        Self {
            tools,
            budget,
            costs: Costs::default(),
        }
    }
}

/// The sizes everything else is derived from: table capacities and the tool count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Capacities {
    /// Belief slots.
    pub facts: u16,
    /// Progress steps.
    pub steps: u16,
    /// Experience lessons.
    pub lessons: u16,
    /// World tools.
    pub tools: u16,
}

impl Capacities {
    /// Checks every capacity is within its bounds (1 to [`CAPACITY_MAX`], tools 1 to
    /// [`TOOLS_MAX`]).
    pub const fn validate(&self) -> Result<(), CapacityError> {
        const fn ok(n: u16) -> bool {
            n >= 1 && n as usize <= CAPACITY_MAX
        }
        if !ok(self.facts) || !ok(self.steps) || !ok(self.lessons) {
            return Err(CapacityError::Table);
        }
        if self.tools == 0 || self.tools as usize > TOOLS_MAX {
            return Err(CapacityError::Tools);
        }
        Ok(())
    }
}

/// A capacity out of bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CapacityError {
    /// A table capacity is 0 or above [`CAPACITY_MAX`].
    Table,
    /// The tool count is 0 or above [`TOOLS_MAX`].
    Tools,
    /// A copy to restore from ([`Workspace::restore_tables`]) holds more facts, steps or
    /// lessons than this workspace has room for.
    Mismatch,
}

impl core::fmt::Display for CapacityError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            CapacityError::Table => write!(f, "table capacities must be 1 to {CAPACITY_MAX}"),
            CapacityError::Tools => write!(f, "the tool count must be 1 to {TOOLS_MAX}"),
            CapacityError::Mismatch => {
                write!(f, "the copy holds more than this workspace has room for")
            }
        }
    }
}

impl core::error::Error for CapacityError {}

/// How a workspace stores its three tables.
pub trait Storage {
    /// Belief facts.
    type Facts: Slots<Fact>;
    /// Progress steps.
    type Steps: Slots<Step>;
    /// Experience lessons.
    type Lessons: Slots<Lesson>;
}

/// Tables inline in the workspace, capacities fixed at compile time: `F` facts, `S` steps, `L`
/// lessons. Each must be between 1 and [`crate::CAPACITY_MAX`].
#[derive(Debug)]
pub struct Inline<const F: usize, const S: usize, const L: usize>;

impl<const F: usize, const S: usize, const L: usize> Storage for Inline<F, S, L> {
    type Facts = [Fact; F];
    type Steps = [Step; S];
    type Lessons = [Lesson; L];
}

/// Tables on the heap, capacities chosen at run time; allocated once, at construction.
#[cfg(feature = "alloc")]
#[derive(Debug)]
pub struct Heap;

#[cfg(feature = "alloc")]
impl Storage for Heap {
    type Facts = alloc::boxed::Box<[Fact]>;
    type Steps = alloc::boxed::Box<[Step]>;
    type Lessons = alloc::boxed::Box<[Lesson]>;
}

/// A workspace whose tables live inline, with capacities fixed at compile time.
pub type InlineWorkspace<const F: usize, const S: usize, const L: usize> =
    Workspace<Inline<F, S, L>>;

/// A workspace whose capacities were chosen at run time.
#[cfg(feature = "alloc")]
pub type HeapWorkspace = Workspace<Heap>;

/// The agent's workspace. See the [crate docs](crate) for an example.
///
/// It holds Belief, Progress and Experience, the current event and the step budget;
/// [`Workspace::apply`] is the one deterministic function that changes them.
///
/// `apply` works in two phases. [`Workspace::check`] resolves every argument and validates
/// the whole action against the current state without touching it (it *stages* the action);
/// only then is the staged change applied, which cannot fail. So a refused action changes
/// nothing, and the legal-action mask is exactly "would `apply` succeed".
#[derive(Debug)]
pub struct Workspace<S: Storage> {
    pub(crate) config: Config,
    /// Successful actions over the workspace's life (experience outlives tasks, so this does
    /// too); facts and lessons are dated by it.
    pub(crate) clock: u32,
    /// Budget spent in the current task.
    pub(crate) spent: u32,
    pub(crate) finished: Option<bool>,
    pub(crate) last_act: Option<u16>,
    /// Harness actions since the last world action of this task (saturating).
    pub(crate) streak: u16,
    /// The verb of the last action of this task.
    pub(crate) last_verb: Option<Verb>,
    pub(crate) event: Option<EventBuf>,
    pub(crate) belief: Belief<S::Facts>,
    pub(crate) progress: Progress<S::Steps>,
    pub(crate) experience: Experience<S::Lessons>,
}

impl<const F: usize, const S: usize, const L: usize> Workspace<Inline<F, S, L>> {
    /// A workspace with inline tables of `F` facts, `S` steps and `L` lessons.
    ///
    /// Capacities out of bounds fail to compile; a tool count out of bounds is an error.
    pub fn new(config: Config) -> Result<Self, CapacityError> {
        const {
            assert!(
                F >= 1 && F <= CAPACITY_MAX,
                "fact capacity must be 1..=CAPACITY_MAX"
            );
            assert!(
                S >= 1 && S <= CAPACITY_MAX,
                "step capacity must be 1..=CAPACITY_MAX"
            );
            assert!(
                L >= 1 && L <= CAPACITY_MAX,
                "lesson capacity must be 1..=CAPACITY_MAX"
            );
        }
        Self::from_slots(
            core::array::from_fn(|_| Fact::default()),
            core::array::from_fn(|_| Step::default()),
            core::array::from_fn(|_| Lesson::default()),
            config,
        )
    }
}

#[cfg(feature = "alloc")]
impl Workspace<Heap> {
    /// A workspace with capacities chosen at run time. Each table is allocated here, once;
    /// nothing allocates after.
    pub fn with_capacities(
        facts: u16,
        steps: u16,
        lessons: u16,
        config: Config,
    ) -> Result<Self, CapacityError> {
        Capacities {
            facts,
            steps,
            lessons,
            tools: config.tools,
        }
        .validate()?;
        fn boxed<T: Clone + Default>(n: u16) -> alloc::boxed::Box<[T]> {
            alloc::vec![T::default(); usize::from(n)].into_boxed_slice()
        }
        Self::from_slots(boxed(facts), boxed(steps), boxed(lessons), config)
    }
}

impl<St: Storage> Workspace<St> {
    fn from_slots(
        facts: St::Facts,
        steps: St::Steps,
        lessons: St::Lessons,
        config: Config,
    ) -> Result<Self, CapacityError> {
        let ws = Self {
            config,
            clock: 0,
            spent: 0,
            finished: None,
            last_act: None,
            streak: 0,
            last_verb: None,
            event: None,
            belief: Belief::new(facts),
            progress: Progress::new(steps),
            experience: Experience::new(lessons),
        };
        ws.capacities().validate()?;
        Ok(ws)
    }

    /// The capacities, tool count included.
    pub fn capacities(&self) -> Capacities {
        // Validated at construction: each fits u16.
        Capacities {
            facts: self.belief.capacity() as u16,
            steps: self.progress.capacity() as u16,
            lessons: self.experience.capacity() as u16,
            tools: self.config.tools,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Belief.
    pub fn belief(&self) -> &Belief<St::Facts> {
        &self.belief
    }

    /// Progress.
    pub fn progress(&self) -> &Progress<St::Steps> {
        &self.progress
    }

    /// Experience.
    pub fn experience(&self) -> &Experience<St::Lessons> {
        &self.experience
    }

    /// The current event, if any.
    pub fn event(&self) -> Option<&EventBuf> {
        self.event.as_ref()
    }

    /// Successful actions over the workspace's life.
    pub fn clock(&self) -> u32 {
        self.clock
    }

    /// Budget spent in the current task.
    pub fn spent(&self) -> u32 {
        self.spent
    }

    /// Budget left in the current task.
    pub fn remaining(&self) -> u32 {
        self.config.budget.saturating_sub(self.spent)
    }

    /// Whether the budget is spent: what is left pays for no action but `finish` (with every
    /// verb costing 1, whether nothing is left).
    pub fn budget_spent(&self) -> bool {
        let c = &self.config.costs;
        let cheapest = [c.act, c.track, c.commit, c.recall, c.note]
            .into_iter()
            .min()
            .unwrap_or(0);
        self.remaining() < u32::from(cheapest)
    }

    /// `Some(claimed success)` once the task has finished.
    pub fn finished(&self) -> Option<bool> {
        self.finished
    }

    /// The tool index of the last world action of this task.
    pub fn last_act(&self) -> Option<u16> {
        self.last_act
    }

    /// How many harness actions (`track`, `commit`, `recall`, `note`) were applied since the
    /// last world action of this task, or since it began (saturating at `u16::MAX`). A
    /// structured-v2 observation shows it, so that a policy can tell a workspace it has just
    /// edited from the same workspace before the edit.
    pub fn harness_streak(&self) -> u16 {
        self.streak
    }

    /// The verb of the last action applied in this task (`None` at its start and after a
    /// restart from a durable copy).
    pub fn last_verb(&self) -> Option<Verb> {
        self.last_verb
    }

    /// Makes `event` the current event (a copy; the borrow ends here). Costs nothing.
    pub fn observe(&mut self, event: &Event<'_>) {
        self.observe_owned(EventBuf::from_event(event));
    }

    /// Makes an owned event the current event.
    pub fn observe_owned(&mut self, event: EventBuf) {
        self.event = Some(event);
    }

    /// Starts the next task: clears Belief, Progress, the current event, the budget spent and
    /// the finished flag. Experience (and the clock that dates it) is kept: that is its point.
    pub fn reset_task(&mut self) {
        self.belief.table.clear();
        self.progress.table.clear();
        for l in self.experience.table.as_mut_slice() {
            l.recalled = false;
        }
        self.event = None;
        self.spent = 0;
        self.finished = None;
        self.last_act = None;
        self.streak = 0;
        self.last_verb = None;
    }

    /// A restart from a durable copy: Belief, Progress and Experience become `durable`'s
    /// (copied slot by slot; nothing is allocated), as when the process that runs this
    /// workspace restarts from the checkpoint it wrote last. What the world saw go on does not
    /// roll back: the budget spent and the clock stay this workspace's (facts and lessons keep
    /// the dates they had in `durable`). The last world action and the current event are
    /// forgotten, as a restarted process has neither; observe the restart's event next. The
    /// same call takes a durable copy: `copy.restore_tables(&workspace)`.
    ///
    /// An error, with nothing changed, if `durable` holds more facts, steps or lessons than
    /// this workspace has room for.
    pub fn restore_tables<S2: Storage>(
        &mut self,
        durable: &Workspace<S2>,
    ) -> Result<(), CapacityError> {
        let caps = self.capacities();
        if durable.belief.table.len() > usize::from(caps.facts)
            || durable.progress.table.len() > usize::from(caps.steps)
            || durable.experience.table.len() > usize::from(caps.lessons)
        {
            return Err(CapacityError::Mismatch);
        }
        let fits = self.belief.table.copy_from(&durable.belief.table).is_ok()
            && self
                .progress
                .table
                .copy_from(&durable.progress.table)
                .is_ok()
            && self
                .experience
                .table
                .copy_from(&durable.experience.table)
                .is_ok();
        debug_assert!(fits, "checked above");
        self.last_act = None;
        self.streak = 0;
        self.last_verb = None;
        self.event = None;
        Ok(())
    }

    /// The value `arg` points at now (what an action taking it would use).
    pub fn resolve(&self, arg: &Arg<'_>) -> Result<Value, ApplyError> {
        Ok(self.value(arg)?.0)
    }

    /// Brings a lesson from outside the workspace (a runtime's experience store behind this
    /// working set) into Experience, with its remedy and counters, ahead of a recall of
    /// `query`. Not an action: it costs nothing and does not advance the clock.
    ///
    /// A lesson with the same trigger takes the new remedy and counters in its slot; otherwise
    /// the lesson goes into a free slot; when Experience is full, the weakest lesson (in
    /// consolidation's order) whose trigger does not match `query` is evicted to make room,
    /// so that lessons loaded for one recall never push each other out. If every lesson
    /// matches `query`, the lesson is handed back. A loaded lesson is dated now
    /// (`last_use`) and not marked recalled. Deterministic; triggers stay unique.
    pub fn load_lesson(&mut self, mut lesson: Lesson, query: &Value) -> Result<Loaded, Lesson> {
        lesson.last_use = self.clock;
        lesson.recalled = false;
        self.experience.load(lesson, query)
    }

    /// Applies one action: see the [type docs](Workspace). Deterministic, total, and a refused
    /// action changes nothing.
    pub fn apply(&mut self, action: &Action<'_>) -> Result<Outcome, ApplyError> {
        let staged = self.stage(action)?;
        Ok(self.apply_staged(staged))
    }

    /// Whether `apply(action)` would succeed, without changing anything.
    pub fn check(&self, action: &Action<'_>) -> Result<(), ApplyError> {
        self.stage(action).map(|_| ())
    }

    fn field(&self, n: u8) -> Result<&crate::event::FieldBuf, ApplyError> {
        let ev = self.event.as_ref().ok_or(ApplyError::NoEvent)?;
        ev.fields.get(usize::from(n)).ok_or(ApplyError::NoField)
    }

    fn fact(&self, n: u16) -> Result<&Fact, ApplyError> {
        self.belief
            .facts()
            .get(usize::from(n))
            .ok_or(ApplyError::NoFact)
    }

    fn value(&self, arg: &Arg<'_>) -> Result<(Value, Provenance, u16), ApplyError> {
        Ok(match arg {
            Arg::Lit(v) => (v.to_owned(), Provenance::Literal, 0),
            Arg::Field(n) => {
                let f = self.field(*n)?;
                let src = self.event.as_ref().map_or(0, |e| e.source);
                (f.value.clone(), Provenance::Event, src)
            }
            Arg::Fact(n) => (self.fact(*n)?.value.clone(), Provenance::Belief, 0),
            Arg::LastAct => {
                let t = self.last_act.ok_or(ApplyError::NoLastAct)?;
                (Value::Int(i64::from(t)), Provenance::Action, t)
            }
        })
    }

    fn key(&self, key: &KeyArg<'_>) -> Result<KeyBuf, ApplyError> {
        Ok(match key {
            KeyArg::Lit(k) => copy_key(k.as_str()),
            KeyArg::Field(n) => self.field(*n)?.key.clone(),
            KeyArg::Fact(n) => self.fact(*n)?.key.clone(),
        })
    }

    /// The slot of an existing fact.
    fn existing(&self, key: &KeyArg<'_>) -> Result<usize, ApplyError> {
        if let KeyArg::Fact(n) = key {
            self.fact(*n)?;
            return Ok(usize::from(*n));
        }
        let k = self.key(key)?;
        self.belief
            .get(&k)
            .map(|(i, _)| i)
            .ok_or(ApplyError::UnknownKey)
    }

    fn step(&self, r: StepRef) -> Result<usize, ApplyError> {
        match r {
            StepRef::Index(i) if usize::from(i) < self.progress.len() => Ok(usize::from(i)),
            StepRef::Index(_) => Err(ApplyError::UnknownStep),
            StepRef::Active => self.progress.active().ok_or(ApplyError::NoActiveStep),
        }
    }

    fn stage(&self, action: &Action<'_>) -> Result<Staged, ApplyError> {
        if self.finished.is_some() {
            return Err(ApplyError::Finished);
        }
        let cost = self.config.costs.of(action.verb());
        if u32::from(cost) > self.remaining() {
            return Err(ApplyError::OverBudget);
        }
        // -0.0 is stored as +0.0, so that eviction order (IEEE total order) cannot tell them
        // apart.
        let conf = |c: f32| {
            if (0.0..=1.0).contains(&c) {
                Ok(if c == 0.0 { 0.0 } else { c })
            } else {
                Err(ApplyError::BadConfidence)
            }
        };
        let change = match action {
            Action::Act { tool, args } => {
                if *tool >= self.config.tools {
                    return Err(ApplyError::UnknownTool);
                }
                let mut call = ToolCall {
                    tool: *tool,
                    args: heapless::Vec::new(),
                };
                for a in args {
                    // Same capacity as `args`: cannot overflow.
                    let _ = call.args.push(self.value(a)?.0);
                }
                Resolved::Call(call)
            }
            Action::Track(Track::Set {
                key,
                value,
                confidence,
            }) => {
                let confidence = conf(*confidence)?;
                let key = self.key(key)?;
                if self.belief.get(&key).is_some() {
                    return Err(ApplyError::KeyExists);
                }
                if self.belief.table.is_full() {
                    return Err(ApplyError::BeliefFull);
                }
                let (value, provenance, source) = self.value(value)?;
                Resolved::Set {
                    key,
                    value,
                    confidence,
                    provenance,
                    source,
                }
            }
            Action::Track(Track::Revise {
                key,
                value,
                confidence,
            }) => {
                let confidence = conf(*confidence)?;
                let slot = self.existing(key)?;
                let (value, provenance, source) = self.value(value)?;
                Resolved::Revise {
                    slot,
                    value,
                    confidence,
                    provenance,
                    source,
                }
            }
            Action::Track(Track::Confirm { key }) => Resolved::Confirm {
                slot: self.existing(key)?,
            },
            Action::Track(Track::Retract { key }) => Resolved::Retract {
                slot: self.existing(key)?,
            },
            Action::Track(Track::Compress { keep }) => Resolved::Compress {
                keep: usize::from(*keep),
            },
            Action::Commit(Commit::Plan { label }) => {
                if self.progress.table.is_full() {
                    return Err(ApplyError::PlanFull);
                }
                Resolved::PlanStep {
                    label: self.value(label)?.0,
                }
            }
            Action::Commit(Commit::Step { step, verb, value }) => {
                let slot = self.step(*step)?;
                let from = self.progress.steps()[slot].status;
                let to = from
                    .after(*verb)
                    .ok_or(ApplyError::IllegalTransition { from, verb: *verb })?;
                let value = match value {
                    Some(a) => Some(self.value(a)?.0),
                    None if *verb == StepVerb::Cursor => return Err(ApplyError::MissingCursor),
                    None => None,
                };
                Resolved::Step {
                    slot,
                    verb: *verb,
                    to,
                    value,
                }
            }
            Action::Recall { query, k } => {
                if *k == 0 || usize::from(*k) > RECALL_MAX {
                    return Err(ApplyError::BadCount);
                }
                Resolved::Recall {
                    query: self.value(query)?.0,
                    k: usize::from(*k),
                }
            }
            Action::Note(Note::Add { trigger, remedy }) => {
                let trigger = self.value(trigger)?.0;
                let remedy = self.value(remedy)?.0;
                let slot = self.experience.find(&trigger);
                if slot.is_none() && self.experience.table.is_full() {
                    return Err(ApplyError::ExperienceFull);
                }
                Resolved::Note {
                    slot,
                    trigger,
                    remedy,
                }
            }
            Action::Note(Note::Rate { lesson, helpful }) => {
                if usize::from(*lesson) >= self.experience.len() {
                    return Err(ApplyError::UnknownLesson);
                }
                Resolved::Rate {
                    slot: usize::from(*lesson),
                    helpful: *helpful,
                }
            }
            Action::Note(Note::Consolidate { keep }) => Resolved::Consolidate {
                keep: usize::from(*keep),
            },
            Action::Finish { success } => Resolved::Finish { success: *success },
        };
        Ok(Staged {
            cost,
            verb: action.verb(),
            change,
        })
    }

    fn apply_staged(&mut self, staged: Staged) -> Outcome {
        self.spent += u32::from(staged.cost);
        self.clock = self.clock.wrapping_add(1);
        self.last_verb = Some(staged.verb);
        self.streak = match staged.verb {
            Verb::Act => 0,
            Verb::Finish => self.streak,
            _ => self.streak.saturating_add(1),
        };
        let now = self.clock;
        // Slot indices fit u16: capacities are validated at construction.
        let s16 = |i: usize| i as u16;
        match staged.change {
            Resolved::Call(call) => {
                self.last_act = Some(call.tool);
                Outcome::Call(call)
            }
            Resolved::Set {
                key,
                value,
                confidence,
                provenance,
                source,
            } => {
                let fact = Fact {
                    key,
                    value,
                    confidence,
                    provenance,
                    source,
                    set_at: now,
                    confirmed_at: now,
                };
                // Checked not full in `stage`.
                let slot = self.belief.table.push(fact).unwrap_or_default();
                Outcome::Tracked {
                    slot: s16(slot),
                    change: Change::Created,
                }
            }
            Resolved::Revise {
                slot,
                value,
                confidence,
                provenance,
                source,
            } => {
                let f = &mut self.belief.table.as_mut_slice()[slot];
                f.value = value;
                f.confidence = confidence;
                f.provenance = provenance;
                f.source = source;
                f.set_at = now;
                f.confirmed_at = now;
                Outcome::Tracked {
                    slot: s16(slot),
                    change: Change::Revised,
                }
            }
            Resolved::Confirm { slot } => {
                self.belief.table.as_mut_slice()[slot].confirmed_at = now;
                Outcome::Tracked {
                    slot: s16(slot),
                    change: Change::Confirmed,
                }
            }
            Resolved::Retract { slot } => {
                self.belief.table.remove(slot);
                Outcome::Tracked {
                    slot: s16(slot),
                    change: Change::Retracted,
                }
            }
            Resolved::Compress { keep } => {
                let mut removed = heapless::Vec::new();
                while self.belief.len() > keep && !removed.is_full() {
                    let Some(i) = self.belief.weakest(now) else {
                        break;
                    };
                    let _ = removed.push(self.belief.table.remove(i).key);
                }
                Outcome::Compressed {
                    removed,
                    over: s16(self.belief.len().saturating_sub(keep)),
                }
            }
            Resolved::PlanStep { label } => {
                let step = Step {
                    label,
                    updated_at: now,
                    ..Step::default()
                };
                let slot = self.progress.table.push(step).unwrap_or_default();
                Outcome::Committed {
                    step: s16(slot),
                    status: Status::Pending,
                }
            }
            Resolved::Step {
                slot,
                verb,
                to,
                value,
            } => {
                let s = &mut self.progress.table.as_mut_slice()[slot];
                s.status = to;
                s.updated_at = now;
                if verb.is_attempt() {
                    s.attempts = s.attempts.saturating_add(1);
                }
                match verb {
                    StepVerb::Fail => s.last_error = value,
                    StepVerb::Cursor => s.cursor = value,
                    _ => {}
                }
                Outcome::Committed {
                    step: s16(slot),
                    status: to,
                }
            }
            Resolved::Recall { query, k } => {
                let found = self.experience.matches::<RECALL_MAX>(&query, k);
                let lessons = self.experience.table.as_mut_slice();
                for l in lessons.iter_mut() {
                    l.recalled = false;
                }
                for r in &found {
                    let l = &mut lessons[usize::from(r.slot)];
                    l.uses = l.uses.saturating_add(1);
                    l.last_use = now;
                    l.recalled = true;
                }
                Outcome::Recalled(found)
            }
            Resolved::Note {
                slot: Some(slot),
                trigger: _,
                remedy,
            } => {
                let l = &mut self.experience.table.as_mut_slice()[slot];
                if l.remedy.same(&remedy) {
                    l.noted = l.noted.saturating_add(1);
                } else {
                    l.remedy = remedy;
                    l.helpful = 0;
                    l.harmful = 0;
                    l.noted = 1;
                }
                Outcome::Noted {
                    slot: s16(slot),
                    merged: true,
                }
            }
            Resolved::Note {
                slot: None,
                trigger,
                remedy,
            } => {
                let lesson = Lesson {
                    trigger,
                    remedy,
                    noted: 1,
                    last_use: now,
                    ..Lesson::default()
                };
                let slot = self.experience.table.push(lesson).unwrap_or_default();
                Outcome::Noted {
                    slot: s16(slot),
                    merged: false,
                }
            }
            Resolved::Rate { slot, helpful } => {
                let l = &mut self.experience.table.as_mut_slice()[slot];
                if helpful {
                    l.helpful = l.helpful.saturating_add(1);
                } else {
                    l.harmful = l.harmful.saturating_add(1);
                }
                Outcome::Rated { slot: s16(slot) }
            }
            Resolved::Consolidate { keep } => {
                let mut removed = heapless::Vec::new();
                while self.experience.len() > keep && !removed.is_full() {
                    let Some(i) = self.experience.weakest() else {
                        break;
                    };
                    let _ = removed.push(self.experience.table.remove(i).trigger);
                }
                let over = self.experience.len().saturating_sub(keep);
                Outcome::Consolidated {
                    removed,
                    over: s16(over),
                }
            }
            Resolved::Finish { success } => {
                self.finished = Some(success);
                Outcome::Finished { success }
            }
        }
    }
}

/// A checked action, resolved against the state; applying it cannot fail.
struct Staged {
    cost: u16,
    verb: Verb,
    change: Resolved,
}

enum Resolved {
    Call(ToolCall),
    Set {
        key: KeyBuf,
        value: Value,
        confidence: f32,
        provenance: Provenance,
        source: u16,
    },
    Revise {
        slot: usize,
        value: Value,
        confidence: f32,
        provenance: Provenance,
        source: u16,
    },
    Confirm {
        slot: usize,
    },
    Retract {
        slot: usize,
    },
    Compress {
        keep: usize,
    },
    PlanStep {
        label: Value,
    },
    Step {
        slot: usize,
        verb: StepVerb,
        to: Status,
        value: Option<Value>,
    },
    Recall {
        query: Value,
        k: usize,
    },
    Note {
        slot: Option<usize>,
        trigger: Value,
        remedy: Value,
    },
    Rate {
        slot: usize,
        helpful: bool,
    },
    Consolidate {
        keep: usize,
    },
    Finish {
        success: bool,
    },
}

impl<St: Storage> Clone for Workspace<St>
where
    St::Facts: Clone,
    St::Steps: Clone,
    St::Lessons: Clone,
{
    fn clone(&self) -> Self {
        Self {
            config: self.config,
            clock: self.clock,
            spent: self.spent,
            finished: self.finished,
            last_act: self.last_act,
            streak: self.streak,
            last_verb: self.last_verb,
            event: self.event.clone(),
            belief: self.belief.clone(),
            progress: self.progress.clone(),
            experience: self.experience.clone(),
        }
    }
}

impl MaxEncoded for Config {
    const BOUND: usize = u16::BOUND + u32::BOUND + Costs::BOUND;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lesson(trigger: &str, remedy: i64, helpful: u16) -> Lesson {
        Lesson {
            trigger: Value::text(trigger).unwrap(),
            remedy: Value::Int(remedy),
            helpful,
            noted: 1,
            ..Lesson::default()
        }
    }

    #[test]
    fn load_lesson_updates_adds_then_evicts_the_weakest_lesson_off_the_query() {
        let mut ws = InlineWorkspace::<2, 2, 3>::new(Config::new(1, 100)).unwrap();
        let q = Value::text("E4").unwrap();
        assert_eq!(
            ws.load_lesson(lesson("E429", 1, 0), &q),
            Ok(Loaded::Added { slot: 0 })
        );
        assert_eq!(
            ws.load_lesson(lesson("X1", 2, 3), &q),
            Ok(Loaded::Added { slot: 1 })
        );
        assert_eq!(
            ws.load_lesson(lesson("X2", 3, 1), &q),
            Ok(Loaded::Added { slot: 2 })
        );
        // Same trigger: new remedy and counters, same slot.
        assert_eq!(
            ws.load_lesson(lesson("X1", 9, 2), &q),
            Ok(Loaded::Updated { slot: 1 })
        );
        let x1 = &ws.experience().lessons()[1];
        assert_eq!((x1.remedy.clone(), x1.helpful), (Value::Int(9), 2));
        // Full: E429 is the weakest but matches the query, so X2 (net 1 < 2) makes room.
        let Ok(Loaded::Replaced { slot, evicted }) = ws.load_lesson(lesson("E401", 4, 0), &q)
        else {
            panic!("expected a replacement");
        };
        assert_eq!((slot, evicted.trigger), (2, Value::text("X2").unwrap()));
        assert_eq!(
            ws.load_lesson(lesson("E402", 5, 0), &q),
            Ok(Loaded::Replaced {
                slot: 2,
                evicted: Lesson {
                    last_use: 0,
                    ..lesson("X1", 9, 2)
                },
            })
        );
        // Every lesson matches the query now: the lesson is handed back, nothing changes.
        let before: heapless::Vec<Lesson, 3> = ws.experience().lessons().iter().cloned().collect();
        let back = ws.load_lesson(lesson("E403", 6, 0), &q).unwrap_err();
        assert_eq!(back.trigger, Value::text("E403").unwrap());
        assert_eq!(ws.experience().lessons(), &before[..]);
        // Loading is not an action: no clock tick, no budget.
        assert_eq!((ws.clock(), ws.spent()), (0, 0));
        assert!(ws.experience().lessons().iter().all(|l| !l.recalled));
    }
}
